// The pgs vehicle in the batch's kernel contract (physics/core/batch_view.h): its traits type, the
// state sanity check and the metric sample. The CUDA kernel and the CPU backend both run
// run_vehicle<PgsVehicleModel>.
#pragma once

#include "fleetdyn/physics/ce/ce_batch.h"
#include "fleetdyn/physics/core/batch_view.h"
#include "fleetdyn/physics/pgs/vehicle.h"

namespace fleetdyn {

// Sane: finite, inside generous bounds, and the joints holding (a drift beyond 5 cm means the
// solver has lost the linkage: the vehicle is flagged diverged rather than shown broken).
template <class T>
FLEETDYN_FN bool pgs_vehicle_state_is_sane(const T* s) {
  using namespace pgsv;
  return all_below(s, 0, kStateSize, T(1e7)) && all_below(s, pgs::body_field(kChassisBody, pgs::kVx), 3, T(1e3)) &&
         all_below(s, kDrift, 1, T(0.05));
}

// The chassis body's motion in the frames the drivers and metrics use.
template <class T>
FLEETDYN_FN DriverSense<T> pgs_vehicle_sense(const PgsVehicleParams<T>& p, const T* s) {
  using namespace pgs;
  const Strided<T> state{const_cast<T*>(s), 1, 0};
  const Pose<T> chassis = load_pose(state, pgsv::kChassisBody);
  DriverSense<T> x;
  x.com = chassis.position;
  x.rot = pgsv::chassis_rotation(p, chassis.rotation);
  x.velocity = load_vec(state, body_field(pgsv::kChassisBody, kVx));
  x.omega_body = mul_transpose(x.rot, load_vec(state, body_field(pgsv::kChassisBody, kWx)));
  return x;
}

// The metric sample of a step from s to next with the loads at its start.
template <class T>
FLEETDYN_FN void pgs_vehicle_sample(const PgsVehicleParams<T>& p, T step, const T* s, const T* next,
                                    const pgsv::Loads<T>& loads, MetricSample<T>* sample) {
  const DriverSense<T> x = pgs_vehicle_sense(p, s);
  sample->com = x.com;
  sample->rot = x.rot;
  sample->omega_body = x.omega_body;
  // The step's mean acceleration of the chassis COM (the core's velocities are step-wise).
  const int v = pgs::body_field(pgsv::kChassisBody, pgs::kVx);
  sample->accel = (Vec3<T>{next[v], next[v + 1], next[v + 2]} - x.velocity) * (T(1) / step);
  for (int c = 0; c < kCorners; ++c) sample->tire_normal_force[c] = loads.tire_normal_force[c];
  sample->roof_contact_speed = loads.roof_contact_speed;
}

struct PgsVehicleModel {
  template <class T>
  using Params = PgsVehicleParams<T>;
  static constexpr int kStateSize = kPgsVehicleStateSize;
  static constexpr int kPosIndex = pgs::kPx;  // the chassis COM; the other bodies are stored relative to it

  template <class T>
  static FLEETDYN_FN void step(const PgsVehicleParams<T>& p, const TerrainDesc<T>& terrain, T origin_x, T origin_y,
                               const IntegratorSettings<T>& integ, DriverInput<T> input, const T* s, T* next,
                               MetricSample<T>* sample) {
    pgsv::Loads<T> loads;
    pgsv::vehicle_step(p, terrain, origin_x, origin_y, integ.step, integ.substeps, input, s, next, &loads);
    pgs_vehicle_sample(p, integ.step, s, next, loads, sample);
  }
  template <class T>
  static FLEETDYN_FN bool state_is_sane(const T* s) {
    return pgs_vehicle_state_is_sane(s);
  }
  template <class T>
  static FLEETDYN_FN DriverSense<T> sense(const PgsVehicleParams<T>& p, const T* s) {
    return pgs_vehicle_sense(p, s);
  }
  // The same steering linkage as ce.
  template <class T>
  static DriverGeometry<T> driver_geometry(const PgsVehicleParams<T>& p) {
    return CeModel::driver_geometry(p.ce);
  }
};

}  // namespace fleetdyn
