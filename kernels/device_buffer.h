// An owning device array (cudaMalloc), resized and filled from host vectors.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <vector>

#include "kernels/cuda_check.h"

namespace fleetdyn {

template <class E>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  ~DeviceBuffer() {
    if (data_) cudaFree(data_);
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  E* data() const { return size_ ? data_ : nullptr; }
  std::size_t size() const { return size_; }

  void upload(const std::vector<E>& host, cudaStream_t stream) {
    if (host.size() != size_) {
      if (data_) FLEETDYN_CUDA_TRY(cudaFree(data_));
      data_ = nullptr;
      size_ = host.size();
      if (size_) FLEETDYN_CUDA_TRY(cudaMalloc(&data_, size_ * sizeof(E)));
    }
    if (size_)
      FLEETDYN_CUDA_TRY(cudaMemcpyAsync(data_, host.data(), size_ * sizeof(E), cudaMemcpyHostToDevice, stream));
  }
  void download(std::vector<E>& host, cudaStream_t stream) const {
    host.resize(size_);
    if (size_)
      FLEETDYN_CUDA_TRY(cudaMemcpyAsync(host.data(), data_, size_ * sizeof(E), cudaMemcpyDeviceToHost, stream));
  }

 private:
  E* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace fleetdyn
