// Precision conversion of the flat parameter structs (every member a scalar, or a struct or
// array of scalars): VehicleParams, CeParams. Host only.
#pragma once

#include <cstring>
#include <vector>

namespace fleetdyn {

template <template <class> class Params, class T>
Params<T> convert_scalars(const Params<double>& p) {
  static_assert(sizeof(Params<double>) % sizeof(double) == 0, "parameters must hold only scalars");
  constexpr int n = sizeof(Params<double>) / sizeof(double);
  static_assert(sizeof(Params<T>) == n * sizeof(T), "parameter layout must match between scalar types");
  std::vector<double> src(n);
  std::memcpy(src.data(), &p, sizeof(Params<double>));
  std::vector<T> dst(n);
  for (int i = 0; i < n; ++i) dst[i] = static_cast<T>(src[i]);
  Params<T> out;
  std::memcpy(&out, dst.data(), sizeof(Params<T>));
  return out;
}

}  // namespace fleetdyn
