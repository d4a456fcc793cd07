// The maximal-coordinate HMMWV of the pgs model against the ce model it is
// built from and the strut model: static wheel loads, suspension kinematics, a step steer.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "fleetdyn/batch.h"
#include "fleetdyn/ce.h"
#include "fleetdyn/error.h"
#include "fleetdyn/pgs_vehicle.h"
#include "fleetdyn/suspension.h"
#include "fleetdyn/vehicle.h"

namespace fleetdyn {
namespace {

using namespace pgsv;

struct VehicleRun {
  PgsVehicleParams<double> params;
  TerrainDesc<double> terrain = default_terrain_desc<double>();
  std::vector<double> state;
  Loads<double> loads{};
  int status = 0;

  explicit VehicleRun(const PgsVehicleDef& def = {}, double step = 1e-3)
      : params(build_pgs_vehicle_params<double>(def, step, default_terrain_desc<double>())) {
    state = pgs_vehicle_state_from_ce(params, ce_rest_state(pgs_vehicle_rest_params(def)));
  }
  void step(int n, DriverInput<double> input = {0.0, 0.0, 0.0}, double dt = 1e-3) {
    std::vector<double> next(state.size());
    for (int k = 0; k < n; ++k) {
      status |= vehicle_step(params, terrain, 0.0, 0.0, dt, 1, input, state.data(), next.data(), &loads);
      state.swap(next);
    }
  }
  Vec3<double> chassis_pos() const { return load3(state.data(), pgs::body_field(kChassisBody, pgs::kPx)); }
};

// ce's tire loads in its rest state on flat ground.
CeDiagnostics<double> ce_rest_loads(const CeParams<double>& p) {
  const std::vector<double> rest = ce_rest_state(p);
  const TerrainDesc<double> flat = default_terrain_desc<double>();
  CeDiagnostics<double> diag{};
  double ds[kCeStateSize];
  ce_derivative(p, CeEnvironment<double>{&flat, 0.0, 0.0}, DriverInput<double>{0.0, 0.0, 0.0}, rest.data(), ds,
                static_cast<CeCornerBodies<double>*>(nullptr), &diag);
  return diag;
}

// The ce rest state maps onto a pgs state that satisfies every joint (the two layouts describe
// the same configuration), and stays at rest: static equilibrium is the same in both models.
TEST(PgsVehicle, CeRestStateIsAssembledAndStaysAtRest) {
  VehicleRun run;
  const Vec3<double> start = run.chassis_pos();
  run.step(1);
  EXPECT_LT(run.state[kDrift], 1e-9) << "joint error of the mapped ce rest state";
  run.step(1999);
  EXPECT_EQ(run.status & pgs::kStatusNonFinite, 0);
  EXPECT_LT(run.state[kDrift], 1e-4);
  const Vec3<double> moved = run.chassis_pos() - start;
  EXPECT_LT(norm(moved), 2e-3) << "chassis moved " << moved.x << " " << moved.y << " " << moved.z;
}

// Static wheel loads: pgs at rest against ce's rest state and the strut equivalent's static
// loads, within 1 %.
TEST(PgsVehicle, StaticWheelLoadsMatchCeAndStrut) {
  PgsVehicleDef def;
  VehicleRun run(def);
  run.step(2000);
  const CeDiagnostics<double> diag = ce_rest_loads(def.vehicle);
  const StrutParams<double> strut = strut_equivalent_params(def.vehicle);
  double total = 0.0;
  for (int c = 0; c < kCorners; ++c) {
    const double pgs_load = run.loads.tire_normal_force[c];
    total += pgs_load;
    EXPECT_NEAR(pgs_load / diag.tire_normal_force[c], 1.0, 0.01) << "corner " << c;
    EXPECT_NEAR(pgs_load / strut.static_tire_load[c], 1.0, 0.01) << "corner " << c;
  }
  EXPECT_NEAR(total / (ce_total_mass(def.vehicle) * def.vehicle.gravity), 1.0, 1e-3);
}

// Suspension kinematics: the chassis is made kinematic and heaved +-8 cm slowly over the wheels
// standing on the ground, so each corner sweeps its travel; camber and toe of the pgs wheel
// bodies are compared with ce's analytic closed forms (corner_pose) at the same LCA angle. The
// two agree up to the joints' error, so the bound is the drift the solver reports: an angle
// error of at most a few times the drift over the shortest link (the upright, ~0.3 m).
TEST(PgsVehicle, CamberAndToeFollowCeKinematicsOverTheTravel) {
  PgsVehicleDef def;
  VehicleRun run(def);
  pgs::Body<double>& chassis = run.params.bodies[kChassisBody];
  chassis.kinematic = 1;
  chassis.mass = 0.0;
  chassis.inv_inertia = Vec3<double>{0.0, 0.0, 0.0};
  chassis.motion_origin = run.chassis_pos();
  chassis.motion_amplitude = Vec3<double>{0.0, 0.0, 0.08};
  chassis.motion_frequency = 2.0 * 3.14159265358979 * 0.25;  // one cycle in 4 s
  double max_camber_error = 0.0, max_toe_error = 0.0, max_drift = 0.0, lca_min = 0.0, lca_max = 0.0;
  const SteeringLinkState<double> centred = steering_link_state(def.vehicle.steering, 0.0, 0.0, 0.0);
  for (int k = 0; k < 400; ++k) {
    run.step(10);
    max_drift = std::max(max_drift, run.state[kDrift]);
    for (int c = 0; c < kCorners; ++c) {
      const PgsCornerAngles a = pgs_vehicle_corner_angles(run.params, run.state, c);
      const CornerGeometry<double>& g = def.vehicle.corner[c];
      const CornerPose<double> pose = corner_pose(g, a.lca_angle, tierod_inner_point(g, def.vehicle.steering, centred));
      max_camber_error = std::max(max_camber_error, std::fabs(a.camber - camber_angle(pose, g.side)));
      max_toe_error = std::max(max_toe_error, std::fabs(a.toe_in - toe_in_angle(pose, g.side)));
      lca_min = std::min(lca_min, a.lca_angle);
      lca_max = std::max(lca_max, a.lca_angle);
    }
  }
  EXPECT_EQ(run.status & pgs::kStatusNonFinite, 0);
  EXPECT_LT(lca_min, -0.1);
  EXPECT_GT(lca_max, 0.1);
  const double bound = 3.0 * max_drift / 0.3 + 1e-6;
  EXPECT_LT(max_camber_error, bound);
  EXPECT_LT(max_toe_error, bound);
}

// Step steer at 15 m/s, 10 s at 1 ms: stable, the joints hold, and the
// steady turn matches ce's on the same inputs (yaw rate within 2 %). The joint error peaks at the
// steering step, where 30 sweeps do not converge the impulse that swings the wheels about their
// kingpins (1.2 mm), and Baumgarte brings it back to ~20 um.
TEST(PgsVehicle, StepSteerRunsStablyAndMatchesCe) {
  PgsVehicleDef def;
  const double speed = 15.0, dt = 1e-3;
  const std::vector<double> ce_start = ce_rest_state(def.vehicle, speed);
  VehicleRun run(def);
  run.state = pgs_vehicle_state_from_ce(run.params, ce_start);
  std::vector<double> ce_state = ce_start, ce_next(ce_state.size());
  const TerrainDesc<double> flat = default_terrain_desc<double>();
  double max_drift = 0.0, pgs_yaw = 0.0, ce_yaw = 0.0;
  int samples = 0;
  for (int k = 0; k < 10000; ++k) {
    const DriverInput<double> input{k * dt >= 1.0 ? 0.1 : 0.0, 0.0, 0.0};
    run.step(1, input, dt);
    ce_step(def.vehicle, CeEnvironment<double>{&flat, 0.0, 0.0}, dt, 1, input, ce_state.data(), ce_next.data());
    ce_state.swap(ce_next);
    max_drift = std::max(max_drift, run.state[kDrift]);
    if (k * dt >= 8.0) {
      pgs_yaw += run.state[pgs::body_field(kChassisBody, pgs::kWz)];
      ce_yaw += (rotation_matrix(load_quat(ce_state.data(), ce::kQuat)) * load3(ce_state.data(), ce::kOmega)).z;
      ++samples;
    }
  }
  pgs_yaw /= samples;
  ce_yaw /= samples;
  std::printf("step steer: drift peak %.2e m, final %.2e m; yaw rate pgs %.5f ce %.5f rad/s\n", max_drift,
              run.state[kDrift], pgs_yaw, ce_yaw);
  EXPECT_EQ(run.status & pgs::kStatusNonFinite, 0);
  EXPECT_LT(max_drift, 2e-3);
  EXPECT_LT(run.state[kDrift], 5e-5);
  EXPECT_GT(ce_yaw, 0.05);
  EXPECT_NEAR(pgs_yaw / ce_yaw, 1.0, 0.02);
}

// The rigid-wheel mode (contact and friction rows instead of the tire), started from the rest
// state of a rigid tire (pgs_vehicle_rest_params). Normal impulses stay non-negative and friction
// inside mu at every step. Without friction the static loads are unique and equal ce's within
// 1 % per wheel. With friction, four rigid contacts leave the diagonal (warp) share of the loads
// statically indeterminate (what settles depends on how the wheels scrubbed on the way), so only
// the axle loads, which statics fix, are compared; all loads averaged over the last second.
TEST(PgsVehicle, RigidWheelModeCarriesTheStaticLoads) {
  const CeDiagnostics<double> diag = ce_rest_loads(hmmwv_ce_params());
  for (double mu : {0.0, 0.8}) {
    PgsVehicleDef def;
    def.wheel_contact = WheelContact::Rows;
    def.vehicle.tire.mu = mu;
    VehicleRun run(def);
    double mean_load[kCorners] = {};
    for (int k = 0; k < 3000; ++k) {
      run.step(1);
      for (int c = 0; c < kCorners; ++c) {
        const int normal_row = run.params.contacts[c].row_begin;
        const double lambda_n = run.state[pgs::impulse_field(kBodies, normal_row)];
        const double lambda_t = std::hypot(run.state[pgs::impulse_field(kBodies, normal_row + 1)],
                                           run.state[pgs::impulse_field(kBodies, normal_row + 2)]);
        ASSERT_GE(lambda_n, 0.0);
        ASSERT_LE(lambda_t, mu * lambda_n * (1.0 + 1e-9) + 1e-12);
        if (k >= 2000) mean_load[c] += lambda_n / 1e-3 / 1000.0;
      }
    }
    EXPECT_EQ(run.status & pgs::kStatusNonFinite, 0);
    for (int axle = 0; axle < 2; ++axle) {
      const double pgs_axle = mean_load[2 * axle] + mean_load[2 * axle + 1];
      const double ce_axle = diag.tire_normal_force[2 * axle] + diag.tire_normal_force[2 * axle + 1];
      EXPECT_NEAR(pgs_axle / ce_axle, 1.0, 0.01) << "mu " << mu << " axle " << axle;
    }
    if (mu == 0.0) {
      for (int c = 0; c < kCorners; ++c) {
        EXPECT_NEAR(mean_load[c] / diag.tire_normal_force[c], 1.0, 0.01) << "corner " << c;
      }
    }
  }
}

// ---- the vehicle in the batch API -----------------------------------------------------------------

BatchOptions pgs_options(BackendKind backend, Precision precision) {
  BatchOptions o;
  o.backend = backend;
  o.precision = precision;
  o.step = 1e-3;
  o.cpu_threads = 1;
  return o;
}

// A step steer of `defs` vehicles in the batch (CPU, one thread), SIMD lanes or the scalar path.
std::vector<VehicleSnapshot> batch_step_steer(const std::vector<PgsVehicleDef>& defs, Precision precision, bool simd, int steps) {
  const Maneuver steer{{0.0, 0.0, 0.15, 0.0}, {1.0, 0.0, 0.15, 0.0}, {1.2, 0.1, 0.15, 0.0}};
  InitialCondition ic;
  ic.speed = 15.0;
  BatchOptions o = pgs_options(BackendKind::Cpu, precision);
  o.cpu_simd = simd;
  Batch batch(defs, static_cast<int>(defs.size()), TerrainSpec{}, o);
  batch.set_initial_conditions({ic});
  batch.set_maneuvers({steer});
  batch.step(steps);
  for (int s : batch.status()) EXPECT_EQ(s, kStatusRunning);
  return batch.snapshots();
}

// Six vehicles that differ (tire friction): a full group of SIMD lanes and a partial one in fp64.
std::vector<PgsVehicleDef> scattered_defs(int n) {
  std::vector<PgsVehicleDef> defs(static_cast<size_t>(n));
  for (int k = 0; k < n; ++k) defs[static_cast<size_t>(k)].vehicle.tire.mu *= 0.85 + 0.05 * k;
  return defs;
}

// The batch runs the same step as the physics above: from the batch's initial state, the direct
// loop of vehicle_step ends where the batch's scalar path ends, to round-off (fp64, constant
// inputs, 1 s; the two inline and contract multiply-adds differently); and fp32 stays within
// 2 cm of fp64 over a 4 s step steer (measured 0.4 mm: the joint errors are micrometres, and
// fp32 resolves the chassis-relative positions).
TEST(PgsVehicle, BatchMatchesTheDirectLoopAndFp32TracksFp64) {
  const DriverInput<double> input{0.05, 0.15, 0.0};
  InitialCondition ic;
  ic.speed = 15.0;
  BatchOptions o = pgs_options(BackendKind::Cpu, Precision::Fp64);
  o.cpu_simd = false;
  Batch batch({PgsVehicleDef{}}, 1, TerrainSpec{}, o);
  batch.set_initial_conditions({ic});
  batch.set_inputs({input});
  VehicleRun direct;
  direct.state = batch.state();
  batch.step(1000);
  direct.step(1000, input);
  const std::vector<double> batched = batch.state();
  ASSERT_EQ(batched.size(), direct.state.size());
  double largest = 0.0;
  for (size_t j = 0; j < batched.size(); ++j) largest = std::max(largest, std::fabs(batched[j] - direct.state[j]));
  EXPECT_LT(largest, 1e-9) << "largest state difference";
  EXPECT_GT(direct.chassis_pos().x, 14.0) << "the vehicle drove";

  const std::vector<VehicleSnapshot> fp64 = batch_step_steer({PgsVehicleDef{}}, Precision::Fp64, false, 4000);
  const std::vector<VehicleSnapshot> fp32 = batch_step_steer({PgsVehicleDef{}}, Precision::Fp32, false, 4000);
  std::printf("fp32 - fp64 after 4 s: %.4f %.4f m\n", fp32[0].position[0] - fp64[0].position[0],
              fp32[0].position[1] - fp64[0].position[1]);
  for (int a = 0; a < 2; ++a) EXPECT_NEAR(fp32[0].position[a], fp64[0].position[a], 0.02) << "axis " << a;
  EXPECT_NEAR(fp32[0].euler[2], fp64[0].euler[2], 2e-3);
  EXPECT_GT(fp64[0].euler[2], 0.3) << "the vehicle turned left";
}

// The CPU's SIMD lanes (the sweeps of 4 fp64 / 8 fp32 vehicles at once) against the scalar
// path: the same operations in the same order, so they agree to round-off after 3 s of a step
// steer (measured 1e-12 m fp64, 4e-4 m fp32); and a vehicle's result does not depend on its
// neighbours: alone, or in a partial group, it ends bit for bit where it ends in the full batch.
TEST(PgsVehicle, SimdLanesMatchTheScalarPath) {
  const std::vector<PgsVehicleDef> defs = scattered_defs(6);
  const std::vector<VehicleSnapshot> lanes = batch_step_steer(defs, Precision::Fp64, true, 3000);
  const std::vector<VehicleSnapshot> scalar = batch_step_steer(defs, Precision::Fp64, false, 3000);
  double largest = 0.0;
  for (size_t v = 0; v < defs.size(); ++v)
    for (int a = 0; a < 3; ++a) largest = std::max(largest, std::fabs(lanes[v].position[a] - scalar[v].position[a]));
  EXPECT_LT(largest, 1e-6) << "SIMD lanes vs scalar path, largest position difference [m]";
  // The vehicles differ: lanes must not have been mixed up.
  EXPECT_GT(std::fabs(lanes[0].position[1] - lanes[5].position[1]), 0.01);
  const std::vector<VehicleSnapshot> alone = batch_step_steer({defs[5]}, Precision::Fp64, true, 3000);
  EXPECT_EQ(alone[0].position, lanes[5].position);
  EXPECT_EQ(alone[0].euler, lanes[5].euler);
  const std::vector<PgsVehicleDef> three = scattered_defs(3);
  const std::vector<VehicleSnapshot> fp32_lanes = batch_step_steer(three, Precision::Fp32, true, 3000);
  const std::vector<VehicleSnapshot> fp32_scalar = batch_step_steer(three, Precision::Fp32, false, 3000);
  double largest32 = 0.0;
  for (size_t v = 0; v < three.size(); ++v)
    for (int a = 0; a < 3; ++a)
      largest32 = std::max(largest32, std::fabs(fp32_lanes[v].position[a] - fp32_scalar[v].position[a]));
  std::printf("lanes vs scalar after 3 s: fp64 %.2e m, fp32 %.2e m\n", largest, largest32);
  EXPECT_LT(largest32, 1e-3) << "fp32 SIMD lanes vs fp32 scalar path [m]";
}

// Vehicles whose solver tables differ (sweep counts, wheel-contact modes) cannot share lanes:
// each sweeps alone on its own table, and ends where the scalar path ends, to round-off (the two
// paths are compiled apart, and the compiler inlines, and so contracts multiply-adds, differently
// in each as the code around them changes). The sweep count alone moves vehicle 1 a thousand times
// further than that, so lanes that mixed the tables would fail.
TEST(PgsVehicle, SimdLanesWithDifferentSolversSweepApart) {
  std::vector<PgsVehicleDef> defs = scattered_defs(3);
  defs[1].iterations = 20;
  const std::vector<VehicleSnapshot> lanes = batch_step_steer(defs, Precision::Fp64, true, 1500);
  const std::vector<VehicleSnapshot> scalar = batch_step_steer(defs, Precision::Fp64, false, 1500);
  const double round_off = 1e-10;  // [m]
  double largest = 0.0;
  for (size_t v = 0; v < defs.size(); ++v)
    for (int a = 0; a < 3; ++a) largest = std::max(largest, std::fabs(lanes[v].position[a] - scalar[v].position[a]));
  EXPECT_LT(largest, round_off) << "SIMD lanes vs scalar path [m]";
  std::vector<PgsVehicleDef> same = defs;
  same[1].iterations = defs[0].iterations;
  const std::vector<VehicleSnapshot> other = batch_step_steer(same, Precision::Fp64, false, 1500);
  double moved = 0.0;
  for (int a = 0; a < 3; ++a) moved = std::max(moved, std::fabs(other[1].position[a] - scalar[1].position[a]));
  std::printf("lanes vs scalar %.2e m; vehicle 1 on the other table moves %.2e m\n", largest, moved);
  EXPECT_GT(moved, 1e3 * round_off) << "the sweep count must matter more than round-off";
}

// Severe step steers (scenarios/pgs_step_steer.yaml's inputs at 20 m/s) with the chassis COM
// raised, default settings (30 sweeps, warm start 0.9):
//   COM at 0.6 m: the inside wheels lift; the linkage holds (with warm start 1 the joints broke
//     within 3 s) and the vehicle turns as ce does;
//   COM at 1.0 m without body contact (nor rim contact): the vehicle rolls over, its lifted LCAs fall onto ce's
//     elastic droop stops (hinge-limit rows, implicit) and sink into them as deep as ce's do (its
//     stiff stop torque in RK4), within 0.012 rad, at every corner;
//   COM at 1.0 m with body contact: it lands on its body (physics/core/body_contact.h, the same
//     load in both models), short of the stops, and both models' LCAs still agree.
TEST(PgsVehicle, SevereStepSteersHoldTheLinkageAndStops) {
  const double speed = 20.0, dt = 1e-3;
  const TerrainDesc<double> flat = default_terrain_desc<double>();
  for (const auto& [com_z, body_contact] : {std::pair{0.6, true}, std::pair{1.0, false}, std::pair{1.0, true}}) {
    PgsVehicleDef def;
    def.vehicle.chassis_com.z = com_z;
    // Without body contact the rolled vehicle sinks until its wheels are buried past their rims:
    // that case keeps the tires' plain spring (no rim) to exercise the droop stops alone.
    if (!body_contact) {
      def.vehicle.body_contact_stiffness = def.vehicle.body_contact_damping = 0.0;
      def.vehicle.tire.rim_radius = 0.0;
    }
    VehicleRun run(def);
    std::vector<double> ce_state = ce_rest_state(def.vehicle, speed), ce_next(ce_state.size());
    run.state = pgs_vehicle_state_from_ce(run.params, ce_state);
    double worst_drift = 0.0, lowest[kCorners] = {}, ce_lowest[kCorners] = {};
    for (int k = 0; k < 5000; ++k) {
      const double t = k * dt;
      const DriverInput<double> input{t < 1.0 ? 0.0 : t < 1.3 ? 0.5 * (t - 1.0) / 0.3 : 0.5, 0.25, 0.0};
      run.step(1, input, dt);
      ce_step(def.vehicle, CeEnvironment<double>{&flat, 0.0, 0.0}, dt, 1, input, ce_state.data(), ce_next.data());
      ce_state.swap(ce_next);
      worst_drift = std::max(worst_drift, run.state[kDrift]);
      for (int c = 0; c < kCorners; ++c) {
        lowest[c] = std::min(lowest[c], pgs_vehicle_corner_angles(run.params, run.state, c).lca_angle);
        ce_lowest[c] = std::min(ce_lowest[c], ce_state[ce::kLca + c]);
      }
    }
    // Headings after 5 s (ZYX yaw of the chassis frames).
    const Mat3<double> pgs_rot = pgs_vehicle_chassis_motion(run.params, run.state.data()).rotation;
    const Mat3<double> ce_rot = rotation_matrix(load_quat(ce_state.data(), ce::kQuat));
    const double pgs_yaw = std::atan2(pgs_rot.m[1][0], pgs_rot.m[0][0]), ce_yaw = std::atan2(ce_rot.m[1][0], ce_rot.m[0][0]);
    std::printf(
        "COM %.1f m, body contact %d: worst drift %.2e m; yaw pgs %.4f ce %.4f rad; lowest LCA angles pgs %.4f %.4f "
        "%.4f "
        "%.4f, ce %.4f %.4f %.4f %.4f rad\n",
        com_z, int(body_contact), worst_drift, pgs_yaw, ce_yaw, lowest[0], lowest[1], lowest[2], lowest[3],
        ce_lowest[0], ce_lowest[1], ce_lowest[2], ce_lowest[3]);
    if (com_z < 0.8) {
      EXPECT_NEAR(pgs_yaw, ce_yaw, 0.03 * std::fabs(ce_yaw)) << "the same turn";
    }
    EXPECT_EQ(run.status & pgs::kStatusNonFinite, 0);
    EXPECT_LT(worst_drift, com_z < 0.8 ? 1e-3 : 0.01) << "COM " << com_z;
    for (int c = 0; c < kCorners; ++c) {
      EXPECT_NEAR(lowest[c], ce_lowest[c], 0.012) << "COM " << com_z << ", corner " << c;
      if (com_z > 0.8 && !body_contact) {
        EXPECT_LT(lowest[c], run.params.ce.axle[c / 2].droop_limit_lca) << "the stop was reached";
      }
    }
  }
}

TEST(PgsVehicle, BadDefinitionsAreRejected) {
  PgsVehicleDef def;
  def.iterations = 0;
  try {
    Batch batch({def}, 1, TerrainSpec{}, pgs_options(BackendKind::Cpu, Precision::Fp64));
    FAIL() << "iterations = 0 accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("iterations"), std::string::npos) << e.what();
  }
  PgsVehicleDef rigid;
  rigid.wheel_contact = WheelContact::Rows;
  TerrainSpec hill;
  hill.desc.kind = TerrainKind::Hill;
  hill.desc.hill_radius = 5.0;
  hill.desc.hill_height = 1.0;
  try {
    Batch batch({rigid}, 1, hill, pgs_options(BackendKind::Cpu, Precision::Fp64));
    FAIL() << "rigid wheels on a hill accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("flat"), std::string::npos) << e.what();
  }
  BatchOptions no_requery = pgs_options(BackendKind::Cpu, Precision::Fp64);
  no_requery.requery_contact = false;
  EXPECT_THROW(Batch({PgsVehicleDef{}}, 1, TerrainSpec{}, no_requery), Error);
}

}  // namespace
}  // namespace fleetdyn
