// The vector environment's kernel contract: a trivially copyable view of every env's arrays
// (pointers and counts, like physics/batch_view.h) and the model hooks an env needs beyond the
// batch contract. Per-env arrays are structure-of-arrays, component-major (a[j * env_count + e]),
// except the user-facing buffers (actions, observations), which are row-major [env][component]
// as numpy and torch expect, and the tracks, [env][point] so each env's track is contiguous.
#pragma once

#include <cstdint>
#include <type_traits>

#include "fleetdyn/physics/ce_batch.h"
#include "fleetdyn/physics/ce_rest.h"
#include "fleetdyn/physics/env/env_config.h"
#include "fleetdyn/physics/strut_batch.h"
#include "fleetdyn/physics/strut_initial.h"
#include "fleetdyn/physics/vehicle_derive.h"

namespace fleetdyn {

template <class Model>
struct EnvModel;

// The same parameter struct in another scalar type (a struct of scalars only: the device-side
// counterpart of host/convert_scalars.h).
template <template <class> class Params, class U, class T>
FLEETDYN_FN Params<U> convert_param_scalars(const Params<T>& p) {
  constexpr int n = static_cast<int>(sizeof(Params<T>) / sizeof(T));
  static_assert(sizeof(Params<T>) == n * sizeof(T) && sizeof(Params<U>) == n * sizeof(U),
                "parameters must hold only scalars, laid out alike in both types");
  Params<U> out{};
  const T* from = reinterpret_cast<const T*>(&p);
  U* to = reinterpret_cast<U*>(&out);
  for (int i = 0; i < n; ++i) to[i] = U(from[i]);
  return out;
}

// What the env needs of a model beyond the batch contract (Model::step, sense, state_is_sane):
// - derive(p): the derived fields after the randomized ones were drawn (on the device);
// - initial_state(p, terrain, x, y, yaw, speed, s, origin_x, origin_y, static_load): the state at
//   rest on the terrain, the chassis COM's ground point at world (x, y), moving at `speed`, and
//   the tire loads at rest [N] per corner (the wheel_loads observation divides by them);
// - wheel_spin(s, corner) [rad/s] and wheel_radius(p) [m]: the wheel_speeds observation.

// The strut model: parameters re-derived by derive_vehicle_params (the host's finalize uses the
// same), the initial state at design ride height (strut_initial_state), static loads from the
// moment balance of derive_vehicle_params.
template <>
struct EnvModel<StrutModel> {
  template <class T>
  static FLEETDYN_FN void derive(VehicleParams<T>& p) { derive_vehicle_params(p); }
  template <class T>
  static FLEETDYN_FN void initial_state(const VehicleParams<T>& p, const TerrainDesc<T>& terrain, double x, double y,
                                        T yaw, T speed, T* s, T* origin_x, T* origin_y, T* static_load) {
    strut_initial_state(p, terrain, x, y, yaw, speed, s, origin_x, origin_y);
    for (int i = 0; i < kCorners; ++i) static_load[i] = p.static_tire_load[i];
  }
  template <class T>
  static FLEETDYN_FN T wheel_spin(const T* s, int corner) { return s[strut::kWheelSpin + corner]; }
  template <class T>
  static FLEETDYN_FN T wheel_radius(const VehicleParams<T>& p) { return p.tire.unloaded_radius; }
};

// The ce model. Derived fields: only the shared VehicleCommon's (drive shares, per-wheel brake
// torques, wheel lock rate: finalize_ce_params derives nothing else, host/ce_param_fields.cpp).
// Initial state: the static equilibrium of this episode's parameters, solved at every reset by
// the Newton iteration the host's ce_rest_state runs (physics/ce_rest.h), in fp64 whatever the
// env's precision (the fp32 parameters widen exactly; the fp64 rest state then rounds to fp32),
// and placed on the terrain like the batch's initial states. Static loads: the tire normal
// forces of that rest state. Wheel spin: relative to the upright (ce's state), as in the batch.
template <>
struct EnvModel<CeModel> {
  template <class T>
  static FLEETDYN_FN void derive(CeParams<T>& p) { derive_vehicle_common(p); }
  template <class T>
  static FLEETDYN_FN void initial_state(const CeParams<T>& p, const TerrainDesc<T>& terrain, double x, double y, T yaw,
                                        T speed, T* s, T* origin_x, T* origin_y, T* static_load) {
    double rest[kCeStateSize];
    CeRestSolution<double> solution;
    if constexpr (std::is_same<T, double>::value) {
      solution = ce_rest_solve(p, double(speed), rest);
    } else {
      solution = ce_rest_solve(convert_param_scalars<CeParams, double>(p), double(speed), rest);
    }
    T rest_t[kCeStateSize];
    for (int j = 0; j < kCeStateSize; ++j) rest_t[j] = T(rest[j]);
    ce_place_on_terrain(p, rest_t, terrain, x, y, yaw, s, origin_x, origin_y);
    for (int i = 0; i < kCorners; ++i) static_load[i] = T(solution.tire_load[i]);
  }
  template <class T>
  static FLEETDYN_FN T wheel_spin(const T* s, int corner) { return s[ce::kWheelSpin + corner]; }
  template <class T>
  static FLEETDYN_FN T wheel_radius(const CeParams<T>& p) { return p.tire.unloaded_radius; }
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
  T* static_load;             // [4][env_count] tire normal forces [N] at rest of the episode's vehicle
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
