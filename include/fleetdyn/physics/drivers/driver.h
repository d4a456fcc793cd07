// Closed-loop and programmed drivers, per vehicle, on the device: what
// produces a vehicle's steer, throttle and brake each step when the batch is not open-loop.
//
//  - Path driver: follows a polyline path (physics/drivers/path.h) with pure pursuit or Stanley steering
//    and a PI speed controller on the path's target speed.
//  - Steer program: the response-timed maneuvers of physics/drivers/steer_program.h (NHTSA fishhook,
//    FMVSS 126 sine with dwell, ramp-and-hold).
//
// The driver reads the vehicle at the start of each step (DriverSense, from the state the step
// starts from), so a command never lags the state it reacts to. Its mutable per-vehicle state
// (driver::StateIndex) lives in the batch structure-of-arrays, component-major like the state.
// Steering comes out as the normalized input: road-wheel angle / DriverGeometry::steer_gain.
// Definitions and sources: docs/design/drivers.md.
#pragma once

#include "fleetdyn/physics/core/config.h"
#include "fleetdyn/physics/core/driveline.h"
#include "fleetdyn/physics/core/math.h"
#include "fleetdyn/physics/core/metrics.h"
#include "fleetdyn/physics/drivers/path.h"
#include "fleetdyn/physics/drivers/steer_program.h"

namespace fleetdyn {

// Where a batch's inputs come from. Open loop: the maneuver tables, or the input arrays when
// there are none (as before drivers existed; a zero-initialized view is open loop).
enum DriverMode : int { kDriverOpenLoop = 0, kDriverPath = 1, kDriverProgram = 2 };

namespace driver {
// Per-vehicle driver state, [kStateSize][vehicle_count]. Indices are stored as exact integers
// in T (fp32: exact below 2^24).
enum StateIndex : int {
  kSegment = 0,         // path: segment of the body COM's nearest point, -1 = not yet located
  kLap = 1,             // path: completed laps of a closed path (negative when driven backwards)
  kTargetAhead = 2,     // path: segments from kSegment to the lookahead (or front-axle) point
  kStartArclength = 3,  // path: [m] arclength where the vehicle was first located
  kSpeedIntegral = 4,   // path: [m] integral of the speed error (PI)
  kLateralError = 5,    // path: [m] body COM's signed distance from the path, + = left of it
  kSteer = 6,           // [-] last command (the steer rate limit starts from it)
  kThrottle = 7,        // [-] last command
  kBrake = 8,           // [-] last command
  kEventTime = 9,       // program: [s] fishhook countersteer start, -1 before it
  kStateSize = 10
};
}  // namespace driver
constexpr int kDriverStateSize = driver::kStateSize;

// Driver state of a reset vehicle (set_initial_conditions, or a driver newly set).
template <class T>
FLEETDYN_FN T driver_initial_value(int index) {
  return (index == driver::kSegment || index == driver::kEventTime) ? T(-1) : T(0);
}

// What the driver reads of a vehicle at the start of a step (the models provide it:
// StrutModel::sense, CeModel::sense).
template <class T>
struct DriverSense {
  Vec3<T> com;         // [m] body centre of mass, world axes, relative to the local origin
  Mat3<T> rot;         // body -> world
  Vec3<T> velocity;    // [m/s] of the body COM, world
  Vec3<T> omega_body;  // [rad/s] body axes (x: roll rate)
};

// Steering geometry of one parameter set, derived on the host from the model's parameters
// (StrutModel::driver_geometry, CeModel::driver_geometry).
template <class T>
struct DriverGeometry {
  T front_axle_x;  // [m] front axle ahead of the body COM along body x
  T rear_axle_x;   // [m] rear axle along body x (negative: behind the COM)
  T steer_gain;    // [rad] mean front road-wheel angle per unit normalized steer, near centre
};

enum PathTrackerKind : int { kPurePursuit = 0, kStanley = 1 };

// Path driver settings of one vehicle.
template <class T>
struct PathDriverParams {
  int tracker;          // PathTrackerKind
  T lookahead_base;     // [m] pure pursuit: lookahead = base + gain * speed
  T lookahead_gain;     // [s]
  T stanley_gain;       // [1/s] Stanley: k in atan(k e / (v_soft + v))
  T stanley_softening;  // [m/s] v_soft
  T max_steer_rate;     // [1/s] normalized steer rate limit, 0 = none
  T speed_kp;           // [s/m] pedal (throttle +, brake -) per m/s of speed error
  T speed_ki;           // [1/m] per m of integrated speed error
};

// Everything a batch's drivers read, and their state.
template <class T>
struct DriverView {
  int mode;                                // DriverMode
  const DriverGeometry<T>* geometry;       // [param_count]; vehicle v uses geometry[v % param_count]
  PathSet<T> paths;                        // path driver
  const PathDriverParams<T>* path_params;  // [path_param_count]; v uses [v % path_param_count]
  int path_param_count;
  const SteerProgramParams<T>* programs;  // [program_count]; v uses [v % program_count]
  int program_count;
  T* state;  // [kDriverStateSize][vehicle_count]
};

// What a driver step tells the metrics.
template <class T>
struct DriverReport {
  bool on_path;     // a path driver: lateral_error and progress are defined
  bool done;        // the maneuver is complete (path end reached, program finished)
  T lateral_error;  // [m] signed distance of the body COM from the path
  T progress;       // [m] open paths: arclength reached, in [0, length]; closed: driven since the start
};

template <class T>
struct PedalCommand {
  T throttle, brake;
};

// PI speed controller: pedal u = kp e + ki integral(e) in [-1, 1], throttle for u > 0 and brake
// for u < 0. Anti-windup by conditional integration (Astrom & Hagglund, Advanced PID Control,
// 2006, sec. 3.5): the integral holds while the output is saturated and the error would drive
// it further, so it never has to unwind when the error turns.
template <class T>
FLEETDYN_FN PedalCommand<T> speed_pi(T error, T kp, T ki, T dt, T* integral) {
  const T unsaturated = kp * error + ki * *integral;
  const bool hold = (unsaturated >= T(1) && error > T(0)) || (unsaturated <= T(-1) && error < T(0));
  if (!hold) *integral += error * dt;
  const T u = clamp(kp * error + ki * *integral, T(-1), T(1));
  return {u > T(0) ? u : T(0), u < T(0) ? -u : T(0)};
}

// Pure pursuit (Coulter, CMU-RI-TR-92-01, 1992): the road-wheel angle [rad] of a kinematic
// bicycle whose rear axle moves on the arc to the goal point: curvature 2 sin(alpha) / d with
// alpha the angle from the heading (unit hx, hy) to the goal and d its distance (goal_dx, goal_dy
// from the rear axle). On a circle of radius R through the rear axle, tangent to the heading,
// every goal point on the circle gives curvature 1/R, so the angle is atan(L / R).
template <class T>
FLEETDYN_FN T pure_pursuit_angle(T wheelbase, T hx, T hy, T goal_dx, T goal_dy) {
  const T d_sq = goal_dx * goal_dx + goal_dy * goal_dy;
  const T curvature = d_sq > T(1e-12) ? T(2) * (hx * goal_dy - hy * goal_dx) / d_sq : T(0);
  return atan2(wheelbase * curvature, T(1));
}

// Stanley (Hoffmann, Tomlin, Montemerlo, Thrun, "Autonomous automobile trajectory tracking for
// off-road driving", ACC 2007, eq. 2): heading error plus atan(k e / (v_soft + v)), e the front
// axle's distance from the path (+ = left of it, so it steers right), heading (hx, hy) and path
// tangent (tx, ty) unit vectors.
template <class T>
FLEETDYN_FN T stanley_angle(T hx, T hy, T tx, T ty, T front_lateral, T speed, T gain, T softening) {
  const T heading_error = atan2(hx * ty - hy * tx, hx * tx + hy * ty);
  return heading_error - atan2(gain * front_lateral, softening + (speed > T(0) ? speed : T(0)));
}

// One path-driver step of a vehicle: locates its body COM on the path (advancing the segment
// hint), then speed and steering commands. d: its driver state.
template <class T>
FLEETDYN_FN DriverInput<T> path_driver_input(const PathView<T>& p, const PathDriverParams<T>& c,
                                             const DriverGeometry<T>& g, const DriverSense<T>& x, T origin_x,
                                             T origin_y, T dt, T* d, DriverReport<T>* report) {
  using namespace driver;
  // Heading and forward speed in the ground plane.
  const T heading_norm = sqrt(sq(x.rot.m[0][0]) + sq(x.rot.m[1][0]));
  const bool level_enough = heading_norm > T(1e-6);  // not pointing straight up or down
  const T hx = level_enough ? x.rot.m[0][0] / heading_norm : T(1);
  const T hy = level_enough ? x.rot.m[1][0] / heading_norm : T(0);
  const T speed = dot(x.velocity, x.rot.col(0));
  const T forward_speed = speed > T(0) ? speed : T(0);

  // 1. The body COM on the path.
  const int n = segment_count(p);
  const PathQuery<T> com{origin_x, origin_y, x.com.x, x.com.y};
  const bool located = d[kSegment] >= T(0);
  const PathIndex u = located
                          ? path_nearest_segment(p, com, PathIndex{static_cast<int>(d[kSegment]), static_cast<int>(d[kLap])})
                          : path_nearest_segment_global(p, com);
  d[kSegment] = T(u.segment);
  d[kLap] = T(u.lap);
  const PathSegment<T> seg = path_segment(p, u);
  const SegmentHit<T> hit = segment_hit(seg, com);
  // Off the ends of an open path the foot runs on along the end segment's line; elsewhere the
  // nearest point is on the segment (a vertex when clamped: the distance to it, signed).
  const bool beyond_start = !p.closed && u.segment == 0 && hit.fraction < T(0);
  const bool beyond_end = !p.closed && u.segment == n - 1 && hit.fraction > T(1);
  const bool extrapolated = beyond_start || beyond_end;
  const T fraction = extrapolated ? hit.fraction : clamp(hit.fraction, T(0), T(1));
  const T distance = sqrt(hit.dist_sq);
  const T lateral = extrapolated ? hit.lateral : (hit.lateral < T(0) ? -distance : distance);
  const T here = seg.s0 + fraction * seg.length;  // unwrapped arclength
  if (!located) d[kStartArclength] = here;
  d[kLateralError] = lateral;
  report->on_path = true;
  report->lateral_error = lateral;
  report->progress = p.closed ? here - d[kStartArclength] : clamp(here, T(0), p.length);
  report->done = p.closed ? here - d[kStartArclength] >= p.length : beyond_end;

  // 2. Speed.
  const PedalCommand<T> pedals = speed_pi(path_speed_on(p, seg, fraction) - speed, c.speed_kp, c.speed_ki, dt,
                                          &d[kSpeedIntegral]);

  // 3. Steering, from the point a lookahead ahead (pure pursuit) or the front axle's (Stanley),
  // searched from where it was last step (kTargetAhead segments on).
  const PathIndex last_target = path_advance(p, u, static_cast<int>(d[kTargetAhead]));
  T angle;
  if (c.tracker == kStanley) {
    // The front axle's nearest point, searched from the segment an axle's length on.
    const PathQuery<T> front{origin_x, origin_y, x.com.x + g.front_axle_x * hx, x.com.y + g.front_axle_x * hy};
    const PathIndex guess = path_segment_at(p, last_target, u, here + g.front_axle_x);
    const PathIndex uf = path_nearest_segment(p, front, guess);
    d[kTargetAhead] = T(path_offset(p, u, uf));
    const SegmentHit<T> fh = segment_hit(path_segment(p, uf), front);
    T tx, ty;
    path_tangent(p, uf, fh.fraction, &tx, &ty);
    angle = stanley_angle(hx, hy, tx, ty, fh.lateral, forward_speed, c.stanley_gain, c.stanley_softening);
  } else {
    const T s_goal = here + c.lookahead_base + c.lookahead_gain * forward_speed;
    const PathIndex ug = path_segment_at(p, last_target, u, s_goal);
    d[kTargetAhead] = T(path_offset(p, u, ug));
    const PathTarget<T> goal = path_point_on(path_segment(p, ug), s_goal, origin_x, origin_y);
    const T rear_x = x.com.x + g.rear_axle_x * hx, rear_y = x.com.y + g.rear_axle_x * hy;
    // Pure pursuit's geometry is about where the rear axle goes: its course (velocity
    // direction), not the body's heading, which differs by the rear slip angle and would leave a
    // steady offset growing with the lookahead (0.3 m for the HMMWV at 0.2 g). Below walking
    // pace the course is undefined and the heading takes over.
    const Vec3<T> rear_velocity = x.velocity +
                                  x.rot * Vec3<T>{T(0), x.omega_body.z * g.rear_axle_x, -x.omega_body.y * g.rear_axle_x};
    const T course_speed = sqrt(sq(rear_velocity.x) + sq(rear_velocity.y));
    const T w = clamp(course_speed - T(0.5), T(0), T(1));  // 0 below 0.5 m/s, 1 above 1.5 m/s
    const T inv = T(1) / (course_speed > T(1e-6) ? course_speed : T(1));
    const T cx = (T(1) - w) * hx + w * rear_velocity.x * inv, cy = (T(1) - w) * hy + w * rear_velocity.y * inv;
    const T cn = sqrt(cx * cx + cy * cy);
    angle = pure_pursuit_angle(g.front_axle_x - g.rear_axle_x, cx / cn, cy / cn, goal.x - rear_x, goal.y - rear_y);
  }
  T steer = clamp(angle / g.steer_gain, T(-1), T(1));
  if (c.max_steer_rate > T(0)) {
    const T most = c.max_steer_rate * dt;
    steer = clamp(steer, d[kSteer] - most, d[kSteer] + most);
  }
  return {steer, pedals.throttle, pedals.brake};
}

// The command of vehicle v for the step starting at time t (batch mode kDriverPath or
// kDriverProgram); advances its driver state d and fills the report for the metrics.
template <class T>
FLEETDYN_FN DriverInput<T> driver_input(const DriverView<T>& dv, int v, const DriverGeometry<T>& g, const DriverSense<T>& x,
                                        T origin_x, T origin_y, T t, T dt, T* d, DriverReport<T>* report) {
  report->on_path = false;
  report->done = false;
  report->lateral_error = T(0);
  report->progress = T(0);
  DriverInput<T> in;
  if (dv.mode == kDriverPath) {
    const int path = dv.paths.vehicle_path ? dv.paths.vehicle_path[v] : 0;
    in = path_driver_input(path_of(dv.paths, path), dv.path_params[v % dv.path_param_count], g, x, origin_x, origin_y,
                           dt, d, report);
  } else {
    bool done = false;
    in = steer_program_input(dv.programs[v % dv.program_count], t, x.omega_body.x, &d[driver::kEventTime], &done);
    report->done = done;
  }
  d[driver::kSteer] = in.steer;
  d[driver::kThrottle] = in.throttle;
  d[driver::kBrake] = in.brake;
  return in;
}

// The driver's metrics (physics/core/metrics.h) after a step that stayed sane, t its start time.
template <class T>
FLEETDYN_FN void update_driver_metrics(T* m, const DriverReport<T>& r, T t) {
  if (r.on_path) {
    const T deviation = fabs(r.lateral_error);
    if (deviation > m[metric::max_path_deviation]) m[metric::max_path_deviation] = deviation;
    m[metric::path_progress] = r.progress;
  }
  if (r.done && m[metric::maneuver_end_time] < T(0)) m[metric::maneuver_end_time] = t;
}

}  // namespace fleetdyn
