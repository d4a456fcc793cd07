// The ce model's parameters by name (host API): the scalars a scenario can override and a Monte
// Carlo study can scatter, as vehicle_param_fields() does for the strut model.
//
// What is derived and what is not: finalize_ce_params() recomputes the shared derived fields
// (drive shares, per-wheel brake torques, wheel lock rate: derive_vehicle_common) from the shared
// fields. Nothing inside CeParams is derived from the chassis or wheel fields: chassis_mass,
// chassis_com and chassis_inertia already include the Pitman steering (make_ce_params lumps it
// in), and the model reads them as they are. The preset's spring free lengths were balanced
// for the preset's masses (ce_balance_springs_at_design) and are NOT re-balanced: a heavier
// chassis sits lower, as a heavier real vehicle would. Call ce_balance_springs_at_design()
// after finalize_ce_params() to keep the design ride height instead.
#pragma once

#include <string>
#include <vector>

#include "fleetdyn/physics/ce/ce_params.h"
#include "fleetdyn/vehicle_common.h"  // VehicleParamField, check_vehicle_common

namespace fleetdyn {

// One row per overridable scalar of the ce model's own: X(name, member, unit, min, max,
// description). Ranges reject nonsense (negative masses, friction above 3 ...), not unusual
// vehicles. The shared rows (tire, driveline, brakes, gravity) are FLEETDYN_VEHICLE_COMMON_FIELDS
// (physics/core/vehicle_common.h), the same as the strut model's. ce has its own masses, geometry,
// springs, wheel spin inertia and steering (its max_steer is the Pitman arm angle, not the strut's
// road-wheel angle). Per-axle rows (name suffix sfx, axle i, w names the axle in the
// description): _front is axle[0], _rear axle[1].
#define FLEETDYN_CE_AXLE_FIELDS(X, sfx, i, w)                                                                         \
  X("spring_free_length" sfx, axle[i].spring_free_length, "m", 0.05, 3.0, w " spring free length")                    \
  X("spring_rate" sfx, axle[i].spring_rate, "N/m", 1.0e3, 1.0e8, w " spring rate (on spring length)")                 \
  X("spring_cubic" sfx, axle[i].spring_cubic, "N/m^3", 0.0, 1.0e10, w " spring cubic term (0: linear)")               \
  X("bump_stop_length" sfx, axle[i].bump_stop_length, "m", 0.0, 3.0, w " bump stop: spring length")                   \
  X("rebound_stop_length" sfx, axle[i].rebound_stop_length, "m", 0.0, 3.0, w " rebound stop: spring length")          \
  X("shock_mid_compression" sfx, axle[i].shock_mid_compression, "N s/m", 0.0, 1.0e7, w " shock, bump, midstroke")     \
  X("shock_mid_rebound" sfx, axle[i].shock_mid_rebound, "N s/m", 0.0, 1.0e7, w " shock, rebound, midstroke")          \
  X("shock_out_compression" sfx, axle[i].shock_out_compression, "N s/m", 0.0, 1.0e7, w " shock, bump, off midstroke") \
  X("shock_out_rebound" sfx, axle[i].shock_out_rebound, "N s/m", 0.0, 1.0e7, w " shock, rebound, off midstroke")      \
  X("droop_limit_lca" sfx, axle[i].droop_limit_lca, "rad", -1.5, 0.0, w " full-droop limit: LCA angle")               \
  X("bump_limit_lca" sfx, axle[i].bump_limit_lca, "rad", 0.0, 1.5, w " full-bump limit: LCA angle")                   \
  X("travel_limit_stiffness" sfx, axle[i].travel_limit_stiffness, "N m/rad", 0.0, 1.0e8,                              \
    w " travel limits stiffness (droop and bump)")

#define FLEETDYN_CE_OWN_FIELDS(X)                                                                                  \
  X("chassis_mass", chassis_mass, "kg", 50.0, 1.0e5, "chassis mass with the steering mechanism")                   \
  X("chassis_com_x", chassis_com.x, "m", -10.0, 10.0, "chassis COM, chassis frame x (forward)")                    \
  X("chassis_com_y", chassis_com.y, "m", -2.5, 2.5, "chassis COM, chassis frame y (left)")                         \
  X("chassis_com_z", chassis_com.z, "m", -2.0, 5.0, "chassis COM, chassis frame z (up)")                           \
  X("chassis_inertia_xx", chassis_inertia.xx, "kg m^2", 1.0, 1.0e6, "chassis roll inertia about its COM")          \
  X("chassis_inertia_yy", chassis_inertia.yy, "kg m^2", 1.0, 1.0e6, "chassis pitch inertia about its COM")         \
  X("chassis_inertia_zz", chassis_inertia.zz, "kg m^2", 1.0, 1.0e6, "chassis yaw inertia about its COM")           \
  X("wheel_mass", wheel_mass, "kg", 1.0, 2000.0, "wheel mass (spindle, rim, tire)")                                \
  X("wheel_spin_inertia", wheel_spin_inertia, "kg m^2", 0.01, 100.0, "wheel spin inertia")                         \
  X("wheel_transverse_inertia", wheel_transverse_inertia, "kg m^2", 0.01, 100.0, "wheel inertia about a diameter") \
  FLEETDYN_CE_AXLE_FIELDS(X, "_front", 0, "front")                                                                 \
  FLEETDYN_CE_AXLE_FIELDS(X, "_rear", 1, "rear")                                                                   \
  X("max_steer", steering.max_angle, "rad", 0.01, 1.2, "Pitman arm angle at full input (not road wheel)")          \
  X("steer_time_constant", steer_time_constant, "s", 1.0e-3, 1.0, "steering actuator lag")

// Every overridable scalar of the ce model: its own, then the ones every model shares.
#define FLEETDYN_CE_PARAM_FIELDS(X) \
  FLEETDYN_CE_OWN_FIELDS(X)         \
  FLEETDYN_VEHICLE_COMMON_FIELDS(X)

// The overridable scalar fields of the ce model, by name (docs, scenario overrides, CSV echo).
const std::vector<VehicleParamField>& ce_param_fields();
// Pointer to a field by name, or null if there is no such field.
double* ce_param_ptr(CeParams<double>& p, const std::string& name);
// A field's value by name; throws fleetdyn::Error on an unknown name.
double ce_param(const CeParams<double>& p, const std::string& name);

// Recompute what depends on the overridable fields (the shared derived fields) and validate:
// every field within its range (the ce's own, then check_vehicle_common), the stops in order,
// physically possible inertias, the steering assembled at full input. Throws fleetdyn::Error
// naming the field on inconsistency.
void finalize_ce_params(CeParams<double>& p);

}  // namespace fleetdyn
