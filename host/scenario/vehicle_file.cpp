// Vehicle files (docs/vehicle-files.md): YAML -> validated VehicleDefinition.
#include "host/scenario/vehicle_file.h"

#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "fleetdyn/ce.h"
#include "fleetdyn/ce_fields.h"
#include "host/scenario/chrono_vehicle.h"
#include "host/scenario/yaml_input.h"

namespace fleetdyn {
namespace {

using namespace yaml_input;

constexpr double kMaxLength = 20.0;    // [m] any coordinate or length
constexpr double kMaxMass = 1.0e5;     // [kg]
constexpr double kMaxInertia = 1.0e6;  // [kg m^2]

// The TMeasy members that are not in the shared field table (FLEETDYN_VEHICLE_COMMON_FIELDS),
// X(name, member, unit, min, max): ranges reject nonsense, not unusual tires.
#define FLEETDYN_TIRE_FILE_FIELDS(X)                       \
  X("width", width, "m", 0.01, 3.0)                        \
  X("nominal_load", nominal_load, "N", 10.0, 1.0e6)        \
  X("mu_ref", mu_ref, "-", 0.05, 3.0)                      \
  X("dfx0_pn", dfx0_pn, "N", 1.0, 1.0e8)                   \
  X("dfx0_2pn", dfx0_2pn, "N", 1.0, 1.0e8)                 \
  X("fxm_pn", fxm_pn, "N", 1.0, 1.0e7)                     \
  X("fxm_2pn", fxm_2pn, "N", 1.0, 1.0e7)                   \
  X("sxm_pn", sxm_pn, "-", 1.0e-4, 10.0)                   \
  X("sxm_2pn", sxm_2pn, "-", 1.0e-4, 10.0)                 \
  X("fxs_pn", fxs_pn, "N", 0.0, 1.0e7)                     \
  X("fxs_2pn", fxs_2pn, "N", 0.0, 1.0e7)                   \
  X("sxs_pn", sxs_pn, "-", 1.0e-4, 10.0)                   \
  X("sxs_2pn", sxs_2pn, "-", 1.0e-4, 10.0)                 \
  X("dfy0_pn", dfy0_pn, "N", 1.0, 1.0e8)                   \
  X("dfy0_2pn", dfy0_2pn, "N", 1.0, 1.0e8)                 \
  X("fym_pn", fym_pn, "N", 1.0, 1.0e7)                     \
  X("fym_2pn", fym_2pn, "N", 1.0, 1.0e7)                   \
  X("sym_pn", sym_pn, "-", 1.0e-4, 10.0)                   \
  X("sym_2pn", sym_2pn, "-", 1.0e-4, 10.0)                 \
  X("fys_pn", fys_pn, "N", 0.0, 1.0e7)                     \
  X("fys_2pn", fys_2pn, "N", 0.0, 1.0e7)                   \
  X("sys_pn", sys_pn, "-", 1.0e-4, 10.0)                   \
  X("sys_2pn", sys_2pn, "-", 1.0e-4, 10.0)                 \
  X("trail_ratio0", trail_ratio0, "-", 0.0, 1.0)           \
  X("trail_zero_slip", trail_zero_slip, "-", 1.0e-4, 10.0) \
  X("trail_end_slip", trail_end_slip, "-", 1.0e-4, 10.0)   \
  X("long_damping", long_damping, "N s/m", 1.0e-3, 1.0e7)  \
  X("lat_damping", lat_damping, "N s/m", 1.0e-3, 1.0e7)    \
  X("slip_velocity_floor", slip_velocity_floor, "m/s", 1.0e-6, 1.0)

// Which section of a vehicle file holds a shared field: "tire.X" -> tire, "body.X" -> body, the
// brakes' and the lock time -> brakes, gravity at the top, the rest (engine, driveline) -> driveline.
std::string common_section(const std::string& name) {
  if (name.rfind("tire.", 0) == 0) return "tire";
  if (name.rfind("body.", 0) == 0) return "body";
  if (name.rfind("brake_", 0) == 0 || name == "wheel_lock_time") return "brakes";
  if (name == "gravity") return "";
  return "driveline";
}
std::string common_key(const std::string& name) {
  const std::string s = common_section(name);
  return s == "tire" || s == "body" ? name.substr(5) : name;
}

struct Reader {
  const Ctx& ctx;

  double num(const MapReader& m, const char* key, double lo, double hi, const char* unit) const {
    return ctx.number_in(m.require(key), m.path(key), lo, hi, unit);
  }
  Vec3<double> point(const MapReader& m, const char* key) const {
    const YAML::Node& n = m.require(key);
    const std::string field = m.path(key);
    if (!n.IsSequence() || n.size() != 3) ctx.fail(n, field, "expected [x, y, z] in metres, got " + describe(n));
    double c[3];
    for (int i = 0; i < 3; ++i)
      c[i] = ctx.number_in(n[i], field + "[" + std::to_string(i) + "]", -kMaxLength, kMaxLength, "m");
    return {c[0], c[1], c[2]};
  }
  Vec3<double> moments(const MapReader& m, const char* key) const {
    const YAML::Node& n = m.require(key);
    const std::string field = m.path(key);
    if (!n.IsSequence() || n.size() != 3) ctx.fail(n, field, "expected [Ixx, Iyy, Izz] in kg m^2, got " + describe(n));
    double c[3];
    for (int i = 0; i < 3; ++i) {
      c[i] = ctx.number(n[i], field + "[" + std::to_string(i) + "]");
      if (!(c[i] > 0.0 && c[i] <= kMaxInertia)) {
        ctx.fail(n[i], field + "[" + std::to_string(i) + "]",
                 fmt(c[i]) + " is outside (0, " + fmt(kMaxInertia) + "] kg m^2");
      }
    }
    return {c[0], c[1], c[2]};
  }
  LinkData link(const MapReader& parent, const char* key) const {
    const MapReader m(ctx, parent.require(key), parent.path(key), {"mass", "inertia"});
    return {ctx.positive(m.require("mass"), m.path("mass"), kMaxMass, "kg"), moments(m, "inertia")};
  }
  WheelPartData wheel_part(const MapReader& parent, const char* key) const {
    const MapReader m(ctx, parent.require(key), parent.path(key), {"mass", "spin_inertia", "transverse_inertia"});
    return {ctx.positive(m.require("mass"), m.path("mass"), kMaxMass, "kg"),
            ctx.positive(m.require("spin_inertia"), m.path("spin_inertia"), kMaxInertia, "kg m^2"),
            ctx.positive(m.require("transverse_inertia"), m.path("transverse_inertia"), kMaxInertia, "kg m^2")};
  }

  void hardpoints(const MapReader& parent, DoubleWishboneHardpoints<double>& h) const {
    const MapReader m(ctx, parent.require("hardpoints"), parent.path("hardpoints"),
                      {"wheel_centre", "upright_com", "lca_front", "lca_back", "lca_ball", "lca_com", "uca_front",
                       "uca_back", "uca_ball", "uca_com", "tierod_inner", "tierod_outer", "spring_chassis",
                       "spring_arm", "shock_chassis", "shock_arm"});
    h.wheel_centre = point(m, "wheel_centre");
    h.upright_com = point(m, "upright_com");
    h.lca_front = point(m, "lca_front");
    h.lca_back = point(m, "lca_back");
    h.lca_ball = point(m, "lca_ball");
    h.lca_com = point(m, "lca_com");
    h.uca_front = point(m, "uca_front");
    h.uca_back = point(m, "uca_back");
    h.uca_ball = point(m, "uca_ball");
    h.uca_com = point(m, "uca_com");
    h.tierod_inner = point(m, "tierod_inner");
    h.tierod_outer = point(m, "tierod_outer");
    h.spring_chassis = point(m, "spring_chassis");
    h.spring_arm = point(m, "spring_arm");
    h.shock_chassis = point(m, "shock_chassis");
    h.shock_arm = point(m, "shock_arm");
  }

  void axle(const MapReader& axles, const char* key, AxleDefinition& a) const {
    const MapReader m(ctx, axles.require(key), axles.path(key),
                      {"x", "hardpoints", "lca", "uca", "upright", "tierod", "spring", "shock", "stops"});
    a.x = num(m, "x", -kMaxLength, kMaxLength, "m");
    hardpoints(m, a.hardpoints);
    a.lca = link(m, "lca");
    a.uca = link(m, "uca");
    a.upright = link(m, "upright");
    a.tierod = link(m, "tierod");
    const MapReader sp(ctx, m.require("spring"), m.path("spring"), {"free_length", "rate", "cubic"});
    a.spring.free_length = num(sp, "free_length", 0.05, 3.0, "m");
    a.spring.rate = num(sp, "rate", 1.0e3, 1.0e8, "N/m");
    a.spring.cubic = sp.find("cubic") ? num(sp, "cubic", 0.0, 1.0e10, "N/m^3") : 0.0;
    const MapReader sh(ctx, m.require("shock"), m.path("shock"),
                       {"midstroke_min", "midstroke_max", "mid_compression", "mid_rebound", "out_compression",
                        "out_rebound"});
    a.shock.midstroke_min = num(sh, "midstroke_min", 0.0, 3.0, "m");
    a.shock.midstroke_max = num(sh, "midstroke_max", 0.0, 3.0, "m");
    if (!(a.shock.midstroke_max > a.shock.midstroke_min)) {
      ctx.fail(sh.require("midstroke_max"), sh.path("midstroke_max"),
               fmt(a.shock.midstroke_max) + " must exceed midstroke_min (" + fmt(a.shock.midstroke_min) + ")");
    }
    a.shock.mid_compression = num(sh, "mid_compression", 0.0, 1.0e7, "N s/m");
    a.shock.mid_rebound = num(sh, "mid_rebound", 0.0, 1.0e7, "N s/m");
    a.shock.out_compression = num(sh, "out_compression", 0.0, 1.0e7, "N s/m");
    a.shock.out_rebound = num(sh, "out_rebound", 0.0, 1.0e7, "N s/m");
    const MapReader st(ctx, m.require("stops"), m.path("stops"), {"bump_length", "rebound_length"});
    a.bump_stop_length = num(st, "bump_length", 0.0, 3.0, "m");
    a.rebound_stop_length = num(st, "rebound_length", 0.0, 3.0, "m");
    if (!(a.rebound_stop_length > a.bump_stop_length)) {
      ctx.fail(st.require("rebound_length"), st.path("rebound_length"),
               fmt(a.rebound_stop_length) + " m must exceed bump_length (" + fmt(a.bump_stop_length) + " m)");
    }
  }

  void steering(const MapReader& top, VehicleDefinition& v) const {
    const MapReader m(ctx, top.require("steering"), "steering",
                      {"type", "origin", "pitch_deg", "pitman_pivot", "pitman_link", "idler_pivot", "idler_link",
                       "max_angle_deg", "link_mass", "pitman_arm_mass", "time_constant"});
    const YAML::Node& type = m.require("type");
    ctx.require_one_of(type, "steering.type", ctx.string(type, "steering.type"), {"pitman_arm"}, "steering type");
    PitmanSteeringGeometry<double>& s = v.steering;
    s.origin = point(m, "origin");
    s.pitch = deg_to_rad(num(m, "pitch_deg", -90.0, 90.0, "deg"));
    s.pitman_pivot = point(m, "pitman_pivot");
    s.pitman_link = point(m, "pitman_link");
    s.idler_pivot = point(m, "idler_pivot");
    s.idler_link = point(m, "idler_link");
    s.max_angle = deg_to_rad(num(m, "max_angle_deg", 0.5, 68.0, "deg"));
    v.steering_link_mass = num(m, "link_mass", 0.0, kMaxMass, "kg");
    v.pitman_arm_mass = num(m, "pitman_arm_mass", 0.0, kMaxMass, "kg");
    v.steer_time_constant = num(m, "time_constant", 1.0e-3, 1.0, "s");
  }

  void stop_table(const MapReader& top, VehicleDefinition& v) const {
    const MapReader m(ctx, top.require("stop_table"), "stop_table", {"penetration", "force"});
    const char* keys[2] = {"penetration", "force"};
    double* dest[2] = {v.stop_table_pen, v.stop_table_force};
    for (int k = 0; k < 2; ++k) {
      const YAML::Node& n = m.require(keys[k]);
      const std::string field = m.path(keys[k]);
      if (!n.IsSequence() || n.size() != static_cast<size_t>(kStopTablePoints)) {
        ctx.fail(n, field, "expected a list of " + std::to_string(kStopTablePoints) + " numbers, got " + describe(n));
      }
      for (int i = 0; i < kStopTablePoints; ++i) {
        const std::string f = field + "[" + std::to_string(i) + "]";
        dest[k][i] = ctx.number_in(n[i], f, 0.0, k == 0 ? 1.0 : 1.0e8, k == 0 ? "m" : "N");
        if (i == 0 && dest[k][i] != 0.0) ctx.fail(n[i], f, "the table starts at 0 (no force without penetration)");
        if (i > 0 && !(dest[k][i] > dest[k][i - 1])) ctx.fail(n[i], f, "values must increase");
      }
    }
  }

  void common(const MapReader& top, VehicleDefinition& v) const {
    // The sections of the shared fields (tire, body, driveline, brakes), their keys from the
    // shared table (and the tire's own), each value checked against the table's range.
    const std::vector<std::string> names = {"tire", "body", "driveline", "brakes"};
    std::map<std::string, std::vector<std::string>> keys;
#define FLEETDYN_KEY(name, member, unit, lo, hi, doc) \
  if (!common_section(name).empty()) keys[common_section(name)].push_back(common_key(name));
    FLEETDYN_VEHICLE_COMMON_FIELDS(FLEETDYN_KEY)
#undef FLEETDYN_KEY
#define FLEETDYN_TIRE_KEY(name, member, unit, lo, hi) keys["tire"].push_back(name);
    FLEETDYN_TIRE_FILE_FIELDS(FLEETDYN_TIRE_KEY)
#undef FLEETDYN_TIRE_KEY
    std::map<std::string, MapReader> sections;
    for (const std::string& name : names) sections.emplace(name, MapReader(ctx, top.require(name), name, keys[name]));
    VehicleCommon<double>& c = v.common;
#define FLEETDYN_READ(name, member, unit, lo, hi, doc)                                         \
  if (common_section(name).empty()) {                                                          \
    c.member = top.find(name) ? num(top, name, lo, hi, unit) : 9.81; /* gravity: optional */   \
  } else {                                                                                     \
    c.member = num(sections.at(common_section(name)), common_key(name).c_str(), lo, hi, unit); \
  }
    FLEETDYN_VEHICLE_COMMON_FIELDS(FLEETDYN_READ)
#undef FLEETDYN_READ
#define FLEETDYN_TIRE_READ(name, member, unit, lo, hi) c.tire.member = num(sections.at("tire"), name, lo, hi, unit);
    FLEETDYN_TIRE_FILE_FIELDS(FLEETDYN_TIRE_READ)
#undef FLEETDYN_TIRE_READ
  }
};

}  // namespace

VehicleDefinition parse_vehicle_yaml(const std::string& text, const std::string& path) {
  const Ctx ctx{path};
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw ScenarioError(path, e.mark.line >= 0 ? e.mark.line + 1 : 0, "", "not valid YAML: " + e.msg);
  }
  const MapReader top(ctx, root, "",
                      {"name", "source", "chassis", "steering", "axles", "wheel", "stop_table", "tire", "body",
                       "driveline", "brakes", "gravity", "balance_springs_at_design"});
  const Reader r{ctx};
  VehicleDefinition v{};
  v.name = ctx.string(top.require("name"), "name");
  if (const YAML::Node* s = top.find("source")) ctx.string(*s, "source");  // free text, for the reader
  const MapReader ch(ctx, top.require("chassis"), "chassis", {"mass", "com", "inertia"});
  v.chassis_mass = ctx.positive(ch.require("mass"), "chassis.mass", kMaxMass, "kg");
  v.chassis_com = r.point(ch, "com");
  const Vec3<double> moments = r.moments(ch, "inertia");
  v.chassis_inertia = {moments.x, moments.y, moments.z, 0.0, 0.0, 0.0};
  r.steering(top, v);
  const MapReader axles(ctx, top.require("axles"), "axles", {"front", "rear"});
  r.axle(axles, "front", v.front);
  r.axle(axles, "rear", v.rear);
  if (!(v.front.x > v.rear.x)) {
    ctx.fail(axles.require("rear"), "axles.rear.x",
             fmt(v.rear.x) + " m must be behind the front axle (x = " + fmt(v.front.x) + " m; x is forward)");
  }
  const MapReader w(ctx, top.require("wheel"), "wheel", {"spindle", "rim", "tire"});
  v.spindle = r.wheel_part(w, "spindle");
  v.rim = r.wheel_part(w, "rim");
  v.tire_body = r.wheel_part(w, "tire");
  r.stop_table(top, v);
  r.common(top, v);
  v.balance_springs_at_design = top.find("balance_springs_at_design")
                                    ? ctx.boolean(*top.find("balance_springs_at_design"), "balance_springs_at_design")
                                    : false;
  // The suspension must assemble and the model's own checks pass: build it once.
  try {
    CeParams<double> p = make_ce_params(v);
    finalize_ce_params(p);
  } catch (const Error& e) {
    ctx.fail(top.require("axles"), "axles", e.what());
  }
  return v;
}

VehicleDefinition load_vehicle_file(const std::string& path) {
  if (std::filesystem::path(path).extension() == ".json") return load_chrono_vehicle(path);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ScenarioError(path, 0, "", "cannot open the vehicle file");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_vehicle_yaml(text.str(), path);
}

ModelParams model_params_from_definition(VehicleModel model, const VehicleDefinition& v) {
  return with_model(model, [&](auto host) { return ModelParams(host, decltype(host)::from_definition(v)); });
}

}  // namespace fleetdyn
