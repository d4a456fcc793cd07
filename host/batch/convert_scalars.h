// Precision conversion of the flat parameter structs (every member a scalar, or a struct or
// array of scalars): StrutParams, CeParams; and of the terrain descriptor. Host only.
#pragma once

#include <cstring>
#include <vector>

#include "fleetdyn/physics/core/terrain.h"

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

// Every value field of FLEETDYN_TERRAIN_FIELDS (scalars rounded to T, counts and flags as they
// are); the pointers are not carried over: the storage's view points hf_heights at its own copy,
// and per_lane is set by the SIMD lane runner for its own lanes only.
template <class T>
TerrainDesc<T> convert_terrain(const TerrainDesc<double>& d) {
  TerrainDesc<T> t;
#define FLEETDYN_CONVERT_TERRAIN_FIELD(name) t.name = static_cast<decltype(t.name)>(d.name);
  FLEETDYN_TERRAIN_FIELDS(FLEETDYN_CONVERT_TERRAIN_FIELD)
#undef FLEETDYN_CONVERT_TERRAIN_FIELD
  t.hf_heights = nullptr;
  t.per_lane = nullptr;
  return t;
}

template <class T>
TerrainVariation<T> convert_terrain_variation(const TerrainVariation<double>& v) {
  TerrainVariation<T> t{T(v.shift_x), T(v.shift_y), T(v.relief_scale), v.soil_varied, {}, T(0), T(0)};
#define FLEETDYN_CONVERT_SOIL_FIELD(unused, name) t.soil.name = static_cast<T>(v.soil.name);
  FLEETDYN_SOIL_FIELDS(FLEETDYN_CONVERT_SOIL_FIELD, )
#undef FLEETDYN_CONVERT_SOIL_FIELD
  t.curb_rise = T(v.curb_rise);
  t.curb_offset = T(v.curb_offset);
  return t;
}

}  // namespace fleetdyn
