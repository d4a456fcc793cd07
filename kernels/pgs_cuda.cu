// CUDA backend of the pgs batch, two kernels over the single-source step (physics/pgs/step.h),
// all requested steps in one launch, state in global memory component-major (stride =
// system_count):
//   - a thread per system, its scratch component-major too: consecutive threads read
//     consecutive addresses of each component;
//   - lanes of a warp per system (pgs_step_warp_kernel), its scratch in shared memory. The CPU
//     runs the same colored order with one lane (PgsSolverSettings::colored_sweeps), which is how
//     the tests cover its arithmetic.
#include <cuda_runtime.h>

#include <algorithm>
#include <string>
#include <vector>

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

// A group of `lanes` lanes per system (lanes: a power of two, the widest row color rounded up, so
// no lane of a color idles needlessly; 32 / lanes systems per warp). The system's scratch is in
// shared memory, contiguous (stride 1), when it fits (shared = true), else in its own contiguous
// block of `scratch`. Lane 0 of the group prepares the step (forces, rows, warm start) and
// finishes it; all lanes split each row color of every sweep and the residual
// (pgs_sweep_colored, pgs_residual), synchronizing per color. The lanes of a group only ever
// synchronize among themselves, so groups (systems) of a warp go their own ways.
template <class T>
__global__ void pgs_step_warp_kernel(pgs::ModelView<T> model, T* state, T* scratch, T* report, int* status,
                                     int* iterations, int n, int steps, int lanes, bool shared) {
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  const long long thread = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const int s = static_cast<int>(thread / lanes);
  const int lane = static_cast<int>(thread % lanes);
  if (s >= n) return;  // uniform across the group: its lanes share s
  const int size = pgs::scratch_size(model.body_count, model.row_count);
  T* own = shared ? reinterpret_cast<T*>(shared_bytes) + static_cast<long long>(threadIdx.x / lanes) * size
                  : scratch + static_cast<long long>(s) * size;
  const pgs::Strided<T> st{state, n, s};
  const pgs::Strided<T> sc{own, 1, 0};
  const pgs::Strided<T> rp{report, n, s};
  for (int k = 0; k < steps; ++k) {
    const int frozen = pgs::lane0_value(status[s] & pgs::kStatusNonFinite, lanes);  // read before lane 0 writes
    if (frozen) return;
    pgs::RowBuild<T> build{};
    if (lane == 0) pgs::pgs_step_prepare(model, st, sc, status[s], &build);
    pgs::lane_sync(lanes);
    T bilateral = T(0), complementarity = T(0);
    const int sweeps = pgs::pgs_solve(model, sc, &bilateral, &complementarity, lane, lanes);
    if (lane == 0) {
      iterations[s] = sweeps;
      pgs::pgs_step_finish(model, st, sc, rp, &status[s], build, bilateral, complementarity);
    }
    pgs::lane_sync(lanes);
  }
}

// Lanes per system for the warp kernel: the widest color rounded up to a power of two (1 .. 32).
inline int lanes_for_colors(const std::vector<int>& color_begin) {
  int widest = 1;
  for (size_t c = 0; c + 1 < color_begin.size(); ++c) widest = std::max(widest, color_begin[c + 1] - color_begin[c]);
  int lanes = 1;
  while (lanes < widest && lanes < 32) lanes *= 2;
  return lanes;
}

template <class T>
class PgsCudaEngine final : public PgsEngine<T> {
 public:
  explicit PgsCudaEngine(bool warp_per_system) : warp_per_system_(warp_per_system) {
    FLEETDYN_CUDA_TRY(cudaStreamCreate(&stream_));
    cudaDeviceProp prop{};
    FLEETDYN_CUDA_TRY(cudaGetDeviceProperties(&prop, 0));
    shared_limit_ = prop.sharedMemPerBlockOptin;
    name_ = std::string(prop.name) + (warp_per_system ? " (lanes per system)" : " (thread per system)");
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
    const size_t scratch = static_cast<size_t>(pgs::scratch_size(view_.body_count, view_.row_count));
    shared_bytes_ = 0;
    if (warp_per_system_) {
      // The warp kernel's scratch: in shared memory, one block (warp) of 32 / lanes systems, when
      // it fits the block's opt-in limit; else one contiguous block per system in global memory.
      lanes_ = lanes_for_colors(model_.color_begin);
      const size_t bytes = sizeof(T) * scratch * static_cast<size_t>(32 / lanes_);
      if (bytes <= shared_limit_) {
        FLEETDYN_CUDA_TRY(cudaFuncSetAttribute(pgs_step_warp_kernel<T>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                               static_cast<int>(bytes)));
        shared_bytes_ = bytes;
      }
    }
    scratch_.resize(shared_bytes_ > 0 ? 0 : scratch * static_cast<size_t>(n));
    scratch_.zero(stream_);  // on the device: no host copy of the zeros
    write(arrays);
  }

  void step(int steps) override {
    if (warp_per_system_) {
      const int systems_per_block = 32 / lanes_;  // a block is one warp
      const int grid = (n_ + systems_per_block - 1) / systems_per_block;
      pgs_step_warp_kernel<T><<<grid, 32, shared_bytes_, stream_>>>(view_, state_.data(), scratch_.data(),
                                                                    report_.data(), status_.data(), iterations_.data(),
                                                                    n_, steps, lanes_, shared_bytes_ > 0);
    } else {
      const int block = 128;
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
  size_t shared_limit_ = 0;  // [B] dynamic shared memory a block may opt in to
  size_t shared_bytes_ = 0;  // [B] the warp kernel's dynamic shared memory per block (0: scratch in global memory)
  int lanes_ = 32;           // the warp kernel's lanes per system
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
