// The CPU backend's vectorized runner: W consecutive vehicles stepped together, one per SIMD lane
// (host/lanes.h), through the same templated physics the GPU and the scalar path run.
//
// What is vectorized: the whole RK4 step (strut kinematics, TMeasy tire, driveline, Newton-Euler).
// What runs per lane through the scalar code: terrain queries other than flat ground (a few
// percent of the time; the loop and the heightfield index per lane), the inputs (maneuver
// lookup, or the driver through vehicle_input from the lane's state: the same call as
// run_vehicle's), the sanity check, the metrics and the origin rebase (once per step, not per
// stage).
//
// Independence: a vehicle's lane depends only on its index (v / W, v % W), every vehicle of the
// batch goes through this path (a short last group is padded with copies of its first vehicle,
// never written back), and no operation mixes lanes, so a vehicle's result is the same whatever
// the batch size or thread count. It equals the scalar path to round-off, not bitwise: the
// compiler contracts multiply-adds differently in the two.
#pragma once

#include "fleetdyn/physics/strut_batch.h"
#include "host/lanes.h"

namespace fleetdyn {

// Terrain contact for W query points: flat ground vectorized (the same arithmetic as
// terrain_detail::flat_contact), other kinds through the scalar query per lane, on the lane's
// own descriptor when the vehicles vary the terrain (TerrainDesc::per_lane; a variation never
// changes the kind, and flat ground has nothing to vary).
template <class T, int W>
inline TerrainContact<Lanes<T, W>> terrain_query(const TerrainDesc<T>& t, Vec3<Lanes<T, W>> local,
                                                 Lanes<T, W> origin_x, Lanes<T, W> origin_y) {
  using L = Lanes<T, W>;
  if (t.kind == TerrainKind::Flat) {
    return TerrainContact<L>{local.z - L(t.base_height), Vec3<L>{L(T(0)), L(T(0)), L(T(1))}, L(t.mu_scale)};
  }
  TerrainContact<L> c;
  for (int i = 0; i < W; ++i) {
    const TerrainContact<T> one = terrain_query(t.per_lane ? t.per_lane[i] : t,
                                                Vec3<T>{local.x[i], local.y[i], local.z[i]}, origin_x[i], origin_y[i]);
    c.distance.set(i, one.distance);
    c.normal.x.set(i, one.normal.x);
    c.normal.y.set(i, one.normal.y);
    c.normal.z.set(i, one.normal.z);
    c.mu_scale.set(i, one.mu_scale);
  }
  return c;
}

// The origin rebase (physics/batch_origin.h) of the running lanes' positions.
template <class T, int W>
inline void rebase_lanes(const LaneMask<T, W>& running, Lanes<T, W>* s, Lanes<T, W>& origin_x, Lanes<T, W>& origin_y) {
  for (int i = 0; i < W; ++i) {
    if (!lane_is_set(running, i)) continue;
    T x = s[strut::kPos][i], y = s[strut::kPos + 1][i], ox = origin_x[i], oy = origin_y[i];
    rebase_coordinate(x, ox);
    rebase_coordinate(y, oy);
    s[strut::kPos].set(i, x);
    s[strut::kPos + 1].set(i, y);
    origin_x.set(i, ox);
    origin_y.set(i, oy);
  }
}

// Advance vehicles first .. first + W - 1 (those that exist and are running) by `steps` outer
// steps; the lane form of run_vehicle (physics/batch_view.h), with the same divergence and
// capsize handling: a vehicle whose state stops being sane keeps its last sane state, is flagged
// kStatusDiverged and is no longer written; one whose roll at a step's start is past the capsize
// angle keeps that state, is flagged kStatusRolledOver and is no longer written.
template <class T, int W>
inline void strut_run_lanes(const StrutBatchView<T>& b, int first, int steps) {
  using L = Lanes<T, W>;
  const int n = b.vehicle_count;
  int vehicle[W];
  bool active[W];
  bool any_active = false;
  for (int i = 0; i < W; ++i) {
    vehicle[i] = first + i < n ? first + i : first;  // padding lanes repeat the first vehicle
    active[i] = first + i < n && b.status[first + i] == kStatusRunning;
    any_active = any_active || active[i];
  }
  if (!any_active) return;

  VehicleParams<L> params;
  L s[kStrutStateSize], next[kStrutStateSize];
  L origin_x, origin_y;
  T metrics[W][kMetricCount];
  const bool driven = b.driver.mode != kDriverOpenLoop;  // open loop touches no driver state
  T driver_state[W][kDriverStateSize];
  DriverReport<T> report[W];
  int count[W], status[W];
  typename L::Mask running;  // lanes whose state advances
  // The terrain each lane's vehicle meets (vehicle_terrain); the shared descriptor points at them.
  TerrainDesc<T> lane_terrain[W];
  TerrainDesc<T> terrain = b.terrain;
  if (b.terrain_variation) {
    for (int i = 0; i < W; ++i) lane_terrain[i] = vehicle_terrain(b, vehicle[i]);
    terrain.per_lane = lane_terrain;
  }
  for (int i = 0; i < W; ++i) {
    const int v = vehicle[i];
    set_lane(params, i, b.params[v % b.param_count]);
    for (int j = 0; j < kStrutStateSize; ++j) s[j].set(i, b.state[j * n + v]);
    for (int j = 0; j < kMetricCount; ++j) metrics[i][j] = b.metrics[j * n + v];
    for (int j = 0; driven && j < kDriverStateSize; ++j) driver_state[i][j] = b.driver.state[j * n + v];
    origin_x.set(i, b.origin[v]);
    origin_y.set(i, b.origin[n + v]);
    count[i] = b.step_count[v];
    status[i] = kStatusRunning;
    running.bits[i] = active[i] ? -1 : 0;
  }
  const T dt = b.integrator.step;
  for (int k = 0; k < steps; ++k) {
    DriverInput<L> input;
    T time[W];
    for (int i = 0; i < W; ++i) {
      time[i] = T(count[i]) * dt;
      const int v = vehicle[i];
      DriverInput<T> one{T(0), T(0), T(0)};  // lanes that no longer advance: any finite input
      if (!driven) {
        one = batch_input(b, v, time[i]);
      } else if (lane_is_set(running, i)) {
        T lane_state[kStrutStateSize];
        for (int j = 0; j < kStrutStateSize; ++j) lane_state[j] = s[j][i];
        one = vehicle_input(b, b.params[v % b.param_count], v, time[i], lane_state, origin_x[i], origin_y[i],
                            driver_state[i], &report[i]);
      }
      input.steer.set(i, one.steer);
      input.throttle.set(i, one.throttle);
      input.brake.set(i, one.brake);
    }
    StrutDiagnostics<L> diag;
    strut_step(params, terrain, origin_x, origin_y, b.integrator, input, s, next, &diag);
    for (int i = 0; i < W; ++i) {
      if (!lane_is_set(running, i)) continue;
      T lane_next[kStrutStateSize], lane_state[kStrutStateSize];
      for (int j = 0; j < kStrutStateSize; ++j) {
        lane_next[j] = next[j][i];
        lane_state[j] = s[j][i];
      }
      if (!strut_state_is_sane(lane_next)) {  // keep s, the last sane state
        status[i] = kStatusDiverged;
        metrics[i][metric::diverged_time] = time[i];
        running.bits[i] = 0;
        continue;
      }
      const T roll = update_metrics(metrics[i], b.terrain_variation ? lane_terrain[i] : b.terrain, origin_x[i], origin_y[i],
                                    strut_metric_sample(lane_state, get_lane(diag, i)), time[i], dt);
      if (driven) update_driver_metrics(metrics[i], report[i], time[i]);
      if (capsized(roll, b.capsize_roll)) {  // keep s, the state past the capsize angle
        status[i] = kStatusRolledOver;
        metrics[i][metric::capsize_time] = time[i];
        running.bits[i] = 0;
        continue;
      }
      ++count[i];
    }
    if (!any_lane(running)) break;
    for (int j = 0; j < kStrutStateSize; ++j) s[j] = select(running, next[j], s[j]);
    rebase_lanes(running, s, origin_x, origin_y);
  }
  for (int i = 0; i < W; ++i) {
    if (!active[i]) continue;
    const int v = vehicle[i];
    for (int j = 0; j < kStrutStateSize; ++j) b.state[j * n + v] = s[j][i];
    for (int j = 0; j < kMetricCount; ++j) b.metrics[j * n + v] = metrics[i][j];
    for (int j = 0; driven && j < kDriverStateSize; ++j) b.driver.state[j * n + v] = driver_state[i][j];
    b.origin[v] = origin_x[i];
    b.origin[n + v] = origin_y[i];
    b.step_count[v] = count[i];
    b.status[v] = status[i];
  }
}

}  // namespace fleetdyn
