// Spatial (6-D) vectors and inertias for the ce model's articulated-body recursion (seed 001
// section 2), in Featherstone's convention: a motion vector is (angular, linear velocity of the
// body point at the reference point O), a force vector (moment about O, force). Everything is
// expressed in one frame (the chassis frame, origin O = chassis frame origin).
#pragma once

#include "fleetdyn/physics/core/config.h"
#include "fleetdyn/physics/core/math.h"

namespace fleetdyn {

template <class T>
struct SpatialVec {
  Vec3<T> ang, lin;
};

template <class T>
FLEETDYN_FN SpatialVec<T> operator+(const SpatialVec<T>& a, const SpatialVec<T>& b) {
  return {a.ang + b.ang, a.lin + b.lin};
}
template <class T>
FLEETDYN_FN SpatialVec<T> operator-(const SpatialVec<T>& a, const SpatialVec<T>& b) {
  return {a.ang - b.ang, a.lin - b.lin};
}
template <class T>
FLEETDYN_FN SpatialVec<T> operator*(T s, const SpatialVec<T>& a) {
  return {s * a.ang, s * a.lin};
}
template <class T>
FLEETDYN_FN SpatialVec<T>& operator+=(SpatialVec<T>& a, const SpatialVec<T>& b) {
  a.ang += b.ang;
  a.lin += b.lin;
  return a;
}
template <class T>
FLEETDYN_FN SpatialVec<T> spatial_zero() {
  return {{T(0), T(0), T(0)}, {T(0), T(0), T(0)}};
}
// Pairing of a motion and a force vector (power).
template <class T>
FLEETDYN_FN T dot(const SpatialVec<T>& m, const SpatialVec<T>& f) {
  return dot(m.ang, f.ang) + dot(m.lin, f.lin);
}
// Motion cross motion: v x m (rate of change of m carried by a frame moving with v).
template <class T>
FLEETDYN_FN SpatialVec<T> cross_motion(const SpatialVec<T>& v, const SpatialVec<T>& m) {
  return {cross(v.ang, m.ang), cross(v.ang, m.lin) + cross(v.lin, m.ang)};
}
// Motion cross force: v x* f.
template <class T>
FLEETDYN_FN SpatialVec<T> cross_force(const SpatialVec<T>& v, const SpatialVec<T>& f) {
  return {cross(v.ang, f.ang) + cross(v.lin, f.lin), cross(v.ang, f.lin)};
}
// Motion vector of a body point P moving with velocity v_p and angular velocity w: (w, v_p - w x P).
template <class T>
FLEETDYN_FN SpatialVec<T> motion_at_origin(Vec3<T> omega, Vec3<T> point_vel, Vec3<T> point) {
  return {omega, point_vel - cross(omega, point)};
}
// Spatial acceleration from a classical one: angular alpha, acceleration a_p of body point P,
// with angular velocity w and point velocity v_p: (alpha, a_p - alpha x P - w x v_p).
template <class T>
FLEETDYN_FN SpatialVec<T> spatial_accel_at_origin(Vec3<T> alpha, Vec3<T> point_acc, Vec3<T> omega, Vec3<T> point_vel,
                                                  Vec3<T> point) {
  return {alpha, point_acc - cross(alpha, point) - cross(omega, point_vel)};
}
// Force vector of a force f acting at point P.
template <class T>
FLEETDYN_FN SpatialVec<T> force_at(Vec3<T> f, Vec3<T> point) {
  return {cross(point, f), f};
}

// Symmetric 3x3 stored by its 6 entries.
template <class T>
struct Sym3 {
  T xx, yy, zz, xy, xz, yz;
};
template <class T>
FLEETDYN_FN Vec3<T> operator*(const Sym3<T>& s, Vec3<T> v) {
  return {s.xx * v.x + s.xy * v.y + s.xz * v.z, s.xy * v.x + s.yy * v.y + s.yz * v.z, s.xz * v.x + s.yz * v.y + s.zz * v.z};
}
// R S R^T
template <class T>
FLEETDYN_FN Sym3<T> rotate_sym(const Mat3<T>& r, const Sym3<T>& s) {
  Vec3<T> c[3];
  for (int j = 0; j < 3; ++j) c[j] = s * Vec3<T>{r.m[j][0], r.m[j][1], r.m[j][2]};  // S R^T column j
  auto row = [&](int i) { return Vec3<T>{r.m[i][0], r.m[i][1], r.m[i][2]}; };
  return {dot(row(0), c[0]), dot(row(1), c[1]), dot(row(2), c[2]),
          dot(row(0), c[1]), dot(row(0), c[2]), dot(row(1), c[2])};
}

// Rigid-body spatial inertia about O: mass m, first moment h = m c (c = COM), rotational
// inertia about O, I_O = I_com + m (|c|^2 1 - c c^T).
template <class T>
struct RigidInertia {
  T mass;
  Vec3<T> first_moment;
  Sym3<T> inertia_o;
};
// Inertia about a point at offset -r from the COM: I + m (|r|^2 1 - r r^T) (parallel axes).
template <class T>
FLEETDYN_FN Sym3<T> parallel_axis(const Sym3<T>& inertia, T mass, Vec3<T> r) {
  const T r2 = norm_sq(r);
  return {inertia.xx + mass * (r2 - r.x * r.x), inertia.yy + mass * (r2 - r.y * r.y),
          inertia.zz + mass * (r2 - r.z * r.z), inertia.xy - mass * r.x * r.y,
          inertia.xz - mass * r.x * r.z,        inertia.yz - mass * r.y * r.z};
}
template <class T>
FLEETDYN_FN RigidInertia<T> rigid_inertia(T mass, Vec3<T> com, const Sym3<T>& inertia_com) {
  return {mass, mass * com, parallel_axis(inertia_com, mass, com)};
}
// Momentum I v = (I_O w + h x v_O, m v_O - h x w).
template <class T>
FLEETDYN_FN SpatialVec<T> operator*(const RigidInertia<T>& i, const SpatialVec<T>& v) {
  return {i.inertia_o * v.ang + cross(i.first_moment, v.lin), i.mass * v.lin - cross(i.first_moment, v.ang)};
}

template <class T>
FLEETDYN_FN RigidInertia<T>& operator+=(RigidInertia<T>& a, const RigidInertia<T>& b) {
  a.mass += b.mass;
  a.first_moment += b.first_moment;
  a.inertia_o.xx += b.inertia_o.xx;
  a.inertia_o.yy += b.inertia_o.yy;
  a.inertia_o.zz += b.inertia_o.zz;
  a.inertia_o.xy += b.inertia_o.xy;
  a.inertia_o.xz += b.inertia_o.xz;
  a.inertia_o.yz += b.inertia_o.yz;
  return a;
}

// General symmetric 6x6 (articulated inertia), row-major full storage.
template <class T>
struct Mat6 {
  T m[6][6];
};
template <class T>
FLEETDYN_FN Mat6<T> mat6_from_rigid(const RigidInertia<T>& i) {
  Mat6<T> a;
  const Sym3<T>& s = i.inertia_o;
  const T rot[3][3] = {{s.xx, s.xy, s.xz}, {s.xy, s.yy, s.yz}, {s.xz, s.yz, s.zz}};
  const Vec3<T> h = i.first_moment;
  // [h]x, the cross-product matrix
  const T hx[3][3] = {{T(0), -h.z, h.y}, {h.z, T(0), -h.x}, {-h.y, h.x, T(0)}};
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) {
      a.m[r][c] = rot[r][c];
      a.m[r][c + 3] = hx[r][c];
      a.m[r + 3][c] = hx[c][r];  // [h]x^T
      a.m[r + 3][c + 3] = r == c ? i.mass : T(0);
    }
  return a;
}
template <class T>
FLEETDYN_FN SpatialVec<T> operator*(const Mat6<T>& a, const SpatialVec<T>& v) {
  const T x[6] = {v.ang.x, v.ang.y, v.ang.z, v.lin.x, v.lin.y, v.lin.z};
  T y[6];
  for (int r = 0; r < 6; ++r) {
    T acc = T(0);
    for (int c = 0; c < 6; ++c) acc += a.m[r][c] * x[c];
    y[r] = acc;
  }
  return {{y[0], y[1], y[2]}, {y[3], y[4], y[5]}};
}
// a -= u u^T / d  (u a force-type vector), on the lower triangle only (all solve_spd reads).
template <class T>
FLEETDYN_FN void subtract_rank_one_lower(Mat6<T>& a, const SpatialVec<T>& u, T d) {
  const T x[6] = {u.ang.x, u.ang.y, u.ang.z, u.lin.x, u.lin.y, u.lin.z};
  const T inv = T(1) / d;
  for (int r = 0; r < 6; ++r) {
    const T xr = x[r] * inv;
    for (int c = 0; c <= r; ++c) a.m[r][c] -= xr * x[c];
  }
}
// The lower triangle of a symmetric 6x6, packed row by row: what one corner of a vehicle adds to
// its base's articulated inertia, in a form the corners' sum can carry.
template <class T>
struct Lower6 {
  T m[21];
};
template <class T>
FLEETDYN_FN Lower6<T> operator+(const Lower6<T>& a, const Lower6<T>& b) {
  Lower6<T> c;
  for (int k = 0; k < 21; ++k) c.m[k] = a.m[k] + b.m[k];
  return c;
}
template <class T>
FLEETDYN_FN Lower6<T> lower6_of(const Mat6<T>& a) {
  Lower6<T> l;
  int k = 0;
  for (int r = 0; r < 6; ++r)
    for (int c = 0; c <= r; ++c) l.m[k++] = a.m[r][c];
  return l;
}
// a + l on the lower triangle (all solve_spd reads); the upper triangle is left as it was.
template <class T>
FLEETDYN_FN Mat6<T> plus_lower(Mat6<T> a, const Lower6<T>& l) {
  int k = 0;
  for (int r = 0; r < 6; ++r)
    for (int c = 0; c <= r; ++c) a.m[r][c] += l.m[k++];
  return a;
}
// Solve a x = b for symmetric positive definite a (Cholesky on a copy; reads the lower triangle).
template <class T>
FLEETDYN_FN SpatialVec<T> solve_spd(Mat6<T> a, const SpatialVec<T>& b) {
  T x[6] = {b.ang.x, b.ang.y, b.ang.z, b.lin.x, b.lin.y, b.lin.z};
  for (int j = 0; j < 6; ++j) {
    T d = a.m[j][j];
    for (int k = 0; k < j; ++k) d -= a.m[j][k] * a.m[j][k];
    const T l = sqrt(d);
    a.m[j][j] = l;
    const T inv = T(1) / l;
    for (int i = j + 1; i < 6; ++i) {
      T s = a.m[i][j];
      for (int k = 0; k < j; ++k) s -= a.m[i][k] * a.m[j][k];
      a.m[i][j] = s * inv;
    }
  }
  for (int i = 0; i < 6; ++i) {  // L y = b
    T s = x[i];
    for (int k = 0; k < i; ++k) s -= a.m[i][k] * x[k];
    x[i] = s / a.m[i][i];
  }
  for (int i = 5; i >= 0; --i) {  // L^T x = y
    T s = x[i];
    for (int k = i + 1; k < 6; ++k) s -= a.m[k][i] * x[k];
    x[i] = s / a.m[i][i];
  }
  return {{x[0], x[1], x[2]}, {x[3], x[4], x[5]}};
}

}  // namespace fleetdyn
