// Seed 003: two rigid bodies joined point-to-point. One PGS step of the velocity-level solver,
// with the ball rows targeting -dt (dJ/dt) v (PgsSolverSettings::velocity_product_term), is the
// seed's 15x15 acceleration-level system exactly: (v1 - v0) / dt are its accelerations and
// -lambda / dt its constraint force F (F acts on body 1 = body a, lambda's J^T puts -lambda on a).
// Then: constraint drift over a tumbling motion with and without Baumgarte stabilization.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>

#include "fleetdyn/pgs.h"
#include "tests/pgs_test_util.h"

namespace fleetdyn {
namespace {

using V = Vec3<double>;

// Dynamic-size Eigen types: GCC 12 reports false array-bounds errors on AVX fixed-size 3-vectors.
using Vec = Eigen::VectorXd;
using Mat = Eigen::MatrixXd;

Vec ev(V v) { return Vec{{v.x, v.y, v.z}}; }
V cross3(V a, V b) { return cross(a, b); }
Mat skew(V c) {
  Mat m(3, 3);
  m << 0, -c.z, c.y, c.z, 0, -c.x, -c.y, c.x, 0;
  return m;
}
Mat world_inertia(const PgsBodyDef& b) {
  const Mat3<double> r = rotation_matrix(normalized(b.orientation));
  Mat R(3, 3), D = Mat::Zero(3, 3);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) R(i, j) = r.m[i][j];
  D(0, 0) = b.inertia.x;
  D(1, 1) = b.inertia.y;
  D(2, 2) = b.inertia.z;
  return R * D * R.transpose();
}
V vv(const Vec& v) { return V{v(0), v(1), v(2)}; }

// Two bodies, non-isotropic, turned, spinning; body 2's velocity chosen so J v0 = 0.
PgsModelDef two_bodies(V c1_body, V c2_body) {
  PgsModelDef m;
  m.ground.enabled = false;
  m.gravity = {0.0, 0.0, -9.81};
  PgsBodyDef b1;
  b1.mass = 3.0;
  b1.inertia = {0.2, 0.35, 0.5};
  b1.orientation = normalized(Quat<double>{0.9, 0.2, -0.3, 0.1});
  b1.position = {0.0, 0.0, 1.0};
  b1.velocity = {0.4, -0.2, 0.1};
  b1.omega = {1.5, -2.0, 3.0};
  PgsBodyDef b2;
  b2.mass = 1.2;
  b2.inertia = {0.05, 0.08, 0.03};
  b2.orientation = normalized(Quat<double>{0.7, -0.1, 0.4, 0.3});
  b2.omega = {-2.5, 1.0, 4.0};
  const Mat3<double> r1 = rotation_matrix(b1.orientation), r2 = rotation_matrix(b2.orientation);
  const V c1 = r1 * c1_body, c2 = r2 * c2_body;
  b2.position = b1.position + c1 - c2;
  b2.velocity = b1.velocity + cross(b1.omega, c1) - cross(b2.omega, c2);
  m.bodies = {b1, b2};
  PgsJointDef j;
  j.kind = pgs::JointKind::Ball;
  j.body_a = 0;
  j.body_b = 1;
  j.anchor_a = c1_body;
  j.anchor_b = c2_body;
  m.joints = {j};
  return m;
}

TEST(PgsPointToPoint, OneStepEqualsTheSeed15x15DirectSolve) {
  const V c1_body{0.3, -0.1, 0.2}, c2_body{-0.15, 0.05, 0.25};
  const PgsModelDef m = two_bodies(c1_body, c2_body);
  PgsSolverSettings s;
  s.step = 1.0e-3;
  s.baumgarte = 0.0;
  s.warm_start = 0.0;
  s.velocity_product_term = true;
  s.tolerance = 1.0e-14;
  s.max_iterations = 2000;
  PgsBatch batch(m, 1, s, {BackendKind::Cpu, Precision::Fp64, 1});
  batch.step(1);
  const auto after = batch.bodies(0);
  const auto lambda = batch.impulses(0);
  const PgsReport rep = batch.reports()[0];
  EXPECT_EQ(rep.status, pgs::kStatusOk);
  std::printf("seed 003: PGS sweeps %d, residual %.3e m/s\n", rep.iterations, rep.residual_bilateral);

  // The seed's 15x15 system [m1 0 0 0 -1; 0 I1 0 0 -c1~; 0 0 m2 0 1; 0 0 0 I2 c2~; 1 -c1~ -1 c2~ 0].
  const PgsBodyDef& b1 = m.bodies[0];
  const PgsBodyDef& b2 = m.bodies[1];
  const V c1 = rotation_matrix(b1.orientation) * c1_body;
  const V c2 = rotation_matrix(b2.orientation) * c2_body;
  const Mat I1 = world_inertia(b1), I2 = world_inertia(b2), E = Mat::Identity(3, 3);
  const V w1 = b1.omega, w2 = b2.omega;
  Mat A = Mat::Zero(15, 15);
  Vec rhs(15);
  A.block(0, 0, 3, 3) = b1.mass * E;
  A.block(0, 12, 3, 3) = -E;
  A.block(3, 3, 3, 3) = I1;
  A.block(3, 12, 3, 3) = -skew(c1);
  A.block(6, 6, 3, 3) = b2.mass * E;
  A.block(6, 12, 3, 3) = E;
  A.block(9, 9, 3, 3) = I2;
  A.block(9, 12, 3, 3) = skew(c2);
  A.block(12, 0, 3, 3) = E;
  A.block(12, 3, 3, 3) = -skew(c1);
  A.block(12, 6, 3, 3) = -E;
  A.block(12, 9, 3, 3) = skew(c2);
  const V l1 = vv(I1 * ev(w1)), l2 = vv(I2 * ev(w2));
  rhs << ev(b1.mass * m.gravity), ev(-cross3(w1, l1)), ev(b2.mass * m.gravity), ev(-cross3(w2, l2)),
      ev(cross3(w2, cross3(w2, c2)) - cross3(w1, cross3(w1, c1)));
  const Vec x = A.fullPivLu().solve(rhs);

  const double dt = s.step;
  Vec pgs(15);
  pgs << ev((1.0 / dt) * (after[0].velocity - b1.velocity)), ev((1.0 / dt) * (after[0].omega - w1)),
      ev((1.0 / dt) * (after[1].velocity - b2.velocity)), ev((1.0 / dt) * (after[1].omega - w2)),
      ev((-1.0 / dt) * V{lambda[0], lambda[1], lambda[2]});
  const double err = (pgs - x).cwiseAbs().maxCoeff();
  std::printf("seed 003: max |PGS - direct| over a1, alpha1, a2, alpha2, F = %.3e (|F| = %.3f N)\n", err, x.tail(3).norm());
  for (int i = 0; i < 15; ++i) EXPECT_NEAR(pgs(i), x(i), 1.0e-9) << "unknown " << i;
  // The joint pulls: F is not the trivial solution (the bodies' spins load it).
  EXPECT_GT(x.tail(3).norm(), 1.0);
}

// Largest |p_b - p_a| over a run of the tumbling pair.
double max_drift(double baumgarte, double seconds) {
  const V c1_body{0.3, -0.1, 0.2}, c2_body{-0.15, 0.05, 0.25};
  PgsModelDef m = two_bodies(c1_body, c2_body);
  PgsSolverSettings s = test::solver_settings(1.0e-3, 1.0e-10, 200);
  s.baumgarte = baumgarte;
  PgsBatch batch(m, 1, s, {BackendKind::Cpu, Precision::Fp64, 1});
  double worst = 0.0;
  const int steps = static_cast<int>(seconds / s.step);
  for (int k = 0; k < steps; k += 10) {
    batch.step(10);
    const auto b = batch.bodies(0);
    const V pa = b[0].position + rotation_matrix(b[0].orientation) * c1_body;
    const V pb = b[1].position + rotation_matrix(b[1].orientation) * c2_body;
    worst = std::max(worst, norm(pb - pa));
    EXPECT_EQ(batch.reports()[0].status, pgs::kStatusOk);
  }
  return worst;
}

TEST(PgsPointToPoint, DriftGrowsWithoutStabilizationAndStaysBoundedWithBaumgarte) {
  const double free_drift = max_drift(0.0, 2.0);
  const double stabilized = max_drift(0.2, 2.0);
  // Each step the velocity-level row leaves a position error of about dt^2 |omega|^2 |c| (the
  // dropped centripetal term); Baumgarte removes the fraction beta per step, so the error
  // settles near dt^2 omega^2 |c| / beta. omega here is at most about 5 rad/s, |c| < 0.4 m.
  const double dt = 1.0e-3, omega = 5.0, c = 0.4;
  const double bound = 2.0 * dt * dt * omega * omega * c / 0.2;
  std::printf("seed 003 drift over 2 s: no stabilization %.3e m, Baumgarte 0.2 %.3e m (bound %.3e m)\n", free_drift,
              stabilized, bound);
  EXPECT_LT(stabilized, bound);
  EXPECT_GT(free_drift, 10.0 * stabilized);
}

}  // namespace
}  // namespace fleetdyn
