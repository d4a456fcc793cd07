// Planar four-bar linkage in closed form (seed 001 section 5.1, eqs. 15-27), with the
// second-order term the constraint-embedding dynamics needs (seed eq. 14 for a four-bar).
//
// Loop (seed eq. 15), complex numbers in the linkage plane:
//   a + b exp(i theta) = c exp(i theta3) + d exp(i theta4)
// i.e. with the rocker pivot G at the origin and the crank pivot A at a on the real axis: the
// crank AD = b at absolute angle theta (the input), the rocker GF = d at theta4, the coupler
// FD = c at theta3. Used for the Pitman steering four-bar (seed section 5.4) and, in tests, as
// the planar special case of the 3-D double-wishbone closure.
#pragma once

#include "fleetdyn/physics/core/config.h"
#include "fleetdyn/physics/core/math.h"

namespace fleetdyn {

template <class T>
struct FourBarSolution {
  T theta3, theta4;            // [rad] absolute coupler and rocker angles (seed eqs. 20-21)
  T p, q;                      // [-] theta3_dot / theta_dot, theta4_dot / theta_dot (seed eqs. 25-26)
  T theta3_bias, theta4_bias;  // [rad/s^2] theta3_ddot, theta4_ddot when theta_ddot = 0
  bool assembled;              // false when no closure exists (|cos| > 1 in eq. 19); angles clamped
};

// branch: +1 or -1, the sign in seed eq. 20 (the assembly mode). theta_rate [rad/s] only enters
// the bias terms.
template <class T>
FLEETDYN_FN FourBarSolution<T> solve_four_bar(T a, T b, T c, T d, T theta, T branch, T theta_rate) {
  FourBarSolution<T> s;
  const T x = a + b * cos(theta);  // seed eq. 17
  const T y = b * sin(theta);
  const T r = sqrt(x * x + y * y);
  const T cos_arg = (x * x + y * y + d * d - c * c) / (T(2) * d * r);  // seed eq. 19
  s.assembled = cos_arg >= T(-1) && cos_arg <= T(1);
  // Seed eq. 20, theta4 = gamma +- acos(cos_arg) with gamma = atan2(y, x), evaluated through its
  // cosine and sine (no acos; the same form serves the 3-D closures in ce_kinematics.h).
  const T k = clamp(cos_arg, T(-1), T(1));
  const T k_perp = branch * sqrt(T(1) - k * k);
  const T cos4 = (k * x - k_perp * y) / r, sin4 = (k * y + k_perp * x) / r;
  s.theta4 = atan2(sin4, cos4);
  s.theta3 = atan2(y - d * sin(s.theta4), x - d * cos(s.theta4));    // seed eq. 21
  s.p = b * sin(theta - s.theta4) / (c * sin(s.theta3 - s.theta4));  // seed eq. 25
  s.q = b * sin(theta - s.theta3) / (d * sin(s.theta4 - s.theta3));  // seed eq. 26
  // Differentiating seed eq. 24 once more with theta_ddot = 0:
  //   c th3'' e^{i th3} + d th4'' e^{i th4} = i (b th'^2 e^{i th} - c th3'^2 e^{i th3} - d th4'^2 e^{i th4})
  // and taking imaginary parts after multiplying by e^{-i th4} and e^{-i th3}.
  const T w3 = s.p * theta_rate, w4 = s.q * theta_rate;
  const T sb = b * theta_rate * theta_rate, s3 = -c * w3 * w3, s4 = -d * w4 * w4;
  const T im_on_4 = sb * cos(theta - s.theta4) + s3 * cos(s.theta3 - s.theta4) + s4;
  const T im_on_3 = sb * cos(theta - s.theta3) + s3 + s4 * cos(s.theta4 - s.theta3);
  s.theta3_bias = im_on_4 / (c * sin(s.theta3 - s.theta4));
  s.theta4_bias = im_on_3 / (d * sin(s.theta4 - s.theta3));
  return s;
}

}  // namespace fleetdyn
