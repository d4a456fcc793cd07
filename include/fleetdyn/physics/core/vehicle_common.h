// The per-vehicle parameters every vehicle model shares: the tire, the driveline, the brakes and
// gravity. Each model's parameter struct derives from VehicleCommon (strut: StrutParams in
// physics/strut/strut_params.h; ce and pgs: CeParams in physics/ce/ce_params.h) and adds its own masses,
// geometry and force elements; each model's field table expands FLEETDYN_VEHICLE_COMMON_FIELDS,
// so a shared name means the same member, unit and range in every model.
//
// Fields marked "derived" are computed by derive_vehicle_common() below, which every model's
// finalize (host: finalize_vehicle_params, finalize_ce_params) calls; they must not be set by hand.
// Corners are numbered 0 front-left, 1 front-right, 2 rear-left, 3 rear-right.
#pragma once

#include "fleetdyn/physics/core/config.h"
#include "fleetdyn/physics/core/math.h"
#include "fleetdyn/physics/core/tire_tmeasy.h"

namespace fleetdyn {

constexpr int kCorners = 4;
constexpr int kStopTablePoints = 7;  // points of a suspension stop's force table (strut and ce)

template <class T>
struct VehicleCommon {
  // --- driveline, brakes ----------------------------------------------------------------------
  T engine_peak_torque;    // [N m]
  T engine_peak_power;     // [W]
  T engine_max_speed;      // [rad/s] torque tapers to zero here (governor)
  T driveline_ratio;       // [-] engine speed / wheel speed (fixed reduction)
  T driveline_efficiency;  // [-]
  T front_torque_split;    // [-] share of drive torque to the front axle (AWD), split equally left/right
  T brake_torque_front;    // [N m] per wheel at full brake input
  T brake_torque_rear;     // [N m]
  T wheel_lock_time;       // [s] time constant with which a held (braked/parked) wheel is brought to rest
  T gravity;               // [m/s^2]
  TireParams<T> tire;      // one tire model for all four corners
  // --- body contact (physics/core/body_contact.h): the body as a box touching the terrain ----
  // Positions relative to the vehicle at rest on flat ground: x from the axles, z from the ground.
  T body_front_overhang;     // [m] front face ahead of the front axle
  T body_rear_overhang;      // [m] rear face behind the rear axle
  T body_half_width;         // [m] at the body's underside
  T roof_half_width;         // [m] at the roof
  T body_bottom_height;      // [m] underside above the ground at rest
  T body_roof_height;        // [m] roof above the ground at rest
  T body_contact_stiffness;  // [N/m] per box corner
  T body_contact_damping;    // [N s/m^2] force = (stiffness + damping * closing speed) * penetration
  T body_mu;                 // [-] body-ground Coulomb friction (times the surface's mu_scale)
  // --- derived (derive_vehicle_common) ------------------------------------------------------
  T brake_torque[kCorners];  // [N m]
  T drive_share[kCorners];   // [-] share of the driveline torque per wheel
  T wheel_lock_rate;         // [1/s] 1 / wheel_lock_time
  Vec3<T> body_corner[8];    // [m] the box corners in the model's body frame (derive_body_corners)
};

// One row per overridable shared scalar: X(name, member, unit, min, max, description), as in
// the models' tables (FLEETDYN_VEHICLE_PARAM_FIELDS, FLEETDYN_CE_PARAM_FIELDS), which expand it.
// Ranges reject nonsense (negative torques, friction above 3 ...), not unusual vehicles.
#define FLEETDYN_VEHICLE_COMMON_FIELDS(X)                                                                        \
  X("engine_peak_torque", engine_peak_torque, "N m", 0.0, 1.0e5, "engine peak torque")                           \
  X("engine_peak_power", engine_peak_power, "W", 0.0, 1.0e7, "engine peak power")                                \
  X("engine_max_speed", engine_max_speed, "rad/s", 10.0, 2000.0, "engine governed speed")                        \
  X("driveline_ratio", driveline_ratio, "-", 0.5, 100.0, "overall reduction")                                    \
  X("driveline_efficiency", driveline_efficiency, "-", 0.1, 1.0, "driveline efficiency")                         \
  X("front_torque_split", front_torque_split, "-", 0.0, 1.0, "AWD front share")                                  \
  X("brake_torque_front", brake_torque_front, "N m", 0.0, 1.0e5, "front brake torque per wheel")                 \
  X("brake_torque_rear", brake_torque_rear, "N m", 0.0, 1.0e5, "rear brake torque per wheel")                    \
  X("wheel_lock_time", wheel_lock_time, "s", 1.0e-3, 1.0, "held-wheel time constant")                            \
  X("gravity", gravity, "m/s^2", 0.0, 100.0, "gravitational acceleration")                                       \
  X("tire.unloaded_radius", tire.unloaded_radius, "m", 0.1, 3.0, "tire unloaded radius")                         \
  X("tire.vertical_stiffness", tire.vertical_stiffness, "N/m", 1.0e4, 1.0e8, "tire vertical stiffness")          \
  X("tire.vertical_damping", tire.vertical_damping, "N s/m", 0.0, 1.0e6, "tire vertical damping")                \
  X("tire.mu", tire.mu, "-", 0.05, 3.0, "tire-road friction coefficient")                                        \
  X("tire.rolling_resistance", tire.rolling_resistance, "-", 0.0, 0.5, "rolling resistance coefficient")         \
  X("tire.long_stiffness", tire.long_stiffness, "N/m", 1.0e3, 1.0e7, "tread longitudinal stiffness")             \
  X("tire.lat_stiffness", tire.lat_stiffness, "N/m", 1.0e3, 1.0e7, "tread lateral stiffness")                    \
  X("tire.rim_radius", tire.rim_radius, "m", 0.0, 3.0, "rim flange radius (0: the tire never bottoms out)")      \
  X("tire.rim_stiffness", tire.rim_stiffness, "N/m", 0.0, 1.0e9, "radial stiffness added when the rim bottoms")  \
  X("body.front_overhang", body_front_overhang, "m", -5.0, 10.0, "body front face ahead of the front axle")      \
  X("body.rear_overhang", body_rear_overhang, "m", -5.0, 10.0, "body rear face behind the rear axle")            \
  X("body.half_width", body_half_width, "m", 0.1, 3.0, "body half width at its underside")                       \
  X("body.roof_half_width", roof_half_width, "m", 0.1, 3.0, "body half width at the roof")                       \
  X("body.bottom_height", body_bottom_height, "m", 0.0, 5.0, "body underside above the ground at rest")          \
  X("body.roof_height", body_roof_height, "m", 0.2, 10.0, "roof above the ground at rest")                       \
  X("body.contact_stiffness", body_contact_stiffness, "N/m", 0.0, 1.0e8, "body-ground stiffness per box corner") \
  X("body.contact_damping", body_contact_damping, "N s/m^2", 0.0, 1.0e9, "body-ground damping per penetration")  \
  X("body.mu", body_mu, "-", 0.0, 3.0, "body-ground friction coefficient")

// The derived shared fields from the others: per-wheel brake torques, the drive share of each
// wheel (open differentials: an axle's share split equally left/right) and the lock rate.
// Single source: the host's finalize calls it in double; the vector environment calls it on the
// device after drawing an env's randomized parameters (physics/env/env_view.h).
template <class T>
FLEETDYN_FN void derive_vehicle_common(VehicleCommon<T>& p) {
  for (int i = 0; i < kCorners; ++i) {
    const bool front = i < 2;
    p.brake_torque[i] = front ? p.brake_torque_front : p.brake_torque_rear;
    p.drive_share[i] = T(0.5) * (front ? p.front_torque_split : T(1) - p.front_torque_split);
  }
  p.wheel_lock_rate = T(1) / p.wheel_lock_time;
}

// The body box's corners in a model's body frame, from where that frame puts the front and rear
// axles (x) and the ground under the vehicle at rest (z). Corners 0-3 at the underside, 4-7 at
// the roof; in each four front-left, front-right, rear-left, rear-right.
template <class T>
FLEETDYN_FN void derive_body_corners(VehicleCommon<T>& p, T front_axle_x, T rear_axle_x, T ground_z) {
  const T x[2] = {front_axle_x + p.body_front_overhang, rear_axle_x - p.body_rear_overhang};
  const T z[2] = {ground_z + p.body_bottom_height, ground_z + p.body_roof_height};
  const T half_width[2] = {p.body_half_width, p.roof_half_width};
  for (int level = 0; level < 2; ++level) {
    for (int i = 0; i < 4; ++i) {
      const T side = (i % 2 == 0) ? T(1) : T(-1);
      p.body_corner[4 * level + i] = {x[i / 2], side * half_width[level], z[level]};
    }
  }
}

}  // namespace fleetdyn
