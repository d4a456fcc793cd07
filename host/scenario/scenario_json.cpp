#include "host/scenario/scenario_json.h"

#include <cmath>
#include <utility>

namespace fleetdyn {

using json = nlohmann::ordered_json;

json scenario_json(const Scenario& s) {
  json j;
  j["file"] = s.path;
  j["name"] = s.name;
  j["model"] = s.model;
  json vehicle;
  if (s.vehicle_file.empty()) {
    vehicle["preset"] = s.preset;
  } else {
    vehicle["file"] = s.vehicle_file;
  }
  vehicle["overrides"] = json::object();
  for (const auto& o : s.overrides) vehicle["overrides"][o.name] = o.value;
  vehicle["sweep"] = json::array();
  for (const auto& sw : s.sweeps) vehicle["sweep"].push_back({{"name", sw.name}, {"from", sw.from}, {"to", sw.to}});
  j["vehicle"] = vehicle;
  const TerrainDesc<double>& d = s.terrain.desc;
  json terrain = {{"type", s.terrain_type}, {"mu_scale", d.mu_scale}, {"base_height", d.base_height}};
  if (s.terrain_type == "plane") {
    terrain["slope_deg"] = s.terrain_slope_deg;
    terrain["bank_deg"] = s.terrain_bank_deg;
  } else if (s.terrain_type == "hill") {
    terrain["x"] = d.hill_x;
    terrain["y"] = d.hill_y;
    terrain["height"] = d.hill_height;
    terrain["radius"] = d.hill_radius;
  } else if (s.terrain_type == "loop") {
    terrain["x"] = d.loop_x;
    terrain["radius"] = d.loop_radius;
    terrain["lateral_shift"] = d.loop_lateral_shift;
    terrain["track_width"] = d.loop_track_width;
  } else if (s.terrain_type == "rough_road") {
    const RoughRoadSettings& r = s.rough_road;
    if (r.roughness > 0.0) {
      terrain["roughness"] = r.roughness;
    } else {
      terrain["class"] = std::string(1, r.road_class);
    }
    terrain["length"] = r.length;
    terrain["width"] = r.width;
    terrain["dx"] = r.spacing_x;
    terrain["dy"] = r.spacing_y;
    terrain["seed"] = r.seed;
    terrain["psd_n0"] = rough_road_psd(r);
    terrain["per_sample"] = s.terrain_per_sample;
  } else if (s.terrain_type == "heightfield") {
    terrain["file"] = s.heightfield_file;
    terrain["path"] = s.heightfield_path;
    terrain["nx"] = d.hf_nx;
    terrain["ny"] = d.hf_ny;
    terrain["x0"] = d.hf_x0;
    terrain["y0"] = d.hf_y0;
    terrain["dx"] = d.hf_dx;
    terrain["dy"] = d.hf_dy;
  }
  if (d.kind == TerrainKind::Heightfield) terrain["tire_envelope"] = d.hf_envelope != 0;
  if (d.soil_region) {  // terrain.soil (host/scenario/scenario.cpp parse_soil); open bounds left out
    json soil = {{"slip_speed", d.soil_slip_speed}, {"edge_width", d.soil_edge_width}};
    const std::pair<const char*, double> bounds[] = {{"x_min", d.soil_x_min},
                                                     {"x_max", d.soil_x_max},
                                                     {"y_min", d.soil_y_min},
                                                     {"y_max", d.soil_y_max}};
    for (const auto& b : bounds) {
      if (std::isfinite(b.second)) soil[b.first] = b.second;
    }
#define FLEETDYN_SOIL_JSON_FIELD(unused, name) soil[#name] = d.soil.name;
    FLEETDYN_SOIL_FIELDS(FLEETDYN_SOIL_JSON_FIELD, )
#undef FLEETDYN_SOIL_JSON_FIELD
    terrain["soil"] = soil;
  }
  if (d.curb_height > 0.0) {
    const double deg = 180.0 / 3.14159265358979323846;
    terrain["curb"] = {{"height", d.curb_height},
                       {"x", d.curb_x},
                       {"y", d.curb_y},
                       {"heading_deg", d.curb_heading * deg},
                       {"face_angle_deg", d.curb_face_angle * deg},
                       {"edge_radius", d.curb_edge_radius},
                       {"width", d.curb_width}};
  }
  j["terrain"] = terrain;
  j["initial"] = {{"speed", s.initial.speed},
                  {"lateral_speed", s.initial.lateral_speed},
                  {"x", s.initial.x},
                  {"y", s.initial.y},
                  {"yaw_deg", s.initial_yaw_deg}};
  json maneuver = json::array();
  for (const auto& p : s.maneuver) maneuver.push_back({p.time, p.steer, p.throttle, p.brake});
  j["maneuver"] = maneuver;
  const DriverSpec& dr = s.driver;
  json driver = {{"type", dr.type}};
  if (dr.kind == DriverSpec::Kind::Path) {
    driver["path"] = dr.path_shape;
    driver["closed"] = dr.path.closed;
    driver["points"] = dr.path.points.size();
    driver["length_m"] = path_length(dr.path);
    driver["tracker"] = dr.settings.tracker == PathTracker::Stanley ? "stanley" : "pure_pursuit";
  } else if (dr.kind == DriverSpec::Kind::Program) {
    const SteerProgram& p = dr.program;
    driver.update({{"amplitude", p.amplitude},
                   {"rate", p.rate},
                   {"start_time", p.start_time},
                   {"hold", p.hold},
                   {"frequency", p.frequency},
                   {"dwell", p.dwell},
                   {"roll_rate_threshold_rad_per_s", p.roll_rate_threshold},
                   {"throttle", p.throttle},
                   {"throttle_before", p.throttle_before},
                   {"brake", p.brake}});
  }
  j["driver"] = driver;
  j["vehicles"] = s.vehicles;
  j["duration"] = s.duration;
  j["step"] = s.step;
  j["step_is_default"] = s.step_is_default;
  j["substeps"] = s.substeps;
  j["contact_requery"] = s.contact_requery;
  j["precision"] = precision_name(s.precision);
  j["backend"] = backend_name(s.backend);
  j["cpu_threads"] = s.cpu_threads;
  j["capsize_roll_deg"] = s.capsize_roll_deg;
  // The solver settings the run used, given or default, for a model that takes them.
  if (with_model(s.params.model(), [](auto host) { return decltype(host)::kTakesPgsSolver; })) {
    const PgsVehicleDef& p = s.pgs;
    const bool rows = p.wheel_contact == pgsv::WheelContact::Rows;
    json solver = {{"iterations", p.iterations},
                   {"baumgarte", p.baumgarte},
                   {"warm_start", p.warm_start},
                   {"wheel_contact", rows ? "rows" : "tire"}};
    // As the scenario takes it: the cone only with the rigid wheels' friction rows.
    if (rows) solver["friction_cone"] = p.cone == pgs::FrictionCone::Pyramid ? "pyramid" : "circular";
    j["pgs"] = solver;
  }
  j["output"] = s.output;
  j["text"] = s.text;
  return j;
}

}  // namespace fleetdyn
