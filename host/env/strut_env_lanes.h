// The CPU's SIMD form of the vector env's physics for the strut model: W consecutive envs step
// their `decimation` physics steps together, one per lane (host/lanes.h), through the same
// templated strut_step the scalar path and the GPU run; commands, the sanity check, the lift
// clock and the origin rebase run per lane, and the rest of the env step (reward, termination,
// observation, autoreset) through the scalar finish_env_step. The lane form of env::advance_env
// (physics/env/env_episode.h), like strut_run_lanes is of run_vehicle.
//
// Independence: an env's lane depends only on its index (e / W, e % W); a short last group is
// padded with copies of its first env, never written back; no operation mixes lanes. Results
// equal the scalar path to round-off (the compiler contracts multiply-adds differently), and are
// bit-identical run to run whatever the thread count.
#pragma once

#include "fleetdyn/physics/env/env_episode.h"
#include "host/strut_lanes.h"

namespace fleetdyn {

template <class T, int W>
inline void strut_env_step_lanes(const EnvView<StrutModel, T>& e, int first) {
  using L = Lanes<T, W>;
  constexpr int kSize = kStrutStateSize;
  const env::EnvConfig<T>& c = e.config;
  const int n = e.env_count;
  int env_of[W];
  T command[W][3], change[W][3];
  VehicleParams<L> params;
  L s[kSize], next[kSize], origin_x, origin_y, lane_command[3], actuator[3];
  T load[W][kCorners], lift[W];
  for (int i = 0; i < W; ++i) {
    const int v = first + i < n ? first + i : first;  // padding lanes repeat the first env
    env_of[i] = v;
    env::env_command(e, v, command[i], change[i]);
    set_lane(params, i, e.params[v]);
    for (int j = 0; j < kSize; ++j) s[j].set(i, e.state[j * n + v]);
    origin_x.set(i, e.origin[v]);
    origin_y.set(i, e.origin[n + v]);
    for (int j = 0; j < 3; ++j) {
      lane_command[j].set(i, command[i][j]);
      actuator[j].set(i, e.actuator[j * n + v]);
    }
    for (int k = 0; k < kCorners; ++k) load[i][k] = e.wheel_load[k * n + v];
    lift[i] = e.lift_time[v];
  }
  typename L::Mask running;  // lanes whose state advances
  for (int i = 0; i < W; ++i) running.bits[i] = -1;
  bool diverged[W] = {};
  const T dt = e.integrator.step;
  for (int k = 0; k < c.decimation; ++k) {
    // Lanes that stopped (diverged) keep their actuators where their last step left them.
    L moved[3] = {actuator[0], actuator[1], actuator[2]};
    env::follow_command(c, lane_command, moved, dt);
    for (int j = 0; j < 3; ++j) actuator[j] = select(running, moved[j], actuator[j]);
    StrutDiagnostics<L> diag;
    strut_step(params, e.terrain, origin_x, origin_y, e.integrator, DriverInput<L>{actuator[0], actuator[1], actuator[2]},
               s, next, &diag);
    for (int i = 0; i < W; ++i) {
      if (!lane_is_set(running, i)) continue;
      T lane_next[kSize];
      for (int j = 0; j < kSize; ++j) lane_next[j] = next[j][i];
      if (!strut_state_is_sane(lane_next)) {  // keep s, the last sane state
        diverged[i] = true;
        running.bits[i] = 0;
        continue;
      }
      T force[kCorners];
      for (int q = 0; q < kCorners; ++q) force[q] = diag.tire_normal_force[q][i];
      lift[i] = env::side_lifted(force) ? lift[i] + dt : T(0);
      for (int q = 0; q < kCorners; ++q) load[i][q] = force[q];
    }
    if (!any_lane(running)) break;
    for (int j = 0; j < kSize; ++j) s[j] = select(running, next[j], s[j]);
    rebase_lanes(running, s, origin_x, origin_y);
  }
  for (int i = 0; i < W && first + i < n; ++i) {
    const int v = env_of[i];
    for (int j = 0; j < kSize; ++j) e.state[j * n + v] = s[j][i];
    e.origin[v] = origin_x[i];
    e.origin[n + v] = origin_y[i];
    for (int j = 0; j < 3; ++j) {
      e.actuator[j * n + v] = actuator[j][i];
      e.command[j * n + v] = command[i][j];
    }
    for (int q = 0; q < kCorners; ++q) e.wheel_load[q * n + v] = load[i][q];
    e.lift_time[v] = lift[i];
  }
  for (int i = 0; i < W && first + i < n; ++i) {
    const int v = env_of[i];
    env::finish_env_step(e, v, e.params[v], diverged[i], change[i]);
  }
}

}  // namespace fleetdyn
