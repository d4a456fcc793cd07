// The ce model in the batch's kernel contract (physics/core/batch_view.h): its traits type, the state
// sanity check and the metric sample. The CUDA kernel and the CPU backend both run
// run_vehicle<CeModel>.
#pragma once

#include <type_traits>

#include "fleetdyn/physics/ce/ce_model.h"
#include "fleetdyn/physics/ce/ce_rest.h"
#include "fleetdyn/physics/core/batch_view.h"
#include "fleetdyn/physics/core/vehicle_common.h"

namespace fleetdyn {

// A state is sane when finite and inside generous physical bounds; anything else is a blow-up.
// The LCA angles stay inside +-pi/2: the loops close only far inside that (the droop toggle of
// the HMMWV is near -0.2 m of travel, docs/models/ce.md), so beyond it the state is meaningless.
template <class T>
FLEETDYN_FN bool ce_state_is_sane(const T* s) {
  using namespace ce;
  return all_below(s, 0, kStateSize, T(1e7)) && all_below(s, kVel, 3, T(1e3)) && all_below(s, kOmega, 3, T(1e3)) &&
         all_below(s, kLca, kCorners, T(1.5707963)) && all_below(s, kLcaRate, kCorners, T(1e3));
}

// The same check on a corner group's split state: the chassis here, each held corner here, and
// every corner of the vehicle through the group.
template <class T, class Group>
FLEETDYN_FN bool ce_corner_state_is_sane(const T* x, const Group& group) {
  using namespace ce;
  bool ok = all_below(x, 0, kChassisSize, T(1e7)) && all_below(x, kVel, 3, T(1e3)) && all_below(x, kOmega, 3, T(1e3));
  for (int k = 0; k < Group::kCount; ++k) {
    const int at = kChassisSize + kCornerSize * k;
    ok = ok && all_below(x, at, kCornerSize, T(1e7)) && all_below(x, at + kCornerLca, 1, T(1.5707963)) &&
         all_below(x, at + kCornerLcaRate, 1, T(1e3));
  }
  return group.all(ok);
}

// The metrics' view of a ce vehicle: its state at step start (either layout: the chassis
// scalars it reads are at the same indices) and that step's diagnostics, the tire loads by corner. The
// body COM is the chassis COM (ce's position state is the chassis frame origin).
template <class T>
FLEETDYN_FN MetricSample<T> ce_metric_sample(const CeParams<T>& p, const T* s, const CeDiagnostics<T>& diag) {
  using namespace ce;
  MetricSample<T> x;
  x.rot = rotation_matrix(normalized(load_quat(s, kQuat)));
  x.com = load3(s, kPos) + x.rot * p.chassis_com;
  x.omega_body = load3(s, kOmega);
  x.accel = diag.chassis_accel;
  for (int i = 0; i < kCorners; ++i) x.tire_normal_force[i] = diag.tire_normal_force[i];
  x.roof_contact_speed = diag.roof_contact_speed;
  return x;
}

struct CeModel {
  template <class T>
  using Params = CeParams<T>;
  static constexpr int kStateSize = kCeStateSize;
  static constexpr int kPosIndex = ce::kPos;
  // The split layout of a corner group (ce_state.h).
  static constexpr int kChassisSize = ce::kChassisSize;
  static constexpr int kCornerSize = ce::kCornerSize;
  static FLEETDYN_HD constexpr int chassis_index(int j) { return ce::chassis_state_index(j); }
  static FLEETDYN_HD constexpr int corner_index(int corner, int j) { return ce::state_index(corner, j); }

  template <class T>
  static FLEETDYN_FN void step(const CeParams<T>& p, const TerrainDesc<T>& terrain, T origin_x, T origin_y,
                               const IntegratorSettings<T>& integ, DriverInput<T> input, const T* s, T* next,
                               MetricSample<T>* sample) {
    CeDiagnostics<T> diag;
    ce_step(p, CeEnvironment<T>{&terrain, origin_x, origin_y}, integ.step, integ.substeps, input, s, next, &diag);
    *sample = ce_metric_sample(p, s, diag);
  }
  // One step of a corner group's corners (physics/core/corner_group.h), the split layout.
  template <class T, class Group>
  static FLEETDYN_FN void step_corners(const CeParams<T>& p, const TerrainDesc<T>& terrain, T origin_x, T origin_y,
                                       const IntegratorSettings<T>& integ, DriverInput<T> input, const T* x, T* next,
                                       MetricSample<T>* sample, const Group& group) {
    CeDiagnostics<T> diag;
    ce_step_split(p, CeEnvironment<T>{&terrain, origin_x, origin_y}, integ.step, integ.substeps, input, x, next, &diag, group);
    group.share(diag.tire_normal_force);
    *sample = ce_metric_sample(p, x, diag);
  }
  template <class T>
  static FLEETDYN_FN bool state_is_sane(const T* s) {
    return ce_state_is_sane(s);
  }
  template <class T, class Group>
  static FLEETDYN_FN bool corner_state_is_sane(const T* x, const Group& group) {
    return ce_corner_state_is_sane(x, group);
  }
  // The body is the chassis: its COM and the COM's world velocity from the frame origin's.
  template <class T>
  static FLEETDYN_FN DriverSense<T> sense(const CeParams<T>& p, const T* s) {
    using namespace ce;
    DriverSense<T> x;
    x.rot = rotation_matrix(normalized(load_quat(s, kQuat)));
    x.com = load3(s, kPos) + x.rot * p.chassis_com;
    x.omega_body = load3(s, kOmega);
    x.velocity = x.rot * (load3(s, kVel) + cross(x.omega_body, p.chassis_com));
    return x;
  }
  // Axles at the mean design wheel centres. The normalized steer turns the Pitman arm
  // (input * steering.max_angle); the road wheels follow through the linkage, so the gain is
  // the slope of the mean front road-wheel angle at centre (central difference over +-5 % of
  // full input, LCAs at design): the angles the path driver asks for are small.
  template <class T>
  static DriverGeometry<T> driver_geometry(const CeParams<T>& p) {
    const auto mean_front_angle = [&p](T input) {
      const SteeringLinkState<T> link = steering_link_state(p.steering, input * p.steering.max_angle, T(0));
      T sum = T(0);
      for (int c = 0; c < 2; ++c) {
        sum += corner_pose(p.corner[c], T(0), tierod_inner_point(p.corner[c], p.steering, link)).steer_angle;
      }
      return T(0.5) * sum;
    };
    const T h = T(0.05);
    const T front = T(0.5) * (p.corner[0].design.wheel_centre.x + p.corner[1].design.wheel_centre.x);
    const T rear = T(0.5) * (p.corner[2].design.wheel_centre.x + p.corner[3].design.wheel_centre.x);
    return {front - p.chassis_com.x, rear - p.chassis_com.x, (mean_front_angle(h) - mean_front_angle(-h)) / (T(2) * h)};
  }

  // The vector env (physics/core/batch_view.h lists these hooks). Derived fields: the shared
  // VehicleCommon's (drive shares, per-wheel brake torques, wheel lock rate) and the body box's
  // corners, as finalize_ce_params derives them (host/ce/ce_param_fields.cpp). Initial state: the static equilibrium of
  // this episode's parameters, solved at every reset by the Newton iteration the host's
  // ce_rest_state runs (physics/ce/ce_rest.h), in fp64 whatever the env's precision (the fp32
  // parameters widen exactly; the fp64 rest state then rounds to fp32), and placed on the
  // terrain like the batch's initial states. Static loads: the tire normal forces of that rest
  // state. Wheel spin: relative to the upright (ce's state), as in the batch.
  template <class T>
  static FLEETDYN_FN void derive(CeParams<T>& p) {
    derive_vehicle_common(p);
    derive_ce_body_corners(p);
  }
  template <class T>
  static FLEETDYN_FN void initial_state(const CeParams<T>& p, const TerrainDesc<T>& terrain, double x, double y, T yaw,
                                        T speed, T* s, T* origin_x, T* origin_y, T* static_load) {
    double rest[kCeStateSize];
    CeRestSolution<double> solution;
    if constexpr (std::is_same<T, double>::value) {
      solution = ce_rest_solve(p, double(speed), rest);
    } else {
      solution = ce_rest_solve(convert_param_scalars<CeParams, double>(p), double(speed), rest);
    }
    T rest_t[kCeStateSize];
    for (int j = 0; j < kCeStateSize; ++j) rest_t[j] = T(rest[j]);
    ce_place_on_terrain(p, rest_t, terrain, x, y, yaw, s, origin_x, origin_y);
    for (int i = 0; i < kCorners; ++i) static_load[i] = T(solution.tire_load[i]);
  }
  template <class T>
  static FLEETDYN_FN T wheel_spin(const T* s, int corner) {
    return s[ce::kWheelSpin + corner];
  }
  template <class T>
  static FLEETDYN_FN T wheel_radius(const CeParams<T>& p) {
    return p.tire.unloaded_radius;
  }
};

template <class T>
using CeBatchView = BatchView<CeModel, T>;

}  // namespace fleetdyn
