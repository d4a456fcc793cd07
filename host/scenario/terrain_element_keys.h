// The keys of a terrain's curb and soil region as its readers take them: a scenario file's
// terrain.curb / terrain.soil (host/scenario/scenario.cpp) and the Python module's
// terrain['curb'] / terrain['soil'] (python/src/terrain_from.cpp). Names, units as written,
// defaults, allowed ranges and how the values set the descriptor live here, once; each reader
// reads a key and reports a bad one in its own way. Header-only: the Python module may be built
// without the scenario reader.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "fleetdyn/physics/core/math.h"
#include "fleetdyn/physics/core/terrain.h"
#include "fleetdyn/physics/core/terrain_soil.h"

namespace fleetdyn {

// A number key as written: allowed in [lo, hi] ((lo, hi] where lo_open), in `unit`.
struct TerrainNumberKey {
  const char* name;
  double lo, hi;
  const char* unit;
  double fallback;        // its value when left out
  bool required = false;  // no fallback: a missing key is an error
  bool lo_open = false;
};

// A reader's `read(key, &value)`: false when the key is left out (value untouched), else true with
// the value checked against the key's range (a bad value or a missing required key throws).

// ---- curb (physics/core/terrain_curb.h) -----------------------------------------------------------

namespace curb_keys {
constexpr TerrainNumberKey height{"height", 0.0, 2.0, "m", 0.0, true, true};
constexpr TerrainNumberKey x{"x", -1.0e7, 1.0e7, "m", 0.0};
constexpr TerrainNumberKey y{"y", -1.0e7, 1.0e7, "m", 0.0};
constexpr TerrainNumberKey heading_deg{"heading_deg", -360.0, 360.0, "deg", 0.0};
constexpr TerrainNumberKey face_angle_deg{"face_angle_deg", 5.0, 90.0, "deg", 90.0};
constexpr TerrainNumberKey width{"width", 0.0, 1.0e3, "m", 0.0};
constexpr TerrainNumberKey edge_radius{"edge_radius", 0.0, HUGE_VAL, "m", 0.0};  // hi: curb_edge_radius_max
}  // namespace curb_keys

// A curb stands on the base ground where curb_stands_on(kind) (physics/core/terrain.h).

// The names a curb takes, in the order messages list them.
inline std::vector<std::string> curb_key_names() {
  using namespace curb_keys;
  return {height.name, x.name, y.name, heading_deg.name, face_angle_deg.name, edge_radius.name, width.name};
}

// The largest edge radius [m] the profile holds: the arc's tangent length r tan(alpha/2) at most
// the face length H / sin(alpha) and, on a ridge (width > 0), half its top width.
inline double curb_edge_radius_max(double height, double face_angle, double width) {
  const double half_tan = std::tan(0.5 * face_angle);
  double r_max = height / (std::sin(face_angle) * half_tan);
  if (width > 0.0) r_max = std::min(r_max, 0.5 * width / half_tan);
  return r_max;
}

// The curb's descriptor fields from its keys (angles in degrees as written, radians in d).
// Width is read before the edge radius, whose limit it sets.
template <class Read>
void read_curb(TerrainDesc<double>& d, Read&& read) {
  const auto get = [&](const TerrainNumberKey& k) {
    double v = k.fallback;
    read(k, &v);
    return v;
  };
  d.curb_height = get(curb_keys::height);
  d.curb_x = get(curb_keys::x);
  d.curb_y = get(curb_keys::y);
  d.curb_heading = get(curb_keys::heading_deg) * kPi / 180.0;
  d.curb_offset = 0.0;
  d.curb_face_angle = get(curb_keys::face_angle_deg) * kPi / 180.0;
  d.curb_width = get(curb_keys::width);
  TerrainNumberKey edge = curb_keys::edge_radius;
  edge.hi = curb_edge_radius_max(d.curb_height, d.curb_face_angle, d.curb_width);
  d.curb_edge_radius = get(edge);
}

// ---- soil region (physics/core/terrain_soil.h) -------------------------------------------------------

constexpr SoilPreset kSoilDefaultPreset = SoilPreset::DrySand;  // when 'preset' is left out

namespace soil_keys {
// The rectangle [m], open on a side whose bound is left out; the slip reference speed.
constexpr TerrainNumberKey x_min{"x_min", -1.0e7, 1.0e7, "m", -HUGE_VAL};
constexpr TerrainNumberKey x_max{"x_max", -1.0e7, 1.0e7, "m", HUGE_VAL};
constexpr TerrainNumberKey y_min{"y_min", -1.0e7, 1.0e7, "m", -HUGE_VAL};
constexpr TerrainNumberKey y_max{"y_max", -1.0e7, 1.0e7, "m", HUGE_VAL};
constexpr TerrainNumberKey slip_speed{"slip_speed", kSoilSlipSpeedMin, kSoilSlipSpeedMax, "m/s", kSoilSlipSpeed};
constexpr TerrainNumberKey edge_width{"edge_width", 0.0, kSoilEdgeWidthMax, "m", kSoilEdgeWidth};

// A soil parameter overriding the preset's: the friction angle is written in degrees and checked
// in that unit; the others are any finite number here, their ranges check_soil_params'.
struct Override {
  TerrainNumberKey key;
  double SoilParams<double>::*member;
  double scale;  // written unit -> SI
};
constexpr double kDeg = kPi / 180.0;
constexpr TerrainNumberKey unchecked(const char* name) { return {name, -HUGE_VAL, HUGE_VAL, "", 0.0}; }
constexpr Override overrides[] = {{unchecked("k_c"), &SoilParams<double>::k_c, 1.0},
                                  {unchecked("k_phi"), &SoilParams<double>::k_phi, 1.0},
                                  {unchecked("n"), &SoilParams<double>::n, 1.0},
                                  {unchecked("cohesion"), &SoilParams<double>::cohesion, 1.0},
                                  {{"friction_angle_deg", 0.0, kSoilFrictionAngleMax / kDeg, "deg", 0.0},
                                   &SoilParams<double>::friction_angle,
                                   kDeg},
                                  {unchecked("shear_modulus"), &SoilParams<double>::shear_modulus, 1.0},
                                  {unchecked("c1"), &SoilParams<double>::c1, 1.0},
                                  {unchecked("c2"), &SoilParams<double>::c2, 1.0},
                                  {unchecked("unit_weight"), &SoilParams<double>::unit_weight, 1.0}};
}  // namespace soil_keys

// The names a soil region takes, in the order messages list them.
inline std::vector<std::string> soil_key_names() {
  using namespace soil_keys;
  std::vector<std::string> names = {"preset",   x_min.name,      x_max.name,     y_min.name,
                                    y_max.name, slip_speed.name, edge_width.name};
  for (const auto& o : overrides) names.emplace_back(o.key.name);
  return names;
}

// The soil region's descriptor fields from the preset's parameters (soil_preset; the reader looks
// up the name) and the number keys. The caller then checks the whole with check_terrain_soil.
template <class Read>
void read_soil(TerrainDesc<double>& d, const SoilParams<double>& preset, Read&& read) {
  d.soil_region = 1;
  d.soil = preset;
  read(soil_keys::x_min, &d.soil_x_min);
  read(soil_keys::x_max, &d.soil_x_max);
  read(soil_keys::y_min, &d.soil_y_min);
  read(soil_keys::y_max, &d.soil_y_max);
  read(soil_keys::slip_speed, &d.soil_slip_speed);
  read(soil_keys::edge_width, &d.soil_edge_width);
  for (const auto& o : soil_keys::overrides) {
    double v = 0.0;
    if (read(o.key, &v)) d.soil.*o.member = v * o.scale;
  }
}

}  // namespace fleetdyn
