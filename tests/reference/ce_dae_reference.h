// Independent DAE reference for the ce model.
//
// The HMMWV written in maximal coordinates, the fully augmented form of seed 001 Fig. 1a and
// eq. 8: 21 free rigid bodies (chassis; per corner LCA, UCA, upright, tierod, wheel) with the
// same masses, COMs and inertias as CeParams, joined by algebraic joint constraints (revolutes,
// ball joints, the rheonomic front tierod end carried by the kinematic steering, the tierod's
// "no spin about its own axis" of the ce model's universal joints) and integrated by SUNDIALS IDA.
// Force elements are the ce model's own functions (spring, stops, shock, TMeasy tire, drive and
// brake), applied as point forces and torques instead of generalized forces.
//
// Formulation: stabilized index-2 (Gear-Gupta-Leimkuhler), see ce_dae_reference.cpp.
// Host-only; needs SUNDIALS (linked by the tests' fleetdyn_reference library, not by fleetdyn).
#pragma once

#include <functional>
#include <vector>

#include "fleetdyn/physics/ce/ce_model.h"

namespace fleetdyn {

struct CeDaeOptions {
  double rtol = 1e-10;
  double atol_position = 1e-11;  // [m], and quaternion components
  double atol_velocity = 1e-9;   // [m/s], [rad/s]
  // Multipliers are out of the error test (index 2) but in IDA's Newton convergence test.
  double atol_multiplier = 1e-2;  // lambda [N], [N m]
  double atol_projection = 1e-8;  // mu (GGL) [m/s-like]
  long max_steps = 2000000;
  double initial_step = 1e-4;      // [s]
  int max_newton_iterations = 10;  // per step (IDA's default: 4)
};

// One output sample (world frame, relative to the vehicle's local origin).
struct CeDaeSample {
  double t;
  Vec3<double> chassis_origin;  // chassis frame origin O (the ce state's kPos)
  Vec3<double> wheel_centre[kCorners];
  double max_joint_residual;      // [m] largest position constraint (ball joints)
  double max_angle_residual;      // [-] largest orientation constraint (revolute axes)
  double max_quat_norm_residual;  // [-] | |q|^2 - 1 |
  double max_velocity_residual;   // [m/s] largest velocity constraint
  double steer;                   // [rad] steering state
};

struct CeDaeStats {
  long steps = 0, residual_evals = 0, jacobian_evals = 0, error_test_failures = 0, nonlinear_failures = 0;
  int unknowns = 0, constraints = 0;
};

// Integrate from the ce state `s0` (ce::kStateSize values) with the driver input `input(t)`
// (only piecewise smooth; `breakpoints` are times where it may kink, IDA stops there) on
// `terrain`, returning one sample per entry of `sample_times` (increasing, > 0).
// Throws fleetdyn::Error if IDA fails.
std::vector<CeDaeSample> ce_dae_simulate(const CeParams<double>& p, const TerrainDesc<double>& terrain,
                                         const std::vector<double>& s0, const std::function<DriverInput<double>(double)>& input,
                                         const std::vector<double>& breakpoints, const std::vector<double>& sample_times,
                                         const CeDaeOptions& options = {}, CeDaeStats* stats = nullptr);

// The accelerations of seed eq. 8 (the KKT system of the maximal-coordinate model) at a ce
// state, with the driver input held: world frame, each body's COM (the wheel's is its centre).
// An instantaneous, integration-free comparison with the ce recursion.
struct CeDaeAccelerations {
  Vec3<double> chassis_com_acc, chassis_alpha;
  Vec3<double> wheel_centre_acc[kCorners], upright_alpha[kCorners], wheel_alpha[kCorners];
};
CeDaeAccelerations ce_dae_accelerations(const CeParams<double>& p, const TerrainDesc<double>& terrain,
                                        const std::vector<double>& s, DriverInput<double> input);

}  // namespace fleetdyn
