// The ce check on the GPU (host/validate/validation_engine.h): one thread per vehicle evaluates
// the recursion and assembles M and tau - C from the same corner bodies (physics/ce/ce_dense.h,
// the source the CPU check runs); cuBLAS getrfBatched / getrsBatched factor and solve every
// vehicle's 14 x 14 system (partial pivoting, as the CPU's LU); one thread per vehicle compares.
#include <cuda_runtime.h>

#include <cmath>
#include <string>
#include <vector>

#include "fleetdyn/physics/ce/ce_dense.h"
#include "host/backend/cuda_engine.h"
#include "host/validate/validation_engine.h"
#include "kernels/cublas_batched.h"
#include "kernels/cuda_check.h"
#include "kernels/device_buffer.h"

namespace fleetdyn {
namespace {

constexpr int kSystemSize = kCeDofs * kCeDofs;

template <class T>
__global__ void __launch_bounds__(kValidateThreadsPerBlock)
    ce_dense_kernel(CeCheckView<T> view, T* mass, T* rhs, T* recursion) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= view.vehicle_count) return;
  const size_t at = static_cast<size_t>(v);
  // M is symmetric: its row-major storage is the column-major matrix cuBLAS reads.
  ce_dense_check_vehicle(view, v, mass + at * kSystemSize, rhs + at * kCeDofs, recursion + at * kCeDofs);
}

template <class T>
__global__ void __launch_bounds__(kValidateThreadsPerBlock)
    ce_compare_kernel(CeCheckView<T> view, const T* recursion, const T* solution, const int* info, T* error) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= view.vehicle_count) return;
  const size_t at = static_cast<size_t>(v) * kCeDofs;
  error[v] = info[v] != 0 ? T(NAN) : ce_check_error(view.params[v % view.param_count], recursion + at, solution + at);
}

}  // namespace

template <class T>
std::vector<T> ce_validate_cuda(const CeValidationArrays<T>& a, std::string* device) {
  std::string why;
  if (!cuda_device_usable(&why)) throw Error("validate: backend 'cuda' requested but " + why);
  if (device) *device = current_cuda_device_name();
  const int n = a.vehicle_count;
  CublasStream cs;
  DeviceBuffer<CeParams<T>> params;
  DeviceBuffer<T> heightfield, state, origin, inputs, mass, rhs, recursion, error;
  params.upload(a.params, cs.stream);
  heightfield.upload(a.heightfield, cs.stream);
  state.upload(a.state, cs.stream);
  origin.upload(a.origin, cs.stream);
  inputs.upload(a.inputs, cs.stream);
  allocate(mass, static_cast<size_t>(n) * kSystemSize, cs.stream);
  allocate(rhs, static_cast<size_t>(n) * kCeDofs, cs.stream);
  allocate(recursion, static_cast<size_t>(n) * kCeDofs, cs.stream);
  allocate(error, n, cs.stream);
  CeCheckView<T> view{
      n, params.data(), static_cast<int>(a.params.size()), a.terrain, state.data(), origin.data(), inputs.data()};
  view.terrain.hf_heights = heightfield.data();
  view.terrain.per_lane = nullptr;

  const int blocks = (n + kValidateThreadsPerBlock - 1) / kValidateThreadsPerBlock;
  ce_dense_kernel<T><<<blocks, kValidateThreadsPerBlock, 0, cs.stream>>>(view, mass.data(), rhs.data(), recursion.data());
  FLEETDYN_CUDA_TRY(cudaGetLastError());

  DeviceBuffer<T*> mass_ptrs, rhs_ptrs;
  upload_batch_pointers(mass.data(), n, kSystemSize, mass_ptrs, cs.stream);
  upload_batch_pointers(rhs.data(), n, kCeDofs, rhs_ptrs, cs.stream);
  DeviceBuffer<int> pivots, info;
  lu_solve_batched(cs, kCeDofs, mass_ptrs, pivots, info, rhs_ptrs, n);

  ce_compare_kernel<T>
      <<<blocks, kValidateThreadsPerBlock, 0, cs.stream>>>(view, recursion.data(), rhs.data(), info.data(), error.data());
  FLEETDYN_CUDA_TRY(cudaGetLastError());
  std::vector<T> out;
  error.download(out, cs.stream);
  FLEETDYN_CUDA_TRY(cudaStreamSynchronize(cs.stream));
  return out;
}

template std::vector<float> ce_validate_cuda<float>(const CeValidationArrays<float>&, std::string*);
template std::vector<double> ce_validate_cuda<double>(const CeValidationArrays<double>&, std::string*);

}  // namespace fleetdyn
