// How the CUDA engine (kernels/cuda_engine.cuh) launches a model's steps: its generic kernel, a
// thread per vehicle running run_vehicle, unless the model's specialization of CudaStepLaunch
// says the model has its own (kCustom) and launches it:
//   template <class T> static void launch(const BatchView<Model, T>& view, int steps, cudaStream_t stream);
// with the view's arrays on the device; the engine checks the launch.
#pragma once

namespace fleetdyn {

template <class Model>
struct CudaStepLaunch {
  static constexpr bool kCustom = false;
};

}  // namespace fleetdyn

// The models with their own kernels.
#include "kernels/pgs_vehicle_kernel.cuh"
