#include "host/scenario/scenario_driver.h"

#include <cmath>

#include "fleetdyn/physics/core/math.h"
#include "host/scenario/yaml_input.h"

namespace fleetdyn {

using namespace yaml_input;

namespace {

// A path given along +x from the origin, moved to start at the initial pose.
Path placed(Path p, const InitialCondition& at) {
  const double c = std::cos(at.yaw), s = std::sin(at.yaw);
  for (PathPoint& q : p.points) {
    const double x = q.x, y = q.y;
    q.x = at.x + c * x - s * y;
    q.y = at.y + s * x + c * y;
  }
  return p;
}

}  // namespace

DriverSpec parse_driver(const Ctx& ctx, const YAML::Node& node, const InitialCondition& initial) {
  if (!node.IsMap()) ctx.fail(node, "driver", "expected a mapping with 'type', got " + describe(node));
  YAML::Node type_node;
  const std::string type = ctx.kind_key(node, "type", "driver.type", &type_node);
  static const std::vector<std::string> kTypes = {"path", "fishhook", "sine_with_dwell", "j_turn", "step_steer"};
  if (type.empty()) ctx.fail(node, "driver.type", "required key is missing (one of: " + join(kTypes) + ")");
  ctx.require_one_of(type_node, "driver.type", type, kTypes, "driver");
  DriverSpec d;
  d.type = type;
  std::vector<std::string> allowed = {"type"};
  if (type == "path") {
    allowed.insert(allowed.end(), {"path", "speed", "radius", "left", "vehicle_width", "points", "closed", "tracker"});
#define FLEETDYN_ALLOW_SETTING(name, ...) allowed.push_back(#name);
    FLEETDYN_PATH_DRIVER_SETTINGS(FLEETDYN_ALLOW_SETTING)
#undef FLEETDYN_ALLOW_SETTING
  } else {
    allowed.insert(allowed.end(), {"amplitude", "rate", "start_time", "throttle", "throttle_before", "brake"});
    if (type == "fishhook") allowed.insert(allowed.end(), {"hold", "roll_rate_threshold_deg"});
    if (type == "sine_with_dwell") allowed.insert(allowed.end(), {"frequency", "dwell"});
    if (type == "j_turn" || type == "step_steer") allowed.push_back("hold");
  }
  const MapReader m(ctx, node, "driver", allowed, " for driver type " + type);
  const auto num = [&](const char* key, double lo, double hi, double dflt, const char* unit = "") {
    const YAML::Node* n = m.find(key);
    return n ? ctx.number_in(*n, m.path(key), lo, hi, unit) : dflt;
  };
  const auto pos = [&](const char* key, double hi, double dflt, const char* unit) {
    const YAML::Node* n = m.find(key);
    return n ? ctx.positive(*n, m.path(key), hi, unit) : dflt;
  };

  if (type == "path") {
    d.kind = DriverSpec::Kind::Path;
    const YAML::Node& shape_node = m.require("path");
    d.path_shape = ctx.string(shape_node, "driver.path");
    ctx.require_one_of(shape_node, "driver.path", d.path_shape, {"circle", "iso3888_1", "iso3888_2", "points"}, "path");
    // Keys that belong to one shape only.
    const auto only_for = [&](const char* key, const char* shape) {
      if (m.find(key) && d.path_shape != shape) {
        ctx.fail(*m.find(key), m.path(key), std::string("only for path: ") + shape);
      }
    };
    only_for("radius", "circle");
    only_for("left", "circle");
    only_for("vehicle_width", "iso3888_2");
    only_for("points", "points");
    only_for("closed", "points");
    if (d.path_shape == "points") {
      if (m.find("speed"))
        ctx.fail(*m.find("speed"), "driver.speed", "path: points gives each point its speed ([x, y, speed])");
      const YAML::Node& pts = m.require("points");
      if (!pts.IsSequence() || pts.size() < 2) ctx.fail(pts, "driver.points", "expected at least 2 rows [x, y, speed]");
      for (size_t i = 0; i < pts.size(); ++i) {
        const std::string field = "driver.points[" + std::to_string(i) + "]";
        const YAML::Node row = pts[i];
        if (!row.IsSequence() || row.size() != 3) ctx.fail(row, field, "expected a row [x, y, speed] of 3 numbers");
        const PathPoint p{ctx.number_in(row[0], field + "[0]", -1.0e7, 1.0e7, "m"),
                          ctx.number_in(row[1], field + "[1]", -1.0e7, 1.0e7, "m"),
                          ctx.number_in(row[2], field + "[2]", 0.0, 200.0, "m/s")};
        if (!d.path.points.empty() && p.x == d.path.points.back().x && p.y == d.path.points.back().y) {
          ctx.fail(row, field, "repeats the previous point");
        }
        d.path.points.push_back(p);
      }
      if (const YAML::Node* n = m.find("closed")) d.path.closed = ctx.boolean(*n, "driver.closed");
    } else {
      const double speed = ctx.number_in(m.require("speed"), "driver.speed", 0.0, 200.0, "m/s");
      if (d.path_shape == "circle") {
        const double radius = ctx.positive(m.require("radius"), "driver.radius", 1.0e4, "m");
        const bool left = m.find("left") ? ctx.boolean(*m.find("left"), "driver.left") : true;
        d.path = circle_path(radius, speed, 720, initial.x, initial.y, initial.yaw, left);
      } else if (d.path_shape == "iso3888_1") {
        d.path = placed(iso3888_1_path(speed), initial);
      } else {
        const double width = ctx.positive(m.require("vehicle_width"), "driver.vehicle_width", 10.0, "m");
        d.vehicle_width = width;
        d.path = placed(iso3888_2_path(width, speed), initial);
      }
    }
    PathDriverSettings& st = d.settings;
    if (const YAML::Node* n = m.find("tracker")) {
      const std::string t = ctx.string(*n, "driver.tracker");
      ctx.require_one_of(*n, "driver.tracker", t, {"pure_pursuit", "stanley"}, "tracker");
      st.tracker = t == "stanley" ? PathTracker::Stanley : PathTracker::PurePursuit;
    }
    st.lookahead_base = pos("lookahead_base", 1.0e3, st.lookahead_base, "m");
    st.lookahead_gain = num("lookahead_gain", 0.0, 100.0, st.lookahead_gain, "s");
    st.stanley_gain = pos("stanley_gain", 1.0e3, st.stanley_gain, "1/s");
    st.stanley_softening = pos("stanley_softening", 1.0e3, st.stanley_softening, "m/s");
    st.max_steer_rate = num("max_steer_rate", 0.0, 1.0e3, st.max_steer_rate, "1/s");
    st.speed_kp = num("speed_kp", 0.0, 1.0e3, st.speed_kp, "s/m");
    st.speed_ki = num("speed_ki", 0.0, 1.0e3, st.speed_ki, "1/m");
    return d;
  }

  d.kind = DriverSpec::Kind::Program;
  const double amplitude = ctx.number_in(m.require("amplitude"), "driver.amplitude", -1.0, 1.0);
  const double rate = pos("rate", 1.0e3, 1.0, "1/s");
  const double start = num("start_time", 0.0, 1.0e6, 0.5, "s");
  if (type == "fishhook") {
    d.program = nhtsa_fishhook(amplitude, rate, start);
    d.program.hold = pos("hold", 1.0e6, d.program.hold, "s");
    d.program.roll_rate_threshold = deg_to_rad(pos("roll_rate_threshold_deg", 1.0e3, 1.5, "deg/s"));
  } else if (type == "sine_with_dwell") {
    d.program = sine_with_dwell(amplitude, start);
    d.program.rate = rate;
    d.program.frequency = pos("frequency", 100.0, d.program.frequency, "Hz");
    d.program.dwell = num("dwell", 0.0, 1.0e3, d.program.dwell, "s");
  } else {
    d.program = j_turn(amplitude, rate, start);
    d.program.hold = num("hold", 0.0, 1.0e6, 0.0, "s");
  }
  d.program.throttle = num("throttle", 0.0, 1.0, 0.0);
  d.program.throttle_before = num("throttle_before", 0.0, 1.0, type == "step_steer" ? d.program.throttle : 0.0);
  d.program.brake = num("brake", 0.0, 1.0, 0.0);
  return d;
}

void apply_driver(Batch& batch, const DriverSpec& spec, const Maneuver& table, const std::vector<SteerProgram>& programs) {
  switch (spec.kind) {
    case DriverSpec::Kind::Table: batch.set_maneuvers({table}); break;
    case DriverSpec::Kind::Path: batch.set_path_driver({spec.path}, {}, {spec.settings}); break;
    case DriverSpec::Kind::Program:
      batch.set_steer_program(programs.empty() ? std::vector<SteerProgram>{spec.program} : programs);
      break;
  }
}

}  // namespace fleetdyn
