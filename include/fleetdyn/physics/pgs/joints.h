// Joint rows: each joint kind as a set of point rows (relative point velocity along a
// direction) and angular rows (relative angular velocity about an axis), with their position
// errors C for Baumgarte stabilization (seed 000 c1: J V1 = -beta C).
#pragma once

#include "fleetdyn/physics/core/config.h"
#include "fleetdyn/physics/core/math.h"
#include "fleetdyn/physics/pgs/layout.h"
#include "fleetdyn/physics/pgs/model.h"
#include "fleetdyn/physics/pgs/rows.h"

namespace fleetdyn {
namespace pgs {

template <class T>
FLEETDYN_FN T unbounded() {
  return T(1e30);
}

// What the row builders accumulate for one system while they store its rows.
template <class T>
struct RowBuild {
  const ModelView<T>* model;
  Strided<T> state, scratch;
  T inv_step;
  int status;     // StatusBits (singular rows)
  T drift;        // [m, rad] max |C| of bilateral rows
  T penetration;  // [m] max violation of unilateral rows
};

// Completes a row's target from its position error and stores it.
// Bilateral: target += -baumgarte C / dt (seed 000 c1).
// Unilateral (psi >= 0 wanted): the seed 002 step 0 <= lambda perp psi/h + J v1 (a gap may close
// within the step, no more), and on violation the seed 000 c2 penetration bias -beta d.
// A restitution target (contacts) replaces the bias when larger.
template <class T>
FLEETDYN_FN void emit_row(RowBuild<T>& b, int r, Row<T> row, bool has_restitution = false, T restitution_target = T(0)) {
  const RowInfo& info = b.model->rows[r];
  const T beta = b.model->settings.baumgarte;
  T lower = -unbounded<T>(), upper = unbounded<T>();
  if (info.kind == kRowBilateral) {
    row.target += -beta * row.position_error * b.inv_step;
    b.drift = larger(b.drift, fabs(row.position_error));
  } else {
    const T psi = row.position_error;
    const T bias = psi >= T(0) ? -psi * b.inv_step : -beta * psi * b.inv_step;
    row.target += has_restitution ? larger(bias, restitution_target) : bias;  // += a moving anchor's rate
    b.penetration = larger(b.penetration, -psi);
    lower = T(0);
  }
  if (!store_row(b.scratch, b.model->row_count, r, info, row, lower, upper)) b.status |= kStatusSingularRow;
}

// An elastic stop (unilateral, psi >= 0 wanted) of stiffness k = 1 / compliance and damping d:
// beyond it (psi < 0) the spring-damper impulse lambda = h (-k psi1 - d psi1_dot), taken at the
// step's end (implicit: stable at any stiffness and step) with psi1 = psi + h J v1, is the row
//   J v1 + gamma lambda = -k psi / (h k + d),  gamma = 1 / (h (h k + d)),  lambda >= 0.
// Short of it (psi >= 0) the row lets the gap close within the step (target -psi / h) and the
// same compliance softens the arrival. As k -> infinity this is the rigid stop with a full
// position correction. (The soft-constraint form of Box2D / ODE's ERP and CFM.)
template <class T>
FLEETDYN_FN void emit_elastic_stop(RowBuild<T>& b, int r, Row<T> row, T compliance, T damping) {
  const T h = T(1) / b.inv_step;
  const T reach = h + damping * compliance;  // (h k + d) / k
  const T psi = row.position_error;
  row.target += psi >= T(0) ? -psi * b.inv_step : -psi / reach;
  b.penetration = larger(b.penetration, -psi);
  const T gamma = compliance / (h * reach);
  if (!store_row(b.scratch, b.model->row_count, r, b.model->rows[r], row, T(0), unbounded<T>(), gamma)) {
    b.status |= kStatusSingularRow;
  }
}

// Relative rotation error of b against a and the joint's reference, as a world-frame rotation
// vector (small-angle: 2 vec(q_e)), q_e = q_b (q_a q_ref)^-1.
template <class T>
FLEETDYN_FN Vec3<T> rotation_error(const Pose<T>& pa, const Pose<T>& pb, Quat<T> reference) {
  const Quat<T> want = pa.orientation * reference;
  const Quat<T> want_inv{want.w, -want.x, -want.y, -want.z};
  const Quat<T> e = pb.orientation * want_inv;
  const T s = e.w >= T(0) ? T(2) : T(-2);
  return Vec3<T>{s * e.x, s * e.y, s * e.z};
}

template <class T>
FLEETDYN_FN Vec3<T> axis_vector(int k) {
  return Vec3<T>{k == 0 ? T(1) : T(0), k == 1 ? T(1) : T(0), k == 2 ? T(1) : T(0)};
}

template <class T>
FLEETDYN_FN Vec3<T> scratch_omega(Strided<T> scratch, int row_count, int body) {
  if (body < 0) return Vec3<T>{T(0), T(0), T(0)};
  return load_vec(scratch, body_scratch(row_count, body, kSw));
}

template <class T>
FLEETDYN_FN void build_joint_rows(RowBuild<T>& b, int j) {
  const ModelView<T>& m = *b.model;
  const Joint<T>& joint = m.joints[j];
  const bool planar = m.settings.dimension == 2;
  const Pose<T> pa = load_pose(b.state, joint.body_a);
  const Pose<T> pb = load_pose(b.state, joint.body_b);
  // A moving anchor (ModelView::anchor_shift): C = |p_b - p_a - R_a s(t)| gains the explicit
  // rate -e . R_a s_dot, so its rows target J v1 = e . R_a s_dot.
  const Vec3<T> zero{T(0), T(0), T(0)};
  const Vec3<T> shift = m.anchor_shift ? m.anchor_shift[j] : zero;
  const Vec3<T> shift_rate = m.anchor_shift_rate ? pa.rotation * m.anchor_shift_rate[j] : zero;
  const Vec3<T> r_a = pa.rotation * (joint.anchor_a + shift);  // levers from the COMs, world
  const Vec3<T> r_b = pb.rotation * joint.anchor_b;
  const Vec3<T> d = (pb.position + r_b) - (pa.position + r_a);  // C of the point-to-point joint
  int r = joint.row_begin;
  const int point_rows = planar ? 2 : 3;
  const bool ball_part = joint.kind == JointKind::Ball || joint.kind == JointKind::Revolute ||
                         joint.kind == JointKind::Universal || joint.kind == JointKind::Weld;
  if (ball_part) {
    // Seed 003: p_a = p_b, a row per world axis. With velocity_product_term the rows target
    // J v1 = -dt (dJ/dt) v0, i.e. the acceleration constraint of seed 003's last block row
    // (a_b + alpha_b x r_b + omega_b x (omega_b x r_b) = the same for a).
    Vec3<T> kappa{T(0), T(0), T(0)};
    if (m.settings.velocity_product_term) {
      const Vec3<T> wa = scratch_omega(b.scratch, m.row_count, joint.body_a);
      const Vec3<T> wb = scratch_omega(b.scratch, m.row_count, joint.body_b);
      kappa = cross(wb, cross(wb, r_b)) - cross(wa, cross(wa, r_a));
    }
    const T step = m.settings.step;
    for (int k = 0; k < point_rows; ++k) {
      const Vec3<T> e = axis_vector<T>(k);
      Row<T> row = point_row(e, r_a, r_b, dot(e, d));
      row.target = dot(e, shift_rate) - step * dot(e, kappa);
      emit_row(b, r++, row);
    }
  }
  if (joint.kind == JointKind::Revolute && !planar) {
    // Hinge: the two vectors normal to a's axis stay normal to b's axis.
    const Vec3<T> axis_b = pb.rotation * joint.axis_b;
    emit_row(b, r++, perpendicular_row(pa.rotation * joint.perp1_a, axis_b));
    emit_row(b, r++, perpendicular_row(pa.rotation * joint.perp2_a, axis_b));
  }
  if (joint.kind == JointKind::Universal) {
    emit_row(b, r++, perpendicular_row(pa.rotation * joint.axis_a, pb.rotation * joint.axis_b));
  }
  if (joint.kind == JointKind::Prismatic) {
    // Slider (seed 000 bar/socket, x_b = x_s): b's point stays on a's axis line; the
    // directions turn with a, so their lever on a reaches b's point (r_a + d).
    const Vec3<T> lever_a = r_a + d;
    const Vec3<T> p1 = pa.rotation * joint.perp1_a;
    emit_row(b, r++, point_row(p1, lever_a, r_b, dot(p1, d)));
    if (!planar) {
      const Vec3<T> p2 = pa.rotation * joint.perp2_a;
      emit_row(b, r++, point_row(p2, lever_a, r_b, dot(p2, d)));
    }
  }
  if (joint.kind == JointKind::Prismatic || joint.kind == JointKind::Weld) {
    // Relative rotation locked (seed 000: omega_b = omega_s = 0).
    const Vec3<T> err = rotation_error(pa, pb, joint.reference);
    if (planar) {
      emit_row(b, r++, angular_row(axis_vector<T>(2), err.z));
    } else {
      for (int k = 0; k < 3; ++k) {
        const Vec3<T> e = axis_vector<T>(k);
        emit_row(b, r++, angular_row(e, dot(e, err)));
      }
    }
  }
  if (joint.kind == JointKind::HingeLimit) {
    // The stop nearer the current angle is the row's: angle - lower >= 0 (b turns up about the
    // axis) or upper - angle >= 0 (b turns down).
    const Vec3<T> axis = pa.rotation * joint.axis_a;
    const Vec3<T> from = pa.rotation * joint.perp1_a, to = pb.rotation * joint.perp1_b;
    const T angle = atan2(dot(axis, cross(from, to)), dot(from, to));
    const bool lower_stop = angle - joint.lower < joint.upper - angle;
    const Row<T> row = lower_stop ? angular_row(axis, angle - joint.lower) : angular_row(-axis, joint.upper - angle);
    if (joint.compliance > T(0)) {
      emit_elastic_stop(b, r++, row, joint.compliance, joint.damping);
    } else {
      emit_row(b, r++, row);
    }
  }
  if (joint.kind == JointKind::Distance || joint.kind == JointKind::Tether) {
    const T len = norm(d);
    const Vec3<T> n = normalized_or(d, zero);  // coincident points: no direction, a singular row
    if (joint.kind == JointKind::Distance) {
      Row<T> row = point_row(n, r_a, r_b, len - joint.length);
      row.target = dot(n, shift_rate);
      emit_row(b, r++, row);
    } else {
      // Seed 002: psi = length - |d| >= 0, the tether only pulls: the row is -n.
      Row<T> row = point_row(-n, r_a, r_b, joint.length - len);
      row.target = -dot(n, shift_rate);
      emit_row(b, r++, row);
    }
  }
}

}  // namespace pgs
}  // namespace fleetdyn
