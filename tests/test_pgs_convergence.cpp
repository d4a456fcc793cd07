// What converges and what does not: a chain of N links hanging from ball joints, at rest, one
// step from a cold start (no warm start) to the residual 1e-6 m/s. The exact impulses are known:
// joint k carries the weight of everything below it, lambda_z,k = m_below g dt. Measured here
// and quoted in docs/models/pgs.md:
//   - sweeps grow about as N^2 with the chain length (Gauss-Seidel's information travels one
//     row per sweep, and the error decays with the chain's lowest mode);
//   - sweeps grow with the mass ratio of a heavy end body to the light links, about linearly
//     once it is large (8 links: 220, 707, 5705, 55716 sweeps at 1, 10, 100, 1000 : 1), so
//     1000 : 1 does not converge in a GPU-sized sweep budget and is flagged NotConverged;
//   - warm starting makes a steady state cost a few sweeps (1 to 4 measured).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "fleetdyn/pgs.h"
#include "host/pgs/pgs_seed_models.h"
#include "tests/pgs_test_util.h"

namespace fleetdyn {
namespace {

constexpr double kG = 9.81, kStep = 1.0e-3;

// The seed's hanging chain of 0.1 m rods, at rest, the last rod of mass end_mass.
PgsModelDef chain(int links, double end_mass) {
  PgsModelDef m = pgs_hanging_chain(links);
  for (int i = 0; i < links; ++i) {
    PgsBodyDef& b = m.bodies[static_cast<size_t>(i)];
    b.mass = i == links - 1 ? end_mass : 1.0;
    b.inertia = {b.mass * 0.01 / 12.0, b.mass * 0.01 / 12.0, b.mass * 1.0e-4};
    b.velocity = {0.0, 0.0, 0.0};
  }
  return m;
}

struct Result {
  int cold_sweeps;
  int status;
  double max_impulse_error;  // [N s] against m_below g dt
  int warm_sweeps;           // after 20 warm-started steps
};

Result solve(int links, double end_mass, int cap) {
  PgsSolverSettings s = test::solver_settings(kStep, 1.0e-6, cap);
  s.warm_start = 0.0;
  const PgsModelDef m = chain(links, end_mass);
  PgsBatch cold(m, 1, s, {BackendKind::Cpu, Precision::Fp64, 1});
  cold.step(1);
  Result r{cold.reports()[0].iterations, cold.reports()[0].status, 0.0, 0};
  const auto l = cold.impulses(0);
  for (int k = 0; k < links; ++k) {
    const double below = end_mass + (links - 1 - k) * 1.0;  // bodies k .. links-1
    const double expected = below * kG * kStep;
    // Joint k's z row pulls body k up: on body b (= k) the row's J^T lambda is +lambda.
    r.max_impulse_error = std::max(r.max_impulse_error, std::fabs(l[static_cast<size_t>(3 * k + 2)] - expected));
  }
  s.warm_start = 1.0;
  PgsBatch warm(m, 1, s, {BackendKind::Cpu, Precision::Fp64, 1});
  warm.step(20);
  r.warm_sweeps = warm.reports()[0].iterations;
  return r;
}

TEST(PgsConvergence, ChainLengthCostsAboutNSquaredSweeps) {
  int previous = 0;
  int sweeps8 = 0, sweeps32 = 0;
  for (int n : {2, 4, 8, 16, 32}) {
    const Result r = solve(n, 1.0, 100000);
    std::printf("hanging chain of %2d links: %5d sweeps cold, %d warm; max |lambda - m_below g dt| %.2e N s\n", n,
                r.cold_sweeps, r.warm_sweeps, r.max_impulse_error);
    EXPECT_EQ(r.status, pgs::kStatusOk);
    // The impulse error is the residual (1e-6 m/s) over the smallest eigenvalue of J M^-1 J^T,
    // which for a chain of unit masses falls as 1 / N^2: within 1e-6 N^2 N s.
    EXPECT_LT(r.max_impulse_error, 1.0e-6 * n * n);
    EXPECT_GT(r.cold_sweeps, previous);
    EXPECT_LT(10 * r.warm_sweeps, r.cold_sweeps);  // warm starting: a steady state is nearly free
    previous = r.cold_sweeps;
    if (n == 8) sweeps8 = r.cold_sweeps;
    if (n == 32) sweeps32 = r.cold_sweeps;
  }
  const double exponent = std::log(static_cast<double>(sweeps32) / sweeps8) / std::log(4.0);
  std::printf("sweeps ~ N^%.2f between 8 and 32 links\n", exponent);
  EXPECT_GT(exponent, 1.5);
  EXPECT_LT(exponent, 2.5);
}

TEST(PgsConvergence, HeavyEndMassSlowsConvergence) {
  const Result r1 = solve(8, 1.0, 100000), r100 = solve(8, 100.0, 100000);
  const Result r1000 = solve(8, 1000.0, 1000);  // a GPU-sized budget
  std::printf("8 links, end mass ratio 1: %d sweeps; 100: %d sweeps (x%.1f); 1000 with a 1000-sweep cap: status %d\n",
              r1.cold_sweeps, r100.cold_sweeps, static_cast<double>(r100.cold_sweeps) / r1.cold_sweeps, r1000.status);
  const double growth = static_cast<double>(r100.cold_sweeps) / r1.cold_sweeps;
  EXPECT_GT(growth, 10.0);
  EXPECT_LT(growth, 100.0);
  EXPECT_EQ(r100.status, pgs::kStatusOk);
  EXPECT_TRUE(r1000.status & pgs::kStatusNotConverged);
  EXPECT_FALSE(r1000.status & pgs::kStatusNonFinite);
}

}  // namespace
}  // namespace fleetdyn
