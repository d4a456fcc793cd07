// Independent DAE reference for the ce model: the fully augmented
// formulation of seed 001 Fig. 1a / eq. 8, integrated by SUNDIALS IDA.
//
// Unknowns (all world frame):
//   q      per body: COM position x (3) and orientation quaternion (w, x, y, z) (4)
//   steer  steering state (first-order lag, as ce) and the 8 TMeasy deflections: plain ODE states
//   v      per body: COM velocity (3) and angular velocity omega (3)
//   lambda one multiplier per velocity-level constraint row (the eq. 8 constraint forces)
//   mu     one multiplier per position-level constraint row and per quaternion norm (GGL)
// Equations, stabilized index 2 (Gear-Gupta-Leimkuhler):
//   q'  = T(q) (v - G_p^T mu_p) - N(q) mu_n   (T: x' = v, quat' = 1/2 (0, omega) * quat; N: quat)
//   M v' = f(q, v, t) - G^T lambda             (Newton-Euler; G: eq. 8's G_c in body twists)
//   0   = Phi(q, steer)                        (joint positions; |quat|^2 - 1)
//   0   = G v + g_t                            (joint velocities; g_t from the moving tierod end)
// Why GGL: the position constraints stay algebraic equations that IDA enforces at every step (no
// drift, no Baumgarte gains to tune), while the index stays 2, which IDA's BDF handles when the
// multipliers are excluded from the error test (IDASetSuppressAlg). mu is zero on the exact
// solution. The tierod's "no spin about its own axis relative to the chassis" (the ce model's
// universal joints, ce_kinematics.h step 4) is a velocity-level (nonholonomic) row only: its
// angle about the rod never enters the dynamics because the rod's inertia is axisymmetric.
#include "tests/reference/ce_dae_reference.h"

#include <ida/ida.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

#include <Eigen/Dense>
#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "fleetdyn/error.h"

namespace fleetdyn {
namespace {

using V3 = Eigen::Vector3d;
using M3 = Eigen::Matrix3d;
using V6 = Eigen::Matrix<double, 6, 1>;

V3 ev(Vec3<double> a) { return {a.x, a.y, a.z}; }
Vec3<double> fv(const V3& a) { return {a.x(), a.y(), a.z()}; }
M3 em(const Mat3<double>& a) {
  M3 r;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) r(i, j) = a.m[i][j];
  return r;
}
M3 esym(const Sym3<double>& s) {
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
V6 stack(const V3& a, const V3& b) {
  V6 r;
  for (int j = 0; j < 3; ++j) {
    r(j) = a(j);
    r(3 + j) = b(j);
  }
  return r;
}

void perpendicular_pair(const V3& axis, V3 out[2]) {
  const V3 seed = std::fabs(axis.x()) < 0.9 ? V3::UnitX() : V3::UnitY();
  out[0] = axis.cross(seed).normalized();
  out[1] = axis.cross(out[0]);
}

Model make_model(const CeParams<double>& p, const TerrainDesc<double>& terrain,
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

void unpack(const double* y, Bodies& b) {
  for (int k = 0; k < kBodies; ++k) {
    b.x[k] = V3(y[7 * k], y[7 * k + 1], y[7 * k + 2]);
    b.q[k] = Eigen::Vector4d(y[7 * k + 3], y[7 * k + 4], y[7 * k + 5], y[7 * k + 6]);
    b.R[k] = Eigen::Quaterniond(b.q[k](0), b.q[k](1), b.q[k](2), b.q[k](3)).normalized().toRotationMatrix();
    b.v[k] = V3(y[kV + 6 * k], y[kV + 6 * k + 1], y[kV + 6 * k + 2]);
    b.w[k] = V3(y[kV + 6 * k + 3], y[kV + 6 * k + 4], y[kV + 6 * k + 5]);
  }
}

// d quat / dt for the world angular velocity omega: 1/2 (0, omega) * quat.
Eigen::Vector4d quat_rate_world(const Eigen::Vector4d& q, const V3& omega) {
  const V3 qv = q.tail<3>();
  const V3 r = q(0) * omega + omega.cross(qv);
  return 0.5 * Eigen::Vector4d(-omega.dot(qv), r.x(), r.y(), r.z());
}

double steer_rate_of(const Model& m, double t, double steer) {
  const DriverInput<double> in = clamped((*m.input)(t));
  return (ce_steer_command(*m.p, in) - steer) / m.p->steer_time_constant;
}

// Ball joint: point ra on body a (world offset from its COM) coincides with point rb on body b.
Row* ball(Row* row, const Bodies& b, int ia, const V3& ra, int ib, const V3& rb, const V3& bias) {
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
Row* perpendicular(Row* row, int ia, const V3& ua, int ib, const V3& eb) {
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
void build_rows(const Model& m, const Bodies& b, double steer, double steer_rate, Rows& rows) {
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

double row_velocity(const Row& r, const Bodies& b) {
  V6 ta, tb;
  ta = stack(b.v[r.a], b.w[r.a]);
  tb = stack(b.v[r.b], b.w[r.b]);
  return r.ja.dot(ta) + r.jb.dot(tb) + r.bias;
}

// Applied forces (world, at the COM) and torques (about the COM): gravity; spring, stops and
// shock between chassis and LCA; tire at the contact point; drive and brake as ce_corner_bodies.
void applied_forces(const Model& m, const Bodies& b, double t, const double* defl, V3* force, V3* torque,
                    double* defl_rate) {
  const CeParams<double>& p = *m.p;
  const DriverInput<double> input = clamped((*m.input)(t));
  for (int k = 0; k < kBodies; ++k) {
    force[k] = V3(0.0, 0.0, -m.mass[k] * p.gravity);
    torque[k] = V3::Zero();
  }
  double spin[kCorners], mean_spin = 0.0;
  for (int i = 0; i < kCorners; ++i) {
    const int up = body_index(i, kCeUpright), wheel = body_index(i, kWheelBody);
    spin[i] = (b.w[wheel] - b.w[up]).dot(b.R[up].col(1));  // relative to the upright, as ce
    mean_spin += p.drive_share[i] * spin[i];
  }
  const double drive_total = drive_torque_at_wheels(p, input.throttle, mean_spin);
  const TireParams<double>& tp = p.tire;
  for (int i = 0; i < kCorners; ++i) {
    const CornerData& c = m.corner[i];
    const int lca = body_index(i, kCeLca), up = body_index(i, kCeUpright), wheel = body_index(i, kWheelBody);
    // Tire.
    const V3 axis = b.R[up].col(1);
    const V3 xw = b.x[wheel], vw = b.v[wheel];
    const TerrainContact<double> contact = terrain_query(*m.terrain, fv(xw), 0.0, 0.0);
    const V3 normal = ev(contact.normal);
    const double pen = penetration(contact, tp.unloaded_radius);
    const double fz = tire_normal_force(tp, pen, -vw.dot(normal));
    const V3 t_long = ev(normalized_or(fv(axis.cross(normal)), fv(b.R[0].col(0))));
    const V3 t_lat = normal.cross(t_long);
    const double rolling_radius = tire_rolling_radius(tp, fz);
    TireInput<double> tin;
    tin.fz = fz;
    tin.v_long = vw.dot(t_long);
    tin.v_lat = vw.dot(t_lat);
    tin.omega = b.w[wheel].dot(axis);  // absolute spin about the axis, as ce (the upright turns too)
    tin.rolling_radius = rolling_radius;
    tin.defl_long = defl[i];
    tin.defl_lat = defl[kCorners + i];
    tin.contact_length = pen > 0.0 ? 2.0 * std::sqrt(tp.unloaded_radius * pen) : 0.0;
    const TireOutput<double> tire = tmeasy_forces(tp, tin, contact.mu_scale);
    defl_rate[i] = tire.defl_long_rate;
    defl_rate[kCorners + i] = tire.defl_lat_rate;
    const V3 f_tire = tire.fx * t_long + tire.fy * t_lat + fz * normal;
    const V3 contact_point = xw - (tp.unloaded_radius - pen) * normal;
    force[wheel] += f_tire;
    torque[wheel] += (contact_point - xw).cross(f_tire);
    // Drive and brake (inboard: reacted by the chassis), rolling resistance (by the ground).
    const double drive = drive_total * p.drive_share[i];
    const double external = drive - (tp.unloaded_radius - pen) * tire.fx;  // the contact lever, as ce
    const double brake_max = p.brake_torque[i] * input.brake;
    const double resist_max = brake_max + tire.rolling_resistance_torque_max;
    const double resist =
        clamp(-external - p.wheel_spin_inertia * p.wheel_lock_rate * spin[i], -resist_max, resist_max);
    const double brake = resist_max > 0.0 ? resist * (brake_max / resist_max) : 0.0;
    torque[wheel] += (drive + resist) * axis + tire.mz * normal;
    torque[0] -= (drive + brake) * axis;
    // Spring + stops and shock: two-point forces between chassis and LCA (> 0 pushes apart).
    const CeAxleForces<double>& a = p.axle[i / 2];
    for (int e = 0; e < 2; ++e) {
      const V3 rc = b.R[0] * (e == 0 ? c.spring_c : c.shock_c);
      const V3 rl = b.R[lca] * (e == 0 ? c.spring_l : c.shock_l);
      const V3 d = (b.x[lca] + rl) - (b.x[0] + rc);
      const double length = d.norm();
      const V3 dir = d / length;
      double f;
      if (e == 0) {
        f = ce_spring_force(a, length) + ce_stop_force(p, a, length);
      } else {
        const double rate = dir.dot((b.v[lca] + b.w[lca].cross(rl)) - (b.v[0] + b.w[0].cross(rc)));
        f = ce_shock_force(a, length, rate);
      }
      force[lca] += f * dir;
      torque[lca] += rl.cross(f * dir);
      force[0] -= f * dir;
      torque[0] -= rc.cross(f * dir);
    }
  }
}

int residual(double t, N_Vector yy, N_Vector yd, N_Vector rr, void* user) {
  const Model& m = *static_cast<const Model*>(user);
  const double* y = N_VGetArrayPointer(yy);
  const double* yp = N_VGetArrayPointer(yd);
  double* res = N_VGetArrayPointer(rr);
  Bodies b;
  unpack(y, b);
  const double steer = y[kSteerVar];
  const double steer_rate = steer_rate_of(m, t, steer);
  Rows rows;
  build_rows(m, b, steer, steer_rate, rows);
  V3 force[kBodies], torque[kBodies];
  double defl_rate[2 * kCorners];
  applied_forces(m, b, t, y + kDeflVar, force, torque, defl_rate);
  // G^T lambda (eq. 8 constraint forces) and G_p^T mu (the GGL projection).
  V6 g_lambda[kBodies], g_mu[kBodies];
  for (int k = 0; k < kBodies; ++k) g_lambda[k] = g_mu[k] = V6::Zero();
  for (int r = 0; r < kRows; ++r) {
    const Row& row = rows[r];
    const double lambda = y[kLambda + r], mu = r < kHolonomic ? y[kMu + r] : 0.0;
    g_lambda[row.a] += lambda * row.ja;
    g_lambda[row.b] += lambda * row.jb;
    g_mu[row.a] += mu * row.ja;
    g_mu[row.b] += mu * row.jb;
    res[kLambda + r] = row_velocity(row, b);  // velocity constraints
    if (r < kHolonomic) res[kMu + r] = row.phi;  // position constraints
  }
  for (int k = 0; k < kBodies; ++k) {
    const V3 v_proj = b.v[k] - g_mu[k].head<3>();
    const V3 w_proj = b.w[k] - g_mu[k].tail<3>();
    const double mu_norm = y[kMu + kHolonomic + k];
    const Eigen::Vector4d q_rate = quat_rate_world(b.q[k], w_proj) - mu_norm * b.q[k];
    for (int j = 0; j < 3; ++j) res[7 * k + j] = yp[7 * k + j] - v_proj(j);
    for (int j = 0; j < 4; ++j) res[7 * k + 3 + j] = yp[7 * k + 3 + j] - q_rate(j);
    res[kMu + kHolonomic + k] = b.q[k].squaredNorm() - 1.0;
    // Newton-Euler about the COM, world frame.
    const M3 inertia = b.R[k] * m.inertia[k] * b.R[k].transpose();
    const V3 v_dot(yp[kV + 6 * k], yp[kV + 6 * k + 1], yp[kV + 6 * k + 2]);
    const V3 w_dot(yp[kV + 6 * k + 3], yp[kV + 6 * k + 4], yp[kV + 6 * k + 5]);
    const V3 lin = m.mass[k] * v_dot - force[k] + g_lambda[k].head<3>();
    const V3 ang = inertia * w_dot + b.w[k].cross(inertia * b.w[k]) - torque[k] + g_lambda[k].tail<3>();
    for (int j = 0; j < 3; ++j) {
      res[kV + 6 * k + j] = lin(j);
      res[kV + 6 * k + 3 + j] = ang(j);
    }
  }
  res[kSteerVar] = yp[kSteerVar] - steer_rate;
  for (int j = 0; j < 2 * kCorners; ++j) res[kDeflVar + j] = yp[kDeflVar + j] - defl_rate[j];
  return 0;
}

// Velocity constraint values G v + g_t at a configuration (for the consistent initial lambda).
Eigen::VectorXd velocity_constraints(const Model& m, const double* y, double t) {
  Bodies b;
  unpack(y, b);
  Rows rows;
  build_rows(m, b, y[kSteerVar], steer_rate_of(m, t, y[kSteerVar]), rows);
  Eigen::VectorXd c(kRows);
  for (int r = 0; r < kRows; ++r) c(r) = row_velocity(rows[r], b);
  return c;
}

// Maximal coordinates from the ce state (same bodies, same pose: corner_pose / corner_motion),
// with consistent derivatives and multipliers from the acceleration-level form of eq. 8.
void initial_state(const Model& m, const std::vector<double>& s, double t0, double* y, double* yp) {
  using namespace ce;
  const CeParams<double>& p = *m.p;
  std::fill(y, y + kUnknowns, 0.0);
  std::fill(yp, yp + kUnknowns, 0.0);
  const Quat<double> q0 = normalized(load_quat(s.data(), kQuat));
  const M3 r0 = em(rotation_matrix(q0));
  const V3 origin = ev(load3(s.data(), kPos)), omega_b = ev(load3(s.data(), kOmega)), vel_b = ev(load3(s.data(), kVel));
  auto put = [&](int k, const V3& com_chassis, const M3& rel_rot, const V3& rel_vel, const V3& rel_omega) {
    const Eigen::Quaterniond q(r0 * rel_rot);
    for (int j = 0; j < 3; ++j) y[7 * k + j] = (origin + r0 * com_chassis)(j);
    y[7 * k + 3] = q.w();
    y[7 * k + 4] = q.x();
    y[7 * k + 5] = q.y();
    y[7 * k + 6] = q.z();
    const V3 v = r0 * (vel_b + omega_b.cross(com_chassis) + rel_vel), w = r0 * (omega_b + rel_omega);
    for (int j = 0; j < 3; ++j) {
      y[kV + 6 * k + j] = v(j);
      y[kV + 6 * k + 3 + j] = w(j);
    }
  };
  put(0, ev(p.chassis_com), M3::Identity(), V3::Zero(), V3::Zero());
  const double steer = s[kSteer];
  const SteeringLinkState<double> link = steering_link_state(p.steering, steer, steer_rate_of(m, t0, steer));
  for (int i = 0; i < kCorners; ++i) {
    const CornerGeometry<double>& g = p.corner[i];
    const TierodInner<double> inner = tierod_inner_point(g, p.steering, link);
    const CornerPose<double> pose = corner_pose(g, s[kLca + i], inner);
    const CornerMotion<double> mo = corner_motion(g, pose, s[kLcaRate + i], inner);
    const Vec3<double> rod0 = g.design.tierod_outer - g.design.tierod_inner, rod = pose.tierod_outer - pose.tierod_inner;
    const M3 rod_rot = em(rotation_between(rod0 * (1.0 / norm(rod0)), rod * (1.0 / norm(rod))));
    const V3 lca_com = ev(pose.lca_com), uca_com = ev(pose.uca_com), up_com = ev(pose.upright_com);
    put(body_index(i, kCeLca), lca_com, em(axis_angle_matrix(g.lca_axis, s[kLca + i])),
        ev(mo.lca_omega).cross(lca_com - ev(g.lca_axis_point)), ev(mo.lca_omega));
    put(body_index(i, kCeUca), uca_com, em(axis_angle_matrix(g.uca_axis, pose.uca_angle)),
        ev(mo.uca_omega).cross(uca_com - ev(g.uca_circle_centre)), ev(mo.uca_omega));
    put(body_index(i, kCeUpright), up_com, em(pose.upright_rotation),
        ev(mo.lca_ball_vel) + ev(mo.upright_omega).cross(up_com - ev(pose.lca_ball)), ev(mo.upright_omega));
    put(body_index(i, kCeTierod), ev(pose.tierod_com), rod_rot, 0.5 * (ev(mo.tierod_outer_vel) + ev(mo.tierod_inner_vel)),
        ev(mo.tierod_omega));
    put(body_index(i, kWheelBody), ev(pose.wheel_centre), em(pose.upright_rotation), ev(mo.wheel_centre_vel),
        ev(mo.upright_omega) + s[kWheelSpin + i] * ev(pose.spin_axis));
    y[kDeflVar + i] = s[kDeflLong + i];
    y[kDeflVar + kCorners + i] = s[kDeflLat + i];
  }
  y[kSteerVar] = steer;
  // Derivatives of q, steer, deflections (mu = 0).
  Bodies b;
  unpack(y, b);
  for (int k = 0; k < kBodies; ++k) {
    const Eigen::Vector4d q_rate = quat_rate_world(b.q[k], b.w[k]);
    for (int j = 0; j < 3; ++j) yp[7 * k + j] = b.v[k](j);
    for (int j = 0; j < 4; ++j) yp[7 * k + 3 + j] = q_rate(j);
  }
  yp[kSteerVar] = steer_rate_of(m, t0, steer);
  V3 force[kBodies], torque[kBodies];
  applied_forces(m, b, t0, y + kDeflVar, force, torque, yp + kDeflVar);
  // Eq. 8: [M G^T; G 0] [v'; lambda] = [f; -(dG/dt v + dg_t/dt)], the bias term by a central
  // difference of G v + g_t along the motion at fixed v.
  Rows rows;
  build_rows(m, b, steer, yp[kSteerVar], rows);
  const int nv = 6 * kBodies;
  Eigen::MatrixXd kkt = Eigen::MatrixXd::Zero(nv + kRows, nv + kRows);
  Eigen::VectorXd rhs = Eigen::VectorXd::Zero(nv + kRows);
  for (int k = 0; k < kBodies; ++k) {
    const M3 inertia = b.R[k] * m.inertia[k] * b.R[k].transpose();
    kkt.block<3, 3>(6 * k, 6 * k) = m.mass[k] * M3::Identity();
    kkt.block<3, 3>(6 * k + 3, 6 * k + 3) = inertia;
    rhs.segment<3>(6 * k) = force[k];
    rhs.segment<3>(6 * k + 3) = torque[k] - b.w[k].cross(inertia * b.w[k]);
  }
  for (int r = 0; r < kRows; ++r) {
    kkt.block<1, 6>(nv + r, 6 * rows[r].a) += rows[r].ja.transpose();
    kkt.block<1, 6>(nv + r, 6 * rows[r].b) += rows[r].jb.transpose();
  }
  kkt.block(0, nv, nv, kRows) = kkt.block(nv, 0, kRows, nv).transpose();
  // Central differences along the motion, Richardson-extrapolated (error O(eps^4)): the
  // steering actuator's fast lag (10 ms) makes the plain O(eps^2) form too coarse.
  auto central = [&](double eps) {
    std::vector<double> plus(y, y + kUnknowns), minus(y, y + kUnknowns);
    for (int j = 0; j <= kSteerVar; ++j) {
      plus[j] += eps * yp[j];
      minus[j] -= eps * yp[j];
    }
    return Eigen::VectorXd(
        -(velocity_constraints(m, plus.data(), t0 + eps) - velocity_constraints(m, minus.data(), t0 - eps)) / (2.0 * eps));
  };
  const double eps = 1e-5;
  rhs.tail(kRows) = (4.0 * central(0.5 * eps) - central(eps)) / 3.0;
  const Eigen::VectorXd sol = kkt.partialPivLu().solve(rhs);
  for (int j = 0; j < nv; ++j) yp[kV + j] = sol(j);
  for (int r = 0; r < kRows; ++r) y[kLambda + r] = sol(nv + r);
}

CeDaeSample sample_of(const Model& m, double t, const double* y) {
  Bodies b;
  unpack(y, b);
  CeDaeSample out{};
  out.t = t;
  out.steer = y[kSteerVar];
  out.chassis_origin = fv(b.x[0] - b.R[0] * ev(m.p->chassis_com));
  for (int i = 0; i < kCorners; ++i) out.wheel_centre[i] = fv(b.x[body_index(i, kWheelBody)]);
  Rows rows;
  build_rows(m, b, y[kSteerVar], steer_rate_of(m, t, y[kSteerVar]), rows);
  for (int r = 0; r < kRows; ++r) {
    const bool angular = rows[r].ja.head<3>().isZero();  // perpendicularity / no-spin rows
    if (r < kHolonomic) {
      double& worst = angular ? out.max_angle_residual : out.max_joint_residual;
      worst = std::max(worst, std::fabs(rows[r].phi));
    }
    out.max_velocity_residual = std::max(out.max_velocity_residual, std::fabs(row_velocity(rows[r], b)));
  }
  for (int k = 0; k < kBodies; ++k)
    out.max_quat_norm_residual = std::max(out.max_quat_norm_residual, std::fabs(b.q[k].squaredNorm() - 1.0));
  return out;
}

void check(int flag, const char* what) {
  if (flag < 0) throw Error(std::string("ce_dae_simulate: ") + what + " failed with IDA flag " + std::to_string(flag));
}

}  // namespace

std::vector<CeDaeSample> ce_dae_simulate(const CeParams<double>& p, const TerrainDesc<double>& terrain,
                                         const std::vector<double>& s0,
                                         const std::function<DriverInput<double>(double)>& input,
                                         const std::vector<double>& breakpoints,
                                         const std::vector<double>& sample_times, const CeDaeOptions& options,
                                         CeDaeStats* stats) {
  if (static_cast<int>(s0.size()) != ce::kStateSize) throw Error("ce_dae_simulate: state size");
  Model model = make_model(p, terrain, input);
  // SUNDIALS objects, freed on every way out (normal return or an IDA failure).
  struct Solver {
    SUNContext ctx = nullptr;
    N_Vector yy = nullptr, yp = nullptr, id = nullptr, atol = nullptr;
    void* mem = nullptr;
    SUNMatrix jac = nullptr;
    SUNLinearSolver solver = nullptr;
    ~Solver() {
      if (mem) IDAFree(&mem);
      if (solver) SUNLinSolFree(solver);
      if (jac) SUNMatDestroy(jac);
      for (N_Vector v : {yy, yp, id, atol})
        if (v) N_VDestroy(v);
      if (ctx) SUNContext_Free(&ctx);
    }
  } sv;
  check(SUNContext_Create(nullptr, &sv.ctx), "SUNContext_Create");
  SUNContext ctx = sv.ctx;
  N_Vector yy = sv.yy = N_VNew_Serial(kUnknowns, ctx), yp = sv.yp = N_VNew_Serial(kUnknowns, ctx);
  N_Vector id = sv.id = N_VNew_Serial(kUnknowns, ctx), atol = sv.atol = N_VNew_Serial(kUnknowns, ctx);
  const double t0 = 0.0;
  initial_state(model, s0, t0, N_VGetArrayPointer(yy), N_VGetArrayPointer(yp));
  double* idv = N_VGetArrayPointer(id);
  double* at = N_VGetArrayPointer(atol);
  for (int j = 0; j < kUnknowns; ++j) {
    idv[j] = j < kLambda ? 1.0 : 0.0;  // lambda, mu algebraic
    at[j] = j < kV ? options.atol_position : j < kLambda ? options.atol_velocity : j < kMu ? options.atol_multiplier : options.atol_projection;
  }
  void* mem = sv.mem = IDACreate(ctx);
  SUNMatrix jac = sv.jac = SUNDenseMatrix(kUnknowns, kUnknowns, ctx);
  SUNLinearSolver solver = sv.solver = SUNLinSol_Dense(yy, jac, ctx);
  std::vector<CeDaeSample> out;
  check(IDAInit(mem, residual, t0, yy, yp), "IDAInit");
  check(IDASVtolerances(mem, options.rtol, atol), "IDASVtolerances");
  check(IDASetUserData(mem, const_cast<Model*>(&model)), "IDASetUserData");
  check(IDASetLinearSolver(mem, solver, jac), "IDASetLinearSolver");
  check(IDASetId(mem, id), "IDASetId");
  check(IDASetSuppressAlg(mem, SUNTRUE), "IDASetSuppressAlg");  // index 2: multipliers out of the error test
  check(IDASetMaxNumSteps(mem, options.max_steps), "IDASetMaxNumSteps");
  // IDA's own first step at these tolerances is ~1e-9 s, where the index-2 iteration matrix is too
  // ill-conditioned for its Newton iteration (it then fails at t = 0): start at options.initial_step.
  check(IDASetInitStep(mem, options.initial_step), "IDASetInitStep");
  double t = t0;
  for (double tout : sample_times) {
    while (t < tout) {
      double stop = sample_times.back();
      for (double bp : breakpoints)
        if (bp > t && bp < stop) stop = bp;
      check(IDASetStopTime(mem, stop), "IDASetStopTime");
      check(IDASolve(mem, tout, &t, yy, yp, IDA_NORMAL), "IDASolve");
    }
    out.push_back(sample_of(model, t, N_VGetArrayPointer(yy)));
  }
  if (stats) {
    IDAGetNumSteps(mem, &stats->steps);
    IDAGetNumResEvals(mem, &stats->residual_evals);
    IDAGetNumJacEvals(mem, &stats->jacobian_evals);
    IDAGetNumErrTestFails(mem, &stats->error_test_failures);
    IDAGetNumNonlinSolvConvFails(mem, &stats->nonlinear_failures);
    stats->unknowns = kUnknowns;
    stats->constraints = kRows;
  }
  return out;
}

CeDaeAccelerations ce_dae_accelerations(const CeParams<double>& p, const TerrainDesc<double>& terrain,
                                        const std::vector<double>& s, DriverInput<double> input) {
  if (static_cast<int>(s.size()) != ce::kStateSize) throw Error("ce_dae_accelerations: state size");
  const std::function<DriverInput<double>(double)> held = [input](double) { return input; };
  const Model model = make_model(p, terrain, held);
  std::vector<double> y(kUnknowns), yp(kUnknowns);
  initial_state(model, s, 0.0, y.data(), yp.data());
  auto acc = [&](int k) { return Vec3<double>{yp[kV + 6 * k], yp[kV + 6 * k + 1], yp[kV + 6 * k + 2]}; };
  auto alpha = [&](int k) { return Vec3<double>{yp[kV + 6 * k + 3], yp[kV + 6 * k + 4], yp[kV + 6 * k + 5]}; };
  CeDaeAccelerations out;
  out.chassis_com_acc = acc(0);
  out.chassis_alpha = alpha(0);
  for (int i = 0; i < kCorners; ++i) {
    out.wheel_centre_acc[i] = acc(body_index(i, kWheelBody));
    out.upright_alpha[i] = alpha(body_index(i, kCeUpright));
    out.wheel_alpha[i] = alpha(body_index(i, kWheelBody));
  }
  return out;
}

}  // namespace fleetdyn
