// Suspension design of the ce model (host API): hardpoints, steering mechanism, and the
// per-corner kinematic geometry built from them (physics in fleetdyn/physics/ce/ce_kinematics.h).
#pragma once

#include <string>

#include "fleetdyn/physics/ce/ce_kinematics.h"
#include "fleetdyn/physics/ce/suspension_geometry.h"
#include "fleetdyn/physics/strut/strut_params.h"

namespace fleetdyn {

// A vehicle's double wishbones and Pitman steering, as published (left side, suspension frames).
struct SuspensionDesign {
  DoubleWishboneHardpoints<double> front, rear;
  double front_axle_x, rear_axle_x;  // [m] suspension frame origins on the chassis x axis
  PitmanSteeringGeometry<double> steering;
};

// The HMMWV (shared/reference/hmmwv.md, Chrono's HMMWV_DoubleWishbone and HMMWV_PitmanArm).
SuspensionDesign hmmwv_suspension_design();

// The four corners (0 FL, 1 FR, 2 RL, 3 RR) and the steering linkage, in the chassis frame.
template <class T>
struct CeSuspension {
  CornerGeometry<T> corner[kCorners];
  SteeringLinkage<T> steering;
};

// Build the corner geometry: mirror the left-side points, pick the assembly branches of the
// design, and orient the steering so a positive steering angle turns the vehicle left (ISO).
// Throws fleetdyn::Error naming the corner and loop if the design does not close (degenerate
// arm, zero-length link, or a design point off its own loop).
CeSuspension<double> make_ce_suspension(const SuspensionDesign& design);

// The corner's kinematics for LCA angle and steering angle (host convenience for tools and tests).
struct CornerKinematics {
  CornerPose<double> pose;
  CornerMotion<double> per_lca_rate;    // velocities for lca_rate = 1, steering still (X, seed eq. 9)
  CornerMotion<double> per_steer_rate;  // velocities for steering rate = 1, LCA still
};
CornerKinematics corner_kinematics(const CeSuspension<double>& s, int corner, double lca_angle, double steer_angle);

// The LCA angle that puts the wheel centre `travel` [m] above (+) or below its design height at
// the given steering angle (Newton on the analytic kinematics). Throws fleetdyn::Error when the
// travel is outside what the linkage can reach.
double lca_angle_for_travel(const CeSuspension<double>& s, int corner, double travel, double steer_angle);

// Camber [rad], + = top of the wheel outward; toe-in [rad], + = front of the wheel inward.
double camber_angle(const CornerPose<double>& pose, double side);
double toe_in_angle(const CornerPose<double>& pose, double side);

const char* corner_name(int corner);  // "FL", "FR", "RL", "RR"

// The strut model's linkage curves (StrutParams::linkage, physics/strut/strut_linkage.h) from a
// suspension: per axle (its left corner; the right must mirror it) the wheel-centre migration,
// camber, toe and coil length against the wheel travel, tabulated from the stop in rebound to
// the stop in bump of `p` (rebound_travel_*, bump_travel_*) plus kLinkageTravelMargin on each
// side; for the front axle the Ackermann offset over the Pitman arm's range. Throws
// fleetdyn::Error naming the corner and the curve when the linkage cannot reach a travel, its
// spring does not shorten monotonically in bump, the sides are not mirror images, or a curve
// cannot be fitted. Does not switch linkage_geometry or progressive_spring on.
constexpr double kLinkageTravelMargin = 0.03;  // [m]
void tabulate_strut_linkage(const CeSuspension<double>& s, StrutParams<double>& p);

}  // namespace fleetdyn
