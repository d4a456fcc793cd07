// Closed-loop and programmed drivers (issue 5 section 2; physics/path.h, physics/driver.h,
// physics/steer_program.h): the pure functions against analytic results, then the drivers in
// the batch (strut and ce HMMWVs on the CPU; CUDA against the CPU when a device exists).
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
#include "fleetdyn/physics/batch_view.h"
#include "fleetdyn/physics/ce_batch.h"
#include "fleetdyn/physics/driver.h"
#include "tests/strut_test_util.h"

namespace fleetdyn {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kDeg = kPi / 180.0;

// ---- host-side paths as the device sees them -------------------------------------------------

// Paths stored the way the batch stores them (host/driver_setup.h), fp64.
struct StoredPaths {
  std::vector<int> offset, count, closed;
  std::vector<double> length, x, y, speed, s;
  explicit StoredPaths(const std::vector<Path>& paths) {
    for (const Path& p : paths) {
      offset.push_back(static_cast<int>(x.size()));
      count.push_back(static_cast<int>(p.points.size()));
      closed.push_back(p.closed ? 1 : 0);
      double arc = 0.0;
      for (size_t i = 0; i < p.points.size(); ++i) {
        if (i > 0) arc += std::hypot(p.points[i].x - p.points[i - 1].x, p.points[i].y - p.points[i - 1].y);
        x.push_back(p.points[i].x);
        y.push_back(p.points[i].y);
        speed.push_back(p.points[i].speed);
        s.push_back(arc);
      }
      length.push_back(path_length(p));
    }
  }
  PathSet<double> set() const {
    return {static_cast<int>(offset.size()), offset.data(), count.data(), closed.data(), length.data(), x.data(),
            y.data(), speed.data(), s.data(), nullptr};
  }
  PathView<double> view(int path = 0) const { return path_of(set(), path); }
};

Path polyline(std::vector<std::pair<double, double>> xy, bool closed = false) {
  Path p;
  p.closed = closed;
  for (const auto& [x, y] : xy) p.points.push_back({x, y, 5.0});
  return p;
}

PathQuery<double> at(double x, double y) { return {0.0, 0.0, x, y}; }

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
  PathDriverParams<double> c{tracker == PathTracker::Stanley ? kStanley : kPurePursuit, 4.0, 0.5, 1.5, 1.0, 0.0, 0.5,
                             0.1};
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
          s.start_time, s.amplitude, s.rate, s.hold, s.frequency, s.dwell, s.roll_rate_threshold, s.throttle_before,
          s.throttle, s.brake};
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
  EXPECT_NEAR(steer_program_input(c, event + 0.25, 0.0, &e, &done).steer, 0.0, 1e-12);          // half way
  EXPECT_NEAR(steer_program_input(c, event + 0.5, 0.0, &e, &done).steer, -amplitude, 1e-12);    // reached -A
  EXPECT_NEAR(steer_program_input(c, event + 3.49, 0.9, &e, &done).steer, -amplitude, 1e-12);   // 3 s hold
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
  const std::vector<const MetricSample<double>*> run = {&left_up, &left_up, &left_up, &down, &diagonal_up, &left_up,
                                                        &left_up, &left_up, &left_up, &left_up, &down, &left_up,
                                                        &left_up};
  for (size_t k = 0; k < run.size(); ++k) update_metrics(m, flat, 0.0, 0.0, *run[k], k * dt, dt);
  EXPECT_NEAR(m[metric::longest_two_wheel_liftoff], 5 * dt, 1e-12);
  EXPECT_NEAR(m[metric::current_two_wheel_liftoff], 2 * dt, 1e-12);
  EXPECT_NEAR(m[metric::two_wheel_liftoff_time], 10 * dt, 1e-12);
}

// ---- in the batch: strut HMMWV on the CPU -----------------------------------------------------

Batch strut_batch(int vehicles = 1, BatchOptions options = test::cpu_options()) {
  return Batch({hmmwv_params()}, vehicles, TerrainSpec{}, options);
}

double metric(Batch& b, int m, int v = 0) { return b.metrics()[static_cast<size_t>(m) * b.vehicle_count() + v]; }
double driver_value(Batch& b, int j, int v = 0) {
  return b.driver_state()[static_cast<size_t>(j) * b.vehicle_count() + v];
}
double speed_of(const VehicleSnapshot& s) { return std::hypot(s.velocity[0], s.velocity[1]); }

// Steady state on a circle: run `settle` s, then `measure` s sampling the COM's lateral error
// and the speed every 50 ms.
struct CircleRun {
  double worst_lateral = 0.0, mean_lateral = 0.0, worst_speed_error = 0.0, steer = 0.0;
};

CircleRun run_circle(Batch& batch, double radius, double speed, double settle, double measure) {
  InitialCondition ic;
  ic.speed = speed;
  batch.set_initial_conditions({ic});
  batch.set_path_driver({circle_path(radius, speed)});
  const double dt = batch.options().step;
  batch.step(static_cast<int>(std::lround(settle / dt)));
  CircleRun r;
  const int samples = static_cast<int>(measure / 0.05);
  for (int k = 0; k < samples; ++k) {
    batch.step(static_cast<int>(std::lround(0.05 / dt)));
    const double lateral = driver_value(batch, driver::kLateralError);
    r.worst_lateral = std::max(r.worst_lateral, std::fabs(lateral));
    r.mean_lateral += lateral / samples;
    r.worst_speed_error = std::max(r.worst_speed_error, std::fabs(speed_of(batch.snapshots()[0]) - speed));
    r.steer = driver_value(batch, driver::kSteer);
  }
  EXPECT_EQ(batch.status()[0], kStatusRunning);
  return r;
}

// ISO 4138-style constant radius: 30 m at 8 m/s (0.22 g). Started on the path; after 10 s the
// body COM stays within 0.3 m of the path and the speed within 0.3 m/s of the target.
TEST(BatchDriver, StrutFollowsCircleWithPurePursuit) {
  Batch batch = strut_batch();
  const auto t0 = std::chrono::steady_clock::now();
  const CircleRun r = run_circle(batch, 30.0, 8.0, 10.0, 10.0);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(r.worst_lateral, 0.3);
  EXPECT_LT(r.worst_speed_error, 0.3);
  const double wheelbase = hmmwv_params().cg_to_front_axle + hmmwv_params().cg_to_rear_axle;
  std::printf("strut, pure pursuit, R 30 m at 8 m/s: |lateral| <= %.4f m (mean %.4f), |speed error| <= %.4f m/s, "
              "road-wheel angle %.4f rad (kinematic atan(L/R) %.4f); %.2f s wall for 20 s\n",
              r.worst_lateral, r.mean_lateral, r.worst_speed_error, r.steer * hmmwv_params().max_steer,
              std::atan(wheelbase / 30.0), wall);
  EXPECT_NEAR(metric(batch, metric::path_progress), 8.0 * 20.0, 2.0);  // started at arclength 0
  EXPECT_EQ(metric(batch, metric::maneuver_end_time), -1.0);             // not yet once around (188 m)
  batch.step(5000);
  EXPECT_NEAR(metric(batch, metric::maneuver_end_time), 2.0 * kPi * 30.0 / 8.0, 0.3);
  RecordProperty("pure_pursuit_circle_worst_lateral_m", std::to_string(r.worst_lateral));
}

TEST(BatchDriver, StrutFollowsCircleWithStanley) {
  Batch batch = strut_batch();
  InitialCondition ic;
  ic.speed = 8.0;
  batch.set_initial_conditions({ic});
  PathDriverSettings settings;
  settings.tracker = PathTracker::Stanley;
  batch.set_path_driver({circle_path(30.0, 8.0)}, {}, {settings});
  const double dt = batch.options().step;
  batch.step(static_cast<int>(10.0 / dt));
  double worst = 0.0;
  for (int k = 0; k < 200; ++k) {
    batch.step(static_cast<int>(0.05 / dt));
    worst = std::max(worst, std::fabs(driver_value(batch, driver::kLateralError)));
  }
  EXPECT_LT(worst, 0.3);
  std::printf("strut, Stanley, R 30 m at 8 m/s: |lateral| <= %.4f m\n", worst);
}

// Double lane changes driven to their end (progress = the path's length, maneuver_end_time
// set) with the COM within 1 m of the lane centres: ISO 3888-1 at 15 m/s (54 km/h) with both
// trackers, and ISO 3888-2 (HMMWV width 2.16 m) at 12 m/s. (ISO 3888-2 at 15 m/s asks the
// HMMWV for more lateral acceleration than its tires give: it completes, 2-4 m off the centres.)
void expect_lane_change_completed(const Path& path, double speed, PathTracker tracker, const char* name) {
  Batch batch = strut_batch();
  InitialCondition ic;
  ic.speed = speed;
  batch.set_initial_conditions({ic});
  PathDriverSettings settings;
  settings.tracker = tracker;
  batch.set_path_driver({path}, {}, {settings});
  batch.step(static_cast<int>((path_length(path) / speed + 1.5) / batch.options().step));
  EXPECT_EQ(batch.status()[0], kStatusRunning);
  EXPECT_EQ(metric(batch, metric::path_progress), path_length(path));
  const double end = metric(batch, metric::maneuver_end_time);
  EXPECT_GT(end, path_length(path) / speed - 0.5);
  EXPECT_LT(end, path_length(path) / speed + 0.5);
  const double deviation = metric(batch, metric::max_path_deviation);
  EXPECT_LT(deviation, 1.0);
  EXPECT_EQ(metric(batch, metric::longest_two_wheel_liftoff), 0.0);
  std::printf("strut, %s at %.0f m/s, %s: max deviation %.3f m, end at %.3f s, max |a_y| %.2f m/s^2, max roll "
              "%.2f deg\n",
              name, speed, tracker == PathTracker::Stanley ? "Stanley" : "pure pursuit", deviation, end,
              metric(batch, metric::max_abs_lat_accel), metric(batch, metric::max_abs_roll) / kDeg);
}

TEST(BatchDriver, StrutCompletesDoubleLaneChanges) {
  expect_lane_change_completed(iso3888_1_path(15.0), 15.0, PathTracker::PurePursuit, "ISO 3888-1");
  expect_lane_change_completed(iso3888_1_path(15.0), 15.0, PathTracker::Stanley, "ISO 3888-1");
  expect_lane_change_completed(iso3888_2_path(2.16, 12.0), 12.0, PathTracker::PurePursuit, "ISO 3888-2");
}

// The NHTSA fishhook on the strut HMMWV at 45 mph: stepping one step at a time and reading the
// roll rate the driver reads, the countersteer begins at the first step after the first ramp
// where |roll rate| <= 1.5 deg/s.
TEST(BatchDriver, FishhookCountersteerFollowsRollRate) {
  Batch batch = strut_batch();
  InitialCondition ic;
  ic.speed = 45.0 * 0.44704;
  batch.set_initial_conditions({ic});
  const double rate = 4.0 * kPi * steer_per_handwheel(17.0, hmmwv_params().max_steer);  // 720 deg/s handwheel
  const SteerProgram program = nhtsa_fishhook(0.45, rate, 0.5);
  batch.set_steer_program({program});
  const double dt = batch.options().step;
  double expected = -1.0, peak_rate = 0.0;
  for (int k = 0; k < 7000; ++k) {
    const double t = k * dt, p = batch.snapshots()[0].omega_body[0];
    peak_rate = std::max(peak_rate, std::fabs(p));
    if (expected < 0.0 && t - program.start_time >= program.amplitude / program.rate &&
        std::fabs(p) <= program.roll_rate_threshold) {
      expected = t;
    }
    batch.step(1);
  }
  const double event = driver_value(batch, driver::kEventTime);
  ASSERT_GT(expected, 0.0);
  EXPECT_NEAR(event, expected, 1.01 * dt);
  EXPECT_GT(event, program.start_time + program.amplitude / program.rate + 0.05);  // a real dwell
  EXPECT_GT(peak_rate, 3.0 * program.roll_rate_threshold);
  EXPECT_NEAR(metric(batch, metric::maneuver_end_time), event + 3.0 * program.amplitude / program.rate + 3.0,
              1.01 * dt);
  EXPECT_EQ(driver_value(batch, driver::kSteer), 0.0);
  std::printf("fishhook at 45 mph: countersteer at %.3f s (roll rate first <= 1.5 deg/s after the ramp: %.3f s), "
              "peak roll rate %.1f deg/s, max roll %.2f deg\n",
              event, expected, peak_rate / kDeg, metric(batch, metric::max_abs_roll) / kDeg);
}

// Straight-line braking is a table with a brake step: from 20 m/s the HMMWV stops, no shorter
// than friction allows (v^2 / (2 mu g)) and within twice that.
TEST(BatchDriver, StraightLineBrakingWithABrakeStep) {
  Batch batch = strut_batch();
  InitialCondition ic;
  ic.speed = 20.0;
  batch.set_initial_conditions({ic});
  batch.set_maneuvers({{{0.0, 0.0, 0.0, 0.0}, {1.0, 0.0, 0.0, 0.0}, {1.02, 0.0, 0.0, 1.0}}});
  batch.step(1000);
  const double x_brake = batch.snapshots()[0].position[0], v_brake = speed_of(batch.snapshots()[0]);
  batch.step(6000);
  const VehicleSnapshot end = batch.snapshots()[0];
  const double distance = end.position[0] - x_brake;
  const VehicleParams<double> p = hmmwv_params();
  const double ideal = v_brake * v_brake / (2.0 * (p.tire.mu + p.tire.rolling_resistance) * p.gravity);
  EXPECT_LT(speed_of(end), 0.05);
  EXPECT_GT(distance, ideal);
  EXPECT_LT(distance, 2.0 * ideal);
  EXPECT_NEAR(end.position[1], 0.0, 0.05);  // straight
  std::printf("braking from %.2f m/s: %.2f m (friction limit %.2f m)\n", v_brake, distance, ideal);
}

// Vehicles that differ (mass, CG height, friction), each with its own path and settings.
std::vector<VehicleParams<double>> varied_params(int count) {
  std::vector<VehicleParams<double>> params;
  for (int v = 0; v < count; ++v) {
    VehicleParams<double> p = hmmwv_params();
    const double u = static_cast<double>(v) / (count - 1);
    p.total_mass *= 0.9 + 0.2 * u;
    p.cg_height *= 0.85 + 0.3 * std::fmod(7.0 * u, 1.0);
    p.tire.mu *= 0.8 + 0.3 * std::fmod(3.0 * u, 1.0);
    finalize_vehicle_params(p);
    params.push_back(p);
  }
  return params;
}

void set_varied_drivers(Batch& batch, bool program) {
  const int n = batch.vehicle_count();
  std::vector<InitialCondition> initial(n);
  for (int v = 0; v < n; ++v) initial[v].speed = 12.0 + 0.5 * v;
  batch.set_initial_conditions(initial);
  if (program) {
    std::vector<SteerProgram> programs;
    for (int v = 0; v < n; ++v) {
      programs.push_back(v % 3 == 0   ? nhtsa_fishhook(0.2 + 0.02 * v, 1.5, 0.3)
                         : v % 3 == 1 ? sine_with_dwell(0.2 + 0.01 * v, 0.3)
                                      : step_steer(0.1 + 0.02 * v, 1.0, 0.3, 0.2));
    }
    batch.set_steer_program(programs);
  } else {
    std::vector<Path> paths = {circle_path(25.0, 10.0), iso3888_1_path(13.0), iso3888_2_path(2.16, 12.0)};
    std::vector<int> which(n);
    std::vector<PathDriverSettings> settings(n);
    for (int v = 0; v < n; ++v) {
      which[v] = v % 3;
      settings[v].tracker = v % 2 ? PathTracker::Stanley : PathTracker::PurePursuit;
      settings[v].lookahead_base = 3.0 + 0.2 * v;
      settings[v].max_steer_rate = v % 4 == 0 ? 2.0 : 0.0;
    }
    batch.set_path_driver(paths, which, settings);
  }
}

struct RunResult {
  std::vector<double> state, metrics, driver;
};

RunResult run_varied(int vehicles, bool program, bool simd, int threads, Precision precision = Precision::Fp64) {
  BatchOptions options = test::cpu_options(precision);
  options.cpu_simd = simd;
  options.cpu_threads = threads;
  std::vector<VehicleParams<double>> params = varied_params(13);
  params.resize(static_cast<size_t>(vehicles));
  Batch batch(params, vehicles, TerrainSpec{}, options);
  set_varied_drivers(batch, program);
  batch.step(6000);
  return {batch.state(), batch.metrics(), batch.driver_state()};
}

// One vehicle's column of a [fields][n] array.
std::vector<double> column(const std::vector<double>& soa, int n, int v) {
  std::vector<double> c;
  for (size_t j = 0; j < soa.size() / n; ++j) c.push_back(soa[j * n + v]);
  return c;
}

// A vehicle's result depends only on itself: bitwise the same in a batch of 13 (SIMD lanes, the
// last group padded) as in the first 5 (a different padding), and with 1 or 2 threads; and the
// lanes agree with the scalar path (the GPU's code) to round-off: the drivers run the same
// scalar code in both, on states that differ only by multiply-add contraction.
TEST(BatchDriver, SimdLanesAndBatchSizeAndThreads) {
  for (bool program : {false, true}) {
    const RunResult lanes = run_varied(13, program, true, 1);
    const RunResult lanes_threads = run_varied(13, program, true, 2);
    const RunResult lanes_small = run_varied(5, program, true, 1);
    const RunResult scalar = run_varied(13, program, false, 1);
    const RunResult scalar_small = run_varied(5, program, false, 2);
    EXPECT_EQ(lanes.state, lanes_threads.state);
    EXPECT_EQ(lanes.metrics, lanes_threads.metrics);
    EXPECT_EQ(lanes.driver, lanes_threads.driver);
    double worst = 0.0, worst_metric = 0.0;
    bool bitwise = true;
    for (int v = 0; v < 13; ++v) {
      if (v < 5) {
        EXPECT_EQ(column(lanes.state, 13, v), column(lanes_small.state, 5, v)) << "vehicle " << v;
        EXPECT_EQ(column(lanes.driver, 13, v), column(lanes_small.driver, 5, v)) << "vehicle " << v;
        EXPECT_EQ(column(scalar.state, 13, v), column(scalar_small.state, 5, v)) << "vehicle " << v;
      }
      const std::vector<double> a = column(lanes.state, 13, v), b = column(scalar.state, 13, v);
      for (int j = 0; j < 3; ++j) worst = std::max(worst, std::fabs(a[j] - b[j]));
      const std::vector<double> ma = column(lanes.metrics, 13, v), mb = column(scalar.metrics, 13, v);
      for (size_t j = 0; j < ma.size(); ++j) worst_metric = std::max(worst_metric, std::fabs(ma[j] - mb[j]));
      bitwise = bitwise && a == b && ma == mb;
    }
    EXPECT_LT(worst, 1e-6);
    EXPECT_LT(worst_metric, 1e-6);
    std::printf("%s, 13 vehicles x 6 s: lanes vs scalar worst position difference %.3e m, metric %.3e (%s)\n",
                program ? "steer programs" : "path drivers", worst, worst_metric,
                bitwise ? "bitwise equal" : "round-off");
  }
}

// Resetting with set_initial_conditions replays a driven run bit for bit (driver state reset:
// the hint searches afresh, the integrator and the countersteer time start over).
TEST(BatchDriver, ResetReplaysBitwise) {
  for (bool program : {false, true}) {
    Batch batch(varied_params(13), 13, TerrainSpec{}, test::cpu_options());
    set_varied_drivers(batch, program);
    batch.step(3000);
    const std::vector<double> first = batch.state(), first_metrics = batch.metrics();
    const std::vector<double> first_driver = batch.driver_state();
    set_varied_drivers(batch, program);
    batch.step(3000);
    EXPECT_EQ(batch.state(), first);
    EXPECT_EQ(batch.metrics(), first_metrics);
    EXPECT_EQ(batch.driver_state(), first_driver);
  }
}

// Open loop does no driver work: no driver state exists, the driver metrics keep their -1,
// and going back to tables after a driver gives the open-loop result exactly.
TEST(BatchDriver, OpenLoopModesAreUntouched) {
  const Maneuver table = {{0.0, 0.0, 0.3, 0.0}, {1.0, 0.3, 0.3, 0.0}, {3.0, 0.3, 0.0, 0.0}};
  Batch plain = strut_batch(3);
  InitialCondition ic;
  ic.speed = 12.0;
  plain.set_initial_conditions({ic});
  plain.set_maneuvers({table});
  plain.step(3000);
  EXPECT_TRUE(plain.driver_state().empty());
  for (int m : {metric::max_path_deviation, metric::path_progress, metric::maneuver_end_time}) {
    EXPECT_EQ(metric(plain, m), -1.0);
  }
  Batch switched = strut_batch(3);
  switched.set_path_driver({circle_path(20.0, 5.0)});
  switched.step(500);
  switched.set_initial_conditions({ic});
  switched.set_maneuvers({table});
  switched.step(3000);
  EXPECT_EQ(switched.state(), plain.state());
  EXPECT_EQ(switched.metrics(), plain.metrics());
  switched.set_inputs({{0.1, 0.2, 0.0}});
  plain.set_inputs({{0.1, 0.2, 0.0}});
  switched.step(100);
  plain.step(100);
  EXPECT_EQ(switched.state(), plain.state());
}

// fp32 follows the same circle (the path and the positions relative to per-vehicle origins
// keep fp32 differences small) within 1 cm of fp64's lateral error.
TEST(BatchDriver, Fp32TracksFp64OnTheCircle) {
  Batch fp64 = strut_batch(1, test::cpu_options(Precision::Fp64));
  Batch fp32 = strut_batch(1, test::cpu_options(Precision::Fp32));
  const CircleRun a = run_circle(fp64, 30.0, 8.0, 10.0, 2.0), b = run_circle(fp32, 30.0, 8.0, 10.0, 2.0);
  EXPECT_NEAR(a.mean_lateral, b.mean_lateral, 0.01);
  EXPECT_LT(b.worst_lateral, 0.3);
}

// ---- the ce model -----------------------------------------------------------------------------

// The ce HMMWV (Pitman steering: the normalized steer turns the Pitman arm) follows the same
// circle: its steering geometry is the linkage's slope at centre.
TEST(BatchDriver, CeFollowsCircle) {
  BatchOptions options = test::cpu_options();
  options.step = 2.0e-3;
  const CeParams<double> p = hmmwv_ce_params();
  const DriverGeometry<double> g = CeModel::driver_geometry(p);
  const double full = 0.5 * (28.1 + 24.8) * kDeg;  // docs/models/ce.md: road wheels at full input
  EXPECT_GT(g.steer_gain, 0.8 * full);
  EXPECT_LT(g.steer_gain, 1.2 * full);
  EXPECT_NEAR(g.front_axle_x - g.rear_axle_x, 3.302, 0.05);  // the strut HMMWV's wheelbase
  Batch batch({p}, 1, TerrainSpec{}, options);
  const CircleRun r = run_circle(batch, 30.0, 8.0, 10.0, 10.0);
  EXPECT_LT(r.worst_lateral, 0.3);
  EXPECT_LT(r.worst_speed_error, 0.3);
  std::printf("ce, pure pursuit, R 30 m at 8 m/s: |lateral| <= %.4f m (mean %.4f), |speed error| <= %.4f m/s; "
              "steer gain %.4f rad per unit input, wheelbase %.4f m\n",
              r.worst_lateral, r.mean_lateral, r.worst_speed_error, g.steer_gain, g.front_axle_x - g.rear_axle_x);
}

// ---- bad arguments ----------------------------------------------------------------------------

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(BatchDriver, BadArgumentsNameTheField) {
  Batch batch = strut_batch(4);
  const Path good = polyline({{0, 0}, {10, 0}});
  EXPECT_EQ(error_of([&] { batch.set_path_driver({}); }), "path driver: at least one path is required");
  EXPECT_EQ(error_of([&] { batch.set_path_driver({polyline({{0, 0}})}); }),
            "path 0: an open path needs at least 2 points, got 1");
  EXPECT_EQ(error_of([&] { batch.set_path_driver({good, polyline({{0, 0}, {1, 0}}, true)}); }),
            "path 1: a closed path needs at least 3 points, got 2");
  EXPECT_EQ(error_of([&] { batch.set_path_driver({polyline({{0, 0}, {5, 0}, {5, 0}})}); }),
            "path 0 point 2: within 1 mm of point 1 (consecutive points must differ)");
  EXPECT_EQ(error_of([&] { batch.set_path_driver({polyline({{0, 0}, {5, 0}, {5, 5}, {0, 0}}, true)}); }),
            "path 0 point 3: a closed path's last point must not repeat its first (the closing segment is implied)");
  Path bad_speed = good;
  bad_speed.points[1].speed = -1.0;
  EXPECT_EQ(error_of([&] { batch.set_path_driver({bad_speed}); }), "path 0 point 1: speed must be >= 0 m/s, got -1");
  Path nan_point = good;
  nan_point.points[0].y = NAN;
  EXPECT_EQ(error_of([&] { batch.set_path_driver({nan_point}); }), "path 0 point 0: x, y and speed must be finite");
  EXPECT_EQ(error_of([&] { batch.set_path_driver({good}, {0, 0}); }),
            "path driver: vehicle_path must have one entry per vehicle (4), got 2");
  EXPECT_EQ(error_of([&] { batch.set_path_driver({good}, {0, 0, 1, 0}); }),
            "path driver: vehicle 2 follows path 1, but there is 1 path");
  PathDriverSettings s;
  s.lookahead_base = 0.0;
  EXPECT_EQ(error_of([&] { batch.set_path_driver({good}, {}, {s}); }),
            "path driver settings (all vehicles): lookahead_base must be > 0 m, got 0");
  std::vector<PathDriverSettings> four(4);
  four[3].speed_ki = -0.1;
  EXPECT_EQ(error_of([&] { batch.set_path_driver({good}, {}, four); }),
            "path driver settings (vehicle 3): speed_ki must be >= 0 1/m, got -0.1");
  EXPECT_EQ(error_of([&] { batch.set_path_driver({good}, {}, {s, s}); }),
            "path driver settings: expected 1 or 4 entries, got 2");
  std::vector<SteerProgram> programs(4, nhtsa_fishhook(0.3, 1.5));
  programs[1].amplitude = 1.5;
  EXPECT_EQ(error_of([&] { batch.set_steer_program(programs); }),
            "steer program (vehicle 1): amplitude must be >= -1 and <= 1, got 1.5");
  SteerProgram slow = sine_with_dwell(0.3);
  slow.frequency = 0.0;
  EXPECT_EQ(error_of([&] { batch.set_steer_program({slow}); }),
            "steer program (all vehicles): frequency must be > 0 Hz, got 0");
  SteerProgram ramp = j_turn(0.3, 0.0);
  EXPECT_EQ(error_of([&] { batch.set_steer_program({ramp}); }),
            "steer program (all vehicles): rate must be > 0 1/s, got 0");
  EXPECT_TRUE(batch.driver_state().empty());  // nothing was set
}

// ---- CUDA against the CPU ---------------------------------------------------------------------

TEST(BatchDriver, CudaMatchesCpu) {
  std::string why;
  if (!cuda_available(&why)) GTEST_SKIP() << why;
  for (bool program : {false, true}) {
    std::vector<std::vector<double>> states, metrics, drivers;
    for (BackendKind backend : {BackendKind::Cpu, BackendKind::Cuda}) {
      BatchOptions options = test::cpu_options();
      options.backend = backend;
      Batch batch(varied_params(13), 13, TerrainSpec{}, options);
      set_varied_drivers(batch, program);
      batch.step(6000);
      states.push_back(batch.state());
      metrics.push_back(batch.metrics());
      drivers.push_back(batch.driver_state());
    }
    double worst = 0.0;
    for (int v = 0; v < 13; ++v) {
      for (int j = 0; j < 3; ++j) {
        const size_t k = static_cast<size_t>(j) * 13 + v;
        worst = std::max(worst, std::fabs(states[0][k] - states[1][k]));
      }
    }
    EXPECT_LT(worst, 1e-6);
    for (size_t k = 0; k < metrics[0].size(); ++k) {
      EXPECT_NEAR(metrics[0][k], metrics[1][k], 1e-6 * std::max(1.0, std::fabs(metrics[0][k]))) << "metric entry " << k;
    }
    std::printf("CUDA vs CPU, %s: worst position difference %.3e m\n", program ? "programs" : "paths", worst);
  }
}

}  // namespace
}  // namespace fleetdyn
