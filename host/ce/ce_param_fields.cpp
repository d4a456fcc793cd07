// The ce model's parameters by name, and their finalization (derived fields and validation).
#include <Eigen/Dense>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "fleetdyn/ce_fields.h"
#include "fleetdyn/error.h"
#include "fleetdyn/physics/ce/fourbar.h"

namespace fleetdyn {
namespace {

#define FLEETDYN_FIELD_ROW(name, member, unit, lo, hi, doc) VehicleParamField{name, unit, lo, hi, doc},
const std::vector<VehicleParamField> kFields = {FLEETDYN_CE_PARAM_FIELDS(FLEETDYN_FIELD_ROW)};
#undef FLEETDYN_FIELD_ROW

// Nine significant digits: enough to tell apart the values a message compares.
std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

[[noreturn]] void fail(const std::string& what) { throw Error("ce parameters: " + what); }

// The ce's own fields by member, then the shared ones (same message, same nine digits).
void check_ranges(const CeParams<double>& p) {
  const auto in_range = [](const char* name, double v, const char* unit, double lo, double hi) {
    if (v >= lo && v <= hi) return;  // also rejects NaN
    const std::string u = std::string(unit) == "-" ? "" : std::string(" ") + unit;
    fail(std::string(name) + " = " + num(v) + u + " is outside [" + num(lo) + ", " + num(hi) + "]");
  };
#define FLEETDYN_FIELD_CHECK(name, member, unit, lo, hi, doc) in_range(name, p.member, unit, lo, hi);
  FLEETDYN_CE_OWN_FIELDS(FLEETDYN_FIELD_CHECK)
#undef FLEETDYN_FIELD_CHECK
  check_vehicle_common(p, "ce parameters", 9);
}

// The spring must carry load before the bump stop does, and the stops and the shock's
// midstroke band must be ordered, or the force elements describe no suspension.
void check_axle(const CeAxleForces<double>& a, const char* suffix) {
  const std::string s = suffix;
  if (!(a.bump_stop_length < a.rebound_stop_length)) {
    fail("bump_stop_length" + s + " (" + num(a.bump_stop_length) + " m) must be below rebound_stop_length" + s + " (" +
         num(a.rebound_stop_length) + " m)");
  }
  if (!(a.bump_stop_length < a.spring_free_length)) {
    fail("bump_stop_length" + s + " (" + num(a.bump_stop_length) + " m) must be below spring_free_length" + s + " (" +
         num(a.spring_free_length) + " m): the spring would carry no load before the bump stop");
  }
  if (!(a.shock_midstroke_min < a.shock_midstroke_max)) {
    fail("the shock midstroke band" + s + " [" + num(a.shock_midstroke_min) + ", " + num(a.shock_midstroke_max) +
         "] m is empty");
  }
}

// A rigid body's principal moments are positive and each is at most the sum of the other two
// (I_x + I_y - I_z = 2 sum m z^2 >= 0). The off-diagonal terms (the steering's offset) are not
// overridable but count: the check is on the eigenvalues of the full tensor.
void check_chassis_inertia(const Sym3<double>& s) {
  Eigen::Matrix3d m;
  m << s.xx, s.xy, s.xz, s.xy, s.yy, s.yz, s.xz, s.yz, s.zz;
  const Eigen::Vector3d e = Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(m, Eigen::EigenvaluesOnly).eigenvalues();
  const double slack = 1e-9 * e.sum();  // round-off of the eigenvalues; a thin rod is exactly on the edge
  if (!(e[0] > 0.0 && e[2] <= e[0] + e[1] + slack)) {
    fail("chassis_inertia_xx/yy/zz (" + num(s.xx) + ", " + num(s.yy) + ", " + num(s.zz) +
         " kg m^2) give principal moments " + num(e[0]) + ", " + num(e[1]) + ", " + num(e[2]) +
         " kg m^2: each must be positive and at most the sum of the other two");
  }
}

// The wheel is axisymmetric: its principal moments are (transverse, spin, transverse).
void check_wheel_inertia(const CeParams<double>& p) {
  if (!(p.wheel_spin_inertia <= 2.0 * p.wheel_transverse_inertia * (1.0 + 1e-12))) {
    fail("wheel_spin_inertia (" + num(p.wheel_spin_inertia) + " kg m^2) must be at most twice " +
         "wheel_transverse_inertia (" + num(p.wheel_transverse_inertia) + " kg m^2)");
  }
}

// Full steering input either way must leave the Pitman four-bar and the steered corners
// assembled, or the model would run through clamped (meaningless) kinematics.
void check_steering(const CeParams<double>& p) {
  const SteeringLinkage<double>& s = p.steering;
  for (double angle : {s.max_angle, -s.max_angle}) {
    const double theta = s.theta_design + s.input_sign * angle;
    bool ok = solve_four_bar(s.a, s.b, s.c, s.d, theta, s.branch, 0.0).assembled;
    const SteeringLinkState<double> link = steering_link_state(s, angle, 0.0);
    for (int i = 0; i < kCorners && ok; ++i) {
      const CornerGeometry<double>& g = p.corner[i];
      if (g.steered != 0.0) ok = corner_pose(g, 0.0, tierod_inner_point(g, s, link)).assembled;
    }
    if (!ok) fail("max_steer = " + num(s.max_angle) + " rad: the steering does not assemble at full input");
  }
}

}  // namespace

const std::vector<VehicleParamField>& ce_param_fields() { return kFields; }

double* ce_param_ptr(CeParams<double>& p, const std::string& name) {
#define FLEETDYN_FIELD_PTR(field_name, member, unit, lo, hi, doc) \
  if (name == field_name) return &p.member;
  FLEETDYN_CE_PARAM_FIELDS(FLEETDYN_FIELD_PTR)
#undef FLEETDYN_FIELD_PTR
  return nullptr;
}

double ce_param(const CeParams<double>& p, const std::string& name) {
  double* ptr = ce_param_ptr(const_cast<CeParams<double>&>(p), name);
  if (!ptr) throw Error("unknown ce parameter '" + name + "'");
  return *ptr;
}

void finalize_ce_params(CeParams<double>& p) {
  check_ranges(p);
  check_axle(p.axle[0], "_front");
  check_axle(p.axle[1], "_rear");
  check_chassis_inertia(p.chassis_inertia);
  check_wheel_inertia(p);
  check_steering(p);
  derive_vehicle_common(p);  // drive_share, brake_torque, wheel_lock_rate: what the ce model reads
  derive_ce_body_corners(p);
}

}  // namespace fleetdyn
