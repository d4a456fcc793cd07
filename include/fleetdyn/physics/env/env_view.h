// The vector environment's kernel contract: a trivially copyable view of every env's arrays
// (pointers and counts, like physics/batch_view.h) and the model hooks an env needs beyond the
// batch contract. Per-env arrays are structure-of-arrays, component-major (a[j * env_count + e]),
// except the user-facing buffers (actions, observations), which are row-major [env][component]
// as numpy and torch expect, and the tracks, [env][point] so each env's track is contiguous.
#pragma once

#include <cstdint>

#include "fleetdyn/physics/env/env_config.h"
#include "fleetdyn/physics/strut_batch.h"
#include "fleetdyn/physics/strut_initial.h"
#include "fleetdyn/physics/vehicle_derive.h"

namespace fleetdyn {

template <class Model>
struct EnvModel;

// The strut model in the env: parameters re-derived on the device after randomization, the
// initial state at rest on the terrain, wheel speeds and static loads for the observation.
template <>
struct EnvModel<StrutModel> {
  template <class T>
  static FLEETDYN_FN void derive(VehicleParams<T>& p) { derive_vehicle_params(p); }
  template <class T>
  static FLEETDYN_FN void initial_state(const VehicleParams<T>& p, const TerrainDesc<T>& terrain, double x, double y,
                                        T yaw, T speed, T* s, T* origin_x, T* origin_y) {
    strut_initial_state(p, terrain, x, y, yaw, speed, s, origin_x, origin_y);
  }
  template <class T>
  static FLEETDYN_FN T wheel_spin(const T* s, int corner) { return s[strut::kWheelSpin + corner]; }
  template <class T>
  static FLEETDYN_FN T wheel_radius(const VehicleParams<T>& p) { return p.tire.unloaded_radius; }
  template <class T>
  static FLEETDYN_FN T static_load(const VehicleParams<T>& p, int corner) { return p.static_tire_load[corner]; }
};

template <class Model, class T>
struct EnvView {
  using Params = typename Model::template Params<T>;
  int env_count;
  env::EnvConfig<T> config;
  TerrainDesc<T> terrain;
  IntegratorSettings<T> integrator;
  const Params* base_params;  // [base_param_count]; env e draws around base_params[e % count]
  int base_param_count;
  Params* params;             // [env_count] the current episode's
  T* state;                   // [Model::kStateSize][env_count]
  T* origin;                  // [2][env_count] local origins (physics/batch_origin.h)
  T* actuator;                // [3][env_count] steer, throttle, brake positions
  T* command;                 // [3][env_count] last clipped action
  T* wheel_load;              // [4][env_count] tire normal forces [N] of the last physics step
  T* lift_time;               // [env_count] unbroken two-wheel lift so far [s]
  T* progress;                // [env_count] arclength of the track reached [m]
  int* segment;               // [env_count] nearest track segment (the search's hint)
  T* target_speed;            // [env_count] [m/s] reach-speed task
  T* episode_return;          // [env_count]
  int* episode_steps;         // [env_count] env steps of the running episode
  uint32_t* episode_index;    // [env_count] episodes started since the last seeding
  T* track_x;                 // [env_count][track_points] world x [m]
  T* track_y;
  T* track_s;                 // arclength [m]
  // User-facing buffers.
  const float* actions;       // [env_count][3]
  float* obs;                 // [env_count][obs_dim]
  float* reward;              // [env_count]
  uint8_t* terminated;        // [env_count]
  uint8_t* truncated;         // [env_count]
  float* final_obs;           // [env_count][obs_dim]
  uint8_t* has_final;         // [env_count]
  float* final_return;        // [env_count]
  int* final_length;          // [env_count]
  int* end_reason;            // [env_count]
};

}  // namespace fleetdyn
