// Small fixed-size math for the physics core: 3-vectors, unit quaternions, 3x3 matrices, their
// load/store at an offset of a flat state array, and a piecewise-linear table lookup.
// Templated on the scalar (float or double), usable on host and device, no allocation.
// Conventions: right-handed ISO frames (x forward, y left, z up); quaternions are (w, x, y, z)
// and rotate body-frame vectors into the world frame: v_world = q * v_body * q^-1.
#pragma once

#include <cmath>

#include "fleetdyn/physics/core/config.h"

namespace fleetdyn {

// The physics calls these unqualified (sqrt(x), not sqrt(x)): for float and double they are
// the std overloads (float stays float, on the device too); for a SIMD lane type
// (host/backend/lanes.h) argument-dependent lookup finds its lane-wise overloads.
using std::asin;
using std::atan2;
using std::ceil;
using std::cos;
using std::exp;
using std::fabs;
using std::floor;
using std::sin;
using std::sqrt;
using std::tan;

// Branch-free choices. The physics writes every choice that depends on a state or parameter
// value as select(condition, if_true, if_false), so the same source can run several vehicles in
// the lanes of one instruction stream, where a condition is a per-lane mask. For float and double
// (CPU scalar path, GPU) the condition is a bool and select is the conditional operator.
// any_lane / all_lanes reduce a condition: for a bool, the bool itself. They guard work that
// only some steps need (a stop engaged, a wheel in the air), skipped when no lane needs it.
template <class T>
FLEETDYN_FN T select(bool condition, T if_true, T if_false) {
  return condition ? if_true : if_false;
}
FLEETDYN_FN bool any_lane(bool condition) { return condition; }
FLEETDYN_FN bool both(bool a, bool b) { return a && b; }  // lanes: per-lane and
FLEETDYN_FN bool all_lanes(bool condition) { return condition; }

// The scalar type underneath T: T itself for float and double; the element type for lanes.
template <class T>
struct ScalarOf {
  using type = T;
};
template <class T>
using scalar_of = typename ScalarOf<T>::type;

template <class T>
FLEETDYN_FN T clamp(T v, T lo, T hi) {
  return select(v < lo, lo, select(v > hi, hi, v));
}
template <class T>
FLEETDYN_FN T sq(T v) {
  return v * v;
}

// pi, written once for host and device code. For float, T(kPi) rounds this double to the
// nearest float, as T(3.14159265358979323846) does.
constexpr double kPi = 3.14159265358979323846;

// Degrees to radians, rounded as deg * pi / 180 (the product first).
FLEETDYN_FN constexpr double deg_to_rad(double deg) { return deg * kPi / 180.0; }

template <class T>
struct Vec3 {
  T x, y, z;
};

template <class T>
FLEETDYN_FN Vec3<T> vec3(T x, T y, T z) {
  return Vec3<T>{x, y, z};
}
template <class T>
FLEETDYN_FN Vec3<T> operator+(Vec3<T> a, Vec3<T> b) {
  return {a.x + b.x, a.y + b.y, a.z + b.z};
}
template <class T>
FLEETDYN_FN Vec3<T> operator-(Vec3<T> a, Vec3<T> b) {
  return {a.x - b.x, a.y - b.y, a.z - b.z};
}
template <class T>
FLEETDYN_FN Vec3<T> operator-(Vec3<T> a) {
  return {-a.x, -a.y, -a.z};
}
template <class T>
FLEETDYN_FN Vec3<T> operator*(T s, Vec3<T> a) {
  return {s * a.x, s * a.y, s * a.z};
}
template <class T>
FLEETDYN_FN Vec3<T> operator*(Vec3<T> a, T s) {
  return {s * a.x, s * a.y, s * a.z};
}
template <class T>
FLEETDYN_FN Vec3<T>& operator+=(Vec3<T>& a, Vec3<T> b) {
  a.x += b.x;
  a.y += b.y;
  a.z += b.z;
  return a;
}
template <class T>
FLEETDYN_FN Vec3<T>& operator-=(Vec3<T>& a, Vec3<T> b) {
  a.x -= b.x;
  a.y -= b.y;
  a.z -= b.z;
  return a;
}
template <class T>
FLEETDYN_FN T dot(Vec3<T> a, Vec3<T> b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}
template <class T>
FLEETDYN_FN Vec3<T> cross(Vec3<T> a, Vec3<T> b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
template <class T>
FLEETDYN_FN T norm_sq(Vec3<T> a) {
  return dot(a, a);
}
template <class T>
FLEETDYN_FN T norm(Vec3<T> a) {
  return sqrt(dot(a, a));
}
// Unit vector along a; returns `fallback` when |a| is too small to define a direction.
template <class T>
FLEETDYN_FN Vec3<T> normalized_or(Vec3<T> a, Vec3<T> fallback) {
  const T n = norm(a);
  const auto defined = n > T(1e-12);
  const T inv = T(1) / select(defined, n, T(1));
  return {select(defined, a.x * inv, fallback.x), select(defined, a.y * inv, fallback.y),
          select(defined, a.z * inv, fallback.z)};
}

// Row-major 3x3 matrix; m[r][c].
template <class T>
struct Mat3 {
  T m[3][3];
  FLEETDYN_FN Vec3<T> col(int c) const { return {m[0][c], m[1][c], m[2][c]}; }
};

template <class T>
FLEETDYN_FN Vec3<T> operator*(const Mat3<T>& a, Vec3<T> v) {
  return {a.m[0][0] * v.x + a.m[0][1] * v.y + a.m[0][2] * v.z, a.m[1][0] * v.x + a.m[1][1] * v.y + a.m[1][2] * v.z,
          a.m[2][0] * v.x + a.m[2][1] * v.y + a.m[2][2] * v.z};
}
// a^T v without forming the transpose.
template <class T>
FLEETDYN_FN Vec3<T> mul_transpose(const Mat3<T>& a, Vec3<T> v) {
  return {a.m[0][0] * v.x + a.m[1][0] * v.y + a.m[2][0] * v.z, a.m[0][1] * v.x + a.m[1][1] * v.y + a.m[2][1] * v.z,
          a.m[0][2] * v.x + a.m[1][2] * v.y + a.m[2][2] * v.z};
}

template <class T>
struct Quat {
  T w, x, y, z;
};

template <class T>
FLEETDYN_FN Quat<T> quat_identity() {
  return {T(1), T(0), T(0), T(0)};
}
template <class T>
FLEETDYN_FN Quat<T> operator*(Quat<T> a, Quat<T> b) {
  return {a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z, a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
          a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x, a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w};
}
template <class T>
FLEETDYN_FN Quat<T> normalized(Quat<T> q) {
  const T inv = T(1) / sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
  return {q.w * inv, q.x * inv, q.y * inv, q.z * inv};
}
// Quaternion of a rotation by `angle` [rad] about the unit `axis`.
template <class T>
FLEETDYN_FN Quat<T> quat_from_axis_angle(Vec3<T> axis, T angle) {
  const T s = sin(angle / T(2));
  return {cos(angle / T(2)), axis.x * s, axis.y * s, axis.z * s};
}
// ZYX (yaw-pitch-roll) Euler angles to quaternion, the vehicle-dynamics convention.
template <class T>
FLEETDYN_FN Quat<T> quat_from_euler_zyx(T roll, T pitch, T yaw) {
  const T cr = cos(roll / 2), sr = sin(roll / 2);
  const T cp = cos(pitch / 2), sp = sin(pitch / 2);
  const T cy = cos(yaw / 2), sy = sin(yaw / 2);
  return {cr * cp * cy + sr * sp * sy, sr * cp * cy - cr * sp * sy, cr * sp * cy + sr * cp * sy, cr * cp * sy - sr * sp * cy};
}
// Rotation matrix (body -> world) of a unit quaternion.
template <class T>
FLEETDYN_FN Mat3<T> rotation_matrix(Quat<T> q) {
  const T ww = q.w * q.w, xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z;
  const T xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z;
  const T wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z;
  Mat3<T> r;
  r.m[0][0] = ww + xx - yy - zz;
  r.m[0][1] = 2 * (xy - wz);
  r.m[0][2] = 2 * (xz + wy);
  r.m[1][0] = 2 * (xy + wz);
  r.m[1][1] = ww - xx + yy - zz;
  r.m[1][2] = 2 * (yz - wx);
  r.m[2][0] = 2 * (xz - wy);
  r.m[2][1] = 2 * (yz + wx);
  r.m[2][2] = ww - xx - yy + zz;
  return r;
}
// Time derivative of q for a body-frame angular velocity omega_body: q_dot = 0.5 q (0, omega).
template <class T>
FLEETDYN_FN Quat<T> quat_derivative(Quat<T> q, Vec3<T> omega_body) {
  const Quat<T> w{T(0), omega_body.x, omega_body.y, omega_body.z};
  const Quat<T> d = q * w;
  return {T(0.5) * d.w, T(0.5) * d.x, T(0.5) * d.y, T(0.5) * d.z};
}
// Roll, pitch, yaw (ZYX) of the rotation q [rad].
template <class T>
FLEETDYN_FN Vec3<T> euler_zyx(Quat<T> q) {
  const T sinp = T(2) * (q.w * q.y - q.z * q.x);
  const T sinp_c = clamp(sinp, T(-1), T(1));
  return {atan2(T(2) * (q.w * q.x + q.y * q.z), T(1) - T(2) * (q.x * q.x + q.y * q.y)), asin(sinp_c),
          atan2(T(2) * (q.w * q.z + q.x * q.y), T(1) - T(2) * (q.y * q.y + q.z * q.z))};
}

// A vector or quaternion at scalar offset i of a flat state array (w, x, y, z for a quaternion).
template <class T>
FLEETDYN_FN Vec3<T> load3(const T* a, int i) {
  return {a[i], a[i + 1], a[i + 2]};
}
template <class T>
FLEETDYN_FN void store3(T* a, int i, Vec3<T> v) {
  a[i] = v.x;
  a[i + 1] = v.y;
  a[i + 2] = v.z;
}
template <class T>
FLEETDYN_FN Quat<T> load_quat(const T* a, int i) {
  return {a[i], a[i + 1], a[i + 2], a[i + 3]};
}
template <class T>
FLEETDYN_FN void store_quat(T* a, int i, Quat<T> q) {
  a[i] = q.w;
  a[i + 1] = q.x;
  a[i + 2] = q.y;
  a[i + 3] = q.z;
}

// Piecewise-linear table lookup, branch-free: the segment containing x is selected from the
// last one down, so the first segment with x <= xs[i] wins.
template <class T>
FLEETDYN_FN T piecewise_linear(const T* xs, const T* ys, int n, T x) {
  // Beyond the table: extend the last segment's slope (a stop keeps getting stiffer, not flat).
  T y = ys[n - 1] + (ys[n - 1] - ys[n - 2]) * (x - xs[n - 1]) / (xs[n - 1] - xs[n - 2]);
  for (int i = n - 1; i >= 1; --i) {
    y = select(x <= xs[i], ys[i - 1] + (ys[i] - ys[i - 1]) * (x - xs[i - 1]) / (xs[i] - xs[i - 1]), y);
  }
  return select(x <= xs[0], ys[0], y);
}

}  // namespace fleetdyn
