// CUDA backend: one thread per vehicle, each running strut_run_vehicle (the same source the
// CPU backend runs) for all the steps of one launch, state in registers throughout. step()
// only enqueues on the engine's stream; reads synchronize.
#include <cuda_runtime.h>

#include "host/cuda_engine.h"
#include "kernels/cuda_check.h"
#include "kernels/device_buffer.h"

namespace fleetdyn {
namespace {

constexpr int kThreadsPerBlock = 128;  // tunable in this one place

template <class T>
__global__ void __launch_bounds__(kThreadsPerBlock) strut_step_kernel(StrutBatchView<T> view, int steps) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < view.vehicle_count) strut_run_vehicle(view, v, steps);
}

template <class T>
class CudaEngine final : public Engine<T> {
 public:
  CudaEngine() {
    int device = 0;
    FLEETDYN_CUDA_TRY(cudaGetDevice(&device));
    cudaDeviceProp prop{};
    FLEETDYN_CUDA_TRY(cudaGetDeviceProperties(&prop, device));
    name_ = prop.name;
    FLEETDYN_CUDA_TRY(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
  }
  ~CudaEngine() override {
    if (stream_) {
      cudaStreamSynchronize(stream_);
      cudaStreamDestroy(stream_);
    }
  }

  void upload(const BatchStorage<T>& host, unsigned parts) override {
    if (!params_.size()) {  // first upload: the constant parts
      params_.upload(host.params, stream_);
      heightfield_.upload(host.heightfield, stream_);
    }
    if (parts & kSyncVehicles) {
      state_.upload(host.state, stream_);
      origin_.upload(host.origin, stream_);
      step_count_.upload(host.step_count, stream_);
      status_.upload(host.status, stream_);
      metrics_.upload(host.metrics, stream_);
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

  void step(BatchStorage<T>& host, int steps) override {
    StrutBatchView<T> v = host.view();  // scalars from the host, pointers replaced below
    v.params = params_.data();
    v.terrain.hf_heights = heightfield_.data();
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
    const int blocks = (v.vehicle_count + kThreadsPerBlock - 1) / kThreadsPerBlock;
    strut_step_kernel<T><<<blocks, kThreadsPerBlock, 0, stream_>>>(v, steps);
    FLEETDYN_CUDA_TRY(cudaGetLastError());
  }

  void download(BatchStorage<T>& host) override {
    state_.download(host.state, stream_);
    origin_.download(host.origin, stream_);
    step_count_.download(host.step_count, stream_);
    status_.download(host.status, stream_);
    metrics_.download(host.metrics, stream_);
    FLEETDYN_CUDA_TRY(cudaStreamSynchronize(stream_));
  }

  void synchronize() override { FLEETDYN_CUDA_TRY(cudaStreamSynchronize(stream_)); }
  std::string device_name() const override { return name_; }

 private:
  cudaStream_t stream_ = nullptr;
  std::string name_;
  DeviceBuffer<VehicleParams<T>> params_;
  DeviceBuffer<T> heightfield_, state_, origin_, inputs_, metrics_;
  DeviceBuffer<T> table_time_, table_steer_, table_throttle_, table_brake_;
  DeviceBuffer<int> step_count_, status_, table_offset_, table_length_, vehicle_table_;
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

template <class T>
std::unique_ptr<Engine<T>> make_cuda_engine() {
  std::string why;
  if (!cuda_device_usable(&why)) throw Error("backend 'cuda' requested but " + why);
  return std::make_unique<CudaEngine<T>>();
}

template std::unique_ptr<Engine<float>> make_cuda_engine<float>();
template std::unique_ptr<Engine<double>> make_cuda_engine<double>();

}  // namespace fleetdyn
