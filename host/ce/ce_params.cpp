// The ce model's HMMWV preset, parameter construction and precision conversion.
#include <cmath>
#include <string>
#include <vector>

#include "fleetdyn/ce.h"
#include "fleetdyn/error.h"
#include "fleetdyn/physics/ce/ce_rest.h"
#include "fleetdyn/vehicle.h"
#include "fleetdyn/vehicle_definition.h"
#include "host/batch/convert_scalars.h"

namespace fleetdyn {
namespace {

Sym3<double> diagonal(Vec3<double> d) { return {d.x, d.y, d.z, 0.0, 0.0, 0.0}; }

// Inertia sum_k d_k e_k e_k^T of principal moments d along orthonormal axes e.
Sym3<double> principal_inertia(const Vec3<double> e[3], Vec3<double> d) {
  const double dk[3] = {d.x, d.y, d.z};
  Sym3<double> s{0, 0, 0, 0, 0, 0};
  for (int k = 0; k < 3; ++k) {
    s.xx += dk[k] * e[k].x * e[k].x;
    s.yy += dk[k] * e[k].y * e[k].y;
    s.zz += dk[k] * e[k].z * e[k].z;
    s.xy += dk[k] * e[k].x * e[k].y;
    s.xz += dk[k] * e[k].x * e[k].z;
    s.yz += dk[k] * e[k].y * e[k].z;
  }
  return s;
}

// Chrono's arm frame: u along front-back, w normal to the plane (back, ball joint, front).
Sym3<double> arm_inertia(Vec3<double> front, Vec3<double> back, Vec3<double> ball, Vec3<double> moments) {
  const Vec3<double> u = normalized_or(front - back, Vec3<double>{1, 0, 0});
  const Vec3<double> w = normalized_or(cross(front - back, ball - back), Vec3<double>{0, 0, 1});
  const Vec3<double> e[3] = {u, cross(w, u), w};
  return principal_inertia(e, moments);
}

// The travel limits (docs/models/ce.md section 3, "Added: travel limits"). Droop: 80 % of the
// way from design to the droop toggle keeps the velocity-product terms moderate (the HMMWV
// front's grow from 1.15 at design to 7.3 at -0.35 rad and 300 at -0.45). Bump: where the stop
// table ends (the bumper is solid), before the spring mount goes over centre (spring length
// minimal near 1.0-1.1 rad, after which a spring-length stop would let go). 1e6 N m/rad holds the ~20 kN m of a corner
// at 8 g to ~0.02 rad; with the aggregate's inertia about its axis (10-25 kg m^2) the mode
// (200-320 rad/s) stays well inside RK4's stability at the 2 ms default step.
constexpr double kDroopLimitFraction = 0.8;
constexpr double kTravelLimitStiffness = 1.0e6;

// The LCA angle [rad] in bump where the spring is `length` long, searched from design up to where
// the spring stops shortening (over centre); if it never gets that short, 90 % of that angle.
double bump_limit_angle(const CornerGeometry<double>& g, double length) {
  const TierodInner<double> fixed{g.design.tierod_inner, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}};
  const auto spring = [&](double angle) { return corner_pose(g, angle, fixed).spring_length; };
  const double step = 0.005;
  double angle = 0.0;
  while (angle < 1.5 && spring(angle + step) < spring(angle) && spring(angle + step) > length) angle += step;
  if (!(spring(angle + step) <= length)) return 0.9 * angle;  // over centre first
  double inside = angle, outside = angle + step;
  for (int it = 0; it < 60; ++it) {
    const double mid = 0.5 * (inside + outside);
    (spring(mid) > length ? inside : outside) = mid;
  }
  return inside;
}

// The LCA angle [rad] at which the linkage reaches its droop toggle (the closures stop existing),
// by bisection on corner_pose's `assembled`, steering at its design position.
double droop_toggle_angle(const CornerGeometry<double>& g) {
  const TierodInner<double> fixed{g.design.tierod_inner, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}};
  double inside = 0.0, outside = -1.5;
  if (corner_pose(g, outside, fixed).assembled) return outside;
  for (int it = 0; it < 60; ++it) {
    const double mid = 0.5 * (inside + outside);
    (corner_pose(g, mid, fixed).assembled ? inside : outside) = mid;
  }
  return inside;
}

CeAxleForces<double> axle_forces(const AxleDefinition& a) {
  CeAxleForces<double> f{};
  f.spring_free_length = a.spring.free_length;
  f.spring_rate = a.spring.rate;
  f.spring_cubic = a.spring.cubic;
  f.bump_stop_length = a.bump_stop_length;
  f.rebound_stop_length = a.rebound_stop_length;
  f.shock_midstroke_min = a.shock.midstroke_min;
  f.shock_midstroke_max = a.shock.midstroke_max;
  f.shock_mid_compression = a.shock.mid_compression;
  f.shock_mid_rebound = a.shock.mid_rebound;
  f.shock_out_compression = a.shock.out_compression;
  f.shock_out_rebound = a.shock.out_rebound;
  return f;
}

}  // namespace

CeParams<double> make_ce_params(const VehicleDefinition& v) {
  CeParams<double> p{};
  static_cast<VehicleCommon<double>&>(p) = v.common;  // tire, driveline, brakes, gravity
  derive_vehicle_common(p);
  const SuspensionDesign design = suspension_design(v);
  const CeSuspension<double> s = make_ce_suspension(design);
  for (int i = 0; i < kCorners; ++i) p.corner[i] = s.corner[i];
  p.steering = s.steering;
  // Chassis with the steering mechanism as a point mass at the mechanism origin.
  const double steering_mass = v.steering_link_mass + v.pitman_arm_mass;
  const Vec3<double> steering_pos = design.steering.origin;
  p.chassis_mass = v.chassis_mass + steering_mass;
  p.chassis_com = (v.chassis_mass * v.chassis_com + steering_mass * steering_pos) * (1.0 / p.chassis_mass);
  Sym3<double> inertia = v.chassis_inertia;
  const Vec3<double> parts[2] = {v.chassis_com - p.chassis_com, steering_pos - p.chassis_com};
  const double masses[2] = {v.chassis_mass, steering_mass};
  for (int k = 0; k < 2; ++k) inertia = parallel_axis(inertia, masses[k], parts[k]);
  p.chassis_inertia = inertia;
  for (int i = 0; i < kCorners; ++i) {
    const AxleDefinition& axle = i < 2 ? v.front : v.rear;
    const DoubleWishboneHardpoints<double>& d = p.corner[i].design;
    p.body_mass[i][kCeLca] = axle.lca.mass;
    p.body_mass[i][kCeUca] = axle.uca.mass;
    p.body_mass[i][kCeUpright] = axle.upright.mass;
    p.body_mass[i][kCeTierod] = axle.tierod.mass;
    p.body_inertia[i][kCeLca] = arm_inertia(d.lca_front, d.lca_back, d.lca_ball, axle.lca.inertia);
    p.body_inertia[i][kCeUca] = arm_inertia(d.uca_front, d.uca_back, d.uca_ball, axle.uca.inertia);
    p.body_inertia[i][kCeUpright] = diagonal(axle.upright.inertia);  // chassis-aligned
    const Vec3<double> rod = normalized_or(d.tierod_outer - d.tierod_inner, Vec3<double>{0, 1, 0});
    const Vec3<double> a = normalized_or(cross(rod, Vec3<double>{1, 0, 0}), Vec3<double>{0, 0, 1});
    const Vec3<double> e[3] = {a, cross(rod, a), rod};  // z along the rod
    p.body_inertia[i][kCeTierod] = principal_inertia(e, axle.tierod.inertia);
  }
  // Wheel: spindle + rim + tire turning together (spin axis = local y in Chrono's data).
  p.wheel_mass = v.spindle.mass + v.rim.mass + v.tire_body.mass;
  p.wheel_spin_inertia = v.spindle.spin_inertia + v.rim.spin_inertia + v.tire_body.spin_inertia;
  p.wheel_transverse_inertia = v.spindle.transverse_inertia + v.rim.transverse_inertia + v.tire_body.transverse_inertia;
  p.axle[0] = axle_forces(v.front);
  p.axle[1] = axle_forces(v.rear);
  p.steer_time_constant = v.steer_time_constant;
  for (int k = 0; k < kStopTablePoints; ++k) {
    p.stop_table_pen[k] = v.stop_table_pen[k];
    p.stop_table_force[k] = v.stop_table_force[k];
  }
  for (int axle = 0; axle < 2; ++axle) {
    const CornerGeometry<double>& g = p.corner[2 * axle];
    CeAxleForces<double>& a = p.axle[axle];
    a.droop_limit_lca = kDroopLimitFraction * droop_toggle_angle(g);
    a.bump_limit_lca = bump_limit_angle(g, a.bump_stop_length - p.stop_table_pen[kStopTablePoints - 1]);
    a.travel_limit_stiffness = kTravelLimitStiffness;
  }
  derive_ce_body_corners(p);
  if (v.balance_springs_at_design) ce_balance_springs_at_design(p);
  return p;
}

// Derived once (closed-form kinematics, static balance: milliseconds), copied out.
CeParams<double> hmmwv_ce_params() {
  static const CeParams<double> preset = make_ce_params(hmmwv_vehicle());
  return preset;
}

double ce_total_mass(const CeParams<double>& p) { return ce_vehicle_mass(p); }

template <class T>
CeParams<T> convert_ce_params(const CeParams<double>& p) {
  return convert_scalars<CeParams, T>(p);
}

template CeParams<float> convert_ce_params<float>(const CeParams<double>&);
template CeParams<double> convert_ce_params<double>(const CeParams<double>&);

}  // namespace fleetdyn
