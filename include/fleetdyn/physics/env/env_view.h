// The vector environment's kernel contract: a trivially copyable view of every env's arrays
// (pointers and counts, like physics/core/batch_view.h). What an env needs of a model is in the
// model's kernel traits (StrutModel, CeModel: derive, initial_state, wheel_spin, wheel_radius).
// Per-env arrays are structure-of-arrays, component-major (a[j * env_count + e]), except the
// user-facing buffers (actions, observations), which are row-major [env][component]
// as numpy and torch expect, and the tracks, [env][point] so each env's track is contiguous.
#pragma once

#include <cstdint>

#include "fleetdyn/physics/ce/ce_batch.h"
#include "fleetdyn/physics/env/env_config.h"
#include "fleetdyn/physics/strut/strut_batch.h"

namespace fleetdyn {

template <class Model, class T>
struct EnvView {
  using Params = typename Model::template Params<T>;
  int env_count;
  env::EnvConfig<T> config;
  TerrainDesc<T> terrain;
  IntegratorSettings<T> integrator;
  const Params* base_params;  // [base_param_count]; env e draws around base_params[e % count]
  int base_param_count;
  Params* params;           // [env_count] the current episode's
  T* state;                 // [Model::kStateSize][env_count]
  T* origin;                // [2][env_count] local origins (physics/core/batch_origin.h)
  T* actuator;              // [3][env_count] steer, throttle, brake positions
  T* command;               // [3][env_count] last clipped action
  T* wheel_load;            // [4][env_count] tire normal forces [N] of the last physics step
  T* static_load;           // [4][env_count] tire normal forces [N] at rest of the episode's vehicle
  T* lift_time;             // [env_count] unbroken two-wheel lift so far [s]
  T* progress;              // [env_count] arclength of the track reached [m]
  int* segment;             // [env_count] nearest track segment (the search's hint)
  T* target_speed;          // [env_count] [m/s] reach-speed task
  T* episode_return;        // [env_count]
  int* episode_steps;       // [env_count] env steps of the running episode
  uint32_t* episode_index;  // [env_count] episodes started since the last seeding
  T* track_x;               // [env_count][track_points] world x [m]
  T* track_y;
  T* track_s;  // arclength [m]
  // User-facing buffers.
  const float* actions;  // [env_count][3]
  float* obs;            // [env_count][obs_dim]
  float* reward;         // [env_count]
  uint8_t* terminated;   // [env_count]
  uint8_t* truncated;    // [env_count]
  float* final_obs;      // [env_count][obs_dim]
  uint8_t* has_final;    // [env_count]
  float* final_return;   // [env_count]
  int* final_length;     // [env_count]
  int* end_reason;       // [env_count]
};

}  // namespace fleetdyn
