// The CPU backend's vectorized runner of the pgs vehicle: W consecutive vehicles stepped
// together, their Gauss-Seidel sweeps (about 85 % of a step) in SIMD lanes (host/backend/lanes.h).
//
// A sweep is a chain of dependent row updates (each reads the velocities the one before wrote),
// so one vehicle's sweep is bound by latency, not arithmetic. W vehicles in the lanes of one
// register run W chains in the time of one. What runs per vehicle through the scalar code, as
// in run_vehicle: inputs and drivers, the loads (tire, springs, steering), building the rows
// and the warm start, the position update, the sanity check and the metrics. The rows are
// written straight into the lane-interleaved scratch (a Strided view of stride W), so nothing
// is copied between the scalar and the lane phases.
//
// The lanes share one row table, so vehicles solve together only when their solver tables agree
// (same wheel-contact mode, sweeps and coloring); otherwise each lane's sweeps run alone on its
// own table. Independence as in host/strut/strut_lanes.h: a vehicle's lane depends only on its index,
// no operation mixes lanes (a row singular or NaN in one lane is a no-op or stays in it), so a
// vehicle's result does not depend on the batch size or the thread count. With a fixed sweep
// count (the vehicle's setting) the lanes run the scalar path's operations in the same order:
// the results equal the scalar path's up to the compiler's multiply-add contraction.
#pragma once

#include <cstring>
#include <vector>

#include "fleetdyn/physics/pgs/pgs_vehicle_batch.h"
#include "host/backend/lanes.h"
#include "host/backend/vehicle_lanes.h"

namespace fleetdyn {

// Whether two vehicles' sweeps may run in lanes of one solve: the same rows, order and sweeps.
template <class T>
inline bool same_pgs_solver(const PgsVehicleParams<T>& a, const PgsVehicleParams<T>& b) {
  const int n = a.row_count;
  return n == b.row_count && a.color_count == b.color_count && a.settings.max_iterations == b.settings.max_iterations &&
         a.settings.tolerance == b.settings.tolerance && a.settings.colored_sweeps == b.settings.colored_sweeps &&
         std::memcmp(a.rows, b.rows, sizeof(pgs::RowInfo) * n) == 0 &&
         std::memcmp(a.sweep_order, b.sweep_order, sizeof(int) * n) == 0 &&
         std::memcmp(a.color_begin, b.color_begin, sizeof(int) * (a.color_count + 1)) == 0;
}

// The pgs vehicle's lane stepper (host/backend/vehicle_lanes.h): per lane the scalar phases of
// pgs_vehicle_step, the sweeps of every substep in lanes.
template <bool kDrivers, class T, int W>
class PgsLaneStepper {
 public:
  using L = Lanes<T, W>;
  using Run = VehicleRun<kDrivers, PgsVehicleModel, T>;

  // The lanes' scratch, interleaved: value j of lane i at j * W + i. Lanes that are not live
  // hold zeros: every row is singular there, so the shared sweeps leave them alone.
  PgsLaneStepper(const BatchView<PgsVehicleModel, T>& b, int first, const Run*, const bool* live)
      : lane_scratch_(pgsv::kScratchSize, L(T(0))), interleaved_(reinterpret_cast<T*>(lane_scratch_.data())) {
    int lead = -1;  // the first live lane: its table drives a shared solve
    for (int i = 0; i < W; ++i) {
      if (!live[i]) continue;
      params_[i] = &b.params[(first + i) % b.param_count];
      if (lead < 0) lead = i;
    }
    for (int i = 0; i < W; ++i) shared_ = shared_ && (!live[i] || same_pgs_solver(*params_[i], *params_[lead]));
  }

  void step(const BatchView<PgsVehicleModel, T>& b, Run* run, const bool* live, const DriverInput<T>* input,
            MetricSample<T>* sample) {
    const IntegratorSettings<T>& integ = b.integrator;
    for (int i = 0; i < W; ++i) {
      if (!live[i]) continue;
      pgsv::step_begin(*params_[i], integ.step, integ.substeps, input[i], run[i].s, run[i].next, work_[i]);
    }
    for (int sub = 0; sub < integ.substeps; ++sub) {
      bool ready[W];
      int ready_lead = -1;
      for (int i = 0; i < W; ++i) {
        const pgs::Strided<T> scratch{interleaved_, W, i};
        ready[i] = live[i] && pgsv::substep_prepare(*params_[i], run[i].terrain, run[i].origin_x, run[i].origin_y, sub,
                                                    run[i].next, scratch, work_[i]);
        if (ready[i] && ready_lead < 0) ready_lead = i;
      }
      if (ready_lead < 0) break;
      T bilateral[W], complementarity[W];
      if (shared_) {
        L lanes_bilateral, lanes_complementarity;
        pgs::pgs_solve(work_[ready_lead].model, pgs::Strided<L>{lane_scratch_.data(), 1, 0}, &lanes_bilateral,
                       &lanes_complementarity);
        for (int i = 0; i < W; ++i) {
          bilateral[i] = lanes_bilateral[i];
          complementarity[i] = lanes_complementarity[i];
        }
      } else {
        for (int i = 0; i < W; ++i) {
          if (!ready[i]) continue;
          pgs::pgs_solve(work_[i].model, pgs::Strided<T>{interleaved_, W, i}, &bilateral[i], &complementarity[i]);
        }
      }
      for (int i = 0; i < W; ++i) {
        if (!ready[i]) continue;
        pgsv::substep_finish(run[i].next, pgs::Strided<T>{interleaved_, W, i}, work_[i], bilateral[i], complementarity[i]);
      }
    }
    for (int i = 0; i < W; ++i) {
      if (!live[i]) continue;
      pgsv::step_end(run[i].next, work_[i]);
      pgs_vehicle_sample(*params_[i], integ.step, run[i].s, run[i].next, work_[i].first_loads, &sample[i]);
    }
  }

  // Zeros: the stopped lane's rows become no-ops in the shared sweeps.
  void stopped(int lane) {
    for (int j = 0; j < pgsv::kScratchSize; ++j) interleaved_[j * W + lane] = T(0);
  }

 private:
  std::vector<L> lane_scratch_;
  T* interleaved_;
  pgsv::StepWork<T> work_[W];
  const PgsVehicleParams<T>* params_[W] = {};
  bool shared_ = true;
};

// Advance vehicles first .. first + W - 1 (those that exist and are running) by `steps` outer
// steps; the lane form of run_vehicle (physics/core/batch_view.h).
template <class T, int W>
inline void pgs_run_lanes(const BatchView<PgsVehicleModel, T>& b, int first, int steps) {
  run_vehicle_lanes<PgsLaneStepper, PgsVehicleModel, T, W>(b, first, steps);
}

template <>
struct LaneRunner<PgsVehicleModel> {
  static constexpr bool kAvailable = true;
  template <class T, int W>
  static void run(const BatchView<PgsVehicleModel, T>& b, int first, int steps) {
    pgs_run_lanes<T, W>(b, first, steps);
  }
};

}  // namespace fleetdyn
