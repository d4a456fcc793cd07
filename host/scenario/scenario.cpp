// Scenario files (see scenario.h for the format): YAML -> validated Scenario.
#include "host/scenario/scenario.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <type_traits>

#include "fleetdyn/physics/core/terrain_soil.h"
#include "fleetdyn/vehicle.h"
#include "host/scenario/heightfield_file.h"
#include "host/scenario/terrain_element_keys.h"
#include "host/scenario/vehicle_file.h"
#include "host/scenario/yaml_input.h"
#include "host/study/study_parse.h"

namespace fleetdyn {

ScenarioError::ScenarioError(std::string file, int line, std::string field, const std::string& what)
    : Error(file + (line > 0 ? ":" + std::to_string(line) : std::string()) + ": " +
            (field.empty() ? std::string() : field + ": ") + what),
      file_(std::move(file)),
      line_(line),
      field_(std::move(field)) {}

namespace {

using namespace yaml_input;

const VehicleParamField* find_param_field(VehicleModel model, const std::string& name) {
  for (const auto& f : model_param_fields(model)) {
    if (name == f.name) return &f;
  }
  return nullptr;
}

std::vector<std::string> param_names(VehicleModel model) {
  std::vector<std::string> names;
  for (const auto& f : model_param_fields(model)) names.emplace_back(f.name);
  return names;
}

// A parameter name given as a key (override) or value (sweep): must be in the model's table.
const VehicleParamField& param_field(const Ctx& ctx, VehicleModel model, const YAML::Node& at, const std::string& field,
                                     const std::string& name) {
  const VehicleParamField* f = find_param_field(model, name);
  if (!f) {
    const std::vector<std::string> names = param_names(model);
    const std::string hint = suggestion(name, names);
    // A model with another field table that knows the name (ce and pgs share ce's).
    bool elsewhere = false;
    for_each_model([&](auto host) {
      if (&decltype(host)::fields() != &model_param_fields(model) && find_param_field(decltype(host)::kModel, name)) {
        elsewhere = true;
      }
    });
    const std::string other = elsewhere ? " (a parameter of the other model; this scenario's model is '" +
                                              std::string(model_name(model)) + "')"
                                        : "";
    ctx.fail(at, field,
             "unknown " + std::string(model_name(model)) + " vehicle parameter '" + name + "'" + other +
                 (hint.empty() ? " (known: " + join(names) + ")" : hint));
  }
  return *f;
}

double param_value(const Ctx& ctx, const YAML::Node& n, const std::string& field, const VehicleParamField& f) {
  const double v = ctx.number(n, field);
  if (!(v >= f.min && v <= f.max)) {
    const std::string unit = std::string(f.unit) == "-" ? "" : std::string(" ") + f.unit;
    ctx.fail(n, field,
             fmt(v) + " is outside the allowed range [" + fmt(f.min) + ", " + fmt(f.max) + "]" + unit + " of " + f.name);
  }
  return v;
}

void parse_vehicle(const Ctx& ctx, const YAML::Node& node, Scenario& s) {
  const MapReader m(ctx, node, "vehicle", {"preset", "file", "overrides", "sweep"});
  const YAML::Node* file = m.find("file");
  if (file && m.find("preset")) {
    ctx.fail(*file, "vehicle.file", "give either 'preset' or 'file', not both");
  }
  if (const YAML::Node* p = m.find("preset")) {
    s.preset = ctx.string(*p, "vehicle.preset");
    const auto presets = vehicle_preset_names();
    if (std::find(presets.begin(), presets.end(), s.preset) == presets.end()) {
      ctx.fail(*p, "vehicle.preset",
               "unknown vehicle preset '" + s.preset + "' (known: " + join(presets) + ")" + suggestion(s.preset, presets));
    }
  }
  if (file) {
    s.vehicle_file = ctx.string(*file, "vehicle.file");
    const std::filesystem::path rel(s.vehicle_file);
    s.vehicle_path = rel.is_absolute() ? rel.string() : (std::filesystem::path(ctx.file).parent_path() / rel).string();
    try {
      s.params = model_params_from_definition(s.params.model(), load_vehicle_file(s.vehicle_path));
    } catch (const Error& e) {
      ctx.fail(*file, "vehicle.file", e.what());
    }
  } else {
    s.params = model_preset(s.params.model(), s.preset);
  }

  int overrides_line = 0;
  if (const YAML::Node* o = m.find("overrides")) {
    overrides_line = line_of(*o);
    if (!o->IsNull()) {                                      // "overrides:" with nothing under it is an empty set
      const MapReader om(ctx, *o, "vehicle.overrides", {});  // names checked below, with a suggestion
      for (const auto& e : om.entries()) {
        const std::string field = "vehicle.overrides." + e.name;
        const VehicleParamField& f = param_field(ctx, s.params.model(), e.key, field, e.name);
        const double v = param_value(ctx, e.value, field, f);
        *model_param_ptr(s.params, e.name) = v;
        s.overrides.push_back({e.name, v});
      }
    }
  }
  try {
    finalize_model_params(s.params);
  } catch (const Error& e) {
    ctx.fail(overrides_line, "vehicle.overrides", e.what());
  }

  if (const YAML::Node* sw = m.find("sweep")) {
    std::vector<YAML::Node> items;
    if (sw->IsSequence()) {
      for (const auto& item : *sw) items.push_back(item);
      if (items.empty()) ctx.fail(*sw, "vehicle.sweep", "expected at least one {name, from, to}");
    } else {
      items.push_back(*sw);
    }
    for (size_t i = 0; i < items.size(); ++i) {
      const std::string field = sw->IsSequence() ? "vehicle.sweep[" + std::to_string(i) + "]" : "vehicle.sweep";
      const MapReader sm(ctx, items[i], field, {"name", "from", "to"});
      const YAML::Node& name_node = sm.require("name");
      const std::string name = ctx.string(name_node, field + ".name");
      const VehicleParamField& f = param_field(ctx, s.params.model(), name_node, field + ".name", name);
      for (const auto& o : s.overrides) {
        if (o.name == name)
          ctx.fail(name_node, field + ".name", "'" + name + "' is also set in vehicle.overrides; give it in one place");
      }
      for (const auto& other : s.sweeps) {
        if (other.name == name) ctx.fail(name_node, field + ".name", "'" + name + "' is swept twice");
      }
      const double from = param_value(ctx, sm.require("from"), field + ".from", f);
      const double to = param_value(ctx, sm.require("to"), field + ".to", f);
      s.sweeps.push_back({name, from, to});
    }
    // Every swept parameter moves linearly, so checking both ends covers the consistency rules
    // of finalize_vehicle_params (bounds on single parameters and on sums of them).
    for (const bool at_to : {false, true}) {
      ModelParams p = s.params;
      for (const auto& x : s.sweeps) *model_param_ptr(p, x.name) = at_to ? x.to : x.from;
      try {
        finalize_model_params(p);
      } catch (const Error& e) {
        ctx.fail(*sw, "vehicle.sweep", std::string("at the '") + (at_to ? "to" : "from") + "' values: " + e.what());
      }
    }
  }
}

constexpr size_t kMaxScenarioBytes = size_t{16} << 20;  // a scenario file, read whole

// A number key of terrain.curb / terrain.soil (terrain_element_keys.h) read from mapping m: false
// when left out; a lo_open key's lo is 0.
auto element_key_reader(const Ctx& ctx, const MapReader& m) {
  return [&ctx, &m](const TerrainNumberKey& k, double* value) {
    const YAML::Node* n = k.required ? &m.require(k.name) : m.find(k.name);
    if (!n) return false;
    *value = k.lo_open ? ctx.positive(*n, m.path(k.name), k.hi, k.unit)
                       : ctx.number_in(*n, m.path(k.name), k.lo, k.hi, k.unit);
    return true;
  };
}

// terrain.soil: a soil region (physics/core/terrain_soil.h) on any terrain type: a preset, the
// rectangle (open where a bound is left out) and any soil parameter overriding the preset's
// (friction_angle in degrees here). The ranges are check_terrain_soil's.
void parse_soil(const Ctx& ctx, const YAML::Node& node, TerrainDesc<double>& d) {
  const MapReader m(ctx, node, "terrain.soil", soil_key_names());
  SoilParams<double> preset = soil_preset<double>(kSoilDefaultPreset);
  if (const YAML::Node* n = m.find("preset")) {
    try {
      preset = soil_preset<double>(ctx.string(*n, "terrain.soil.preset"));
    } catch (const Error& e) {
      ctx.fail(*n, "terrain.soil.preset", e.what());
    }
  }
  read_soil(d, preset, element_key_reader(ctx, m));
  try {
    check_terrain_soil(d);
  } catch (const Error& e) {
    ctx.fail(node, "terrain.soil", e.what());
  }
}

// has_study: the scenario has a `study:` section (a rough road then gives each sample its own
// stretch unless per_sample: false).
// terrain.curb: a straight curb on the base ground (physics/core/terrain_curb.h). Angles in
// degrees as written; the descriptor holds radians.
void parse_curb(const Ctx& ctx, const YAML::Node& node, const std::string& type, TerrainDesc<double>& d) {
  if (!curb_stands_on(d.kind)) {
    ctx.fail(node, "terrain.curb",
             "a curb stands on the base ground of terrain types flat, hill, heightfield and rough_road, not on " + type);
  }
  const MapReader m(ctx, node, "terrain.curb", curb_key_names());
  read_curb(d, element_key_reader(ctx, m));
}

void parse_terrain(const Ctx& ctx, const YAML::Node& node, Scenario& s, bool has_study) {
  if (!node.IsMap()) ctx.fail(node, "terrain", "expected a mapping with 'type', got " + describe(node));
  // The type decides which keys are allowed, so read it first.
  YAML::Node type_node;
  std::string type = ctx.kind_key(node, "type", "terrain.type", &type_node);
  if (type.empty()) type = "flat";
  ctx.require_one_of(type_node, "terrain.type", type, {"flat", "plane", "hill", "heightfield", "loop", "rough_road"},
                     "terrain type");
  std::vector<std::string> allowed = {"type", "mu_scale", "base_height", "soil", "curb"};
  if (type == "plane") allowed.insert(allowed.end(), {"slope_deg", "bank_deg"});
  if (type == "hill") allowed.insert(allowed.end(), {"x", "y", "height", "radius"});
  if (type == "loop") allowed.insert(allowed.end(), {"x", "radius", "lateral_shift", "track_width"});
  if (type == "heightfield") allowed.insert(allowed.end(), {"file", "x0", "y0", "dx", "dy", "tire_envelope"});
  if (type == "rough_road") {
    allowed.insert(allowed.end(),
                   {"class", "roughness", "length", "width", "dx", "dy", "seed", "per_sample", "tire_envelope"});
  }
  const MapReader m(ctx, node, "terrain", allowed, " for terrain type " + type);

  s.terrain_type = type;
  TerrainDesc<double>& d = s.terrain.desc;
  d = default_terrain_desc<double>();
  auto num = [&](const char* key, double lo, double hi, const char* unit, double dflt) {
    const YAML::Node* n = m.find(key);
    return n ? ctx.number_in(*n, m.path(key), lo, hi, unit) : dflt;
  };
  auto pos = [&](const char* key, double hi, const char* unit, double dflt, bool required) {
    const YAML::Node* n = required ? &m.require(key) : m.find(key);
    return n ? ctx.positive(*n, m.path(key), hi, unit) : dflt;
  };
  d.mu_scale = num("mu_scale", 0.0, 10.0, "", 1.0);
  d.base_height = num("base_height", -1.0e4, 1.0e4, "m", 0.0);
  if (type == "flat") {
    d.kind = TerrainKind::Flat;
  } else if (type == "plane") {
    d.kind = TerrainKind::Plane;
    s.terrain_slope_deg = num("slope_deg", -80.0, 80.0, "deg", 0.0);
    s.terrain_bank_deg = num("bank_deg", -80.0, 80.0, "deg", 0.0);
    d.slope = s.terrain_slope_deg * kPi / 180.0;
    d.bank = s.terrain_bank_deg * kPi / 180.0;
  } else if (type == "hill") {
    d.kind = TerrainKind::Hill;
    d.hill_x = num("x", -1.0e7, 1.0e7, "m", 0.0);
    d.hill_y = num("y", -1.0e7, 1.0e7, "m", 0.0);
    d.hill_height = num("height", -1.0e4, 1.0e4, "m", 0.0);
    d.hill_radius = pos("radius", 1.0e6, "m", 0.0, true);
  } else if (type == "loop") {
    d.kind = TerrainKind::Loop;
    d.loop_x = num("x", -1.0e7, 1.0e7, "m", 0.0);
    d.loop_radius = pos("radius", 1.0e4, "m", d.loop_radius, false);
    d.loop_lateral_shift = num("lateral_shift", -1.0e3, 1.0e3, "m", d.loop_lateral_shift);
    d.loop_track_width = pos("track_width", 1.0e3, "m", d.loop_track_width, false);
  } else if (type == "rough_road") {  // ISO 8608 (fleetdyn/rough_road.h); mu_scale and base_height apply on top
    RoughRoadSettings& r = s.rough_road;
    if (const YAML::Node* n = m.find("class")) {
      const std::string c = ctx.string(*n, "terrain.class");
      if (c.size() != 1 || c[0] < 'A' || c[0] > 'H')
        ctx.fail(*n, "terrain.class", "expected an ISO 8608 road class A..H, got '" + c + "'");
      r.road_class = c[0];
    }
    if (const YAML::Node* n = m.find("roughness")) {
      if (const YAML::Node* c = m.find("class")) {
        ctx.fail(*n, "terrain.roughness",
                 "gives Gd(n0) directly: give either class (line " + std::to_string(line_of(*c)) +
                     ") or roughness, not both");
      }
      r.roughness = ctx.number_in(*n, "terrain.roughness", 1.0e-9, 1.0, "m^3");
    }
    if (const YAML::Node* n = m.find("per_sample")) {
      s.terrain_per_sample = ctx.boolean(*n, "terrain.per_sample");
      if (s.terrain_per_sample && !has_study) {
        ctx.fail(*n, "terrain.per_sample",
                 "gives each sample of a study its own stretch of the road, but this scenario has no study");
      }
    } else {
      s.terrain_per_sample = has_study;
    }
    r.periodic = s.terrain_per_sample;  // each sample drives its own shifted copy of one tile
    r.length = pos("length", 1.0e5, "m", r.length, false);
    r.width = pos("width", 1.0e3, "m", r.width, false);
    r.spacing_x = pos("dx", 10.0, "m", r.spacing_x, false);
    r.spacing_y = pos("dy", 10.0, "m", r.spacing_y, false);
    r.n_max = std::min(r.n_max, 0.35 / r.spacing_x);  // at least ~3 samples per shortest wave
    if (const YAML::Node* n = m.find("seed"))
      r.seed = static_cast<uint64_t>(ctx.integer64_in(*n, "terrain.seed", 0, (1LL << 53)));
    try {
      const double base = d.base_height, mu = d.mu_scale;
      s.terrain = iso8608_road(r);
      s.terrain.desc.base_height = base;
      s.terrain.desc.mu_scale = mu;
    } catch (const Error& e) {
      ctx.fail(node, "terrain", e.what());
    }
  } else {  // heightfield
    d.kind = TerrainKind::Heightfield;
    const YAML::Node& file = m.require("file");
    s.heightfield_file = ctx.string(file, "terrain.file");
    d.hf_x0 = num("x0", -1.0e7, 1.0e7, "m", 0.0);
    d.hf_y0 = num("y0", -1.0e7, 1.0e7, "m", 0.0);
    d.hf_dx = pos("dx", 1.0e4, "m", 0.0, true);
    d.hf_dy = pos("dy", 1.0e4, "m", 0.0, true);
    const std::filesystem::path rel(s.heightfield_file);
    s.heightfield_path = rel.is_absolute() ? rel.string() : (std::filesystem::path(ctx.file).parent_path() / rel).string();
    load_heightfield(ctx, file, s.heightfield_path, s.terrain);
  }
  // The tires meet the grid through their envelope along their path (physics/core/tire_contact.h).
  if (const YAML::Node* n = m.find("tire_envelope"))
    s.terrain.desc.hf_envelope = ctx.boolean(*n, m.path("tire_envelope"));
  if (const YAML::Node* n = m.find("soil")) parse_soil(ctx, *n, s.terrain.desc);
  if (const YAML::Node* n = m.find("curb")) parse_curb(ctx, *n, type, s.terrain.desc);  // after rough_road's reset
}

void parse_initial(const Ctx& ctx, const YAML::Node& node, Scenario& s) {
  const MapReader m(ctx, node, "initial", {"speed", "lateral_speed", "x", "y", "yaw_deg"});
  if (const YAML::Node* n = m.find("speed")) s.initial.speed = ctx.number_in(*n, "initial.speed", 0.0, 200.0, "m/s");
  if (const YAML::Node* n = m.find("lateral_speed"))
    s.initial.lateral_speed = ctx.number_in(*n, "initial.lateral_speed", -50.0, 50.0, "m/s");
  if (const YAML::Node* n = m.find("x")) s.initial.x = ctx.number_in(*n, "initial.x", -1.0e7, 1.0e7, "m");
  if (const YAML::Node* n = m.find("y")) s.initial.y = ctx.number_in(*n, "initial.y", -1.0e7, 1.0e7, "m");
  if (const YAML::Node* n = m.find("yaw_deg"))
    s.initial_yaw_deg = ctx.number_in(*n, "initial.yaw_deg", -360.0, 360.0, "deg");
  s.initial.yaw = s.initial_yaw_deg * kPi / 180.0;
}

void parse_maneuver(const Ctx& ctx, const YAML::Node& node, Scenario& s) {
  if (!node.IsSequence() || node.size() == 0) {
    ctx.fail(node, "maneuver", "expected a list of rows [t, steer, throttle, brake], got " + describe(node));
  }
  s.maneuver.clear();
  for (size_t i = 0; i < node.size(); ++i) {
    const YAML::Node row = node[i];
    const std::string field = "maneuver[" + std::to_string(i) + "]";
    if (!row.IsSequence() || row.size() != 4) {
      ctx.fail(row, field,
               "expected a row [t, steer, throttle, brake] of 4 numbers, got " +
                   (row.IsSequence() ? std::to_string(row.size()) + " values" : describe(row)));
    }
    auto cell = [&](size_t j) { return field + "[" + std::to_string(j) + "]"; };
    ManeuverPoint p{};
    p.time = ctx.number_in(row[0], cell(0), -1.0e7, 1.0e7, "s");
    if (!s.maneuver.empty() && !(p.time > s.maneuver.back().time)) {
      ctx.fail(row[0], cell(0), "times must increase (" + fmt(p.time) + " after " + fmt(s.maneuver.back().time) + ")");
    }
    const double steer = ctx.number(row[1], cell(1));
    if (!(steer >= -1.0 && steer <= 1.0)) ctx.fail(row[1], cell(1), "steer " + fmt(steer) + " is outside [-1, 1]");
    const double throttle = ctx.number(row[2], cell(2));
    if (!(throttle >= 0.0 && throttle <= 1.0))
      ctx.fail(row[2], cell(2), "throttle " + fmt(throttle) + " is outside [0, 1]");
    const double brake = ctx.number(row[3], cell(3));
    if (!(brake >= 0.0 && brake <= 1.0)) ctx.fail(row[3], cell(3), "brake " + fmt(brake) + " is outside [0, 1]");
    p.steer = steer;
    p.throttle = throttle;
    p.brake = brake;
    s.maneuver.push_back(p);
  }
}

// The `pgs:` section (model pgs only): PgsVehicleDef's solver settings, each checked against the
// bounds the vehicle builder enforces, so a bad value names its line here, not a batch error.
// `key` is the section's key, where a misplaced section is reported.
void parse_pgs(const Ctx& ctx, const YAML::Node& key, const YAML::Node& node, Scenario& s) {
  if (!with_model(s.params.model(), [](auto host) { return decltype(host)::kTakesPgsSolver; })) {
    ctx.fail(key, "pgs",
             "solver settings of the pgs model, but this scenario's model is '" + s.model +
                 "' (add 'model: pgs' or remove the section)");
  }
  const MapReader m(ctx, node, "pgs", {"iterations", "baumgarte", "warm_start", "wheel_contact", "friction_cone"});
  PgsVehicleDef& p = s.pgs;
  if (const YAML::Node* n = m.find("iterations")) p.iterations = ctx.integer_in(*n, "pgs.iterations", 1, 10000);
  if (const YAML::Node* n = m.find("baumgarte")) p.baumgarte = ctx.number_in(*n, "pgs.baumgarte", 0.0, 1.0);
  if (const YAML::Node* n = m.find("warm_start")) p.warm_start = ctx.number_in(*n, "pgs.warm_start", 0.0, 1.0);
  if (const YAML::Node* n = m.find("wheel_contact")) {
    const std::string v = ctx.string(*n, "pgs.wheel_contact");
    ctx.require_one_of(*n, "pgs.wheel_contact", v, {"tire", "rows"}, "wheel contact");
    p.wheel_contact = v == "rows" ? pgsv::WheelContact::Rows : pgsv::WheelContact::Tire;
    // The rigid wheels' ground is a plane (host/pgs/pgs_vehicle.cpp): say so here, at the key.
    if (p.wheel_contact == pgsv::WheelContact::Rows && s.terrain.desc.kind != TerrainKind::Flat) {
      ctx.fail(*n, "pgs.wheel_contact",
               "rows (rigid wheels) needs terrain type flat, this scenario's terrain is '" + s.terrain_type + "'");
    }
  }
  if (const YAML::Node* n = m.find("friction_cone")) {
    const std::string v = ctx.string(*n, "pgs.friction_cone");
    ctx.require_one_of(*n, "pgs.friction_cone", v, {"circular", "pyramid"}, "friction cone");
    // Only the rigid wheels have friction rows; with the tire it would be silently ignored.
    if (p.wheel_contact != pgsv::WheelContact::Rows) {
      ctx.fail(*n, "pgs.friction_cone",
               "applies to the rigid wheels' friction rows: give it with 'wheel_contact: rows'");
    }
    p.cone = v == "pyramid" ? pgs::FrictionCone::Pyramid : pgs::FrictionCone::Circular;
  }
}

// Default step and stability check over the parameter sets the batch will hold: the sweep's
// ends, or each sampled vehicle parameter at either end of its distribution (within its range)
// with the others at their base values.
std::vector<ModelParams> extreme_params(const Scenario& s) {
  std::vector<ModelParams> out = {s.params};
  if (!s.sweeps.empty()) {
    out.clear();
    for (const bool at_to : {false, true}) {
      ModelParams p = s.params;
      for (const auto& x : s.sweeps) *model_param_ptr(p, x.name) = at_to ? x.to : x.from;
      finalize_model_params(p);
      out.push_back(p);
    }
  }
  for (const auto& sp : s.study.parameters) {
    if (sp.target != study::SampleTarget::VehicleParam) continue;
    for (const double u : {1.0e-9, 1.0 - 1.0e-9}) {
      ModelParams p = s.params;
      *model_param_ptr(p, sp.name) = std::clamp(study::inverse_cdf(sp.distribution, u), sp.min, sp.max);
      try {
        finalize_model_params(p);
      } catch (const Error&) {
        continue;  // an inconsistent extreme is an invalid sample, never simulated
      }
      out.push_back(p);
    }
  }
  return out;
}

}  // namespace

BackendKind parse_backend(const std::string& name) {
  if (name == "auto") return BackendKind::Auto;
  if (name == "cpu") return BackendKind::Cpu;
  if (name == "cuda") return BackendKind::Cuda;
  throw Error("unknown backend '" + name + "' (allowed: auto, cpu, cuda)");
}

Precision parse_precision(const std::string& name) {
  if (name == "fp32") return Precision::Fp32;
  if (name == "fp64") return Precision::Fp64;
  throw Error("unknown precision '" + name + "' (allowed: fp32, fp64)");
}

Scenario parse_scenario(const std::string& text, const std::string& path) {
  const Ctx ctx{path};
  Scenario s;
  s.path = path;
  s.text = text;

  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::ParserException& e) {
    throw ScenarioError(path, e.mark.line >= 0 ? e.mark.line + 1 : 0, "",
                        "YAML syntax error: " + e.msg +
                            (e.mark.column >= 0 ? " (column " + std::to_string(e.mark.column + 1) + ")" : ""));
  }
  if (root.IsNull()) ctx.fail(1, "", "the scenario is empty (expected at least 'duration')");
  const MapReader top(ctx, root, "",
                      {"name", "model", "vehicle", "terrain", "initial", "maneuver", "vehicles", "duration", "step",
                       "substeps", "contact_requery", "precision", "backend", "cpu_threads", "output", "study",
                       "driver", "capsize_roll_deg", "pgs"});

  s.name = std::filesystem::path(path).stem().string();
  if (const YAML::Node* n = top.find("name")) s.name = ctx.string(*n, "name");
  if (const YAML::Node* n = top.find("model")) {
    s.model = ctx.string(*n, "model");
    try {
      s.params = model_preset(parse_model(s.model), s.preset);  // the vehicle section may pick another preset
    } catch (const Error& e) {
      ctx.fail(*n, "model", e.what() + suggestion(s.model, model_names()));
    }
  }
  if (const YAML::Node* n = top.find("vehicle")) {
    parse_vehicle(ctx, *n, s);
  } else {
    s.params = model_preset(s.params.model(), s.preset);
  }
  if (const YAML::Node* n = top.find("terrain")) {
    parse_terrain(ctx, *n, s, top.find("study") != nullptr);
  }
  for (const auto& e : top.entries()) {
    if (e.name == "pgs") parse_pgs(ctx, e.key, e.value, s);  // after model and terrain
  }
  if (const YAML::Node* n = top.find("initial")) parse_initial(ctx, *n, s);
  if (const YAML::Node* n = top.find("maneuver")) {
    parse_maneuver(ctx, *n, s);
  } else {
    s.maneuver = {ManeuverPoint{0.0, 0.0, 0.0, 0.0}};
  }
  if (const YAML::Node* n = top.find("driver")) {
    if (const YAML::Node* t = top.find("maneuver")) {
      ctx.fail(*t, "maneuver",
               "a scenario has either a maneuver table or a driver (line " + std::to_string(line_of(*n)) +
                   "), not both");
    }
    s.driver = parse_driver(ctx, *n, s.initial);
  }
  if (const YAML::Node* n = top.find("vehicles")) s.vehicles = ctx.integer_in(*n, "vehicles", 1, kMaxVehicles);
  if (const YAML::Node* n = top.find("study")) {
    study::parse_study(ctx, *n, s);
    if (const YAML::Node* v = top.find("vehicles")) {
      ctx.fail(*v, "vehicles", "a study simulates study.samples vehicles; remove 'vehicles' (or the study)");
    }
  }
  {
    const YAML::Node& n = top.require("duration");
    s.duration = ctx.positive(n, "duration", 1.0e6, "s");
  }
  if (const YAML::Node* n = top.find("substeps")) s.substeps = ctx.integer_in(*n, "substeps", 1, kMaxSubsteps);
  const std::vector<ModelParams> extremes = extreme_params(s);
  if (const YAML::Node* n = top.find("step")) {
    s.step = ctx.positive(*n, "step", 0.1, "s");
    if (s.duration < 0.5 * s.step) {
      ctx.fail(top.require("duration"), "duration",
               fmt(s.duration) + " s is shorter than one step (" + fmt(s.step) + " s)");
    }
    double limit = 1.0;  // largest stable RK4 substep over the parameter extremes [s]
    for (const auto& p : extremes) limit = std::min(limit, model_step_analysis(p).rk4_stable_step);
    const double dt = s.step / s.substeps;
    if (dt > limit) {
      s.warnings.push_back(path + ":" + std::to_string(line_of(*n)) + ": step: " + fmt(dt) +
                           " s per RK4 substep exceeds the stability limit of this vehicle (" + fmt(limit) +
                           " s); vehicles will likely diverge");
    }
  } else {
    s.step = 1.0;
    for (const auto& p : extremes) s.step = std::min(s.step, model_step_analysis(p).default_step);
    s.step_is_default = true;
    if (s.duration < 0.5 * s.step) {
      ctx.fail(top.require("duration"), "duration",
               fmt(s.duration) + " s is shorter than one step (" + fmt(s.step) + " s)");
    }
  }
  if (const YAML::Node* n = top.find("contact_requery")) {
    s.contact_requery = ctx.boolean(*n, "contact_requery");
    if (!s.contact_requery &&
        !with_model(s.params.model(), [](auto host) { return decltype(host)::kContactRequeryOptional; })) {
      ctx.fail(*n, "contact_requery",
               std::string("false is a strut option: the ") + model_name(s.params.model()) +
                   " model queries the terrain at every stage");
    }
  }
  // A named choice: the parser's message (naming the allowed values) at the key's line.
  const auto choice = [&](const char* key, auto parse, auto& target) {
    const YAML::Node* n = top.find(key);
    if (!n) return;
    const std::string value = ctx.string(*n, key);
    try {
      target = parse(value);
    } catch (const Error& e) {
      ctx.fail(*n, key, e.what());
    }
  };
  choice("precision", parse_precision, s.precision);
  choice("backend", parse_backend, s.backend);
  if (const YAML::Node* n = top.find("cpu_threads"))
    s.cpu_threads = ctx.integer_in(*n, "cpu_threads", 0, kMaxCpuThreads);
  if (const YAML::Node* n = top.find("capsize_roll_deg")) {
    s.capsize_roll_deg = ctx.number_in(*n, "capsize_roll_deg", 0.0, 180.0, "deg");
    if (s.capsize_roll_deg > 0.0 && s.capsize_roll_deg < 30.0) {
      ctx.fail(*n, "capsize_roll_deg",
               fmt(s.capsize_roll_deg) +
                   " deg would freeze vehicles that are only leaning in a "
                   "turn; give at least 30 (default 80), or 0 for never");
    }
  }
  s.output = "out/" + s.name;
  if (const YAML::Node* n = top.find("output")) s.output = ctx.string(*n, "output");
  return s;
}

Scenario load_scenario(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw ScenarioError(path, 0, "", "is a folder, not a scenario file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ScenarioError(path, 0, "", "cannot open scenario file (does it exist?)");
  std::string text;  // read in blocks, at most the limit and one block more
  char block[65536];
  while (text.size() <= kMaxScenarioBytes && in.read(block, sizeof block).gcount() > 0) {
    text.append(block, static_cast<size_t>(in.gcount()));
  }
  if (in.bad()) throw ScenarioError(path, 0, "", "cannot read scenario file");
  if (text.size() > kMaxScenarioBytes) {
    throw ScenarioError(path, 0, "",
                        "is larger than " + std::to_string(kMaxScenarioBytes >> 20) + " MiB: not a scenario file");
  }
  return parse_scenario(text, path);
}

}  // namespace fleetdyn
