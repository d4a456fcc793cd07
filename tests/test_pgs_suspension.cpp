// Seed 000: the 2-D bar/wheel suspension. The socket (a kinematic body) moves at constant speed
// x_s(t) = u t over flat ground and a cosine bump; the bar slides vertically in it (prismatic:
// x_b = x_s, omega_b = 0), the wheel is pinned to the bar's lower end, a spring-damper acts
// between socket and bar, and the wheel touches the ground through a contact with Coulomb
// friction. Statements, every step of a 2 s run:
//   - bilateral rows hold (drift bounded, here the rows are linear in the positions),
//   - the wheel penetrates no more than the Baumgarte bias allows,
//   - lambda_n >= 0 and |lambda_t| <= mu lambda_n,
//   - the spring force obeys its law: the vertical momentum change of bar + wheel equals gravity,
//     the spring's k (L - L0) + c dL/dt evaluated here from the state, and the ground impulses,
//   - and at rest on the flat the wheel load is the weight plus the spring preload.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "fleetdyn/pgs.h"
#include "fleetdyn/physics/core/math.h"
#include "host/pgs/pgs_seed_models.h"
#include "tests/pgs_test_util.h"

namespace fleetdyn {
namespace {

using V = Vec3<double>;

using Suspension = PgsSeed000Params;

PgsModelDef suspension_model(const Suspension& p) { return pgs_seed000_suspension(p); }

// The test's own ground: height and slope of the cosine bump.
double ground_height(const Suspension& p, double x) {
  if (x <= p.bump_start || x >= p.bump_start + p.bump_length) return 0.0;
  return p.bump_height * (1.0 - std::cos(2.0 * kPi * (x - p.bump_start) / p.bump_length)) / 2.0;
}
double ground_slope(const Suspension& p, double x) {
  if (x <= p.bump_start || x >= p.bump_start + p.bump_length) return 0.0;
  const double k = 2.0 * kPi / p.bump_length;
  return p.bump_height * k * std::sin(k * (x - p.bump_start)) / 2.0;
}

TEST(PgsSuspension, SeedZeroOverABump) {
  const Suspension p;
  const PgsModelDef m = suspension_model(p);
  PgsSolverSettings s = test::solver_settings(1.0e-3, 1.0e-9, 500);
  s.baumgarte = 0.2;
  PgsBatch batch(m, 1, s, {BackendKind::Cpu, Precision::Fp64, 1});
  ASSERT_EQ(batch.row_count(), 6);  // slider 2, pin 2, contact normal + tangent
  const int normal = 4, tangent = 5;
  const double dt = s.step;
  // Penetration the bias allows: the gap is linearized each step, missing about dt^2 u^2 kappa / 2
  // where kappa is the curvature of the wheel centre's path (the ground's |h''| offset by the
  // radius: |h''| / (1 - R |h''|) in the hollows); the bias removes the fraction beta per step, so
  // the penetration settles below dt^2 u^2 kappa / (2 beta) (twice that as the bound).
  const double ground_curvature = p.bump_height / 2.0 * std::pow(2.0 * kPi / p.bump_length, 2);
  const double kappa = ground_curvature / (1.0 - p.wheel_radius * ground_curvature);
  const double allowed = dt * dt * p.u * p.u * kappa / s.baumgarte;
  double worst_drift = 0.0, worst_pen = 0.0, worst_balance = 0.0, worst_friction = 0.0, min_normal = 1e30;
  double max_normal = 0.0;
  int worst_sweeps = 0;
  const int steps = 2000;
  for (int k = 0; k < steps; ++k) {
    const auto b0 = batch.bodies(0);
    batch.step(1);
    const auto b1 = batch.bodies(0);
    const auto lambda = batch.impulses(0);
    const PgsReport rep = batch.reports()[0];
    ASSERT_EQ(rep.status, pgs::kStatusOk) << "step " << k;
    worst_drift = std::max(worst_drift, rep.drift);
    worst_pen = std::max(worst_pen, rep.penetration);
    worst_sweeps = std::max(worst_sweeps, rep.iterations);
    min_normal = std::min(min_normal, lambda[normal]);
    max_normal = std::max(max_normal, lambda[normal]);
    worst_friction = std::max(worst_friction, std::fabs(lambda[tangent]) - p.mu * lambda[normal]);
    // Spring law from the state at the start of the step: socket (0) to bar COM (1).
    const V d = b0[1].position - b0[0].position;
    const double len = norm(d);
    const V n = (1.0 / len) * d;
    const double rate = dot(n, b0[1].velocity - b0[0].velocity);
    const double tension = p.k * (len - p.rest_length) + p.c * rate;
    const double spring_y = -tension * n.y;
    // Ground impulse: normal and tangent (t = (n_y, -n_x)) at the ground point closest to the
    // wheel centre, found here by ternary search (the contact normal passes through the centre).
    const V c = b0[2].position;
    double lo = c.x - p.wheel_radius, hi = c.x + p.wheel_radius;
    auto dist2 = [&](double x) { return (x - c.x) * (x - c.x) + std::pow(ground_height(p, x) - c.y, 2); };
    for (int it = 0; it < 200; ++it) {
      const double m1 = lo + (hi - lo) / 3.0, m2 = hi - (hi - lo) / 3.0;
      if (dist2(m1) < dist2(m2)) {
        hi = m2;
      } else {
        lo = m1;
      }
    }
    const double slope = ground_slope(p, 0.5 * (lo + hi));
    const double ny = 1.0 / std::sqrt(1.0 + slope * slope), nx = -slope * ny;
    const double ground_y = lambda[normal] * ny + lambda[tangent] * (-nx);
    const double momentum = p.bar_mass * (b1[1].velocity.y - b0[1].velocity.y) +
                            p.wheel_mass * (b1[2].velocity.y - b0[2].velocity.y);
    const double expected = dt * (spring_y - (p.bar_mass + p.wheel_mass) * p.g) + ground_y;
    worst_balance = std::max(worst_balance, std::fabs(momentum - expected));
    if (k == 200) {
      // At rest on the flat: N = (m_b + m_w) g + k (L0 - L).
      const double load = (p.bar_mass + p.wheel_mass) * p.g + p.k * (p.rest_length - len);
      EXPECT_NEAR(lambda[normal] / dt, load, 1.0e-6 * load);
      std::printf("seed 000: static wheel load %.6f N, weight + preload %.6f N\n", lambda[normal] / dt, load);
    }
  }
  std::printf(
      "seed 000 over 2 s: max drift %.3e m, max penetration %.3e m (allowed %.3e m), min lambda_n %.3e N s, "
      "max lambda_n %.3e N s, max |lambda_t| - mu lambda_n %.3e N s, max momentum imbalance %.3e N s, "
      "max sweeps %d\n",
      worst_drift, worst_pen, allowed, min_normal, max_normal, worst_friction, worst_balance, worst_sweeps);
  EXPECT_LT(worst_drift, 1.0e-6);
  EXPECT_LT(worst_pen, allowed);
  EXPECT_GE(min_normal, 0.0);
  EXPECT_LE(worst_friction, 1.0e-12);
  EXPECT_LT(worst_balance, 1.0e-6);
  // The wheel went over the bump: the normal impulse varied, and the socket passed x = 3 m.
  EXPECT_GT(max_normal, 1.1 * (p.bar_mass + p.wheel_mass) * p.g * dt + p.k * 0.05 * dt);
  EXPECT_NEAR(batch.bodies(0)[0].position.x, p.u * steps * dt, 1e-9);
}

}  // namespace
}  // namespace fleetdyn
