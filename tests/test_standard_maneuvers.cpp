// The standard maneuver scenarios under scenarios/ run as written, through the
// scenario's driver, and do what their standard says: the programs end when their definitions say,
// the path drivers complete their paths close to them, the fishhook tips the high-CG vehicle over
// and not the preset, the braking run stops at a tire-limited deceleration.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "fleetdyn/batch.h"
#include "fleetdyn/physics/core/math.h"
#include "host/scenario/scenario.h"

namespace fleetdyn {
namespace {

struct Outcome {
  std::vector<double> metrics;  // [kMetricCount][N]
  std::vector<VehicleSnapshot> snapshots;
  std::vector<int> status;
  int n = 0;
  double at(int m, int v) const { return metrics[static_cast<size_t>(m) * n + v]; }
};

Outcome run(const std::string& file, int vehicles = 0) {
  Scenario s = load_scenario(file);
  if (vehicles > 0) s.vehicles = vehicles;
  s.backend = BackendKind::Cpu;
  Batch batch = scenario_batch(s);
  batch.step(static_cast<int>(scenario_step_count(s)));
  Outcome o;
  o.metrics = batch.metrics();
  o.snapshots = batch.snapshots();
  o.status = batch.status();
  o.n = batch.vehicle_count();
  // Running to the end, or frozen on its side once past the capsize angle; never diverged.
  for (int v = 0; v < o.n; ++v)
    EXPECT_NE(o.status[static_cast<size_t>(v)], kStatusDiverged) << file << " vehicle " << v;
  return o;
}

// Where a vehicle lies, from its snapshot alone: the angle about body x from the ground's normal n
// to body z (0 on the wheels below 45 deg, 1 on the side below 135 deg, 2 on the roof beyond), the
// rotation rebuilt from the ZYX Euler angles.
double attitude_of(const VehicleSnapshot& x, const Vec3<double>& n) {
  const double cr = std::cos(x.euler[0]), sr = std::sin(x.euler[0]), cp = std::cos(x.euler[1]), sp = std::sin(x.euler[1]);
  const double cy = std::cos(x.euler[2]), sy = std::sin(x.euler[2]);
  const Vec3<double> body_y{cy * sp * sr - sy * cr, sy * sp * sr + cy * cr, cp * sr};
  const Vec3<double> body_z{cy * sp * cr + sy * sr, sy * sp * cr - cy * sr, cp * cr};
  const double roll = std::fabs(std::atan2(dot(body_y, n), dot(body_z, n)));
  return roll < 0.25 * kPi ? 0.0 : roll < 0.75 * kPi ? 1.0 : 2.0;
}

// Every vehicle still running (not frozen: capsize_roll_deg 0), its final_attitude where its
// final snapshot lies on ground of normal n.
void expect_running_where_it_lies(const Outcome& o, const Vec3<double>& n) {
  for (int v = 0; v < o.n; ++v) {
    EXPECT_EQ(o.status[static_cast<size_t>(v)], kStatusRunning) << v;
    EXPECT_EQ(o.at(metric::final_attitude, v), attitude_of(o.snapshots[static_cast<size_t>(v)], n)) << v;
  }
}

TEST(StandardManeuvers, FishhookTipsTheHighCgVehicleOnly) {
  const Outcome o = run("scenarios/fishhook.yaml", 2);  // the sweep's ends: CG 0.687 m and 1.7 m
  // The preset: all wheels stay down, and the program runs to its end (countersteer at the
  // roll-rate threshold, 3 s hold, return).
  EXPECT_EQ(o.at(metric::two_wheel_liftoff_time, 0), 0.0);
  EXPECT_GT(o.at(metric::maneuver_end_time, 0), 0.5 + 2.0 * 0.27 / 1.41 + 3.0);
  EXPECT_GT(o.at(metric::max_abs_roll, 1), 45.0 * kPi / 180.0);
  // The CG-1.7 m vehicle rolls over: it ends frozen on its side (capsize_roll_deg, default 80),
  // not diverged, with finite metrics; the preset runs to the end.
  EXPECT_EQ(o.status[0], kStatusRunning);
  EXPECT_EQ(o.status[1], kStatusRolledOver);
  EXPECT_EQ(o.at(metric::capsize_time, 0), -1.0);
  EXPECT_GT(o.at(metric::capsize_time, 1), 0.5);
  EXPECT_EQ(o.at(metric::diverged_time, 1), -1.0);
  for (int m = 0; m < kMetricCount; ++m) EXPECT_TRUE(std::isfinite(o.at(m, 1))) << "metric " << m;
  // Frozen where it passed 80 deg: its reported roll is there, not upside down beyond it.
  EXPECT_GT(std::fabs(o.snapshots[1].euler[0]), 80.0 * kPi / 180.0);
  EXPECT_LT(std::fabs(o.snapshots[1].euler[0]), 85.0 * kPi / 180.0);
}

// J-turn uphill across a 15 deg slope with the CG swept 0.687 .. 1.4 m, vehicles not frozen when
// they capsize: the preset slides and stays on its wheels, the roof-loaded vehicle rolls over its
// body and comes to rest; every vehicle's final attitude is where its final snapshot lies, and none
// diverges.
TEST(StandardManeuvers, JTurnOnASlopeRollsTheRoofLoadedVehicleOverAndItComesToRest) {
  const Outcome o = run("scenarios/j_turn_slope.yaml", 2);
  EXPECT_EQ(o.at(metric::roll_quarter_turns, 0), 0.0);
  EXPECT_EQ(o.at(metric::final_attitude, 0), 0.0);
  EXPECT_EQ(o.at(metric::max_roof_contact_speed, 0), 0.0);
  EXPECT_GE(o.at(metric::roll_quarter_turns, 1), 1.0);
  EXPECT_GE(o.at(metric::final_attitude, 1), 1.0);
  EXPECT_GT(o.at(metric::max_roof_contact_speed, 1), 0.0);
  const double bank = 15.0 * kPi / 180.0;  // the plane rises to the left
  expect_running_where_it_lies(o, {0.0, -std::sin(bank), std::cos(bank)});
  const auto& w = o.snapshots[1].velocity;
  EXPECT_LT(std::hypot(w[0], w[1], w[2]), 0.1) << "at rest after rolling";
}

// Off-road recovery: before the driver steers (0.5 s), the right wheels rolling in the soft
// shoulder meet its compaction resistance and the left ones do not, so the vehicle slows more than
// on a firm shoulder and yaws toward the soil (right, negative yaw), where on firm ground it keeps
// straight. The whole run then completes without a divergence.
TEST(StandardManeuvers, SoftShoulderDragsTheVehicleTowardIt) {
  Scenario s = load_scenario("scenarios/soft_shoulder.yaml");
  s.vehicles = 1;
  s.backend = BackendKind::Cpu;
  VehicleSnapshot at[2];
  for (bool soil : {true, false}) {
    Scenario t = s;
    if (!soil) t.terrain.desc.soil_region = 0;
    Batch batch = scenario_batch(t);
    batch.step(static_cast<int>(std::lround(0.5 / scenario_batch_options(t).step)));
    at[soil] = batch.snapshots()[0];
  }
  const auto speed = [](const VehicleSnapshot& x) { return std::hypot(x.velocity[0], x.velocity[1]); };
  std::printf("after 0.5 s: soil %.3f m/s, yaw %.4f rad; firm %.3f m/s, yaw %.4f rad\n", speed(at[1]), at[1].euler[2],
              speed(at[0]), at[0].euler[2]);
  EXPECT_LT(speed(at[1]), speed(at[0]) - 0.05);
  EXPECT_LT(at[1].euler[2], -0.002);
  EXPECT_LT(std::fabs(at[0].euler[2]), 0.001);
  run("scenarios/soft_shoulder.yaml");
}

// Sliding sideways at 10 m/s into a 0.4 m curb: the preset tips and falls back onto its wheels,
// the roof-loaded vehicle (CG 1.2 m) is tripped over its roof (at least two quarter turns, the
// roof striking the ground) and does not come back onto its wheels; both end at rest, none
// diverges, and each final attitude is where its final snapshot lies.
TEST(StandardManeuvers, CurbTripRollsTheRoofLoadedVehicleOnly) {
  const Outcome o = run("scenarios/curb_trip.yaml", 2);
  EXPECT_EQ(o.at(metric::roll_quarter_turns, 0), 0.0);
  EXPECT_EQ(o.at(metric::final_attitude, 0), 0.0);
  EXPECT_GE(o.at(metric::roll_quarter_turns, 1), 2.0);
  EXPECT_NE(o.at(metric::final_attitude, 1), 0.0);
  EXPECT_GT(o.at(metric::max_roof_contact_speed, 1), 0.0);
  expect_running_where_it_lies(o, {0.0, 0.0, 1.0});
  for (int v = 0; v < o.n; ++v) {
    const auto& w = o.snapshots[static_cast<size_t>(v)].velocity;
    EXPECT_LT(std::hypot(w[0], w[1], w[2]), 0.1) << "vehicle " << v << " at rest";
  }
}

TEST(StandardManeuvers, ProgramsEndWhenTheirDefinitionsSay) {
  const double step = 1.0e-3;
  // Sine with dwell: start + 3/4 period + dwell + 1/4 period at 0.7 Hz.
  const Outcome sine = run("scenarios/sine_with_dwell.yaml");
  EXPECT_NEAR(sine.at(metric::maneuver_end_time, 0), 0.5 + 1.0 / 0.7 + 0.5, 2.0 * step);
  // J-turn: the ramp to 0.5 at 1.41 /s.
  const Outcome j = run("scenarios/j_turn.yaml");
  EXPECT_NEAR(j.at(metric::maneuver_end_time, 0), 0.5 + 0.5 / 1.41, 2.0 * step);
  // Step steer: to 0.15 at 5 /s, the speed held by the throttle within 2 m/s.
  const Outcome st = run("scenarios/step_steer.yaml");
  EXPECT_NEAR(st.at(metric::maneuver_end_time, 0), 0.5 + 0.15 / 5.0, 2.0 * step);
  const auto& v = st.snapshots[0].velocity;
  EXPECT_NEAR(std::hypot(v[0], v[1]), 22.2, 2.0);
}

TEST(StandardManeuvers, PathDriversCompleteCloseToTheirPaths) {
  const Outcome circle = run("scenarios/constant_radius.yaml");
  EXPECT_GE(circle.at(metric::maneuver_end_time, 0), 0.0);   // once around
  EXPECT_LT(circle.at(metric::max_path_deviation, 0), 0.3);  // [m]
  const auto& v = circle.snapshots[0].velocity;
  EXPECT_NEAR(std::hypot(v[0], v[1]), 8.0, 0.3);
  const Outcome dlc = run("scenarios/double_lane_change.yaml");
  EXPECT_GE(dlc.at(metric::maneuver_end_time, 0), 0.0);
  EXPECT_LT(dlc.at(metric::max_path_deviation, 0), 1.0);
}

TEST(StandardManeuvers, BrakingStopsAtATireLimitedDeceleration) {
  const Outcome o = run("scenarios/braking.yaml");
  const VehicleSnapshot& x = o.snapshots[0];
  EXPECT_LT(std::hypot(x.velocity[0], x.velocity[1]), 0.05);
  // 0.55 s at 25 m/s before the brakes act (the ramp's midpoint: 0.525 s), then v^2 / (2 a).
  const double braking_distance = x.position[0] - 25.0 * 0.525;
  const double decel = 25.0 * 25.0 / (2.0 * braking_distance);
  EXPECT_GT(decel, 0.5 * 9.81);
  EXPECT_LT(decel, 0.95 * 9.81);
  EXPECT_NEAR(x.position[1], 0.0, 0.05);  // straight
}

}  // namespace
}  // namespace fleetdyn
