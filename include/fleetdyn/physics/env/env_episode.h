// One env of the vector environment: reset (fresh parameters, track and initial state from the
// episode's random stream), observation, and the env step (actuators, `decimation` physics
// steps, reward, termination, same-step autoreset). Written once for the CPU loop and the CUDA
// kernel (kernels/env_engine.cuh); each env touches only its own columns.
#pragma once

#include <type_traits>

#include "fleetdyn/physics/env/env_track.h"
#include "fleetdyn/physics/env/env_view.h"

namespace fleetdyn {
namespace env {

// What the observation, reward and termination read of an env after a step or a reset.
template <class T>
struct EnvSense {
  DriverSense<T> body;  // COM (local), attitude, velocity, body angular velocity
  Vec3<T> tilt;         // ground-relative roll, pitch
  TrackPosition<T> track;
  T speed;  // [m/s] forward (body x) speed
};

template <class Model, class T>
FLEETDYN_FN EnvSense<T> sense_env(const EnvView<Model, T>& e, int v, const typename Model::template Params<T>& p,
                                  const T* s, T origin_x, T origin_y, int hint) {
  const EnvConfig<T>& c = e.config;
  EnvSense<T> x;
  x.body = Model::sense(p, s);
  const Vec3<T> normal = terrain_ground_query(e.terrain, x.body.com, origin_x, origin_y).normal;
  x.tilt = ground_relative_roll_pitch(x.body.rot, normal);
  const size_t row = static_cast<size_t>(v) * static_cast<size_t>(c.track_points);
  const PathView<T> track = env_track(c, e.track_x + row, e.track_y + row, e.track_s + row);
  x.track = locate_on_track(track, hint, origin_x, origin_y, x.body.com.x, x.body.com.y);
  x.speed = dot(x.body.velocity, x.body.rot.col(0));
  return x;
}

// Heading error [rad] in (-pi, pi]: the body x axis against the track tangent, + = pointing left of it.
template <class T>
FLEETDYN_FN T heading_error(const EnvSense<T>& x) {
  const Vec3<T> forward = x.body.rot.col(0);
  const T tx = x.track.tangent_x, ty = x.track.tangent_y;
  return atan2(tx * forward.y - ty * forward.x, tx * forward.x + ty * forward.y);
}

// Writes the observation row of env v (obs_dim floats) in the configured feature order.
template <class Model, class T>
FLEETDYN_FN void observe_env(const EnvView<Model, T>& e, int v, const typename Model::template Params<T>& p, const T* s,
                             T origin_x, T origin_y, const EnvSense<T>& x, float* out) {
  const EnvConfig<T>& c = e.config;
  const int n = e.env_count;
  const T velocity_scale = T(0.1), distance_scale = T(0.1);
  int k = 0;
  const auto put = [&](T value) { out[k++] = static_cast<float>(value); };
  for (int f = 0; f < c.feature_count; ++f) {
    switch (c.features[f]) {
      case kBodyVelocity: {
        const Vec3<T> vb = mul_transpose(x.body.rot, x.body.velocity);
        put(vb.x * velocity_scale);
        put(vb.y * velocity_scale);
        put(vb.z * velocity_scale);
        break;
      }
      case kRollPitch:
        put(x.tilt.x);
        put(x.tilt.y);
        break;
      case kYawRate: put(x.body.omega_body.z); break;
      case kWheelSpeeds:
        for (int i = 0; i < kCorners; ++i) put(Model::wheel_spin(s, i) * Model::wheel_radius(p) * velocity_scale);
        break;
      case kWheelLoads:
        for (int i = 0; i < kCorners; ++i) put(e.wheel_load[i * n + v] / e.static_load[i * n + v]);
        break;
      case kSteering: put(e.actuator[v]); break;
      case kPedals:
        put(e.actuator[n + v]);
        put(e.actuator[2 * n + v]);
        break;
      case kPathErrors:
        put(x.track.lateral / c.road_half_width);
        put(heading_error(x));
        break;
      case kLookahead: {
        const size_t row = static_cast<size_t>(v) * static_cast<size_t>(c.track_points);
        const PathView<T> track = env_track(c, e.track_x + row, e.track_y + row, e.track_s + row);
        const PathIndex at{x.track.segment, 0};
        PathIndex u = at;
        for (int j = 1; j <= c.lookahead_count; ++j) {
          const T s_ahead = x.track.progress + T(j) * c.lookahead_spacing;
          u = path_segment_at(track, u, at, s_ahead);
          const PathTarget<T> point = path_point_on(path_segment(track, u), s_ahead, origin_x, origin_y);
          const Vec3<T> d = mul_transpose(x.body.rot, Vec3<T>{point.x - x.body.com.x, point.y - x.body.com.y, T(0)});
          put(d.x * distance_scale);
          put(d.y * distance_scale);
        }
        break;
      }
      case kSpeedError: put(c.task == kReachSpeed ? (x.speed - e.target_speed[v]) * velocity_scale : T(0)); break;
      default: break;
    }
  }
}

// Start a new episode of env v: its parameters, track and initial state from draws keyed by
// (seed, v, episode_index[v]), which then advances. Writes the first observation to obs.
template <class Model, class T>
FLEETDYN_FN void reset_env(const EnvView<Model, T>& e, int v) {
  using Params = typename Model::template Params<T>;
  const EnvConfig<T>& c = e.config;
  const int n = e.env_count;
  const uint32_t episode = e.episode_index[v];
  e.episode_index[v] = episode + 1u;
  const auto draw = [&](uint32_t slot) { return episode_uniform(c.seed, v, slot, episode); };

  Params p = e.base_params[v % e.base_param_count];
  T* fields = reinterpret_cast<T*>(&p);  // Params is a standard-layout struct of T (and arrays of T)
  for (int r = 0; r < c.randomized_count; ++r) {
    const RandomizedParam<T>& rp = c.randomized[r];
    const T value = lerp_draw(rp.lo, rp.hi, draw(kDrawParam + static_cast<uint32_t>(r)));
    fields[rp.index] = rp.relative ? fields[rp.index] * value : value;
  }
  Model::derive(p);
  e.params[v] = p;

  const T start_x = lerp_draw(c.start_x_min, c.start_x_max, draw(kDrawStartX));
  const T start_y = lerp_draw(c.start_y_min, c.start_y_max, draw(kDrawStartY));
  const size_t row = static_cast<size_t>(v) * static_cast<size_t>(c.track_points);
  generate_track(c, v, episode, start_x, start_y, e.track_x + row, e.track_y + row, e.track_s + row);

  const T lateral = lerp_draw(-c.lateral_offset_max, c.lateral_offset_max, draw(kDrawLateralOffset));
  const T yaw = lerp_draw(-c.heading_offset_max, c.heading_offset_max, draw(kDrawHeadingOffset));
  const T speed = lerp_draw(c.speed_min, c.speed_max, draw(kDrawSpeed));
  e.target_speed[v] = lerp_draw(c.target_speed_min, c.target_speed_max, draw(kDrawTargetSpeed));
  constexpr int kSize = Model::kStateSize;
  T s[kSize], origin_x, origin_y, static_load[kCorners];
  Model::initial_state(p, e.terrain, double(start_x), double(start_y) + double(lateral), yaw, speed, s, &origin_x,
                       &origin_y, static_load);
  for (int j = 0; j < kSize; ++j) e.state[j * n + v] = s[j];
  e.origin[v] = origin_x;
  e.origin[n + v] = origin_y;
  for (int j = 0; j < 3; ++j) {
    e.actuator[j * n + v] = T(0);
    e.command[j * n + v] = T(0);
  }
  for (int i = 0; i < kCorners; ++i) {
    e.static_load[i * n + v] = static_load[i];
    e.wheel_load[i * n + v] = static_load[i];
  }
  e.lift_time[v] = T(0);
  e.episode_return[v] = T(0);
  e.episode_steps[v] = 0;
  const EnvSense<T> x = sense_env(e, v, p, s, origin_x, origin_y, 0);
  e.segment[v] = x.track.segment;
  e.progress[v] = x.track.progress;
  observe_env(e, v, p, s, origin_x, origin_y, x, e.obs + static_cast<size_t>(v) * c.obs_dim);
}

// Clipped action component (NaN never reaches here: the host or the action check rejects it).
template <class T>
FLEETDYN_FN T clipped_action(const float* a, int j) {
  const T lo = j == 0 ? T(-1) : T(0);
  return clamp(T(a[j]), lo, T(1));
}

// The command of env v from its action row, and how much each component changed since the last
// step (the input-change penalty).
template <class Model, class T>
FLEETDYN_FN void env_command(const EnvView<Model, T>& e, int v, T command[3], T change[3]) {
  const float* a = e.actions + static_cast<size_t>(v) * 3;
  for (int j = 0; j < 3; ++j) {
    command[j] = clipped_action<T>(a, j);
    change[j] = command[j] - e.command[j * e.env_count + v];
  }
}

// The actuators step toward the command by at most rate x dt.
template <class T, class U>
FLEETDYN_FN void follow_command(const EnvConfig<T>& c, const U command[3], U actuator[3], T dt) {
  const T rate[3] = {c.steer_rate, c.throttle_rate, c.brake_rate};
  for (int j = 0; j < 3; ++j)
    actuator[j] = actuator[j] + clamp(command[j] - actuator[j], U(-rate[j] * dt), U(rate[j] * dt));
}

// Whether one side's wheels are both off the ground (the two-wheel-lift rollover clock).
template <class T>
FLEETDYN_FN bool side_lifted(const T* normal_force) {
  return (normal_force[0] <= T(0) && normal_force[2] <= T(0)) || (normal_force[1] <= T(0) && normal_force[3] <= T(0));
}

// The physics of one env's step, in phases around each physics step, so that a runner may step
// several envs together between them (the CPU's lanes, host/env/strut_env_lanes.h, through
// EnvRun below); advance_env is the plain sequence, on separate locals (the CUDA kernel keeps
// them in registers). An env whose state stops being sane keeps its last sane state and stops
// (the episode ends as diverged). Group: the corners this thread holds (physics/core/corner_group.h;
// AllCorners: the whole vehicle); only the group's leader writes the env's shared outputs.
template <class Model, class T, class Group = AllCorners>
FLEETDYN_FN void env_load(const EnvView<Model, T>& e, int v, T* s, T& origin_x, T& origin_y, T* actuator, T* load,
                          T& lift, const Group& group = Group{}) {
  const int n = e.env_count;
  for (int j = 0; j < HeldState<Model, Group>::kSize; ++j) s[j] = e.state[held_state_index<Model>(group, j) * n + v];
  origin_x = e.origin[v];
  origin_y = e.origin[n + v];
  for (int j = 0; j < 3; ++j) actuator[j] = e.actuator[j * n + v];
  for (int i = 0; i < kCorners; ++i) load[i] = e.wheel_load[i * n + v];
  lift = e.lift_time[v];
}

// Takes the physics step's result `next` with its tire normal forces [N]: false when the
// vehicle diverged (s keeps the last sane state).
template <class Model, class T, class Group = AllCorners>
FLEETDYN_FN bool env_accept(const EnvView<Model, T>& e, const T* next, const T* tire_normal_force, T* s, T& origin_x,
                            T& origin_y, T* load, T& lift, const Group& group = Group{}) {
  if (!held_state_is_sane<Model>(next, group)) return false;
  lift = side_lifted(tire_normal_force) ? lift + e.integrator.step : T(0);
  for (int i = 0; i < kCorners; ++i) load[i] = tire_normal_force[i];
  for (int j = 0; j < HeldState<Model, Group>::kSize; ++j) s[j] = next[j];
  rebase_coordinate(s[Model::kPosIndex], origin_x);
  rebase_coordinate(s[Model::kPosIndex + 1], origin_y);
  return true;
}

template <class Model, class T, class Group = AllCorners>
FLEETDYN_FN void env_store(const EnvView<Model, T>& e, int v, const T* s, T origin_x, T origin_y, const T* actuator,
                           const T* command, const T* load, T lift, const Group& group = Group{}) {
  const int n = e.env_count;
  for (int j = first_stored_index<Model>(group); j < HeldState<Model, Group>::kSize; ++j) {
    e.state[held_state_index<Model>(group, j) * n + v] = s[j];
  }
  if (!group.leader()) return;
  e.origin[v] = origin_x;
  e.origin[n + v] = origin_y;
  for (int j = 0; j < 3; ++j) {
    e.actuator[j * n + v] = actuator[j];
    e.command[j * n + v] = command[j];
  }
  for (int i = 0; i < kCorners; ++i) e.wheel_load[i * n + v] = load[i];
  e.lift_time[v] = lift;
}

// One env's phases as an object, for runners that keep several envs at once.
template <class Model, class T>
struct EnvRun {
  T s[Model::kStateSize], next[Model::kStateSize];  // the state at the physics step's start; the step's result
  T actuator[3], load[kCorners];
  T origin_x, origin_y, lift;

  FLEETDYN_FN void load_env(const EnvView<Model, T>& e, int v) {
    env_load(e, v, s, origin_x, origin_y, actuator, load, lift);
  }
  FLEETDYN_FN bool accept(const EnvView<Model, T>& e, const T* tire_normal_force) {
    return env_accept(e, next, tire_normal_force, s, origin_x, origin_y, load, lift);
  }
  FLEETDYN_FN void store(const EnvView<Model, T>& e, int v, const T* command) const {
    env_store(e, v, s, origin_x, origin_y, actuator, command, load, lift);
  }
};

// The physics of one env step of env v: `decimation` physics steps with the actuators following
// `command`; writes the state, origin, actuators, command, wheel loads and lift clock. Returns
// whether the vehicle diverged (then its state is the last sane one).
template <class Model, class T, class Group = AllCorners>
FLEETDYN_FN bool advance_env(const EnvView<Model, T>& e, int v, const typename Model::template Params<T>& p,
                             const T command[3], const Group& group = Group{}) {
  constexpr int kSize = HeldState<Model, Group>::kSize;
  T s[kSize], next[kSize], actuator[3], load[kCorners], origin_x, origin_y, lift;
  env_load(e, v, s, origin_x, origin_y, actuator, load, lift, group);
  bool diverged = false;
  for (int k = 0; k < e.config.decimation; ++k) {
    follow_command(e.config, command, actuator, e.integrator.step);
    MetricSample<T> sample;
    step_held<Model>(p, e.terrain, origin_x, origin_y, e.integrator,
                     DriverInput<T>{actuator[0], actuator[1], actuator[2]}, s, next, &sample, group);
    if (!env_accept(e, next, sample.tire_normal_force, s, origin_x, origin_y, load, lift, group)) {  // the episode ends
      diverged = true;
      break;
    }
  }
  env_store(e, v, s, origin_x, origin_y, actuator, command, load, lift, group);
  return diverged;
}

// After the physics of an env step (advance_env, or its SIMD lane form on the CPU): reward,
// termination and, if the episode ended, the final observation and a reset within the same step
// (Gymnasium's same-step autoreset); else the observation.
template <class Model, class T>
FLEETDYN_FN void finish_env_step(const EnvView<Model, T>& e, int v, const typename Model::template Params<T>& p,
                                 bool diverged, const T change[3]) {
  constexpr int kSize = Model::kStateSize;
  const EnvConfig<T>& c = e.config;
  const int n = e.env_count;
  T s[kSize];
  for (int j = 0; j < kSize; ++j) s[j] = e.state[j * n + v];
  const T origin_x = e.origin[v], origin_y = e.origin[n + v];
  const T lift = e.lift_time[v];
  const EnvSense<T> x = sense_env(e, v, p, s, origin_x, origin_y, e.segment[v]);
  const T gained = x.track.progress - e.progress[v];
  e.segment[v] = x.track.segment;
  e.progress[v] = x.track.progress;
  const T heading = heading_error(x);
  const bool rolled = fabs(x.tilt.x) > c.rollover_angle || fabs(x.tilt.y) > c.rollover_angle || lift >= c.rollover_lift_time;
  const bool off_road = fabs(x.track.lateral) > c.road_half_width;
  const int steps = e.episode_steps[v] + 1;
  const T track_end = e.track_s[static_cast<size_t>(v) * c.track_points + c.track_points - 1] -
                      T(c.lookahead_count + 1) * c.lookahead_spacing;
  int reason = diverged ? kDiverged : rolled ? kRollover : off_road ? kOffRoad : kRunning;
  const bool terminal = reason != kRunning;
  if (!terminal)
    reason = x.track.progress >= track_end ? kTrackEnd : steps >= c.max_episode_steps ? kTimeLimit : kRunning;

  T r = c.w_progress * gained - c.env_dt * (c.w_lateral * sq(x.track.lateral) + c.w_heading * sq(heading));
  if (c.task == kReachSpeed) r -= c.w_speed * fabs(x.speed - e.target_speed[v]) * c.env_dt;
  r -= c.w_steer_change * sq(change[0]) + c.w_pedal_change * (sq(change[1]) + sq(change[2]));
  if (terminal) r -= c.w_crash;
  const T episode_return = e.episode_return[v] + r;

  e.reward[v] = static_cast<float>(r);
  e.terminated[v] = terminal ? 1 : 0;
  e.truncated[v] = (!terminal && reason != kRunning) ? 1 : 0;
  e.end_reason[v] = reason;
  float* row = e.obs + static_cast<size_t>(v) * c.obs_dim;
  if (reason == kRunning) {
    e.has_final[v] = 0;
    e.episode_return[v] = episode_return;
    e.episode_steps[v] = steps;
    observe_env(e, v, p, s, origin_x, origin_y, x, row);
    return;
  }
  e.has_final[v] = 1;
  e.final_return[v] = static_cast<float>(episode_return);
  e.final_length[v] = steps;
  observe_env(e, v, p, s, origin_x, origin_y, x, e.final_obs + static_cast<size_t>(v) * c.obs_dim);
  reset_env(e, v);
}

// One env step of env v (the CPU's scalar path and the CUDA kernels). A whole vehicle's thread
// copies its parameters (registers and local memory on the GPU); a group's lanes read them in
// place, and its leader alone finishes the step once the lanes' stores are done.
template <class Model, class T, class Group = AllCorners>
FLEETDYN_FN void step_env(const EnvView<Model, T>& e, int v, const Group& group = Group{}) {
  using Params = typename Model::template Params<T>;
  using Held = std::conditional_t<Group::kCount == kCorners, const Params, const Params&>;
  Held p = e.params[v];
  T command[3], change[3];
  env_command(e, v, command, change);
  const bool diverged = advance_env(e, v, p, command, group);
  group.sync();
  if (group.leader()) finish_env_step(e, v, p, diverged, change);
}

}  // namespace env
}  // namespace fleetdyn
