// Per-vehicle metrics accumulated while stepping, one row per metric:
// X(name, unit, description). Stored structure-of-arrays like the state.
#pragma once

#define FLEETDYN_METRIC_FIELDS(X)                                                                \
  X(max_abs_roll, "rad", "largest |roll| relative to the ground under the body (tilt of body y from the surface plane)") \
  X(max_abs_pitch, "rad", "largest |pitch| relative to the ground under the body (tilt of body x)") \
  X(max_abs_roll_rate, "rad/s", "largest |roll rate| (body x)")                                  \
  X(max_abs_lat_accel, "m/s^2", "largest |lateral acceleration| of the body COM, body y axis")   \
  X(wheel_liftoff_time, "s", "time with at least one wheel off the ground")                      \
  X(two_wheel_liftoff_time, "s", "time with both wheels of one side off the ground")             \
  X(first_liftoff_time, "s", "time of the first wheel lift-off, -1 if none")                     \
  X(diverged_time, "s", "time the vehicle diverged and was frozen, -1 if it did not")

namespace fleetdyn {
namespace metric {
#define FLEETDYN_METRIC_ENUM(name, unit, doc) name,
enum MetricIndex : int { FLEETDYN_METRIC_FIELDS(FLEETDYN_METRIC_ENUM) kCount };
#undef FLEETDYN_METRIC_ENUM
}  // namespace metric
constexpr int kMetricCount = metric::kCount;

// Why a vehicle stopped being stepped.
enum VehicleStatus : int { kStatusRunning = 0, kStatusDiverged = 1 };
}  // namespace fleetdyn
