// Per-vehicle metrics accumulated while stepping, one row per metric:
// X(name, unit, description). Stored structure-of-arrays like the state. Metrics whose
// description says "-1 if" start at -1 (Batch::set_initial_conditions) and keep it while their
// event has not happened; the others start at 0. update_metrics (physics/core/batch_view.h) and
// update_driver_metrics (physics/drivers/driver.h) fill them. current_two_wheel_liftoff is the running
// counter behind longest_two_wheel_liftoff.
#pragma once

#define FLEETDYN_METRIC_FIELDS(X)                                                                                        \
  X(max_abs_roll, "rad", "largest |roll| relative to the ground under the body (tilt of body y from the surface plane)") \
  X(max_abs_pitch, "rad", "largest |pitch| relative to the ground under the body (tilt of body x)")                      \
  X(max_abs_roll_rate, "rad/s", "largest |roll rate| (body x)")                                                          \
  X(max_abs_lat_accel, "m/s^2", "largest |lateral acceleration| of the body COM, body y axis")                           \
  X(wheel_liftoff_time, "s", "time with at least one wheel off the ground")                                              \
  X(two_wheel_liftoff_time, "s", "time with both wheels of one side off the ground")                                     \
  X(first_liftoff_time, "s", "time of the first wheel lift-off, -1 if none")                                             \
  X(diverged_time, "s", "time the vehicle diverged and was frozen, -1 if it did not")                                    \
  X(longest_two_wheel_liftoff, "s", "longest continuous spell with both wheels of one side off the ground")              \
  X(current_two_wheel_liftoff, "s", "two-wheel lift-off spell still going on at the end, 0 if all wheels are down")      \
  X(max_path_deviation, "m", "largest distance of the body COM from the driver's path, -1 if no path driver ran")        \
  X(path_progress, "m",                                                                                                  \
    "arclength of the path reached by the body COM (closed paths: driven along it since the start, laps included), "     \
    "-1 if no path driver ran")                                                                                          \
  X(maneuver_end_time, "s",                                                                                              \
    "time the path driver reached the end of its open path (closed: went once around) or the steer program finished, "   \
    "-1 if not")                                                                                                         \
  X(max_abs_vert_accel, "m/s^2",                                                                                         \
    "largest |vertical acceleration| of the body COM, body z axis, gravity not included (0 standing still)")             \
  X(capsize_time, "s",                                                                                                   \
    "time the roll relative to the ground passed the capsize angle and the vehicle was frozen, -1 if it did not")        \
  X(roll_rotation, "rad", "net rotation about the body x axis since the start (the roll rate integrated)")               \
  X(roll_quarter_turns, "-", "largest number of completed quarter turns of roll (|roll_rotation| / 90 deg, floored)")    \
  X(final_attitude, "-",                                                                                                 \
    "where the vehicle lies at the end: 0 on its wheels, 1 on its side, 2 on its roof (roll relative to the ground "     \
    "below 45 deg, below 135 deg, beyond)")                                                                              \
  X(max_roof_contact_speed, "m/s",                                                                                       \
    "largest speed at which a roof corner closed on the ground, 0 if the roof never touched")

namespace fleetdyn {
namespace metric {
#define FLEETDYN_METRIC_ENUM(name, unit, doc) name,
enum MetricIndex : int { FLEETDYN_METRIC_FIELDS(FLEETDYN_METRIC_ENUM) kCount };
#undef FLEETDYN_METRIC_ENUM
}  // namespace metric
constexpr int kMetricCount = metric::kCount;

// Why a vehicle stopped being stepped. kStatusRolledOver: its roll relative to the ground passed
// the batch's capsize angle (BatchOptions::capsize_roll), so it is frozen there (capsize_time) and
// its metrics keep what happened up to then; with no capsize angle it rolls on, its body touching
// the terrain (physics/core/body_contact.h). Diverged and rolled-over vehicles are told apart in every summary.
enum VehicleStatus : int { kStatusRunning = 0, kStatusDiverged = 1, kStatusRolledOver = 2 };
}  // namespace fleetdyn
