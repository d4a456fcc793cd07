// The CPU's SIMD form of the vector env's physics for the strut model: W consecutive envs step
// their `decimation` physics steps together, one per lane (host/backend/lanes.h), through the same
// templated strut_step the scalar path and the GPU run; the actuators follow their commands in
// lanes; the sanity check, the lift clock and the origin rebase run per lane through its
// env::EnvRun (the scalar path's phases, in host/backend/vehicle_lanes.h's lane loop), and the rest of
// the env step (reward, termination, observation, autoreset) through the scalar finish_env_step. The lane form of
// env::advance_env (physics/env/env_episode.h), like strut_run_lanes is of run_vehicle.
//
// Independence: an env's lane depends only on its index (e / W, e % W); a short last group is
// padded with copies of its first env, never written back; no operation mixes lanes. Results
// equal the scalar path to round-off (the compiler contracts multiply-adds differently), and are
// bit-identical run to run whatever the thread count.
#pragma once

#include "fleetdyn/physics/env/env_episode.h"
#include "host/backend/vehicle_lanes.h"
#include "host/strut/strut_lanes.h"

namespace fleetdyn {

template <class T, int W>
inline void strut_env_step_lanes(const EnvView<StrutModel, T>& e, int first) {
  using L = Lanes<T, W>;
  constexpr int kSize = kStrutStateSize;
  const int n = e.env_count;
  env::EnvRun<StrutModel, T> run[W];
  T command[W][3], change[W][3];
  StrutParams<L> params;
  L lane_command[3];
  bool live[W];  // an env of the group still advancing (padding lanes never are)
  for (int i = 0; i < W; ++i) {
    const int v = first + i < n ? first + i : first;  // padding lanes repeat the first env
    live[i] = first + i < n;
    env::env_command(e, v, command[i], change[i]);
    set_lane(params, i, e.params[v]);
    run[i].load_env(e, v);
    for (int j = 0; j < 3; ++j) lane_command[j].set(i, command[i][j]);
  }
  const T dt = e.integrator.step;
  T force[W][kCorners];
  bool diverged[W] = {};
  step_live_lanes<W>(
      live, e.config.decimation,
      [&] {
        L s[kSize], next[kSize], origin_x, origin_y, actuator[3];
        for (int i = 0; i < W; ++i) {
          for (int j = 0; j < kSize; ++j) s[j].set(i, run[i].s[j]);
          origin_x.set(i, run[i].origin_x);
          origin_y.set(i, run[i].origin_y);
          for (int j = 0; j < 3; ++j) actuator[j].set(i, run[i].actuator[j]);
        }
        env::follow_command(e.config, lane_command, actuator, dt);
        StrutDiagnostics<L> diag;
        strut_step(params, e.terrain, origin_x, origin_y, e.integrator,
                   DriverInput<L>{actuator[0], actuator[1], actuator[2]}, s, next, &diag);
        for (int i = 0; i < W; ++i) {
          if (!live[i]) continue;
          for (int j = 0; j < 3; ++j) run[i].actuator[j] = actuator[j][i];
          for (int j = 0; j < kSize; ++j) run[i].next[j] = next[j][i];
          for (int q = 0; q < kCorners; ++q) force[i][q] = diag.tire_normal_force[q][i];
        }
      },
      [&](int i) { return run[i].accept(e, force[i]); }, [&](int i) { diverged[i] = true; });
  for (int i = 0; i < W && first + i < n; ++i) run[i].store(e, first + i, command[i]);
  for (int i = 0; i < W && first + i < n; ++i) {
    const int v = first + i;
    env::finish_env_step(e, v, e.params[v], diverged[i], change[i]);
  }
}

}  // namespace fleetdyn
