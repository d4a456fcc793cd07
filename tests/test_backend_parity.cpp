// The strut model on the CPU backend: the default step against the stiffest mode, and the SIMD
// lanes against the scalar path. The batch contract all models keep is in test_batch_contract.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "tests/strut_test_util.h"

namespace fleetdyn {
namespace {

using test::cpu_options;

double position_difference(const VehicleSnapshot& a, const VehicleSnapshot& b) {
  return std::sqrt(sq(a.position[0] - b.position[0]) + sq(a.position[1] - b.position[1]) + sq(a.position[2] - b.position[2]));
}

std::vector<InitialCondition> varied_initial(int count) {
  std::vector<InitialCondition> initial;
  for (int v = 0; v < count; ++v) {
    InitialCondition ic;
    ic.speed = 10.0 + 10.0 * v / (count - 1);
    initial.push_back(ic);
  }
  return initial;
}

// The default step follows from the stiffest mode: the linearized model's eigenvalues give the
// largest step at which RK4 is stable; the default stays at <= 75 % of it. The limit is real:
// just below it a vehicle with its bushing modes kicked stays stable, just above it diverges
// (and is flagged).
TEST(BackendParity, DefaultStepRespectsStiffestMode) {
  const StrutParams<double> p = hmmwv_params();
  const StepAnalysis a = strut_step_analysis(p);
  RecordProperty("stiffest_rate_per_s", std::to_string(a.stiffest_rate));
  RecordProperty("rk4_stable_step_s", std::to_string(a.rk4_stable_step));
  RecordProperty("default_step_s", std::to_string(a.default_step));
  EXPECT_LE(a.default_step, 0.75 * a.rk4_stable_step);
  EXPECT_GT(a.default_step, 0.25 * a.rk4_stable_step);  // and not needlessly small
  EXPECT_LT(a.stiffest_rate * a.rk4_stable_step, 2.8);  // the real-axis bound holds
  for (double factor : {0.9, 1.1}) {
    BatchOptions options = cpu_options();
    options.step = factor * a.rk4_stable_step;
    Batch batch({p}, 1, TerrainSpec{}, options);
    // Kick the bushing modes: wheels displaced sideways by 1 mm.
    std::vector<double> s = batch.state();
    for (int i = 0; i < kCorners; ++i) s[strut::kUnsprungPos + 3 * i + 1] += 1e-3;
    batch.set_vehicle_state(0, s);
    batch.step(static_cast<int>(0.5 / options.step));
    // Above the limit the kicked mode grows until the state leaves its bounds (diverged) or the
    // growing bushing oscillation has thrown the parked body past the capsize angle: either way
    // the vehicle is flagged and stopped.
    if (factor < 1.0) {
      EXPECT_EQ(batch.status()[0], kStatusRunning) << "step " << options.step;
    } else {
      EXPECT_TRUE(batch.status()[0] == kStatusDiverged || batch.status()[0] == kStatusRolledOver) << "step " << options.step;
    }
  }
}

// The CPU backend's SIMD lanes (default) against its scalar path (the code the GPU runs), on
// flat ground and on terrains queried per lane: 13 different vehicles, so the last group of lanes
// is padded. Same bounds as CUDA against the CPU: fp64 within 1e-9 relative (only multiply-add
// contraction differs), fp32 within 1 cm over 10 s.
TEST(BackendParity, SimdLanesMatchScalarPath) {
  constexpr int kVehicles = 13;
  for (TerrainKind kind : {TerrainKind::Flat, TerrainKind::Hill, TerrainKind::Plane}) {
    for (Precision precision : {Precision::Fp64, Precision::Fp32}) {
      TerrainSpec terrain = test::terrain_of(kind);
      terrain.desc.hill_height = 1.0;
      terrain.desc.hill_radius = 20.0;
      terrain.desc.hill_x = 60.0;
      terrain.desc.bank = 0.05;
      std::vector<std::vector<VehicleSnapshot>> snapshots;
      std::vector<std::vector<double>> metrics;
      for (bool simd : {true, false}) {
        BatchOptions options = cpu_options(precision);
        options.cpu_simd = simd;
        Batch batch(test::varied_strut_params(kVehicles), kVehicles, terrain, options);
        batch.set_initial_conditions(varied_initial(kVehicles));
        batch.set_maneuvers({test::strut_test_maneuver()});
        batch.step(10000);
        snapshots.push_back(batch.snapshots());
        metrics.push_back(batch.metrics());
      }
      const double metric_tolerance = precision == Precision::Fp64 ? 1e-6 : 5e-2;
      double worst = 0.0;
      for (int v = 0; v < kVehicles; ++v) {
        const VehicleSnapshot& lanes = snapshots[0][v];
        const VehicleSnapshot& scalar = snapshots[1][v];
        ASSERT_EQ(lanes.status, kStatusRunning) << "vehicle " << v;
        ASSERT_EQ(scalar.status, kStatusRunning) << "vehicle " << v;
        const double diff = position_difference(lanes, scalar);
        const double scale = std::sqrt(sq(scalar.position[0]) + sq(scalar.position[1]) + sq(scalar.position[2]));
        EXPECT_GT(scale, 50.0);
        worst = std::max(worst, diff);
        EXPECT_LT(diff, precision == Precision::Fp64 ? 1e-9 * scale : 0.01)
            << "vehicle " << v << ", terrain " << static_cast<int>(kind);
      }
      std::printf("SIMD vs scalar, terrain %d, %s: worst position difference %.3e m\n", static_cast<int>(kind),
                  precision == Precision::Fp64 ? "fp64" : "fp32", worst);
      for (size_t k = 0; k < metrics[0].size(); ++k) {
        const double a = metrics[0][k], b = metrics[1][k];
        EXPECT_LE(std::fabs(a - b), metric_tolerance * std::max(1.0, std::fabs(a))) << "metric entry " << k;
      }
    }
  }
}

}  // namespace
}  // namespace fleetdyn
