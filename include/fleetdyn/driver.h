// Closed-loop and programmed drivers of a batch, host side: what Batch::set_path_driver and
// Batch::set_steer_program take, and builders for the standard paths and steer programs.
// The per-vehicle logic that runs on the device is in physics/drivers/driver.h; definitions and
// sources in docs/design/drivers.md.
//
//   batch.set_path_driver({fleetdyn::circle_path(30.0, 8.0)});            // ISO 4138 circle at 8 m/s
//   batch.set_steer_program({fleetdyn::nhtsa_fishhook(0.4, 2.9)});        // A = 0.4, 720 deg/s handwheel
//
// Steer amounts are normalized driver inputs ([-1, 1], + = left): road-wheel angle / max_steer
// for strut, Pitman-arm angle / steering.max_angle for ce. A handwheel angle H [rad] of a
// vehicle with steering ratio i is H / (i * max_steer) in these units (steer_per_handwheel).
#pragma once

#include <cmath>
#include <vector>

#include "fleetdyn/physics/core/math.h"

namespace fleetdyn {

// ---- paths --------------------------------------------------------------------------------------

struct PathPoint {
  double x, y;   // [m] world
  double speed;  // [m/s] target speed here (linear to the next point)
};

// A polyline. Open: from the first point to the last, and on along the last segment beyond it.
// Closed: the last point joins the first (don't repeat it). Consecutive points must differ.
struct Path {
  std::vector<PathPoint> points;
  bool closed = false;
};

enum class PathTracker {
  PurePursuit,  // steer to a goal point a lookahead ahead along the path (Coulter 1992)
  Stanley,      // heading error + atan(k e / (v_soft + v)) at the front axle (Hoffmann et al. 2007)
};

// Path driver settings of one vehicle. Defaults: tuned on the strut and ce HMMWVs (circles at
// 8 m/s to within a few cm, the ISO 3888 lane changes at 15 m/s; tests/test_driver.cpp).
struct PathDriverSettings {
  PathTracker tracker = PathTracker::PurePursuit;
  double lookahead_base = 4.0;     // [m] pure pursuit: lookahead = base + gain * speed
  double lookahead_gain = 0.5;     // [s]
  double stanley_gain = 2.5;       // [1/s] Stanley k
  double stanley_softening = 1.0;  // [m/s] Stanley v_soft
  double max_steer_rate = 0.0;     // [1/s] normalized steer rate limit, 0 = none
  double speed_kp = 0.5;           // [s/m] pedal per m/s of speed error (throttle +, brake -)
  double speed_ki = 0.1;           // [1/m] pedal per m of integrated speed error
};

// PathDriverSettings' numeric fields, each X(name, lower bound open, unit): all lie in [0, inf)
// (open at 0 where marked). Checked, copied into the physics' PathDriverParams and named by the
// bindings from this one list.
#define FLEETDYN_PATH_DRIVER_SETTINGS(X) \
  X(lookahead_base, true, "m")           \
  X(lookahead_gain, false, "s")          \
  X(stanley_gain, false, "1/s")          \
  X(stanley_softening, true, "m/s")      \
  X(max_steer_rate, false, "1/s")        \
  X(speed_kp, false, "s/m")              \
  X(speed_ki, false, "1/m")

// A closed circle of `points` vertices through (x, y), heading `yaw` [rad] there, turning left
// (counter-clockwise) or right; target speed `speed` throughout (ISO 4138 constant radius).
inline Path circle_path(double radius, double speed, int points = 720, double x = 0.0, double y = 0.0, double yaw = 0.0,
                        bool left = true) {
  const double side = left ? 1.0 : -1.0;
  const double cx = x - side * radius * std::sin(yaw), cy = y + side * radius * std::cos(yaw);
  Path p;
  p.closed = true;
  for (int i = 0; i < points; ++i) {
    // The point's angle seen from the centre.
    const double a = yaw - side * kPi / 2.0 + side * 2.0 * kPi * i / points;
    p.points.push_back({cx + radius * std::cos(a), cy + radius * std::sin(a), speed});
  }
  return p;
}

// A double lane change along +x from (0, 0): straight for `entry`, a half-cosine shift by
// `offset` (+ = left) over `change1`, straight for `middle`, a half-cosine shift to `exit_offset`
// over `change2`, straight for `exit`; points every `spacing` [m] of x, target speed `speed`.
inline Path double_lane_change_path(double speed, double offset, double entry, double change1, double middle,
                                    double change2, double exit, double exit_offset = 0.0, double spacing = 0.25) {
  const double x1 = entry, x2 = x1 + change1, x3 = x2 + middle, x4 = x3 + change2, end = x4 + exit;
  const auto shift = [](double from, double to, double f) {
    return from + (to - from) * 0.5 * (1.0 - std::cos(kPi * f));
  };
  Path p;
  const int count = static_cast<int>(std::ceil(end / spacing));
  for (int i = 0; i <= count; ++i) {
    const double x = std::fmin(i * spacing, end);
    double y = 0.0;
    if (x >= x4) {
      y = exit_offset;
    } else if (x >= x3) {
      y = shift(offset, exit_offset, (x - x3) / change2);
    } else if (x >= x2) {
      y = offset;
    } else if (x >= x1) {
      y = shift(0.0, offset, (x - x1) / change1);
    }
    p.points.push_back({x, y, speed});
  }
  return p;
}

// ISO 3888-1 double lane change (severe lane change), through the lane centres: sections of
// 15, 30, 25, 25 and 15 m, the middle lane's centre 3.5 m to the left; `lead_in` [m] of straight
// before the first gate at x = lead_in, `lead_out` after the last.
inline Path iso3888_1_path(double speed, double lead_in = 20.0, double lead_out = 20.0) {
  return double_lane_change_path(speed, 3.5, lead_in + 15.0, 30.0, 25.0, 25.0, 15.0 + lead_out);
}

// ISO 3888-2 obstacle avoidance lane change, through the lane centres, for a vehicle of width
// b [m]: lane 1 (12 m long, 1.1 b + 0.25 wide) on y = 0, section 2 (13.5 m), lane 3 (11 m, b + 1
// wide) whose right edge is 1 m left of lane 1's left edge, section 4 (12.5 m), lane 5 (12 m,
// 1.3 b + 0.25 wide, at least 3 m) whose right edge continues lane 1's; `lead_in` [m] before
// lane 1 (which starts at x = lead_in), `lead_out` after lane 5. The lane-centre path is what the
// driver aims at; the lanes leave (width - b) / 2 either side.
inline Path iso3888_2_path(double vehicle_width, double speed, double lead_in = 20.0, double lead_out = 20.0) {
  const double b = vehicle_width;
  const double lane1 = 1.1 * b + 0.25, lane3 = b + 1.0, lane5 = std::fmax(1.3 * b + 0.25, 3.0);
  const double middle = 0.5 * lane1 + 1.0 + 0.5 * lane3;
  const double exit = -0.5 * lane1 + 0.5 * lane5;
  return double_lane_change_path(speed, middle, lead_in + 12.0, 13.5, 11.0, 12.5, 12.0 + lead_out, exit);
}

// Length [m] of a path (closed: with the closing segment).
inline double path_length(const Path& p) {
  double s = 0.0;
  const size_t n = p.points.size();
  for (size_t i = 0; i + 1 < n || (p.closed && i < n && n > 1); ++i) {
    const PathPoint& a = p.points[i];
    const PathPoint& b = p.points[(i + 1) % n];
    s += std::hypot(b.x - a.x, b.y - a.y);
  }
  return s;
}

// ---- steer programs -----------------------------------------------------------------------------

enum class SteerProgramKind {
  RampHold,       // ramp to the amplitude at `rate`, hold (J-turn, step steer), optionally return
  Fishhook,       // NHTSA fishhook with the roll-rate-timed countersteer
  SineWithDwell,  // FMVSS 126 sine with dwell
};

// One vehicle's steer program (physics/drivers/steer_program.h). Steer in normalized input units.
struct SteerProgram {
  SteerProgramKind kind = SteerProgramKind::RampHold;
  double start_time = 0.5;                       // [s] start of the first steer
  double amplitude = 0.0;                        // [-] first steer, + = left; |amplitude| <= 1
  double rate = 1.0;                             // [1/s] ramps (RampHold, Fishhook)
  double hold = 0.0;                             // [s] RampHold: before returning to 0 (<= 0: hold to the end);
                                                 //     Fishhook: countersteer hold (NHTSA: 3 s)
  double frequency = 0.7;                        // [Hz] SineWithDwell (FMVSS 126)
  double dwell = 0.5;                            // [s] SineWithDwell: hold at the second peak (FMVSS 126)
  double roll_rate_threshold = deg_to_rad(1.5);  // [rad/s] Fishhook: countersteer at |p| <= this
  double throttle_before = 0.0;                  // [0, 1] before start_time
  double throttle = 0.0;                         // [0, 1] from start_time (the standards release it: coast)
  double brake = 0.0;                            // [0, 1] from start_time
};

// SteerProgram's numeric fields, each X(name, lower bound, lower bound open, upper bound, unit,
// fishhook only): checked and copied into the physics' SteerProgramParams from this one list.
// A field marked fishhook only must be finite for every kind and lie in its range for Fishhook
// (RampHold reads hold <= 0 as "to the end").
#define FLEETDYN_STEER_PROGRAM_FIELDS(X)                      \
  X(start_time, 0.0, false, INFINITY, "s", false)             \
  X(amplitude, -1.0, false, 1.0, "", false)                   \
  X(rate, 0.0, true, INFINITY, "1/s", false)                  \
  X(hold, 0.0, false, INFINITY, "s", true)                    \
  X(frequency, 0.0, true, INFINITY, "Hz", false)              \
  X(dwell, 0.0, false, INFINITY, "s", false)                  \
  X(roll_rate_threshold, 0.0, true, INFINITY, "rad/s", false) \
  X(throttle_before, 0.0, false, 1.0, "", false)              \
  X(throttle, 0.0, false, 1.0, "", false)                     \
  X(brake, 0.0, false, 1.0, "", false)

// Normalized steer per radian of handwheel for a steering ratio i and the road-wheel angle at
// full input (strut: max_steer): 720 deg/s of handwheel is 4 pi * steer_per_handwheel(i, a) /s.
inline double steer_per_handwheel(double steering_ratio, double full_input_road_wheel_angle) {
  return 1.0 / (steering_ratio * full_input_road_wheel_angle);
}

// NHTSA fishhook (NCAP, 2013): steer to `amplitude` (6.5 x the steer giving 0.3 g in the slowly
// increasing steer test) at `rate` (720 deg/s of handwheel), dwell until the roll rate is at or
// below 1.5 deg/s, countersteer to -amplitude at the rate, hold 3 s, return to 0; coasting.
inline SteerProgram nhtsa_fishhook(double amplitude, double rate, double start_time = 0.5) {
  SteerProgram p;
  p.kind = SteerProgramKind::Fishhook;
  p.start_time = start_time;
  p.amplitude = amplitude;
  p.rate = rate;
  p.hold = 3.0;
  return p;
}

// FMVSS 126 sine with dwell: amplitude * sin(2 pi 0.7 Hz t) with a 500 ms dwell at the second
// peak; coasting.
inline SteerProgram sine_with_dwell(double amplitude, double start_time = 0.5) {
  SteerProgram p;
  p.kind = SteerProgramKind::SineWithDwell;
  p.start_time = start_time;
  p.amplitude = amplitude;
  return p;
}

// J-turn (NHTSA): ramp to `amplitude` at `rate` and hold, throttle released.
inline SteerProgram j_turn(double amplitude, double rate, double start_time = 0.5) {
  SteerProgram p;
  p.start_time = start_time;
  p.amplitude = amplitude;
  p.rate = rate;
  return p;
}

// Step steer (ISO 7401): ramp to `amplitude` at `rate` and hold, throttle held at `throttle`.
inline SteerProgram step_steer(double amplitude, double rate, double start_time = 0.5, double throttle = 0.0) {
  SteerProgram p = j_turn(amplitude, rate, start_time);
  p.throttle_before = p.throttle = throttle;
  return p;
}

}  // namespace fleetdyn
