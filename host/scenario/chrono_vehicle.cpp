// Chrono::Vehicle JSON specifications -> VehicleDefinition (docs/chrono-vehicle-json.md).
// yaml-cpp reads the JSON (YAML 1.2 is a superset) after Chrono's comments are blanked, so every
// message carries "<file>:<line>: <field>".
#include "host/scenario/chrono_vehicle.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "fleetdyn/ce.h"
#include "fleetdyn/ce_fields.h"
#include "fleetdyn/error.h"
#include "host/scenario/yaml_input.h"

namespace fleetdyn {
namespace {

using namespace yaml_input;
namespace fs = std::filesystem;

constexpr double kMaxLength = 20.0;    // [m] any coordinate or length
constexpr double kMaxMass = 1.0e5;     // [kg]
constexpr double kMaxInertia = 1.0e6;  // [kg m^2]

// Chrono's JSON allows // and /* */ comments; blank them (and tabs, which YAML does not take as
// indentation) outside strings, keeping every newline so line numbers stay those of the file.
std::string blank_comments(std::string s) {
  bool in_string = false;
  for (size_t i = 0; i < s.size(); ++i) {
    if (in_string) {
      if (s[i] == '\\') {
        ++i;
      } else if (s[i] == '"') {
        in_string = false;
      }
    } else if (s[i] == '"') {
      in_string = true;
    } else if (s[i] == '\t') {
      s[i] = ' ';
    } else if (s[i] == '/' && i + 1 < s.size() && s[i + 1] == '/') {
      for (; i < s.size() && s[i] != '\n'; ++i) s[i] = ' ';
    } else if (s[i] == '/' && i + 1 < s.size() && s[i + 1] == '*') {
      for (; i < s.size() && !(s[i] == '*' && i + 1 < s.size() && s[i + 1] == '/'); ++i) {
        if (s[i] != '\n') s[i] = ' ';
      }
      if (i < s.size()) s[i] = ' ';
      if (i + 1 < s.size()) s[++i] = ' ';
    }
  }
  return s;
}

// JSON's keys are strings; YAML also takes what JSON does not (",," yields a null key).
void require_text_keys(const Ctx& c, const YAML::Node& n) {
  if (n.IsMap()) {
    for (auto it = n.begin(); it != n.end(); ++it) {
      if (!it->first.IsScalar() || it->first.Scalar().empty()) {
        c.fail(it->first, "", "not valid JSON: expected a \"key\": value pair, got " + describe(it->first));
      }
      require_text_keys(c, it->second);
    }
  } else if (n.IsSequence()) {
    for (const YAML::Node& e : n) require_text_keys(c, e);
  }
}

// One parsed Chrono file: its context (name for messages), root mapping and Template.
struct Part {
  Ctx ctx;
  YAML::Node root;
  std::string templ;
  YAML::Node templ_node;
};

Part parse_part(const std::string& path, const std::string& text, const char* type) {
  Part p{Ctx{path}, YAML::Node(), "", YAML::Node()};
  try {
    p.root = YAML::Load(blank_comments(text));
  } catch (const YAML::Exception& e) {
    throw ScenarioError(path, e.mark.line >= 0 ? e.mark.line + 1 : 0, "", "not valid JSON: " + e.msg);
  }
  if (!p.root.IsMap()) p.ctx.fail(p.root, "", "expected a JSON object, got " + describe(p.root));
  require_text_keys(p.ctx, p.root);
  YAML::Node type_node;
  const std::string t = p.ctx.kind_key(p.root, "Type", "Type", &type_node);
  if (t.empty()) p.ctx.fail(p.root, "Type", "required key is missing (a Chrono '" + std::string(type) + "' file)");
  if (t != type) p.ctx.fail(type_node, "Type", "expected a Chrono '" + std::string(type) + "' file, got '" + t + "'");
  p.templ = p.ctx.kind_key(p.root, "Template", "Template", &p.templ_node);
  if (p.templ.empty()) p.ctx.fail(p.root, "Template", "required key is missing");
  return p;
}

bool read_text(const std::string& path, std::string& text) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream s;
  s << in.rdbuf();
  text = s.str();
  return true;
}

// The file a Chrono path names: as given when absolute, else against the referring file's
// folder and then each folder above it (Chrono's own paths are relative to data/vehicle).
std::string resolve(const Ctx& from, const YAML::Node& at, const std::string& field, const std::string& name) {
  const fs::path p(name);
  if (p.is_absolute()) {
    if (fs::is_regular_file(p)) return name;
    from.fail(at, field, "cannot find '" + name + "'");
  }
  fs::path dir = fs::path(from.file).parent_path();
  if (dir.empty()) dir = ".";
  for (int up = 0; up < 64; ++up) {
    const fs::path candidate = (dir / p).lexically_normal();
    if (fs::is_regular_file(candidate)) return candidate.string();
    std::error_code ec;
    const fs::path here = fs::weakly_canonical(fs::absolute(dir), ec);
    if (ec || here == here.parent_path()) break;
    dir = dir / "..";
  }
  from.fail(at, field,
            "cannot find '" + name + "' (looked in '" + fs::path(from.file).parent_path().string() +
                "' and every folder above it)");
}

// The subsystem file named by `key` of `m` (in file `from`), of Chrono Type `type`.
Part open_part(const Ctx& from, const MapReader& m, const char* key, const char* type) {
  const YAML::Node& at = m.require(key);
  const std::string name = from.string(at, m.path(key));
  const std::string path = resolve(from, at, m.path(key), name);
  std::string text;
  if (!read_text(path, text)) from.fail(at, m.path(key), "cannot open '" + path + "'");
  return parse_part(path, text, type);
}

[[noreturn]] void refuse_template(const Part& p, const char* what, const char* supported) {
  p.ctx.fail(p.templ_node, "Template",
             "unsupported " + std::string(what) + " template '" + p.templ + "' (supported: " + supported + ")");
}

// Fails naming the key when `m` has it: for Chrono options fleetdyn cannot represent.
void refuse_key(const Ctx& c, const MapReader& m, const char* key, const std::string& why) {
  if (const YAML::Node* n = m.find(key)) c.fail(*n, m.path(key), why);
}

// Numbers -------------------------------------------------------------------------------------

double num(const Ctx& c, const MapReader& m, const char* key, double lo, double hi, const char* unit) {
  return c.number_in(m.require(key), m.path(key), lo, hi, unit);
}
double positive(const Ctx& c, const MapReader& m, const char* key, double hi, const char* unit) {
  return c.positive(m.require(key), m.path(key), hi, unit);
}
std::vector<double> numbers(const Ctx& c, const YAML::Node& n, const std::string& field, size_t count, double lo,
                            double hi, const char* unit) {
  if (!n.IsSequence() || n.size() != count) {
    c.fail(n, field, "expected a list of " + std::to_string(count) + " numbers, got " + describe(n));
  }
  std::vector<double> v(count);
  for (size_t i = 0; i < count; ++i) v[i] = c.number_in(n[i], field + "[" + std::to_string(i) + "]", lo, hi, unit);
  return v;
}
std::vector<double> numbers(const Ctx& c, const MapReader& m, const char* key, size_t count, double lo, double hi,
                            const char* unit) {
  return numbers(c, m.require(key), m.path(key), count, lo, hi, unit);
}
Vec3<double> point(const Ctx& c, const MapReader& m, const char* key) {
  const std::vector<double> v = numbers(c, m, key, 3, -kMaxLength, kMaxLength, "m");
  return {v[0], v[1], v[2]};
}
// Principal moments, each in (0, kMaxInertia].
Vec3<double> moments(const Ctx& c, const MapReader& m, const char* key) {
  const std::vector<double> v = numbers(c, m, key, 3, 0.0, kMaxInertia, "kg m^2");
  for (int i = 0; i < 3; ++i) {
    if (!(v[i] > 0.0)) c.fail(m.require(key)[i], m.path(key) + "[" + std::to_string(i) + "]", "must be positive");
  }
  return {v[0], v[1], v[2]};
}
// A value Chrono gives at pn and 2 pn that fleetdyn holds once: both must be equal.
double load_independent(const Ctx& c, const MapReader& m, const char* key, double lo, double hi, const char* unit,
                        const char* why) {
  const std::vector<double> v = numbers(c, m, key, 2, lo, hi, unit);
  if (v[0] != v[1]) {
    c.fail(m.require(key), m.path(key),
           "values at pn and 2 pn differ (" + fmt(v[0]) + ", " + fmt(v[1]) + "): " + why + "; give equal values");
  }
  return v[0];
}
// Chrono's "Products of Inertia": fleetdyn holds principal moments only.
void require_no_products(const Ctx& c, const MapReader& m, const char* key) {
  if (!m.find(key)) return;
  const std::vector<double> v = numbers(c, m, key, 3, -kMaxInertia, kMaxInertia, "kg m^2");
  if (v[0] != 0.0 || v[1] != 0.0 || v[2] != 0.0) {
    c.fail(m.require(key), m.path(key), "must be [0, 0, 0]: fleetdyn holds a body's principal moments only");
  }
}
// A rotating part (wheel, spindle, tire): moments [Ixx, Iyy, Izz] with y the spin axis.
WheelPartData wheel_part(const Ctx& c, const MapReader& m, const char* mass_key, const char* inertia_key) {
  WheelPartData w{};
  w.mass = positive(c, m, mass_key, kMaxMass, "kg");
  const Vec3<double> i = moments(c, m, inertia_key);
  if (i.x != i.z) {
    c.fail(m.require(inertia_key), m.path(inertia_key),
           "Ixx (" + fmt(i.x) + ") and Izz (" + fmt(i.z) +
               ") differ: fleetdyn's wheel parts are symmetric about their "
               "spin axis (y)");
  }
  w.spin_inertia = i.y;
  w.transverse_inertia = i.x;
  return w;
}

// Chassis -------------------------------------------------------------------------------------

void read_chassis(const Part& p, VehicleDefinition& v) {
  const Ctx& c = p.ctx;
  if (p.templ != "RigidChassis") refuse_template(p, "chassis", "RigidChassis");
  const MapReader top(c, p.root, "", {});
  const YAML::Node& list = top.require("Components");
  if (!list.IsSequence() || list.size() == 0)
    c.fail(list, "Components", "expected a list of components, got " + describe(list));
  double mass = 0.0;
  Vec3<double> first_moment{0.0, 0.0, 0.0};
  std::vector<double> masses;
  std::vector<Vec3<double>> coms;
  std::vector<Sym3<double>> inertias;
  for (size_t k = 0; k < list.size(); ++k) {
    const MapReader m(c, list[k], "Components[" + std::to_string(k) + "]", {});
    if (const YAML::Node* n = m.find("Void"); n && c.boolean(*n, m.path("Void"))) {
      c.fail(*n, m.path("Void"), "void (subtracted) components are not supported");
    }
    const MapReader frame(c, m.require("Centroidal Frame"), m.path("Centroidal Frame"), {});
    const std::vector<double> q = numbers(c, frame, "Orientation", 4, -1.0, 1.0, "");
    if (q[0] != 1.0 || q[1] != 0.0 || q[2] != 0.0 || q[3] != 0.0) {
      c.fail(frame.require("Orientation"), frame.path("Orientation"),
             "must be [1, 0, 0, 0]: fleetdyn reads the component's inertia in the chassis axes");
    }
    masses.push_back(positive(c, m, "Mass", kMaxMass, "kg"));
    coms.push_back(point(c, frame, "Location"));
    const Vec3<double> d = moments(c, m, "Moments of Inertia");
    const std::vector<double> pr = m.find("Products of Inertia")
                                       ? numbers(c, m, "Products of Inertia", 3, -kMaxInertia, kMaxInertia, "kg m^2")
                                       : std::vector<double>{0.0, 0.0, 0.0};
    inertias.push_back({d.x, d.y, d.z, pr[0], pr[1], pr[2]});  // Chrono: [Ixy, Ixz, Iyz]
    mass += masses.back();
    first_moment = first_moment + masses.back() * coms.back();
  }
  if (list.size() == 1) {  // as written, no arithmetic
    v.chassis_mass = masses[0];
    v.chassis_com = coms[0];
    v.chassis_inertia = inertias[0];
    return;
  }
  v.chassis_mass = mass;
  v.chassis_com = first_moment * (1.0 / mass);
  Sym3<double> sum{0, 0, 0, 0, 0, 0};
  for (size_t k = 0; k < masses.size(); ++k) {
    const Sym3<double> i = parallel_axis(inertias[k], masses[k], coms[k] - v.chassis_com);
    sum = {sum.xx + i.xx, sum.yy + i.yy, sum.zz + i.zz, sum.xy + i.xy, sum.xz + i.xz, sum.yz + i.yz};
  }
  v.chassis_inertia = sum;
}

// Suspension ----------------------------------------------------------------------------------

LinkData arm(const Ctx& c, const MapReader& m) {
  refuse_key(c, m, "Bushing Data", "bushings are not supported: fleetdyn's joints are kinematic");
  require_no_products(c, m, "Products of Inertia");
  return {positive(c, m, "Mass", kMaxMass, "kg"), moments(c, m, "Moments of Inertia")};
}

// A tabulated spring force f(x) (x = length - free length, Chrono's force = -f) that is exactly a
// linear-plus-cubic law f = k x + c x^3 up to the rounding of its printed digits: (k, c).
void spring_curve(const Ctx& c, const MapReader& s, const char* key, SpringData& out) {
  const YAML::Node& n = s.require(key);
  const std::string field = s.path(key);
  if (!n.IsSequence() || n.size() < 3) c.fail(n, field, "expected a list of at least 3 [deformation, force] pairs");
  std::vector<double> x(n.size()), f(n.size());
  double fmax = 0.0;
  for (size_t i = 0; i < n.size(); ++i) {
    const std::vector<double> xy = numbers(c, n[i], field + "[" + std::to_string(i) + "]", 2, -1.0e9, 1.0e9, "[m, N]");
    x[i] = xy[0];
    f[i] = xy[1];
    fmax = std::max(fmax, std::fabs(f[i]));
  }
  // Least squares on the basis (x, x^3).
  double s11 = 0, s13 = 0, s33 = 0, b1 = 0, b3 = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    const double x3 = x[i] * x[i] * x[i];
    s11 += x[i] * x[i];
    s13 += x[i] * x3;
    s33 += x3 * x3;
    b1 += x[i] * f[i];
    b3 += x3 * f[i];
  }
  const double det = s11 * s33 - s13 * s13;
  if (!(std::fabs(det) > 0.0)) c.fail(n, field, "the deformations do not determine a linear and a cubic term");
  const double k = (b1 * s33 - b3 * s13) / det;
  const double cubic = (s11 * b3 - s13 * b1) / det;
  // Accepted within 1e-6 of the largest force: far above the rounding of a table printed to 7+
  // digits, far below any real deviation from the law (a kink, a progressive bump rubber).
  // Refused naming the point the best law misses most.
  size_t worst = 0;
  double worst_r = 0.0;
  for (size_t i = 0; i < x.size(); ++i) {
    const double r = f[i] - (k * x[i] + cubic * x[i] * x[i] * x[i]);
    if (!(std::fabs(r) <= std::fabs(worst_r))) worst = i, worst_r = r;
  }
  if (!(std::fabs(worst_r) <= 1e-6 * fmax)) {
    c.fail(n[worst], field + "[" + std::to_string(worst) + "]",
           "the curve is not a linear-plus-cubic law F = k x + c x^3 (the best such law is off by " + fmt(worst_r) +
               " N here): fleetdyn's springs are linear or cubic; give 'Spring Coefficient' or such a curve");
  }
  if (!(k >= 1.0e3 && k <= 1.0e8)) c.fail(n, field, "its linear term " + fmt(k) + " N/m is outside [1000, 1e+08] N/m");
  if (!(cubic >= 0.0 && cubic <= 1.0e10)) {
    c.fail(n, field, "its cubic term " + fmt(cubic) + " N/m^3 is outside [0, 1e+10] N/m^3 (fleetdyn's springs stiffen)");
  }
  out.rate = k;
  out.cubic = cubic;
}

void read_spring(const Ctx& c, const MapReader& s, AxleDefinition& a) {
  const std::string no_damping = "a spring with damping is not supported: give the damping in 'Shock'";
  refuse_key(c, s, "Damping Coefficient", no_damping);
  refuse_key(c, s, "Damping Curve Data", no_damping);
  refuse_key(c, s, "Map Data", "spring-damper maps are not supported: fleetdyn's spring is linear or cubic");
  if (const YAML::Node* n = s.find("Preload"); n && c.number(*n, s.path("Preload")) != 0.0) {
    c.fail(*n, s.path("Preload"), "a spring preload is not supported (must be 0): adjust 'Free Length' instead");
  }
  a.spring.free_length = num(c, s, "Free Length", 0.05, 3.0, "m");
  const char* curve_key = s.find("Spring Curve Data") ? "Spring Curve Data"
                          : s.find("Curve Data")      ? "Curve Data"
                                                      : nullptr;
  if (s.find("Spring Coefficient") && curve_key) {
    c.fail(s.require(curve_key), s.path(curve_key), "give either 'Spring Coefficient' or a curve, not both");
  }
  if (curve_key) {
    spring_curve(c, s, curve_key, a.spring);
  } else {
    if (!s.find("Spring Coefficient")) {
      c.fail(s.node(), s.path("Spring Coefficient"), "required key is missing (or 'Spring Curve Data')");
    }
    a.spring.rate = num(c, s, "Spring Coefficient", 1.0e3, 1.0e8, "N/m");
    a.spring.cubic = 0.0;
  }
  // Chrono's stops on the spring length are fleetdyn's bump and rebound stops.
  const char* why = "required: fleetdyn's suspensions have bump and rebound stops on the spring length";
  if (!s.find("Minimum Length")) c.fail(s.node(), s.path("Minimum Length"), why);
  if (!s.find("Maximum Length")) c.fail(s.node(), s.path("Maximum Length"), why);
  a.bump_stop_length = num(c, s, "Minimum Length", 0.0, 3.0, "m");
  a.rebound_stop_length = num(c, s, "Maximum Length", 0.0, 3.0, "m");
  if (!(a.rebound_stop_length > a.bump_stop_length)) {
    c.fail(s.require("Maximum Length"), s.path("Maximum Length"),
           fmt(a.rebound_stop_length) + " m must exceed 'Minimum Length' (" + fmt(a.bump_stop_length) + " m)");
  }
}

void read_shock(const Ctx& c, const MapReader& s, AxleDefinition& a) {
  const std::string linear = "fleetdyn's shock is linear: give 'Damping Coefficient'";
  refuse_key(c, s, "Spring Coefficient", "a shock with a spring is not supported: give the spring in 'Spring'");
  refuse_key(c, s, "Spring Curve Data", "a shock with a spring is not supported: give the spring in 'Spring'");
  refuse_key(c, s, "Damping Curve Data", "tabulated damping curves are not supported: " + linear);
  refuse_key(c, s, "Curve Data", "tabulated damping curves are not supported: " + linear);
  refuse_key(c, s, "Map Data", "damper maps are not supported: " + linear);
  refuse_key(c, s, "Degressivity Compression", "degressive dampers are not supported: " + linear);
  refuse_key(c, s, "Degressivity Expansion", "degressive dampers are not supported: " + linear);
  const double rate = num(c, s, "Damping Coefficient", 0.0, 1.0e7, "N s/m");
  // One rate everywhere: the midstroke band then changes nothing; it spans every length.
  a.shock = {0.0, 3.0, rate, rate, rate, rate};
}

// A DoubleWishbone suspension placed at `location` on the chassis into axle `a`; `spindle`
// receives its spindle.
void read_double_wishbone(const Part& p, Vec3<double> location, AxleDefinition& a, WheelPartData& spindle) {
  const Ctx& c = p.ctx;
  if (p.templ != "DoubleWishbone") refuse_template(p, "suspension", "DoubleWishbone");
  const MapReader top(c, p.root, "", {});
  if (const YAML::Node* n = top.find("Vehicle-Frame Inertia"); n && c.boolean(*n, "Vehicle-Frame Inertia")) {
    c.fail(*n, "Vehicle-Frame Inertia",
           "inertias in the vehicle frame are not supported: fleetdyn reads the arms' moments in Chrono's arm "
           "frames (false)");
  }
  for (const char* key : {"Camber Angle (deg)", "Toe Angle (deg)"}) {
    if (const YAML::Node* n = top.find(key); n && c.number(*n, key) != 0.0) {
      c.fail(*n, key, "must be 0: fleetdyn's design position has zero camber and toe (spindle axis along y)");
    }
  }
  DoubleWishboneHardpoints<double>& h = a.hardpoints;
  const MapReader sp(c, top.require("Spindle"), "Spindle", {});
  spindle = wheel_part(c, sp, "Mass", "Inertia");
  h.wheel_centre = point(c, sp, "COM");
  const MapReader up(c, top.require("Upright"), "Upright", {});
  require_no_products(c, up, "Products of Inertia");
  a.upright = {positive(c, up, "Mass", kMaxMass, "kg"), moments(c, up, "Moments of Inertia")};
  h.upright_com = point(c, up, "COM");
  const MapReader uca(c, top.require("Upper Control Arm"), "Upper Control Arm", {});
  a.uca = arm(c, uca);
  h.uca_com = point(c, uca, "COM");
  h.uca_front = point(c, uca, "Location Chassis Front");
  h.uca_back = point(c, uca, "Location Chassis Back");
  h.uca_ball = point(c, uca, "Location Upright");
  const MapReader lca(c, top.require("Lower Control Arm"), "Lower Control Arm", {});
  a.lca = arm(c, lca);
  h.lca_com = point(c, lca, "COM");
  h.lca_front = point(c, lca, "Location Chassis Front");
  h.lca_back = point(c, lca, "Location Chassis Back");
  h.lca_ball = point(c, lca, "Location Upright");
  const MapReader tr(c, top.require("Tierod"), "Tierod", {});
  refuse_key(c, tr, "Bushing Data", "bushings are not supported: fleetdyn's joints are kinematic");
  if (tr.find("Mass")) {
    a.tierod = {positive(c, tr, "Mass", kMaxMass, "kg"), moments(c, tr, "Inertia")};
  } else {
    a.tierod = {0.0, {0.0, 0.0, 0.0}};  // Chrono's distance constraint: a massless rod
  }
  h.tierod_inner = point(c, tr, "Location Chassis");
  h.tierod_outer = point(c, tr, "Location Upright");
  const MapReader spring(c, top.require("Spring"), "Spring", {});
  h.spring_chassis = point(c, spring, "Location Chassis");
  h.spring_arm = point(c, spring, "Location Arm");
  read_spring(c, spring, a);
  const MapReader shock(c, top.require("Shock"), "Shock", {});
  h.shock_chassis = point(c, shock, "Location Chassis");
  h.shock_arm = point(c, shock, "Location Arm");
  read_shock(c, shock, a);
  // fleetdyn's suspension frame is the chassis frame shifted along x only: a height offset of
  // Chrono's suspension location moves every hardpoint.
  a.x = location.x;
  if (location.z != 0.0) {
    Vec3<double>* points[] = {&h.lca_front,      &h.lca_back,     &h.lca_ball,      &h.lca_com,
                              &h.uca_front,      &h.uca_back,     &h.uca_ball,      &h.uca_com,
                              &h.upright_com,    &h.wheel_centre, &h.tierod_inner,  &h.tierod_outer,
                              &h.spring_chassis, &h.spring_arm,   &h.shock_chassis, &h.shock_arm};
    for (Vec3<double>* q : points) q->z += location.z;
  }
}

// Steering ------------------------------------------------------------------------------------

// A joint axis that must be the mechanism's z axis (fleetdyn's Pitman mechanism is planar).
void require_z_axis(const Ctx& c, const MapReader& m, const char* key) {
  const std::vector<double> d = numbers(c, m, key, 3, -1.0e3, 1.0e3, "");
  if (d[0] != 0.0 || d[1] != 0.0 || !(d[2] > 0.0)) {
    c.fail(m.require(key), m.path(key), "must be [0, 0, 1]: fleetdyn's Pitman mechanism is planar about its z axis");
  }
}

void read_pitman_arm(const Part& p, VehicleDefinition& v) {
  const Ctx& c = p.ctx;
  if (p.templ != "PitmanArm") refuse_template(p, "steering", "PitmanArm");
  const MapReader top(c, p.root, "", {});
  // The two moving parts are lumped as point masses at the mechanism origin (their inertias
  // and COMs are not used).
  const MapReader link(c, top.require("Steering Link"), "Steering Link", {});
  v.steering_link_mass = num(c, link, "Mass", 0.0, kMaxMass, "kg");
  const MapReader pitman(c, top.require("Pitman Arm"), "Pitman Arm", {});
  v.pitman_arm_mass = num(c, pitman, "Mass", 0.0, kMaxMass, "kg");
  PitmanSteeringGeometry<double>& s = v.steering;
  const MapReader rev(c, top.require("Revolute Joint"), "Revolute Joint", {});
  s.pitman_pivot = point(c, rev, "Location");
  require_z_axis(c, rev, "Direction");
  s.max_angle = deg_to_rad(num(c, rev, "Maximum Angle", 0.5, 68.0, "deg"));
  const MapReader uni(c, top.require("Universal Joint"), "Universal Joint", {});
  s.pitman_link = point(c, uni, "Location");
  const MapReader rs(c, top.require("Revolute-Spherical Joint"), "Revolute-Spherical Joint", {});
  s.idler_pivot = point(c, rs, "Location Chassis");
  s.idler_link = point(c, rs, "Location Link");
  require_z_axis(c, rs, "Direction");
}

// The steering's placement in the vehicle file: location and a rotation about y only.
void read_steering_placement(const Ctx& c, const MapReader& m, VehicleDefinition& v) {
  v.steering.origin = point(c, m, "Location");
  const std::vector<double> q = numbers(c, m, "Orientation", 4, -1.0, 1.0, "");
  const double n = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  if (!(std::fabs(n - 1.0) <= 1e-6)) {
    c.fail(m.require("Orientation"), m.path("Orientation"), "expected a unit quaternion [e0, e1, e2, e3], norm " + fmt(n));
  }
  if (q[1] != 0.0 || q[3] != 0.0) {
    c.fail(m.require("Orientation"), m.path("Orientation"),
           "fleetdyn's steering mechanism may only be rotated about the chassis y axis: e1 and e3 must be 0");
  }
  v.steering.pitch = 2.0 * std::atan2(q[2], q[0]);
  if (!(std::fabs(v.steering.pitch) <= 0.5 * kPi)) {
    c.fail(m.require("Orientation"), m.path("Orientation"),
           "a rotation of " + fmt(v.steering.pitch * 180.0 / kPi) + " deg about y is outside [-90, 90] deg");
  }
}

// Wheel, brake, tire --------------------------------------------------------------------------

WheelPartData read_wheel(const Part& p) {
  if (p.templ != "Wheel") refuse_template(p, "wheel", "Wheel");
  const MapReader top(p.ctx, p.root, "", {});
  return wheel_part(p.ctx, top, "Mass", "Inertia");
}

double read_brake(const Part& p) {
  if (p.templ != "BrakeSimple" && p.templ != "BrakeShafts") refuse_template(p, "brake", "BrakeSimple, BrakeShafts");
  const MapReader top(p.ctx, p.root, "", {});
  return num(p.ctx, top, "Maximum Torque", 0.0, 1.0e5, "N m");
}

// TMeasy: the tire body and its parameters (slip_velocity_floor left as given).
void read_tmeasy(const Part& p, WheelPartData& body, TireParams<double>& t) {
  const Ctx& c = p.ctx;
  if (p.templ != "TMeasyTire") refuse_template(p, "tire", "TMeasyTire");
  const MapReader top(c, p.root, "", {});
  const MapReader design(c, top.require("Design"), "Design", {});
  t.unloaded_radius = num(c, design, "Unloaded Radius [m]", 0.1, 3.0, "m");
  body = wheel_part(c, design, "Mass [kg]", "Inertia [kg.m2]");
  t.width = num(c, design, "Width [m]", 0.01, 3.0, "m");
  if (design.find("Rim Radius [m]")) t.rim_radius = num(c, design, "Rim Radius [m]", 0.0, 3.0, "m");
  t.mu_ref = num(c, top, "Coefficient of Friction", 0.05, 3.0, "");
  t.mu = t.mu_ref;
  t.rolling_resistance = load_independent(c, top, "Rolling Resistance Coefficients", 0.0, 0.5, "",
                                          "fleetdyn's rolling resistance coefficient does not depend on load");
  if (!top.find("Parameters")) {
    const char* guessed = top.find("Load Index") ? "Load Index" : "Parameters";
    c.fail(top.find(guessed) ? *top.find(guessed) : p.root, guessed,
           "fleetdyn needs the full TMeasy parameter set ('Parameters'); parameters guessed from a load index or "
           "bearing capacity are not supported");
  }
  const MapReader par(c, top.require("Parameters"), "Parameters", {});
  const MapReader load(c, par.require("Tire Load"), par.path("Tire Load"), {});
  t.nominal_load = num(c, load, "Nominal Vertical Force [N]", 10.0, 1.0e6, "N");
  const MapReader stiff(c, par.require("Tire Stiffness"), par.path("Tire Stiffness"), {});
  t.long_stiffness = num(c, stiff, "Longitudinal [N/m]", 1.0e3, 1.0e7, "N/m");
  t.lat_stiffness = num(c, stiff, "Lateral [N/m]", 1.0e3, 1.0e7, "N/m");
  t.vertical_stiffness = load_independent(c, stiff, "Vertical [N/m]", 1.0e4, 1.0e8, "N/m",
                                          "fleetdyn's vertical stiffness is linear");
  const MapReader damp(c, par.require("Tire Damping"), par.path("Tire Damping"), {});
  t.long_damping = num(c, damp, "Longitudinal [Ns/m]", 1.0e-3, 1.0e7, "N s/m");
  t.lat_damping = num(c, damp, "Lateral [Ns/m]", 1.0e-3, 1.0e7, "N s/m");
  t.vertical_damping = num(c, damp, "Vertical [Ns/m]", 0.0, 1.0e6, "N s/m");
  const auto curve = [&](const char* section, const char* slope, const char* fmax, const char* fslide, const char* smax,
                         const char* sslide, TmeasyCurve<double>& pn, TmeasyCurve<double>& p2n) {
    const MapReader m(c, par.require(section), par.path(section), {});
    const std::vector<double> d = numbers(c, m, slope, 2, 1.0, 1.0e8, "N");
    const std::vector<double> f = numbers(c, m, fmax, 2, 1.0, 1.0e7, "N");
    const std::vector<double> fs = numbers(c, m, fslide, 2, 0.0, 1.0e7, "N");
    const std::vector<double> sm = numbers(c, m, smax, 2, 1.0e-4, 10.0, "");
    const std::vector<double> ss = numbers(c, m, sslide, 2, 1.0e-4, 10.0, "");
    pn = {d[0], f[0], sm[0], fs[0], ss[0]};
    p2n = {d[1], f[1], sm[1], fs[1], ss[1]};
  };
  TmeasyCurve<double> x1, x2, y1, y2;
  curve("Longitudinal", "Initial Slopes dFx/dsx [N]", "Maximum Fx Load [N]", "Sliding Fx Load [N]",
        "Slip sx at Maximum Fx", "Slip sx where sliding begins", x1, x2);
  curve("Lateral", "Initial Slopes dFy/dsy [N]", "Maximum Fy Load [N]", "Sliding Fy Load [N]", "Slip sy at Maximum Fy",
        "Slip sy where sliding begins", y1, y2);
  t.dfx0_pn = x1.df0, t.dfx0_2pn = x2.df0, t.fxm_pn = x1.fm, t.fxm_2pn = x2.fm, t.sxm_pn = x1.sm, t.sxm_2pn = x2.sm;
  t.fxs_pn = x1.fs, t.fxs_2pn = x2.fs, t.sxs_pn = x1.ss, t.sxs_2pn = x2.ss;
  t.dfy0_pn = y1.df0, t.dfy0_2pn = y2.df0, t.fym_pn = y1.fm, t.fym_2pn = y2.fm, t.sym_pn = y1.sm, t.sym_2pn = y2.sm;
  t.fys_pn = y1.fs, t.fys_2pn = y2.fs, t.sys_pn = y1.ss, t.sys_2pn = y2.ss;
  const MapReader al(c, par.require("Aligning"), par.path("Aligning"), {});
  const char* trail = "fleetdyn's pneumatic trail curve does not depend on load";
  t.trail_ratio0 = load_independent(c, al, "Normalized Trail at Zero Slip sy", 0.0, 1.0, "", trail);
  t.trail_zero_slip = load_independent(c, al, "Slip sy where Trail Changes Sign", 1.0e-4, 10.0, "", trail);
  t.trail_end_slip = load_independent(c, al, "Slip sy where Trail Tends to Zero", 1.0e-4, 10.0, "", trail);
}

// Driveline, engine, transmission -------------------------------------------------------------

// The driveline file and the vehicle file's driven axles: the front torque share and the
// conical (final) gear ratio, wheel speed / driveshaft speed.
double read_driveline(const Part& p, const Ctx& vc, const MapReader& dm, VehicleCommon<double>& common) {
  const Ctx& c = p.ctx;
  const YAML::Node& idx_node = dm.require("Suspension Indexes");
  if (!idx_node.IsSequence() || idx_node.size() == 0 || idx_node.size() > 2) {
    vc.fail(idx_node, dm.path("Suspension Indexes"), "expected a list of 1 or 2 axle indexes, got " + describe(idx_node));
  }
  std::vector<int> driven;
  for (size_t i = 0; i < idx_node.size(); ++i) {
    driven.push_back(vc.integer_in(idx_node[i], dm.path("Suspension Indexes") + "[" + std::to_string(i) + "]", 0, 1));
  }
  const bool both = driven.size() == 2 && driven[0] != driven[1];
  const MapReader top(c, p.root, "", {});
  const auto same_ratios = [&](const MapReader& m, const char* front, const char* rear) {
    const double f = std::fabs(num(c, m, front, -1.0e3, 1.0e3, ""));
    const double r = std::fabs(num(c, m, rear, -1.0e3, 1.0e3, ""));
    if (f != r) {
      c.fail(m.require(rear), m.path(rear),
             fmt(r) + " differs from the front's " + fmt(f) + ": fleetdyn's driveline has one overall ratio");
    }
    return f;
  };
  const auto require_awd = [&]() {
    if (!both) vc.fail(idx_node, dm.path("Suspension Indexes"), "a " + p.templ + " driveline drives axles [0, 1]");
  };
  double conical = 0.0;
  if (p.templ == "SimpleDriveline") {
    require_awd();
    common.front_torque_split = num(c, top, "Front Torque Fraction", 0.0, 1.0, "");
    for (const char* key : {"Front Differential Max Bias", "Rear Differential Max Bias"}) {
      if (top.find(key) && num(c, top, key, 0.0, 1.0e3, "") != 1.0) {
        c.fail(*top.find(key), key, "limited-slip differentials are not supported: fleetdyn's are open (bias 1)");
      }
    }
    conical = same_ratios(top, "Front Conical Gear Ratio", "Rear Conical Gear Ratio");
  } else if (p.templ == "ShaftsDriveline4WD") {
    require_awd();
    common.front_torque_split = 0.5;  // Chrono's central differential splits equally
    const MapReader g(c, top.require("Gear Ratio"), "Gear Ratio", {});
    conical = same_ratios(g, "Front Conical Gear", "Rear Conical Gear");
    for (const char* key : {"Axle Differential Locking Limit", "Central Differential Locking Limit"}) {
      if (top.find(key) && num(c, top, key, 0.0, 1.0e9, "N m") != 0.0) {
        c.fail(*top.find(key), key, "locking differentials are not supported: fleetdyn's are open (give 0)");
      }
    }
  } else if (p.templ == "ShaftsDriveline2WD") {
    if (driven.size() != 1) vc.fail(idx_node, dm.path("Suspension Indexes"), "a ShaftsDriveline2WD drives one axle");
    common.front_torque_split = driven[0] == 0 ? 1.0 : 0.0;
    const MapReader g(c, top.require("Gear Ratio"), "Gear Ratio", {});
    conical = std::fabs(num(c, g, "Conical Gear", -1.0e3, 1.0e3, ""));
    if (top.find("Differential Locking Limit") && num(c, top, "Differential Locking Limit", 0.0, 1.0e9, "N m") != 0.0) {
      c.fail(*top.find("Differential Locking Limit"), "Differential Locking Limit",
             "locking differentials are not supported: fleetdyn's are open (give 0)");
    }
  } else {
    refuse_template(p, "driveline", "SimpleDriveline, ShaftsDriveline4WD, ShaftsDriveline2WD");
  }
  return conical;
}

void read_engine(const Part& p, VehicleCommon<double>& common) {
  if (p.templ != "EngineSimple") refuse_template(p, "engine", "EngineSimple (peak torque, peak power, governed speed)");
  const MapReader top(p.ctx, p.root, "", {});
  common.engine_peak_torque = num(p.ctx, top, "Maximum Engine Torque", 0.0, 1.0e5, "N m");
  common.engine_peak_power = num(p.ctx, top, "Maximum Engine Power", 0.0, 1.0e7, "W");
  common.engine_max_speed = num(p.ctx, top, "Maximum Engine Speed", 10.0, 2000.0, "rad/s");
}

// The transmission's one forward gear ratio (output / input speed).
double read_transmission(const Part& p) {
  const Ctx& c = p.ctx;
  if (p.templ != "AutomaticTransmissionSimpleMap") refuse_template(p, "transmission", "AutomaticTransmissionSimpleMap");
  const MapReader top(c, p.root, "", {});
  const MapReader box(c, top.require("Gear Box"), "Gear Box", {});
  const YAML::Node& gears = box.require("Forward Gear Ratios");
  if (!gears.IsSequence() || gears.size() != 1) {
    c.fail(gears, box.path("Forward Gear Ratios"),
           "expected exactly one forward gear, got " +
               (gears.IsSequence() ? std::to_string(gears.size()) + " gears" : describe(gears)) +
               ": fleetdyn's driveline is one fixed reduction (no gear shifts)");
  }
  const double r = std::fabs(c.number(gears[0], box.path("Forward Gear Ratios") + "[0]"));
  if (!(r > 0.0)) c.fail(gears[0], box.path("Forward Gear Ratios") + "[0]", "must not be 0");
  return r;
}

// Where a make_ce_params error belongs: the suspension file of the corner it names; the front
// suspension when the steering cannot reach full lock (its tierods close the steering loop);
// the steering file for a degenerate mechanism; else the vehicle file.
[[noreturn]] void fail_design(const std::string& what, const Part& front, const Part& rear, const Part& steering,
                              const Part& vehicle) {
  const auto has = [&](const char* s) { return what.find(s) != std::string::npos; };
  if (has("corner FL") || has("corner FR")) front.ctx.fail(front.root, "", what);
  if (has("corner RL") || has("corner RR")) rear.ctx.fail(rear.root, "", what);
  if (has("does not assemble")) {
    front.ctx.fail(front.root, "",
                   what + " (the tierods of this suspension on the mechanism of " + steering.ctx.file + ")");
  }
  if (has("steering")) steering.ctx.fail(steering.root, "", what);
  vehicle.ctx.fail(vehicle.root, "", what);
}

}  // namespace

VehicleDefinition chrono_vehicle_defaults() {
  // The built-in HMMWV's values for what Chrono's files do not carry.
  const VehicleDefinition h = hmmwv_vehicle();
  VehicleDefinition v{};
  for (int k = 0; k < kStopTablePoints; ++k) {
    v.stop_table_pen[k] = h.stop_table_pen[k];
    v.stop_table_force[k] = h.stop_table_force[k];
  }
  v.steer_time_constant = h.steer_time_constant;
  v.common.driveline_efficiency = h.common.driveline_efficiency;
  v.common.wheel_lock_time = h.common.wheel_lock_time;
  v.common.gravity = h.common.gravity;
  v.common.tire.slip_velocity_floor = h.common.tire.slip_velocity_floor;
  v.common.tire.rim_radius = h.common.tire.rim_radius;  // when the tire file has no "Rim Radius [m]"
  v.common.tire.rim_stiffness = h.common.tire.rim_stiffness;
  // The body box for body contact (Chrono's collision shapes are not read): the HMMWV's, to be
  // overridden (body.*) for another vehicle.
  v.common.body_front_overhang = h.common.body_front_overhang;
  v.common.body_rear_overhang = h.common.body_rear_overhang;
  v.common.body_half_width = h.common.body_half_width;
  v.common.roof_half_width = h.common.roof_half_width;
  v.common.body_bottom_height = h.common.body_bottom_height;
  v.common.body_roof_height = h.common.body_roof_height;
  v.common.body_contact_stiffness = h.common.body_contact_stiffness;
  v.common.body_contact_damping = h.common.body_contact_damping;
  v.common.body_mu = h.common.body_mu;
  v.balance_springs_at_design = true;
  return v;
}

VehicleDefinition load_chrono_vehicle(const std::string& path) {
  std::string text;
  if (!read_text(path, text)) throw ScenarioError(path, 0, "", "cannot open the vehicle file");
  const Part veh = parse_part(path, text, "Vehicle");
  const Ctx& c = veh.ctx;
  if (veh.templ != "WheeledVehicle") refuse_template(veh, "vehicle", "WheeledVehicle");
  const MapReader top(c, veh.root, "", {});
  VehicleDefinition v = chrono_vehicle_defaults();
  v.name = c.string(top.require("Name"), "Name");
  refuse_key(c, top, "Rear Chassis", "articulated vehicles (rear chassis) are not supported");
  refuse_key(c, top, "Subchassis", "subchassis (e.g. walking beams) are not supported");

  const MapReader chassis(c, top.require("Chassis"), "Chassis", {});
  read_chassis(open_part(c, chassis, "Input File", "Chassis"), v);

  const YAML::Node& axles = top.require("Axles");
  if (!axles.IsSequence()) c.fail(axles, "Axles", "expected a list of axles, got " + describe(axles));
  if (axles.size() != 2) {
    c.fail(axles, "Axles",
           std::to_string(axles.size()) +
               " axles given; fleetdyn's vehicles have exactly 2 (front and rear double "
               "wishbones, the front one steered)");
  }
  std::vector<Part> suspensions;
  WheelPartData spindles[2]{}, wheel{}, tire_body{};
  for (int i = 0; i < 2; ++i) {
    const std::string field = "Axles[" + std::to_string(i) + "]";
    const MapReader ax(c, axles[i], field, {});
    refuse_key(c, ax, "Antirollbar Input File", "anti-roll bars are not supported");
    refuse_key(c, ax, "Wheel Separation", "double wheels are not supported");
    refuse_key(c, ax, "Subchassis Index", "subchassis are not supported");
    const Vec3<double> location = point(c, ax, "Suspension Location");
    if (location.y != 0.0) {
      c.fail(ax.require("Suspension Location"), ax.path("Suspension Location"),
             "y must be 0: fleetdyn's suspensions are symmetric about the chassis x-z plane");
    }
    AxleDefinition& a = i == 0 ? v.front : v.rear;
    suspensions.push_back(open_part(c, ax, "Suspension Input File", "Suspension"));
    read_double_wishbone(suspensions.back(), location, a, spindles[i]);
    // The front axle is steered by the one steering subsystem; the rear's tierods are fixed.
    const YAML::Node* steer = ax.find("Steering Index");
    const int steer_index = steer ? c.integer_in(*steer, ax.path("Steering Index"), -1, 1000) : -1;
    if (i == 0 && steer_index != 0) {
      c.fail(steer ? *steer : axles[i], ax.path("Steering Index"), "the front axle (Axles[0]) must be steered: give 0");
    }
    if (i == 1 && steer_index != -1) {
      c.fail(*steer, ax.path("Steering Index"),
             "fleetdyn steers the front axle only (the rear axle's tierods are fixed)");
    }
    for (const char* key : {"Left Wheel Input File", "Right Wheel Input File"}) {
      const WheelPartData w = read_wheel(open_part(c, ax, key, "Wheel"));
      if (i == 0 && std::string(key) == "Left Wheel Input File") {
        wheel = w;
      } else if (std::memcmp(&w, &wheel, sizeof w) != 0) {
        c.fail(ax.require(key), ax.path(key),
               "this wheel differs from Axles[0]'s left wheel: fleetdyn's wheels are alike");
      }
    }
    double brake[2];
    const char* brake_keys[2] = {"Left Brake Input File", "Right Brake Input File"};
    for (int k = 0; k < 2; ++k) {
      if (!ax.find(brake_keys[k])) c.fail(axles[i], ax.path(brake_keys[k]), "required: fleetdyn's wheels have brakes");
      brake[k] = read_brake(open_part(c, ax, brake_keys[k], "Brake"));
    }
    if (brake[0] != brake[1]) {
      c.fail(ax.require(brake_keys[1]), ax.path(brake_keys[1]),
             "its Maximum Torque " + fmt(brake[1]) + " N m differs from the left's " + fmt(brake[0]) +
                 " N m: fleetdyn brakes an axle's wheels alike");
    }
    (i == 0 ? v.common.brake_torque_front : v.common.brake_torque_rear) = brake[0];
    if (!ax.find("Tire Input File")) c.fail(axles[i], ax.path("Tire Input File"), "required: fleetdyn needs the tire");
    WheelPartData body{};
    TireParams<double> tire = v.common.tire;
    read_tmeasy(open_part(c, ax, "Tire Input File", "Tire"), body, tire);
    if (i == 0) {
      v.common.tire = tire;
      tire_body = body;
    } else if (std::memcmp(&tire, &v.common.tire, sizeof tire) != 0 || std::memcmp(&body, &tire_body, sizeof body) != 0) {
      c.fail(ax.require("Tire Input File"), ax.path("Tire Input File"),
             "this tire differs from Axles[0]'s: fleetdyn has one tire for all four wheels");
    }
  }
  if (!(v.front.x > v.rear.x)) {
    c.fail(axles[1], "Axles[1].Suspension Location",
           "x = " + fmt(v.rear.x) + " m must be behind Axles[0] (x = " + fmt(v.front.x) + " m; x is forward)");
  }
  if (std::memcmp(&spindles[0], &spindles[1], sizeof spindles[0]) != 0) {
    const Ctx& rc = suspensions[1].ctx;
    rc.fail(suspensions[1].root["Spindle"], "Spindle",
            "differs from the front suspension's spindle: fleetdyn's four wheels are alike");
  }
  v.spindle = spindles[0];
  v.rim = wheel;
  v.tire_body = tire_body;

  const YAML::Node& steerings = top.require("Steering Subsystems");
  if (!steerings.IsSequence() || steerings.size() != 1) {
    c.fail(steerings, "Steering Subsystems", "expected exactly one steering subsystem, got " + describe(steerings));
  }
  const MapReader st(c, steerings[0], "Steering Subsystems[0]", {});
  const Part steering = open_part(c, st, "Input File", "Steering");
  read_pitman_arm(steering, v);
  read_steering_placement(c, st, v);

  if (!top.find("Driveline")) c.fail(veh.root, "Driveline", "required: fleetdyn's vehicles are driven");
  const MapReader dm(c, top.require("Driveline"), "Driveline", {});
  const double conical = read_driveline(open_part(c, dm, "Input File", "Driveline"), c, dm, v.common);
  if (!top.find("Powertrain")) {
    c.fail(veh.root, "Powertrain",
           "required: fleetdyn needs the engine and transmission ('Engine Input File', 'Transmission Input File')");
  }
  const MapReader pm(c, top.require("Powertrain"), "Powertrain", {});
  read_engine(open_part(c, pm, "Engine Input File", "Engine"), v.common);
  const double gear = read_transmission(open_part(c, pm, "Transmission Input File", "Transmission"));
  // Chrono's ratios are output / input speed; fleetdyn's is engine speed / wheel speed.
  v.common.driveline_ratio = 1.0 / (gear * conical);
  if (!(v.common.driveline_ratio >= 0.5 && v.common.driveline_ratio <= 100.0)) {
    c.fail(pm.require("Transmission Input File"), "Powertrain",
           "the overall reduction 1 / (gear x conical gear) = " + fmt(v.common.driveline_ratio) +
               " is outside [0.5, 100]");
  }

  // The suspension must assemble and the model's own checks pass: build it once.
  try {
    CeParams<double> p = make_ce_params(v);
    finalize_ce_params(p);
  } catch (const ScenarioError&) {
    throw;
  } catch (const Error& e) {
    fail_design(e.what(), suspensions[0], suspensions[1], steering, veh);
  }
  return v;
}

}  // namespace fleetdyn
