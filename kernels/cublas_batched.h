// cuBLAS batched LU for the validation checks' dense systems (kernels/ce_validate.cu,
// kernels/pgs_validate.cu): error handling, a stream with its handle, the per-system pointer
// arrays, and getrfBatched + getrsBatched in one call.
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstddef>
#include <string>
#include <vector>

#include "fleetdyn/error.h"
#include "kernels/cuda_check.h"
#include "kernels/device_buffer.h"

#define FLEETDYN_CUBLAS_TRY(call)                                                                           \
  do {                                                                                                      \
    const cublasStatus_t fleetdyn_cublas_status = (call);                                                   \
    if (fleetdyn_cublas_status != CUBLAS_STATUS_SUCCESS) {                                                  \
      throw ::fleetdyn::Error(std::string("cuBLAS error at ") + __FILE__ + ":" + std::to_string(__LINE__) + \
                              ": " #call ": " + cublasGetStatusName(fleetdyn_cublas_status) + " (" +        \
                              cublasGetStatusString(fleetdyn_cublas_status) + ")");                         \
    }                                                                                                       \
  } while (0)

namespace fleetdyn {

constexpr int kValidateThreadsPerBlock = 128;

// A stream and a cuBLAS handle bound to it, released on every path out.
struct CublasStream {
  cudaStream_t stream = nullptr;
  cublasHandle_t handle = nullptr;
  CublasStream() {
    FLEETDYN_CUDA_TRY(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    FLEETDYN_CUBLAS_TRY(cublasCreate(&handle));
    FLEETDYN_CUBLAS_TRY(cublasSetStream(handle, stream));
  }
  ~CublasStream() {
    if (handle) cublasDestroy(handle);
    if (stream) {
      cudaStreamSynchronize(stream);
      cudaStreamDestroy(stream);
    }
  }
  CublasStream(const CublasStream&) = delete;
  CublasStream& operator=(const CublasStream&) = delete;
};

// Sizes a device buffer to `count` zeros (the kernels overwrite them), zeroed on the device in
// the stream's order: no host copy.
template <class E>
void allocate(DeviceBuffer<E>& buffer, std::size_t count, cudaStream_t stream) {
  buffer.resize(count);
  buffer.zero(stream);
}

// Pointers to each system's block of `stride` scalars in `base`, on the device.
template <class T>
void upload_batch_pointers(T* base, int count, std::size_t stride, DeviceBuffer<T*>& out, cudaStream_t stream) {
  std::vector<T*> host(count);
  for (int v = 0; v < count; ++v) host[v] = base + static_cast<std::size_t>(v) * stride;
  out.upload(host, stream);
  FLEETDYN_CUDA_TRY(cudaStreamSynchronize(stream));  // `host` goes out of scope
}

// cublas<t>getrfBatched / getrsBatched by scalar type (one right-hand side, lda = ldb = n).
inline cublasStatus_t getrf_batched(cublasHandle_t h, int n, float* const a[], int* pivots, int* info, int batch) {
  return cublasSgetrfBatched(h, n, a, n, pivots, info, batch);
}
inline cublasStatus_t getrf_batched(cublasHandle_t h, int n, double* const a[], int* pivots, int* info, int batch) {
  return cublasDgetrfBatched(h, n, a, n, pivots, info, batch);
}
inline cublasStatus_t getrs_batched(cublasHandle_t h, int n, const float* const a[], const int* pivots,
                                    float* const b[], int* info, int batch) {
  return cublasSgetrsBatched(h, CUBLAS_OP_N, n, 1, a, n, pivots, b, n, info, batch);
}
inline cublasStatus_t getrs_batched(cublasHandle_t h, int n, const double* const a[], const int* pivots,
                                    double* const b[], int* info, int batch) {
  return cublasDgetrsBatched(h, CUBLAS_OP_N, n, 1, a, n, pivots, b, n, info, batch);
}

// Factors the `batch` column-major n x n matrices `a` (partial pivoting) and solves each for its
// right-hand side in `b`, in place. `info` receives getrf's per-system result (0: factored; k > 0:
// U(k, k) is exactly zero, the solution is not usable).
template <class T>
void lu_solve_batched(const CublasStream& cs, int n, const DeviceBuffer<T*>& a, DeviceBuffer<int>& pivots,
                      DeviceBuffer<int>& info, const DeviceBuffer<T*>& b, int batch) {
  allocate(pivots, static_cast<std::size_t>(batch) * n, cs.stream);
  allocate(info, batch, cs.stream);
  FLEETDYN_CUBLAS_TRY(getrf_batched(cs.handle, n, a.data(), pivots.data(), info.data(), batch));
  int arg_info = 0;  // getrs reports a bad argument here (a singular factor is getrf's info)
  FLEETDYN_CUBLAS_TRY(getrs_batched(cs.handle, n, a.data(), pivots.data(), b.data(), &arg_info, batch));
  if (arg_info != 0) throw Error("validate: cuBLAS getrsBatched rejected argument " + std::to_string(-arg_info));
}

}  // namespace fleetdyn
