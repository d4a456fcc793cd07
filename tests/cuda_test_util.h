// Helpers for the CUDA-against-CPU tests: the vehicle counts they run at, and the vehicles whose
// CPU reference is computed when the batch is large.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "fleetdyn/batch.h"

namespace fleetdyn {
namespace test {

// Awkward sizes: 13 leaves a partial warp of the four-lanes-per-vehicle kernels (and a partial
// block of the pgs kernel); 1001 is many full warps and a last one with one vehicle in it.
inline const std::vector<int>& cuda_awkward_counts() {
  static const std::vector<int> counts = {13, 1001};
  return counts;
}

// The vehicles of an n-vehicle batch whose CPU reference a CUDA test computes: all of them up to
// 3 each + 1; beyond, the first `each`, `each` in the middle and the last each + 1 (the last
// warp, partial or not). A vehicle's CPU result is the same in any batch (test_batch_contract.cpp),
// so the reference runs in a batch of these alone and its CPU time does not grow with n.
inline std::vector<int> cuda_probe_vehicles(int n, int each) {
  std::vector<int> ids;
  const int mid = n / 2 - each / 2;
  for (int v = 0; v < n; ++v) {
    if (n <= 3 * each + 1 || v < each || (v >= mid && v < mid + each) || v >= n - each - 1) ids.push_back(v);
  }
  return ids;
}

// The entries of `all` at `ids`.
template <class T>
std::vector<T> pick(const std::vector<T>& all, const std::vector<int>& ids) {
  std::vector<T> out;
  out.reserve(ids.size());
  for (int v : ids) out.push_back(all[static_cast<size_t>(v)]);
  return out;
}

// A CUDA case: one vehicle's run copied to `vehicles` vehicles on the device and compared, each of
// them, with the one run on the CPU (so the CPU side costs one vehicle whatever the count).
struct CudaCase {
  int vehicles;
  Precision precision;
};

// 1 vehicle, 13 and 1001, each fp64 and fp32.
inline std::vector<CudaCase> cuda_copied_cases() {
  std::vector<CudaCase> cases;
  for (int n : {1, 13, 1001}) {
    for (Precision precision : {Precision::Fp64, Precision::Fp32}) cases.push_back(CudaCase{n, precision});
  }
  return cases;
}

inline std::string cuda_case_name(const ::testing::TestParamInfo<CudaCase>& info) {
  return std::to_string(info.param.vehicles) + "Vehicles" + (info.param.precision == Precision::Fp64 ? "Fp64" : "Fp32");
}

// The batch contract's CUDA-against-CPU bounds: positions fp64 within 1e-9 relative (of at least
// 1 m), fp32 within 1 cm; metrics fp64 within 1e-6 relative, fp32 within 5e-2.
inline double cuda_position_tolerance(Precision precision, double scale) {
  return precision == Precision::Fp64 ? 1e-9 * std::max(1.0, std::fabs(scale)) : 0.01;
}
inline double cuda_metric_tolerance(Precision precision, double value) {
  return (precision == Precision::Fp64 ? 1e-6 : 5e-2) * std::max(1.0, std::fabs(value));
}

}  // namespace test
}  // namespace fleetdyn
