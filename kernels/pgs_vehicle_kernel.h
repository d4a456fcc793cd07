// The pgs vehicle's own CUDA kernel (kernels/pgs_vehicle_kernel.cu): a few lanes of a warp per
// vehicle, the Gauss-Seidel sweeps split over them, instead of the engine's thread per vehicle.
#pragma once

#include <cuda_runtime.h>

#include "fleetdyn/physics/pgs/pgs_vehicle_batch.h"
#include "kernels/cuda_step_launch.h"

namespace fleetdyn {

template <>
struct CudaStepLaunch<PgsVehicleModel> {
  static constexpr bool kCustom = true;
  template <class T>
  static void launch(const BatchView<PgsVehicleModel, T>& view, int steps, cudaStream_t stream);
};

}  // namespace fleetdyn
