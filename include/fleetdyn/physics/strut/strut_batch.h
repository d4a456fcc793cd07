// The strut model in the batch's kernel contract (physics/core/batch_view.h): its traits type, the
// state sanity check and the metric sample. The CUDA kernel and the CPU backend's scalar path
// run run_vehicle<StrutModel>; the CPU's SIMD path (host/strut/strut_lanes.h) is its lane form.
#pragma once

#include "fleetdyn/physics/core/batch_view.h"
#include "fleetdyn/physics/strut/strut_derive.h"
#include "fleetdyn/physics/strut/strut_initial.h"
#include "fleetdyn/physics/strut/strut_model.h"

namespace fleetdyn {

// A state is sane when finite and inside generous physical bounds; anything else is a blow-up.
template <class T>
FLEETDYN_FN bool strut_state_is_sane(const T* s) {
  using namespace strut;
  return all_below(s, 0, kStateSize, T(1e7)) && all_below(s, kVel, 3, T(1e3)) && all_below(s, kOmega, 3, T(1e3)) &&
         all_below(s, kUnsprungPos, 12, T(20));
}

// The same check on a corner group's split state: the chassis here, each held corner here, and
// every corner of the vehicle through the group.
template <class T, class Group>
FLEETDYN_FN bool strut_corner_state_is_sane(const T* x, const Group& group) {
  using namespace strut;
  bool ok = all_below(x, 0, kChassisSize, T(1e7)) && all_below(x, kVel, 3, T(1e3)) && all_below(x, kOmega, 3, T(1e3));
  for (int k = 0; k < Group::kCount; ++k) {
    const int at = kChassisSize + kCornerSize * k;
    ok = ok && all_below(x, at, kCornerSize, T(1e7)) && all_below(x, at + kCornerPos, 3, T(20));
  }
  return group.all(ok);
}

// The metrics' view of a strut vehicle: its state at step start (either layout: the chassis
// scalars are at the same indices) and that step's diagnostics, the tire loads by corner.
template <class T>
FLEETDYN_FN MetricSample<T> strut_metric_sample(const T* s, const StrutDiagnostics<T>& diag) {
  using namespace strut;
  MetricSample<T> x;
  x.com = load3(s, kPos);  // strut's position is the body COM
  x.rot = rotation_matrix(load_quat(s, kQuat));
  x.omega_body = load3(s, kOmega);
  x.accel = diag.chassis_accel;
  for (int i = 0; i < kCorners; ++i) x.tire_normal_force[i] = diag.tire_normal_force[i];
  x.roof_contact_speed = diag.roof_contact_speed;
  return x;
}

struct StrutModel {
  template <class T>
  using Params = StrutParams<T>;
  static constexpr int kStateSize = kStrutStateSize;
  static constexpr int kPosIndex = strut::kPos;
  // The split layout of a corner group (strut_state.h).
  static constexpr int kChassisSize = strut::kChassisSize;
  static constexpr int kCornerSize = strut::kCornerSize;
  static FLEETDYN_HD constexpr int chassis_index(int j) { return j; }
  static FLEETDYN_HD constexpr int corner_index(int corner, int j) { return strut::state_index(corner, j); }

  template <class T>
  static FLEETDYN_FN void step(const StrutParams<T>& p, const TerrainDesc<T>& terrain, T origin_x, T origin_y,
                               const IntegratorSettings<T>& integ, DriverInput<T> input, const T* s, T* next,
                               MetricSample<T>* sample) {
    StrutDiagnostics<T> diag;
    strut_step(p, terrain, origin_x, origin_y, integ, input, s, next, &diag);
    *sample = strut_metric_sample(s, diag);
  }
  // One step of a corner group's corners (physics/core/corner_group.h), the split layout.
  template <class T, class Group>
  static FLEETDYN_FN void step_corners(const StrutParams<T>& p, const TerrainDesc<T>& terrain, T origin_x, T origin_y,
                                       const IntegratorSettings<T>& integ, DriverInput<T> input, const T* x, T* next,
                                       MetricSample<T>* sample, const Group& group) {
    StrutDiagnostics<T> diag;
    strut_step_split(p, terrain, origin_x, origin_y, integ, input, x, next, &diag, group);
    group.share(diag.tire_normal_force);
    *sample = strut_metric_sample(x, diag);
  }
  template <class T>
  static FLEETDYN_FN bool state_is_sane(const T* s) {
    return strut_state_is_sane(s);
  }
  template <class T, class Group>
  static FLEETDYN_FN bool corner_state_is_sane(const T* x, const Group& group) {
    return strut_corner_state_is_sane(x, group);
  }
  template <class T>
  static FLEETDYN_FN DriverSense<T> sense(const StrutParams<T>&, const T* s) {
    using namespace strut;
    return {load3(s, kPos), rotation_matrix(load_quat(s, kQuat)), load3(s, kVel), load3(s, kOmega)};
  }
  // Axles at the lumped geometry's wheel centres; the road-wheel angle is steer * max_steer.
  template <class T>
  static FLEETDYN_FN DriverGeometry<T> driver_geometry(const StrutParams<T>& p) {
    return {p.cg_to_front_axle, -p.cg_to_rear_axle, p.max_steer};
  }

  // The vector env (physics/core/batch_view.h lists these hooks): parameters re-derived by
  // derive_vehicle_params (the host's finalize uses the same), the initial state at design ride
  // height (strut_initial_state), static loads from the moment balance of derive_vehicle_params.
  template <class T>
  static FLEETDYN_FN void derive(StrutParams<T>& p) {
    derive_vehicle_params(p);
  }
  template <class T>
  static FLEETDYN_FN void initial_state(const StrutParams<T>& p, const TerrainDesc<T>& terrain, double x, double y,
                                        T yaw, T speed, T* s, T* origin_x, T* origin_y, T* static_load) {
    strut_initial_state(p, terrain, x, y, yaw, speed, s, origin_x, origin_y);
    for (int i = 0; i < kCorners; ++i) static_load[i] = p.static_tire_load[i];
  }
  template <class T>
  static FLEETDYN_FN T wheel_spin(const T* s, int corner) {
    return s[strut::kWheelSpin + corner];
  }
  template <class T>
  static FLEETDYN_FN T wheel_radius(const StrutParams<T>& p) {
    return p.tire.unloaded_radius;
  }
};

template <class T>
using StrutBatchView = BatchView<StrutModel, T>;

}  // namespace fleetdyn
