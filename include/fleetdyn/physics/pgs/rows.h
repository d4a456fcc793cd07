// Constraint rows: a row is one scalar velocity constraint J v = target between two bodies
// (seed 000: J V1 = J (V0 + M^-1 F dt) + J M^-1 J^T lambda), with J split per body into a
// linear and an angular part. This file has the body poses the rows are built from, the two
// Jacobian primitives every joint is made of, and storing a row with its M^-1 J^T.
#pragma once

#include "fleetdyn/physics/core/config.h"
#include "fleetdyn/physics/core/math.h"
#include "fleetdyn/physics/pgs/layout.h"
#include "fleetdyn/physics/pgs/model.h"

namespace fleetdyn {
namespace pgs {

// The larger of two values (per lane when T is a SIMD lane type, host/backend/lanes.h).
template <class T>
FLEETDYN_INLINE_FN T larger(T a, T b) {
  return select(a > b, a, b);
}

template <class T>
struct Pose {
  Vec3<T> position;  // [m] world
  Quat<T> orientation;
  Mat3<T> rotation;  // body -> world
};

template <class T>
FLEETDYN_FN Pose<T> world_pose() {
  Pose<T> p;
  p.position = Vec3<T>{T(0), T(0), T(0)};
  p.orientation = quat_identity<T>();
  p.rotation = rotation_matrix(p.orientation);
  return p;
}

template <class T>
FLEETDYN_FN Pose<T> load_pose(Strided<T> state, int body) {
  if (body < 0) return world_pose<T>();
  Pose<T> p;
  p.position = Vec3<T>{state[body_field(body, kPx)], state[body_field(body, kPy)], state[body_field(body, kPz)]};
  p.orientation = Quat<T>{state[body_field(body, kQw)], state[body_field(body, kQx)], state[body_field(body, kQy)],
                          state[body_field(body, kQz)]};
  p.rotation = rotation_matrix(p.orientation);
  return p;
}

template <class T>
FLEETDYN_INLINE_FN Vec3<T> load_vec(Strided<T> s, int first) {
  return Vec3<T>{s[first], s[first + 1], s[first + 2]};
}
template <class T>
FLEETDYN_INLINE_FN void store_vec(Strided<T> s, int first, Vec3<T> v) {
  s[first] = v.x;
  s[first + 1] = v.y;
  s[first + 2] = v.z;
}

// One row in registers while it is built. position_error is C (bilateral) or psi (unilateral).
template <class T>
struct Row {
  Vec3<T> ja_lin, ja_ang, jb_lin, jb_ang;
  T target;          // [m/s or rad/s] wanted J v1
  T position_error;  // [m or rad]
};

// Relative velocity of two body points along a direction e: e . (p_b_dot - p_a_dot).
// r_a: lever of the direction's point on body a (from a's COM, world); r_b likewise on b.
// When e turns with body a (a slider axis), r_a is the lever to the point on b instead
// (seed 000 bar/socket: d/dt (e . d) adds (omega_a x e) . d).
template <class T>
FLEETDYN_FN Row<T> point_row(Vec3<T> e, Vec3<T> r_a, Vec3<T> r_b, T position_error) {
  Row<T> row;
  row.ja_lin = -e;
  row.ja_ang = -cross(r_a, e);
  row.jb_lin = e;
  row.jb_ang = cross(r_b, e);
  row.position_error = position_error;
  row.target = T(0);
  return row;
}

// Angular velocity of b relative to a about the world axis e.
template <class T>
FLEETDYN_FN Row<T> angular_row(Vec3<T> e, T position_error) {
  const Vec3<T> zero{T(0), T(0), T(0)};
  Row<T> row;
  row.ja_lin = zero;
  row.ja_ang = -e;
  row.jb_lin = zero;
  row.jb_ang = e;
  row.position_error = position_error;
  row.target = T(0);
  return row;
}

// Keeps u (fixed in a) perpendicular to v (fixed in b): C = u . v, dC/dt = (u x v) . (omega_a - omega_b).
template <class T>
FLEETDYN_FN Row<T> perpendicular_row(Vec3<T> u, Vec3<T> v) {
  const Vec3<T> uxv = cross(u, v);
  return angular_row(-uxv, dot(u, v));
}

// M^-1 of body b applied to a linear and an angular part (scratch holds the inverse mass per
// axis and the world inverse inertia; both zero for the world and kinematic bodies).
template <class T>
FLEETDYN_FN void apply_inverse_mass(Strided<T> scratch, int row_count, int body, Vec3<T> lin, Vec3<T> ang,
                                    Vec3<T>* out_lin, Vec3<T>* out_ang) {
  if (body < 0) {
    *out_lin = Vec3<T>{T(0), T(0), T(0)};
    *out_ang = Vec3<T>{T(0), T(0), T(0)};
    return;
  }
  const int m = body_scratch(row_count, body, kSInvMass);
  const int i = body_scratch(row_count, body, kSInvInertia);
  *out_lin = Vec3<T>{scratch[m] * lin.x, scratch[m + 1] * lin.y, scratch[m + 2] * lin.z};
  const T xx = scratch[i], yy = scratch[i + 1], zz = scratch[i + 2], xy = scratch[i + 3], xz = scratch[i + 4],
          yz = scratch[i + 5];
  *out_ang = Vec3<T>{xx * ang.x + xy * ang.y + xz * ang.z, xy * ang.x + yy * ang.y + yz * ang.z,
                     xz * ang.x + yz * ang.y + zz * ang.z};
}

// Stores row r with its M^-1 J^T, effective mass and bounds. Returns false when the row is
// singular (J M^-1 J^T = 0: no direction, or only the world / kinematic bodies): then the row
// is stored inert (effective mass 0, bounds 0), so it never acts. `compliance` (>= 0) makes the
// row soft: J v + compliance lambda = target (joints.h emit_row).
template <class T>
FLEETDYN_FN bool store_row(Strided<T> scratch, int row_count, int r, const RowInfo& info, const Row<T>& row, T lower,
                           T upper, T compliance = T(0)) {
  Vec3<T> ma_lin, ma_ang, mb_lin, mb_ang;
  apply_inverse_mass(scratch, row_count, info.body_a, row.ja_lin, row.ja_ang, &ma_lin, &ma_ang);
  apply_inverse_mass(scratch, row_count, info.body_b, row.jb_lin, row.jb_ang, &mb_lin, &mb_ang);
  const T k = dot(row.ja_lin, ma_lin) + dot(row.ja_ang, ma_ang) + dot(row.jb_lin, mb_lin) + dot(row.jb_ang, mb_ang);
  const bool singular = !(k > T(0));
  const int b = row_scratch(r, 0);
  store_vec(scratch, b + kJ + 0, row.ja_lin);
  store_vec(scratch, b + kJ + 3, row.ja_ang);
  store_vec(scratch, b + kJ + 6, row.jb_lin);
  store_vec(scratch, b + kJ + 9, row.jb_ang);
  store_vec(scratch, b + kMinvJt + 0, ma_lin);
  store_vec(scratch, b + kMinvJt + 3, ma_ang);
  store_vec(scratch, b + kMinvJt + 6, mb_lin);
  store_vec(scratch, b + kMinvJt + 9, mb_ang);
  scratch[b + kEffMass] = singular ? T(0) : T(1) / (k + compliance);
  scratch[b + kCompliance] = compliance;
  scratch[b + kTarget] = row.target;
  scratch[b + kLower] = singular ? T(0) : lower;
  scratch[b + kUpper] = singular ? T(0) : upper;
  scratch[b + kLambda] = T(0);
  return !singular;
}

// Velocity of the scratch bodies along a stored row: J v (seed 000: J V).
template <class T>
FLEETDYN_INLINE_FN T row_velocity(Strided<T> scratch, int row_count, int r, const RowInfo& info) {
  const int b = row_scratch(r, 0);
  T w = T(0);
  if (info.body_a >= 0) {
    const Vec3<T> v = load_vec(scratch, body_scratch(row_count, info.body_a, kSv));
    const Vec3<T> om = load_vec(scratch, body_scratch(row_count, info.body_a, kSw));
    w += dot(load_vec(scratch, b + kJ + 0), v) + dot(load_vec(scratch, b + kJ + 3), om);
  }
  if (info.body_b >= 0) {
    const Vec3<T> v = load_vec(scratch, body_scratch(row_count, info.body_b, kSv));
    const Vec3<T> om = load_vec(scratch, body_scratch(row_count, info.body_b, kSw));
    w += dot(load_vec(scratch, b + kJ + 6), v) + dot(load_vec(scratch, b + kJ + 9), om);
  }
  return w;
}

// V += M^-1 J^T d_lambda for one row (seed 000: V1 = V0 + M^-1 F dt + M^-1 J^T lambda).
template <class T>
FLEETDYN_INLINE_FN void apply_row_impulse(Strided<T> scratch, int row_count, int r, const RowInfo& info, T d_lambda) {
  const int b = row_scratch(r, 0);
  if (info.body_a >= 0) {
    const int v = body_scratch(row_count, info.body_a, kSv);
    for (int k = 0; k < 6; ++k) scratch[v + k] += d_lambda * scratch[b + kMinvJt + k];
  }
  if (info.body_b >= 0) {
    const int v = body_scratch(row_count, info.body_b, kSv);
    for (int k = 0; k < 6; ++k) scratch[v + k] += d_lambda * scratch[b + kMinvJt + 6 + k];
  }
}

}  // namespace pgs
}  // namespace fleetdyn
