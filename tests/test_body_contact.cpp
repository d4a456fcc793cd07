// Body contact (physics/core/body_contact.h): the friction cone and a force that never pulls,
// checked on the contact alone; a strut HMMWV dropped onto its roof never gains energy, comes to
// rest at the penetration its weight gives the roof's springs, and stays there; with damping and
// friction off the contact is conservative.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "fleetdyn/ce.h"
#include "fleetdyn/physics/core/body_contact.h"
#include "fleetdyn/vehicle.h"
#include "tests/cuda_test_util.h"
#include "tests/strut_test_util.h"

namespace fleetdyn {
namespace {

using test::cpu_options;

// The HMMWV's body box in a frame whose origin is on the ground at rest midway between the axles.
VehicleCommon<double> box() {
  VehicleCommon<double> p = hmmwv_params();
  derive_body_corners(p, 1.65, -1.65, 0.0);
  return p;
}

// The box level and lowered so its four underside corners sink `depth` into flat ground, moving
// with `vel`: each corner's force respects the friction cone, points along the slip, and the
// normal force is (k - c v_n) d per corner, never negative.
BodyContactLoad<double> underside_load(const VehicleCommon<double>& p, double depth, Vec3<double> vel) {
  const TerrainDesc<double> flat = default_terrain_desc<double>();
  const Mat3<double> level = rotation_matrix(Quat<double>{1.0, 0.0, 0.0, 0.0});
  const Vec3<double> pos{0.0, 0.0, -p.body_bottom_height - depth};
  return body_contact_load(p, flat, 0.0, 0.0, pos, level, vel, Vec3<double>{0.0, 0.0, 0.0});
}

TEST(BodyContact, FrictionConeAndNoPull) {
  const VehicleCommon<double> p = box();
  const double depth = 0.01;
  // Sliding fast: the friction is mu F_n up to the regularization, against the slip.
  const BodyContactLoad<double> sliding = underside_load(p, depth, {3.0, -4.0, 0.0});
  const double normal = 4.0 * p.body_contact_stiffness * depth;
  EXPECT_NEAR(sliding.force.z, normal, 1e-9 * normal);
  const double tangential = std::hypot(sliding.force.x, sliding.force.y);
  EXPECT_LT(tangential, p.body_mu * normal);
  EXPECT_GT(tangential, p.body_mu * normal * (1.0 - 1e-5));  // 5 m/s slip against 0.01 m/s regularization
  EXPECT_NEAR(sliding.force.x / tangential, -0.6, 1e-12);
  EXPECT_NEAR(sliding.force.y / tangential, 0.8, 1e-12);
  // At rest: no tangential force at all.
  const BodyContactLoad<double> rest = underside_load(p, depth, {0.0, 0.0, 0.0});
  EXPECT_EQ(rest.force.x, 0.0);
  EXPECT_EQ(rest.force.y, 0.0);
  // Closing at 1 m/s: the damping adds c d v per corner.
  EXPECT_NEAR(underside_load(p, depth, {0.0, 0.0, -1.0}).force.z,
              4.0 * (p.body_contact_stiffness + p.body_contact_damping) * depth, 1e-9 * normal);
  // Separating faster than k / c: the damping would pull; the force is zero instead.
  const double fast = 2.0 * p.body_contact_stiffness / p.body_contact_damping;
  const BodyContactLoad<double> leaving = underside_load(p, depth, {1.0, 0.0, fast});
  EXPECT_EQ(leaving.force.z, 0.0);
  EXPECT_EQ(leaving.force.x, 0.0);
  // Out of contact: nothing.
  const BodyContactLoad<double> above = underside_load(p, -0.01, {3.0, 0.0, -1.0});
  EXPECT_EQ(above.force.x, 0.0);
  EXPECT_EQ(above.force.z, 0.0);
}

// An HMMWV upside down, its roof `clearance` above flat ground, at rest: the rest state turned
// half a turn about x (body, wheel offsets and all), the capsize freeze off.
Batch upside_down(const StrutParams<double>& p, double clearance, double step = 1e-3) {
  BatchOptions options = cpu_options();
  options.capsize_roll = 0.0;
  options.step = step;
  Batch batch({p}, 1, TerrainSpec{}, options);
  std::vector<double> s = batch.state();
  const double rest_z = s[strut::kPos + 2];
  // Roll pi: (x, y, z) -> (x, -y, -z); the roof (body_roof_height - cg_height above the COM at
  // rest) now points down.
  s[strut::kQuat] = 0.0;
  s[strut::kQuat + 1] = 1.0;
  s[strut::kQuat + 2] = 0.0;
  s[strut::kQuat + 3] = 0.0;
  s[strut::kPos + 2] = (p.body_roof_height - p.cg_height) + clearance;
  for (int i = 0; i < kCorners; ++i) {
    s[strut::kUnsprungPos + 3 * i + 1] = -s[strut::kUnsprungPos + 3 * i + 1];
    s[strut::kUnsprungPos + 3 * i + 2] = -s[strut::kUnsprungPos + 3 * i + 2];
  }
  EXPECT_GT(rest_z, 0.5);
  batch.set_vehicle_state(0, s);
  return batch;
}

TEST(BodyContact, RoofDropNeverGainsEnergyAndComesToRestAtItsStaticPenetration) {
  const StrutParams<double> p = hmmwv_params();
  Batch batch = upside_down(p, 0.3);
  const test::LedgerRun ledger = test::sample_energy(batch, 600, 10);  // 6 s
  EXPECT_EQ(ledger.increases, 0) << "largest increase " << ledger.largest_increase << " J";
  EXPECT_EQ(batch.status()[0], kStatusRunning);
  // At rest on the four roof corners, the wheels hanging: the whole weight on four springs,
  // m g = 4 k d (the roof is level: the corners share it by the COM's place between them, and
  // their sum is what matters for the body's height at the COM).
  const std::vector<double> s = batch.state();
  const double depth = p.total_mass * p.gravity / (4.0 * p.body_contact_stiffness);
  EXPECT_NEAR(s[strut::kPos + 2], (p.body_roof_height - p.cg_height) - depth, 2e-3);
  // ... and stays there: over one more second it moves less than a millimetre.
  batch.step(1000);
  const std::vector<double> later = batch.state();
  for (int a = 0; a < 3; ++a) EXPECT_NEAR(later[strut::kPos + a], s[strut::kPos + a], 1e-3) << "axis " << a;
  EXPECT_LT(std::hypot(later[strut::kVel], later[strut::kVel + 1], later[strut::kVel + 2]), 1e-3);
}

// Laid on its right side (rolled a quarter turn), 0.1 m above flat ground, and let go with the
// capsize freeze off: the vehicle settles where its lower tires and body corners hold it, never
// gaining energy on the way, and then stays at rest: over one more second it moves less than a
// millimetre and turns less than a milliradian.
TEST(BodyContact, VehicleOnItsSideComesToRestAndStaysAtRest) {
  const StrutParams<double> p = hmmwv_params();
  BatchOptions options = cpu_options();
  options.capsize_roll = 0.0;
  Batch batch({p}, 1, TerrainSpec{}, options);
  std::vector<double> s = batch.state();
  // Roll +pi/2 about x: body (x, y, z) -> world (x, -z, y), the right side (-y) down.
  const double c = std::sqrt(0.5);
  s[strut::kQuat] = c;
  s[strut::kQuat + 1] = c;
  s[strut::kQuat + 2] = 0.0;
  s[strut::kQuat + 3] = 0.0;
  double lowest_wheel = 0.0;
  for (int i = 0; i < kCorners; ++i) {
    const double y = s[strut::kUnsprungPos + 3 * i + 1], z = s[strut::kUnsprungPos + 3 * i + 2];
    s[strut::kUnsprungPos + 3 * i + 1] = -z;
    s[strut::kUnsprungPos + 3 * i + 2] = y;
    lowest_wheel = std::min(lowest_wheel, y - p.tire.unloaded_radius);
  }
  const double lowest = std::min(lowest_wheel, -p.body_half_width);
  s[strut::kPos + 2] = -lowest + 0.1;
  batch.set_vehicle_state(0, s);
  const test::LedgerRun ledger = test::sample_energy(batch, 500, 10);  // 5 s
  EXPECT_EQ(ledger.increases, 0) << "largest increase " << ledger.largest_increase << " J";
  ASSERT_EQ(batch.status()[0], kStatusRunning);
  const std::vector<double> rest = batch.state();
  const VehicleSnapshot at_rest = batch.snapshots()[0];
  EXPECT_GT(std::fabs(at_rest.euler[0]), 0.25 * kPi) << "still on its side (or beyond), not back on its wheels";
  batch.step(1000);
  const std::vector<double> later = batch.state();
  const VehicleSnapshot after = batch.snapshots()[0];
  for (int a = 0; a < 3; ++a) {
    EXPECT_NEAR(later[strut::kPos + a], rest[strut::kPos + a], 1e-3) << "axis " << a;
    EXPECT_NEAR(after.euler[a], at_rest.euler[a], 1e-3) << "angle " << a;
  }
  EXPECT_LT(std::hypot(later[strut::kVel], later[strut::kVel + 1], later[strut::kVel + 2]), 1e-3);
}

// Every damper, the rolling resistance, the contact damping and friction off: the ledger, with
// the contact's k d^2 / 2, is conserved up to the integrator's error through the landing and the
// bounce (the force is the potential's gradient).
TEST(BodyContact, ElasticContactConservesTheLedger) {
  StrutParams<double> p = hmmwv_params();
  p.damping_bump_front = p.damping_rebound_front = p.damping_bump_rear = p.damping_rebound_rear = 0.0;
  p.link_damping_ratio = 0.0;
  p.tire.rolling_resistance = 0.0;
  p.body_contact_damping = 0.0;
  p.body_mu = 0.0;
  finalize_vehicle_params(p);
  Batch batch = upside_down(p, 0.2, 2.5e-4);
  const double e0 = batch.energy(0).total();
  double touched = 0.0;
  for (int k = 0; k < 400; ++k) {  // 1 s: lands, bounces
    batch.step(10);
    touched = std::max(touched, batch.energy(0).body_potential);
  }
  EXPECT_GT(touched, 1000.0) << "the roof must have landed";
  const double drift = (batch.energy(0).total() - e0) / std::fabs(e0);
  EXPECT_LT(std::fabs(drift), 1e-4);
}

// The penetrations of the body box's corners at body pose (pos, rot) on flat ground [m].
double total_penetration(const VehicleCommon<double>& p, Vec3<double> pos, const Mat3<double>& rot) {
  double sum = 0.0;
  for (const Vec3<double>& corner : p.body_corner) sum += std::max(0.0, -(pos + rot * corner).z);
  return sum;
}

// Both models upside down, dropped onto the roof with the capsize freeze off: each comes to rest
// on its roof, where the roof springs alone carry the whole weight, k sum(d_i) = m g, however the
// load is shared among the corners (the vertical force balance of a body at rest).
TEST(BodyContact, BothModelsComeToRestOnTheRoofCarryingTheirWeight) {
  {
    const StrutParams<double> p = hmmwv_params();
    Batch batch = upside_down(p, 0.3);
    batch.step(6000);
    ASSERT_EQ(batch.status()[0], kStatusRunning);
    const std::vector<double> s = batch.state();
    const Mat3<double> rot = rotation_matrix(normalized(load_quat(s.data(), strut::kQuat)));
    const double sum = total_penetration(p, load3(s.data(), strut::kPos), rot);
    EXPECT_NEAR(p.body_contact_stiffness * sum, p.total_mass * p.gravity, 0.005 * p.total_mass * p.gravity) << "strut";
  }
  {
    const CeParams<double> p = hmmwv_ce_params();
    BatchOptions options = cpu_options();
    options.capsize_roll = 0.0;
    Batch batch({p}, 1, TerrainSpec{}, options);
    std::vector<double> s = batch.state();
    // Roll pi; the chassis origin put so the roof corners are 0.3 m above the ground.
    s[ce::kQuat] = 0.0;
    s[ce::kQuat + 1] = 1.0;
    s[ce::kQuat + 2] = 0.0;
    s[ce::kQuat + 3] = 0.0;
    s[ce::kPos + 2] = p.body_corner[4].z + 0.3;
    for (int a = 0; a < 3; ++a) s[ce::kVel + a] = s[ce::kOmega + a] = 0.0;
    batch.set_vehicle_state(0, s);
    batch.step(3000);  // 6 s at 2 ms
    ASSERT_EQ(batch.status()[0], kStatusRunning);
    const std::vector<double> end = batch.state();
    const Mat3<double> rot = rotation_matrix(normalized(load_quat(end.data(), ce::kQuat)));
    const double sum = total_penetration(p, load3(end.data(), ce::kPos), rot);
    const double weight = ce_total_mass(p) * p.gravity;
    EXPECT_NEAR(p.body_contact_stiffness * sum, weight, 0.005 * weight) << "ce";
    EXPECT_LT(std::hypot(end[ce::kVel], end[ce::kVel + 1], end[ce::kVel + 2]), 1e-3);
  }
}

double metric_of(Batch& batch, int metric) { return batch.metrics()[static_cast<size_t>(metric)]; }

// The body contact and rollover metrics on CUDA against the CPU: each model dropped upside down
// from 0.3 m (2 s: the landing, the bounces, the rest), copied to 1, 13 and 1001 vehicles on the
// device, each against the one CPU run: final positions and every metric within the batch
// contract's tolerances (test::cuda_position_tolerance, test_batch_contract.cpp).
class BodyContactCuda : public ::testing::TestWithParam<test::CudaCase> {};

TEST_P(BodyContactCuda, CudaMatchesCpu) {
  std::string why;
  if (!cuda_available(&why)) GTEST_SKIP() << why;
  const int n = GetParam().vehicles;
  const Precision precision = GetParam().precision;
  const StrutParams<double> strut = hmmwv_params();
  const CeParams<double> ce = hmmwv_ce_params();
  for (int model = 0; model < 2; ++model) {
    std::vector<std::vector<double>> metrics, states;
    for (BackendKind backend : {BackendKind::Cpu, BackendKind::Cuda}) {
      const int count = backend == BackendKind::Cpu ? 1 : n;
      BatchOptions options = cpu_options(precision);
      options.capsize_roll = 0.0;
      options.backend = backend;
      Batch batch = model == 0 ? Batch({strut}, count, TerrainSpec{}, options) : Batch({ce}, count, TerrainSpec{}, options);
      std::vector<double> s = test::vehicle_state(batch, 0);
      const int quat = model == 0 ? int(strut::kQuat) : int(ce::kQuat), pos = model == 0 ? int(strut::kPos) : int(ce::kPos);
      s[quat] = 0.0;
      s[quat + 1] = 1.0;
      s[quat + 2] = 0.0;
      s[quat + 3] = 0.0;
      s[pos + 2] = (model == 0 ? strut.body_roof_height - strut.cg_height : ce.body_corner[4].z) + 0.3;
      if (model == 0) {
        for (int i = 0; i < kCorners; ++i) {
          s[strut::kUnsprungPos + 3 * i + 1] = -s[strut::kUnsprungPos + 3 * i + 1];
          s[strut::kUnsprungPos + 3 * i + 2] = -s[strut::kUnsprungPos + 3 * i + 2];
        }
      }
      for (int v = 0; v < count; ++v) batch.set_vehicle_state(v, s);
      batch.step(model == 0 ? 2000 : 1000);
      for (int v = 0; v < count; ++v) EXPECT_EQ(batch.status()[v], kStatusRunning) << "vehicle " << v;
      metrics.push_back(batch.metrics());
      states.push_back(batch.state());
    }
    for (int v = 0; v < n; ++v) {
      for (int a = 0; a < 3; ++a) {
        const size_t pos = static_cast<size_t>((model == 0 ? int(strut::kPos) : int(ce::kPos)) + a);
        EXPECT_NEAR(states[1][pos * n + v], states[0][pos], test::cuda_position_tolerance(precision, states[0][pos]))
            << "model " << model << ", vehicle " << v;
      }
      for (int m = 0; m < kMetricCount; ++m) {
        const double c = metrics[0][static_cast<size_t>(m)], g = metrics[1][static_cast<size_t>(m) * n + v];
        EXPECT_LE(std::fabs(g - c), test::cuda_metric_tolerance(precision, c))
            << "model " << model << ", vehicle " << v << ", metric " << m;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Sizes, BodyContactCuda, ::testing::ValuesIn(test::cuda_copied_cases()), test::cuda_case_name);

// The roof-impact metric against free fall: dropped upside down from 0.3 m, the roof meets the
// ground at sqrt(2 g h) (plus at most one step's g dt, as the first contact is seen at a step's
// start). It lies on its roof (final_attitude 2) without having rolled (0 quarter turns).
TEST(RolloverMetrics, RoofImpactSpeedIsTheFreeFallSpeed) {
  const StrutParams<double> p = hmmwv_params();
  const double h = 0.3;
  Batch batch = upside_down(p, h);
  batch.step(2000);
  const double v = std::sqrt(2.0 * p.gravity * h);
  const double measured = metric_of(batch, metric::max_roof_contact_speed);
  EXPECT_GE(measured, v - 1e-3) << "free fall " << v << " m/s";
  EXPECT_LE(measured, v + p.gravity * 1e-3 + 1e-3);
  EXPECT_EQ(metric_of(batch, metric::final_attitude), 2.0);
  EXPECT_EQ(metric_of(batch, metric::roll_quarter_turns), 0.0);
}

// Quarter turns and attitude against a rotation computed by hand: high above the ground with
// gravity off, a vehicle spun rigidly (wheels included) at 1.9 rad/s about its roll axis (a
// principal axis: it keeps spinning about it) for 2 s turns 3.8 rad, floor(3.8 / (pi/2)) = 2 quarter turns, and ends
// 217.7 deg round, i.e. 142.3 deg from upright: on its roof.
TEST(RolloverMetrics, QuarterTurnsAndAttitudeOfASpinningVehicle) {
  StrutParams<double> p = hmmwv_params();
  p.gravity = 0.0;
  finalize_vehicle_params(p);
  BatchOptions options = cpu_options();
  options.capsize_roll = 0.0;
  Batch batch({p}, 1, TerrainSpec{}, options);
  std::vector<double> s = batch.state();
  s[strut::kPos + 2] += 50.0;
  s[strut::kOmega] = 1.9;
  for (int i = 0; i < kCorners; ++i) {  // the wheels turn with the body: omega x r, relative to the body's velocity
    s[strut::kUnsprungVel + 3 * i + 1] = -1.9 * s[strut::kUnsprungPos + 3 * i + 2];
    s[strut::kUnsprungVel + 3 * i + 2] = 1.9 * s[strut::kUnsprungPos + 3 * i + 1];
  }
  batch.set_vehicle_state(0, s);
  batch.step(2000);
  EXPECT_NEAR(metric_of(batch, metric::roll_rotation), 3.8, 0.02);
  EXPECT_EQ(metric_of(batch, metric::roll_quarter_turns), 2.0);
  EXPECT_EQ(metric_of(batch, metric::final_attitude), 2.0);
  EXPECT_EQ(metric_of(batch, metric::max_roof_contact_speed), 0.0);
}

}  // namespace
}  // namespace fleetdyn
