// CUDA backend of the pgs batch, two kernels over the single-source step (physics/pgs/step.h),
// all requested steps in one launch, state and scratch in global memory component-major
// (stride = system_count):
//   - a thread per system: consecutive threads read consecutive addresses of each component;
//   - a warp per system: lane 0 prepares the step (forces, rows, warm start) and finishes it,
//     the 32 lanes split each row color of every sweep (pgs_sweep_colored), synchronizing per
//     color. Which is faster depends on the rows per system; neither was measured on a device
//     yet (docs/models/pgs.md says what to measure). The CPU runs the colored order with one
//     lane (PgsSolverSettings::colored_sweeps), which is how the tests cover its logic.
#include <cuda_runtime.h>

#include <string>

#include "fleetdyn/physics/pgs/step.h"
#include "host/pgs/pgs_engine.h"
#include "kernels/cuda_check.h"
#include "kernels/device_buffer.h"

namespace fleetdyn {
namespace {

template <class T>
__global__ void pgs_step_kernel(pgs::ModelView<T> model, T* state, T* scratch, T* report, int* status, int* iterations,
                                int n, int steps) {
  const int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= n) return;
  const pgs::Strided<T> st{state, n, s};
  const pgs::Strided<T> sc{scratch, n, s};
  const pgs::Strided<T> rp{report, n, s};
  for (int k = 0; k < steps; ++k) pgs::pgs_step(model, st, sc, rp, &status[s], &iterations[s]);
}

template <class T>
__global__ void pgs_step_warp_kernel(pgs::ModelView<T> model, T* state, T* scratch, T* report, int* status,
                                     int* iterations, int n, int steps) {
  const int s = static_cast<int>((static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) / 32);
  const int lane = static_cast<int>(threadIdx.x % 32);
  if (s >= n) return;  // uniform across the warp: its 32 lanes share s
  const pgs::Strided<T> st{state, n, s};
  const pgs::Strided<T> sc{scratch, n, s};
  const pgs::Strided<T> rp{report, n, s};
  for (int k = 0; k < steps; ++k) {
    const int frozen = status[s] & pgs::kStatusNonFinite;  // every lane reads it before lane 0 writes
    __syncwarp();
    if (frozen) return;
    pgs::RowBuild<T> build{};
    if (lane == 0) pgs::pgs_step_prepare(model, st, sc, status[s], &build);
    __syncwarp();
    T bilateral = T(0), complementarity = T(0);
    const int sweeps = pgs::pgs_solve(model, sc, &bilateral, &complementarity, lane, 32);
    __syncwarp();
    if (lane == 0) {
      iterations[s] = sweeps;
      pgs::pgs_step_finish(model, st, sc, rp, &status[s], build, bilateral, complementarity);
    }
    __syncwarp();
  }
}

template <class T>
class PgsCudaEngine final : public PgsEngine<T> {
 public:
  explicit PgsCudaEngine(bool warp_per_system) : warp_per_system_(warp_per_system) {
    FLEETDYN_CUDA_TRY(cudaStreamCreate(&stream_));
    cudaDeviceProp prop{};
    FLEETDYN_CUDA_TRY(cudaGetDeviceProperties(&prop, 0));
    name_ = std::string(prop.name) + (warp_per_system ? " (warp per system)" : " (thread per system)");
  }
  ~PgsCudaEngine() override {
    cudaStreamSynchronize(stream_);
    cudaStreamDestroy(stream_);
  }

  void init(const PgsModelData<T>& model, int n, const PgsHostArrays<T>& arrays) override {
    model_ = model;
    n_ = n;
    bodies_.upload(model_.bodies, stream_);
    joints_.upload(model_.joints, stream_);
    contacts_.upload(model_.contacts, stream_);
    springs_.upload(model_.springs, stream_);
    rows_.upload(model_.rows, stream_);
    sweep_order_.upload(model_.sweep_order, stream_);
    color_begin_.upload(model_.color_begin, stream_);
    view_ = model_.view();
    view_.bodies = bodies_.data();
    view_.joints = joints_.data();
    view_.contacts = contacts_.data();
    view_.springs = springs_.data();
    view_.rows = rows_.data();
    view_.sweep_order = sweep_order_.data();
    view_.color_begin = color_begin_.data();
    scratch_.upload(std::vector<T>(static_cast<size_t>(pgs::scratch_size(view_.body_count, view_.row_count)) * n, T(0)), stream_);
    write(arrays);
  }

  void step(int steps) override {
    const int block = 128;
    if (warp_per_system_) {
      const long long threads = 32LL * n_;
      const int grid = static_cast<int>((threads + block - 1) / block);
      pgs_step_warp_kernel<T><<<grid, block, 0, stream_>>>(view_, state_.data(), scratch_.data(), report_.data(),
                                                           status_.data(), iterations_.data(), n_, steps);
    } else {
      const int grid = (n_ + block - 1) / block;
      pgs_step_kernel<T><<<grid, block, 0, stream_>>>(view_, state_.data(), scratch_.data(), report_.data(),
                                                      status_.data(), iterations_.data(), n_, steps);
    }
    FLEETDYN_CUDA_TRY(cudaGetLastError());
  }
  void synchronize() override { FLEETDYN_CUDA_TRY(cudaStreamSynchronize(stream_)); }
  void read(PgsHostArrays<T>* arrays) override {
#define FLEETDYN_PGS_DOWNLOAD(E, name) name##_.download(arrays->name, stream_);
    FLEETDYN_PGS_SYSTEM_ARRAYS(FLEETDYN_PGS_DOWNLOAD)
#undef FLEETDYN_PGS_DOWNLOAD
    synchronize();
  }
  void write(const PgsHostArrays<T>& arrays) override {
#define FLEETDYN_PGS_UPLOAD(E, name) name##_.upload(arrays.name, stream_);
    FLEETDYN_PGS_SYSTEM_ARRAYS(FLEETDYN_PGS_UPLOAD)
#undef FLEETDYN_PGS_UPLOAD
    synchronize();
  }
  const std::string& device_name() const override { return name_; }

 private:
  bool warp_per_system_ = false;
  cudaStream_t stream_ = nullptr;
  std::string name_;
  PgsModelData<T> model_;
  pgs::ModelView<T> view_{};
  int n_ = 0;
  DeviceBuffer<pgs::Body<T>> bodies_;
  DeviceBuffer<pgs::Joint<T>> joints_;
  DeviceBuffer<pgs::Contact<T>> contacts_;
  DeviceBuffer<pgs::Spring<T>> springs_;
  DeviceBuffer<pgs::RowInfo> rows_;
  DeviceBuffer<int> sweep_order_, color_begin_;
  DeviceBuffer<T> scratch_;
#define FLEETDYN_PGS_DEVICE_ARRAY(E, name) DeviceBuffer<E> name##_;
  FLEETDYN_PGS_SYSTEM_ARRAYS(FLEETDYN_PGS_DEVICE_ARRAY)
#undef FLEETDYN_PGS_DEVICE_ARRAY
};

}  // namespace

bool pgs_cuda_device_usable(std::string* why) {
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess || count == 0) {
    if (why)
      *why = std::string("no CUDA device (") + (err != cudaSuccess ? cudaGetErrorString(err) : "no devices found") + ")";
    cudaGetLastError();
    return false;
  }
  if (why) {
    cudaDeviceProp prop{};
    *why = cudaGetDeviceProperties(&prop, 0) == cudaSuccess ? prop.name : "CUDA device 0";
  }
  return true;
}

template <class T>
std::unique_ptr<PgsEngine<T>> make_pgs_cuda_engine(bool warp_per_system) {
  std::string why;
  if (!pgs_cuda_device_usable(&why)) throw Error("pgs: backend 'cuda' requested but " + why);
  return std::make_unique<PgsCudaEngine<T>>(warp_per_system);
}

template std::unique_ptr<PgsEngine<float>> make_pgs_cuda_engine<float>(bool);
template std::unique_ptr<PgsEngine<double>> make_pgs_cuda_engine<double>(bool);

}  // namespace fleetdyn
