// The ce model's HMMWV preset, parameter construction and precision conversion.
#include <cmath>
#include <string>
#include <vector>

#include "fleetdyn/ce.h"
#include "fleetdyn/error.h"
#include "fleetdyn/physics/ce/ce_rest.h"
#include "fleetdyn/vehicle.h"
#include "host/batch/convert_scalars.h"

namespace fleetdyn {
namespace {

// shared/reference/hmmwv.md, one corner (front and rear alike).
constexpr double kSpindleMass = 14.705, kUprightMass = 19.450, kUcaMass = 5.813, kLcaMass = 23.965;
constexpr double kTierodMass = 6.0, kRimMass = 18.8, kTireMass = 37.6;
constexpr double kChassisMass = 2086.52;
constexpr double kSteeringMass = 3.681 + 1.605;  // steering link + Pitman arm, kinematic: on the chassis

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

CeAxleForces<double> hmmwv_axle(bool front) {
  CeAxleForces<double> a{};
  a.spring_free_length = front ? 0.339 : 0.382;
  a.spring_rate = front ? 167062.0 : 369149.0;  // linear (Chrono before Oct 2023)
  a.spring_cubic = 0.0;
  a.bump_stop_length = 0.15;
  a.rebound_stop_length = front ? 0.30 : 0.35;
  a.shock_midstroke_min = 0.324104;
  a.shock_midstroke_max = 0.418592;
  a.shock_mid_compression = front ? 12521.56 : 14535.52;
  a.shock_mid_rebound = front ? 22460.01 : 35025.35;
  a.shock_out_compression = front ? 5896.52 : 8537.43;
  a.shock_out_rebound = front ? 60068.48 : 63921.27;
  return a;
}

}  // namespace

CeParams<double> make_ce_params(const SuspensionDesign& design, const StrutParams<double>& vehicle) {
  CeParams<double> p{};
  static_cast<VehicleCommon<double>&>(p) = vehicle;  // tire, driveline, brakes, gravity
  const CeSuspension<double> s = make_ce_suspension(design);
  for (int i = 0; i < kCorners; ++i) p.corner[i] = s.corner[i];
  p.steering = s.steering;
  // Chassis with the steering mechanism as a point mass at the mechanism origin.
  const Vec3<double> chassis_com{0.056, 0.0, 0.213};
  const Vec3<double> steering_pos = design.steering.origin;
  p.chassis_mass = kChassisMass + kSteeringMass;
  p.chassis_com = (kChassisMass * chassis_com + kSteeringMass * steering_pos) * (1.0 / p.chassis_mass);
  Sym3<double> inertia = diagonal({1078.52, 2955.66, 3570.20});
  const Vec3<double> parts[2] = {chassis_com - p.chassis_com, steering_pos - p.chassis_com};
  const double masses[2] = {kChassisMass, kSteeringMass};
  for (int k = 0; k < 2; ++k) inertia = parallel_axis(inertia, masses[k], parts[k]);
  p.chassis_inertia = inertia;
  for (int i = 0; i < kCorners; ++i) {
    const DoubleWishboneHardpoints<double>& d = p.corner[i].design;
    p.body_mass[i][kCeLca] = kLcaMass;
    p.body_mass[i][kCeUca] = kUcaMass;
    p.body_mass[i][kCeUpright] = kUprightMass;
    p.body_mass[i][kCeTierod] = kTierodMass;
    p.body_inertia[i][kCeLca] = arm_inertia(d.lca_front, d.lca_back, d.lca_ball, {0.4, 0.4, 0.8938});
    p.body_inertia[i][kCeUca] = arm_inertia(d.uca_front, d.uca_back, d.uca_ball, {0.03, 0.03, 0.06276});
    p.body_inertia[i][kCeUpright] = diagonal({0.1656, 0.1934, 0.04367});  // chassis-aligned
    const Vec3<double> rod = normalized_or(d.tierod_outer - d.tierod_inner, Vec3<double>{0, 1, 0});
    const Vec3<double> a = normalized_or(cross(rod, Vec3<double>{1, 0, 0}), Vec3<double>{0, 0, 1});
    const Vec3<double> e[3] = {a, cross(rod, a), rod};  // z along the rod
    p.body_inertia[i][kCeTierod] = principal_inertia(e, {0.05, 0.05, 0.5});
  }
  // Wheel: spindle + rim + tire turning together (spin axis = local y in Chrono's data).
  p.wheel_mass = kSpindleMass + kRimMass + kTireMass;
  p.wheel_spin_inertia = 0.07352 + 0.6243 + 6.69;
  p.wheel_transverse_inertia = 0.04117 + 0.4634 + 3.84;
  p.axle[0] = hmmwv_axle(true);
  p.axle[1] = hmmwv_axle(false);
  p.steer_time_constant = 0.01;
  for (int k = 0; k < kStopTablePoints; ++k) {
    p.stop_table_pen[k] = vehicle.stop_table_pen[k];
    p.stop_table_force[k] = vehicle.stop_table_force[k];
  }
  for (int axle = 0; axle < 2; ++axle) {
    const CornerGeometry<double>& g = p.corner[2 * axle];
    CeAxleForces<double>& a = p.axle[axle];
    a.droop_limit_lca = kDroopLimitFraction * droop_toggle_angle(g);
    a.bump_limit_lca = bump_limit_angle(g, a.bump_stop_length - p.stop_table_pen[kStopTablePoints - 1]);
    a.travel_limit_stiffness = kTravelLimitStiffness;
  }
  return p;
}

// Derived once (closed-form kinematics, static balance: milliseconds), copied out.
CeParams<double> hmmwv_ce_params() {
  static const CeParams<double> preset = [] {
    CeParams<double> p = make_ce_params(hmmwv_suspension_design(), hmmwv_params());
    ce_balance_springs_at_design(p);
    return p;
  }();
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
