// The strut model's linkage geometry (seed 004 "High-fidelity linkage geometry" and "Progressive
// coil rate from spring hardpoints"): per axle, smooth curves against the wheel's vertical
// travel z relative to the body (body frame, + = bump) of
//   - the wheel-centre migration (dx, dy)(z): the bushing holds the wheel on the path
//     design + (dx, dy, z), penalised perpendicular to its tangent (dx', dy', 1);
//   - the spin axis' tilt about body x (carrier roll; camber = -side * roll) and its turn about
//     body z (carrier yaw; toe-in = -side * yaw), static camber and toe included;
//   - the coil spring's eye-to-eye length l(z), whose slope is the motion ratio MR = -dl/dz;
// and, for the front axle, the road-wheel angle's departure from the mean front angle against
// that mean angle (the Pitman linkage's Ackermann). The curves are the axle's left corner; the
// right corner is its mirror image (y, roll and yaw change sign; its Ackermann offset at mean
// angle d is minus the left's at -d), as the suspension designs are (shared/reference/hmmwv.md).
// Tabulated on the host from a suspension design (host/strut/strut_linkage.cpp) as least-squares
// polynomials in the argument scaled to [-1, 1] over the tabulated range, so the kernel reads a
// few coefficients and needs no index search; beyond the range each curve continues along its
// end tangent (C1).
#pragma once

#include "fleetdyn/physics/core/config.h"
#include "fleetdyn/physics/core/math.h"

namespace fleetdyn {

constexpr int kLinkageCoefficients = 8;  // degree 7

template <class T>
struct LinkageCurve {
  T c[kLinkageCoefficients];  // c[0] + c[1] x + ... in the scaled argument x
};

template <class T>
struct AxleLinkage {
  T travel_mid;                              // [m] centre of the tabulated travel range
  T travel_inverse_half;                     // [1/m] 2 / (range width)
  LinkageCurve<T> migration_x, migration_y;  // [m] body frame, 0 at z = 0
  LinkageCurve<T> carrier_roll;              // [rad] spin axis (0, cos r, sin r) before the yaw
  LinkageCurve<T> carrier_yaw;               // [rad] about body z, + = front of the axis to the left
  LinkageCurve<T> spring_length;             // [m] coil eye to eye
  T steer_inverse_half;                      // [1/rad] over the mean road-wheel angle (front axle)
  LinkageCurve<T> steer_offset;              // [rad] left road-wheel angle - mean front angle
};

template <class T>
struct StrutLinkage {
  T tabulated;             // [-] 1 when the curves come from a suspension design, else 0
  AxleLinkage<T> axle[2];  // front, rear
};

// Value and slope (per unit of the unscaled argument) of a curve at the scaled argument x,
// clamped to [-1, 1] and continued linearly beyond.
template <class T>
struct CurvePoint {
  T value, slope;
};

template <class T>
FLEETDYN_FN CurvePoint<T> linkage_curve(const LinkageCurve<T>& f, T x_clamped, T x_beyond, T inverse_half) {
  T v = f.c[kLinkageCoefficients - 1], d = T(0);
  for (int k = kLinkageCoefficients - 2; k >= 0; --k) {
    d = d * x_clamped + v;
    v = v * x_clamped + f.c[k];
  }
  return {v + d * x_beyond, d * inverse_half};
}

// The same with the curvature [per unit argument squared] (zero beyond the range).
template <class T>
struct CurvePoint2 {
  T value, slope, curvature;
};

template <class T>
FLEETDYN_FN CurvePoint2<T> linkage_curve_with_curvature(const LinkageCurve<T>& f, T x_clamped, T x_beyond, T inverse_half) {
  T v = f.c[kLinkageCoefficients - 1], d = T(0), dd = T(0);
  for (int k = kLinkageCoefficients - 2; k >= 0; --k) {
    dd = dd * x_clamped + d;
    d = d * x_clamped + v;
    v = v * x_clamped + f.c[k];
  }
  return {v + d * x_beyond, d * inverse_half, select(x_beyond == T(0), T(2) * dd * inverse_half * inverse_half, T(0))};
}

// The scaled argument of a corner's travel curves: clamped part and excess beyond [-1, 1].
template <class T>
struct ScaledArgument {
  T clamped, beyond;
};
template <class T>
FLEETDYN_FN ScaledArgument<T> scaled_argument(T x) {
  const T c = clamp(x, T(-1), T(1));
  return {c, x - c};
}

// sin and cos of a small angle (|a| < 0.3 rad: error below 2e-8) without a library call, which
// the SIMD lanes would make one lane at a time.
template <class T>
FLEETDYN_FN void small_angle_sin_cos(T a, T& s, T& c) {
  const T a2 = a * a;
  s = a * (T(1) - a2 * T(1.0 / 6.0) * (T(1) - a2 * T(1.0 / 20.0) * (T(1) - a2 * T(1.0 / 42.0))));
  c = T(1) - a2 * T(0.5) * (T(1) - a2 * T(1.0 / 12.0) * (T(1) - a2 * T(1.0 / 30.0) * (T(1) - a2 * T(1.0 / 56.0))));
}

}  // namespace fleetdyn
