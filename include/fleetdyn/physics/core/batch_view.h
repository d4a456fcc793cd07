// The kernel contract shared by every model: a trivially copyable view of a whole batch
// (pointers and counts, never owning containers) and the routine that advances ONE vehicle by n
// steps. The CUDA kernel calls run_vehicle once per thread; the CPU backend calls it per vehicle
// (or, for strut, its SIMD lane form in host/strut/strut_lanes.h). The physics is the same source.
//
// A model is a traits type (physics/strut/strut_batch.h: StrutModel, physics/ce/ce_batch.h: CeModel):
//   template <class T> using Params = ...;                  its parameter struct
//   static constexpr int kStateSize, kPosIndex;            state size, index of the world position
//   template <class T> static void step(params, terrain, origin_x, origin_y, integrator, input,
//                                       s, next, MetricSample<T>* sample);  one outer step
//   template <class T> static bool state_is_sane(const T* s);
//   template <class T> static DriverSense<T> sense(params, s);         what a driver reads (driver.h)
//   template <class T> static DriverGeometry<T> driver_geometry(params);  host: steering geometry
// and what the vector env (physics/env/) needs of it:
//   template <class T> static void derive(params&);  the derived fields after the randomized
//        ones were drawn (on the device);
//   template <class T> static void initial_state(params, terrain, x, y, yaw, speed, s, origin_x,
//        origin_y, static_load);  the state at rest on the terrain, the chassis COM's ground point
//        at world (x, y), moving at `speed`, and the tire loads at rest [N] per corner (the
//        wheel_loads observation divides by them);
//   template <class T> static T wheel_spin(s, corner), wheel_radius(params);  [rad/s], [m]: the
//        wheel_speeds observation.
//
// Layout: every per-vehicle array is structure-of-arrays, component-major:
// state[j * vehicle_count + v] is state scalar j of vehicle v, so a warp reads consecutive words.
#pragma once

#include "fleetdyn/physics/core/batch_origin.h"
#include "fleetdyn/physics/core/config.h"
#include "fleetdyn/physics/core/corner_group.h"
#include "fleetdyn/physics/core/driveline.h"
#include "fleetdyn/physics/core/integrator.h"
#include "fleetdyn/physics/core/math.h"
#include "fleetdyn/physics/core/metrics.h"
#include "fleetdyn/physics/core/terrain.h"
#include "fleetdyn/physics/core/vehicle_common.h"
#include "fleetdyn/physics/drivers/driver.h"

namespace fleetdyn {

// Open-loop driver inputs from time tables (piecewise linear in time, held before the first and
// after the last point). Tables are concatenated; vehicle v uses table vehicle_table[v] (or 0
// when vehicle_table is null). table_count == 0 means: inputs come from the batch's input arrays.
template <class T>
struct ManeuverView {
  int table_count;
  const int* table_offset;   // [table_count] first point of each table
  const int* table_length;   // [table_count]
  const T* time;             // [s]  all points
  const T* steer;            // [-1, 1]
  const T* throttle;         // [0, 1]
  const T* brake;            // [0, 1]
  const int* vehicle_table;  // [vehicle_count] or null
};

template <class T>
FLEETDYN_FN DriverInput<T> maneuver_input(const ManeuverView<T>& m, int vehicle, T t) {
  const int table = m.vehicle_table ? m.vehicle_table[vehicle] : 0;
  const int first = m.table_offset[table];
  const int count = m.table_length[table];
  int hi = first;
  while (hi < first + count && m.time[hi] < t) ++hi;
  if (hi == first) return {m.steer[first], m.throttle[first], m.brake[first]};
  if (hi == first + count) return {m.steer[hi - 1], m.throttle[hi - 1], m.brake[hi - 1]};
  const int lo = hi - 1;
  const T w = (t - m.time[lo]) / (m.time[hi] - m.time[lo]);
  return {m.steer[lo] + w * (m.steer[hi] - m.steer[lo]), m.throttle[lo] + w * (m.throttle[hi] - m.throttle[lo]),
          m.brake[lo] + w * (m.brake[hi] - m.brake[lo])};
}

template <class Model, class T>
struct BatchView {
  using Params = typename Model::template Params<T>;
  int vehicle_count;
  const Params* params;  // [param_count]; vehicle v uses params[v % param_count]
  int param_count;
  TerrainDesc<T> terrain;
  // [vehicle_count] each vehicle's variation of `terrain` (its own stretch and roughness of a
  // road in a Monte Carlo study), or null: every vehicle meets `terrain` as it is.
  const TerrainVariation<T>* terrain_variation;
  // [rad] a vehicle whose roll relative to the ground passes this is frozen as rolled over
  // (kStatusRolledOver); 0: never.
  T capsize_roll;
  IntegratorSettings<T> integrator;
  ManeuverView<T> maneuver;
  T* state;              // [Model::kStateSize][vehicle_count]
  T* origin;             // [2][vehicle_count] local origin x, y [m]: multiples of kOriginQuantum (batch_origin.h)
  int* step_count;       // [vehicle_count] steps taken; the vehicle's time is step_count * step
  int* status;           // [vehicle_count] VehicleStatus
  T* inputs;             // [3][vehicle_count] steer, throttle, brake (used when no maneuver tables)
  T* metrics;            // [kMetricCount][vehicle_count]
  DriverView<T> driver;  // closed-loop / programmed drivers; mode kDriverOpenLoop: tables or inputs
};

// The same parameter struct in another scalar type (a struct of scalars only: the device-side
// counterpart of host/batch/convert_scalars.h).
template <template <class> class Params, class U, class T>
FLEETDYN_FN Params<U> convert_param_scalars(const Params<T>& p) {
  constexpr int n = static_cast<int>(sizeof(Params<T>) / sizeof(T));
  static_assert(sizeof(Params<T>) == n * sizeof(T) && sizeof(Params<U>) == n * sizeof(U),
                "parameters must hold only scalars, laid out alike in both types");
  Params<U> out{};
  const T* from = reinterpret_cast<const T*>(&p);
  U* to = reinterpret_cast<U*>(&out);
  for (int i = 0; i < n; ++i) to[i] = U(from[i]);
  return out;
}

// Whether state[first .. first + count) are all below `bound` in magnitude (false for NaN): the
// models' sanity checks are made of these.
template <class T>
FLEETDYN_FN bool all_below(const T* s, int first, int count, T bound) {
  for (int j = first; j < first + count; ++j) {
    if (!(fabs(s[j]) < bound)) return false;
  }
  return true;
}

// What the metrics read of one vehicle at the start of a step, whatever the model.
template <class T>
struct MetricSample {
  Vec3<T> com;                    // [m] body centre of mass, world, relative to the local origin
  Mat3<T> rot;                    // body -> world
  Vec3<T> omega_body;             // [rad/s] body axes
  Vec3<T> accel;                  // [m/s^2] body COM acceleration, world
  T tire_normal_force[kCorners];  // [N]
  T roof_contact_speed;           // [m/s] closing speed of the roof on the ground (physics/core/body_contact.h)
};

// Roll and pitch relative to the ground under the body: the tilt of the body's y (x) axis out
// of the local surface plane. Unlike Euler angles this is meaningful in any attitude (on the
// loop's wall, upside down at its top) and measures what rolls a vehicle over on a bank.
template <class T>
FLEETDYN_FN Vec3<T> ground_relative_roll_pitch(const Mat3<T>& rot, Vec3<T> ground_normal) {
  return {asin(clamp(dot(rot.col(1), ground_normal), T(-1), T(1))),
          asin(clamp(-dot(rot.col(0), ground_normal), T(-1), T(1))), T(0)};
}

// |Roll| relative to the ground over its whole range [0, pi]: the angle about the body x axis
// from the surface's normal to the body's z axis (pi / 2 on its side, pi on its roof), where
// ground_relative_roll_pitch's arcsine folds back after pi / 2.
template <class T>
FLEETDYN_FN T ground_relative_roll_magnitude(const Mat3<T>& rot, Vec3<T> ground_normal) {
  return fabs(atan2(dot(rot.col(1), ground_normal), dot(rot.col(2), ground_normal)));
}

// Folds one step's sample into the metrics; returns the sample's |roll| relative to the ground
// over its whole range (ground_relative_roll_magnitude), for the capsize test.
template <class T>
FLEETDYN_FN T update_metrics(T* m, const TerrainDesc<T>& terrain, T origin_x, T origin_y, const MetricSample<T>& x, T t, T dt) {
  const Vec3<T> ground_normal = terrain_ground_query(terrain, x.com, origin_x, origin_y).normal;
  const Vec3<T> tilt = ground_relative_roll_pitch(x.rot, ground_normal);
  const Vec3<T> accel_body = mul_transpose(x.rot, x.accel);
  const auto raise = [](T& slot, T value) {
    if (value > slot) slot = value;
  };
  raise(m[metric::max_abs_roll], fabs(tilt.x));
  raise(m[metric::max_abs_pitch], fabs(tilt.y));
  raise(m[metric::max_abs_roll_rate], fabs(x.omega_body.x));
  raise(m[metric::max_abs_lat_accel], fabs(accel_body.y));
  raise(m[metric::max_abs_vert_accel], fabs(accel_body.z));
  const bool off[kCorners] = {x.tire_normal_force[0] <= T(0), x.tire_normal_force[1] <= T(0),
                              x.tire_normal_force[2] <= T(0), x.tire_normal_force[3] <= T(0)};
  if (off[0] || off[1] || off[2] || off[3]) {
    m[metric::wheel_liftoff_time] += dt;
    if (m[metric::first_liftoff_time] < T(0)) m[metric::first_liftoff_time] = t;
  }
  if ((off[0] && off[2]) || (off[1] && off[3])) {
    m[metric::two_wheel_liftoff_time] += dt;
    m[metric::current_two_wheel_liftoff] += dt;
    raise(m[metric::longest_two_wheel_liftoff], m[metric::current_two_wheel_liftoff]);
  } else {
    m[metric::current_two_wheel_liftoff] = T(0);
  }
  // Rollover: the net rotation about body x (roll rate integrated), its completed quarter turns,
  // where the vehicle lies now (0 wheels, 1 side, 2 roof: ground-relative roll magnitude below
  // 45 deg, below 135 deg, beyond), and the hardest roof impact.
  const T roll = ground_relative_roll_magnitude(x.rot, ground_normal);
  const T quarter = T(1.5707963267948966);
  m[metric::roll_rotation] += x.omega_body.x * dt;
  raise(m[metric::roll_quarter_turns], floor(fabs(m[metric::roll_rotation]) / quarter));
  m[metric::final_attitude] = roll < T(0.5) * quarter ? T(0) : roll < T(1.5) * quarter ? T(1) : T(2);
  raise(m[metric::max_roof_contact_speed], x.roof_contact_speed);
  return roll;
}

// The terrain vehicle v meets: the batch's, or its own variation of it.
template <class Model, class T>
FLEETDYN_FN TerrainDesc<T> vehicle_terrain(const BatchView<Model, T>& b, int v) {
  return b.terrain_variation ? varied_terrain(b.terrain, b.terrain_variation[v]) : b.terrain;
}

// Whether a vehicle whose roll relative to the ground is `roll` (over its whole range) has
// capsized: past the batch's capsize angle, when it has one.
template <class T>
FLEETDYN_FN bool capsized(T roll, T capsize_roll) {
  return capsize_roll > T(0) && roll > capsize_roll;
}

// The inputs of vehicle v at time t: its maneuver table, or the batch's input arrays.
template <class Model, class T>
FLEETDYN_FN DriverInput<T> batch_input(const BatchView<Model, T>& b, int v, T t) {
  const int n = b.vehicle_count;
  return b.maneuver.table_count > 0 ? maneuver_input(b.maneuver, v, t)
                                    : DriverInput<T>{b.inputs[v], b.inputs[n + v], b.inputs[2 * n + v]};
}

// The inputs of vehicle v for the step from state s at time t: open loop (batch_input), or its
// driver's command, which advances its driver state d and fills the report.
template <class Model, class T>
FLEETDYN_FN DriverInput<T> vehicle_input(const BatchView<Model, T>& b, const typename Model::template Params<T>& params,
                                         int v, T t, const T* s, T origin_x, T origin_y, T* d, DriverReport<T>* report) {
  if (b.driver.mode == kDriverOpenLoop) return batch_input(b, v, t);
  return driver_input(b.driver, v, b.driver.geometry[v % b.param_count], Model::sense(params, s), origin_x, origin_y, t,
                      b.integrator.step, d, report);
}

// The state one thread holds of a vehicle: all of it in the batch's layout (a group of all four
// corners), or the model's split layout for the group's corners (the model's traits then give
// kChassisSize, kCornerSize, chassis_index(j), corner_index(corner, j), step_corners and
// corner_state_is_sane; physics/core/corner_group.h).
template <class Model, class Group, bool kWhole = Group::kCount == kCorners>
struct HeldState {
  static constexpr int kSize = Model::kStateSize;
};
template <class Model, class Group>
struct HeldState<Model, Group, false> {
  static constexpr int kSize = Model::kChassisSize + Model::kCornerSize * Group::kCount;
};

// Index in the batch's state of held scalar j of a group's thread.
template <class Model, class Group>
FLEETDYN_FN int held_state_index(const Group& group, int j) {
  if constexpr (Group::kCount == kCorners) {
    return j;
  } else {
    if (j < Model::kChassisSize) return Model::chassis_index(j);
    const int k = (j - Model::kChassisSize) / Model::kCornerSize;
    return Model::corner_index(group.corner(k), j - Model::kChassisSize - k * Model::kCornerSize);
  }
}

// The first held scalar a group's thread writes back: the chassis' scalars are the leader's to
// write, each corner's its holder's.
template <class Model, class Group>
FLEETDYN_FN int first_stored_index(const Group& group) {
  if constexpr (Group::kCount == kCorners) {
    return 0;
  } else {
    return group.leader() ? 0 : Model::kChassisSize;
  }
}

// One step of the held state s into next with its metric sample (Model::step for a whole
// vehicle, Model::step_corners for a group's corners).
template <class Model, class T, class Group>
FLEETDYN_FN void step_held(const typename Model::template Params<T>& p, const TerrainDesc<T>& terrain, T origin_x,
                           T origin_y, const IntegratorSettings<T>& integ, DriverInput<T> input, const T* s, T* next,
                           MetricSample<T>* sample, const Group& group) {
  if constexpr (Group::kCount == kCorners) {
    Model::step(p, terrain, origin_x, origin_y, integ, input, s, next, sample);
  } else {
    Model::step_corners(p, terrain, origin_x, origin_y, integ, input, s, next, sample, group);
  }
}

// Whether the whole vehicle is sane, from the held state.
template <class Model, class T, class Group>
FLEETDYN_FN bool held_state_is_sane(const T* s, const Group& group) {
  if constexpr (Group::kCount == kCorners) {
    return Model::state_is_sane(s);
  } else {
    return Model::corner_state_is_sane(s, group);
  }
}

// One vehicle's run over a call's steps, in phases around its step, so that a runner may step
// several vehicles together between them (host/pgs/pgs_vehicle_lanes.h); run_vehicle_steps
// below is the plain sequence.
// A vehicle whose state stops being sane is restored to its last sane state, flagged
// kStatusDiverged and no longer stepped; the others go on. A vehicle whose roll relative to the
// ground at the start of a step is past the capsize angle is flagged kStatusRolledOver and
// frozen at that state (its time stays there); that step's sample is in its metrics, nothing
// after it.
// kDrivers: the batch's driver mode is not open loop. The open-loop form has no driver code in
// it at all, so the CUDA kernel built from it allocates registers as it did before drivers.
// Group: the corners this thread holds (AllCorners: the whole vehicle). Every thread of a group
// runs the whole sequence with the same chassis, inputs, metrics and decisions; only the group's
// leader writes them back.
template <bool kDrivers, class Model, class T, class Group = AllCorners>
struct VehicleRun {
  static constexpr int kSize = HeldState<Model, Group>::kSize;
  T s[kSize], next[kSize];  // the state at the step's start; the step's result
  T m[kMetricCount], d[kDriverStateSize];
  T origin_x, origin_y, t;
  int count, status;
  TerrainDesc<T> terrain;
  DriverReport<T> report;
  Group group;

  FLEETDYN_FN void load(const BatchView<Model, T>& b, int v) {
    const int n = b.vehicle_count;
    for (int j = 0; j < kSize; ++j) s[j] = b.state[held_state_index<Model>(group, j) * n + v];
    for (int j = 0; j < kMetricCount; ++j) m[j] = b.metrics[j * n + v];
    if constexpr (kDrivers) {
      for (int j = 0; j < kDriverStateSize; ++j) d[j] = b.driver.state[j * n + v];
    }
    origin_x = b.origin[v];
    origin_y = b.origin[n + v];
    count = b.step_count[v];
    status = kStatusRunning;
    terrain = vehicle_terrain(b, v);
  }

  // The inputs of the next step (its driver advances).
  FLEETDYN_FN DriverInput<T> input(const BatchView<Model, T>& b, const typename Model::template Params<T>& params, int v) {
    t = T(count) * b.integrator.step;
    report = DriverReport<T>{};
    if constexpr (kDrivers) {
      return vehicle_input(b, params, v, t, s, origin_x, origin_y, d, &report);
    } else {
      return batch_input(b, v, t);
    }
  }

  // One step from s into next with its metric sample.
  FLEETDYN_FN void step(const BatchView<Model, T>& b, const typename Model::template Params<T>& params,
                        DriverInput<T> in, MetricSample<T>* sample) {
    step_held<Model>(params, terrain, origin_x, origin_y, b.integrator, in, s, next, sample, group);
  }

  // Takes the step's result `next` with its sample: false when the vehicle stops here.
  FLEETDYN_FN bool accept(const BatchView<Model, T>& b, const MetricSample<T>& sample) {
    const T dt = b.integrator.step;
    if (!held_state_is_sane<Model>(next, group)) {  // keep s, the last sane state
      status = kStatusDiverged;
      m[metric::diverged_time] = t;
      return false;
    }
    const T roll = update_metrics(m, terrain, origin_x, origin_y, sample, t, dt);
    if constexpr (kDrivers) update_driver_metrics(m, report, t);
    if (capsized(roll, b.capsize_roll)) {  // keep s, the state that is past the capsize angle
      status = kStatusRolledOver;
      m[metric::capsize_time] = t;
      return false;
    }
    for (int j = 0; j < kSize; ++j) s[j] = next[j];
    ++count;
    rebase_coordinate(s[Model::kPosIndex], origin_x);
    rebase_coordinate(s[Model::kPosIndex + 1], origin_y);
    return true;
  }

  FLEETDYN_FN void store(const BatchView<Model, T>& b, int v) const {
    const int n = b.vehicle_count;
    for (int j = first_stored_index<Model>(group); j < kSize; ++j)
      b.state[held_state_index<Model>(group, j) * n + v] = s[j];
    if (!group.leader()) return;
    for (int j = 0; j < kMetricCount; ++j) b.metrics[j * n + v] = m[j];
    if constexpr (kDrivers) {
      for (int j = 0; j < kDriverStateSize; ++j) b.driver.state[j * n + v] = d[j];
    }
    b.origin[v] = origin_x;
    b.origin[n + v] = origin_y;
    b.step_count[v] = count;
    b.status[v] = status;
  }
};

// Advance vehicle v by `steps` outer steps (VehicleRun says what happens to one that stops), the
// corners of `group` in this thread. `params` is the vehicle's parameter set (the CUDA kernel may
// pass a local copy).
template <bool kDrivers, class Model, class T, class Group = AllCorners>
FLEETDYN_FN void run_vehicle_steps(const BatchView<Model, T>& b, const typename Model::template Params<T>& params,
                                   int v, int steps, Group group = Group{}) {
  if (b.status[v] != kStatusRunning) return;
  VehicleRun<kDrivers, Model, T, Group> run;
  run.group = group;
  run.load(b, v);
  for (int k = 0; k < steps; ++k) {
    const DriverInput<T> input = run.input(b, params, v);
    MetricSample<T> sample;
    run.step(b, params, input, &sample);
    if (!run.accept(b, sample)) break;
  }
  run.store(b, v);
}

template <class Model, class T>
FLEETDYN_FN void run_vehicle(const BatchView<Model, T>& b, const typename Model::template Params<T>& params, int v, int steps) {
  if (b.driver.mode == kDriverOpenLoop) {
    run_vehicle_steps<false>(b, params, v, steps);
  } else {
    run_vehicle_steps<true>(b, params, v, steps);
  }
}

template <class Model, class T>
FLEETDYN_FN void run_vehicle(const BatchView<Model, T>& b, int v, int steps) {
  run_vehicle(b, b.params[v % b.param_count], v, steps);
}

}  // namespace fleetdyn
