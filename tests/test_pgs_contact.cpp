// Ground contact with Coulomb friction and restitution against closed forms:
//   - a box resting on four corner points: the normal impulses carry m g dt, nothing moves;
//   - sliding: the speed drops by mu g per second while sliding (circular cone, any direction);
//     the pyramid's independent tangent bounds give mu g along a tangent axis and sqrt(2) mu g
//     along the diagonal (its known anisotropy);
//   - an incline (gravity tilted by alpha): at rest when tan(alpha) < mu, else
//     a = g (sin(alpha) - mu cos(alpha));
//   - a ball dropped with restitution e leaves the ground at e times its impact speed, and
//     |lambda_t| <= mu lambda_n holds at every step throughout.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "fleetdyn/pgs.h"
#include "tests/pgs_test_util.h"

namespace fleetdyn {
namespace {

using V = Vec3<double>;
constexpr double kG = 9.81;

// A 2 kg box, half extents (0.2, 0.15, 0.1), on four bottom-corner point contacts.
PgsModelDef box_on_ground(double mu, V gravity, V velocity) {
  PgsModelDef m;
  m.gravity = gravity;
  PgsBodyDef box;
  box.mass = 2.0;
  const double a = 0.2, b = 0.15, c = 0.1;
  box.inertia = {box.mass * (b * b + c * c) / 3.0, box.mass * (a * a + c * c) / 3.0, box.mass * (a * a + b * b) / 3.0};
  box.position = {0.0, 0.0, c};
  box.velocity = velocity;
  m.bodies = {box};
  for (double sx : {-1.0, 1.0})
    for (double sy : {-1.0, 1.0}) {
      PgsContactDef corner;
      corner.body = 0;
      corner.offset = {sx * a, sy * b, -c};
      corner.friction = mu;
      m.contacts.push_back(corner);
    }
  return m;
}

PgsSolverSettings settings(pgs::FrictionCone cone) {
  PgsSolverSettings s = test::solver_settings(1.0e-3, 1.0e-11, 2000);
  s.cone = cone;
  return s;
}

// Worst |lambda_t| - mu lambda_n over the contacts (pair magnitude for the cone).
double friction_excess(const std::vector<double>& l, double mu, pgs::FrictionCone cone) {
  double worst = -1e30;
  for (size_t c = 0; c + 2 < l.size(); c += 3) {
    if (cone == pgs::FrictionCone::Circular) {
      worst = std::max(worst, std::hypot(l[c + 1], l[c + 2]) - mu * l[c]);
    } else {
      worst = std::max(worst, std::max(std::fabs(l[c + 1]), std::fabs(l[c + 2])) - mu * l[c]);
    }
  }
  return worst;
}

TEST(PgsContact, BoxRestsOnFourCorners) {
  PgsBatch batch(box_on_ground(0.5, {0.0, 0.0, -kG}, {0.0, 0.0, 0.0}), 1, settings(pgs::FrictionCone::Circular),
                 {BackendKind::Cpu, Precision::Fp64, 1});
  double worst_load = 0.0, worst_speed = 0.0;
  for (int k = 0; k < 1000; ++k) {
    batch.step(1);
    const auto l = batch.impulses(0);
    const double total = l[0] + l[3] + l[6] + l[9];
    worst_load = std::max(worst_load, std::fabs(total / (2.0 * kG * 1.0e-3) - 1.0));
    worst_speed = std::max(worst_speed, norm(batch.bodies(0)[0].velocity));
    for (size_t c = 0; c < l.size(); c += 3) EXPECT_GE(l[c], 0.0);
  }
  const PgsReport rep = batch.reports()[0];
  std::printf("resting box: |sum lambda_n / (m g dt) - 1| %.2e, max speed %.2e m/s, penetration %.2e m, sweeps %d\n",
              worst_load, worst_speed, rep.penetration, rep.iterations);
  EXPECT_LT(worst_load, 1.0e-9);
  EXPECT_LT(worst_speed, 1.0e-9);
  EXPECT_LT(rep.penetration, 1.0e-9);
}

// Deceleration while sliding from 2 m/s along `direction` for 0.2 s.
double deceleration(pgs::FrictionCone cone, V direction, double mu) {
  const V v0 = 2.0 * direction;
  PgsBatch batch(box_on_ground(mu, {0.0, 0.0, -kG}, v0), 1, settings(cone), {BackendKind::Cpu, Precision::Fp64, 1});
  for (int k = 0; k < 200; ++k) {
    batch.step(1);
    EXPECT_LE(friction_excess(batch.impulses(0), mu, cone), 1.0e-12);
  }
  const V v = batch.bodies(0)[0].velocity;
  return (dot(v0, direction) - dot(v, direction)) / 0.2;
}

TEST(PgsContact, SlidingDecelerationCircularConeAndPyramid) {
  const double mu = 0.5;
  const V along{1.0, 0.0, 0.0}, diagonal{std::sqrt(0.5), std::sqrt(0.5), 0.0};
  const double cone_axis = deceleration(pgs::FrictionCone::Circular, along, mu);
  const double cone_diag = deceleration(pgs::FrictionCone::Circular, diagonal, mu);
  const double pyr_axis = deceleration(pgs::FrictionCone::Pyramid, along, mu);
  const double pyr_diag = deceleration(pgs::FrictionCone::Pyramid, diagonal, mu);
  std::printf("sliding deceleration / (mu g): cone axis %.6f diagonal %.6f; pyramid axis %.6f diagonal %.6f\n",
              cone_axis / (mu * kG), cone_diag / (mu * kG), pyr_axis / (mu * kG), pyr_diag / (mu * kG));
  EXPECT_NEAR(cone_axis / (mu * kG), 1.0, 1.0e-6);
  EXPECT_NEAR(cone_diag / (mu * kG), 1.0, 1.0e-6);
  EXPECT_NEAR(pyr_axis / (mu * kG), 1.0, 1.0e-6);
  EXPECT_NEAR(pyr_diag / (mu * kG), std::sqrt(2.0), 1.0e-6);
}

TEST(PgsContact, InclineSticksBelowTheFrictionAngleAndSlidesAbove) {
  const double mu = 0.5;
  for (double tan_alpha : {0.4, 0.7}) {
    const double alpha = std::atan(tan_alpha);
    const V g{kG * std::sin(alpha), 0.0, -kG * std::cos(alpha)};
    PgsBatch batch(box_on_ground(mu, g, {0.0, 0.0, 0.0}), 1, settings(pgs::FrictionCone::Circular),
                   {BackendKind::Cpu, Precision::Fp64, 1});
    batch.step(500);
    const double v = batch.bodies(0)[0].velocity.x;
    const double expected = tan_alpha < mu ? 0.0 : kG * (std::sin(alpha) - mu * std::cos(alpha)) * 0.5;
    std::printf("incline tan(alpha) = %.1f (mu %.1f): v(0.5 s) = %.9f m/s, expected %.9f\n", tan_alpha, mu, v, expected);
    EXPECT_NEAR(v, expected, 1.0e-8);
  }
}

TEST(PgsContact, RestitutionReturnsTheImpactSpeedTimesE) {
  for (double e : {0.5, 1.0}) {
    PgsModelDef m;
    PgsBodyDef ball;
    ball.mass = 0.5;
    ball.inertia = {0.002, 0.002, 0.002};
    ball.position = {0.0, 0.0, 1.1};
    m.bodies = {ball};
    PgsContactDef c;
    c.body = 0;
    c.radius = 0.1;
    c.friction = 0.3;
    c.restitution = e;
    m.contacts = {c};
    PgsBatch batch(m, 1, settings(pgs::FrictionCone::Circular), {BackendKind::Cpu, Precision::Fp64, 1});
    double before = 0.0, after = 0.0, apex = 0.0;
    bool bounced = false;
    for (int k = 0; k < 1500; ++k) {
      const double v0 = batch.bodies(0)[0].velocity.z;
      batch.step(1);
      const auto s = batch.bodies(0);
      if (!bounced && v0 < 0.0 && s[0].velocity.z > 0.0) {
        bounced = true;
        before = v0;
        after = s[0].velocity.z;
      }
      if (bounced) apex = std::max(apex, s[0].position.z - 0.1);
    }
    std::printf("restitution e = %.1f: impact %.6f m/s, rebound %.6f m/s (ratio %.9f), apex %.4f m of 1 m\n", e, before,
                after, -after / before, apex);
    ASSERT_TRUE(bounced);
    EXPECT_NEAR(-after / before, e, 1.0e-9);
    // The apex follows from the rebound speed (e^2 h, within the step's travel |v| dt).
    EXPECT_NEAR(apex, e * e * 1.0, std::fabs(before) * 1.0e-3 * 2.0 + 1.0e-3);
  }
}

}  // namespace
}  // namespace fleetdyn
