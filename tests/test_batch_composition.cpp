// A vehicle's result depends on its own parameters, inputs and initial condition alone: run
// alone, among others sharing its parameter set, among others with their own sets (where the
// CUDA backend runs another kernel variant), open loop or driven, at another index and batch
// size, its state, metrics, status and driver state are the same bits. For every model, on the
// CPU (SIMD lanes and the scalar path) and on CUDA where a device exists.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "fleetdyn/pgs_vehicle.h"
#include "tests/strut_test_util.h"

namespace fleetdyn {
namespace {

constexpr int kCrowd = 11;  // vehicles in the crowded batches
constexpr int kProbe = 7;   // the probe's index there (lane 7 of a group of 8 in fp32 SIMD)

// Each model's varied vehicles: variant 0 is the preset, others scatter mass, springs and tire
// friction, so a backend that mixed vehicles up would fail.
struct StrutCase {
  using Params = StrutParams<double>;
  static constexpr double kStep = 1.0e-3;
  static constexpr int kSteps = 1500;
  static Params variant(int k) {
    Params p = hmmwv_params();
    p.total_mass *= 1.0 + 0.013 * k;
    p.wheel_rate_front *= 1.0 - 0.021 * k;
    p.tire.mu *= 1.0 - 0.017 * k;
    finalize_vehicle_params(p);
    return p;
  }
};

struct CeCase {
  using Params = CeParams<double>;
  static constexpr double kStep = 2.0e-3;
  static constexpr int kSteps = 750;
  static Params variant(int k) {
    Params p = hmmwv_ce_params();
    p.chassis_mass *= 1.0 + 0.013 * k;
    p.axle[0].spring_rate *= 1.0 - 0.021 * k;
    p.tire.mu *= 1.0 - 0.017 * k;
    return p;
  }
};

struct PgsCase {
  using Params = PgsVehicleDef;
  static constexpr double kStep = 1.0e-3;
  static constexpr int kSteps = 250;
  static Params variant(int k) {
    Params p;
    p.vehicle.chassis_mass *= 1.0 + 0.013 * k;
    p.vehicle.tire.mu *= 1.0 - 0.017 * k;
    return p;
  }
};

// The probe: variant 3 at 12 m/s, a step steer (open loop) or a J-turn program (driven).
constexpr int kProbeVariant = 3;
constexpr double kProbeSpeed = 12.0;

Maneuver step_steer() {
  return {{0.0, 0.0, 0.3, 0.0}, {0.3, 0.0, 0.3, 0.0}, {0.6, 0.3, 0.2, 0.0}, {5.0, 0.3, 0.2, 0.0}};
}

SteerProgram j_turn(double amplitude) {
  SteerProgram g;
  g.start_time = 0.2;
  g.amplitude = amplitude;
  g.rate = 2.0;
  g.throttle_before = 0.3;
  g.throttle = 0.2;
  return g;
}

// Everything a run leaves for one vehicle, as raw bits.
struct Outcome {
  std::vector<double> state, metrics, driver;
  int status = -1;
};

Outcome outcome_of(Batch& b, int v) {
  Outcome o;
  o.state = test::vehicle_state(b, v);
  const int n = b.vehicle_count();
  const std::vector<double> m = b.metrics();
  for (int j = 0; j < kMetricCount; ++j) o.metrics.push_back(m[static_cast<size_t>(j) * n + v]);
  const std::vector<double> d = b.driver_state();
  for (size_t j = 0; n > 0 && j < d.size() / static_cast<size_t>(n); ++j) o.driver.push_back(d[j * n + v]);
  o.status = b.status()[static_cast<size_t>(v)];
  return o;
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0);
}

void expect_identical(const Outcome& reference, const Outcome& other, const std::string& what) {
  EXPECT_EQ(reference.status, other.status) << what;
  EXPECT_TRUE(same_bits(reference.state, other.state)) << what << ": state differs";
  EXPECT_TRUE(same_bits(reference.metrics, other.metrics)) << what << ": metrics differ";
  EXPECT_TRUE(same_bits(reference.driver, other.driver)) << what << ": driver state differs";
}

enum class Layout { Alone, SharedParams, OwnParams };

// Runs the probe in one composition and returns its outcome.
template <class Case>
Outcome run_probe(const BatchOptions& options, Layout layout, bool driven) {
  const typename Case::Params probe = Case::variant(kProbeVariant);
  const bool alone = layout == Layout::Alone;
  const int n = alone ? 1 : kCrowd;
  const int at = alone ? 0 : kProbe;
  std::vector<typename Case::Params> params{probe};
  if (layout == Layout::OwnParams) {
    params.clear();
    for (int v = 0; v < n; ++v) params.push_back(v == at ? probe : Case::variant(v == kProbeVariant ? 0 : v));
  }
  Batch batch(params, n, TerrainSpec{}, options);
  std::vector<InitialCondition> ics(static_cast<size_t>(n));
  std::vector<SteerProgram> programs(static_cast<size_t>(n));
  for (int v = 0; v < n; ++v) {
    ics[v].speed = v == at ? kProbeSpeed : 8.0 + 0.7 * v;
    programs[v] = j_turn(v == at ? 0.25 : 0.05 * (v % 5) - 0.1);
  }
  if (driven) batch.set_steer_program(programs);
  batch.set_initial_conditions(ics);
  batch.set_maneuvers({step_steer()});
  batch.step(Case::kSteps / 2);
  batch.step(Case::kSteps - Case::kSteps / 2);  // two calls: state stored and reloaded between
  Outcome o = outcome_of(batch, at);
  EXPECT_EQ(o.status, kStatusRunning);
  return o;
}

template <class Case>
void expect_composition_independent(BackendKind backend, bool simd) {
  for (Precision precision : {Precision::Fp64, Precision::Fp32}) {
    BatchOptions options = test::cpu_options(precision);
    options.backend = backend;
    options.step = Case::kStep;
    options.cpu_simd = simd;
    for (bool driven : {false, true}) {
      const std::string what = std::string(precision == Precision::Fp64 ? "fp64" : "fp32") +
                               (driven ? ", driven" : ", open loop");
      const Outcome alone = run_probe<Case>(options, Layout::Alone, driven);
      EXPECT_GT(std::fabs(alone.state[0]) + std::fabs(alone.state[1]), 1.0) << what << ": the probe went nowhere";
      expect_identical(alone, run_probe<Case>(options, Layout::SharedParams, driven),
                       what + ", among vehicles sharing its parameters");
      expect_identical(alone, run_probe<Case>(options, Layout::OwnParams, driven),
                       what + ", among vehicles with their own parameters");
    }
  }
}

template <class Case>
class BatchComposition : public ::testing::Test {};
using Models = ::testing::Types<StrutCase, CeCase, PgsCase>;
struct ModelName {
  template <class Case>
  static std::string GetName(int) {
    return std::is_same_v<Case, StrutCase> ? "strut" : std::is_same_v<Case, CeCase> ? "ce" : "pgs";
  }
};
TYPED_TEST_SUITE(BatchComposition, Models, ModelName);

TYPED_TEST(BatchComposition, CpuSimdLanesGiveTheSameBitsInAnyBatch) {
  expect_composition_independent<TypeParam>(BackendKind::Cpu, true);
}

TYPED_TEST(BatchComposition, CpuScalarPathGivesTheSameBitsInAnyBatch) {
  expect_composition_independent<TypeParam>(BackendKind::Cpu, false);
}

TYPED_TEST(BatchComposition, CudaGivesTheSameBitsInAnyBatch) {
  std::string why;
  if (!cuda_available(&why)) GTEST_SKIP() << why;
  expect_composition_independent<TypeParam>(BackendKind::Cuda, true);
}

}  // namespace
}  // namespace fleetdyn
