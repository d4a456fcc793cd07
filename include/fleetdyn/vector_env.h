// A vector environment for reinforcement learning: num_envs vehicles, each an independent episode,
// stepped together on the CPU or the GPU. Actions in, observations / rewards / terminated /
// truncated out, every env step; each env step runs `decimation` physics steps (default: the
// model's default physics step, 50 Hz control).
//
// Models: strut (the default) and ce (the 14-DOF
// constraint-embedding vehicle; base parameters in VectorEnvConfig::ce_vehicle). Everything
// below holds for both; docs/design/vector-env.md says where they differ (step, randomizable
// parameters, initial state). The pgs model has no vector env: it is refused by name.
//
//   fleetdyn::VectorEnvConfig config;                 // path following, strut HMMWV, fp32
//   config.num_envs = 4096;
//   fleetdyn::VectorEnv env(config);
//   env.reset(/*seed=*/42);
//   env.step(actions, fleetdyn::MemorySpace::Host);   // float [num_envs][3]: steer, throttle, brake
//   const float* obs = env.observations();            // [num_envs][observation_size()], backend memory
//
// Semantics (Gymnasium's vector API):
// - Actions: steer in [-1, 1] (+ = left), throttle and brake in [0, 1], clipped to those ranges.
//   Each actuator follows its command at a limited rate (VectorEnvConfig::steer_rate ...), as a
//   real steering motor or brake does. A NaN or infinite action is rejected with fleetdyn::Error
//   naming the env and component (on CUDA with device actions: checked on the device, reported
//   by the same call, which then reads back one int).
// - Autoreset: Gymnasium's "same step" mode. An env whose episode ends in step() (terminated or
//   truncated) is reset within that same call: observations() holds its first observation of
//   the new episode, final_observations() the last one of the old episode (rows where
//   has_final() is 1), and final_returns() / final_lengths() / end_reasons() describe it. A reset
//   draws fresh parameters, a fresh track and a fresh initial state from the env's random stream.
// - Determinism: env e's episode k draws from a counter-based generator keyed by (seed, e, k),
//   and every env is stepped by one thread with fixed iteration counts, no atomics: reruns with
//   the same seed and actions are bit-identical on the same backend and build, whatever the
//   thread count or num_envs split.
// - On CUDA every buffer lives in device memory and step() only enqueues work on the env's stream
//   (stream()); nothing is copied to the host unless a read_* call asks for it.
// - A vehicle that diverges (non-finite or absurd state) ends its episode (end reason diverged,
//   terminated, crash penalty) and is reset like any other: it never affects other envs.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "fleetdyn/batch.h"
#include "fleetdyn/physics/ce/ce_params.h"
#include "fleetdyn/physics/strut/strut_params.h"
#include "fleetdyn/rough_road.h"

namespace fleetdyn {

enum class EnvTask { PathFollowing, ReachSpeed };
const char* env_task_name(EnvTask task);              // "path_following", "reach_speed"
EnvTask env_task_from_name(const std::string& name);  // throws fleetdyn::Error listing the names

// Where a buffer lives: host memory, or the CUDA device of a cuda-backend env.
enum class MemorySpace { Host, Device };

// A parameter drawn anew at every reset, uniform in [lo, hi], as a value or (relative) as a
// factor on the env's base value. strut: any scalar of FLEETDYN_VEHICLE_PARAM_FIELDS
// (physics/strut/strut_params.h); derived fields (static loads, preloads, inertias' reciprocals ...)
// follow. ce: the scalars of FLEETDYN_CE_PARAM_FIELDS (fleetdyn/ce_fields.h) except the stops,
// travel limits and max_steer (env_randomizable_params(parse_model("ce")) lists them); each
// episode starts at the rest state of the parameters it drew.
struct ParamRandomization {
  std::string name;  // e.g. "total_mass", "cg_height", "tire.mu"; ce: "chassis_mass", "chassis_com_z" ...
  double lo = 1.0, hi = 1.0;
  bool relative = true;  // true: factor on the base value; false: the value itself
};

struct VectorEnvConfig {
  int num_envs = 1024;
  VehicleModel model = VehicleModel::Strut;
  EnvTask task = EnvTask::PathFollowing;
  BackendKind backend = BackendKind::Auto;
  Precision precision = Precision::Fp32;
  int cpu_threads = 0;   // CPU backend; 0 = all hardware threads
  bool cpu_simd = true;  // CPU backend: strut physics of 4 (fp64) or 8 (fp32) envs at once in SIMD
                         // lanes; the ce model always runs the scalar path (the GPU's code)
  uint64_t seed = 0;
  StrutParams<double> vehicle = {};  // strut: base parameters of every env; total_mass == 0: the HMMWV
  CeParams<double> ce_vehicle = {};  // ce: base parameters of every env; chassis_mass == 0: the HMMWV
                                     // (hmmwv_ce_params())
  // Time. Negative: the default.
  double physics_step = -1.0;  // [s]; default: the model's default step for the base vehicle (its
                               // stiffest mode: strut_default_step / ce_step_analysis; HMMWV: strut
                               // 1 ms, ce 2 ms)
  int decimation = -1;         // physics steps per env step; default: 50 Hz control (0.02 s / physics_step,
                               // rounded; HMMWV: strut 20, ce 10)
  double time_limit = 30.0;    // [s] of simulated time, then truncation
  // Actuator rate limits [normalized units / s]: the steering goes lock to lock (2 units) in
  // 0.5 s at 4/s (a road-wheel rate of 60 deg/s with the HMMWV's 30 deg lock).
  double steer_rate = 4.0, throttle_rate = 5.0, brake_rate = 10.0;
  // Observations: feature names in order (observation_features()); empty = the task's default.
  std::vector<std::string> observations;
  int lookahead_points = 5;        // for "lookahead"
  double lookahead_spacing = 5.0;  // [m]
  // Tracks (path following; reach speed drives a straight lane along x).
  int track_points = 256;
  double track_spacing = 2.0;                                        // [m]
  double track_max_curvature = 0.04;                                 // [1/m] (25 m radius)
  double track_wavelength_min = 40.0, track_wavelength_max = 160.0;  // [m] of the curvature sines
  double track_straight = 15.0;                                      // [m] the curvature fades in over this
  double road_half_width = 4.0;  // [m] farther from the centreline ends the episode (off road)
  // Episode start: speed, offsets from the track's start (which is world (0, 0) heading +x for
  // path following, a random point of the rough road for reach speed).
  double speed_min = 5.0, speed_max = 12.0;                // [m/s]
  double lateral_offset_max = 0.5;                         // [m]
  double heading_offset_max = 0.05;                        // [rad]
  double target_speed_min = 5.0, target_speed_max = 20.0;  // [m/s] reach speed
  // Termination: rollover beyond this ground-relative roll or pitch, or an unbroken two-wheel
  // lift this long; off road; divergence.
  double rollover_angle = 0.7853981633974483;  // [rad] 45 deg
  double rollover_lift_time = 0.5;             // [s]
  // Reward per env step:
  //   w_progress * (arclength gained along the track) [m]
  // - w_lateral * lateral_error^2 * dt - w_heading * heading_error^2 * dt
  // - w_speed * |speed - target speed| * dt                      (reach speed)
  // - w_steer_change * (change of the steer command)^2 - w_pedal_change * (throttle^2 + brake^2 changes)
  // - w_crash on termination (rollover, off road, diverged).
  // Negative values: the task's default (path following: progress 1, lateral 1, heading 1,
  // speed 0; reach speed: progress 0, speed 1, lateral 0.2; both: steer change 0.1, pedal
  // change 0.05, crash 50).
  double w_progress = -1, w_lateral = -1, w_heading = -1, w_speed = -1;
  double w_steer_change = -1, w_pedal_change = -1, w_crash = -1;
  // Randomization at every reset; the default set when `use_default_randomization`.
  // strut: total_mass x[0.9, 1.15], cg_height x[0.95, 1.1], tire.mu [0.7, 1.0], wheel rates x[0.85, 1.15];
  // ce: chassis_mass x[0.9, 1.15], chassis_com_z in [base - 0.035, base + 0.07] m, tire.mu [0.7, 1.0],
  // spring rates x[0.85, 1.15] (the same scatter on the same vehicle).
  bool use_default_randomization = true;
  std::vector<ParamRandomization> randomize;  // added to (or, without the default, the whole of) the set
  RoughRoadSettings road;                     // reach speed only
};

// Every observation feature: name, width and meaning (the vector env's docs and checks use this).
struct ObservationFeature {
  const char* name;
  int width;  // lookahead: per point
  const char* doc;
};
const std::vector<ObservationFeature>& observation_features();
std::vector<std::string> default_observations(EnvTask task);

// The most envs of a model's vector env (VectorEnvConfig::num_envs): the engines index the
// [row][env] arrays (state, actuators, wheel loads) and the CUDA threads (kCorners per env) with
// ints.
int max_envs(VehicleModel model);

// The parameter names a model's env can randomize at reset (ParamRandomization::name).
std::vector<std::string> env_randomizable_params(VehicleModel model);

class VectorEnv {
 public:
  // Throws fleetdyn::Error naming the bad field.
  explicit VectorEnv(VectorEnvConfig config);
  ~VectorEnv();
  VectorEnv(VectorEnv&&) noexcept;
  VectorEnv& operator=(VectorEnv&&) noexcept;

  const VectorEnvConfig& config() const;  // as resolved (defaults filled in)
  int num_envs() const;
  int observation_size() const;
  static constexpr int kActionSize = 3;
  std::vector<std::string> observation_names() const;  // one per column, e.g. "body_velocity.x"
  static std::array<float, 3> action_low() { return {-1.0f, 0.0f, 0.0f}; }
  static std::array<float, 3> action_high() { return {1.0f, 1.0f, 1.0f}; }
  BackendKind backend() const;  // Cpu or Cuda
  const std::string& device_name() const;
  int max_episode_steps() const;

  // Reset every env (mask null) or those with mask[e] != 0 (host array of num_envs bytes). With a
  // seed, the env's random streams restart from it (episode counters back to 0) before the reset.
  // Writes observations(); clears has_final() of the reset envs.
  void reset(const uint8_t* mask = nullptr);
  void reset_with_seed(uint64_t seed, const uint8_t* mask = nullptr);
  // One env step for every env. actions: float [num_envs][3], row-major, in `space` (Device: only
  // on a CUDA env; a device pointer the env's stream may read). Throws fleetdyn::Error for a
  // non-finite action, naming the env and component; the envs are then left as they were.
  void step(const float* actions, MemorySpace space = MemorySpace::Host);

  // The env's buffers, in backend memory (host for cpu, device for cuda), valid for the env's
  // lifetime and overwritten by the next step() or reset(): copy what you keep.
  MemorySpace buffer_space() const;
  const float* observations() const;        // [num_envs][observation_size()]
  const float* rewards() const;             // [num_envs]
  const uint8_t* terminated() const;        // [num_envs] 0/1
  const uint8_t* truncated() const;         // [num_envs] 0/1
  const float* final_observations() const;  // [num_envs][observation_size()], rows where has_final
  const uint8_t* has_final() const;         // [num_envs] 0/1: the env's episode ended in the last step
  const float* final_returns() const;       // [num_envs] undiscounted return of that episode
  const int32_t* final_lengths() const;     // [num_envs] env steps of that episode
  const int32_t* end_reasons() const;       // [num_envs] EndReason (physics/env/env_config.h) of that episode
  void synchronize();                       // waits for the env's stream (no-op on the CPU)
  void* stream() const;                     // cudaStream_t of a CUDA env, else null

  // Host copies of the buffers (synchronize).
  std::vector<float> read_observations();
  std::vector<float> read_rewards();
  std::vector<uint8_t> read_terminated();
  std::vector<uint8_t> read_truncated();
  std::vector<float> read_final_observations();
  std::vector<uint8_t> read_has_final();
  std::vector<float> read_final_returns();
  std::vector<int32_t> read_final_lengths();
  std::vector<int32_t> read_end_reasons();

  // Parameters. The base set (length 1 or num_envs, each finalized) is what randomization draws
  // around; without randomization each env runs exactly its base values. Take effect at each
  // env's next reset. The overload of the env's model (strut: StrutParams, ce: CeParams).
  void set_base_params(const std::vector<StrutParams<double>>& params);
  void set_base_params(const std::vector<CeParams<double>>& params);
  // One named parameter of every env's base set (values: length 1 or num_envs).
  void set_base_param(const std::string& name, const std::vector<double>& values);
  // The named parameter each env runs in its current episode (synchronizes).
  std::vector<double> episode_param(const std::string& name);
  // Raw vehicle state of the current episodes ([state size][num_envs], positions local to each
  // env's origin) and the origins ([2][num_envs]); synchronizes.
  std::vector<double> read_state();
  std::vector<double> read_origins();
  // Tire normal forces at rest [N] of each env's current vehicle ([4][num_envs], corners FL FR
  // RL RR): what the wheel_loads observation divides by. strut: from the moment balance of its
  // derived parameters; ce: of the rest state solved at the reset. Synchronizes.
  std::vector<double> read_static_loads();

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace fleetdyn
