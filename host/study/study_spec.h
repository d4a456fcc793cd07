// The `study:` section of a scenario: a Monte Carlo robustness study over sampled parameters.
//
//   study:
//     samples: 10000          # REQUIRED, [1, 1e12]: vehicles simulated, one per sample
//                             #   (sensitivity: sobol -> base samples; runs = samples * (d + 2))
//     seed: 1                 # [0, 2^53], default 0: with the sampling, fixes every sample
//     sampling: lhs           # random | lhs (Latin hypercube) | sobol (scrambled), default random
//     chunk: 4096             # samples per batch, default 4096 (CPU) / 262144 (CUDA); the results
//                             #   do not depend on it, only memory use and the durability grain
//     sensitivity: rank       # rank (Spearman correlation, always given) | sobol (adds Saltelli
//                             #   first-order and total indices; needs samples * (d + 2) runs)
//     parameters:             # name: distribution, in dimension order
//       cg_height: {dist: normal, mean: 0.95, sd: 0.05}
//       tire.mu: {dist: uniform, min: 0.6, max: 1.0}
//       initial.speed: {dist: truncated_normal, mean: 18, sd: 2, min: 14, max: 22}
//       wheel_rate_front: {dist: lognormal, mu: 10.535, sigma: 0.1}   # log(value) ~ N(mu, sigma)
//       terrain.mu_scale: {dist: choice, values: [0.5, 0.8, 1.0], weights: [1, 2, 1]}
//       chassis.mass: {dist: fixed, value: 4500}
//     rollover: {roll_deg: 45, two_wheel_lift_s: 0.5}   # the rollover event (defaults shown)
//     worst_by: max_abs_roll  # the metric whose largest values are the worst cases (summary,
//                             #   report), any metric that is not an event time
//     trajectories: {worst: 20, points: 500}   # optional: time series of the 20 worst samples,
//                             #   simulated again, in trajectories.h5 (builds with HDF5)
//
// Sampled names: any parameter of the scenario's model (`fleetdyn params --model M`), and
//   initial.speed [m/s], initial.yaw_deg [deg], initial.x [m], initial.y [m]
//   maneuver.steer_scale [-]  multiplies the steer column of the maneuver table (saturates at +-1)
//   maneuver.time_scale [-]   stretches the table's times (> 0; 2 = twice as slow)
//   terrain.mu_scale [-]      the surface's friction factor (applied through the tire's mu,
//                             which it multiplies; the terrain itself is shared by the batch)
//   driver.amplitude [-], driver.rate [1/s], driver.start_time [s]   a programmed driver's
//                             (fishhook, sine_with_dwell, j_turn, step_steer; host/scenario_driver.h)
// A sampled parameter may not also be overridden; a study cannot be combined with vehicle.sweep
// or `vehicles`. A sample whose values fall outside a parameter's allowed range, or make an
// inconsistent vehicle, is recorded as invalid (valid = 0, no metrics) and counted, not simulated.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "host/study/sampling.h"

namespace fleetdyn::study {

// What a sampled value sets.
enum class SampleTarget {
  VehicleParam, InitialSpeed, InitialYawDeg, InitialX, InitialY, SteerScale, TimeScale, MuScale,
  DriverAmplitude, DriverRate, DriverStartTime
};

struct SampledParameter {
  std::string name;        // as written, e.g. "cg_height", "initial.speed"
  std::string unit;        // "m", "m/s", "-", ...
  double min, max;         // allowed range of the value
  SampleTarget target = SampleTarget::VehicleParam;
  Distribution distribution;
  int line = 0;            // in the scenario file, for messages
};

struct RolloverCriterion {
  double roll_deg = 45.0;          // roll relative to the ground beyond this is a rollover
  double two_wheel_lift_s = 0.5;   // both wheels of one side off the ground this long, unbroken, is too
};

struct StudySpec {
  bool enabled = false;            // the scenario has a study section
  int64_t samples = 0;             // sample count (Sobol sensitivity: base samples)
  uint64_t seed = 0;
  SamplingMethod sampling = SamplingMethod::Random;
  int64_t chunk = 0;               // 0 = by backend (kDefaultChunkCpu / kDefaultChunkCuda)
  bool sobol_sensitivity = false;
  std::vector<SampledParameter> parameters;
  RolloverCriterion rollover;
  std::string worst_by = "max_abs_roll";  // metric ranking the worst cases
  int trajectories_worst = 0;      // worst samples whose time series go to trajectories.h5
  int trajectory_points = 500;     // time points per trajectory (and per report trace)
  int line = 0;                    // of the `study:` key

  int dimensions() const { return static_cast<int>(parameters.size()); }
  // Simulated vehicles: samples, or samples * (d + 2) with Sobol sensitivity.
  int64_t run_count() const;
};

constexpr int64_t kDefaultChunkCpu = 4096;
constexpr int64_t kDefaultChunkCuda = 262144;
constexpr int64_t kMaxStudySamples = 1000000000000LL;

// Names that are not vehicle parameters but can be sampled.
const std::vector<std::string>& extra_sampled_names();

}  // namespace fleetdyn::study
