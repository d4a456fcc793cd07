// Tilt table: the strut HMMWV parked with its brakes on across a plane whose bank is raised until
// its upper (left) wheels carry no load, against a quasi-static estimate derived here from the
// vehicle's parameters:
//   - rigid vehicle: the COM over the lower contact line, tan(phi) = (t/2) / H;
//   - with suspension and tire compliance: before the upper wheels unload, the COM has moved
//     toward the low side by delta and risen by dH, tan(phi) = (t/2 - delta) / (H + dH). Once
//     both upper wheels are unloaded, each axle's upper wheel load W_a cos(phi) / 2 has moved to
//     the lower wheel: the body rolls relative to the plane by theta = max_a W_a cos(phi)
//     (1/k_w,a + 1/k_t) / t_a (springs and tires in series; the axle that needs the most roll
//     sets it, the other's upper wheel hangs), and a roll axis at ground level moves every mass by
//     its height times theta. The weight's normal part is m g cos(phi): the vehicle rises on its
//     springs and tires by (1 - cos(phi)) times its static deflection.
//   The tires' lateral compliance is a force state in strut and ce (TMeasy's deflection): their
//   contact patch stays under the wheel centre, so the estimate leaves out the shift a real
//   carcass gives, m g sin(phi) / (2 c_y), about 5 cm at the HMMWV's lift (c_y = 2e5 N/m), which
//   would lower the real vehicle's lift by about 1.4 deg (docs/models/strut.md, Limits).
// That estimate is exact for a suspension whose wheels travel straight along body z (the roll
// axis at the ground) with linear springs and no stop in the way: the strut model with
// linkage_geometry and progressive_spring off and the rebound stops moved out of reach. The full
// HMMWV linkage (its roll centre above the ground, progressive coils, rebound stops) must lift
// below the rigid bound, and in both the statics at the lift hold: the simulated COM lies over
// the lower contact patches along gravity (moment balance about the lower contact line).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "tests/strut_test_util.h"

namespace fleetdyn {
namespace {

using test::cpu_options;

constexpr double kG = 9.81;

struct TiltResult {
  bool running;
  double upper_load;  // [N] sum of the upper (left) tires' normal forces
  double total_load;  // [N] sum of all four
  double com_offset;  // [m] COM from the lower (right) contact line, across the plane, uphill +
  double com_height;  // [m] COM above the plane
};

// The vehicle parked (brakes on) on a plane banked by `bank` [rad], rising to the left (+y), with
// a high-friction surface (a tilt table's lip holds the tires; here friction does), after 6 s.
// The dampers are made four times stiffer: the statics do not depend on them, and the vehicle,
// placed at its flat-ground ride on the bank, would otherwise overshoot its static roll as it
// settles and tip over below its quasi-static lift.
TiltResult park_on_bank(StrutParams<double> p, double bank) {
  p.damping_bump_front *= 4.0;
  p.damping_rebound_front *= 4.0;
  p.damping_bump_rear *= 4.0;
  p.damping_rebound_rear *= 4.0;
  finalize_vehicle_params(p);
  TerrainSpec t = test::terrain_of(TerrainKind::Plane);
  t.desc.bank = bank;
  t.desc.mu_scale = 2.5;
  BatchOptions o = cpu_options();
  o.capsize_roll = 0.0;
  Batch batch({p}, 1, t, o);
  batch.set_initial_conditions({InitialCondition{}});
  batch.set_inputs({{0.0, 0.0, 1.0}});
  batch.step(6000);
  TiltResult r{};
  r.running = batch.status()[0] == kStatusRunning;
  const StrutDiagnostics<double> d = batch.diagnostics(0);
  r.upper_load = d.tire_normal_force[0] + d.tire_normal_force[2];
  r.total_load = r.upper_load + d.tire_normal_force[1] + d.tire_normal_force[3];
  // Positions in the plane's frame: across (uphill, +y tilted) and normal.
  const std::vector<double> s = test::vehicle_state(batch, 0);
  const Vec3<double> across{0.0, std::cos(bank), std::sin(bank)}, normal{0.0, -std::sin(bank), std::cos(bank)};
  Vec3<double> com{0.0, 0.0, 0.0};
  const Vec3<double> body{s[strut::kPos], s[strut::kPos + 1], s[strut::kPos + 2]};
  com = com + p.body_mass * body;
  Vec3<double> lower_contact{0.0, 0.0, 0.0};
  for (int i = 0; i < kCorners; ++i) {
    const Vec3<double> wheel = body + Vec3<double>{s[strut::kUnsprungPos + 3 * i], s[strut::kUnsprungPos + 3 * i + 1],
                                                   s[strut::kUnsprungPos + 3 * i + 2]};
    com = com + p.unsprung_mass[i] * wheel;
    if (i == 1 || i == 3) lower_contact = lower_contact + 0.5 * (wheel - p.tire.unloaded_radius * normal);
  }
  com = (1.0 / p.total_mass) * com;
  r.com_offset = dot(com - lower_contact, across);
  r.com_height = dot(com, normal);  // the plane passes through the origin
  return r;
}

// Unloaded: less than 0.5 % of the weight on the upper tires, or tipped over (past its lift a
// vehicle rolls down the plane, and may land on any side: its COM is then no longer between the
// contact lines, 0 < offset < track, nor at its ride height).
bool upper_wheels_unloaded(const TiltResult& r, double weight) {
  const bool in_place = r.running && r.com_offset > 0.0 && r.com_offset < 2.5 && r.com_height < 1.0;
  return !in_place || r.upper_load < 0.005 * weight;
}

// The bank [rad] at which the upper wheels unload, to 0.1 deg, by bisection in [lo, hi].
struct Lift {
  double bank;       // [rad]
  TiltResult below;  // the settled state just below it
};
Lift lift_bank(const StrutParams<double>& p, double lo, double hi) {
  const double weight = p.total_mass * kG;
  TiltResult below = park_on_bank(p, lo);
  EXPECT_FALSE(upper_wheels_unloaded(below, weight)) << "the bracket's lower end";
  EXPECT_TRUE(upper_wheels_unloaded(park_on_bank(p, hi), weight)) << "the bracket's upper end";
  while (hi - lo > 0.002) {
    const double mid = 0.5 * (lo + hi);
    const TiltResult r = park_on_bank(p, mid);
    if (upper_wheels_unloaded(r, weight)) {
      hi = mid;
    } else {
      lo = mid;
      below = r;
    }
  }
  return {0.5 * (lo + hi), below};
}

// Whole-vehicle COM height at rest on flat ground [m], and the half track at the COM's axle share.
struct Layout {
  double height, half_track, front_share;
};
Layout layout(const StrutParams<double>& p) {
  const double m = p.total_mass;
  const double wheel_height = p.tire.unloaded_radius - (m * kG / 4.0) / p.tire.vertical_stiffness;
  double unsprung = 0.0;
  for (int i = 0; i < kCorners; ++i) unsprung += p.unsprung_mass[i];
  const double front = p.cg_to_rear_axle / (p.cg_to_front_axle + p.cg_to_rear_axle);
  return {(p.body_mass * p.cg_height + unsprung * wheel_height) / m,
          0.5 * (front * p.track_front + (1.0 - front) * p.track_rear), front};
}

// The compliant estimate of the header, solved by fixed-point iteration from the rigid bank.
double compliant_lift_bank(const StrutParams<double>& p) {
  const Layout l = layout(p);
  const double m = p.total_mass, k_t = p.tire.vertical_stiffness;
  const double axle_load[2] = {m * kG * l.front_share, m * kG * (1.0 - l.front_share)};
  const double wheel_rate[2] = {p.wheel_rate_front, p.wheel_rate_rear};
  const double track[2] = {p.track_front, p.track_rear};
  double phi = std::atan(l.half_track / l.height);
  for (int k = 0; k < 100; ++k) {
    double theta = 0.0, rise = 0.0;
    for (int a = 0; a < 2; ++a) {
      const double deflection = 0.5 * axle_load[a] * (1.0 / wheel_rate[a] + 1.0 / k_t);  // static, per wheel
      theta = std::max(theta, 2.0 * deflection * std::cos(phi) / track[a]);
      rise += (a == 0 ? l.front_share : 1.0 - l.front_share) * (1.0 - std::cos(phi)) * deflection;
    }
    const double height = l.height + rise;
    const double delta = height * theta;
    phi = std::atan((l.half_track - delta) / height);
  }
  return phi;
}

// Statics just below the lift: the upper tires' remaining load L moves the moment balance about
// the lower contact line by L t / (m g cos(phi) H), so offset / height = tan(bank) within that.
void expect_moment_balance(const Lift& lift, double half_track, double weight, double bank) {
  const TiltResult& r = lift.below;
  ASSERT_TRUE(r.running);
  const double upper_share = r.upper_load / (weight * std::cos(bank));
  std::printf("  just below: upper tires %.2f %% of the load, COM %.4f m across over %.4f m, tan(bank) %.4f\n",
              100.0 * upper_share, r.com_offset, r.com_height, std::tan(bank));
  EXPECT_NEAR(r.com_offset / r.com_height, std::tan(bank), 2.0 * upper_share * half_track / r.com_height + 0.01);
}

constexpr double kDeg = kPi / 180.0;

TEST(TiltTable, StraightStrutLiftsAtTheQuasiStaticEstimate) {
  StrutParams<double> p = hmmwv_params();
  p.linkage_geometry = 0.0;
  p.progressive_spring = 0.0;
  p.rebound_travel_front = p.rebound_travel_rear = 0.5;  // the upper wheels hang free
  finalize_vehicle_params(p);
  const Layout l = layout(p);
  const double phi_rigid = std::atan(l.half_track / l.height), phi_estimate = compliant_lift_bank(p);
  const Lift lift = lift_bank(p, phi_estimate - 5.0 * kDeg, phi_rigid);
  std::printf("straight strut: rigid %.2f deg, estimate %.2f deg, lifts at %.2f deg\n", phi_rigid / kDeg,
              phi_estimate / kDeg, lift.bank / kDeg);
  // The bisection's 0.06 deg, small-angle roll and the 0.5 % load threshold are the margin.
  EXPECT_NEAR(lift.bank, phi_estimate, 0.5 * kDeg);
  expect_moment_balance(lift, l.half_track, p.total_mass * kG, lift.bank - 0.001);
}

TEST(TiltTable, HmmwvLiftsBelowTheRigidBound) {
  const StrutParams<double> p = hmmwv_params();
  const Layout l = layout(p);
  const double phi_rigid = std::atan(l.half_track / l.height);
  const Lift lift = lift_bank(p, phi_rigid - 15.0 * kDeg, phi_rigid);
  std::printf("hmmwv: rigid %.2f deg, straight-strut estimate %.2f deg, lifts at %.2f deg\n", phi_rigid / kDeg,
              compliant_lift_bank(p) / kDeg, lift.bank / kDeg);
  EXPECT_LT(lift.bank, phi_rigid - 1.0 * kDeg);
  expect_moment_balance(lift, l.half_track, p.total_mass * kG, lift.bank - 0.001);
}

}  // namespace
}  // namespace fleetdyn
