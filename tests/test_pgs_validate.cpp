// The pgs vehicle's bilateral rows solved directly (physics/pgs/pgs_dense.h, host/validate/):
// the direct solution satisfies every row it solves, the sweeps converge to it, the check over a
// batch's states on the CPU and (when a device is usable) on the GPU with cuBLAS, and its
// argument checks.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "fleetdyn/error.h"
#include "fleetdyn/pgs_vehicle.h"
#include "fleetdyn/physics/ce/ce_dense.h"
#include "fleetdyn/physics/pgs/pgs_dense.h"
#include "host/validate/dense_lu.h"
#include "host/validate/validation.h"

namespace fleetdyn {
namespace {

using namespace pgs;

// One vehicle of a check's states, stepped through its sweeps on the host (fp64), with the
// direct system and the scratch the sweeps left.
struct SweptVehicle {
  PgsVehicleParams<double> params;
  int nb = 0;
  std::vector<double> scratch, system, rhs, lambda;
  double residual = 0.0;
};

SweptVehicle sweep(const PgsValidationInput& in, int v, int sweeps) {
  SweptVehicle out;
  out.params = in.params[v];
  out.params.settings.max_iterations = sweeps;
  out.nb = bilateral_row_count(out.params.rows, out.params.row_count);
  const int n = static_cast<int>(in.origin.size() / 2);
  std::vector<double> s(pgsv::kStateSize);
  for (int j = 0; j < pgsv::kStateSize; ++j) s[j] = in.state[static_cast<size_t>(j) * n + v];
  const double origin[2] = {in.origin[v], in.origin[n + v]};
  const DriverInput<double> d = in.inputs[v];
  const double inputs[3] = {d.steer, d.throttle, d.brake};
  out.scratch.assign(pgsv::kScratchSize, 0.0);
  out.system.assign(static_cast<size_t>(out.nb) * out.nb, 0.0);
  out.rhs.assign(out.nb, 0.0);
  out.lambda.assign(out.nb, 0.0);
  PgsCheckView<double> view{1,      &out.params, 1,      in.terrain.desc, in.step,
                            out.nb, s.data(),    origin, inputs,          out.scratch.data()};
  out.residual = pgs_dense_check_vehicle(view, 0, out.system.data(), out.rhs.data(), out.lambda.data());
  return out;
}

// The bilateral rows' indices in table order.
std::vector<int> bilateral_rows(const PgsVehicleParams<double>& p) {
  std::vector<int> rows;
  for (int r = 0; r < p.row_count; ++r)
    if (p.rows[r].kind == kRowBilateral) rows.push_back(r);
  return rows;
}

class PgsDense : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    states_ = new PgsValidationInput(pgs_validation_states(6, BackendKind::Cpu, Precision::Fp64));
  }
  static void TearDownTestSuite() {
    delete states_;
    states_ = nullptr;
  }
  static PgsValidationInput* states_;
};
PgsValidationInput* PgsDense::states_ = nullptr;

// The direct impulses, applied in place of the swept ones (V += M^-1 J^T (lambda* - lambda)),
// leave every bilateral row's velocity error J v + c lambda - target at round-off: the system is
// the rows' own equations, assembled independently of the row updates that the sweeps make.
TEST_F(PgsDense, DirectImpulsesSatisfyEveryBilateralRow) {
  double worst_before = 0.0, worst_after = 0.0;
  for (int v = 0; v < 6; ++v) {
    SweptVehicle x = sweep(*states_, v, 30);
    ASSERT_GE(x.residual, 0.0);
    ASSERT_TRUE(dense_lu_solve(x.system.data(), x.rhs.data(), x.nb));
    const Strided<double> scratch{x.scratch.data(), 1, 0};
    const std::vector<int> rows = bilateral_rows(x.params);
    ASSERT_EQ(static_cast<int>(rows.size()), x.nb);
    for (int r : rows) {
      worst_before = std::fmax(worst_before, std::fabs(row_error(scratch, x.params.row_count, r, x.params.rows[r])));
    }
    for (int i = 0; i < x.nb; ++i) {
      const int r = rows[i];
      apply_row_impulse(scratch, x.params.row_count, r, x.params.rows[r], x.rhs[i] - x.lambda[i]);
      scratch[row_scratch(r, kLambda)] = x.rhs[i];
    }
    for (int r : rows) {
      worst_after = std::fmax(worst_after, std::fabs(row_error(scratch, x.params.row_count, r, x.params.rows[r])));
    }
  }
  EXPECT_GT(worst_before, 1e-5);  // 30 sweeps leave a velocity error [m/s, rad/s] ...
  EXPECT_LT(worst_after, 1e-9);   // ... the direct impulses do not (velocities ~15 m/s: 1e-9 is ~1e5 ulp)
  RecordProperty("residual_after_30_sweeps", std::to_string(worst_before));
  RecordProperty("residual_of_direct_impulses", std::to_string(worst_after));
  std::printf("bilateral velocity error: 30 sweeps %.3g, direct impulses %.3g\n", worst_before, worst_after);
}

// The sweeps converge to the direct solution: the impulse difference shrinks with their number
// (30, 300, 3000) and at 3000 is at round-off (measured ~1e-12; 1e-9 bounds it with cond of the
// rows' system, ~1e4, times fp64's epsilon, with room).
TEST_F(PgsDense, SweepsConvergeToTheDirectSolution) {
  for (int v = 0; v < 3; ++v) {
    double previous = 1e300, first = 0.0;
    for (int sweeps : {30, 300, 3000}) {
      SweptVehicle x = sweep(*states_, v, sweeps);
      ASSERT_TRUE(dense_lu_solve(x.system.data(), x.rhs.data(), x.nb));
      const double d = max_relative_difference(x.lambda.data(), x.rhs.data(), x.nb);
      if (sweeps == 30) first = d;
      EXPECT_LT(d, previous) << "vehicle " << v << ", " << sweeps << " sweeps";
      previous = d;
      std::printf("vehicle %d: %d sweeps, impulse difference %.3g, residual %.3g\n", v, sweeps, d, x.residual);
    }
    EXPECT_LT(previous, 1e-9) << "vehicle " << v << " (30 sweeps: " << first << ")";
  }
}

// The check over a batch's states on the CPU, in both precisions: within the stated bound, and
// the sweeps' truncation (not round-off) sets the difference: fp32 and fp64 agree on it.
TEST(PgsValidate, BatchStatesPassOnTheCpu) {
  double worst[2] = {0.0, 0.0};
  int k = 0;
  for (Precision precision : {Precision::Fp64, Precision::Fp32}) {
    const PgsValidationInput in = pgs_validation_states(8, BackendKind::Cpu, precision);
    const ValidationResult r = validate_pgs(in, BackendKind::Cpu, precision);
    ASSERT_EQ(r.error.size(), 8u);
    EXPECT_TRUE(r.passed()) << precision_name(precision) << ": vehicle " << r.worst_vehicle << " " << r.worst;
    EXPECT_GT(r.worst, 0.0);
    ASSERT_EQ(r.measurements.size(), 1u);
    EXPECT_GT(r.measurements[0].second, 0.0);
    worst[k++] = r.worst;
    std::printf("%s: worst %.3g (vehicle %d), residual %.3g\n", precision_name(precision), r.worst, r.worst_vehicle,
                r.measurements[0].second);
  }
  EXPECT_NEAR(worst[1], worst[0], 0.2 * worst[0]);
}

TEST(PgsValidate, BadInputNamesTheField) {
  const PgsValidationInput good = pgs_validation_states(2, BackendKind::Cpu, Precision::Fp64);
  const auto expect_error = [](const PgsValidationInput& in, const std::string& what) {
    try {
      validate_pgs(in, BackendKind::Cpu, Precision::Fp64);
      ADD_FAILURE() << "no error for " << what;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
  };
  PgsValidationInput in = good;
  in.step = 0.0;
  expect_error(in, "step = 0");
  in = good;
  in.state.resize(10);
  expect_error(in, "state has 10 values");
  in = good;
  in.params.clear();
  expect_error(in, "params has 0 entries");
  EXPECT_THROW(pgs_validation_states(kMaxValidationVehicles + 1, BackendKind::Cpu, Precision::Fp64), Error);
}

// On the GPU: the batch stepped there, every vehicle swept and its direct system assembled by
// one thread, cuBLAS batched LU; within the bound, and the same worst difference as the CPU's
// check of the same states to within the precision's round-off.
TEST(PgsValidate, BatchStatesPassOnCuda) {
  std::string why;
  if (!cuda_available(&why)) GTEST_SKIP() << why;
  for (Precision precision : {Precision::Fp64, Precision::Fp32}) {
    const PgsValidationInput in = pgs_validation_states(256, BackendKind::Cuda, precision);
    const ValidationResult gpu = validate_pgs(in, BackendKind::Cuda, precision);
    ASSERT_EQ(gpu.error.size(), 256u);
    EXPECT_TRUE(gpu.passed()) << precision_name(precision) << ": vehicle " << gpu.worst_vehicle << " " << gpu.worst;
    const ValidationResult cpu = validate_pgs(in, BackendKind::Cpu, precision);
    EXPECT_NEAR(gpu.worst, cpu.worst, 0.05 * cpu.worst);
  }
}

}  // namespace
}  // namespace fleetdyn
