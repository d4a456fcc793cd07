// The vector environment's settings as the device sees them: a POD copied by value into every
// launch (the host builds it from fleetdyn::VectorEnvConfig, include/fleetdyn/vector_env.h, which
// documents each field and its default). Frames ISO, SI units.
#pragma once

#include <cstdint>

namespace fleetdyn {
namespace env {

enum TaskKind : int { kPathFollowing = 0, kReachSpeed = 1 };

// Observation features, in the order the user lists them; each has a fixed width.
enum Feature : int {
  kBodyVelocity = 0,  // 3: body COM velocity in body axes (x forward, y left, z up) / 10 m/s
  kRollPitch,         // 2: roll and pitch relative to the ground under the body [rad]
  kYawRate,           // 1: body z angular velocity [rad/s]
  kWheelSpeeds,       // 4: wheel spin * unloaded radius / 10 m/s, corners FL FR RL RR
  kWheelLoads,        // 4: tire normal force / its static value
  kSteering,          // 1: steering actuator position, normalized [-1, 1] (road-wheel angle / max_steer)
  kPedals,            // 2: throttle and brake actuator positions [0, 1]
  kPathErrors,        // 2: lateral error from the path (+ = left of it) / road half-width, heading error [rad]
  kLookahead,         // 2 per point: path points ahead, body-frame x and y / 10 m
  kSpeedError,        // 1: (speed - target speed) / 10 m/s (reach-speed task; 0 for path following)
  kFeatureCount
};

constexpr int kMaxFeatures = 16;
constexpr int kMaxLookahead = 16;
constexpr int kMaxRandomized = 24;

// Why an episode ended (info "end_reason"); 0 while it runs.
enum EndReason : int { kRunning = 0, kRollover = 1, kOffRoad = 2, kDiverged = 3, kTimeLimit = 4, kTrackEnd = 5 };

// Feature widths (kLookahead: per look-ahead point).
constexpr int kFeatureWidth[kFeatureCount] = {3, 2, 1, 4, 4, 1, 2, 2, 2, 1};

// One randomized parameter: the `index`-th scalar of the model's parameter struct, drawn
// uniformly in [lo, hi] at every reset, as a value or (relative) as a factor on the base value.
template <class T>
struct RandomizedParam {
  int index;
  int relative;
  T lo, hi;
};

template <class T>
struct EnvConfig {
  int task;               // TaskKind
  int decimation;         // physics steps per env step
  int max_episode_steps;  // env steps, then truncation
  T env_dt;               // [s] decimation * physics step
  // Actuators: each follows its command at most this fast [normalized units / s].
  T steer_rate, throttle_rate, brake_rate;
  // Track: `track_points` points `track_spacing` apart; curvature a sum of three sines of random
  // wavelength, phase and weight, at most track_max_curvature, faded in over track_straight.
  int track_points;
  T track_spacing, track_max_curvature, track_wavelength_min, track_wavelength_max, track_straight;
  T road_half_width;  // [m] farther from the centreline is off the road
  // Start of an episode.
  T start_x_min, start_x_max, start_y_min, start_y_max;  // [m] world point where the track starts
  T speed_min, speed_max;                                // [m/s]
  T lateral_offset_max, heading_offset_max;              // [m], [rad] from the track's start
  T target_speed_min, target_speed_max;                  // [m/s] reach-speed task
  // Termination.
  T rollover_angle;      // [rad] ground-relative roll or pitch beyond this
  T rollover_lift_time;  // [s] unbroken two-wheel lift this long
  // Reward weights (vector_env.h says what each multiplies).
  T w_progress, w_lateral, w_heading, w_speed, w_steer_change, w_pedal_change, w_crash;
  // Observation.
  int feature_count;
  int features[kMaxFeatures];
  int lookahead_count;
  T lookahead_spacing;  // [m]
  int obs_dim;
  // Randomization at reset.
  int randomized_count;
  RandomizedParam<T> randomized[kMaxRandomized];
  uint64_t seed;
};

}  // namespace env
}  // namespace fleetdyn
