// A small dense LU with partial pivoting (the factorization LAPACK's getrf and cuBLAS's
// getrfBatched compute), for the host side of the validation checks: the same solves the GPU
// makes with cuBLAS, without a GPU.
#pragma once

#include <cmath>

namespace fleetdyn {

// Solves a x = b in place for one n x n matrix `a` (row-major, overwritten by its LU factors)
// and right-hand side `b` (overwritten by x). Returns false, leaving `b` partly solved, when a
// pivot is exactly zero or not finite (singular or broken input).
template <class T>
bool dense_lu_solve(T* a, T* b, int n) {
  for (int k = 0; k < n; ++k) {
    int pivot = k;
    for (int r = k + 1; r < n; ++r) {
      if (std::fabs(a[r * n + k]) > std::fabs(a[pivot * n + k])) pivot = r;
    }
    const T p = a[pivot * n + k];
    if (!(p != T(0)) || !std::isfinite(p)) return false;
    if (pivot != k) {
      for (int c = 0; c < n; ++c) {
        const T t = a[k * n + c];
        a[k * n + c] = a[pivot * n + c];
        a[pivot * n + c] = t;
      }
      const T t = b[k];
      b[k] = b[pivot];
      b[pivot] = t;
    }
    for (int r = k + 1; r < n; ++r) {
      const T l = a[r * n + k] / p;
      a[r * n + k] = l;
      for (int c = k + 1; c < n; ++c) a[r * n + c] -= l * a[k * n + c];
      b[r] -= l * b[k];
    }
  }
  for (int r = n - 1; r >= 0; --r) {
    T s = b[r];
    for (int c = r + 1; c < n; ++c) s -= a[r * n + c] * b[c];
    b[r] = s / a[r * n + r];
  }
  return true;
}

}  // namespace fleetdyn
