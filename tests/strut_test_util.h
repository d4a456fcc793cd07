// Helpers shared by the strut model tests: batches on the CPU, vehicle-level sums.
#pragma once

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "fleetdyn/batch.h"
#include "fleetdyn/error.h"
#include "fleetdyn/vehicle.h"

namespace fleetdyn {
namespace test {

inline BatchOptions cpu_options(Precision precision = Precision::Fp64) {
  BatchOptions o;
  o.backend = BackendKind::Cpu;
  o.precision = precision;
  o.step = 1.0e-3;
  return o;
}

// The plain seed-004 strut: straight wheel paths along body z and a linear coil (the lumped
// two-mass and bounce/pitch models describe exactly this; the linkage adds track change, which
// scrubs against the tires at rest, and the coil's progression).
inline StrutParams<double> plain_strut(StrutParams<double> p) {
  p.linkage_geometry = 0.0;
  p.progressive_spring = 0.0;
  finalize_vehicle_params(p);
  return p;
}

// The message of the fleetdyn::Error that `f` throws ("" if it throws none).
inline std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

inline TerrainSpec terrain_of(TerrainKind kind) {
  TerrainSpec t;
  t.desc.kind = kind;
  return t;
}

// One vehicle's raw state (batch.state() is [field][vehicle]).
inline std::vector<double> vehicle_state(Batch& b, int v) {
  const std::vector<double> all = b.state();
  const int n = b.vehicle_count();
  std::vector<double> s(b.state_size());
  for (int j = 0; j < b.state_size(); ++j) s[j] = all[static_cast<size_t>(j) * n + v];
  return s;
}

inline Vec3<double> vec_at(const std::vector<double>& s, int i) { return {s[i], s[i + 1], s[i + 2]}; }

// Total linear momentum [kg m/s] of body + wheel particles.
inline Vec3<double> total_momentum(const StrutParams<double>& p, const std::vector<double>& s) {
  const Vec3<double> v = vec_at(s, strut::kVel);
  Vec3<double> m = p.body_mass * v;
  for (int i = 0; i < kCorners; ++i) m += p.unsprung_mass[i] * (v + vec_at(s, strut::kUnsprungVel + 3 * i));
  return m;
}

inline double sum_normal_force(const StrutDiagnostics<double>& d) {
  double sum = 0.0;
  for (double f : d.tire_normal_force) sum += f;
  return sum;
}

inline Vec3<double> sum_tire_force(const StrutDiagnostics<double>& d) {
  Vec3<double> f{0.0, 0.0, 0.0};
  for (const auto& t : d.tire_force) f += t;
  return f;
}

}  // namespace test
}  // namespace fleetdyn
