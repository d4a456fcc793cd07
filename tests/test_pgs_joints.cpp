// Joint kinds against analytic motion. Each joint is a pendulum or slider whose free motion has
// a closed form; the constrained directions must stay constrained:
//   revolute, ball, weld (3-D), revolute (2-D): compound pendulum period 2 pi sqrt(I_p / (m g l))
//     times the finite-amplitude factor 1 + theta0^2 / 16 + 11 theta0^4 / 3072
//   distance: a body on a massless rod from its COM: 2 pi sqrt(l / g), its own spin free
//   prismatic on an incline: s_n = -g sin(alpha) dt^2 n (n + 1) / 2, the semi-implicit Euler
//     sequence of s'' = -g sin(alpha) (exact: the rows are linear in the position)
//   universal: the relative spin about a x b is removed, a . b stays 0 within the drift.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "fleetdyn/pgs.h"
#include "fleetdyn/physics/core/math.h"
#include "tests/pgs_test_util.h"

namespace fleetdyn {
namespace {

using V = Vec3<double>;
constexpr double kG = 9.81;

PgsSolverSettings settings() { return test::solver_settings(1.0e-3, 1.0e-10, 500); }

// Mean period of the upward zero crossings of angle(t) over the run.
double measure_period(PgsBatch& batch, double seconds, double (*angle)(const std::vector<PgsBodyState>&)) {
  const double dt = 1.0e-3;
  std::vector<double> crossings;
  double prev = angle(batch.bodies(0));
  const int steps = static_cast<int>(seconds / dt);
  for (int k = 1; k <= steps; ++k) {
    batch.step(1);
    const auto b = batch.bodies(0);
    EXPECT_EQ(batch.reports()[0].status, pgs::kStatusOk) << "step " << k;
    const double now = angle(b);
    if (prev < 0.0 && now >= 0.0) crossings.push_back(dt * (k - 1 + prev / (prev - now)));
    prev = now;
  }
  EXPECT_GE(crossings.size(), 3u);
  if (crossings.size() < 2) return 0.0;
  return (crossings.back() - crossings.front()) / static_cast<double>(crossings.size() - 1);
}

// Rotation angle about y of a body turned only about y.
double pitch_angle(const std::vector<PgsBodyState>& b) {
  return 2.0 * std::atan2(b[0].orientation.y, b[0].orientation.w);
}

// A pendulum body hanging below the origin, turned by theta0 about y; its COM at distance l.
PgsBodyDef hanging(double mass, V inertia, double l, double theta0) {
  PgsBodyDef b;
  b.mass = mass;
  b.inertia = inertia;
  b.orientation = quat_from_axis_angle(V{0.0, 1.0, 0.0}, theta0);
  b.position = rotation_matrix(b.orientation) * V{0.0, 0.0, -l};
  return b;
}

// The exact pendulum period's series in the amplitude theta0.
double amplitude_factor(double theta0) { return 1.0 + theta0 * theta0 / 16.0 + 11.0 * std::pow(theta0, 4) / 3072.0; }

double compound_period(double mass, double inertia, double l, double theta0) {
  return 2.0 * kPi * std::sqrt((inertia + mass * l * l) / (mass * kG * l)) * amplitude_factor(theta0);
}

// Semi-implicit Euler lengthens the period by about (omega dt)^2 / 24 (< 1e-6 here); the
// residual tolerance and Baumgarte add less. The bound on |T / T_exact - 1|:
constexpr double kPeriodTolerance = 2.0e-5;

TEST(PgsJoints, RevoluteAndBallPendulumsSwingAtTheCompoundPeriod) {
  const double m = 2.0, l = 0.5, theta0 = 0.05;
  const V inertia{0.03, 0.04, 0.02};
  const double expected = compound_period(m, inertia.y, l, theta0);
  for (pgs::JointKind kind : {pgs::JointKind::Revolute, pgs::JointKind::Ball}) {
    PgsModelDef model;
    model.ground.enabled = false;
    model.bodies = {hanging(m, inertia, l, theta0)};
    PgsJointDef j;
    j.kind = kind;
    j.body_a = -1;
    j.body_b = 0;
    j.anchor_b = {0.0, 0.0, l};
    j.axis_a = {0.0, 1.0, 0.0};
    j.axis_b = {0.0, 1.0, 0.0};
    model.joints = {j};
    PgsBatch batch(model, 1, settings(), {BackendKind::Cpu, Precision::Fp64, 1});
    const double period = measure_period(batch, 4.5, pitch_angle);
    std::printf("%s pendulum: period %.6f s, compound-pendulum %.6f s (rel. error %.2e), drift %.2e m\n",
                kind == pgs::JointKind::Revolute ? "revolute" : "ball", period, expected,
                std::fabs(period / expected - 1.0), batch.reports()[0].drift);
    EXPECT_NEAR(period / expected, 1.0, kPeriodTolerance);
  }
}

TEST(PgsJoints, WeldedPairSwingsAsOneBody) {
  // Body 0 hinged at the origin, COM l/2 below; body 1 welded to it, COM l below.
  const double m0 = 1.0, m1 = 3.0, l = 0.6, theta0 = 0.05;
  const V i0{0.02, 0.03, 0.01}, i1{0.05, 0.06, 0.04};
  PgsModelDef model;
  model.ground.enabled = false;
  model.bodies = {hanging(m0, i0, l / 2.0, theta0), hanging(m1, i1, l, theta0)};
  PgsJointDef hinge;
  hinge.kind = pgs::JointKind::Revolute;
  hinge.body_b = 0;
  hinge.anchor_b = {0.0, 0.0, l / 2.0};
  hinge.axis_a = {0.0, 1.0, 0.0};
  hinge.axis_b = {0.0, 1.0, 0.0};
  PgsJointDef weld;
  weld.kind = pgs::JointKind::Weld;
  weld.body_a = 0;
  weld.body_b = 1;
  weld.anchor_a = {0.0, 0.0, -l / 2.0};
  weld.anchor_b = {0.0, 0.0, 0.0};
  model.joints = {hinge, weld};
  PgsBatch batch(model, 1, settings(), {BackendKind::Cpu, Precision::Fp64, 1});
  const double ip = i0.y + m0 * l * l / 4.0 + i1.y + m1 * l * l;
  const double expected = 2.0 * kPi * std::sqrt(ip / (kG * (m0 * l / 2.0 + m1 * l))) * amplitude_factor(theta0);
  const double period = measure_period(batch, 4.5, pitch_angle);
  const auto b = batch.bodies(0);
  const double relative = 2.0 * std::atan2(b[1].orientation.y, b[1].orientation.w) - pitch_angle(b);
  std::printf(
      "welded pair: period %.6f s, one-body compound pendulum %.6f s (rel. error %.2e), relative rotation %.2e rad\n",
      period, expected, std::fabs(period / expected - 1.0), relative);
  EXPECT_NEAR(period / expected, 1.0, kPeriodTolerance);
  EXPECT_LT(std::fabs(relative), 1.0e-6);
}

TEST(PgsJoints, PlanarRevolutePendulum) {
  const double m = 1.5, l = 0.4, theta0 = 0.05, izz = 0.02;
  PgsModelDef model;
  model.dimension = 2;
  model.gravity = {0.0, -kG, 0.0};
  model.ground.enabled = false;
  PgsBodyDef b;
  b.mass = m;
  b.inertia = {1.0, 1.0, izz};
  b.orientation = quat_from_axis_angle(V{0.0, 0.0, 1.0}, theta0);
  b.position = rotation_matrix(b.orientation) * V{0.0, -l, 0.0};
  model.bodies = {b};
  PgsJointDef j;
  j.kind = pgs::JointKind::Revolute;
  j.body_b = 0;
  j.anchor_b = {0.0, l, 0.0};
  model.joints = {j};
  PgsBatch batch(model, 1, settings(), {BackendKind::Cpu, Precision::Fp64, 1});
  auto yaw = [](const std::vector<PgsBodyState>& s) { return 2.0 * std::atan2(s[0].orientation.z, s[0].orientation.w); };
  const double period = measure_period(batch, 4.0, yaw);
  const double expected = compound_period(m, izz, l, theta0);
  std::printf("2-D revolute pendulum: period %.6f s, compound-pendulum %.6f s (rel. error %.2e)\n", period, expected,
              std::fabs(period / expected - 1.0));
  EXPECT_NEAR(period / expected, 1.0, kPeriodTolerance);
}

TEST(PgsJoints, DistanceRodPendulumLeavesTheSpinFree) {
  const double l = 0.8, theta0 = 0.05;
  PgsModelDef model;
  model.ground.enabled = false;
  PgsBodyDef b;
  b.mass = 1.0;
  b.inertia = {0.01, 0.01, 0.01};
  b.position = {l * std::sin(theta0), 0.0, -l * std::cos(theta0)};
  b.omega = {0.0, 0.0, 7.0};  // a spin the rod must not feel
  model.bodies = {b};
  PgsJointDef j;
  j.kind = pgs::JointKind::Distance;
  j.body_b = 0;
  model.joints = {j};
  PgsBatch batch(model, 1, settings(), {BackendKind::Cpu, Precision::Fp64, 1});
  auto swing = [](const std::vector<PgsBodyState>& s) { return std::atan2(s[0].position.x, -s[0].position.z); };
  const double period = measure_period(batch, 6.0, swing);
  const double expected = 2.0 * kPi * std::sqrt(l / kG) * amplitude_factor(theta0);
  const double spin = batch.bodies(0)[0].omega.z;
  std::printf("distance rod: period %.6f s, 2 pi sqrt(l/g) %.6f s (rel. error %.2e), spin %.9f rad/s\n", period,
              expected, std::fabs(period / expected - 1.0), spin);
  EXPECT_NEAR(period / expected, 1.0, kPeriodTolerance);
  EXPECT_NEAR(spin, 7.0, 1.0e-9);
}

TEST(PgsJoints, PrismaticSliderOnAnInclineFollowsTheDiscreteFreeFall) {
  const double alpha = 0.3, dt = 1.0e-3;
  PgsModelDef model;
  model.ground.enabled = false;
  PgsBodyDef b;
  b.mass = 2.0;
  b.inertia = {0.1, 0.2, 0.3};
  b.orientation = normalized(Quat<double>{0.9, 0.1, 0.2, -0.1});
  model.bodies = {b};
  PgsJointDef j;
  j.kind = pgs::JointKind::Prismatic;
  j.body_b = 0;
  j.axis_a = {std::cos(alpha), 0.0, std::sin(alpha)};
  model.joints = {j};
  PgsBatch batch(model, 1, settings(), {BackendKind::Cpu, Precision::Fp64, 1});
  const int n = 500;
  batch.step(n);
  const auto s = batch.bodies(0);
  const V axis{std::cos(alpha), 0.0, std::sin(alpha)};
  const double along = dot(s[0].position, axis);
  const double expected = -kG * std::sin(alpha) * dt * dt * n * (n + 1) / 2.0;
  const double off_axis = norm(s[0].position - along * axis);
  const Quat<double> q = s[0].orientation;
  const double turn = std::fabs(q.x - b.orientation.x) + std::fabs(q.y - b.orientation.y) +
                      std::fabs(q.z - b.orientation.z);
  std::printf("prismatic incline: s = %.12f m, discrete free fall %.12f m, off-axis %.2e m, rotation change %.2e\n",
              along, expected, off_axis, turn);
  EXPECT_NEAR(along, expected, 1.0e-9);
  EXPECT_LT(off_axis, 1.0e-9);
  EXPECT_LT(turn, 1.0e-9);
}

TEST(PgsJoints, UniversalBlocksTheSpinAboutTheCrossAxis) {
  PgsModelDef model;
  model.ground.enabled = false;
  PgsBodyDef b;
  b.mass = 1.0;
  b.inertia = {0.02, 0.03, 0.015};
  b.position = {0.0, 0.0, -0.3};
  b.omega = {1.0, 1.5, 4.0};  // about x and y allowed, about z (= x cross y) not
  model.bodies = {b};
  PgsJointDef j;
  j.kind = pgs::JointKind::Universal;
  j.body_b = 0;
  j.anchor_b = {0.0, 0.0, 0.3};
  j.axis_a = {1.0, 0.0, 0.0};
  j.axis_b = {0.0, 1.0, 0.0};
  model.joints = {j};
  PgsBatch batch(model, 1, settings(), {BackendKind::Cpu, Precision::Fp64, 1});
  double worst_rate = 0.0, worst_cos = 0.0;
  batch.step(1);
  // First step, an impulsive start: the pivot's impulse keeps the angular momentum about the
  // pivot, I_k omega_k + dt tau_k = (I_k + m l^2) omega_k' for k = x, y (l = 0.3 m; tau the
  // gyroscopic torque -omega x I omega over the step), and the spin about z = a x b is removed.
  const V first = batch.bodies(0)[0].omega;
  const double ml2 = b.mass * 0.09, dt = 1.0e-3;
  const V w = b.omega;
  const V tau = -cross(w, V{b.inertia.x * w.x, b.inertia.y * w.y, b.inertia.z * w.z});
  EXPECT_NEAR(first.x, (b.inertia.x * w.x + dt * tau.x) / (b.inertia.x + ml2), 1.0e-9);
  EXPECT_NEAR(first.y, (b.inertia.y * w.y + dt * tau.y) / (b.inertia.y + ml2), 1.0e-9);
  EXPECT_NEAR(first.z, 0.0, 1.0e-9);
  for (int k = 1; k < 2000; ++k) {
    batch.step(1);
    const auto s = batch.bodies(0);
    const V a{1.0, 0.0, 0.0};
    const V bw = rotation_matrix(s[0].orientation) * V{0.0, 1.0, 0.0};
    const V cross_axis = (1.0 / norm(cross(a, bw))) * cross(a, bw);
    worst_rate = std::max(worst_rate, std::fabs(dot(s[0].omega, cross_axis)));
    worst_cos = std::max(worst_cos, std::fabs(dot(a, bw)));
    ASSERT_EQ(batch.reports()[0].status, pgs::kStatusOk);
  }
  const auto s = batch.bodies(0);
  std::printf(
      "universal: first step omega (%.6f, %.6f, %.2e) from (1, 1.5, 4); max |omega . (a x b)| %.2e rad/s, "
      "max |a . b| %.2e\n",
      first.x, first.y, first.z, worst_rate, worst_cos);
  // The velocity row is solved exactly each step; a . b drifts by the rotation over one step
  // (omega^2 dt^2 ~ 2e-5) and Baumgarte pulls it back.
  EXPECT_LT(worst_rate, 1.0e-3);
  EXPECT_LT(worst_cos, 1.0e-3);
}

}  // namespace
}  // namespace fleetdyn
