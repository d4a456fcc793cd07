// Precision conversion of the flat parameter structs (every member a scalar, or a struct or
// array of scalars): VehicleParams, CeParams; and of the terrain descriptor. Host only.
#pragma once

#include <cstring>
#include <vector>

#include "fleetdyn/physics/terrain.h"

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

// The heightfield pointer is not carried over (a storage's view sets it to its own copy).
template <class T>
TerrainDesc<T> convert_terrain(const TerrainDesc<double>& d) {
  TerrainDesc<T> t;
  t.kind = d.kind;
  t.base_height = T(d.base_height);
  t.slope = T(d.slope);
  t.bank = T(d.bank);
  t.hill_x = T(d.hill_x);
  t.hill_y = T(d.hill_y);
  t.hill_height = T(d.hill_height);
  t.hill_radius = T(d.hill_radius);
  t.hf_x0 = T(d.hf_x0);
  t.hf_y0 = T(d.hf_y0);
  t.hf_dx = T(d.hf_dx);
  t.hf_dy = T(d.hf_dy);
  t.hf_nx = d.hf_nx;
  t.hf_ny = d.hf_ny;
  t.hf_heights = nullptr;  // the storage's view points at its own copy
  t.hf_height_scale = T(d.hf_height_scale);
  t.hf_periodic = d.hf_periodic;
  t.loop_x = T(d.loop_x);
  t.loop_radius = T(d.loop_radius);
  t.loop_lateral_shift = T(d.loop_lateral_shift);
  t.loop_track_width = T(d.loop_track_width);
  t.mu_scale = T(d.mu_scale);
  t.per_lane = nullptr;  // set by the SIMD lane runner for its own lanes only
  return t;
}

template <class T>
TerrainVariation<T> convert_terrain_variation(const TerrainVariation<double>& v) {
  return {T(v.shift_x), T(v.shift_y), T(v.relief_scale)};
}

}  // namespace fleetdyn
