// Seed 002: tethered bodies. Each step of the PGS solver must equal the seed's LCP
//   0 <= p perp G^T M^-1 G p + G^T (v + M^-1 p_app) + psi / h >= 0
// solved directly. The reference here is independent of the solver: its Jacobian comes from
// finite differences of psi (the tether's slack) along each velocity degree of freedom, and the
// LCP is solved by exhaustive enumeration of the active sets (tiny problems: at most 8 tethers,
// 256 sets), each set by a complete orthogonal decomposition (so semi-definite G^T M^-1 G too).
// Where G^T M^-1 G is only semi-definite (duplicate tethers, more tethers than a body has
// degrees of freedom) lambda is not unique but the velocity is (the seed's w-uniqueness): those
// cases compare velocities only.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <vector>

#include "fleetdyn/pgs.h"
#include "fleetdyn/physics/core/math.h"
#include "tests/pgs_test_util.h"

namespace fleetdyn {
namespace {

using V = Vec3<double>;
using Vec = Eigen::VectorXd;  // dynamic sizes: GCC 12 warns falsely on AVX fixed-size 3-vectors
using Mat = Eigen::MatrixXd;

struct Tether {
  int a, b;
  V anchor_a, anchor_b;
  double slack;  // [m] length - initial distance (0: taut)
};

PgsModelDef tethered(const std::vector<PgsBodyDef>& bodies, const std::vector<Tether>& tethers) {
  PgsModelDef m;
  m.ground.enabled = false;
  m.gravity = {0.0, 0.0, -9.81};
  m.bodies = bodies;
  for (const Tether& t : tethers) {
    PgsJointDef j;
    j.kind = pgs::JointKind::Tether;
    j.body_a = t.a;
    j.body_b = t.b;
    j.anchor_a = t.anchor_a;
    j.anchor_b = t.anchor_b;
    auto point = [&](int body, V anchor) {
      if (body < 0) return anchor;
      const PgsBodyDef& d = bodies[static_cast<size_t>(body)];
      return d.position + rotation_matrix(normalized(d.orientation)) * anchor;
    };
    j.length = norm(point(t.b, t.anchor_b) - point(t.a, t.anchor_a)) + t.slack;
    m.joints.push_back(j);
  }
  return m;
}

// psi = length - |p_b - p_a| of every tether for the given body states.
Vec slacks(const PgsModelDef& m, const std::vector<PgsBodyState>& s) {
  Vec psi(static_cast<int>(m.joints.size()));
  for (size_t k = 0; k < m.joints.size(); ++k) {
    const PgsJointDef& j = m.joints[k];
    auto point = [&](int body, V anchor) {
      if (body < 0) return anchor;
      return s[static_cast<size_t>(body)].position + rotation_matrix(s[static_cast<size_t>(body)].orientation) * anchor;
    };
    psi(static_cast<int>(k)) = j.length - norm(point(j.body_b, j.anchor_b) - point(j.body_a, j.anchor_a));
  }
  return psi;
}

// G^T by central differences: column (6 i + k) is d psi / d(displacement of body i along DOF k),
// a translation along world axis k (k < 3) or a rotation about world axis k - 3.
Mat jacobian(const PgsModelDef& m, const std::vector<PgsBodyState>& s) {
  const int rows = static_cast<int>(m.joints.size()), dofs = 6 * static_cast<int>(s.size());
  Mat J(rows, dofs);
  const double eps = 1.0e-6;
  for (int c = 0; c < dofs; ++c) {
    std::vector<PgsBodyState> plus = s, minus = s;
    const int body = c / 6, k = c % 6;
    V e{k % 3 == 0 ? 1.0 : 0.0, k % 3 == 1 ? 1.0 : 0.0, k % 3 == 2 ? 1.0 : 0.0};
    if (k < 3) {
      plus[static_cast<size_t>(body)].position += eps * e;
      minus[static_cast<size_t>(body)].position -= eps * e;
    } else {
      plus[static_cast<size_t>(body)].orientation = quat_from_axis_angle(e, eps) * s[static_cast<size_t>(body)].orientation;
      minus[static_cast<size_t>(body)].orientation = quat_from_axis_angle(e, -eps) * s[static_cast<size_t>(body)].orientation;
    }
    J.col(c) = (slacks(m, plus) - slacks(m, minus)) / (2.0 * eps);
  }
  return J;
}

struct LcpSolution {
  Vec lambda;
  bool found = false;
  int active = 0;
  int active_rank = 0;  // rank of A on the active set: below `active` where lambda is not unique
};

// 0 <= lambda perp A lambda + q >= 0 by enumerating active sets, the largest sets first, each
// solved for its minimum-norm lambda: where rows are dependent this splits the impulse evenly
// among them (PGS, visiting rows in turn, does not), a different solution of the same LCP.
LcpSolution enumerate_lcp(const Mat& A, const Vec& q) {
  const int n = static_cast<int>(q.size());
  const double tol = 1.0e-10 * (1.0 + q.cwiseAbs().maxCoeff());
  std::vector<int> sets;
  for (int set = 0; set < (1 << n); ++set) sets.push_back(set);
  std::stable_sort(sets.begin(), sets.end(), [](int a, int b) { return __builtin_popcount(a) > __builtin_popcount(b); });
  for (int set : sets) {
    std::vector<int> idx;
    for (int i = 0; i < n; ++i)
      if (set & (1 << i)) idx.push_back(i);
    Vec lambda = Vec::Zero(n);
    int rank = 0;
    if (!idx.empty()) {
      const int k = static_cast<int>(idx.size());
      Mat Ass(k, k);
      Vec qs(k);
      for (int r = 0; r < k; ++r) {
        qs(r) = q(idx[static_cast<size_t>(r)]);
        for (int c = 0; c < k; ++c) Ass(r, c) = A(idx[static_cast<size_t>(r)], idx[static_cast<size_t>(c)]);
      }
      const auto cod = Ass.completeOrthogonalDecomposition();
      rank = static_cast<int>(cod.rank());
      const Vec ls = cod.solve(-qs);
      for (int r = 0; r < k; ++r) lambda(idx[static_cast<size_t>(r)]) = ls(r);
    }
    const Vec w = A * lambda + q;
    bool ok = true;
    for (int i = 0; i < n && ok; ++i) {
      const bool in = (set & (1 << i)) != 0;
      ok = in ? (lambda(i) >= -tol && std::fabs(w(i)) <= tol) : (w(i) >= -tol);
    }
    if (ok) return {lambda, true, static_cast<int>(idx.size()), rank};
  }
  return {};
}

Mat inverse_mass(const PgsModelDef& m, const std::vector<PgsBodyState>& s) {
  const int n = static_cast<int>(s.size());
  Mat Minv = Mat::Zero(6 * n, 6 * n);
  for (int i = 0; i < n; ++i) {
    const PgsBodyDef& d = m.bodies[static_cast<size_t>(i)];
    const Mat3<double> r = rotation_matrix(s[static_cast<size_t>(i)].orientation);
    Mat R(3, 3), D = Mat::Zero(3, 3);
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b) R(a, b) = r.m[a][b];
    D(0, 0) = 1.0 / d.inertia.x;
    D(1, 1) = 1.0 / d.inertia.y;
    D(2, 2) = 1.0 / d.inertia.z;
    Minv.block(6 * i, 6 * i, 3, 3) = Mat::Identity(3, 3) / d.mass;
    Minv.block(6 * i + 3, 6 * i + 3, 3, 3) = R * D * R.transpose();
  }
  return Minv;
}

// v + M^-1 p_app: gravity and the gyroscopic torque -omega x (I omega), over one step.
Vec free_velocity(const PgsModelDef& m, const std::vector<PgsBodyState>& s, double h) {
  const int n = static_cast<int>(s.size());
  const Mat Minv = inverse_mass(m, s);
  Vec v(6 * n), p(6 * n);
  for (int i = 0; i < n; ++i) {
    const PgsBodyState& b = s[static_cast<size_t>(i)];
    const PgsBodyDef& d = m.bodies[static_cast<size_t>(i)];
    v.segment(6 * i, 3) = Vec{{b.velocity.x, b.velocity.y, b.velocity.z}};
    v.segment(6 * i + 3, 3) = Vec{{b.omega.x, b.omega.y, b.omega.z}};
    const Mat Iinv = Minv.block(6 * i + 3, 6 * i + 3, 3, 3);
    const Vec w = v.segment(6 * i + 3, 3);
    const Vec l = Iinv.inverse() * w;
    const V torque = -cross(V{w(0), w(1), w(2)}, V{l(0), l(1), l(2)});
    p.segment(6 * i, 3) = h * d.mass * Vec{{m.gravity.x, m.gravity.y, m.gravity.z}};
    p.segment(6 * i + 3, 3) = h * Vec{{torque.x, torque.y, torque.z}};
  }
  return v + Minv * p;
}

Vec pgs_velocity(const std::vector<PgsBodyState>& s) {
  Vec v(6 * static_cast<int>(s.size()));
  for (size_t i = 0; i < s.size(); ++i) {
    const int o = 6 * static_cast<int>(i);
    v.segment(o, 3) = Vec{{s[i].velocity.x, s[i].velocity.y, s[i].velocity.z}};
    v.segment(o + 3, 3) = Vec{{s[i].omega.x, s[i].omega.y, s[i].omega.z}};
  }
  return v;
}

PgsBodyDef body(double mass, V inertia, V position, Quat<double> q, V velocity, V omega) {
  PgsBodyDef b;
  b.mass = mass;
  b.inertia = inertia;
  b.position = position;
  b.orientation = normalized(q);
  b.velocity = velocity;
  b.omega = omega;
  return b;
}

struct CaseResult {
  double max_velocity_error = 0.0, max_lambda_error = 0.0;
  int max_active = 0, min_active = 1 << 30, rows = 0;
  int max_rank_deficit = 0;           // largest (active rows - their rank) seen
  double max_pgs_lcp_residual = 0.0;  // max |min(lambda_pgs, A lambda_pgs + q)|
};

// Steps the batch; before each step builds and solves the reference LCP from the batch's state.
CaseResult run_case(const PgsModelDef& m, int steps) {
  PgsSolverSettings st = test::solver_settings(1.0e-2, 1.0e-12, 20000);
  st.warm_start = 1.0;
  PgsBatch batch(m, 1, st, {BackendKind::Cpu, Precision::Fp64, 1});
  CaseResult r;
  r.rows = batch.row_count();
  for (int k = 0; k < steps; ++k) {
    const auto s0 = batch.bodies(0);
    const Vec psi = slacks(m, s0);
    const Mat J = jacobian(m, s0);
    const Mat Minv = inverse_mass(m, s0);
    const Vec vstar = free_velocity(m, s0, st.step);
    Vec bias(psi.size());
    for (int i = 0; i < psi.size(); ++i) bias(i) = psi(i) >= 0.0 ? psi(i) / st.step : st.baumgarte * psi(i) / st.step;
    const Mat A = J * Minv * J.transpose();
    const Vec q = J * vstar + bias;
    const LcpSolution lcp = enumerate_lcp(A, q);
    EXPECT_TRUE(lcp.found) << "step " << k;
    if (!lcp.found) return r;
    const Vec vref = vstar + Minv * J.transpose() * lcp.lambda;
    batch.step(1);
    const PgsReport rep = batch.reports()[0];
    EXPECT_EQ(rep.status, pgs::kStatusOk) << "step " << k << " residual " << rep.residual_complementarity;
    const Vec v1 = pgs_velocity(batch.bodies(0));
    r.max_velocity_error = std::max(r.max_velocity_error, (v1 - vref).cwiseAbs().maxCoeff());
    const std::vector<double> l = batch.impulses(0);
    Vec lpgs(psi.size());
    for (int i = 0; i < psi.size(); ++i) lpgs(i) = l[static_cast<size_t>(i)];
    r.max_lambda_error = std::max(r.max_lambda_error, (lpgs - lcp.lambda).cwiseAbs().maxCoeff());
    // PGS's lambda solves the reference LCP itself: min(lambda, A lambda + q) = 0 row by row.
    r.max_pgs_lcp_residual = std::max(r.max_pgs_lcp_residual, lpgs.cwiseMin(A * lpgs + q).cwiseAbs().maxCoeff());
    r.max_active = std::max(r.max_active, lcp.active);
    r.min_active = std::min(r.min_active, lcp.active);
    r.max_rank_deficit = std::max(r.max_rank_deficit, lcp.active - lcp.active_rank);
  }
  return r;
}

// 40 steps of m against the direct LCP, printed: velocities and impulses agree to 1e-6.
CaseResult expect_matches_lcp(const PgsModelDef& m, const char* what) {
  const CaseResult r = run_case(m, 40);
  std::printf(
      "seed 002, %s: max |v_pgs - v_lcp| = %.3e, max |lambda_pgs - lambda_lcp| = %.3e N s, active %d..%d of %d\n", what,
      r.max_velocity_error, r.max_lambda_error, r.min_active, r.max_active, r.rows);
  EXPECT_LT(r.max_velocity_error, 1.0e-6);
  EXPECT_LT(r.max_lambda_error, 1.0e-6);
  return r;
}

const Quat<double> kTurn1{0.9, 0.1, -0.2, 0.3}, kTurn2{0.8, -0.3, 0.1, 0.2}, kTurn3{0.6, 0.2, 0.5, -0.1};

TEST(PgsTetherLcp, TwoBodiesSlackAndTautMatchTheDirectLcp) {
  // Body 0 hangs from a world anchor by a taut tether; body 1 hangs from body 0 by a slack one
  // and is thrown sideways, so the second tether goes taut during the run.
  const auto b0 = body(2.0, {0.10, 0.15, 0.12}, {0.0, 0.0, -1.0}, kTurn1, {0.3, 0.0, 0.0}, {0.5, -0.4, 0.8});
  const auto b1 = body(0.7, {0.02, 0.03, 0.025}, {0.2, 0.1, -1.8}, kTurn2, {1.5, -0.5, 0.0}, {-1.0, 0.6, 0.3});
  const PgsModelDef m = tethered({b0, b1}, {{-1, 0, {0.0, 0.0, 0.0}, {0.05, 0.0, 0.1}, 0.0},
                                            {0, 1, {0.0, 0.05, -0.1}, {0.02, 0.0, 0.08}, 0.05}});
  const CaseResult r = expect_matches_lcp(m, "two bodies");
  EXPECT_LT(r.max_pgs_lcp_residual, 1.0e-6);
  EXPECT_LT(r.min_active, r.max_active);  // the run passes through slack and taut
}

TEST(PgsTetherLcp, ThreeBodiesMatchTheDirectLcp) {
  const auto b0 = body(1.5, {0.08, 0.1, 0.12}, {0.0, 0.0, -1.0}, kTurn1, {0.0, 0.4, 0.0}, {0.2, 0.1, -0.3});
  const auto b1 = body(1.0, {0.05, 0.04, 0.06}, {0.6, 0.0, -1.2}, kTurn2, {0.5, 0.0, 0.5}, {0.0, 0.9, 0.2});
  const auto b2 = body(3.0, {0.2, 0.25, 0.15}, {0.3, 0.5, -1.9}, kTurn3, {-0.2, 0.3, -0.4}, {0.4, 0.0, 0.6});
  const PgsModelDef m = tethered({b0, b1, b2}, {{-1, 0, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.1}, 0.0},
                                                {-1, 1, {0.8, 0.0, 0.0}, {0.0, 0.05, 0.05}, 0.02},
                                                {0, 2, {0.05, 0.0, -0.1}, {0.0, 0.0, 0.2}, 0.0},
                                                {1, 2, {0.0, 0.0, -0.05}, {0.1, 0.0, 0.2}, 0.1}});
  const CaseResult r = expect_matches_lcp(m, "three bodies");
  EXPECT_GT(r.max_active, 0);
}

TEST(PgsTetherLcp, RedundantTethersGiveTheUniqueVelocity) {
  // w-uniqueness: a duplicated tether (two identical rows) and a body held by eight tethers
  // (more rows than its six degrees of freedom) make G^T M^-1 G singular; lambda splits
  // arbitrarily, the velocity does not.
  const auto b0 = body(2.0, {0.1, 0.12, 0.14}, {0.0, 0.0, -1.0}, kTurn1, {0.2, -0.1, -0.3}, {0.3, 0.2, -0.5});
  const auto b1 = body(1.0, {0.05, 0.06, 0.04}, {0.1, 0.0, -1.6}, kTurn2, {0.6, 0.2, -0.6}, {0.0, 0.4, 0.1});
  std::vector<Tether> tethers = {{0, 1, {0.0, 0.0, -0.1}, {0.0, 0.0, 0.1}, 0.0},
                                 {0, 1, {0.0, 0.0, -0.1}, {0.0, 0.0, 0.1}, 0.0}};
  for (int k = 0; k < 6; ++k) {
    const double a = 2.0 * kPi * k / 6.0;
    tethers.push_back({-1, 0, {0.5 * std::cos(a), 0.5 * std::sin(a), 0.2}, {0.1 * std::cos(a), 0.1 * std::sin(a), 0.05}, 0.0});
  }
  const PgsModelDef m = tethered({b0, b1}, tethers);
  const CaseResult r = run_case(m, 20);
  std::printf(
      "seed 002, redundant tethers (%d rows, 12 dofs): max |v_pgs - v_lcp| = %.3e, max |lambda_pgs - "
      "lambda_enum| = %.3e N s, PGS lambda's LCP residual %.3e, active %d..%d\n",
      r.rows, r.max_velocity_error, r.max_lambda_error, r.max_pgs_lcp_residual, r.min_active, r.max_active);
  EXPECT_LT(r.max_velocity_error, 1.0e-6);
  // Both impulse sets solve the same LCP yet differ: lambda is not unique, the velocity is.
  EXPECT_LT(r.max_pgs_lcp_residual, 1.0e-6);
  EXPECT_GT(r.max_lambda_error, 1.0e-3);
}

}  // namespace
}  // namespace fleetdyn
