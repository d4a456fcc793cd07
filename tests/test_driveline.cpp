// Driveline, brakes and steering: the engine map against its definition,
// and launch and braking of the whole vehicle against Newton's law with the wheels' inertia.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "fleetdyn/physics/core/driveline.h"
#include "tests/strut_test_util.h"

namespace fleetdyn {
namespace {

using test::cpu_options;

TEST(Driveline, EngineMapPeakTorquePowerLimitAndGovernor) {
  const StrutParams<double> p = hmmwv_params();
  const double corner = p.engine_peak_power / p.engine_peak_torque;    // [rad/s] where P/omega = T_peak
  EXPECT_EQ(engine_full_load_torque(p, -10.0), p.engine_peak_torque);  // rolling back: peak torque
  EXPECT_EQ(engine_full_load_torque(p, 0.5 * corner), p.engine_peak_torque);
  EXPECT_NEAR(engine_full_load_torque(p, 1.05 * corner), p.engine_peak_power / (1.05 * corner), 1e-9);
  EXPECT_NEAR(engine_full_load_torque(p, p.engine_max_speed), 0.0, 1e-9);  // governed
  EXPECT_GT(engine_full_load_torque(p, 0.89 * p.engine_max_speed), 0.0);
  // At the wheels: throttle x engine torque x ratio x efficiency, engine speed = ratio x wheel speed.
  const double wheel_speed = 20.0;
  EXPECT_NEAR(drive_torque_at_wheels(p, 0.6, wheel_speed),
              0.6 * engine_full_load_torque(p, p.driveline_ratio * wheel_speed) * p.driveline_ratio * p.driveline_efficiency,
              1e-9);
  // AWD: the shares sum to one, the front axle gets front_torque_split, left = right.
  EXPECT_NEAR(p.drive_share[0] + p.drive_share[1] + p.drive_share[2] + p.drive_share[3], 1.0, 1e-15);
  EXPECT_NEAR(p.drive_share[0] + p.drive_share[1], p.front_torque_split, 1e-15);
  EXPECT_EQ(p.drive_share[0], p.drive_share[1]);
  // Steering: full input is the maximum road-wheel angle at the front, the rear does not steer.
  EXPECT_NEAR(road_wheel_angle(p, 1.0, 0), p.max_steer, 1e-15);
  EXPECT_NEAR(road_wheel_angle(p, -0.5, 1), -0.5 * p.max_steer, 1e-15);
  EXPECT_EQ(road_wheel_angle(p, 1.0, 2), 0.0);
}

// Longitudinal acceleration over the first `seconds`, from rest or from `speed`.
double mean_accel(const StrutParams<double>& p, double speed, DriverInput<double> input, double seconds) {
  Batch batch({p}, 1, TerrainSpec{}, cpu_options());
  InitialCondition ic;
  ic.speed = speed;
  batch.set_initial_conditions({ic});
  batch.set_inputs({input});
  batch.step(100);  // let the tire deflections build
  const double v0 = batch.snapshots()[0].velocity[0];
  batch.step(static_cast<int>(std::lround(seconds / 1e-3)));
  return (batch.snapshots()[0].velocity[0] - v0) / seconds;
}

// Full throttle from rest, below the engine's corner speed: the wheels get T_peak ratio eta,
// which accelerates the vehicle's mass and spins up the wheels (I_s / r^2 each), less rolling
// resistance: a = (T r^-1 - f_r m g) / (m + 4 I_s / r^2).
TEST(Driveline, LaunchAccelerationFromEngineTorque) {
  const StrutParams<double> p = hmmwv_params();
  const double r = tire_rolling_radius(p.tire, p.static_tire_load[0]);
  const double torque = p.engine_peak_torque * p.driveline_ratio * p.driveline_efficiency;
  const double expected = (torque / r - p.tire.rolling_resistance * p.total_mass * p.gravity) /
                          (p.total_mass + 4.0 * p.wheel_spin_inertia / (r * r));
  const double measured = mean_accel(p, 0.0, {0.0, 1.0, 0.0}, 0.5);
  RecordProperty("launch_accel_m_per_s2", std::to_string(measured));
  EXPECT_NEAR(measured, expected, 0.03 * expected);
}

// Braking at 30 % (below the friction limit): the brake torques decelerate mass and wheels,
// with rolling resistance: a = -(sum T_b / r + f_r m g) / (m + 4 I_s / r^2).
TEST(Driveline, BrakeLimitedDeceleration) {
  const StrutParams<double> p = hmmwv_params();
  const double r = tire_rolling_radius(p.tire, p.static_tire_load[0]);
  const double brake = 0.3 * 2.0 * (p.brake_torque_front + p.brake_torque_rear);
  const double expected = -(brake / r + p.tire.rolling_resistance * p.total_mass * p.gravity) /
                          (p.total_mass + 4.0 * p.wheel_spin_inertia / (r * r));
  ASSERT_LT(-expected, 0.5 * p.tire.mu * p.gravity);  // well below the friction limit
  const double measured = mean_accel(p, 15.0, {0.0, 0.0, 0.3}, 0.5);
  RecordProperty("brake_decel_m_per_s2", std::to_string(measured));
  EXPECT_NEAR(measured, expected, 0.03 * std::fabs(expected));
}

}  // namespace
}  // namespace fleetdyn
