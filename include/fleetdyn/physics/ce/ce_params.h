// Parameters of the ce model (seed 001): the suspension geometry, the bodies of each
// constraint-embedded corner, and the force elements (spring, shock, stops). Tire, driveline,
// brakes and gravity are the ones every model shares (the VehicleCommon base,
// physics/core/vehicle_common.h).
//
// Bodies per corner (seed section 4.1; shared/reference/hmmwv.md): LCA, UCA, upright and tierod
// form the aggregate body (one coordinate, the LCA angle); the wheel (spindle + rim + tire)
// turns on the upright about the spin axis. The Pitman steering is kinematic (seed 5.4): its
// mass rides with the chassis. Inertias are about each body's COM in the chassis frame at the
// design configuration; they turn with the body.
#pragma once

#include "fleetdyn/physics/ce/ce_kinematics.h"
#include "fleetdyn/physics/core/config.h"
#include "fleetdyn/physics/core/math.h"
#include "fleetdyn/physics/core/spatial.h"
#include "fleetdyn/physics/core/vehicle_common.h"

namespace fleetdyn {

enum CeBody : int { kCeLca = 0, kCeUca = 1, kCeUpright = 2, kCeTierod = 3, kCeAggregateBodies = 4 };

// Force elements of one axle's corners (spring and shock between chassis and LCA).
template <class T>
struct CeAxleForces {
  T spring_free_length;                        // [m]
  T spring_rate;                               // [N/m] on spring length
  T spring_cubic;                              // [N/m^3] F = k x + c x^3, x = free length - length (0: linear)
  T bump_stop_length;                          // [m] spring length below which the bump stop engages
  T rebound_stop_length;                       // [m] spring length above which the rebound stop engages
  T shock_midstroke_min, shock_midstroke_max;  // [m] shock lengths of the midstroke band
  T shock_mid_compression, shock_mid_rebound;  // [N s/m] inside the band
  T shock_out_compression, shock_out_rebound;  // [N s/m] outside it
  // Travel limits (not in the reference data): stiff elastic stops on the LCA angle where the
  // real suspension is solid (shock full extension; bump stop fully compressed), so the linkage
  // stays inside the range where minimal coordinates and the spring-length stops hold
  // (docs/models/ce.md section 3, "Added: travel limits").
  T droop_limit_lca;         // [rad] below it the droop limit acts (make_ce_params: 80 % of the droop toggle)
  T bump_limit_lca;          // [rad] above it the bump limit acts (make_ce_params: where the stop table ends)
  T travel_limit_stiffness;  // [N m/rad] of both
};

// The shared part is a base class (p.tire, p.gravity ...), as for the strut's StrutParams: still
// trivially copyable and made only of T (host/batch/convert_scalars.h; the env's field index).
template <class T>
struct CeParams : VehicleCommon<T> {
  // Chassis (with the kinematic steering mechanism): mass, COM and inertia about the COM,
  // chassis frame.
  T chassis_mass;
  Vec3<T> chassis_com;
  Sym3<T> chassis_inertia;
  // Corner geometry (chassis frame) and Pitman steering.
  CornerGeometry<T> corner[kCorners];
  SteeringLinkage<T> steering;
  // Per corner and aggregate body: mass and inertia about the COM at design (chassis frame).
  T body_mass[kCorners][kCeAggregateBodies];
  Sym3<T> body_inertia[kCorners][kCeAggregateBodies];
  T wheel_mass;                // [kg] spindle + rim + tire
  T wheel_spin_inertia;        // [kg m^2] about the spin axis
  T wheel_transverse_inertia;  // [kg m^2] about a diameter
  CeAxleForces<T> axle[2];     // 0 front, 1 rear
  T steer_time_constant;       // [s] first-order lag of the steering actuator
  // Stop force table on spring-length penetration (shared/reference/hmmwv.md).
  T stop_table_pen[kStopTablePoints];
  T stop_table_force[kStopTablePoints];
};

// The body box's corners in the chassis frame (VehicleCommon::body_corner): the axles at the design
// wheel centres, the ground at rest taken at their mean height less the unloaded tire radius (the
// static tire deflection, a few cm, neglected). make_ce_params and finalize_ce_params call it on
// the host, the vector env after drawing an episode's parameters.
template <class T>
FLEETDYN_FN void derive_ce_body_corners(CeParams<T>& p) {
  const T ground_z = T(0.5) * (p.corner[0].design.wheel_centre.z + p.corner[2].design.wheel_centre.z) - p.tire.unloaded_radius;
  derive_body_corners<T>(p, p.corner[0].design.wheel_centre.x, p.corner[2].design.wheel_centre.x, ground_z);
}

}  // namespace fleetdyn
