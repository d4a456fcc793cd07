// The CUDA backend's device queries; the engines themselves are kernels/cuda_engine.cuh, one
// translation unit per (model, precision).
#include <cuda_runtime.h>

#include "host/backend/cuda_engine.h"
#include "kernels/cuda_check.h"

namespace fleetdyn {

bool cuda_device_usable(std::string* why) {
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess || count == 0) {
    if (why) {
      *why = std::string("no CUDA device (") + (err != cudaSuccess ? cudaGetErrorString(err) : "no devices found") + ")";
    }
    cudaGetLastError();  // clear the sticky-free error so later calls start clean
    return false;
  }
  if (why) {
    cudaDeviceProp prop{};
    *why = cudaGetDeviceProperties(&prop, 0) == cudaSuccess ? prop.name : "CUDA device 0";
  }
  return true;
}

int cuda_device_count() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return count;
}

void use_cuda_device(int device) { FLEETDYN_CUDA_TRY(cudaSetDevice(device)); }

}  // namespace fleetdyn
