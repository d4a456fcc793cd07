// Dense reference for the ce model's forward dynamics: the joint-space
// mass matrix and bias forces assembled by summing body Jacobians, M = sum J^T I J and
// C = sum J^T (I J_dot nu + v x* I v - f_ext), solved densely (fp64, Eigen). Independent of the
// articulated-body recursion it checks; it uses the same per-body kinematic quantities
// (CeCornerBodies), which the kinematics tests validate on their own.
#pragma once

#include <array>

#include "fleetdyn/physics/ce/ce_dense.h"
#include "fleetdyn/physics/ce/ce_model.h"

namespace fleetdyn {

// Generalized velocities (kCeDofs, physics/ce/ce_dense.h): chassis omega (3), chassis origin
// velocity (3), LCA rates (4), wheel spins (4), chassis axes.

struct CeDenseDynamics {
  std::array<double, kCeDofs * kCeDofs> mass_matrix;  // row-major
  std::array<double, kCeDofs> bias;                   // C - tau
  std::array<double, kCeDofs> accelerations;          // M^-1 (tau - C)
};

CeDenseDynamics ce_dense_dynamics(const CeParams<double>& p, const CeEnvironment<double>& env,
                                  DriverInput<double> input, const double* state);

}  // namespace fleetdyn
