// Closed-loop and programmed drivers, the pure functions (physics/drivers/path.h, physics/drivers/driver.h,
// physics/drivers/steer_program.h) against analytic results: polyline geometry, the trackers against the
// kinematic bicycle, the speed controller, the steer programs and the driver metrics.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "fleetdyn/ce.h"
#include "fleetdyn/driver.h"
#include "fleetdyn/error.h"
#include "fleetdyn/physics/ce/ce_batch.h"
#include "fleetdyn/physics/core/batch_view.h"
#include "fleetdyn/physics/core/math.h"
#include "fleetdyn/physics/drivers/driver.h"
#include "tests/driver_test_util.h"
#include "tests/strut_test_util.h"

namespace fleetdyn {
namespace {

using namespace test;

// ---- polyline geometry -----------------------------------------------------------------------

// An L: (0,0) -> (10,0) -> (10,10). Nearest segments, signed lateral offsets and the
// extrapolation past the ends; the hint walks forward and back.
TEST(Path, NearestPointOnOpenPolyline) {
  const StoredPaths stored({polyline({{0, 0}, {10, 0}, {10, 10}})});
  const PathView<double> p = stored.view();
  EXPECT_EQ(segment_count(p), 2);
  EXPECT_DOUBLE_EQ(p.length, 20.0);
  const auto nearest = [&](double x, double y, int hint) {
    return path_nearest_segment(p, at(x, y), {hint, 0}).segment;
  };

  PathIndex u = path_nearest_segment_global(p, at(5.0, 1.0));
  EXPECT_EQ(u.segment, 0);
  EXPECT_EQ(u.lap, 0);
  SegmentHit<double> h = segment_hit(path_segment(p, u), at(5.0, 1.0));
  EXPECT_DOUBLE_EQ(h.fraction, 0.5);
  EXPECT_DOUBLE_EQ(h.lateral, 1.0);  // left of +x
  EXPECT_DOUBLE_EQ(h.dist_sq, 1.0);

  u = path_nearest_segment(p, at(11.0, 5.0), {0, 0});  // the hint walks forward
  EXPECT_EQ(u.segment, 1);
  h = segment_hit(path_segment(p, u), at(11.0, 5.0));
  EXPECT_DOUBLE_EQ(h.lateral, -1.0);  // right of +y
  EXPECT_DOUBLE_EQ(path_segment(p, u).s0 + h.fraction * path_segment(p, u).length, 15.0);

  EXPECT_EQ(nearest(3.0, 0.2, 1), 0);  // ... and back

  // Outside the corner the nearest point is the vertex.
  h = segment_hit(path_segment(p, {nearest(12.0, -1.0, 0), 0}), at(12.0, -1.0));
  EXPECT_NEAR(h.dist_sq, 5.0, 1e-12);

  // Before the start and after the end: fractions outside [0, 1] on the end segments.
  EXPECT_EQ(nearest(-3.0, 0.5, 1), 0);
  EXPECT_DOUBLE_EQ(segment_hit(path_segment(p, {0, 0}), at(-3.0, 0.5)).fraction, -0.3);
  EXPECT_EQ(nearest(10.5, 14.0, 0), 1);
  EXPECT_DOUBLE_EQ(segment_hit(path_segment(p, {1, 0}), at(10.5, 14.0)).fraction, 1.4);
}

// A closed 10 m square: walking round it twice counter-clockwise counts two laps (arclength
// 80 m + the part lap), walking back takes them off again and goes on into lap -1; every step
// is a hint walk of at most one segment.
TEST(Path, ClosedPathCountsLapsBothWays) {
  const StoredPaths stored({polyline({{0, 0}, {10, 0}, {10, 10}, {0, 10}}, true)});
  const PathView<double> p = stored.view();
  EXPECT_EQ(segment_count(p), 4);
  EXPECT_DOUBLE_EQ(p.length, 40.0);
  // A point 0.3 m inside the square at arclength s.
  const auto inside = [](double s) {
    const double r = std::fmod(std::fmod(s, 40.0) + 40.0, 40.0);
    if (r < 10.0) return at(r, 0.3);
    if (r < 20.0) return at(9.7, r - 10.0);
    if (r < 30.0) return at(30.0 - r, 9.7);
    return at(0.3, 40.0 - r);
  };
  PathIndex u = path_nearest_segment_global(p, inside(1.0));
  EXPECT_EQ(u.segment, 0);
  int walked = 0;
  for (double s = 1.0; s <= 85.0; s += 0.5) {
    const PathIndex next = path_nearest_segment(p, inside(s), u);
    walked = std::max(walked, std::abs(path_offset(p, u, next)));
    u = next;
  }
  const PathSegment<double> g = path_segment(p, u);
  const SegmentHit<double> h = segment_hit(g, inside(85.0));
  EXPECT_EQ(u.segment, 0);
  EXPECT_EQ(u.lap, 2);
  EXPECT_NEAR(g.s0 + h.fraction * g.length, 85.0, 1e-12);
  EXPECT_NEAR(h.lateral, 0.3, 1e-12);  // inside a counter-clockwise path is its left
  for (double s = 85.0; s >= -12.0; s -= 0.5) {
    const PathIndex next = path_nearest_segment(p, inside(s), u);
    walked = std::max(walked, std::abs(path_offset(p, u, next)));
    u = next;
  }
  EXPECT_EQ(u.segment, 2);  // arclength -12 is 28 m into the lap before lap 0
  EXPECT_EQ(u.lap, -1);
  EXPECT_NEAR(path_segment(p, u).s0, -20.0, 1e-12);
  EXPECT_EQ(walked, 1);
  EXPECT_EQ(path_advance(p, u, 9).segment, 3);  // wraps forward ...
  EXPECT_EQ(path_advance(p, u, 9).lap, 1);
  EXPECT_EQ(path_advance(p, u, -7).segment, 3);  // ... and back
  EXPECT_EQ(path_advance(p, u, -7).lap, -3);
  EXPECT_EQ(path_offset(p, u, path_advance(p, u, -7)), -7);
}

// The segment holding an arclength, on a closed path (laps on) and off an open path's end.
TEST(Path, SegmentAtArclengthWrapsAndExtrapolates) {
  const StoredPaths closed({polyline({{0, 0}, {10, 0}, {10, 10}, {0, 10}}, true)});
  const PathView<double> square = closed.view();
  const PathIndex u = path_segment_at(square, {0, 0}, {0, 0}, 95.0);
  EXPECT_EQ(u.segment, 1);
  EXPECT_EQ(u.lap, 2);
  const PathTarget<double> pt = path_point_on(path_segment(square, u), 95.0, 0.0, 0.0);
  EXPECT_NEAR(pt.x, 10.0, 1e-12);
  EXPECT_NEAR(pt.y, 5.0, 1e-12);
  EXPECT_EQ(path_segment_at(square, {1, 2}, {0, 0}, 12.0).segment, 1);  // walks back, not below the floor
  EXPECT_EQ(path_segment_at(square, {1, 2}, {0, 0}, 12.0).lap, 0);
  EXPECT_EQ(path_segment_at(square, {1, 2}, {1, 1}, 12.0).lap, 1);

  const StoredPaths open({polyline({{0, 0}, {10, 0}, {10, 10}})});
  const PathView<double> l = open.view();
  const PathIndex end = path_segment_at(l, {0, 0}, {0, 0}, 30.0);
  EXPECT_EQ(end.segment, 1);
  const PathTarget<double> beyond = path_point_on(path_segment(l, end), 30.0, 0.0, 0.0);
  EXPECT_NEAR(beyond.x, 10.0, 1e-12);
  EXPECT_NEAR(beyond.y, 20.0, 1e-12);
  EXPECT_EQ(path_advance(l, {0, 0}, 40).segment, 1);  // an open path's end stops the lookahead hint
  EXPECT_EQ(path_advance(l, {0, 0}, 40).lap, 0);
}

// The blended tangent is continuous at vertices and matches a circle's tangent on an inscribed
// polygon far better than the chord direction does.
TEST(Path, TangentIsContinuousAndFollowsACircle) {
  const int n = 72;  // 5 degree vertex angle
  const StoredPaths stored({circle_path(30.0, 8.0, n)});
  const PathView<double> p = stored.view();
  double worst = 0.0;
  for (int u = 0; u < n; ++u) {
    for (double f : {0.0, 0.25, 0.5, 1.0}) {
      double tx, ty;
      path_tangent(p, {u, 0}, f, &tx, &ty);
      const double angle = 2.0 * kPi * (u + f) / n;  // of the circle at the point, from the start
      worst = std::max(worst, std::fabs(std::remainder(std::atan2(ty, tx) - angle, 2.0 * kPi)));
    }
  }
  EXPECT_LT(worst, 1e-3);  // the chord would be 2.5 degrees (0.044 rad) off at the vertices
}

// ---- trackers against the kinematic bicycle -----------------------------------------------

// Pure pursuit's geometry: with the rear axle on a circle of radius R and the heading tangent,
// any goal point on the circle asks for curvature 1/R, i.e. the road-wheel angle atan(L / R).
TEST(PurePursuit, GoalOnTheCircleGivesAckermannAngle) {
  const double wheelbase = 3.3, radius = 30.0;
  for (double theta : {0.05, 0.2, 0.5, 1.0, 2.0}) {
    const double gx = radius * std::sin(theta), gy = radius * (1.0 - std::cos(theta));
    EXPECT_NEAR(pure_pursuit_angle(wheelbase, 1.0, 0.0, gx, gy), std::atan(wheelbase / radius), 1e-14) << theta;
    EXPECT_NEAR(pure_pursuit_angle(wheelbase, 1.0, 0.0, gx, -gy), -std::atan(wheelbase / radius), 1e-14) << theta;
  }
}

// A kinematic bicycle (rear axle moving along exact arcs for the step's road-wheel angle)
// driven by the path driver round a 30 m circle from 1 m outside it. In steady state pure
// pursuit puts the rear axle on the path: road-wheel angle atan(L / R), the body COM (b ahead)
// sqrt(R^2 + b^2) - R outside. Stanley puts the front axle on it: asin(L / R), the COM at
// sqrt(R^2 - L^2 + b^2) from the centre.
struct BicycleResult {
  double angle;    // [rad] last road-wheel angle
  double lateral;  // [m] last lateral error of the COM
};

BicycleResult drive_bicycle(PathTracker tracker, double radius, double speed, double seconds) {
  const double a = 1.6, b = 1.7, wheelbase = a + b, dt = 0.005;
  const StoredPaths stored({circle_path(radius, speed, 720)});
  PathDriverParams<double> c{
      tracker == PathTracker::Stanley ? kStanley : kPurePursuit, 4.0, 0.5, 1.5, 1.0, 0.0, 0.5, 0.1};
  const DriverGeometry<double> g{a, -b, 1.0};  // steer = road-wheel angle
  double d[kDriverStateSize];
  for (int j = 0; j < kDriverStateSize; ++j) d[j] = driver_initial_value<double>(j);
  double rx = -b, ry = -1.0, yaw = 0.0;  // rear axle 1 m outside the circle (centre (0, R)), COM at x = 0
  DriverReport<double> report{};
  double angle = 0.0;
  for (int k = 0; k < static_cast<int>(seconds / dt); ++k) {
    DriverSense<double> x{};
    x.com = {rx + b * std::cos(yaw), ry + b * std::sin(yaw), 0.0};
    x.rot = {{{std::cos(yaw), -std::sin(yaw), 0.0}, {std::sin(yaw), std::cos(yaw), 0.0}, {0.0, 0.0, 1.0}}};
    x.velocity = {speed * std::cos(yaw), speed * std::sin(yaw), 0.0};
    const DriverInput<double> in = path_driver_input(stored.view(), c, g, x, 0.0, 0.0, dt, d, &report);
    angle = in.steer;
    const double curvature = std::tan(angle) / wheelbase, turn = speed * dt * curvature;
    if (std::fabs(turn) > 1e-12) {
      rx += (std::sin(yaw + turn) - std::sin(yaw)) / curvature;
      ry -= (std::cos(yaw + turn) - std::cos(yaw)) / curvature;
    } else {
      rx += speed * dt * std::cos(yaw);
      ry += speed * dt * std::sin(yaw);
    }
    yaw += turn;
  }
  return {angle, report.lateral_error};
}

TEST(PathDriver, KinematicBicycleSettlesOnCircleWithAckermannAngle) {
  const double a = 1.6, b = 1.7, wheelbase = a + b, radius = 30.0;
  const BicycleResult pursuit = drive_bicycle(PathTracker::PurePursuit, radius, 8.0, 60.0);
  EXPECT_NEAR(pursuit.angle, std::atan(wheelbase / radius), 1e-4);
  EXPECT_NEAR(pursuit.lateral, -(std::sqrt(radius * radius + b * b) - radius), 2e-3);
  const BicycleResult stanley = drive_bicycle(PathTracker::Stanley, radius, 8.0, 60.0);
  EXPECT_NEAR(stanley.angle, std::asin(wheelbase / radius), 1e-4);
  EXPECT_NEAR(stanley.lateral, -(std::sqrt(radius * radius - wheelbase * wheelbase + b * b) - radius), 2e-3);
  std::printf("kinematic bicycle on R = 30 m: pure pursuit %.6f rad (atan(L/R) %.6f), Stanley %.6f (asin(L/R) %.6f)\n",
              pursuit.angle, std::atan(wheelbase / radius), stanley.angle, std::asin(wheelbase / radius));
}

// ---- speed controller -----------------------------------------------------------------------

// Conditional integration: saturated by the proportional part, the integral does not grow, so
// the pedal turns the moment the error does; saturated by the integral, it stops where the
// output reaches the limit.
TEST(SpeedPi, AntiWindupHoldsTheIntegralWhileSaturated) {
  const double kp = 0.5, ki = 0.1, dt = 0.01;
  double integral = 0.0;
  for (int k = 0; k < 1000; ++k) {
    const PedalCommand<double> u = speed_pi(10.0, kp, ki, dt, &integral);
    EXPECT_EQ(u.throttle, 1.0);
    EXPECT_EQ(u.brake, 0.0);
  }
  EXPECT_EQ(integral, 0.0);  // without anti-windup: 100 m, 10 s of full throttle to unwind
  const PedalCommand<double> turned = speed_pi(-0.5, kp, ki, dt, &integral);
  EXPECT_EQ(turned.throttle, 0.0);
  EXPECT_NEAR(turned.brake, 0.25 + 0.1 * 0.005, 1e-12);  // immediately

  integral = 0.0;
  for (int k = 0; k < 100; ++k) speed_pi(0.2, kp, ki, dt, &integral);  // unsaturated: integrates
  EXPECT_NEAR(integral, 0.2, 1e-12);
  EXPECT_NEAR(speed_pi(0.2, kp, ki, dt, &integral).throttle, 0.1 + 0.1 * 0.202, 1e-12);

  integral = 0.0;
  for (int k = 0; k < 10000; ++k) speed_pi(1.5, kp, ki, dt, &integral);  // saturates through the integral
  EXPECT_GE(kp * 1.5 + ki * integral, 1.0);
  EXPECT_LE(integral, (1.0 - kp * 1.5) / ki + 1.5 * dt + 1e-12);
}

// ---- steer programs -------------------------------------------------------------------------

SteerProgramParams<double> program_params(const SteerProgram& s) {
  return {s.kind == SteerProgramKind::Fishhook        ? kProgramFishhook
          : s.kind == SteerProgramKind::SineWithDwell ? kProgramSineWithDwell
                                                      : kProgramRampHold,
          s.start_time,
          s.amplitude,
          s.rate,
          s.hold,
          s.frequency,
          s.dwell,
          s.roll_rate_threshold,
          s.throttle_before,
          s.throttle,
          s.brake};
}

// NHTSA fishhook on a synthetic roll rate that decays from its peak: the countersteer begins at
// the first step after the first ramp with |roll rate| <= 1.5 deg/s; then -A at the rate, 3 s
// hold, back to 0, done.
TEST(SteerProgram, FishhookCountersteersWhenRollRateFalls) {
  const double amplitude = 0.5, rate = 2.0, start = 0.5, dt = 0.001;  // first ramp ends at 0.75 s
  const SteerProgramParams<double> c = program_params(nhtsa_fishhook(amplitude, rate, start));
  const auto roll_rate = [](double t) { return t < 0.6 ? 0.0 : 0.3 * std::exp(-(t - 1.0) / 0.2); };
  const double threshold = 1.5 * kDeg;
  const double expected = std::ceil((1.0 + 0.2 * std::log(0.3 / threshold)) / dt) * dt;  // 1.488 s
  double event = -1.0, done_at = -1.0;
  for (int k = 0; k <= 6000; ++k) {
    const double t = k * dt;
    bool done = false;
    const DriverInput<double> in = steer_program_input(c, t, roll_rate(t), &event, &done);
    if (done && done_at < 0.0) done_at = t;
    if (t < start) {
      EXPECT_EQ(in.steer, 0.0);
    } else if (t <= 0.75) {
      EXPECT_NEAR(in.steer, rate * (t - start), 1e-12) << t;
    } else if (t < expected - 1e-9) {
      EXPECT_EQ(in.steer, amplitude) << t;  // the dwell
      EXPECT_LT(event, 0.0);
    }
    EXPECT_EQ(in.throttle, 0.0);  // released from the start (and 0 before: throttle_before)
  }
  EXPECT_NEAR(event, expected, 1e-9);
  double e = event;
  bool done = false;
  EXPECT_NEAR(steer_program_input(c, event + 0.25, 0.0, &e, &done).steer, 0.0, 1e-12);              // half way
  EXPECT_NEAR(steer_program_input(c, event + 0.5, 0.0, &e, &done).steer, -amplitude, 1e-12);        // reached -A
  EXPECT_NEAR(steer_program_input(c, event + 3.49, 0.9, &e, &done).steer, -amplitude, 1e-12);       // 3 s hold
  EXPECT_NEAR(steer_program_input(c, event + 3.6, 0.0, &e, &done).steer, -amplitude + 0.2, 1e-12);  // return
  EXPECT_NEAR(done_at, event + 3.75, 1.01 * dt);
  EXPECT_EQ(e, event);  // set once

  // A vehicle whose roll rate is already down when the first ramp ends countersteers at once.
  event = -1.0;
  for (int k = 0; k <= 1000; ++k) steer_program_input(c, k * dt, 0.0, &event, &done);
  EXPECT_NEAR(event, 0.75, 1.01 * dt);
}

// FMVSS 126 sine with dwell, 0.7 Hz, 500 ms at the second peak: the waveform at known times.
TEST(SteerProgram, SineWithDwellWaveform) {
  const double amplitude = 0.4, start = 0.5, f = 0.7;
  const SteerProgramParams<double> c = program_params(sine_with_dwell(amplitude, start));
  const auto steer = [&](double tau, bool* done) {
    double event = -1.0;
    return steer_program_input(c, start + tau, 0.0, &event, done).steer;
  };
  bool done = false;
  EXPECT_EQ(steer(-0.1, &done), 0.0);
  EXPECT_NEAR(steer(0.25 / f, &done), amplitude, 1e-12);   // first peak, 0.357 s
  EXPECT_NEAR(steer(0.5 / f, &done), 0.0, 1e-12);          // zero crossing, 0.714 s
  EXPECT_NEAR(steer(0.75 / f, &done), -amplitude, 1e-12);  // second peak, 1.071 s
  EXPECT_EQ(steer(0.75 / f + 0.25, &done), -amplitude);    // the dwell
  EXPECT_EQ(steer(0.75 / f + 0.4999, &done), -amplitude);
  for (double after : {0.01, 0.1, 0.2, 0.3}) {  // the last quarter period: -A cos(2 pi f s)
    EXPECT_NEAR(steer(0.75 / f + 0.5 + after, &done), -amplitude * std::cos(2.0 * kPi * f * after), 1e-12);
    EXPECT_FALSE(done);
  }
  EXPECT_EQ(steer(1.0 / f + 0.5 + 1e-9, &done), 0.0);  // completion of steer, 1.929 s
  EXPECT_TRUE(done);
}

// Ramp and hold (J-turn, step steer), held to the end or returned after a hold.
TEST(SteerProgram, RampHoldAndReturn) {
  SteerProgram s = j_turn(-0.6, 3.0, 1.0);  // to the right, 0.2 s ramp
  SteerProgramParams<double> c = program_params(s);
  double event = -1.0;
  bool done = false;
  EXPECT_EQ(steer_program_input(c, 0.5, 0.0, &event, &done).steer, 0.0);
  EXPECT_NEAR(steer_program_input(c, 1.1, 0.0, &event, &done).steer, -0.3, 1e-12);
  EXPECT_FALSE(done);
  EXPECT_EQ(steer_program_input(c, 1.25, 0.0, &event, &done).steer, -0.6);
  EXPECT_TRUE(done);
  EXPECT_EQ(steer_program_input(c, 100.0, 0.0, &event, &done).steer, -0.6);
  s.hold = 2.0;
  c = program_params(s);
  EXPECT_EQ(steer_program_input(c, 3.19, 0.0, &event, &done).steer, -0.6);
  EXPECT_FALSE(done);
  EXPECT_NEAR(steer_program_input(c, 3.3, 0.0, &event, &done).steer, -0.3, 1e-12);
  EXPECT_EQ(steer_program_input(c, 3.45, 0.0, &event, &done).steer, 0.0);
  EXPECT_TRUE(done);
  const SteerProgramParams<double> step = program_params(step_steer(0.2, 1.0, 0.5, 0.3));
  EXPECT_EQ(steer_program_input(step, 0.2, 0.0, &event, &done).throttle, 0.3);
  EXPECT_EQ(steer_program_input(step, 2.0, 0.0, &event, &done).throttle, 0.3);
}

// ---- metrics --------------------------------------------------------------------------------

// longest_two_wheel_liftoff is the longest run of steps with both wheels of a side off the
// ground; current_two_wheel_liftoff the run still going on.
TEST(DriverMetrics, LongestTwoWheelLiftoffCountsContinuousSpells) {
  const TerrainDesc<double> flat = default_terrain_desc<double>();
  double m[kMetricCount] = {};
  const double dt = 0.01;
  MetricSample<double> down{};
  down.com = {0.0, 0.0, 1.0};
  down.rot = {{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}};
  for (double& f : down.tire_normal_force) f = 5000.0;
  MetricSample<double> left_up = down, diagonal_up = down;
  left_up.tire_normal_force[0] = left_up.tire_normal_force[2] = 0.0;
  diagonal_up.tire_normal_force[0] = diagonal_up.tire_normal_force[3] = 0.0;  // not one side
  const std::vector<const MetricSample<double>*> run = {&left_up, &left_up, &left_up, &down,    &diagonal_up,
                                                        &left_up, &left_up, &left_up, &left_up, &left_up,
                                                        &down,    &left_up, &left_up};
  for (size_t k = 0; k < run.size(); ++k) update_metrics(m, flat, 0.0, 0.0, *run[k], k * dt, dt);
  EXPECT_NEAR(m[metric::longest_two_wheel_liftoff], 5 * dt, 1e-12);
  EXPECT_NEAR(m[metric::current_two_wheel_liftoff], 2 * dt, 1e-12);
  EXPECT_NEAR(m[metric::two_wheel_liftoff_time], 10 * dt, 1e-12);
}

}  // namespace
}  // namespace fleetdyn
