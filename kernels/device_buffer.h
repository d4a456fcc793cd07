// An owning device array (cudaMalloc), resized and filled from host vectors or zeroed on the device.
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

  // `count` elements, their values undefined unless the size is unchanged.
  void resize(std::size_t count) {
    if (count == size_) return;
    if (data_) FLEETDYN_CUDA_TRY(cudaFree(data_));
    data_ = nullptr;
    size_ = 0;
    if (count) FLEETDYN_CUDA_TRY(cudaMalloc(&data_, count * sizeof(E)));
    size_ = count;
  }
  // Every byte 0 (E{} for arithmetic types and pointers), in the stream's order.
  void zero(cudaStream_t stream) {
    if (size_) FLEETDYN_CUDA_TRY(cudaMemsetAsync(data_, 0, size_ * sizeof(E), stream));
  }
  void upload(const std::vector<E>& host, cudaStream_t stream) {
    resize(host.size());
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
