// One range check at every way a strut parameter set comes in (check_vehicle_params): finalize,
// the Batch constructor (a set that never went through finalize; and the batch's own sizes) and
// the vector env's base parameters. Each refuses NaN, infinities and values below the minimum or above the maximum,
// naming the field, its value, its unit and its allowed range. (Scenario overrides: test_scenario;
// Python: python/tests/test_batch.py.)
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "fleetdyn/batch.h"
#include "fleetdyn/error.h"
#include "fleetdyn/vector_env.h"
#include "fleetdyn/vehicle.h"
#include "tests/strut_test_util.h"

namespace fleetdyn {
namespace {

using test::error_of;

struct Bad {
  const char* field;
  double value;
  const char* expected;  // the message's part after "WHAT: "
};

const Bad kBad[] = {
    {"tire.mu", std::nan(""), "tire.mu = nan is outside [0.05, 3]"},
    {"tire.mu", -5.0, "tire.mu = -5 is outside [0.05, 3]"},
    {"tire.mu", 1e9, "tire.mu = 1e+09 is outside [0.05, 3]"},
    {"total_mass", std::numeric_limits<double>::infinity(), "total_mass = inf kg is outside [100, 100000]"},
    {"cg_height", -std::numeric_limits<double>::infinity(), "cg_height = -inf m is outside [0.2, 5]"},
    {"wheel_rate_front", 10.0, "wheel_rate_front = 10 N/m is outside [1000, 1e+07]"},
    {"link_stiffness", 1e12, "link_stiffness = 1e+12 N/m is outside [100000, 1e+09]"},
};

TEST(VehicleParamChecks, FinalizeRefusesEveryBadValue) {
  for (const Bad& b : kBad) {
    StrutParams<double> p = hmmwv_params();
    *vehicle_param_ptr(p, b.field) = b.value;
    EXPECT_EQ(error_of([&] { finalize_vehicle_params(p); }), std::string("vehicle parameters: ") + b.expected) << b.field;
  }
}

// Every field of the table is checked: each one set to NaN is refused, by name.
TEST(VehicleParamChecks, EveryFieldIsChecked) {
  for (const VehicleParamField& f : vehicle_param_fields()) {
    StrutParams<double> p = hmmwv_params();
    *vehicle_param_ptr(p, f.name) = std::nan("");
    const std::string e = error_of([&] { finalize_vehicle_params(p); });
    EXPECT_NE(e.find(std::string(f.name) + " = nan"), std::string::npos) << f.name << ": " << e;
  }
}

TEST(VehicleParamChecks, BatchRefusesAnUncheckedSet) {
  for (const Bad& b : kBad) {
    StrutParams<double> bad = hmmwv_params();
    *vehicle_param_ptr(bad, b.field) = b.value;  // no finalize
    BatchOptions o;
    o.backend = BackendKind::Cpu;
    EXPECT_EQ(error_of([&] { Batch({bad}, 2, TerrainSpec{}, o); }), std::string("vehicle parameters: ") + b.expected);
    // Per-vehicle sets name the set.
    EXPECT_EQ(error_of([&] {
                Batch({hmmwv_params(), bad}, 2, TerrainSpec{}, o);
              }),
              std::string("vehicle parameters[1]: ") + b.expected);
  }
}

// The batch's own sizes: a vehicle count its int-indexed [field][vehicle] arrays address (refused
// before anything is allocated), substeps and CPU threads in the ranges scenario files allow.
TEST(VehicleParamChecks, BatchRefusesSizesOutOfRange) {
  BatchOptions o;
  o.backend = BackendKind::Cpu;
  const int most = std::numeric_limits<int>::max() / std::max(kStrutStateSize, static_cast<int>(kMetricCount));
  const std::string range = "vehicle count must be in [1, " + std::to_string(most) + "] for the strut model, got ";
  EXPECT_EQ(error_of([&] { Batch({hmmwv_params()}, 0, TerrainSpec{}, o); }), range + "0");
  EXPECT_EQ(error_of([&] { Batch({hmmwv_params()}, most + 1, TerrainSpec{}, o); }), range + std::to_string(most + 1));
  for (int substeps : {0, kMaxSubsteps + 1}) {
    o.substeps = substeps;
    EXPECT_EQ(error_of([&] { Batch({hmmwv_params()}, 1, TerrainSpec{}, o); }),
              "substeps must be in [1, 1000], got " + std::to_string(substeps));
  }
  o.substeps = 1;
  for (int threads : {-1, kMaxCpuThreads + 1}) {
    o.cpu_threads = threads;
    EXPECT_EQ(error_of([&] { Batch({hmmwv_params()}, 1, TerrainSpec{}, o); }),
              "cpu_threads must be in [0, 4096] (0: all hardware threads), got " + std::to_string(threads));
  }
}

TEST(VehicleParamChecks, VectorEnvBaseParametersAreChecked) {
  VectorEnvConfig c;
  c.num_envs = 2;
  c.backend = BackendKind::Cpu;
  c.cpu_threads = 1;
  VectorEnv env(c);
  for (const Bad& b : kBad) {
    const std::string e = error_of([&] { env.set_base_param(b.field, {b.value}); });
    EXPECT_NE(e, "") << b.field << " = " << b.value << " accepted";
  }
  // A whole parameter set that skipped finalize.
  StrutParams<double> bad = hmmwv_params();
  bad.tire.mu = std::nan("");
  EXPECT_NE(error_of([&] { env.set_base_params({bad}); }).find("tire.mu = nan is outside [0.05, 3]"), std::string::npos);
}

}  // namespace
}  // namespace fleetdyn
