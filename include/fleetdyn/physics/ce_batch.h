// The ce model in the batch's kernel contract (physics/batch_view.h): its traits type, the state
// sanity check and the metric sample. The CUDA kernel and the CPU backend both run
// run_vehicle<CeModel>.
#pragma once

#include "fleetdyn/physics/batch_view.h"
#include "fleetdyn/physics/ce_model.h"

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

// The metrics' view of a ce vehicle: its state at step start and that step's diagnostics. The
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
  return x;
}

struct CeModel {
  template <class T>
  using Params = CeParams<T>;
  static constexpr int kStateSize = kCeStateSize;
  static constexpr int kPosIndex = ce::kPos;

  template <class T>
  static FLEETDYN_FN void step(const CeParams<T>& p, const TerrainDesc<T>& terrain, T origin_x, T origin_y,
                               const IntegratorSettings<T>& integ, DriverInput<T> input, const T* s, T* next,
                               MetricSample<T>* sample) {
    CeDiagnostics<T> diag;
    ce_step(p, CeEnvironment<T>{&terrain, origin_x, origin_y}, integ.step, integ.substeps, input, s, next, &diag);
    *sample = ce_metric_sample(p, s, diag);
  }
  template <class T>
  static FLEETDYN_FN bool state_is_sane(const T* s) { return ce_state_is_sane(s); }
};

template <class T>
using CeBatchView = BatchView<CeModel, T>;

}  // namespace fleetdyn
