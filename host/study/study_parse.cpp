#include "host/study/study_parse.h"

#include <algorithm>
#include <cmath>

#include "fleetdyn/physics/core/terrain_soil.h"
#include "host/batch/model_params.h"
#include "host/output/output_files.h"
#include "host/study/trajectories_h5.h"

namespace fleetdyn::study {

using namespace yaml_input;

namespace {

struct ExtraName {
  const char* name;
  const char* unit;
  double min, max;
  SampleTarget target;
};
// Bounds as the scenario's own keys (initial.*) or what keeps the physics meaningful.
const ExtraName kExtraNames[] = {
    {"initial.speed", "m/s", 0.0, 200.0, SampleTarget::InitialSpeed},
    {"initial.lateral_speed", "m/s", -50.0, 50.0, SampleTarget::InitialLateralSpeed},
    {"initial.yaw_deg", "deg", -360.0, 360.0, SampleTarget::InitialYawDeg},
    {"initial.x", "m", -1.0e7, 1.0e7, SampleTarget::InitialX},
    {"initial.y", "m", -1.0e7, 1.0e7, SampleTarget::InitialY},
    {"maneuver.steer_scale", "-", -10.0, 10.0, SampleTarget::SteerScale},
    {"maneuver.time_scale", "-", 0.01, 100.0, SampleTarget::TimeScale},
    {"terrain.mu_scale", "-", 0.0, 10.0, SampleTarget::MuScale},
    {"driver.amplitude", "-", -1.0, 1.0, SampleTarget::DriverAmplitude},
    {"driver.rate", "1/s", 1.0e-6, 1.0e3, SampleTarget::DriverRate},
    {"driver.start_time", "s", 0.0, 1.0e6, SampleTarget::DriverStartTime},
    // The sample's own terrain (a TerrainVariation of the batch's, physics/core/terrain.h).
    {"terrain.class", "-", 1.0, 8.0, SampleTarget::TerrainClass},
    {"terrain.roughness", "m^3", 1.0e-9, 1.0, SampleTarget::TerrainRoughness},
    {"terrain.relief_scale", "-", -100.0, 100.0, SampleTarget::TerrainReliefScale},
    {"terrain.offset_x", "m", -1.0e7, 1.0e7, SampleTarget::TerrainOffsetX},
    {"terrain.offset_y", "m", -1.0e7, 1.0e7, SampleTarget::TerrainOffsetY},
    // The sample's own soil (terrain.soil must be given); the ranges are check_soil_params'.
    {"terrain.soil.k_c", "N/m^(n+1)", 0.0, 1.0e9, SampleTarget::TerrainSoil},
    {"terrain.soil.k_phi", "N/m^(n+2)", 0.0, 1.0e10, SampleTarget::TerrainSoil},
    {"terrain.soil.n", "-", 0.05, 2.0, SampleTarget::TerrainSoil},
    {"terrain.soil.cohesion", "Pa", 0.0, 1.0e6, SampleTarget::TerrainSoil},
    {"terrain.soil.friction_angle_deg", "deg", 0.0, kSoilFrictionAngleMax * 180.0 / kPi, SampleTarget::TerrainSoil},
    {"terrain.soil.shear_modulus", "m", 1.0e-5, 1.0, SampleTarget::TerrainSoil},
    {"terrain.soil.c1", "-", 0.0, 1.0, SampleTarget::TerrainSoil},
    {"terrain.soil.c2", "-", 0.0, 1.0, SampleTarget::TerrainSoil},
    {"terrain.soil.unit_weight", "N/m^3", 0.0, 1.0e5, SampleTarget::TerrainSoil},
    // The curb's height (0: none) and its shift across its line (terrain.curb).
    {"terrain.curb_height", "m", 0.0, 2.0, SampleTarget::TerrainCurbHeight},
    {"terrain.curb_offset", "m", -1.0e7, 1.0e7, SampleTarget::TerrainCurbOffset},
};

// The terrain types whose relief a sample can scale and move (TerrainVariation), and which of
// those names each takes.
bool terrain_name_fits(SampleTarget target, const std::string& terrain_type) {
  const bool relief = terrain_type == "rough_road" || terrain_type == "hill" || terrain_type == "heightfield";
  switch (target) {
    case SampleTarget::TerrainClass:
    case SampleTarget::TerrainRoughness: return terrain_type == "rough_road";
    case SampleTarget::TerrainReliefScale:
    case SampleTarget::TerrainOffsetX:
    case SampleTarget::TerrainOffsetY: return relief;
    default: return true;
  }
}

// An ISO 8608 class written as a letter A..H, as its number 1..8 (terrain.class).
bool road_class_letter(const YAML::Node& n, double* out) {
  if (!n.IsScalar()) return false;
  const std::string& t = n.Scalar();
  if (t.size() != 1 || t[0] < 'A' || t[0] > 'H') return false;
  *out = static_cast<double>(t[0] - 'A' + 1);
  return true;
}

// The distribution's keys: `dist` picks the kind, which decides the other keys. road_class: the
// values, bounds and fixed value may also be ISO 8608 class letters (terrain.class).
Distribution parse_distribution(const Ctx& ctx, const YAML::Node& node, const std::string& field, bool road_class) {
  if (!node.IsMap())
    ctx.fail(node, field, "expected a distribution such as {dist: normal, mean: 1, sd: 0.1}, got " + describe(node));
  YAML::Node kind_node;
  const std::string kind_name = ctx.kind_key(node, "dist", field + ".dist", &kind_node);
  static const std::vector<std::string> kKinds = {"fixed",     "uniform", "normal", "truncated_normal",
                                                  "lognormal", "choice"};
  if (kind_name.empty()) ctx.fail(node, field + ".dist", "required key is missing (one of: " + join(kKinds) + ")");
  ctx.require_one_of(kind_node, field + ".dist", kind_name, kKinds, "distribution");
  Distribution d;
  parse_distribution_kind(kind_name, &d.kind);
  std::vector<std::string> allowed = {"dist"};
  switch (d.kind) {
    case DistributionKind::Fixed: allowed.push_back("value"); break;
    case DistributionKind::Uniform: allowed.insert(allowed.end(), {"min", "max"}); break;
    case DistributionKind::Normal: allowed.insert(allowed.end(), {"mean", "sd"}); break;
    case DistributionKind::TruncatedNormal: allowed.insert(allowed.end(), {"mean", "sd", "min", "max"}); break;
    case DistributionKind::LogNormal: allowed.insert(allowed.end(), {"mu", "sigma"}); break;
    case DistributionKind::Choice: allowed.insert(allowed.end(), {"values", "weights"}); break;
  }
  const MapReader m(ctx, node, field, allowed, " for a " + kind_name + " distribution");
  const auto value = [&](const YAML::Node& n, const std::string& path) {
    double letter = 0.0;
    if (road_class && road_class_letter(n, &letter)) return letter;
    return ctx.number(n, path);
  };
  const auto num = [&](const char* key) { return ctx.number(m.require(key), m.path(key)); };
  const auto val = [&](const char* key) { return value(m.require(key), m.path(key)); };
  switch (d.kind) {
    case DistributionKind::Fixed: d.value = val("value"); break;
    case DistributionKind::Uniform:
      d.min = val("min");
      d.max = val("max");
      break;
    case DistributionKind::Normal:
    case DistributionKind::TruncatedNormal:
      d.mean = num("mean");
      d.sd = num("sd");
      if (d.kind == DistributionKind::TruncatedNormal) {
        d.min = val("min");
        d.max = val("max");
      }
      break;
    case DistributionKind::LogNormal:
      d.mu = num("mu");
      d.sigma = num("sigma");
      break;
    case DistributionKind::Choice: {
      const auto list = [&](const char* key, std::vector<double>& out, bool classes) {
        const YAML::Node& n = m.require(key);
        if (!n.IsSequence() || n.size() == 0)
          ctx.fail(n, m.path(key), "expected a list of numbers, got " + describe(n));
        for (size_t i = 0; i < n.size(); ++i) {
          const std::string path = m.path(key) + "[" + std::to_string(i) + "]";
          out.push_back(classes ? value(n[i], path) : ctx.number(n[i], path));
        }
      };
      list("values", d.values, true);
      if (m.find("weights")) {
        list("weights", d.weights, false);
      } else {
        d.weights.assign(d.values.size(), 1.0);
      }
      break;
    }
  }
  try {
    validate_distribution(d);
  } catch (const Error& e) {
    // The message starts with the offending key ("sd: must be > 0"); point at that key's line.
    const std::string what = e.what();
    const size_t colon = what.find(": ");
    if (colon == std::string::npos) ctx.fail(node, field, what);
    const std::string sub = what.substr(0, colon);  // "sd", "weights[2]"
    const YAML::Node* at = m.find(sub.substr(0, sub.find('[')));
    ctx.fail(at ? *at : node, field + "." + sub, what.substr(colon + 2));
  }
  return d;
}

// Where the distribution lives: its support, or its central 1 - 2e-9 for unbounded ones.
void distribution_range(const Distribution& d, double* lo, double* hi) {
  *lo = inverse_cdf(d, 1.0e-9);
  *hi = inverse_cdf(d, 1.0 - 1.0e-9);
}

SampledParameter sampled_parameter(const Ctx& ctx, const YAML::Node& key, const std::string& name, const Scenario& s) {
  SampledParameter p;
  p.name = name;
  p.line = line_of(key);
  const std::string field = "study.parameters." + name;
  for (const ExtraName& e : kExtraNames) {
    if (name == e.name) {
      if (e.target == SampleTarget::TerrainSoil && !s.terrain.desc.soil_region)
        ctx.fail(key, field, "samples the soil, but this scenario's terrain has no soil (terrain.soil)");
      if (!terrain_name_fits(e.target, s.terrain_type)) {
        ctx.fail(key, field,
                 "cannot be sampled on terrain type " + s.terrain_type +
                     " (terrain.class and terrain.roughness: "
                     "rough_road; terrain.relief_scale, terrain.offset_x, terrain.offset_y: rough_road, hill, "
                     "heightfield)");
      }
      const bool for_curb = e.target == SampleTarget::TerrainCurbHeight || e.target == SampleTarget::TerrainCurbOffset;
      if (for_curb && !(s.terrain.desc.curb_height > 0.0)) {
        ctx.fail(key, field,
                 "moves or raises the scenario's curb, but its terrain has none (terrain: {..., curb: {height: ...}})");
      }
      const bool for_table = e.target == SampleTarget::SteerScale || e.target == SampleTarget::TimeScale;
      const bool for_program = e.target == SampleTarget::DriverAmplitude || e.target == SampleTarget::DriverRate ||
                               e.target == SampleTarget::DriverStartTime;
      if (for_table && s.driver.kind != DriverSpec::Kind::Table) {
        ctx.fail(key, field,
                 "scales the maneuver table, but this scenario has a driver (sample driver.amplitude instead)");
      }
      if (for_program && s.driver.kind != DriverSpec::Kind::Program) {
        ctx.fail(key, field,
                 "needs a programmed driver (driver: {type: fishhook | sine_with_dwell | j_turn | step_steer, ...})");
      }
      p.unit = e.unit;
      p.min = e.min;
      p.max = e.max;
      p.target = e.target;
      return p;
    }
  }
  for (const auto& f : model_param_fields(s.params.model())) {
    if (name == f.name) {
      p.unit = f.unit;
      p.min = f.min;
      p.max = f.max;
      p.target = SampleTarget::VehicleParam;
      for (const auto& o : s.overrides) {
        if (o.name == name)
          ctx.fail(key, field, "'" + name + "' is also set in vehicle.overrides; give it in one place");
      }
      return p;
    }
  }
  std::vector<std::string> known;
  for (const auto& f : model_param_fields(s.params.model())) known.emplace_back(f.name);
  for (const ExtraName& e : kExtraNames) known.emplace_back(e.name);
  const bool terrain = name.rfind("terrain.", 0) == 0;
  ctx.fail(key, field,
           terrain ? "cannot be sampled: a sample's terrain differs from the batch's only by its friction "
                     "(terrain.mu_scale), its relief's roughness (terrain.class, terrain.roughness, "
                     "terrain.relief_scale), position (terrain.offset_x, terrain.offset_y), soil "
                     "(terrain.soil.k_c, ...) and its curb's height and position (terrain.curb_height, "
                     "terrain.curb_offset); the shape itself "
                     "(length, width, dx, dy, seed, slope, radius, ...) is shared by all vehicles of a batch" +
                         suggestion(name, known)
                   : "unknown parameter '" + name + "' of a " + std::string(model_name(s.params.model())) +
                         " study (vehicle parameters: `fleetdyn params --model " + model_name(s.params.model()) +
                         "`; also initial.speed, initial.lateral_speed, initial.yaw_deg, initial.x, initial.y, "
                         "maneuver.steer_scale, "
                         "maneuver.time_scale, terrain.mu_scale, terrain.class, terrain.roughness, "
                         "terrain.relief_scale, terrain.offset_x, terrain.offset_y, terrain.soil.<field>, "
                         "terrain.curb_height, terrain.curb_offset, driver.amplitude, driver.rate, "
                         "driver.start_time)" +
                         suggestion(name, known));
}

}  // namespace

const std::vector<std::string>& extra_sampled_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const ExtraName& e : kExtraNames) out.emplace_back(e.name);
    return out;
  }();
  return names;
}

int64_t StudySpec::run_count() const { return sobol_sensitivity ? samples * (dimensions() + 2) : samples; }

void parse_study(const Ctx& ctx, const YAML::Node& node, Scenario& s) {
  StudySpec& st = s.study;
  st = StudySpec{};
  st.enabled = true;
  st.line = line_of(node);
  const MapReader m(ctx, node, "study",
                    {"samples", "seed", "sampling", "chunk", "sensitivity", "parameters", "rollover", "lane_departure",
                     "path_deviation", "worst_by", "trajectories"});
  {
    const YAML::Node& n = m.require("samples");
    st.samples = ctx.integer64_in(n, "study.samples", 1, kMaxStudySamples);
  }
  if (const YAML::Node* n = m.find("seed"))
    st.seed = static_cast<uint64_t>(ctx.integer64_in(*n, "study.seed", 0, 1LL << 53));
  if (const YAML::Node* n = m.find("sampling")) {
    const std::string name = ctx.string(*n, "study.sampling");
    ctx.require_one_of(*n, "study.sampling", name, {"random", "lhs", "sobol"}, "sampling");
    parse_sampling_method(name, &st.sampling);
  }
  if (const YAML::Node* n = m.find("chunk")) st.chunk = ctx.integer_in(*n, "study.chunk", 1, 100000000);
  if (const YAML::Node* n = m.find("sensitivity")) {
    const std::string name = ctx.string(*n, "study.sensitivity");
    ctx.require_one_of(*n, "study.sensitivity", name, {"rank", "sobol"}, "sensitivity");
    st.sobol_sensitivity = name == "sobol";
  }
  {
    const YAML::Node& n = m.require("parameters");
    const MapReader pm(ctx, n, "study.parameters", {});  // names checked one by one, with a suggestion
    if (pm.entries().empty()) ctx.fail(n, "study.parameters", "expected at least one sampled parameter");
    for (const auto& e : pm.entries()) {
      SampledParameter p = sampled_parameter(ctx, e.key, e.name, s);
      const std::string field = "study.parameters." + e.name;
      p.distribution = parse_distribution(ctx, e.value, field, p.target == SampleTarget::TerrainClass);
      double lo = 0.0, hi = 0.0;
      distribution_range(p.distribution, &lo, &hi);
      if (hi < p.min || lo > p.max) {
        ctx.fail(e.value, field,
                 "the distribution lies entirely outside the allowed range [" + fmt(p.min) + ", " + fmt(p.max) + "]" +
                     (p.unit == "-" ? "" : " " + p.unit) + " of " + e.name);
      }
      if (lo < p.min || hi > p.max) {
        s.warnings.push_back(s.path + ":" + std::to_string(line_of(e.value)) + ": " + field +
                             ": part of the distribution lies outside the allowed range [" + fmt(p.min) + ", " +
                             fmt(p.max) + "]; samples there are recorded as invalid and not simulated");
      }
      if (p.target == SampleTarget::TimeScale && lo <= 0.0) {
        ctx.fail(e.value, field, "maneuver.time_scale must stay > 0 (use a bounded or log-normal distribution)");
      }
      st.parameters.push_back(std::move(p));
    }
    // One name sets a sample's relief height: two would contradict each other.
    std::string relief;
    for (size_t i = 0; i < st.parameters.size(); ++i) {
      const SampleTarget t = st.parameters[i].target;
      if (t != SampleTarget::TerrainClass && t != SampleTarget::TerrainRoughness && t != SampleTarget::TerrainReliefScale)
        continue;
      if (!relief.empty()) {
        ctx.fail(st.parameters[i].line, "study.parameters." + st.parameters[i].name,
                 "sets the relief's height, as " + relief +
                     " does already: sample one of terrain.class, "
                     "terrain.roughness, terrain.relief_scale");
      }
      relief = st.parameters[i].name;
    }
  }
  if (const YAML::Node* n = m.find("rollover")) {
    const MapReader rm(ctx, *n, "study.rollover", {"roll_deg", "two_wheel_lift_s"});
    if (const YAML::Node* v = rm.find("roll_deg"))
      st.rollover.roll_deg = ctx.number_in(*v, "study.rollover.roll_deg", 1.0, 180.0, "deg");
    if (const YAML::Node* v = rm.find("two_wheel_lift_s")) {
      st.rollover.two_wheel_lift_s = ctx.positive(*v, "study.rollover.two_wheel_lift_s", 1.0e6, "s");
    }
  }
  {
    // The path events' thresholds; the vehicle width from the driver or the model.
    PathEventCriteria& pe = st.path_events;
    pe.vehicle_width = s.driver.vehicle_width > 0.0 ? s.driver.vehicle_width : model_vehicle_width(s.params);
    const YAML::Node* lane = m.find("lane_departure");
    if (lane) {
      const MapReader lm(ctx, *lane, "study.lane_departure", {"lane_width", "vehicle_width"});
      if (const YAML::Node* v = lm.find("lane_width"))
        pe.lane_width = ctx.positive(*v, "study.lane_departure.lane_width", 100.0, "m");
      if (const YAML::Node* v = lm.find("vehicle_width")) {
        pe.vehicle_width = ctx.positive(*v, "study.lane_departure.vehicle_width", 20.0, "m");
      }
    }
    const YAML::Node* dev = m.find("path_deviation");
    if (dev) {
      const MapReader dm(ctx, *dev, "study.path_deviation", {"max"});
      pe.max_deviation = ctx.positive(dm.require("max"), "study.path_deviation.max", 1.0e4, "m");
    }
    for (const YAML::Node* n : {lane, dev}) {
      if (n && s.driver.kind != DriverSpec::Kind::Path) {
        ctx.fail(*n, n == lane ? "study.lane_departure" : "study.path_deviation",
                 "is an event of path drivers (driver: {type: path, ...}); this scenario has none");
      }
    }
    if (s.driver.kind == DriverSpec::Kind::Path && !(pe.lane_departure_deviation() > 0.0)) {
      ctx.fail(lane ? *lane : node, "study.lane_departure",
               "the vehicle (" + fmt(pe.vehicle_width) + " m) is not narrower than the lane (" + fmt(pe.lane_width) +
                   " m)");
    }
  }
  if (const YAML::Node* n = m.find("worst_by")) {
    st.worst_by = ctx.string(*n, "study.worst_by");
    std::vector<std::string> allowed;
    for (const MetricInfo& info : kMetricInfo) {
      if (!is_event_time(info)) allowed.emplace_back(info.name);
    }
    if (std::find(allowed.begin(), allowed.end(), st.worst_by) == allowed.end()) {
      ctx.fail(*n, "study.worst_by",
               "'" + st.worst_by + "' is not a metric that ranks samples (allowed: " + join(allowed) + ")" +
                   suggestion(st.worst_by, allowed));
    }
  }
  if (const YAML::Node* n = m.find("trajectories")) {
    const MapReader tm(ctx, *n, "study.trajectories", {"worst", "points"});
    st.trajectories_worst = ctx.integer_in(tm.require("worst"), "study.trajectories.worst", 1, 10000);
    if (const YAML::Node* v = tm.find("points"))
      st.trajectory_points = ctx.integer_in(*v, "study.trajectories.points", 2, 1000000);
    if (!built_with_hdf5()) {
      ctx.fail(*n, "study.trajectories", "this fleetdyn was built without HDF5 (install libhdf5-dev and rebuild)");
    }
  }
  if (st.sobol_sensitivity && st.run_count() > kMaxStudySamples) {
    ctx.fail(m.require("samples"), "study.samples",
             "with sensitivity: sobol the study needs samples * (d + 2) = " + std::to_string(st.run_count()) +
                 " runs, more than the limit");
  }
  if (!s.sweeps.empty())
    ctx.fail(node, "study", "a study cannot be combined with vehicle.sweep (sample the parameter instead)");
}

}  // namespace fleetdyn::study
