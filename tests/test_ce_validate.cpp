// The ce model's dense check (physics/ce/ce_dense.h, host/validate/): the single-source assembly
// of M and tau - C against the Eigen reference (tests/reference) and the recursion, the small LU,
// the per-vehicle check on the CPU and (when a device is usable) on the GPU with cuBLAS, and
// its argument checks.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "fleetdyn/ce.h"
#include "fleetdyn/error.h"
#include "fleetdyn/physics/ce/ce_dense.h"
#include "host/validate/dense_lu.h"
#include "host/validate/validation.h"
#include "tests/ce_test_util.h"
#include "tests/reference/ce_reference_dynamics.h"

namespace fleetdyn {
namespace {

using namespace ce;

class CeDense : public ::testing::Test {
 protected:
  CeParams<double> p = hmmwv_ce_params();
  TerrainDesc<double> ground = default_terrain_desc<double>();
  CeEnvironment<double> env{&ground, 0.0, 0.0};
};

double max_abs(const double* x, int n) {
  double m = 0.0;
  for (int k = 0; k < n; ++k) m = std::fmax(m, std::fabs(x[k]));
  return m;
}

// The assembly sums the same products as the Eigen reference in another order: M and tau - C
// agree to a few units of round-off of their largest entry (1e-12 relative: ~4500 ulp of
// fp64, for sums of 17 bodies' products of terms up to ~1e4 in size each). The reference is
// independent code (Eigen Jacobians, J^T I J by matrix products); both read the per-body
// quantities of ce_derivative, which the kinematics tests check on their own.
TEST_F(CeDense, AssemblyMatchesTheEigenReference) {
  std::mt19937 rng(11);
  double worst_mass = 0.0, worst_rhs = 0.0;
  for (int trial = 0; trial < 25; ++trial) {
    const std::vector<double> s = agitated_state(p, rng);
    const DriverInput<double> input{0.7 * std::sin(trial), 0.5, trial % 3 == 0 ? 0.4 : 0.0};
    double mass[kCeDofs * kCeDofs], rhs[kCeDofs], recursion[kCeDofs];
    ce_dense_check_system(p, env, input, s.data(), mass, rhs, recursion);
    const CeDenseDynamics ref = ce_dense_dynamics(p, env, input, s.data());
    const double mass_scale = max_abs(ref.mass_matrix.data(), kCeDofs * kCeDofs);
    const double rhs_scale = max_abs(ref.bias.data(), kCeDofs);
    for (int k = 0; k < kCeDofs * kCeDofs; ++k) {
      const double rel = std::fabs(mass[k] - ref.mass_matrix[k]) / mass_scale;
      worst_mass = std::fmax(worst_mass, rel);
      EXPECT_LT(rel, 1e-12) << "trial " << trial << " M(" << k / kCeDofs << "," << k % kCeDofs << ")";
    }
    for (int k = 0; k < kCeDofs; ++k) {
      const double rel = std::fabs(rhs[k] + ref.bias[k]) / rhs_scale;  // the reference keeps C - tau
      worst_rhs = std::fmax(worst_rhs, rel);
      EXPECT_LT(rel, 1e-12) << "trial " << trial << " (tau - C)[" << k << "]";
    }
  }
  RecordProperty("worst_mass_relative_difference", std::to_string(worst_mass));
  RecordProperty("worst_rhs_relative_difference", std::to_string(worst_rhs));
}

// The LU solve of the assembled system against the recursion (and the reference's LDL^T), in
// fp64: the tolerance of validate's fp64 check. Also measures the condition number of M, which
// the fp32 tolerance rests on (docs/design/validation.md).
TEST_F(CeDense, LuSolveMatchesTheRecursionAndTheReference) {
  std::mt19937 rng(5);
  double worst = 0.0, worst_ref = 0.0, worst_cond = 0.0;
  for (int trial = 0; trial < 25; ++trial) {
    const std::vector<double> s = agitated_state(p, rng);
    const DriverInput<double> input{-0.5 * std::cos(trial), 0.3, trial % 4 == 0 ? 0.6 : 0.0};
    double mass[kCeDofs * kCeDofs], rhs[kCeDofs], recursion[kCeDofs];
    ce_dense_check_system(p, env, input, s.data(), mass, rhs, recursion);
    Eigen::Matrix<double, kCeDofs, kCeDofs> m;
    for (int r = 0; r < kCeDofs; ++r)
      for (int c = 0; c < kCeDofs; ++c) m(r, c) = mass[r * kCeDofs + c];
    const Eigen::JacobiSVD<Eigen::Matrix<double, kCeDofs, kCeDofs>> svd(m);
    worst_cond = std::fmax(worst_cond, svd.singularValues()(0) / svd.singularValues()(kCeDofs - 1));
    ASSERT_TRUE(dense_lu_solve(mass, rhs, kCeDofs));
    const double e = ce_check_error(p, recursion, rhs);
    worst = std::fmax(worst, e);
    EXPECT_LT(e, ce_validation_tolerance(Precision::Fp64)) << "trial " << trial;
    const CeDenseDynamics ref = ce_dense_dynamics(p, env, input, s.data());
    const double e_ref = max_relative_difference(rhs, ref.accelerations.data(), kCeDofs);
    worst_ref = std::fmax(worst_ref, e_ref);
    EXPECT_LT(e_ref, 1e-12) << "trial " << trial;  // the same system, two factorizations
  }
  EXPECT_LT(worst_cond, 1e3);  // what ce_validation_tolerance assumes
  RecordProperty("worst_relative_difference", std::to_string(worst));
  RecordProperty("worst_relative_difference_to_reference", std::to_string(worst_ref));
  RecordProperty("worst_condition_number", std::to_string(worst_cond));
  std::printf("fp64: worst recursion-vs-LU %.3g, LU-vs-Eigen %.3g, cond(M) up to %.3g\n", worst, worst_ref, worst_cond);
}

// The check sees a dynamics error far below what a wrong model gives: the dense system assembled
// with one corner's LCA mass 5 % off (an inertia slip the recursion does not have) fails the fp64
// bound by orders of magnitude, and the fp32 one too.
TEST_F(CeDense, AFivePercentInertiaSlipFailsTheCheck) {
  std::mt19937 rng(9);
  const std::vector<double> s = agitated_state(p, rng);
  const DriverInput<double> input{0.2, 0.4, 0.0};
  double ds[kStateSize], recursion[kCeDofs], mass[kCeDofs * kCeDofs], rhs[kCeDofs];
  CeCornerBodies<double> corners[kCorners];
  ce_derivative(p, env, input, s.data(), ds, corners);
  ce_dof_accelerations(ds, recursion);
  ce_dense_system(p, s.data(), corners, mass, rhs);
  ASSERT_TRUE(dense_lu_solve(mass, rhs, kCeDofs));
  EXPECT_LT(ce_check_error(p, recursion, rhs), ce_validation_tolerance(Precision::Fp64));
  corners[2].inertia[kCeLca].mass *= 1.05;
  corners[2].inertia[kCeLca].first_moment = 1.05 * corners[2].inertia[kCeLca].first_moment;
  ce_dense_system(p, s.data(), corners, mass, rhs);
  ASSERT_TRUE(dense_lu_solve(mass, rhs, kCeDofs));
  const double e = ce_check_error(p, recursion, rhs);
  EXPECT_GT(e, 1e3 * ce_validation_tolerance(Precision::Fp64));
  EXPECT_GT(e, ce_validation_tolerance(Precision::Fp32));
  RecordProperty("error_with_slip", std::to_string(e));
}

// A check that can fail: an acceleration off by 1e-6 of the largest is seen as 1e-6.
TEST_F(CeDense, MaxRelativeDifferenceSeesADifferenceAndANan) {
  const double b[3] = {2.0, -4.0, 1.0};
  double a[3] = {2.0, -4.0, 1.0};
  EXPECT_EQ(max_relative_difference(a, b, 3), 0.0);
  a[2] += 4.0e-6;
  EXPECT_NEAR(max_relative_difference(a, b, 3), 1.0e-6, 1e-15);
  a[0] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(std::isnan(max_relative_difference(a, b, 3)));
  const double zero[3] = {0.0, 0.0, 0.0};
  EXPECT_EQ(max_relative_difference(zero, zero, 3), 0.0);
}

// The LU against a system with a known solution that needs row exchanges (zero leading
// pivot), and a singular one.
TEST(DenseLu, SolvesWithPivotingAndRefusesASingularMatrix) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  constexpr int n = 9;
  double a[n * n], x[n], b[n];
  for (int r = 0; r < n; ++r) {
    x[r] = u(rng);
    for (int c = 0; c < n; ++c) a[r * n + c] = u(rng) + (r == c ? 3.0 : 0.0);
  }
  a[0] = 0.0;  // the first pivot must come from another row
  for (int r = 0; r < n; ++r) {
    b[r] = 0.0;
    for (int c = 0; c < n; ++c) b[r] += a[r * n + c] * x[c];
  }
  ASSERT_TRUE(dense_lu_solve(a, b, n));
  for (int r = 0; r < n; ++r) EXPECT_NEAR(b[r], x[r], 1e-13);
  double s[4] = {1.0, 2.0, 2.0, 4.0}, rhs[2] = {1.0, 2.0};
  EXPECT_FALSE(dense_lu_solve(s, rhs, 2));
}

// The validate check over a batch's states, on the CPU: every vehicle within the stated bound
// in fp64 and fp32.
TEST(CeValidate, BatchStatesPassOnTheCpu) {
  for (Precision precision : {Precision::Fp64, Precision::Fp32}) {
    const CeValidationInput in = ce_validation_states(12, BackendKind::Cpu, precision);
    const ValidationResult r = validate_ce(in, BackendKind::Cpu, precision);
    ASSERT_EQ(r.error.size(), 12u);
    EXPECT_EQ(r.device, "cpu");
    EXPECT_TRUE(r.passed()) << precision_name(precision) << ": vehicle " << r.worst_vehicle << " " << r.worst << " > "
                            << r.tolerance;
    EXPECT_GT(r.worst, 0.0);  // two routes, round-off apart: never bit-identical everywhere
    std::printf("%s: worst %.3g (vehicle %d), tolerance %.3g\n", precision_name(precision), r.worst, r.worst_vehicle,
                r.tolerance);
  }
}

// A broken state (NaN) fails the check instead of passing it silently.
TEST(CeValidate, ANanStateFails) {
  CeValidationInput in = ce_validation_states(3, BackendKind::Cpu, Precision::Fp64);
  in.state[kVel * 3 + 1] = std::numeric_limits<double>::quiet_NaN();  // vehicle 1's forward speed
  const ValidationResult r = validate_ce(in, BackendKind::Cpu, Precision::Fp64);
  EXPECT_FALSE(r.passed());
  EXPECT_EQ(r.worst_vehicle, 1);
  EXPECT_TRUE(std::isnan(r.error[1]));
  EXPECT_LT(r.error[0], r.tolerance);
}

void expect_error(const CeValidationInput& in, const std::string& what) {
  try {
    validate_ce(in, BackendKind::Cpu, Precision::Fp64);
    ADD_FAILURE() << "no error for " << what;
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
  }
}

TEST(CeValidate, BadInputNamesTheField) {
  const CeValidationInput good = ce_validation_states(2, BackendKind::Cpu, Precision::Fp64);
  CeValidationInput in = good;
  in.origin.clear();
  expect_error(in, "origin has 0 values");
  in = good;
  in.state.pop_back();
  expect_error(in, "state has 67 values; expected 34 per vehicle x 2 vehicles");
  in = good;
  in.params.push_back(in.params[0]);
  expect_error(in, "params has 3 entries; expected 1 or 2");
  in = good;
  in.inputs.clear();
  expect_error(in, "inputs has 0 entries");
  in = good;
  in.terrain.variation.resize(2);
  expect_error(in, "terrain.variation has 2 entries");
  EXPECT_THROW(ce_validation_states(0, BackendKind::Cpu, Precision::Fp64), Error);
}

// On the GPU: the batch stepped there, M and tau - C assembled per vehicle, cuBLAS batched LU;
// within the bound, and the same per-vehicle errors' scale as the CPU's check of the same states.
TEST(CeValidate, BatchStatesPassOnCuda) {
  std::string why;
  if (!cuda_available(&why)) GTEST_SKIP() << why;
  for (Precision precision : {Precision::Fp64, Precision::Fp32}) {
    const CeValidationInput in = ce_validation_states(1000, BackendKind::Cuda, precision);
    const ValidationResult gpu = validate_ce(in, BackendKind::Cuda, precision);
    ASSERT_EQ(gpu.error.size(), 1000u);
    EXPECT_TRUE(gpu.passed()) << precision_name(precision) << ": vehicle " << gpu.worst_vehicle << " " << gpu.worst
                              << " > " << gpu.tolerance;
    const ValidationResult cpu = validate_ce(in, BackendKind::Cpu, precision);
    EXPECT_TRUE(cpu.passed());
    RecordProperty(std::string("gpu_worst_") + precision_name(precision), std::to_string(gpu.worst));
  }
}

TEST(CeValidate, CudaWithoutADeviceSaysSo) {
  std::string why;
  if (cuda_available(&why)) GTEST_SKIP() << "a device is usable: " << why;
  const CeValidationInput in = ce_validation_states(1, BackendKind::Cpu, Precision::Fp64);
  EXPECT_THROW(validate_ce(in, BackendKind::Cuda, Precision::Fp64), Error);
}

}  // namespace
}  // namespace fleetdyn
