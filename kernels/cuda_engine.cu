// CUDA backend: one thread per vehicle, each running run_vehicle<Model> (the same source the
// CPU backend runs) for all the steps of one launch, state in registers throughout. step()
// only enqueues on the engine's stream; reads synchronize.
#include <cuda_runtime.h>

#include <cstdlib>
#include <cstring>

#include "host/cuda_engine.h"
#include "kernels/cuda_check.h"
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
// kDrivers: a path driver or steer program is set (physics/driver.h). Open-loop batches run
// kernels without any driver code, so drivers cost them no registers; driven batches always
// take the local copy (one kernel per model and precision instead of two, for build time).
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

// Which kernel serves a batch with more than one parameter set: the local copy unless the
// diagnostic environment variable FLEETDYN_CUDA_PARAMS=global asks for the other (to measure it).
bool local_params_for(int param_count) {
  if (param_count <= 1) return false;
  const char* mode = std::getenv("FLEETDYN_CUDA_PARAMS");
  return !(mode && std::strcmp(mode, "global") == 0);
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

  void upload(const BatchStorage<Model, T>& host, unsigned parts) override {
    if (!params_.size()) {  // first upload: the constant parts
      params_.upload(host.params, stream_);
      local_params_ = local_params_for(static_cast<int>(host.params.size()));
      heightfield_.upload(host.heightfield, stream_);
      terrain_variation_.upload(host.terrain_variation, stream_);
      driver_geometry_.upload(host.driver_geometry, stream_);
    }
    if (parts & kSyncVehicles) {
      state_.upload(host.state, stream_);
      origin_.upload(host.origin, stream_);
      step_count_.upload(host.step_count, stream_);
      status_.upload(host.status, stream_);
      metrics_.upload(host.metrics, stream_);
    }
    if (parts & (kSyncVehicles | kSyncDriver)) driver_state_.upload(host.driver_state, stream_);
    if (parts & kSyncDriver) {
      path_offset_.upload(host.path_offset, stream_);
      path_count_.upload(host.path_count, stream_);
      path_closed_.upload(host.path_closed, stream_);
      vehicle_path_.upload(host.vehicle_path, stream_);
      path_length_.upload(host.path_length, stream_);
      path_x_.upload(host.path_x, stream_);
      path_y_.upload(host.path_y, stream_);
      path_speed_.upload(host.path_speed, stream_);
      path_s_.upload(host.path_s, stream_);
      path_params_.upload(host.path_params, stream_);
      programs_.upload(host.programs, stream_);
    }
    if (parts & kSyncInputs) inputs_.upload(host.inputs, stream_);
    if (parts & kSyncManeuver) {
      table_offset_.upload(host.table_offset, stream_);
      table_length_.upload(host.table_length, stream_);
      vehicle_table_.upload(host.vehicle_table, stream_);
      table_time_.upload(host.table_time, stream_);
      table_steer_.upload(host.table_steer, stream_);
      table_throttle_.upload(host.table_throttle, stream_);
      table_brake_.upload(host.table_brake, stream_);
    }
    // The host vectors may change after this returns: finish the copies first.
    FLEETDYN_CUDA_TRY(cudaStreamSynchronize(stream_));
  }

  void step(BatchStorage<Model, T>& host, int steps) override {
    BatchView<Model, T> v = host.view();  // scalars from the host, pointers replaced below
    v.params = params_.data();
    v.terrain.hf_heights = heightfield_.data();
    v.terrain_variation = terrain_variation_.data();  // null when the vehicles share the terrain
    v.maneuver.table_offset = table_offset_.data();
    v.maneuver.table_length = table_length_.data();
    v.maneuver.vehicle_table = vehicle_table_.data();
    v.maneuver.time = table_time_.data();
    v.maneuver.steer = table_steer_.data();
    v.maneuver.throttle = table_throttle_.data();
    v.maneuver.brake = table_brake_.data();
    v.state = state_.data();
    v.origin = origin_.data();
    v.step_count = step_count_.data();
    v.status = status_.data();
    v.inputs = inputs_.data();
    v.metrics = metrics_.data();
    DriverView<T>& d = v.driver;  // mode and counts from the host
    d.geometry = driver_geometry_.data();
    d.paths.offset = path_offset_.data();
    d.paths.count = path_count_.data();
    d.paths.closed = path_closed_.data();
    d.paths.vehicle_path = vehicle_path_.data();
    d.paths.length = path_length_.data();
    d.paths.x = path_x_.data();
    d.paths.y = path_y_.data();
    d.paths.speed = path_speed_.data();
    d.paths.s = path_s_.data();
    d.path_params = path_params_.data();
    d.programs = programs_.data();
    d.state = driver_state_.data();
    const int blocks = (v.vehicle_count + kThreadsPerBlock - 1) / kThreadsPerBlock;
    // Parameter sets too large for a per-thread copy (pgs: the core's model arrays, ~10-17 KB)
    // are always read in place; those kernels are never built with the copy.
    constexpr bool kCopyable = sizeof(typename Model::template Params<T>) <= 8192;
    if (d.mode != kDriverOpenLoop) {
      step_kernel<Model, T, kCopyable, true><<<blocks, kThreadsPerBlock, 0, stream_>>>(v, steps);
    } else if (kCopyable && local_params_) {
      step_kernel<Model, T, kCopyable, false><<<blocks, kThreadsPerBlock, 0, stream_>>>(v, steps);
    } else {
      step_kernel<Model, T, false, false><<<blocks, kThreadsPerBlock, 0, stream_>>>(v, steps);
    }
    FLEETDYN_CUDA_TRY(cudaGetLastError());
  }

  void download(BatchStorage<Model, T>& host) override {
    state_.download(host.state, stream_);
    origin_.download(host.origin, stream_);
    step_count_.download(host.step_count, stream_);
    status_.download(host.status, stream_);
    metrics_.download(host.metrics, stream_);
    driver_state_.download(host.driver_state, stream_);
    FLEETDYN_CUDA_TRY(cudaStreamSynchronize(stream_));
  }

  void synchronize() override { FLEETDYN_CUDA_TRY(cudaStreamSynchronize(stream_)); }
  std::string device_name() const override { return name_; }

 private:
  cudaStream_t stream_ = nullptr;
  bool local_params_ = false;
  std::string name_;
  DeviceBuffer<typename Model::template Params<T>> params_;
  DeviceBuffer<T> heightfield_, state_, origin_, inputs_, metrics_;
  DeviceBuffer<T> table_time_, table_steer_, table_throttle_, table_brake_;
  DeviceBuffer<int> step_count_, status_, table_offset_, table_length_, vehicle_table_;
  DeviceBuffer<DriverGeometry<T>> driver_geometry_;
  DeviceBuffer<TerrainVariation<T>> terrain_variation_;
  DeviceBuffer<T> driver_state_, path_length_, path_x_, path_y_, path_speed_, path_s_;
  DeviceBuffer<int> path_offset_, path_count_, path_closed_, vehicle_path_;
  DeviceBuffer<PathDriverParams<T>> path_params_;
  DeviceBuffer<SteerProgramParams<T>> programs_;
};

}  // namespace

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

template <class Model, class T>
std::unique_ptr<Engine<Model, T>> make_cuda_engine() {
  std::string why;
  if (!cuda_device_usable(&why)) throw Error("backend 'cuda' requested but " + why);
  return std::make_unique<CudaEngine<Model, T>>();
}

#define FLEETDYN_INSTANTIATE_CUDA_ENGINE(Model, T) template std::unique_ptr<Engine<Model, T>> make_cuda_engine<Model, T>();
FLEETDYN_BATCH_KINDS(FLEETDYN_INSTANTIATE_CUDA_ENGINE)
#undef FLEETDYN_INSTANTIATE_CUDA_ENGINE

}  // namespace fleetdyn
