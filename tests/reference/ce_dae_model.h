// The DAE reference's model of the ce vehicle (tests/reference/ce_dae_reference.cpp): the bodies,
// their state in the DAE's unknowns, and the joint constraint rows (seed 001 eq. 8's G_c in body
// twists) with their velocity bias. Internal to the reference.
#pragma once

#include <Eigen/Dense>
#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "tests/reference/ce_dae_reference.h"

namespace fleetdyn {
namespace ce_dae {

using V3 = Eigen::Vector3d;
using M3 = Eigen::Matrix3d;
using V6 = Eigen::Matrix<double, 6, 1>;

inline V3 ev(Vec3<double> a) { return {a.x, a.y, a.z}; }
inline Vec3<double> fv(const V3& a) { return {a.x(), a.y(), a.z()}; }
inline M3 em(const Mat3<double>& a) {
  M3 r;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) r(i, j) = a.m[i][j];
  return r;
}
inline M3 esym(const Sym3<double>& s) {
  M3 r;
  r << s.xx, s.xy, s.xz, s.xy, s.yy, s.yz, s.xz, s.yz, s.zz;
  return r;
}

constexpr int kPerCorner = 5;  // LCA, UCA, upright, tierod (the CeBody order), then the wheel
constexpr int kWheelBody = 4;
constexpr int kBodies = 1 + kCorners * kPerCorner;
constexpr int body_index(int corner, int j) { return 1 + kPerCorner * corner + j; }

constexpr int kHolonomicPerCorner = 27;  // 2 revolutes (5+5), 3 balls on the upright side (3x3), tierod inner ball (3), wheel revolute (5)
constexpr int kHolonomic = kCorners * kHolonomicPerCorner;
constexpr int kRows = kHolonomic + kCorners;  // + one tierod no-spin row per corner
constexpr int kSteerVar = 7 * kBodies;
constexpr int kDeflVar = kSteerVar + 1;  // long[4], then lat[4]
constexpr int kV = kDeflVar + 2 * kCorners;
constexpr int kLambda = kV + 6 * kBodies;
constexpr int kMu = kLambda + kRows;
constexpr int kUnknowns = kMu + kHolonomic + kBodies;

// Body-fixed vectors of a corner (body frames = chassis frame at the design configuration),
// from each body's COM; axes are unit vectors in the body frame.
struct CornerData {
  V3 lca_pivot_c, lca_pivot_l, lca_axis, lca_perp[2];
  V3 uca_pivot_c, uca_pivot_u, uca_axis, uca_perp[2];
  V3 lca_ball_l, lca_ball_up, uca_ball_u, uca_ball_up;
  V3 outer_up, outer_t, inner_t, inner_c;  // tierod ends (inner_c: rear, fixed on the chassis)
  V3 wheel_up;
  V3 spring_c, spring_l, shock_c, shock_l;
};

struct Model {
  const CeParams<double>* p;
  const TerrainDesc<double>* terrain;
  const std::function<DriverInput<double>(double)>* input;
  double mass[kBodies];
  M3 inertia[kBodies];  // about the COM, body frame
  CornerData corner[kCorners];
};

struct Bodies {
  V3 x[kBodies], v[kBodies], w[kBodies];
  Eigen::Vector4d q[kBodies];
  M3 R[kBodies];
};

// One constraint row: phi (position level; 0 for the nonholonomic rows) and its velocity form
// ja . twist_a + jb . twist_b + bias (twist = (v, omega)).
struct Row {
  int a = -1, b = -1;
  V6 ja = V6::Zero(), jb = V6::Zero();
  double phi = 0.0, bias = 0.0;
};
using Rows = std::array<Row, kRows>;

// (v, omega) as one twist, or (force, torque) as one wrench; element-wise (GCC 12 warns falsely
// on Eigen's vectorized comma initializer of 3-vectors into a 6-vector).
inline V6 stack(const V3& a, const V3& b) {
  V6 r;
  for (int j = 0; j < 3; ++j) {
    r(j) = a(j);
    r(3 + j) = b(j);
  }
  return r;
}

inline void perpendicular_pair(const V3& axis, V3 out[2]) {
  const V3 seed = std::fabs(axis.x()) < 0.9 ? V3::UnitX() : V3::UnitY();
  out[0] = axis.cross(seed).normalized();
  out[1] = axis.cross(out[0]);
}

inline Model make_model(const CeParams<double>& p, const TerrainDesc<double>& terrain,
                        const std::function<DriverInput<double>(double)>& input) {
  Model m{};
  m.p = &p;
  m.terrain = &terrain;
  m.input = &input;
  const V3 c0 = ev(p.chassis_com);
  m.mass[0] = p.chassis_mass;
  m.inertia[0] = esym(p.chassis_inertia);
  for (int i = 0; i < kCorners; ++i) {
    const CornerGeometry<double>& g = p.corner[i];
    const DoubleWishboneHardpoints<double>& d = g.design;
    const V3 tierod_com = 0.5 * (ev(d.tierod_inner) + ev(d.tierod_outer));
    const V3 com[kPerCorner] = {ev(d.lca_com), ev(d.uca_com), ev(d.upright_com), tierod_com, ev(d.wheel_centre)};
    for (int j = 0; j < kCeAggregateBodies; ++j) {
      m.mass[body_index(i, j)] = p.body_mass[i][j];
      m.inertia[body_index(i, j)] = esym(p.body_inertia[i][j]);
    }
    m.mass[body_index(i, kWheelBody)] = p.wheel_mass;  // spin axis +y at design (corner_pose)
    m.inertia[body_index(i, kWheelBody)] =
        Eigen::Vector3d(p.wheel_transverse_inertia, p.wheel_spin_inertia, p.wheel_transverse_inertia).asDiagonal();
    CornerData& c = m.corner[i];
    c.lca_pivot_c = ev(g.lca_axis_point) - c0;
    c.lca_pivot_l = ev(g.lca_axis_point) - com[kCeLca];
    c.lca_axis = ev(g.lca_axis);
    perpendicular_pair(c.lca_axis, c.lca_perp);
    c.uca_pivot_c = ev(g.uca_circle_centre) - c0;
    c.uca_pivot_u = ev(g.uca_circle_centre) - com[kCeUca];
    c.uca_axis = ev(g.uca_axis);
    perpendicular_pair(c.uca_axis, c.uca_perp);
    c.lca_ball_l = ev(d.lca_ball) - com[kCeLca];
    c.lca_ball_up = ev(d.lca_ball) - com[kCeUpright];
    c.uca_ball_u = ev(d.uca_ball) - com[kCeUca];
    c.uca_ball_up = ev(d.uca_ball) - com[kCeUpright];
    c.outer_up = ev(d.tierod_outer) - com[kCeUpright];
    c.outer_t = ev(d.tierod_outer) - tierod_com;
    c.inner_t = ev(d.tierod_inner) - tierod_com;
    c.inner_c = ev(d.tierod_inner) - c0;
    c.wheel_up = ev(d.wheel_centre) - com[kCeUpright];
    c.spring_c = ev(d.spring_chassis) - c0;
    c.spring_l = ev(d.spring_arm) - com[kCeLca];
    c.shock_c = ev(d.shock_chassis) - c0;
    c.shock_l = ev(d.shock_arm) - com[kCeLca];
  }
  return m;
}

inline void unpack(const double* y, Bodies& b) {
  for (int k = 0; k < kBodies; ++k) {
    b.x[k] = V3(y[7 * k], y[7 * k + 1], y[7 * k + 2]);
    b.q[k] = Eigen::Vector4d(y[7 * k + 3], y[7 * k + 4], y[7 * k + 5], y[7 * k + 6]);
    b.R[k] = Eigen::Quaterniond(b.q[k](0), b.q[k](1), b.q[k](2), b.q[k](3)).normalized().toRotationMatrix();
    b.v[k] = V3(y[kV + 6 * k], y[kV + 6 * k + 1], y[kV + 6 * k + 2]);
    b.w[k] = V3(y[kV + 6 * k + 3], y[kV + 6 * k + 4], y[kV + 6 * k + 5]);
  }
}

// d quat / dt for the world angular velocity omega: 1/2 (0, omega) * quat.
inline Eigen::Vector4d quat_rate_world(const Eigen::Vector4d& q, const V3& omega) {
  const V3 qv = q.tail<3>();
  const V3 r = q(0) * omega + omega.cross(qv);
  return 0.5 * Eigen::Vector4d(-omega.dot(qv), r.x(), r.y(), r.z());
}

inline double steer_rate_of(const Model& m, double t, double steer) {
  const DriverInput<double> in = clamped((*m.input)(t));
  return (ce_steer_command(*m.p, in) - steer) / m.p->steer_time_constant;
}

// Ball joint: point ra on body a (world offset from its COM) coincides with point rb on body b.
inline Row* ball(Row* row, const Bodies& b, int ia, const V3& ra, int ib, const V3& rb, const V3& bias) {
  const V3 gap = (b.x[ia] + ra) - (b.x[ib] + rb);
  for (int k = 0; k < 3; ++k, ++row) {
    const V3 e = V3::Unit(k);
    row->a = ia;
    row->b = ib;
    row->ja = stack(e, ra.cross(e));  // e . (v + omega x r) = e . v + omega . (r x e)
    row->jb = stack(-e, -rb.cross(e));
    row->phi = gap(k);
    row->bias = bias(k);
  }
  return row;
}
// Unit vector ua on body a stays perpendicular to unit vector eb on body b (revolute axes).
inline Row* perpendicular(Row* row, int ia, const V3& ua, int ib, const V3& eb) {
  const V3 n = ua.cross(eb);
  row->a = ia;
  row->b = ib;
  row->ja = stack(V3::Zero(), n);
  row->jb = stack(V3::Zero(), -n);
  row->phi = ua.dot(eb);
  row->bias = 0.0;
  return row + 1;
}

// The joints of seed 001 Fig. 1a (fully augmented), per corner.
inline void build_rows(const Model& m, const Bodies& b, double steer, double steer_rate, Rows& rows) {
  const CeParams<double>& p = *m.p;
  const SteeringLinkState<double> link = steering_link_state(p.steering, steer, steer_rate);
  const M3& r0 = b.R[0];
  for (int i = 0; i < kCorners; ++i) {
    const CornerData& c = m.corner[i];
    const int lca = body_index(i, kCeLca), uca = body_index(i, kCeUca), up = body_index(i, kCeUpright);
    const int rod = body_index(i, kCeTierod), wheel = body_index(i, kWheelBody);
    const M3 &rl = b.R[lca], &ru = b.R[uca], &rup = b.R[up], &rt = b.R[rod], &rw = b.R[wheel];
    const V3 zero = V3::Zero();
    Row* row = &rows[kHolonomicPerCorner * i];
    // LCA and UCA: revolutes to the chassis (a point on the axis + the axis direction).
    row = ball(row, b, lca, rl * c.lca_pivot_l, 0, r0 * c.lca_pivot_c, zero);
    for (int k = 0; k < 2; ++k) row = perpendicular(row, lca, rl * c.lca_axis, 0, r0 * c.lca_perp[k]);
    row = ball(row, b, uca, ru * c.uca_pivot_u, 0, r0 * c.uca_pivot_c, zero);
    for (int k = 0; k < 2; ++k) row = perpendicular(row, uca, ru * c.uca_axis, 0, r0 * c.uca_perp[k]);
    // Ball joints D and F on the upright; the tierod's outer ball K.
    row = ball(row, b, lca, rl * c.lca_ball_l, up, rup * c.lca_ball_up, zero);
    row = ball(row, b, uca, ru * c.uca_ball_u, up, rup * c.uca_ball_up, zero);
    row = ball(row, b, rod, rt * c.outer_t, up, rup * c.outer_up, zero);
    // Tierod inner end L: on the chassis (rear) or on the steering link, which moves with the
    // steering state (rheonomic: g_t = -d/dt of the prescribed point).
    if (p.corner[i].steered != 0.0) {
      const TierodInner<double> inner = tierod_inner_point(p.corner[i], p.steering, link);
      row = ball(row, b, rod, rt * c.inner_t, 0, r0 * (ev(inner.pos) - ev(p.chassis_com)), -(r0 * ev(inner.vel)));
    } else {
      row = ball(row, b, rod, rt * c.inner_t, 0, r0 * c.inner_c, zero);
    }
    // Wheel on the upright: revolute about the spin axis (body y).
    row = ball(row, b, wheel, zero, up, rup * c.wheel_up, zero);
    for (int k = 0; k < 2; ++k) row = perpendicular(row, wheel, rw.col(1), up, rup.col(2 * k));
    // No spin of the tierod about its own axis relative to the chassis (velocity level only).
    Row& spin = rows[kHolonomic + i];
    const V3 axis = (rt * (c.outer_t - c.inner_t)).normalized();
    spin.a = rod;
    spin.b = 0;
    spin.ja = stack(zero, axis);
    spin.jb = stack(zero, -axis);
    spin.phi = spin.bias = 0.0;
  }
}

inline double row_velocity(const Row& r, const Bodies& b) {
  V6 ta, tb;
  ta = stack(b.v[r.a], b.w[r.a]);
  tb = stack(b.v[r.b], b.w[r.b]);
  return r.ja.dot(ta) + r.jb.dot(tb) + r.bias;
}

}  // namespace ce_dae
}  // namespace fleetdyn
