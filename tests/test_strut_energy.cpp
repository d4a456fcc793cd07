// Energy ledger of the strut model (seed 004 "Energy").
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "fleetdyn/physics/core/math.h"
#include "tests/strut_test_util.h"

namespace fleetdyn {
namespace {

using test::cpu_options;

using test::LedgerRun;
using test::sample_energy;

// An HMMWV coasting from 15 m/s on flat ground, steer input fixed: the ledger sampled 300 times
// every 10 steps never increases.
LedgerRun coast_on_flat(double steer) {
  Batch batch({hmmwv_params()}, 1, TerrainSpec{}, cpu_options());
  InitialCondition ic;
  ic.speed = 15.0;
  batch.set_initial_conditions({ic});
  batch.set_inputs({{steer, 0.0, 0.0}});
  const LedgerRun run = sample_energy(batch, 300, 10);
  EXPECT_EQ(run.increases, 0) << "largest increase " << run.largest_increase << " J";
  return run;
}

// Coasting on flat ground with no inputs: every element is conservative or dissipative, so the
// ledger total (chassis KE, unsprung KE, wheel spin KE, gravity PE, strut, bushing and tire PE)
// never increases over 300 samples.
TEST(StrutEnergy, CoastingOnFlatGroundNeverGainsEnergy) {
  const LedgerRun run = coast_on_flat(0.0);
  EXPECT_LT(run.final, run.initial);  // rolling resistance dissipates
}

// The same with the wheels steered: tire slip dissipates, nothing injects (seed 004: "flat
// steady steer: E_tot strictly monotonic decreasing (0/300 samples increase)").
TEST(StrutEnergy, CoastingInASteadySteerNeverGainsEnergy) {
  const LedgerRun run = coast_on_flat(0.3);
  EXPECT_LT(run.final, 0.9 * run.initial);
}

// Coasting on the loop with the contact re-queried at every RK4 stage is dissipative at every
// speed: over or short of the top, the ledger never rises (seed 004 found injection only with a
// once-per-step frozen contact).
TEST(StrutEnergy, LoopCoastWithPerStageContactIsDissipative) {
  const StrutParams<double> p = hmmwv_params();
  TerrainSpec terrain = test::terrain_of(TerrainKind::Loop);
  terrain.desc.loop_x = 30.0;
  terrain.desc.loop_radius = 8.0;
  const double yaw = std::atan2(terrain.desc.loop_lateral_shift, 2.0 * kPi * terrain.desc.loop_radius);
  for (double speed : {10.0, 15.0, 20.0, 25.0}) {
    BatchOptions options = cpu_options();
    options.requery_contact = true;
    Batch batch({p}, 1, terrain, options);
    batch.set_initial_conditions({{0.0, -terrain.desc.loop_x * std::tan(yaw), yaw, speed}});
    batch.set_inputs({{0.0, 0.0, 0.0}});
    const LedgerRun run = sample_energy(batch, 400, 10);
    EXPECT_EQ(run.increases, 0) << "speed " << speed << ": largest increase " << run.largest_increase << " J";
    EXPECT_LT(run.final, run.initial) << "speed " << speed;
  }
}

// With every damper, the rolling resistance and gravity off and the vehicle tumbling in the air
// (no tire contact), only springs, bushings and inertia act: the ledger is conserved up to the
// integrator's error, which vanishes with the step at RK4's rate. A leak in the formulation
// (e.g. a force applied at the mount instead of the wheel) would not shrink with the step.
double tumbling_energy_drift(double step) {
  StrutParams<double> p = hmmwv_params();
  p.damping_bump_front = p.damping_rebound_front = p.damping_bump_rear = p.damping_rebound_rear = 0.0;
  p.link_damping_ratio = 0.0;
  p.tire.rolling_resistance = 0.0;
  p.gravity = 0.0;
  finalize_vehicle_params(p);
  BatchOptions options = cpu_options();
  options.step = step;
  Batch batch({p}, 1, TerrainSpec{}, options);
  std::vector<double> s = batch.state();
  s[strut::kPos + 2] += 5.0;
  s[strut::kOmega] = 0.5;
  s[strut::kOmega + 1] = -0.3;
  s[strut::kOmega + 2] = 0.4;
  for (int i = 0; i < kCorners; ++i) {
    s[strut::kWheelSpin + i] = 20.0 + 5.0 * i;
    // Springs deflected: the wheel moved 3 cm along its path (the body is level at rest, so body
    // and world axes coincide); and the bushings deflected by 0.1 mm off it.
    const double travel = i % 2 ? 0.03 : -0.03;
    const CornerTravel<double> path = corner_travel(p, i, travel);
    s[strut::kUnsprungPos + 3 * i] += path.dx + 1e-4;
    s[strut::kUnsprungPos + 3 * i + 1] += path.dy;
    s[strut::kUnsprungPos + 3 * i + 2] += travel;
  }
  batch.set_vehicle_state(0, s);
  const double e0 = batch.energy(0).total();
  batch.step(static_cast<int>(std::lround(2.0 / step)));
  return (batch.energy(0).total() - e0) / e0;
}

TEST(StrutEnergy, ConservativePartsConserveEnergyAsTheStepShrinks) {
  const double coarse = tumbling_energy_drift(2.5e-4);
  const double fine = tumbling_energy_drift(1.25e-4);
  RecordProperty("energy_drift_dt_2.5e-4", std::to_string(coarse));
  RecordProperty("energy_drift_dt_1.25e-4", std::to_string(fine));
  EXPECT_LT(std::fabs(fine), 1e-4);
  EXPECT_GT(std::fabs(coarse), 8.0 * std::fabs(fine));  // converges at least at third order
}

}  // namespace
}  // namespace fleetdyn
