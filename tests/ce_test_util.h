// Shared helpers of the ce model's tests.
#pragma once

#include <cmath>
#include <random>
#include <vector>

#include "fleetdyn/ce.h"
#include "tests/strut_test_util.h"

namespace fleetdyn {

// A state far from rest: every velocity nonzero, the suspension and steering displaced, the
// chassis tilted and partly off the ground (so some tires carry load and some don't).
inline std::vector<double> agitated_state(const CeParams<double>& p, std::mt19937& rng) {
  using namespace ce;
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<double> s = ce_rest_state(p);
  s[kPos + 2] += 0.03 * u(rng);
  store_quat(s.data(), kQuat, quat_from_euler_zyx(0.08 * u(rng), 0.05 * u(rng), 0.3 * u(rng)));
  for (int k = 0; k < 3; ++k) {
    s[kOmega + k] = 1.5 * u(rng);
    s[kVel + k] = (k == 0 ? 12.0 : 1.0) + 2.0 * u(rng);
  }
  for (int i = 0; i < kCorners; ++i) {
    s[kLca + i] += 0.15 * u(rng);
    s[kLcaRate + i] = 4.0 * u(rng);
    s[kWheelSpin + i] = 30.0 + 5.0 * u(rng);
    s[kDeflLong + i] = 0.002 * u(rng);
    s[kDeflLat + i] = 0.002 * u(rng);
  }
  s[kSteer] = 0.3 * u(rng);
  return s;
}

namespace test {

constexpr double kCeStep = 2.0e-3;  // the ce model's default step for the HMMWV (ce_step_analysis)

inline BatchOptions ce_options(Precision precision = Precision::Fp64) {
  BatchOptions o = cpu_options(precision);
  o.step = kCeStep;
  return o;
}

// 6 s: accelerate, step steer left, reverse to the right, brake.
inline Maneuver ce_maneuver() {
  return {{0.0, 0.0, 0.4, 0.0},  {1.0, 0.0, 0.4, 0.0},  {1.3, 0.4, 0.3, 0.0}, {3.0, 0.4, 0.3, 0.0},
          {3.5, -0.4, 0.3, 0.0}, {4.5, -0.4, 0.0, 0.0}, {5.0, 0.0, 0.0, 0.5}, {6.0, 0.0, 0.0, 0.5}};
}

// Vehicles that differ in chassis mass, spring rates and tire friction.
inline std::vector<CeParams<double>> varied_ce_params(int count) {
  std::vector<CeParams<double>> params;
  for (int v = 0; v < count; ++v) {
    CeParams<double> p = hmmwv_ce_params();
    const double u = count > 1 ? static_cast<double>(v) / (count - 1) : 0.0;
    p.chassis_mass *= 0.9 + 0.2 * u;
    p.axle[0].spring_rate *= 0.8 + 0.4 * std::fmod(7.0 * u, 1.0);
    p.axle[1].spring_rate *= 0.8 + 0.4 * std::fmod(13.0 * u, 1.0);
    p.tire.mu *= 0.7 + 0.4 * std::fmod(3.0 * u, 1.0);
    params.push_back(p);
  }
  return params;
}

}  // namespace test

}  // namespace fleetdyn
