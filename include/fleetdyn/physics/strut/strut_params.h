// The strut model's per-vehicle parameters (the "model" half of the model/state split): its
// lumped vehicle (masses, geometry, lumped suspension, bushing, stops, linkage) on top of the
// tire, driveline, brakes and gravity every model shares (VehicleCommon, physics/core/vehicle_common.h).
// A batch holds an array of these of length 1 (all vehicles alike) or N (one per vehicle) and a
// vehicle v reads params[v % count], so Monte Carlo and RL randomization need no special code.
//
// Fields marked "derived" are computed from the others by finalize_vehicle_params()
// (host/strut/strut_params.cpp, the shared ones through derive_vehicle_common()) and must not be set
// by hand. The overridable scalar fields are listed once in FLEETDYN_VEHICLE_PARAM_FIELDS below
// (the strut's own rows and the shared table); scenario overrides, CSV echo and docs all use it.
//
// Frames: body frame at the sprung-body centre of mass, ISO axes (x forward, y left, z up).
// Corners are numbered 0 front-left, 1 front-right, 2 rear-left, 3 rear-right.
#pragma once

#include "fleetdyn/physics/core/config.h"
#include "fleetdyn/physics/core/math.h"
#include "fleetdyn/physics/core/tire_tmeasy.h"
#include "fleetdyn/physics/core/vehicle_common.h"
#include "fleetdyn/physics/strut/strut_linkage.h"

namespace fleetdyn {

// A base class, not a member, so the strut physics reads p.tire, p.gravity ... as before; still
// trivially copyable and made only of T (host/batch/convert_scalars.h; the env's field index).
template <class T>
struct StrutParams : VehicleCommon<T> {
  // --- mass and geometry -------------------------------------------------------------------
  T total_mass;           // [kg] whole vehicle, sprung + 4 unsprung
  T unsprung_mass_front;  // [kg] per front corner (spindle, upright, wheel, tire, half the arms)
  T unsprung_mass_rear;   // [kg] per rear corner
  T body_inertia_xx;      // [kg m^2] sprung body about its centre of mass (roll)
  T body_inertia_yy;      // [kg m^2] (pitch)
  T body_inertia_zz;      // [kg m^2] (yaw)
  T cg_to_front_axle;     // [m] body COM to front wheel centres, along x
  T cg_to_rear_axle;      // [m] body COM to rear wheel centres, along x
  T track_front;          // [m] wheel-centre track width
  T track_rear;           // [m]
  T cg_height;            // [m] body COM above flat ground with the vehicle at rest, design ride height
  T wheel_spin_inertia;   // [kg m^2] wheel + tire + hub about the spin axis, per wheel
  // --- suspension (strut: wheel rates along the body up axis, motion ratio folded in) -------
  T wheel_rate_front;       // [N/m] spring rate at the wheel
  T wheel_rate_rear;        // [N/m]
  T damping_bump_front;     // [N s/m] damper at the wheel, compression
  T damping_rebound_front;  // [N s/m] damper at the wheel, extension
  T damping_bump_rear;      // [N s/m]
  T damping_rebound_rear;   // [N s/m]
  T bump_travel_front;      // [m] wheel travel (compression) from design where the bump stop engages
  T rebound_travel_front;   // [m] wheel travel (extension) from design where the rebound stop engages
  T bump_travel_rear;       // [m]
  T rebound_travel_rear;    // [m]
  T stop_motion_ratio;      // [-] stop-table penetration per unit wheel travel (tables are on spring length)
  T link_stiffness;         // [N/m] stiff perpendicular bushing holding each wheel on its strut (seed 004 k_link)
  T link_damping_ratio;     // [-] of the bushing mode, 1 = critical
  // Which parts of seed 004's full strut are on (1) or off (0); the plain seed-004 strut is all 0.
  T tire_force_at_contact;  // [-] 1: the tire force's moment about the wheel centre reaches the body
  T linkage_geometry;       // [-] 1: wheel path, camber, toe and Ackermann from `linkage` (needs its curves)
  T progressive_spring;     // [-] 1: coil force k (l_free - l) MR and damper (MR/MR0)^2 from `linkage`
  // --- steering (tire, driveline and brakes: VehicleCommon) ---------------------------------
  T max_steer;  // [rad] road-wheel angle at full steering input (both front wheels)
  // --- tables (not overridable by name) -------------------------------------------------------
  T stop_table_pen[kStopTablePoints];    // [m] stop penetration on spring length
  T stop_table_force[kStopTablePoints];  // [N] stop force on spring length
  StrutLinkage<T> linkage;               // per-axle linkage curves (tabulated from a suspension design)
  // --- derived (finalize_vehicle_params) -----------------------------------------------------
  T body_mass;                     // [kg] total - 4 unsprung
  T unsprung_mass[kCorners];       // [kg]
  Vec3<T> wheel_attach[kCorners];  // [m] design wheel centre in the body frame (the strut mount, rb_i)
  T strut_preload[kCorners];       // [N] spring force at design travel, so design height is static equilibrium
  T wheel_rate[kCorners];          // [N/m]
  T damping_bump[kCorners], damping_rebound[kCorners];  // [N s/m]
  T bump_travel[kCorners], rebound_travel[kCorners];    // [m]
  T link_damping[kCorners];                             // [N s/m] critical damping of the bushing for the reduced mass
  T static_tire_load[kCorners];                         // [N]
  // Coil spring at the wheel: F = coil_rate (coil_free_length - l) MR with l, MR from the linkage
  // when progressive_spring is on, else l = -z, MR = 1 (then F = preload + wheel_rate z).
  T coil_rate[kCorners];                  // [N/m] wheel_rate / MR0^2
  T coil_free_length[kCorners];           // [m] static load at design
  T coil_inverse_mr_design_sq[kCorners];  // [-] 1 / MR0^2, for the damper's (MR/MR0)^2
  // Reciprocals for the hot path (a multiplication costs a fraction of a division).
  T inverse_unsprung_mass[kCorners];  // [1/kg]
  T inverse_body_mass;                // [1/kg]
  Vec3<T> inverse_body_inertia;       // [1/(kg m^2)] xx, yy, zz
  T inverse_spin_inertia;             // [1/(kg m^2)]
};

// One row per overridable scalar of the strut's own: X(name, member, unit, min, max, description).
// Ranges reject nonsense (negative masses, friction above 3 ...), not unusual vehicles.
#define FLEETDYN_STRUT_OWN_FIELDS(X)                                                                               \
  X("total_mass", total_mass, "kg", 100.0, 1.0e5, "whole vehicle mass")                                            \
  X("unsprung_mass_front", unsprung_mass_front, "kg", 1.0, 2000.0, "unsprung mass per front corner")               \
  X("unsprung_mass_rear", unsprung_mass_rear, "kg", 1.0, 2000.0, "unsprung mass per rear corner")                  \
  X("body_inertia_xx", body_inertia_xx, "kg m^2", 1.0, 1.0e6, "sprung body roll inertia")                          \
  X("body_inertia_yy", body_inertia_yy, "kg m^2", 1.0, 1.0e6, "sprung body pitch inertia")                         \
  X("body_inertia_zz", body_inertia_zz, "kg m^2", 1.0, 1.0e6, "sprung body yaw inertia")                           \
  X("cg_to_front_axle", cg_to_front_axle, "m", 0.1, 10.0, "COM to front axle")                                     \
  X("cg_to_rear_axle", cg_to_rear_axle, "m", 0.1, 10.0, "COM to rear axle")                                        \
  X("track_front", track_front, "m", 0.5, 5.0, "front track")                                                      \
  X("track_rear", track_rear, "m", 0.5, 5.0, "rear track")                                                         \
  X("cg_height", cg_height, "m", 0.2, 5.0, "body COM height at rest")                                              \
  X("wheel_spin_inertia", wheel_spin_inertia, "kg m^2", 0.01, 100.0, "wheel spin inertia")                         \
  X("wheel_rate_front", wheel_rate_front, "N/m", 1.0e3, 1.0e7, "front wheel rate")                                 \
  X("wheel_rate_rear", wheel_rate_rear, "N/m", 1.0e3, 1.0e7, "rear wheel rate")                                    \
  X("damping_bump_front", damping_bump_front, "N s/m", 0.0, 1.0e6, "front damping, bump")                          \
  X("damping_rebound_front", damping_rebound_front, "N s/m", 0.0, 1.0e6, "front damping, rebound")                 \
  X("damping_bump_rear", damping_bump_rear, "N s/m", 0.0, 1.0e6, "rear damping, bump")                             \
  X("damping_rebound_rear", damping_rebound_rear, "N s/m", 0.0, 1.0e6, "rear damping, rebound")                    \
  X("bump_travel_front", bump_travel_front, "m", 0.005, 2.0, "front bump-stop clearance")                          \
  X("rebound_travel_front", rebound_travel_front, "m", 0.005, 2.0, "front rebound-stop clearance")                 \
  X("bump_travel_rear", bump_travel_rear, "m", 0.005, 2.0, "rear bump-stop clearance")                             \
  X("rebound_travel_rear", rebound_travel_rear, "m", 0.005, 2.0, "rear rebound-stop clearance")                    \
  X("stop_motion_ratio", stop_motion_ratio, "-", 0.05, 5.0, "stop penetration per wheel travel")                   \
  X("link_stiffness", link_stiffness, "N/m", 1.0e5, 1.0e9, "strut bushing stiffness")                              \
  X("link_damping_ratio", link_damping_ratio, "-", 0.0, 2.0, "strut bushing damping ratio")                        \
  X("tire_force_at_contact", tire_force_at_contact, "-", 0.0, 1.0,                                                 \
    "1: tire force acts at the contact patch (0: wheel centre)")                                                   \
  X("linkage_geometry", linkage_geometry, "-", 0.0, 1.0, "1: wheel path, camber, toe, Ackermann from the linkage") \
  X("progressive_spring", progressive_spring, "-", 0.0, 1.0, "1: coil rate and damper follow the motion ratio")    \
  X("max_steer", max_steer, "rad", 0.0, 1.2, "road-wheel angle at full input")

// Every overridable scalar of the strut model: its own, then the shared ones.
#define FLEETDYN_VEHICLE_PARAM_FIELDS(X) \
  FLEETDYN_STRUT_OWN_FIELDS(X)           \
  FLEETDYN_VEHICLE_COMMON_FIELDS(X)

}  // namespace fleetdyn
