// Helpers shared by the strut model tests: batches on the CPU, vehicle-level sums.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
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

// 10 s with everything in it: accelerate, a step steer, a reversal, braking.
inline Maneuver strut_test_maneuver() {
  return {{0.0, 0.0, 0.4, 0.0},   {2.0, 0.0, 0.4, 0.0},   {2.5, 0.35, 0.3, 0.0}, {5.0, 0.35, 0.3, 0.0},
          {5.6, -0.35, 0.3, 0.0}, {7.5, -0.35, 0.0, 0.0}, {8.0, 0.0, 0.0, 0.6},  {10.0, 0.0, 0.0, 0.6}};
}

// Vehicles that differ (mass, CG height, wheel rates, tire friction), so a backend that read
// another vehicle's parameters or state would fail the comparisons.
inline std::vector<StrutParams<double>> varied_strut_params(int count) {
  std::vector<StrutParams<double>> params;
  for (int v = 0; v < count; ++v) {
    StrutParams<double> p = hmmwv_params();
    const double u = count > 1 ? static_cast<double>(v) / (count - 1) : 0.0;  // 0..1 across the batch
    p.total_mass *= 0.9 + 0.2 * u;
    p.cg_height *= 0.85 + 0.3 * std::fmod(7.0 * u, 1.0);
    p.wheel_rate_front *= 0.8 + 0.4 * std::fmod(13.0 * u, 1.0);
    p.wheel_rate_rear *= 0.8 + 0.4 * std::fmod(11.0 * u, 1.0);
    p.tire.mu *= 0.7 + 0.4 * std::fmod(3.0 * u, 1.0);
    finalize_vehicle_params(p);
    params.push_back(p);
  }
  return params;
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

// The terrain under each wheel centre of a one-vehicle batch.
inline std::array<TerrainContact<double>, kCorners> wheel_contacts(Batch& b, const TerrainDesc<double>& terrain) {
  const std::vector<double> s = vehicle_state(b, 0);
  const std::vector<double> origin = b.origins();
  std::array<TerrainContact<double>, kCorners> contacts;
  for (int i = 0; i < kCorners; ++i) {
    const Vec3<double> wheel = vec_at(s, strut::kPos) + vec_at(s, strut::kUnsprungPos + 3 * i);
    contacts[static_cast<size_t>(i)] = terrain_query(terrain, wheel, origin[0], origin[1]);
  }
  return contacts;
}

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

// The energy ledger of vehicle 0 (Batch::mechanical_energy: strut's EnergyLedger total, any model's) sampled `samples` times every `steps_per_sample` steps: how often
// it rose beyond the round-off of a sum of ~10 terms of up to |E| in fp64, and by how much at most.
struct LedgerRun {
  double initial, final;
  int increases;            // samples whose total exceeds the previous one beyond round-off
  double largest_increase;  // [J]
};

// A ledger read at the caller's samples: counts every rise beyond round-off between two of them.
struct LedgerWatch {
  LedgerRun run;
  double previous;
  explicit LedgerWatch(double initial) : run{initial, initial, 0, 0.0}, previous(initial) {}
  void sample(double e) {
    if (e - previous > 1e-12 * std::fabs(run.initial)) {  // round-off of a sum of ~10 terms in fp64
      ++run.increases;
      run.largest_increase = std::max(run.largest_increase, e - previous);
    }
    previous = e;
    run.final = e;
  }
};

inline LedgerRun sample_energy(Batch& batch, int samples, int steps_per_sample) {
  LedgerRun run{batch.mechanical_energy(0), 0.0, 0, 0.0};
  double previous = run.initial;
  for (int k = 0; k < samples; ++k) {
    batch.step(steps_per_sample);
    const double e = batch.mechanical_energy(0);
    // Round-off of a sum of ~10 terms of up to |E| in fp64.
    if (e - previous > 1e-12 * std::fabs(run.initial)) {
      ++run.increases;
      run.largest_increase = std::max(run.largest_increase, e - previous);
    }
    previous = e;
  }
  run.final = previous;
  EXPECT_EQ(batch.status()[0], kStatusRunning);
  return run;
}

}  // namespace test
}  // namespace fleetdyn
