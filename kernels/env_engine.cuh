// CUDA backend of the vector environment for one (model, precision), instantiated by a
// translation unit of its own (FLEETDYN_INSTANTIATE_CUDA_ENV_ENGINE; CMake generates one per
// entry of FLEETDYN_ENV_KINDS, kernels/sources.cmake): the per-env routines of
// physics/env/env_episode.h (the CPU backend's source). The step runs four lanes per env, one
// corner each (kernels/corner_lanes.cuh; one thread per env is a measuring variant,
// kernels/cuda_mapping.h); resets one thread per env (ce's solves its rest state in the thread,
// physics/ce/ce_rest.h). Every buffer lives on the device; step() enqueues on the env's stream
// and reads back nothing except, for device actions, the one int of the action check.
#pragma once

#include <cuda_runtime.h>

#include <cstring>

#include "fleetdyn/error.h"
#include "fleetdyn/physics/env/env_episode.h"
#include "host/env/env_storage.h"
#include "kernels/corner_lanes.cuh"
#include "kernels/cuda_check.h"
#include "kernels/cuda_mapping.h"
#include "kernels/device_buffer.h"

namespace fleetdyn {
namespace {

constexpr int kEnvThreadsPerBlock = 128;

template <class Model, class T>
__global__ void __launch_bounds__(kEnvThreadsPerBlock) env_step_kernel(EnvView<Model, T> view) {
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e < view.env_count) env::step_env(view, e);
}

template <class Model, class T>
__global__ void __launch_bounds__(kEnvThreadsPerBlock) env_corner_step_kernel(EnvView<Model, T> view) {
  static_assert(kEnvThreadsPerBlock % 32 == 0, "an env's four lanes must lie in one warp");
  const int e = (blockIdx.x * blockDim.x + threadIdx.x) / kCorners;
  if (e < view.env_count) env::step_env(view, e, CornerLane::of_thread(threadIdx.x));
}

template <class Model, class T>
__global__ void __launch_bounds__(kEnvThreadsPerBlock) env_reset_kernel(EnvView<Model, T> view, const uint8_t* mask) {
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= view.env_count || (mask && !mask[e])) return;
  view.has_final[e] = 0;
  env::reset_env(view, e);
}

// The smallest env index with a non-finite action (atomicMin: the result is order-independent).
__global__ void first_bad_action_kernel(const float* actions, int n, int* first_bad) {
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= n) return;
  for (int j = 0; j < 3; ++j) {
    if (!isfinite(actions[static_cast<size_t>(e) * 3 + j])) {
      atomicMin(first_bad, e);
      return;
    }
  }
}

template <class Model, class T>
class CudaEnvEngine final : public EnvEngine<Model, T> {
 public:
  CudaEnvEngine() {
    name_ = current_cuda_device_name();
    FLEETDYN_CUDA_TRY(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    FLEETDYN_CUDA_TRY(cudaMallocHost(&bad_host_, sizeof(int)));
    for (cudaEvent_t& copied : staging_copied_)
      FLEETDYN_CUDA_TRY(cudaEventCreateWithFlags(&copied, cudaEventDisableTiming));
  }
  ~CudaEnvEngine() override {
    if (stream_) {
      cudaStreamSynchronize(stream_);
      cudaStreamDestroy(stream_);
    }
    if (bad_host_) cudaFreeHost(bad_host_);
    for (int i = 0; i < 2; ++i) {
      if (staging_[i]) cudaFreeHost(staging_[i]);
      if (staging_copied_[i]) cudaEventDestroy(staging_copied_[i]);
    }
  }

  void upload_all(EnvStorage<Model, T>& h) override {
#define FLEETDYN_UPLOAD_ENV_ARRAY(name, E, view, rows, fill) name##_.upload(h.name, stream_);
    FLEETDYN_ENV_SHARED_ARRAYS(FLEETDYN_UPLOAD_ENV_ARRAY)
    FLEETDYN_ENV_ARRAYS(FLEETDYN_UPLOAD_ENV_ARRAY)
#undef FLEETDYN_UPLOAD_ENV_ARRAY
    for (DeviceBuffer<float>& slot : actions_slot_) {
      slot.resize(static_cast<size_t>(h.env_count) * 3);
      slot.zero(stream_);
    }
    mask_.resize(static_cast<size_t>(h.env_count));
    mask_.zero(stream_);
    bad_.resize(1);
    bad_.zero(stream_);
    FLEETDYN_CUDA_TRY(cudaStreamSynchronize(stream_));  // the host vectors may change after this
  }
  void upload_base_params(EnvStorage<Model, T>& h) override {
    base_params_.upload(h.base_params, stream_);
    FLEETDYN_CUDA_TRY(cudaStreamSynchronize(stream_));
  }
  void restart_streams(EnvStorage<Model, T>& h) override {
    FLEETDYN_CUDA_TRY(cudaMemsetAsync(episode_index_.data(), 0, sizeof(uint32_t) * h.episode_index.size(), stream_));
  }
  void reset(EnvStorage<Model, T>& h, const uint8_t* mask) override {
    if (mask) {
      FLEETDYN_CUDA_TRY(cudaMemcpyAsync(mask_.data(), mask, h.env_count, cudaMemcpyHostToDevice, stream_));
      FLEETDYN_CUDA_TRY(cudaStreamSynchronize(stream_));  // the caller's mask may go away
    }
    env_reset_kernel<Model, T>
        <<<blocks(h.env_count), kEnvThreadsPerBlock, 0, stream_>>>(buffers(h), mask ? mask_.data() : nullptr);
    FLEETDYN_CUDA_TRY(cudaGetLastError());
  }
  int step(EnvStorage<Model, T>& h, const float* actions, MemorySpace space) override {
    const int n = h.env_count;
    const float* device_actions = actions;
    if (space == MemorySpace::Host) {
      const int bad = first_bad_action(actions, n);
      if (bad < n) return bad;
      device_actions = stage_actions(actions, n);
    } else {
      *bad_host_ = n;
      FLEETDYN_CUDA_TRY(cudaMemcpyAsync(bad_.data(), bad_host_, sizeof(int), cudaMemcpyHostToDevice, stream_));
      first_bad_action_kernel<<<blocks(n), kEnvThreadsPerBlock, 0, stream_>>>(actions, n, bad_.data());
      FLEETDYN_CUDA_TRY(cudaGetLastError());
      FLEETDYN_CUDA_TRY(cudaMemcpyAsync(bad_host_, bad_.data(), sizeof(int), cudaMemcpyDeviceToHost, stream_));
      FLEETDYN_CUDA_TRY(cudaStreamSynchronize(stream_));
      if (*bad_host_ < n) return *bad_host_;
    }
    EnvView<Model, T> view = buffers(h);
    view.actions = device_actions;
    if (lanes_per_vehicle_) {
      if constexpr (HasCornerLanes<Model>::value) {
        env_corner_step_kernel<Model, T><<<blocks(n * kCorners), kEnvThreadsPerBlock, 0, stream_>>>(view);
      }
    } else if constexpr (kThreadKernel) {
      env_step_kernel<Model, T><<<blocks(n), kEnvThreadsPerBlock, 0, stream_>>>(view);
    }
    FLEETDYN_CUDA_TRY(cudaGetLastError());
    return n;
  }
  // The per-env arrays back to the host (the shared ones never change on the device).
  void download(EnvStorage<Model, T>& h) override {
#define FLEETDYN_DOWNLOAD_ENV_ARRAY(name, E, view, rows, fill) name##_.download(h.name, stream_);
    FLEETDYN_ENV_ARRAYS(FLEETDYN_DOWNLOAD_ENV_ARRAY)
#undef FLEETDYN_DOWNLOAD_ENV_ARRAY
    FLEETDYN_CUDA_TRY(cudaStreamSynchronize(stream_));
  }
  void synchronize() override { FLEETDYN_CUDA_TRY(cudaStreamSynchronize(stream_)); }
  EnvView<Model, T> buffers(EnvStorage<Model, T>& h) override {
    EnvView<Model, T> v = h.view();  // scalars and counts from the host, pointers replaced
#define FLEETDYN_DEVICE_ENV_ARRAY(name, E, view, rows, fill) v.view = name##_.data();
    FLEETDYN_ENV_SHARED_ARRAYS(FLEETDYN_DEVICE_ENV_ARRAY)
    FLEETDYN_ENV_ARRAYS(FLEETDYN_DEVICE_ENV_ARRAY)
#undef FLEETDYN_DEVICE_ENV_ARRAY
    return v;
  }
  MemorySpace space() const override { return MemorySpace::Device; }
  void* stream() const override { return stream_; }
  std::string device_name() const override { return name_; }

 private:
  // Host actions reach the device through two pinned staging buffers used in turn, so the copy
  // is asynchronous (a copy from pageable memory would wait for the previous step) and the host
  // waits only for the copy two steps back.
  const float* stage_actions(const float* actions, int n) {
    const size_t bytes = sizeof(float) * 3 * static_cast<size_t>(n);
    const int i = next_staging_;
    next_staging_ = 1 - i;
    if (!staging_[i]) FLEETDYN_CUDA_TRY(cudaMallocHost(&staging_[i], bytes));
    FLEETDYN_CUDA_TRY(cudaEventSynchronize(staging_copied_[i]));
    std::memcpy(staging_[i], actions, bytes);
    float* device = actions_slot_[i].data();
    FLEETDYN_CUDA_TRY(cudaMemcpyAsync(device, staging_[i], bytes, cudaMemcpyHostToDevice, stream_));
    FLEETDYN_CUDA_TRY(cudaEventRecord(staging_copied_[i], stream_));
    return device;
  }
  static int blocks(int n) { return (n + kEnvThreadsPerBlock - 1) / kEnvThreadsPerBlock; }
  // One thread per env: a measuring variant, or where a model has no corner lanes.
  static constexpr bool kThreadKernel = kCudaVariantsBuilt || !HasCornerLanes<Model>::value;
  bool lanes_per_vehicle_ = cuda_mapping_from_environment().lanes_per_vehicle && HasCornerLanes<Model>::value;
  cudaStream_t stream_ = nullptr;
  int* bad_host_ = nullptr;                 // pinned
  float* staging_[2] = {nullptr, nullptr};  // pinned
  cudaEvent_t staging_copied_[2] = {nullptr, nullptr};
  int next_staging_ = 0;
  DeviceBuffer<float> actions_slot_[2];
  std::string name_;
  using Params = typename Model::template Params<T>;
#define FLEETDYN_DEVICE_ENV_BUFFER(name, E, view, rows, fill) DeviceBuffer<E> name##_;
  FLEETDYN_ENV_SHARED_ARRAYS(FLEETDYN_DEVICE_ENV_BUFFER)
  FLEETDYN_ENV_ARRAYS(FLEETDYN_DEVICE_ENV_BUFFER)
#undef FLEETDYN_DEVICE_ENV_BUFFER
  DeviceBuffer<int> bad_;
  DeviceBuffer<uint8_t> mask_;
};

}  // namespace

template <class Model, class T>
std::unique_ptr<EnvEngine<Model, T>> make_cuda_env_engine() {
  return std::make_unique<CudaEnvEngine<Model, T>>();
}

}  // namespace fleetdyn

// The env engine of one kind, in the translation unit that names it.
#define FLEETDYN_INSTANTIATE_CUDA_ENV_ENGINE(Model, T) \
  template std::unique_ptr<::fleetdyn::EnvEngine<::fleetdyn::Model, T>> fleetdyn::make_cuda_env_engine<::fleetdyn::Model, T>();
