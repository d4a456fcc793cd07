// The strut model's integration switches: RK4 substeps and per-stage contact re-query.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "fleetdyn/physics/core/math.h"
#include "tests/strut_test_util.h"

namespace fleetdyn {
namespace {

using test::cpu_options;

std::vector<double> run(BatchOptions options, const TerrainSpec& terrain, InitialCondition ic, DriverInput<double> in,
                        double seconds) {
  Batch batch({hmmwv_params()}, 1, terrain, options);
  batch.set_initial_conditions({ic});
  batch.set_inputs({in});
  batch.step(static_cast<int>(std::lround(seconds / options.step)));
  EXPECT_EQ(batch.status()[0], kStatusRunning);
  return test::vehicle_state(batch, 0);
}

// Substeps: a 2 ms step of two 1 ms RK4 substeps is the same arithmetic as two 1 ms steps
// (constant inputs), so the states are bit-identical.
TEST(IntegratorSettings, SubstepsEqualShorterSteps) {
  InitialCondition ic;
  ic.speed = 15.0;
  const DriverInput<double> steer{0.3, 0.2, 0.0};
  BatchOptions fine = cpu_options();
  fine.step = 1e-3;
  BatchOptions coarse = cpu_options();
  coarse.step = 2e-3;
  coarse.substeps = 2;
  const std::vector<double> a = run(fine, TerrainSpec{}, ic, steer, 3.0);
  const std::vector<double> b = run(coarse, TerrainSpec{}, ic, steer, 3.0);
  EXPECT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(double)), 0);
}

// Contact once per step (the tangent plane sampled at the wheel) against re-queried at every
// RK4 stage: on a plane the tangent plane is the surface, so the two agree to round-off; on the
// loop's curved wall they differ, but only by the within-step curvature error.
TEST(IntegratorSettings, FrozenContactAgreesWithRequeryOnAPlaneAndApproximatesItOnTheLoop) {
  TerrainSpec plane = test::terrain_of(TerrainKind::Plane);
  plane.desc.slope = 0.05;
  plane.desc.bank = -0.08;
  InitialCondition ic;
  ic.speed = 12.0;
  BatchOptions requery = cpu_options();
  BatchOptions frozen = cpu_options();
  frozen.requery_contact = false;
  const DriverInput<double> steer{0.25, 0.3, 0.0};
  const std::vector<double> a = run(requery, plane, ic, steer, 5.0);
  const std::vector<double> b = run(frozen, plane, ic, steer, 5.0);
  for (int j = strut::kPos; j < strut::kPos + 3; ++j) EXPECT_NEAR(a[j], b[j], 1e-9) << "component " << j;

  // On the loop the tangent plane sampled at step start misses the wall's curvature by about
  // (v dt)^2 / (2 R) within a step, so the two modes must differ, and the difference must shrink
  // with the step.
  TerrainSpec loop = test::terrain_of(TerrainKind::Loop);
  loop.desc.loop_x = 30.0;
  const double yaw = std::atan2(loop.desc.loop_lateral_shift, 2.0 * kPi * loop.desc.loop_radius);
  InitialCondition into_loop{0.0, -loop.desc.loop_x * std::tan(yaw), yaw, 25.0};
  auto mode_difference = [&](double step) {
    BatchOptions per_stage = cpu_options(), per_step = cpu_options();
    per_stage.step = per_step.step = step;
    per_step.requery_contact = false;
    const std::vector<double> c = run(per_stage, loop, into_loop, {0.0, 0.0, 0.0}, 2.5);
    const std::vector<double> d = run(per_step, loop, into_loop, {0.0, 0.0, 0.0}, 2.5);
    double diff = 0.0;
    for (int j = strut::kPos; j < strut::kPos + 3; ++j) diff += sq(c[j] - d[j]);
    return std::sqrt(diff);
  };
  const double coarse = mode_difference(1e-3);
  const double fine = mode_difference(0.5e-3);
  RecordProperty("loop_frozen_vs_requery_dt_1ms_m", std::to_string(coarse));
  RecordProperty("loop_frozen_vs_requery_dt_0.5ms_m", std::to_string(fine));
  EXPECT_GT(fine, 1e-9);          // the switch really changes the contact on a curved surface
  EXPECT_LT(fine, 0.7 * coarse);  // and the once-per-step error shrinks with the step
}

}  // namespace
}  // namespace fleetdyn
