// The per-vehicle metrics written to results.csv (batch_view.h update_metrics), against runs
// whose answers are known.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "fleetdyn/physics/core/math.h"
#include "tests/strut_test_util.h"

namespace fleetdyn {
namespace {

using test::cpu_options;

double metric_of(Batch& b, int m, int v = 0) { return b.metrics()[static_cast<size_t>(m) * b.vehicle_count() + v]; }

// Each metric against its definition, evaluated independently from what the vehicle does step
// by step (metrics use the state at the start of each step, so observe before stepping).
struct Observed {
  double any_off = 0.0, side_off = 0.0, first_off = -1.0;  // [s]
  double max_lat = 0.0, max_roll = 0.0, max_roll_rate = 0.0, max_speed_yaw = 0.0;
};

Observed observe(Batch& batch, int steps) {
  Observed o;
  const double dt = batch.options().step;
  for (int k = 0; k < steps; ++k) {
    const StrutDiagnostics<double> d = batch.diagnostics(0);
    const VehicleSnapshot s = batch.snapshots()[0];
    bool off[kCorners];
    for (int i = 0; i < kCorners; ++i) off[i] = d.tire_normal_force[i] <= 0.0;
    if (off[0] || off[1] || off[2] || off[3]) {
      o.any_off += dt;
      if (o.first_off < 0.0) o.first_off = k * dt;
    }
    if ((off[0] && off[2]) || (off[1] && off[3])) o.side_off += dt;
    const Quat<double> q = quat_from_euler_zyx(s.euler[0], s.euler[1], s.euler[2]);
    const Mat3<double> rot = rotation_matrix(q);
    o.max_lat = std::max(o.max_lat, std::fabs(mul_transpose(rot, d.chassis_accel).y));
    // Roll relative to the ground: flat here, so the tilt of body y above the horizontal.
    o.max_roll = std::max(o.max_roll, std::fabs(std::asin(rot.m[2][1])));
    o.max_roll_rate = std::max(o.max_roll_rate, std::fabs(s.omega_body[0]));
    o.max_speed_yaw = std::max(o.max_speed_yaw, std::hypot(s.velocity[0], s.velocity[1]) * std::fabs(s.omega_body[2]));
    batch.step(1);
  }
  return o;
}

// Launched upward: wheels unload, the vehicle flies and lands (bouncing wheels unload singly).
// Lift-off times, both-wheels-of-a-side time and the first lift-off equal their definitions.
TEST(StrutMetrics, LiftoffTimesInBallisticFlight) {
  Batch batch({hmmwv_params()}, 1, TerrainSpec{}, cpu_options());
  EXPECT_EQ(metric_of(batch, metric::first_liftoff_time), -1.0);
  EXPECT_EQ(metric_of(batch, metric::diverged_time), -1.0);
  std::vector<double> s = batch.state();
  s[strut::kVel + 2] = 3.0;
  batch.set_vehicle_state(0, s);
  const Observed o = observe(batch, 1500);
  ASSERT_GT(o.side_off, 0.3);  // really flew
  EXPECT_NEAR(metric_of(batch, metric::wheel_liftoff_time), o.any_off, 1e-9);
  EXPECT_NEAR(metric_of(batch, metric::two_wheel_liftoff_time), o.side_off, 1e-9);
  EXPECT_NEAR(metric_of(batch, metric::first_liftoff_time), o.first_off, 1e-9);
  EXPECT_LT(o.first_off, 0.05);  // it left the ground right after the launch
}

// Cornering: the peaks equal the largest values seen, and the largest lateral acceleration is
// the kinematic v r of near-steady cornering within 3 %. Straight ahead nothing lifts.
TEST(StrutMetrics, PeaksInCornering) {
  Batch batch({hmmwv_params()}, 1, TerrainSpec{}, cpu_options());
  InitialCondition ic;
  ic.speed = 12.0;
  batch.set_initial_conditions({ic});
  batch.set_maneuvers({{{0.0, 0.0, 0.12, 0.0}, {1.0, 0.0, 0.12, 0.0}, {3.0, 0.2, 0.12, 0.0}}});
  const Observed o = observe(batch, 8000);
  EXPECT_GT(o.max_lat, 3.0);
  EXPECT_NEAR(metric_of(batch, metric::max_abs_lat_accel), o.max_lat, 1e-9 * o.max_lat);
  EXPECT_NEAR(metric_of(batch, metric::max_abs_roll), o.max_roll, 1e-12);
  EXPECT_NEAR(metric_of(batch, metric::max_abs_roll_rate), o.max_roll_rate, 1e-12);
  EXPECT_NEAR(o.max_lat, o.max_speed_yaw, 0.03 * o.max_speed_yaw);
  EXPECT_EQ(metric_of(batch, metric::wheel_liftoff_time), 0.0);
  EXPECT_EQ(metric_of(batch, metric::first_liftoff_time), -1.0);
}

// Roll and pitch are measured against the ground under the vehicle: around the loop (upside
// down at the top, where Euler roll flips to 180 deg) they stay small, and parked on a 15 deg
// bank the roll is the suspension's, not the bank's.
TEST(StrutMetrics, RollAndPitchAreRelativeToTheGround) {
  TerrainSpec loop = test::terrain_of(TerrainKind::Loop);
  loop.desc.loop_x = 30.0;
  const double yaw = std::atan2(loop.desc.loop_lateral_shift, 2.0 * kPi * loop.desc.loop_radius);
  Batch around({hmmwv_params()}, 1, loop, cpu_options());
  around.set_initial_conditions({{0.0, -loop.desc.loop_x * std::tan(yaw), yaw, 25.0}});
  double max_world_roll = 0.0;
  for (int k = 0; k < 30; ++k) {
    around.step(100);
    max_world_roll = std::max(max_world_roll, std::fabs(around.snapshots()[0].euler[0]));
  }
  EXPECT_GT(max_world_roll, 2.0);  // Euler roll flipped while the vehicle went over the top
  EXPECT_LT(metric_of(around, metric::max_abs_roll), 0.1);
  EXPECT_LT(metric_of(around, metric::max_abs_pitch), 0.2);

  TerrainSpec bank = test::terrain_of(TerrainKind::Plane);
  bank.desc.bank = 15.0 * kPi / 180.0;
  Batch parked({hmmwv_params()}, 1, bank, cpu_options());
  parked.set_inputs({{0.0, 0.0, 1.0}});
  parked.step(2000);
  EXPECT_NEAR(std::fabs(parked.snapshots()[0].euler[0]), bank.desc.bank, 0.02);  // world roll: the bank
  EXPECT_LT(metric_of(parked, metric::max_abs_roll), 0.02);                      // against the ground: small
}

// Static wheel loads per axle from the moment balance: front tires carry the body weight share
// b/(a+b) plus their own unsprung weight, rear a/(a+b).
TEST(StrutMetrics, StaticAxleLoadsFromMomentBalance) {
  const StrutParams<double> p = hmmwv_params();
  Batch batch({p}, 1, TerrainSpec{}, cpu_options());
  batch.step(2000);
  const StrutDiagnostics<double> d = batch.diagnostics(0);
  const double a = p.cg_to_front_axle, b = p.cg_to_rear_axle, g = p.gravity;
  const double front = p.body_mass * g * b / (a + b) + 2.0 * p.unsprung_mass_front * g;
  const double rear = p.body_mass * g * a / (a + b) + 2.0 * p.unsprung_mass_rear * g;
  EXPECT_NEAR(d.tire_normal_force[0] + d.tire_normal_force[1], front, 1e-3 * front);
  EXPECT_NEAR(d.tire_normal_force[2] + d.tire_normal_force[3], rear, 1e-3 * rear);
  EXPECT_NEAR(d.tire_normal_force[0], d.tire_normal_force[1], 1e-6 * front);  // left/right symmetric
}

}  // namespace
}  // namespace fleetdyn
