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
//     lane_departure: {lane_width: 3.5, vehicle_width: 2.2}   # path drivers: the lane_departure event
//     path_deviation: {max: 1.0}   # path drivers: the path_deviation event [m] (default 1)
//     worst_by: max_abs_roll  # the metric whose largest values are the worst cases (summary,
//                             #   report), any metric that is not an event time
//     trajectories: {worst: 20, points: 500}   # optional: time series of the 20 worst samples,
//                             #   simulated again, in trajectories.h5 (builds with HDF5)
//
// Sampled names: any parameter of the scenario's model (`fleetdyn params --model M`), and
//   initial.speed [m/s], initial.lateral_speed [m/s], initial.yaw_deg [deg], initial.x [m], initial.y [m]
//   maneuver.steer_scale [-]  multiplies the steer column of the maneuver table (saturates at +-1)
//   maneuver.time_scale [-]   stretches the table's times (> 0; 2 = twice as slow)
//   terrain.mu_scale [-]      the surface's friction factor (applied through the tire's mu,
//                             which it multiplies; the terrain itself is shared by the batch)
//   driver.amplitude [-], driver.rate [1/s], driver.start_time [s]   a programmed driver's
//                             (fishhook, sine_with_dwell, j_turn, step_steer; host/scenario/scenario_driver.h)
//   terrain.class [-]         rough_road: the sample's ISO 8608 class, A = 1 .. H = 8 (choice
//                             values, fixed values and uniform bounds may be written as letters:
//                             {dist: choice, values: [C, D]}); fractional classes lie between two
//                             geometrically: Gd(n0) = 16e-6 * 4^(class - 1) m^3
//   terrain.roughness [m^3]   rough_road: the sample's Gd(n0) (instead of terrain.class)
//   terrain.relief_scale [-]  hill, heightfield: multiplies the relief's heights (instead of class)
//   terrain.offset_x, terrain.offset_y [m]   rough_road, hill, heightfield: the sample at world
//                             (x, y) meets the scenario's terrain at (x + offset_x, y + offset_y);
//                             on a per-sample rough road this replaces the automatic shift
//   The rough road's class or roughness and every sample's stretch of it vary per sample without
//   regenerating the road: the batch holds one periodic tile and each vehicle a TerrainVariation
//   (shift, height scale; physics/core/terrain.h). The tile's shape (length, width, dx, dy, seed)
//   cannot be sampled.
//
// Events (0/1 per sample; samples.csv's last columns, probabilities in summary.json):
//   rollover        max |roll| relative to the ground > rollover.roll_deg, or an unbroken
//                   two-wheel lift of rollover.two_wheel_lift_s, or capsized
//   two_wheel_lift  both wheels of one side off the ground at some time
//   diverged        the state blew up (frozen at its last sane state)
//   capsized        the roll passed the scenario's capsize_roll_deg (default 80): frozen on its side
//   completed       (path driver or steer program) the path's end was reached (closed: once
//                   around) or the program finished: maneuver_end_time >= 0
//   lane_departure  (path driver) max_path_deviation > (lane_width - vehicle_width) / 2: a side of
//                   the vehicle crossed the edge of a lane_width lane centred on the path.
//                   vehicle_width defaults to the driver's (iso3888_2), else the model's wider
//                   wheel-centre track plus one tire width (tire.width): the tires' outer edges
//   path_deviation  (path driver) max_path_deviation > path_deviation.max
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
  VehicleParam,
  InitialSpeed,
  InitialLateralSpeed,
  InitialYawDeg,
  InitialX,
  InitialY,
  SteerScale,
  TimeScale,
  MuScale,
  DriverAmplitude,
  DriverRate,
  DriverStartTime,
  TerrainClass,
  TerrainRoughness,
  TerrainReliefScale,
  TerrainOffsetX,
  TerrainOffsetY,
  TerrainSoil,  // a soil parameter, terrain.soil.<field> (the sample's own soil, TerrainVariation)
  TerrainCurbHeight,
  TerrainCurbOffset
};

struct SampledParameter {
  std::string name;  // as written, e.g. "cg_height", "initial.speed"
  std::string unit;  // "m", "m/s", "-", ...
  double min, max;   // allowed range of the value
  SampleTarget target = SampleTarget::VehicleParam;
  Distribution distribution;
  int line = 0;  // in the scenario file, for messages
};

struct RolloverCriterion {
  double roll_deg = 45.0;         // roll relative to the ground beyond this is a rollover
  double two_wheel_lift_s = 0.5;  // both wheels of one side off the ground this long, unbroken, is too
};

// The path events' thresholds (path drivers only).
struct PathEventCriteria {
  double lane_width = 3.5;     // [m] lane_departure: the lane centred on the path (a motorway lane)
  double vehicle_width = 0.0;  // [m] lane_departure: filled at parse time (see above)
  double max_deviation = 1.0;  // [m] path_deviation: largest allowed distance of the COM from the path
  // The lane_departure threshold on max_path_deviation [m].
  double lane_departure_deviation() const { return 0.5 * (lane_width - vehicle_width); }
};

struct StudySpec {
  bool enabled = false;  // the scenario has a study section
  int64_t samples = 0;   // sample count (Sobol sensitivity: base samples)
  uint64_t seed = 0;
  SamplingMethod sampling = SamplingMethod::Random;
  int64_t chunk = 0;  // 0 = by backend (kDefaultChunkCpu / kDefaultChunkCuda)
  bool sobol_sensitivity = false;
  std::vector<SampledParameter> parameters;
  RolloverCriterion rollover;
  PathEventCriteria path_events;
  std::string worst_by = "max_abs_roll";  // metric ranking the worst cases
  int trajectories_worst = 0;             // worst samples whose time series go to trajectories.h5
  int trajectory_points = 500;            // time points per trajectory (and per report trace)
  int line = 0;                           // of the `study:` key

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
