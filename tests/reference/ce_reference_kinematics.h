// Numerical reference for the ce model's corner kinematics (validates physics/ce/ce_kinematics.h).
//
// The analytic module closes each loop in closed form. This reference does what seed 001
// section 3.3 calls the general method: a tree-augmented model of the corner (seed eq. 8, Fig. 1b)
// whose cut-joint constraints C(q) = 0 are solved by Newton, with the velocity map
// X = [-Y1^-1 Y2; I] (seed eqs. 12-13) and the velocity-product term
// X_dot theta_dot = [-Y1^-1 [delta_dot]_{q_ddot=0}; 0] (seed eq. 14), all from exact derivatives
// of C (a second-order Taylor jet, no finite differences). It is built from the raw hardpoints of
// a SuspensionDesign and shares no closure, frame or branch logic with the analytic code.
//
// Tree (every joint a tree hinge, seed Fig. 1b), one corner plus the Pitman steering four-bar:
//   chassis -> LCA        hinge about the LCA pivot axis, angle theta  (independent)
//   LCA     -> upright    spherical joint at the LCA ball joint D, Gibbs vector g (3 dependent)
//   chassis -> UCA        hinge about the UCA pivot axis, angle phi    (dependent)
//   chassis -> Pitman arm hinge about the mechanism axis, Pitman angle = input_sign * steer
//                         (independent: the steering angle)
//   chassis -> idler arm  hinge about the mechanism axis, angle psi    (dependent)
//   steering link         rides on the Pitman arm's joint U, aligned towards the idler joint V
// Cut joints (5 equations for the 5 dependent coordinates):
//   UCA ball joint: F on the upright == F on the UCA                   (3)
//   tierod: |K (upright) - L (steering link or chassis)| = design length (1)
//   steering link: |V - U| = design length                              (1)
// Generalized coordinates q = [phi, g1, g2, g3, psi | theta, steer] (dependent | independent).
// The Gibbs vector (rotation tan(angle/2) * axis) is used instead of a rotation vector because
// its rotation matrix is rational in g, so the jets have no 0/0 at the design (g = 0).
//
// Conventions as in the analytic module: chassis frame (ISO: x fwd, y left, z up), all relative
// to the chassis; theta = 0 at design and + lifts the LCA ball joint; phi likewise for the UCA;
// + steering angle turns the vehicle left. The spin axis is the upright's image of +y.
#pragma once

#include <array>

#include "fleetdyn/suspension.h"

namespace fleetdyn {

using RefVec3 = std::array<double, 3>;
using RefMat3 = std::array<RefVec3, 3>;  // row-major: m[row][col]

// One corner's hardpoints in the chassis frame (mirrored and placed by make_reference_suspension).
struct ReferenceCornerDesign {
  RefVec3 lca_front, lca_back, lca_ball;
  RefVec3 uca_front, uca_back, uca_ball;
  RefVec3 wheel_centre, tierod_inner, tierod_outer;
  bool steered;  // tierod inner point on the steering link (front) or the chassis (rear)
};

// The Pitman four-bar in the chassis frame, design position (mechanism z dropped: planar).
struct ReferenceSteering {
  RefVec3 axis;                       // unit mechanism z (all four pivot axes)
  RefVec3 pitman_pivot, pitman_link;  // T, U
  RefVec3 idler_pivot, idler_link;    // W, V
  double input_sign;                  // Pitman angle = input_sign * steering angle
};

struct ReferenceSuspension {
  ReferenceCornerDesign corner[kCorners];  // 0 FL, 1 FR, 2 RL, 3 RR
  ReferenceSteering steering;
};

// Mirror and place the hardpoints; orient the steering input so + turns the front-left wheel left.
ReferenceSuspension make_reference_suspension(const SuspensionDesign& design);

// Velocities for given (lca_rate, steer_rate) and the bias accelerations at zero generalized
// accelerations (theta_ddot = steer_ddot = 0), chassis frame.
struct ReferenceCornerMotion {
  double uca_rate;                                                                           // phi_dot [rad/s]
  RefVec3 uca_omega, upright_omega;                                                          // [rad/s]
  RefVec3 lca_ball_vel, uca_ball_vel, tierod_inner_vel, tierod_outer_vel, wheel_centre_vel;  // [m/s]
  double uca_bias;                                                                           // phi_ddot [rad/s^2]
  RefVec3 uca_alpha, upright_alpha;                                                          // [rad/s^2]
  RefVec3 lca_ball_acc, uca_ball_acc, tierod_inner_acc, tierod_outer_acc, wheel_centre_acc;  // [m/s^2]
  double acc_constraint_error;  // max |d2C/dt2| after applying seed eq. 14 (should be roundoff)
};

constexpr int kRefCoordinates = 7;  // phi, g1, g2, g3, psi, theta, steer
constexpr int kRefDependent = 5;

struct ReferenceCornerState {
  double lca_angle, steer_angle;          // independent coordinates [rad]
  std::array<double, kRefCoordinates> q;  // converged generalized coordinates
  double uca_angle;                       // phi [rad]
  RefVec3 lca_ball, uca_ball;             // D, F (F from the UCA side of the cut) [m]
  RefVec3 tierod_inner, tierod_outer;     // L, K [m]
  RefVec3 wheel_centre;                   // E [m]
  RefMat3 upright_rotation;               // design -> current orientation of the upright
  RefVec3 spin_axis;                      // upright_rotation * (0, 1, 0)
  // X (seed eq. 13): q_dot = X [lca_rate, steer_rate]; rows as q, columns theta, steer.
  std::array<std::array<double, 2>, kRefCoordinates> velocity_map;
  ReferenceCornerMotion per_lca_rate;    // lca_rate = 1, steer_rate = 0 (column 0 of X)
  ReferenceCornerMotion per_steer_rate;  // lca_rate = 0, steer_rate = 1 (column 1 of X)
  ReferenceCornerMotion at_rates;        // the rates passed to solve_reference_corner
  double residual;                       // max |C| at the solution [m]
  int newton_iterations;                 // at the last continuation step
  int total_iterations;                  // over the whole continuation from the design
  bool converged;                        // residual <= 1e-14 m at every continuation step
};

// Newton from the design configuration, continued in steps of at most 0.05 rad in theta and
// steer so the design's assembly branch is kept.
ReferenceCornerState solve_reference_corner(const ReferenceSuspension& s, int corner, double lca_angle,
                                            double steer_angle, double lca_rate = 0.0, double steer_rate = 0.0);

}  // namespace fleetdyn
