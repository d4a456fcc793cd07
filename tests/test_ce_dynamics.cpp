// ce model dynamics: the O(N) articulated-body recursion against the dense joint-space solve
// (a dense joint-space reference), static equilibrium, and conservation of energy.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "fleetdyn/ce.h"
#include "tests/ce_test_util.h"
#include "tests/reference/ce_reference_dynamics.h"

namespace fleetdyn {
namespace {

using namespace ce;

TerrainDesc<double> flat_ground(double mu_scale = 1.0) {
  TerrainDesc<double> t{};
  t.kind = TerrainKind::Flat;
  t.mu_scale = mu_scale;
  return t;
}

class CeDynamics : public ::testing::Test {
 protected:
  CeParams<double> p = hmmwv_ce_params();
  TerrainDesc<double> ground = flat_ground();
  CeEnvironment<double> env{&ground, 0.0, 0.0};
};

TEST_F(CeDynamics, RecursionMatchesDenseJointSpaceSolve) {
  std::mt19937 rng(7);
  double worst = 0.0;
  for (int trial = 0; trial < 25; ++trial) {
    const std::vector<double> s = agitated_state(p, rng);
    const DriverInput<double> input{0.6 * std::sin(trial), 0.5, trial % 3 == 0 ? 0.4 : 0.0};
    double ds[kStateSize];
    ce_derivative(p, env, input, s.data(), ds);
    const CeDenseDynamics dense = ce_dense_dynamics(p, env, input, s.data());
    const double recursion[kCeDofs] = {ds[kOmega],         ds[kOmega + 1],    ds[kOmega + 2], ds[kVel],
                                       ds[kVel + 1],       ds[kVel + 2],      ds[kLcaRate],   ds[kLcaRate + 1],
                                       ds[kLcaRate + 2],   ds[kLcaRate + 3],  ds[kWheelSpin], ds[kWheelSpin + 1],
                                       ds[kWheelSpin + 2], ds[kWheelSpin + 3]};
    double scale = 0.0;
    for (double a : dense.accelerations) scale = std::fmax(scale, std::fabs(a));
    for (int k = 0; k < kCeDofs; ++k) {
      const double rel = std::fabs(recursion[k] - dense.accelerations[k]) / scale;
      worst = std::fmax(worst, rel);
      EXPECT_LT(rel, 1e-9) << "trial " << trial << " dof " << k << ": " << recursion[k] << " vs " << dense.accelerations[k];
    }
  }
  RecordProperty("worst_relative_difference", std::to_string(worst));
}

TEST_F(CeDynamics, MassMatrixIsSymmetricPositiveDefiniteWithTheTotalMass) {
  std::mt19937 rng(3);
  const std::vector<double> s = agitated_state(p, rng);
  const CeDenseDynamics dense = ce_dense_dynamics(p, env, DriverInput<double>{0, 0, 0}, s.data());
  // The translational block of the floating base is the whole vehicle's mass.
  for (int k = 3; k < 6; ++k) EXPECT_NEAR(dense.mass_matrix[k * kCeDofs + k], ce_total_mass(p), 1e-9);
  for (int r = 0; r < kCeDofs; ++r)
    for (int c = 0; c < kCeDofs; ++c)
      EXPECT_NEAR(dense.mass_matrix[r * kCeDofs + c], dense.mass_matrix[c * kCeDofs + r], 1e-9);
}

TEST_F(CeDynamics, RestStateIsStaticEquilibriumNearTheDesignPosition) {
  const std::vector<double> s = ce_rest_state(p);
  double ds[kStateSize];
  CeCornerBodies<double> corners[kCorners];
  ce_derivative(p, env, DriverInput<double>{0, 0, 0}, s.data(), ds, corners);
  double total_load = 0.0;
  for (int i = 0; i < kCorners; ++i) {
    total_load += corners[i].tire_normal_force;
    EXPECT_NEAR(ds[kLcaRate + i], 0.0, 1e-6);
    EXPECT_NEAR(ds[kWheelSpin + i], 0.0, 1e-6);
    // The preset's spring free lengths are balanced so the rest position is the design one.
    EXPECT_NEAR(s[kLca + i], 0.0, 1e-7) << corner_name(i);
  }
  for (int k = 0; k < 3; ++k) {
    EXPECT_NEAR(ds[kOmega + k], 0.0, 1e-6);
    EXPECT_NEAR(ds[kVel + k], 0.0, 1e-6);
  }
  // Sum of the tire loads carries the whole weight.
  EXPECT_NEAR(total_load, ce_total_mass(p) * p.gravity, 1e-6 * total_load);
  // Left and right carry the same; the front/rear split follows the chassis COM (x = 0.056 m
  // ahead of the axle midpoint puts slightly more on the front).
  EXPECT_NEAR(corners[0].tire_normal_force, corners[1].tire_normal_force, 1e-6 * total_load);
  EXPECT_NEAR(corners[2].tire_normal_force, corners[3].tire_normal_force, 1e-6 * total_load);
  EXPECT_GT(corners[0].tire_normal_force, corners[2].tire_normal_force);
}

TEST_F(CeDynamics, EnergyIsConservedWithDampersAndSlipOff) {
  // Energy conservation: shocks, tire damping, slip forces, rolling resistance off; the vehicle
  // bounces, pitches, rolls and spins its wheels for 10 s on a frictionless floor.
  CeParams<double> q = p;
  for (int a = 0; a < 2; ++a) {
    q.axle[a].shock_mid_compression = q.axle[a].shock_mid_rebound = 0.0;
    q.axle[a].shock_out_compression = q.axle[a].shock_out_rebound = 0.0;
  }
  q.tire.vertical_damping = 0.0;
  q.tire.rolling_resistance = 0.0;
  const TerrainDesc<double> ice = flat_ground(0.0);  // surface friction 0: no slip forces
  const CeEnvironment<double> env0{&ice, 0.0, 0.0};
  std::vector<double> s = ce_rest_state(q, 5.0);
  s[kPos + 2] += 0.01;    // drop: heave
  s[kOmega + 0] = 0.2;    // roll
  s[kOmega + 1] = -0.15;  // pitch
  s[kOmega + 2] = 0.2;    // yaw
  for (int i = 0; i < kCorners; ++i) s[kLcaRate + i] = 0.2 * (i + 1) - 0.5;
  const double e0 = ce_energy(q, env0, s.data());
  std::vector<double> next(kStateSize);
  double worst = 0.0, min_load = 1e9;
  const double dt = 1e-3;
  for (int step = 0; step < 10000; ++step) {
    ce_step(q, env0, dt, 1, DriverInput<double>{0, 0, 0}, s.data(), next.data());
    s.swap(next);
    if (step % 50 == 0) {
      worst = std::fmax(worst, std::fabs(ce_energy(q, env0, s.data()) - e0) / std::fabs(e0));
      CeCornerBodies<double> corners[kCorners];
      double ds[kStateSize];
      ce_derivative(q, env0, DriverInput<double>{0, 0, 0}, s.data(), ds, corners);
      for (int i = 0; i < kCorners; ++i) min_load = std::fmin(min_load, corners[i].tire_normal_force);
    }
  }
  EXPECT_GT(min_load, 0.0);  // the tires stayed in contact (no impacts, whose kink RK4 cannot follow)
  EXPECT_LT(worst, 1e-6) << "relative energy drift";
  RecordProperty("energy_drift", std::to_string(worst));
}

TEST_F(CeDynamics, DefaultStepIsStableAndResolvesTheFastestMode) {
  const StepAnalysis a = ce_step_analysis(p);
  EXPECT_GT(a.stiffest_rate, 0.0);
  EXPECT_LE(a.default_step, 0.75 * a.rk4_stable_step);
  EXPECT_LE(a.stiffest_rate * a.default_step, 0.3);
  EXPECT_GT(a.stiffest_rate * a.default_step, 0.3 * 0.4);  // the 1-2-5 rounding loses at most 60 %
  RecordProperty("default_step", std::to_string(a.default_step));
  RecordProperty("rk4_stable_step", std::to_string(a.rk4_stable_step));
}

// Drives 4 s at 12 m/s over a 6 cm bump under the left wheels, then steers into a turn, with
// step `dt` (dividing 20 ms) in precision T; returns the chassis origin and wheel-centre
// positions every 0.1 s.
template <class T = double>
std::vector<Vec3<double>> bump_and_steer(const CeParams<double>& params, double dt) {
  TerrainDesc<T> bump{};
  bump.kind = TerrainKind::Hill;
  bump.hill_x = T(14.0);
  bump.hill_y = T(0.9);
  bump.hill_height = T(0.06);
  bump.hill_radius = T(0.4);
  bump.mu_scale = T(1.0);
  const CeEnvironment<T> env{&bump, T(0), T(0)};
  const CeParams<T> p = convert_ce_params<T>(params);
  const std::vector<double> rest = ce_rest_state(params, 12.0);
  std::vector<T> s(rest.begin(), rest.end()), next(kStateSize);
  std::vector<Vec3<double>> samples;
  const int steps = static_cast<int>(std::lround(4.0 / dt)), every = static_cast<int>(std::lround(0.1 / dt));
  for (int k = 0; k < steps; ++k) {
    // The driver's command is held over 20 ms (a 50 Hz controller), the same for every dt, so
    // the comparison measures the integration, not the sampling of the input.
    const double t = 0.02 * std::floor(k * dt / 0.02 + 1e-9);
    const DriverInput<T> input{T(t < 1.5 ? 0.0 : std::fmin(0.25, 0.25 * (t - 1.5) / 0.5)), T(0.2), T(0)};
    ce_step(p, env, T(dt), 1, input, s.data(), next.data());
    s.swap(next);
    if ((k + 1) % every == 0) {
      CeCornerBodies<T> corners[kCorners];
      T ds[kStateSize];
      ce_derivative(p, env, input, s.data(), ds, corners);
      const Mat3<T> rot = rotation_matrix(normalized(load_quat(s.data(), kQuat)));
      const Vec3<T> origin = load3(s.data(), kPos);
      const Vec3<double> o{origin.x, origin.y, origin.z};
      samples.push_back(o);
      for (int i = 0; i < kCorners; ++i) {
        const Vec3<T> w = origin + rot * corners[i].pose.wheel_centre;
        samples.push_back(Vec3<double>{w.x, w.y, w.z});
      }
    }
  }
  return samples;
}

TEST_F(CeDynamics, DefaultStepConvergesOnABumpAndSteerManeuver) {
  // The default step must give the answer of an 8x finer step to within a millimetre over a
  // maneuver that excites wheel hop, roll and the tire transients.
  const double dt = ce_step_analysis(p).default_step;
  const std::vector<Vec3<double>> coarse = bump_and_steer(p, dt), fine = bump_and_steer(p, dt / 8.0);
  ASSERT_EQ(coarse.size(), fine.size());
  double worst = 0.0;
  for (size_t k = 0; k < coarse.size(); ++k) worst = std::fmax(worst, norm(coarse[k] - fine[k]));
  EXPECT_LT(worst, 1e-3) << "default step " << dt << " s";
  // The maneuver did turn the vehicle and lift the left wheels (it tests something).
  EXPECT_GT(std::fabs(coarse[coarse.size() - 5].y), 1.0);
  RecordProperty("worst_position_difference_m", std::to_string(worst));
}

TEST_F(CeDynamics, SinglePrecisionFollowsDoubleOnABumpAndSteerManeuver) {
  // fp32 (the GPU's speed default) against fp64, same maneuver and step. Measured 0.1 mm over
  // 4 s and 45 m (positions kept small relative to the vehicle's origin); the bound, 1 mm, leaves
  // room for other compilers' rounding, not for a wrong float path (which is off by metres).
  const double dt = ce_step_analysis(p).default_step;
  const std::vector<Vec3<double>> single = bump_and_steer<float>(p, dt), twice = bump_and_steer<double>(p, dt);
  double worst = 0.0;
  for (size_t k = 0; k < single.size(); ++k) worst = std::fmax(worst, norm(single[k] - twice[k]));
  EXPECT_LT(worst, 1e-3);
  EXPECT_GT(worst, 0.0);  // it really ran in float
  RecordProperty("fp32_vs_fp64_worst_m", std::to_string(worst));
}

}  // namespace
}  // namespace fleetdyn
