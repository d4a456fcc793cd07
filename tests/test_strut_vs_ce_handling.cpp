// The strut model against the ce model on the same vehicle (the ce HMMWV and its strut
// equivalent, strut_equivalent_params): steady cornering, pitch under braking and full throttle,
// and the quasi-static rollover threshold. ce is the reference: it closes the double wishbones
// and the Pitman steering exactly (seed 001), strut holds its wheels on the tabulated paths.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "fleetdyn/physics/core/math.h"
#include "fleetdyn/suspension.h"
#include "tests/handling_test_util.h"

namespace fleetdyn {
namespace {

using test::Sample;

constexpr double kDeg = kPi / 180.0;

double relative(double reference, double value) { return std::fabs(value - reference) / std::fabs(reference); }

class StrutVsCe : public ::testing::Test {
 protected:
  CeParams<double> ce = hmmwv_ce_params();
  StrutParams<double> strut = strut_equivalent_params(ce);
};

struct SteadyTurn {
  double lateral_accel, yaw_rate, roll, transfer[2];
};

SteadyTurn steady(const std::vector<Sample>& s, double from) {
  SteadyTurn r{};
  r.lateral_accel = test::average(s, from, [](const Sample& x) { return x.lateral_accel; });
  r.yaw_rate = test::average(s, from, [](const Sample& x) { return x.yaw_rate; });
  r.roll = test::average(s, from, [](const Sample& x) { return x.roll; });
  for (int a = 0; a < 2; ++a)
    r.transfer[a] = test::average(s, from, [a](const Sample& x) { return test::transfer(x, a); });
  return r;
}

// Constant road-wheel angle reached over 0.5 s, speed held; averages over the last 2 of 10 s.
// Per axle lateral load transfer within 4 %, roll gradient (roll / a_y) within 3 %, the front
// axle's share of the load transfer within 2 points, steady yaw rate within 1 % (the bands
// docs/models/strut.md and ce-cross-model.md state; measured 3.8 %, 2.4 %, 1.6 points, 0.6 %).
TEST_F(StrutVsCe, SteadyCorneringLoadTransferRollAndYawRate) {
  for (double speed : {10.0, 20.0}) {
    for (double angle_deg : {2.0, 4.0, 6.0}) {
      const double angle = angle_deg * kDeg;
      const test::Driver driver = [&](double t, double v) {
        return test::DriverCommand{angle * std::fmin(1.0, t / 0.5), test::hold_speed(speed, v), 0.0};
      };
      const SteadyTurn c = steady(test::run_ce(ce, speed, 10.0, driver), 8.0);
      const SteadyTurn s = steady(test::run_strut(strut, speed, 10.0, driver), 8.0);
      const double gradient_c = c.roll / c.lateral_accel, gradient_s = s.roll / s.lateral_accel;
      const double share_c = c.transfer[0] / (c.transfer[0] + c.transfer[1]);
      const double share_s = s.transfer[0] / (s.transfer[0] + s.transfer[1]);
      std::printf(
          "%4.1f m/s %3.1f deg: a_y ce %.3f strut %.3f m/s^2; yaw rate %.4f / %.4f rad/s (%+.2f %%); "
          "transfer front %.0f / %.0f N (%+.2f %%), rear %.0f / %.0f N (%+.2f %%); front share %.2f / %.2f %%; "
          "roll gradient %.3f / %.3f deg/g (%+.2f %%)\n",
          speed, angle_deg, c.lateral_accel, s.lateral_accel, c.yaw_rate, s.yaw_rate, 100.0 * (s.yaw_rate / c.yaw_rate - 1.0),
          c.transfer[0], s.transfer[0], 100.0 * (s.transfer[0] / c.transfer[0] - 1.0), c.transfer[1], s.transfer[1],
          100.0 * (s.transfer[1] / c.transfer[1] - 1.0), 100.0 * share_c, 100.0 * share_s, gradient_c * 9.81 / kDeg,
          gradient_s * 9.81 / kDeg, 100.0 * (gradient_s / gradient_c - 1.0));
      const std::string where = std::to_string(speed) + " m/s, " + std::to_string(angle_deg) + " deg";
      EXPECT_LT(relative(c.transfer[0], s.transfer[0]), 0.04) << where;
      EXPECT_LT(relative(c.transfer[1], s.transfer[1]), 0.04) << where;
      EXPECT_LT(relative(gradient_c, gradient_s), 0.03) << where;
      EXPECT_NEAR(share_s, share_c, 0.02) << where;
      EXPECT_LT(relative(c.yaw_rate, s.yaw_rate), 0.01) << where;
    }
  }
}

// Camber and toe-in at the wheel against travel (the strut's spin axis from its tabulated
// curves) against ce's closed-form kinematics, the numbers `fleetdyn kinematics` prints: within
// 0.05 deg from the rebound stop to the bump stop, every corner; and the road-wheel angles of
// the front corners against the Pitman linkage at design height (Ackermann) within 0.05 deg.
TEST_F(StrutVsCe, CamberToeAndAckermannFollowTheLinkage) {
  const CeSuspension<double> susp{{ce.corner[0], ce.corner[1], ce.corner[2], ce.corner[3]}, ce.steering};
  const TerrainDesc<double> ground = test::flat_ground();
  const StrutEnvironment<double> straight(strut, &ground, 0.0, 0.0, DriverInput<double>{0.0, 0.0, 0.0});
  double worst = 0.0;
  for (int i = 0; i < kCorners; ++i) {
    const double side = i % 2 == 0 ? 1.0 : -1.0;
    const bool front = i < 2;
    const double low = -(front ? strut.rebound_travel_front : strut.rebound_travel_rear);
    const double high = front ? strut.bump_travel_front : strut.bump_travel_rear;
    for (int k = 0; k <= 20; ++k) {
      const double travel = low + (high - low) * k / 20.0;
      const CornerPose<double> pose = corner_kinematics(susp, i, lca_angle_for_travel(susp, i, travel, 0.0), 0.0).pose;
      const Vec3<double> a = corner_axis(strut, straight, i, travel).axis;
      const double camber = std::asin(-side * a.z), toe = std::atan2(side * a.x, a.y);
      EXPECT_NEAR(camber, camber_angle(pose, side), 0.05 * kDeg) << corner_name(i) << " at " << travel << " m";
      EXPECT_NEAR(toe, toe_in_angle(pose, side), 0.05 * kDeg) << corner_name(i) << " at " << travel << " m";
      worst = std::max({worst, std::fabs(camber - camber_angle(pose, side)), std::fabs(toe - toe_in_angle(pose, side))});
    }
  }
  std::printf("camber and toe: largest difference %.4f deg\n", worst / kDeg);
  for (double pitman : {-0.8, -0.4, 0.2, 0.6}) {
    const double angle = pitman * ce.steering.max_angle;
    double heading[2], mean = 0.0;
    for (int i = 0; i < 2; ++i) {
      heading[i] = corner_kinematics(susp, i, 0.0, angle).pose.steer_angle - corner_kinematics(susp, i, 0.0, 0.0).pose.steer_angle;
      mean += 0.5 * heading[i];
    }
    const StrutEnvironment<double> env(strut, &ground, 0.0, 0.0, DriverInput<double>{mean / strut.max_steer, 0.0, 0.0});
    for (int i = 0; i < 2; ++i) {
      const Vec3<double> a = corner_axis(strut, env, i, 0.0).axis, a0 = corner_axis(strut, straight, i, 0.0).axis;
      const double turned = std::atan2(-a.x, a.y) - std::atan2(-a0.x, a0.y);
      EXPECT_NEAR(turned, heading[i], 0.05 * kDeg) << corner_name(i) << " at mean road-wheel angle " << mean;
    }
  }
}

// Pitch under braking (inboard brakes: their torque reacts on the body) and under full throttle
// (AWD): mean body pitch over the steady part of each, within 10 % of ce. The anti-dive and
// anti-squat of the double wishbones come from the wheel paths' fore-aft slope.
TEST_F(StrutVsCe, PitchUnderBrakingAndFullThrottle) {
  struct Case {
    const char* name;
    double speed, throttle, brake, from, to;
  };
  for (const Case& k : {Case{"braking 0.5", 20.0, 0.0, 0.5, 0.8, 1.6}, Case{"full throttle", 5.0, 1.0, 0.0, 1.0, 3.0}}) {
    const test::Driver driver = [&](double, double) { return test::DriverCommand{0.0, k.throttle, k.brake}; };
    const auto c = test::run_ce(ce, k.speed, k.to, driver);
    const auto s = test::run_strut(strut, k.speed, k.to, driver);
    const double pitch_c = test::average(c, k.from, [](const Sample& x) { return x.pitch; });
    const double pitch_s = test::average(s, k.from, [](const Sample& x) { return x.pitch; });
    // The longitudinal acceleration the pitch answers to, from the speed's change.
    auto accel = [&](const std::vector<Sample>& r) {
      double v0 = 0.0, v1 = 0.0, t0 = 0.0, t1 = 0.0;
      for (const Sample& x : r) {
        if (t0 == 0.0 && x.t >= k.from) {
          v0 = x.speed;
          t0 = x.t;
        }
        v1 = x.speed;
        t1 = x.t;
      }
      return (v1 - v0) / (t1 - t0);
    };
    std::printf("%s: pitch ce %.4f deg, strut %.4f deg (%+.2f %%); acceleration ce %.3f, strut %.3f m/s^2\n", k.name,
                pitch_c / kDeg, pitch_s / kDeg, 100.0 * (pitch_s / pitch_c - 1.0), accel(c), accel(s));
    EXPECT_GT(std::fabs(pitch_c), 0.2 * kDeg) << k.name;  // a real pitch
    EXPECT_LT(relative(pitch_c, pitch_s), 0.10) << k.name;
  }
}

// Quasi-static rollover threshold: at 20 m/s the road-wheel angle rises by 1 deg/s until two
// wheels of one side lift (normal force below 1 % of their static load); the lateral acceleration
// at that moment within 2 % of ce's (measured 0.8 %). The vehicle carries a roof load that raises the chassis COM
// by 0.5 m (static stability factor about 0.9) on tires of friction 1.2, so it tips before it
// slides.
TEST_F(StrutVsCe, QuasiStaticRolloverThreshold) {
  CeParams<double> high = ce;
  high.chassis_com.z += 0.5;
  high.tire.mu = 1.2;
  ce_balance_springs_at_design(high);
  const StrutParams<double> s = strut_equivalent_params(high);
  const double speed = 20.0;
  const test::Driver driver = [&](double t, double v) {
    return test::DriverCommand{1.0 * kDeg * t, test::hold_speed(speed, v), 0.0};
  };
  auto lifted = [](const Sample& x) {
    return (x.normal_force[0] < 50.0 && x.normal_force[2] < 50.0) || (x.normal_force[1] < 50.0 && x.normal_force[3] < 50.0);
  };
  const auto c = test::run_ce(high, speed, 20.0, driver, 1, lifted);
  const auto r = test::run_strut(s, speed, 20.0, driver, 1, lifted);
  ASSERT_TRUE(lifted(c.back())) << "ce did not lift a side within 20 deg";
  ASSERT_TRUE(lifted(r.back())) << "strut did not lift a side within 20 deg";
  // Mean over the last 0.1 s before lift-off (the yaw rate carries some of the steering's noise).
  auto at_liftoff = [](const std::vector<Sample>& x) {
    const double end = x.back().t;
    return test::average(x, end - 0.1, [](const Sample& y) { return y.lateral_accel; });
  };
  const double ay_c = at_liftoff(c), ay_s = at_liftoff(r);
  std::printf("rollover threshold: ce %.3f m/s^2 at %.2f s, strut %.3f m/s^2 at %.2f s (%+.2f %%)\n", ay_c, c.back().t,
              ay_s, r.back().t, 100.0 * (ay_s / ay_c - 1.0));
  EXPECT_LT(relative(ay_c, ay_s), 0.02);
}

}  // namespace
}  // namespace fleetdyn
