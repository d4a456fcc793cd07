// The pgs check on the GPU (host/validate/validation_engine.h): one thread per vehicle steps it
// through its configured sweeps (the core's scratch in global memory, component-major) and
// assembles its bilateral rows' direct system (physics/pgs/pgs_dense.h, the source the CPU
// check runs); cuBLAS getrfBatched / getrsBatched solve every vehicle's system; one thread per
// vehicle compares the swept impulses with the direct ones.
#include <cuda_runtime.h>

#include <cmath>
#include <string>
#include <vector>

#include "fleetdyn/physics/ce/ce_dense.h"
#include "fleetdyn/physics/pgs/pgs_dense.h"
#include "host/backend/cuda_engine.h"
#include "host/validate/validation_engine.h"
#include "kernels/cublas_batched.h"
#include "kernels/cuda_check.h"
#include "kernels/device_buffer.h"

namespace fleetdyn {
namespace {

template <class T>
__global__ void __launch_bounds__(kValidateThreadsPerBlock)
    pgs_dense_kernel(PgsCheckView<T> view, T* system, T* rhs, T* lambda, T* residual) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= view.vehicle_count) return;
  const size_t nb = static_cast<size_t>(view.bilateral), at = static_cast<size_t>(v);
  // The system is symmetric: its row-major storage is the column-major matrix cuBLAS reads.
  residual[v] = pgs_dense_check_vehicle(view, v, system + at * nb * nb, rhs + at * nb, lambda + at * nb);
}

template <class T>
__global__ void __launch_bounds__(kValidateThreadsPerBlock)
    pgs_compare_kernel(int vehicles, int nb, const T* lambda, const T* solution, const int* info, T* residual, T* difference) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= vehicles) return;
  const size_t at = static_cast<size_t>(v) * nb;
  const bool frozen = residual[v] < T(0);
  if (frozen) residual[v] = T(NAN);
  difference[v] = frozen || info[v] != 0 ? T(NAN) : max_relative_difference(lambda + at, solution + at, nb);
}

}  // namespace

template <class T>
PgsCheckErrors<T> pgs_validate_cuda(const PgsValidationArrays<T>& a, std::string* device) {
  std::string why;
  if (!cuda_device_usable(&why)) throw Error("validate: backend 'cuda' requested but " + why);
  if (device) *device = current_cuda_device_name();
  const int n = a.vehicle_count, nb = a.bilateral;
  const size_t system_size = static_cast<size_t>(nb) * nb;
  CublasStream cs;
  DeviceBuffer<PgsVehicleParams<T>> params;
  DeviceBuffer<T> heightfield, state, origin, inputs, scratch, system, rhs, lambda, residual, difference;
  params.upload(a.params, cs.stream);
  heightfield.upload(a.heightfield, cs.stream);
  state.upload(a.state, cs.stream);
  origin.upload(a.origin, cs.stream);
  inputs.upload(a.inputs, cs.stream);
  allocate(scratch, static_cast<size_t>(n) * pgsv::kScratchSize, cs.stream);
  allocate(system, static_cast<size_t>(n) * system_size, cs.stream);
  allocate(rhs, static_cast<size_t>(n) * nb, cs.stream);
  allocate(lambda, static_cast<size_t>(n) * nb, cs.stream);
  allocate(residual, n, cs.stream);
  allocate(difference, n, cs.stream);
  PgsCheckView<T> view{n,
                       params.data(),
                       static_cast<int>(a.params.size()),
                       a.terrain,
                       a.step,
                       nb,
                       state.data(),
                       origin.data(),
                       inputs.data(),
                       scratch.data()};
  view.terrain.hf_heights = heightfield.data();
  view.terrain.per_lane = nullptr;

  const int blocks = (n + kValidateThreadsPerBlock - 1) / kValidateThreadsPerBlock;
  pgs_dense_kernel<T><<<blocks, kValidateThreadsPerBlock, 0, cs.stream>>>(view, system.data(), rhs.data(),
                                                                          lambda.data(), residual.data());
  FLEETDYN_CUDA_TRY(cudaGetLastError());

  DeviceBuffer<T*> system_ptrs, rhs_ptrs;
  upload_batch_pointers(system.data(), n, system_size, system_ptrs, cs.stream);
  upload_batch_pointers(rhs.data(), n, static_cast<size_t>(nb), rhs_ptrs, cs.stream);
  DeviceBuffer<int> pivots, info;
  lu_solve_batched(cs, nb, system_ptrs, pivots, info, rhs_ptrs, n);

  pgs_compare_kernel<T><<<blocks, kValidateThreadsPerBlock, 0, cs.stream>>>(n, nb, lambda.data(), rhs.data(), info.data(),
                                                                            residual.data(), difference.data());
  FLEETDYN_CUDA_TRY(cudaGetLastError());
  PgsCheckErrors<T> out;
  difference.download(out.difference, cs.stream);
  residual.download(out.residual, cs.stream);
  FLEETDYN_CUDA_TRY(cudaStreamSynchronize(cs.stream));
  return out;
}

template PgsCheckErrors<float> pgs_validate_cuda<float>(const PgsValidationArrays<float>&, std::string*);
template PgsCheckErrors<double> pgs_validate_cuda<double>(const PgsValidationArrays<double>&, std::string*);

}  // namespace fleetdyn
