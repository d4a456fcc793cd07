// Shared helpers of the ce model's tests.
#pragma once

#include <random>
#include <vector>

#include "fleetdyn/ce.h"

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

}  // namespace fleetdyn
