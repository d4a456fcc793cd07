// The pgs vehicle on the GPU: kLanes lanes of a warp per vehicle (up to 4 vehicles per block of
// at most one warp, as many as the device's shared memory per block holds: pgs_launch_shape.h),
// the vehicle's solver scratch (rows and bodies, physics/pgs/layout.h) in shared memory. Lane 0
// of a vehicle's group runs the scalar phases the CPU runs (VehicleRun: inputs and
// drivers, the loads, building the rows and the warm start, the position update, the sanity
// check and the metrics; physics/pgs/vehicle.h's phases); all the group's lanes split each row
// color of every sweep and the residual (physics/pgs/solve.h pgs_solve with lanes > 1),
// synchronizing per color, no atomics. The CPU sweeps the same colors in the same order with one
// lane, so its tests check this kernel's arithmetic.
//
// Why: a thread per vehicle keeps the ~13 KB (fp32) scratch in local memory, 32 vehicles per warp,
// far beyond the L1, so every row update waits on L2; and a vehicle's sweep is a chain of
// dependent row updates. Here the scratch sits in shared memory and a color's rows (no two on one
// body) update at once.
//
// The engine's translation unit of each precision (kernels/cuda_engine.cuh) compiles the kernels
// of that precision, through CudaStepLaunch<PgsVehicleModel> below.
#pragma once

#include <cuda_runtime.h>

#include "fleetdyn/physics/pgs/pgs_vehicle_batch.h"
#include "kernels/cuda_check.h"
#include "kernels/cuda_step_launch.h"
#include "kernels/pgs_launch_shape.h"

namespace fleetdyn {
namespace {

constexpr int kLanes = kPgsLanesPerVehicle;
template <class T>
constexpr size_t kScratchBytes = sizeof(T) * pgsv::kScratchSize;  // one vehicle's, in shared memory

// A block is vehicles_per_block whole groups of kLanes threads (blockDim.x = vehicles_per_block *
// kLanes, at most a warp). The lanes synchronize only within their group (pgs::lane_group_mask:
// the group's own kLanes lanes), so a block of fewer than 4 vehicles, a partial warp, names no
// thread that does not exist.
template <bool kDrivers, class T>
__global__ void __launch_bounds__(32) pgs_vehicle_kernel(BatchView<PgsVehicleModel, T> b, int steps) {
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  const int group = static_cast<int>(threadIdx.x) / kLanes;
  const int lane = static_cast<int>(threadIdx.x) % kLanes;
  const int vehicles_per_block = static_cast<int>(blockDim.x) / kLanes;
  const int v = static_cast<int>(blockIdx.x) * vehicles_per_block + group;
  if (v >= b.vehicle_count || b.status[v] != kStatusRunning) return;  // uniform across the group
  const PgsVehicleParams<T>& p = b.params[v % b.param_count];
  const IntegratorSettings<T>& integ = b.integrator;
  const pgs::Strided<T> scratch{reinterpret_cast<T*>(shared_bytes) + group * pgsv::kScratchSize, 1, 0};
  // What the sweeps read (rows, colors, settings) for every lane; lane 0's StepWork has the rest.
  const pgs::ModelView<T> solver = pgsv::vehicle_model_view(p, integ.step / T(integ.substeps));
  VehicleRun<kDrivers, PgsVehicleModel, T> run;  // lane 0's
  pgsv::StepWork<T> work;                        // lane 0's
  if (lane == 0) run.load(b, v);
  for (int k = 0; k < steps; ++k) {
    if (lane == 0) {
      const DriverInput<T> input = run.input(b, p, v);
      pgsv::step_begin(p, integ.step, integ.substeps, input, run.s, run.next, work);
    }
    for (int sub = 0; sub < integ.substeps; ++sub) {
      int ready = 0;
      if (lane == 0) {
        ready = pgsv::substep_prepare(p, run.terrain, run.origin_x, run.origin_y, sub, run.next, scratch, work) ? 1 : 0;
      }
      if (!pgs::lane0_value(ready, kLanes)) break;
      pgs::lane_sync(kLanes);  // lane 0's rows and velocities are visible to the group
      T bilateral = T(0), complementarity = T(0);
      pgs::pgs_solve(solver, scratch, &bilateral, &complementarity, lane, kLanes);
      if (lane == 0) pgsv::substep_finish(run.next, scratch, work, bilateral, complementarity);
    }
    int accepted = 0;
    if (lane == 0) {
      pgsv::step_end(run.next, work);
      MetricSample<T> sample;
      pgs_vehicle_sample(p, integ.step, run.s, run.next, work.first_loads, &sample);
      accepted = run.accept(b, sample) ? 1 : 0;
    }
    if (!pgs::lane0_value(accepted, kLanes)) break;
  }
  if (lane == 0) run.store(b, v);
}

template <bool kDrivers, class T>
void launch_pgs_vehicle(const BatchView<PgsVehicleModel, T>& view, int steps, cudaStream_t stream) {
  // As many vehicles per block as the device's opt-in shared memory holds (fp64 on sm_86/89/120,
  // 99 KB: 3 of 4).
  const int optin = current_device_attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin);
  const int vehicles_per_block = pgs_vehicles_per_block(kScratchBytes<T>, static_cast<size_t>(optin));
  const size_t shared_bytes = kScratchBytes<T> * static_cast<size_t>(vehicles_per_block);
  // Above 48 KB a kernel's dynamic shared memory must be opted in to (per device: every launch).
  FLEETDYN_CUDA_TRY(cudaFuncSetAttribute(pgs_vehicle_kernel<kDrivers, T>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         static_cast<int>(shared_bytes)));
  const int blocks = (view.vehicle_count + vehicles_per_block - 1) / vehicles_per_block;
  pgs_vehicle_kernel<kDrivers, T><<<blocks, vehicles_per_block * kLanes, shared_bytes, stream>>>(view, steps);
}

}  // namespace

// The pgs vehicle's own kernel instead of the engine's thread per vehicle.
template <>
struct CudaStepLaunch<PgsVehicleModel> {
  static constexpr bool kCustom = true;
  template <class T>
  static void launch(const BatchView<PgsVehicleModel, T>& view, int steps, cudaStream_t stream) {
    if (view.driver.mode != kDriverOpenLoop) {
      launch_pgs_vehicle<true>(view, steps, stream);
    } else {
      launch_pgs_vehicle<false>(view, steps, stream);
    }
  }
};

}  // namespace fleetdyn
