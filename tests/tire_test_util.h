// Helpers shared by the TMeasy tire tests: precision-aware tolerances, the typed fixture over
// float and double, relative comparisons and the steady-state forces.
#pragma once

#include <gtest/gtest.h>

#include <cmath>

#include "fleetdyn/physics/core/tire_tmeasy.h"

namespace fleetdyn {
namespace test {

// Precision-aware tolerances: "rel" for closed-form identities, "fd_step"/"fd_rel" for finite
// differences of the initial slope, "sim_rel" for integrated results compared to closed forms.
template <class T>
struct Tol;
template <>
struct Tol<float> {
  static constexpr double rel = 2e-5;
  static constexpr double fd_step = 1e-4;  // relative to sm
  static constexpr double fd_rel = 1e-3;
  static constexpr double sim_rel = 1e-3;
  static constexpr double sim_rate = 1e-5;  // [m/s]; a float state stalls once rate*dt < ulp
};
template <>
struct Tol<double> {
  static constexpr double rel = 1e-11;
  static constexpr double fd_step = 1e-7;
  static constexpr double fd_rel = 1e-6;
  static constexpr double sim_rel = 1e-6;
  static constexpr double sim_rate = 1e-9;
};

template <class T>
class TireTest : public ::testing::Test {};
using Scalars = ::testing::Types<float, double>;

constexpr double kG = 9.81;  // gravity [m/s^2]

template <class T>
void expect_rel(T actual, double expected, double rel, const char* what) {
  EXPECT_NEAR(static_cast<double>(actual), expected, rel * std::fabs(expected) + 1e-30) << what;
}

template <class T>
T steady_fx(const TireParams<T>& p, T fz, T sx, T sy) {
  T fx, fy;
  tmeasy_steady_forces(p, fz, sx, sy, &fx, &fy);
  return fx;
}
template <class T>
T steady_fy(const TireParams<T>& p, T fz, T sx, T sy) {
  T fx, fy;
  tmeasy_steady_forces(p, fz, sx, sy, &fx, &fy);
  return fy;
}

}  // namespace test
}  // namespace fleetdyn
