// CUDA error handling: every runtime call goes through FLEETDYN_CUDA_TRY, which throws
// fleetdyn::Error naming the call site and the CUDA error.
#pragma once

#include <cuda_runtime.h>

#include <map>
#include <mutex>
#include <string>
#include <utility>

#include "fleetdyn/error.h"

#define FLEETDYN_CUDA_TRY(call)                                                                           \
  do {                                                                                                    \
    const cudaError_t fleetdyn_cuda_status = (call);                                                      \
    if (fleetdyn_cuda_status != cudaSuccess) {                                                            \
      throw ::fleetdyn::Error(std::string("CUDA error at ") + __FILE__ + ":" + std::to_string(__LINE__) + \
                              ": " #call ": " + cudaGetErrorName(fleetdyn_cuda_status) + " (" +           \
                              cudaGetErrorString(fleetdyn_cuda_status) + ")");                            \
    }                                                                                                     \
  } while (0)

namespace fleetdyn {

// The name of the current CUDA device (what an engine reports as its device).
inline std::string current_cuda_device_name() {
  int device = 0;
  FLEETDYN_CUDA_TRY(cudaGetDevice(&device));
  cudaDeviceProp prop{};
  FLEETDYN_CUDA_TRY(cudaGetDeviceProperties(&prop, device));
  return prop.name;
}

// An attribute of the current device, queried once per (device, attribute) and then cached.
inline int current_device_attribute(cudaDeviceAttr attr) {
  int device = 0;
  FLEETDYN_CUDA_TRY(cudaGetDevice(&device));
  static std::mutex mutex;
  static std::map<std::pair<int, int>, int> cache;
  const std::lock_guard<std::mutex> lock(mutex);
  const auto key = std::make_pair(device, static_cast<int>(attr));
  const auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  int value = 0;
  FLEETDYN_CUDA_TRY(cudaDeviceGetAttribute(&value, attr, device));
  cache.emplace(key, value);
  return value;
}

}  // namespace fleetdyn
