// The CUDA engine of one (model, precision), instantiated by a translation unit of its own
// (FLEETDYN_INSTANTIATE_CUDA_ENGINE; CMake generates one per entry of FLEETDYN_BATCH_KINDS,
// kernels/sources.cmake), so the kinds compile in parallel and a change to one model's physics
// recompiles that model's only. Each vehicle runs run_vehicle_steps<Model> (the same source the
// CPU backend runs) for all the steps of one launch, state in registers throughout. Models
// written per corner (their traits give a split layout: strut, ce) run four lanes per vehicle,
// one corner each (kernels/corner_lanes.cuh); pgs runs its own kernel (kernels/cuda_step_launch.h);
// the one-thread-per-vehicle kernels are measuring variants (kernels/cuda_mapping.h). step() only
// enqueues on the engine's stream; reads synchronize.
#pragma once

#include <cuda_runtime.h>

#include "host/backend/cuda_engine.h"
#include "kernels/batch_reduce.h"
#include "kernels/corner_lanes.cuh"
#include "kernels/cuda_check.h"
#include "kernels/cuda_mapping.h"
#include "kernels/cuda_step_launch.h"
#include "kernels/device_buffer.h"

namespace fleetdyn {
namespace {

constexpr int kThreadsPerBlock = 128;  // tunable in this one place
// Blocks per SM the compiler must make room for (__launch_bounds__' second argument): 1 lets it
// use all 255 registers per thread. Set with -DFLEETDYN_CUDA_MIN_BLOCKS=N to trade registers for
// occupancy (bench/floor.md records what was measured).
#ifndef FLEETDYN_CUDA_MIN_BLOCKS
#define FLEETDYN_CUDA_MIN_BLOCKS 1
#endif

// kLocalParams: with one parameter set per vehicle (a Monte Carlo batch), each thread copies its
// set into a local variable once per launch. Local memory is interleaved across a warp's
// threads, so the physics' parameter reads are coalesced instead of touching 32 cache lines per
// warp-wide load. With one shared set every thread reads the same address (a broadcast), and
// the global reference is kept.
// kDrivers: a path driver or steer program is set (physics/drivers/driver.h). Open-loop batches run
// kernels without any driver code, so drivers cost them no registers; driven batches always
// take the local copy (one kernel per model and precision instead of two, for build time).
// A thread per vehicle is the default only for a model with neither corner lanes nor a kernel of
// its own (none today); otherwise it is a measuring variant (kernels/cuda_mapping.h).
template <class Model, class T, bool kLocalParams, bool kDrivers>
__global__ void __launch_bounds__(kThreadsPerBlock, FLEETDYN_CUDA_MIN_BLOCKS)
    step_kernel(BatchView<Model, T> view, int steps) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= view.vehicle_count) return;
  if constexpr (kLocalParams) {
    const typename Model::template Params<T> local = view.params[v % view.param_count];
    run_vehicle_steps<kDrivers>(view, local, v, steps);
  } else {
    run_vehicle_steps<kDrivers>(view, view.params[v % view.param_count], v, steps);
  }
}

// Four lanes per vehicle, lane k holding corner k (the group's lanes share the vehicle's chassis
// and its parameter set, read in place: the four lanes read the same words). kMinBlocks as for
// step_kernel: 1 lets ptxas use up to 255 registers (strut fp32: ~220, no spills, 2 blocks of 128
// threads per SM); 4 caps it at 128 (4 blocks: 25 % occupancy) at the cost of some spills. The
// capped kernel is a measuring variant (FLEETDYN_CUDA_CORNER_REGISTERS=128, bench/floor.md).
template <class Model, class T, bool kDrivers, int kMinBlocks>
__global__ void __launch_bounds__(kThreadsPerBlock, kMinBlocks) corner_step_kernel(BatchView<Model, T> view, int steps) {
  static_assert(kThreadsPerBlock % 32 == 0, "a vehicle's four lanes must lie in one warp");
  const int v = (blockIdx.x * blockDim.x + threadIdx.x) / kCorners;
  if (v >= view.vehicle_count) return;
  run_vehicle_steps<kDrivers>(view, view.params[v % view.param_count], v, steps, CornerLane::of_thread(threadIdx.x));
}

template <class Model, class T>
class CudaEngine final : public Engine<Model, T> {
 public:
  CudaEngine() {
    name_ = current_cuda_device_name();
    FLEETDYN_CUDA_TRY(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
  }
  ~CudaEngine() override {
    if (stream_) {
      cudaStreamSynchronize(stream_);
      cudaStreamDestroy(stream_);
    }
  }

  // The arrays of FLEETDYN_BATCH_ARRAYS (host/batch/batch_storage.h) whose sync parts are in `parts`;
  // the first upload also sends the constant ones.
  void upload(const BatchStorage<Model, T>& host, unsigned parts) override {
    const bool first = !uploaded_;
    uploaded_ = true;
#define FLEETDYN_UPLOAD_ARRAY(sync, name, E, view) \
  if ((sync) == kSyncConstant ? first : ((sync)&parts) != 0) name##_.upload(host.name, stream_);
    FLEETDYN_BATCH_ARRAYS(FLEETDYN_UPLOAD_ARRAY)
#undef FLEETDYN_UPLOAD_ARRAY
    if (first) {
      const CudaMapping mapping = cuda_mapping_from_environment();
      lanes_per_vehicle_ = mapping.lanes_per_vehicle && kHasLanes;
      capped_registers_ = mapping.capped_registers;
      local_params_ = host.params.size() > 1 && !mapping.global_params;
    }
    // The host vectors may change after this returns: finish the copies first.
    FLEETDYN_CUDA_TRY(cudaStreamSynchronize(stream_));
  }

  void step(BatchStorage<Model, T>& host, int steps) override {
    BatchView<Model, T> v = host.view();  // scalars and counts from the host, pointers replaced
#define FLEETDYN_DEVICE_ARRAY(sync, name, E, view) v.view = name##_.data();
    FLEETDYN_BATCH_ARRAYS(FLEETDYN_DEVICE_ARRAY)
#undef FLEETDYN_DEVICE_ARRAY
    const bool driven = v.driver.mode != kDriverOpenLoop;
    if (lanes_per_vehicle_) {
      launch_lanes(v, steps, driven);
    } else if constexpr (kThreadKernels) {
      launch_threads(v, steps, driven);
    }
    FLEETDYN_CUDA_TRY(cudaGetLastError());
  }

  // The vehicles' arrays (those of kSyncVehicles) back to the host.
  void download(BatchStorage<Model, T>& host) override {
#define FLEETDYN_DOWNLOAD_ARRAY(sync, name, E, view) \
  if ((sync)&kSyncVehicles) name##_.download(host.name, stream_);
    FLEETDYN_BATCH_ARRAYS(FLEETDYN_DOWNLOAD_ARRAY)
#undef FLEETDYN_DOWNLOAD_ARRAY
    FLEETDYN_CUDA_TRY(cudaStreamSynchronize(stream_));
  }

  void synchronize() override { FLEETDYN_CUDA_TRY(cudaStreamSynchronize(stream_)); }
  std::string device_name() const override { return name_; }
  BatchSummary summarize(BatchStorage<Model, T>&, const SummaryPlan& plan) override {
    return summarize_device(metrics_.data(), status_.data(), plan, stream_);
  }

 private:
  // Several lanes per vehicle: the model's own kernel, else four lanes, one corner each.
  static constexpr bool kHasLanes = CudaStepLaunch<Model>::kCustom || HasCornerLanes<Model>::value;
  // The thread-per-vehicle kernels: built as measuring variants, or where a model has no lanes.
  static constexpr bool kThreadKernels = kCudaVariantsBuilt || !kHasLanes;

  void launch_lanes(const BatchView<Model, T>& v, int steps, bool driven) {
    if constexpr (CudaStepLaunch<Model>::kCustom) {
      CudaStepLaunch<Model>::template launch<T>(v, steps, stream_);
    } else if constexpr (HasCornerLanes<Model>::value) {
      const int blocks = (v.vehicle_count * kCorners + kThreadsPerBlock - 1) / kThreadsPerBlock;
      if (driven) {
        corner_step_kernel<Model, T, true, 1><<<blocks, kThreadsPerBlock, 0, stream_>>>(v, steps);
      } else if (capped_registers_) {  // only ever set where the variants are built
        if constexpr (kCudaVariantsBuilt) {
          corner_step_kernel<Model, T, false, 4><<<blocks, kThreadsPerBlock, 0, stream_>>>(v, steps);
        }
      } else {
        corner_step_kernel<Model, T, false, 1><<<blocks, kThreadsPerBlock, 0, stream_>>>(v, steps);
      }
    }
  }

  void launch_threads(const BatchView<Model, T>& v, int steps, bool driven) {
    const int blocks = (v.vehicle_count + kThreadsPerBlock - 1) / kThreadsPerBlock;
    // Parameter sets too large for a per-thread copy (pgs: the core's model arrays, ~10-17 KB)
    // are always read in place; those kernels are never built with the copy.
    constexpr bool kCopyable = sizeof(typename Model::template Params<T>) <= 8192;
    if (driven) {
      step_kernel<Model, T, kCopyable, true><<<blocks, kThreadsPerBlock, 0, stream_>>>(v, steps);
    } else if (kCopyable && local_params_) {
      step_kernel<Model, T, kCopyable, false><<<blocks, kThreadsPerBlock, 0, stream_>>>(v, steps);
    } else {
      step_kernel<Model, T, false, false><<<blocks, kThreadsPerBlock, 0, stream_>>>(v, steps);
    }
  }

  cudaStream_t stream_ = nullptr;
  bool local_params_ = false;
  bool lanes_per_vehicle_ = true;
  bool capped_registers_ = false;  // FLEETDYN_CUDA_CORNER_REGISTERS=128
  std::string name_;
  bool uploaded_ = false;
  using Params = typename Model::template Params<T>;
#define FLEETDYN_DEVICE_BUFFER(sync, name, E, view) DeviceBuffer<E> name##_;
  FLEETDYN_BATCH_ARRAYS(FLEETDYN_DEVICE_BUFFER)
#undef FLEETDYN_DEVICE_BUFFER
};

}  // namespace

template <class Model, class T>
std::unique_ptr<Engine<Model, T>> make_cuda_engine() {
  std::string why;
  if (!cuda_device_usable(&why)) throw Error("backend 'cuda' requested but " + why);
  return std::make_unique<CudaEngine<Model, T>>();
}

}  // namespace fleetdyn

// The engine of one kind, in the translation unit that names it.
#define FLEETDYN_INSTANTIATE_CUDA_ENGINE(Model, T) \
  template std::unique_ptr<::fleetdyn::Engine<::fleetdyn::Model, T>> fleetdyn::make_cuda_engine<::fleetdyn::Model, T>();
