// One time step of one pgs system (seed 000): V* = V0 + M^-1 F dt, rows J from the positions at
// the start of the step, lambda by projected Gauss-Seidel (solve.h) so that
// J V1 = J (V* + M^-1 J^T lambda) meets each row's target and bounds, then the semi-implicit
// position update x1 = x0 + dt V1 (seed 002: u^{l+1} = u^l + V nu^{l+1} h).
// The same source runs in the CPU loop and in the CUDA kernel.
#pragma once

#include "fleetdyn/physics/core/config.h"
#include "fleetdyn/physics/core/math.h"
#include "fleetdyn/physics/pgs/contact.h"
#include "fleetdyn/physics/pgs/joints.h"
#include "fleetdyn/physics/pgs/layout.h"
#include "fleetdyn/physics/pgs/model.h"
#include "fleetdyn/physics/pgs/rows.h"
#include "fleetdyn/physics/pgs/solve.h"

namespace fleetdyn {
namespace pgs {

// Position and velocity of a kinematic body's motion law at time t (seed 000: x_s(t), u_s(t)).
template <class T>
FLEETDYN_FN void kinematic_motion(const Body<T>& body, T t, Vec3<T>* x, Vec3<T>* v) {
  const T phase = body.motion_frequency * t + body.motion_phase;
  *x = body.motion_origin + t * body.motion_velocity + sin(phase) * body.motion_amplitude;
  *v = body.motion_velocity + (body.motion_frequency * cos(phase)) * body.motion_amplitude;
}

template <class T>
FLEETDYN_FN bool finite_value(T v) {
  return v - v == T(0);
}  // false for inf and NaN

// Loads V0 and M^-1 into the body scratch. Kinematic bodies get their prescribed velocity at
// t + dt (seed 000: J V1 = u_s(t + dt)) and no inverse mass.
template <class T>
FLEETDYN_FN void load_bodies(const ModelView<T>& m, Strided<T> state, Strided<T> scratch, T t) {
  const bool planar = m.settings.dimension == 2;
  for (int i = 0; i < m.body_count; ++i) {
    const Body<T>& body = m.bodies[i];
    const int s = body_scratch(m.row_count, i, 0);
    Vec3<T> v = load_vec(state, body_field(i, kVx));
    Vec3<T> w = load_vec(state, body_field(i, kWx));
    for (int k = 0; k < 9; ++k) scratch[s + kSInvMass + k] = T(0);
    if (body.kinematic) {
      Vec3<T> x;
      kinematic_motion(body, t + m.settings.step, &x, &v);
      w = Vec3<T>{T(0), T(0), T(0)};
    } else {
      const T im = T(1) / body.mass;
      scratch[s + kSInvMass] = im;
      scratch[s + kSInvMass + 1] = im;
      scratch[s + kSInvMass + 2] = planar ? T(0) : im;
      if (planar) {
        v.z = T(0);
        w.x = T(0);
        w.y = T(0);
        scratch[s + kSInvInertia + 2] = body.inv_inertia.z;
      } else {
        // World inverse inertia R I^-1 R^T.
        const Pose<T> p = load_pose(state, i);
        const Mat3<T>& R = p.rotation;
        const Vec3<T> d = body.inv_inertia;
        T c[3][3];
        for (int a = 0; a < 3; ++a)
          for (int b = 0; b < 3; ++b)
            c[a][b] = R.m[a][0] * d.x * R.m[b][0] + R.m[a][1] * d.y * R.m[b][1] + R.m[a][2] * d.z * R.m[b][2];
        scratch[s + kSInvInertia + 0] = c[0][0];
        scratch[s + kSInvInertia + 1] = c[1][1];
        scratch[s + kSInvInertia + 2] = c[2][2];
        scratch[s + kSInvInertia + 3] = c[0][1];
        scratch[s + kSInvInertia + 4] = c[0][2];
        scratch[s + kSInvInertia + 5] = c[1][2];
      }
    }
    store_vec(scratch, s + kSv, v);
    store_vec(scratch, s + kSw, w);
  }
}

// Velocity of a body point (lever r from the COM, world) at the start of the step.
template <class T>
FLEETDYN_FN Vec3<T> point_velocity(const ModelView<T>& m, Strided<T> state, int body, Vec3<T> r, T t) {
  if (body < 0) return Vec3<T>{T(0), T(0), T(0)};
  if (m.bodies[body].kinematic) {
    Vec3<T> x, v;
    kinematic_motion(m.bodies[body], t, &x, &v);
    return v;
  }
  return load_vec(state, body_field(body, kVx)) + cross(load_vec(state, body_field(body, kWx)), r);
}

// V* = V0 + M^-1 F dt: gravity, the external forces (ModelView), springs (seed 000 f_sp) and, in
// 3-D, the gyroscopic torque -omega x (I omega) (seed 003's second block row), all evaluated at
// the start of the step.
template <class T>
FLEETDYN_FN void apply_forces(const ModelView<T>& m, Strided<T> state, Strided<T> scratch, T t) {
  const T dt = m.settings.step;
  const int rows = m.row_count;
  for (int i = 0; i < m.body_count; ++i) {
    const Body<T>& body = m.bodies[i];
    if (body.kinematic) continue;
    const int s = body_scratch(rows, i, 0);
    Vec3<T> dv, dw;
    apply_inverse_mass(scratch, rows, i, body.mass * m.settings.gravity, Vec3<T>{T(0), T(0), T(0)}, &dv, &dw);
    if (m.external_force) {
      Vec3<T> ext_v, ext_w;
      apply_inverse_mass(scratch, rows, i, m.external_force[i], m.external_torque[i], &ext_v, &ext_w);
      dv += ext_v;
      dw += ext_w;
    }
    if (m.settings.dimension == 3) {
      const Pose<T> p = load_pose(state, i);
      const Vec3<T> w = load_vec(state, body_field(i, kWx));
      const Vec3<T> l = p.rotation * Vec3<T>{body.inertia.x * dot(p.rotation.col(0), w),
                                             body.inertia.y * dot(p.rotation.col(1), w),
                                             body.inertia.z * dot(p.rotation.col(2), w)};
      Vec3<T> unused, gyro_w;
      apply_inverse_mass(scratch, rows, i, Vec3<T>{T(0), T(0), T(0)}, -cross(w, l), &unused, &gyro_w);
      dw += gyro_w;
    }
    store_vec(scratch, s + kSv, load_vec(scratch, s + kSv) + dt * dv);
    store_vec(scratch, s + kSw, load_vec(scratch, s + kSw) + dt * dw);
  }
  for (int k = 0; k < m.spring_count; ++k) {
    const Spring<T>& sp = m.springs[k];
    const Pose<T> pa = load_pose(state, sp.body_a);
    const Pose<T> pb = load_pose(state, sp.body_b);
    const Vec3<T> ra = pa.rotation * sp.anchor_a, rb = pb.rotation * sp.anchor_b;
    const Vec3<T> d = (pb.position + rb) - (pa.position + ra);
    const T len = norm(d);
    const Vec3<T> n = normalized_or(d, Vec3<T>{T(0), T(0), T(0)});
    const T rate = dot(n, point_velocity(m, state, sp.body_b, rb, t) - point_velocity(m, state, sp.body_a, ra, t));
    // Tension positive: f on b = -(k (len - L0) + c len_dot) n.
    const T tension = sp.stiffness * (len - sp.rest_length) + sp.damping * rate;
    const Vec3<T> fb = -tension * n;
    for (int side = 0; side < 2; ++side) {
      const int body = side == 0 ? sp.body_a : sp.body_b;
      if (body < 0 || m.bodies[body].kinematic) continue;
      const Vec3<T> f = side == 0 ? -fb : fb;
      const Vec3<T> r = side == 0 ? ra : rb;
      Vec3<T> dv, dw;
      apply_inverse_mass(scratch, rows, body, f, cross(r, f), &dv, &dw);
      const int s = body_scratch(rows, body, 0);
      store_vec(scratch, s + kSv, load_vec(scratch, s + kSv) + dt * dv);
      store_vec(scratch, s + kSw, load_vec(scratch, s + kSw) + dt * dw);
    }
  }
}

// Warm start: last step's impulses, scaled, projected on this step's bounds and applied.
template <class T>
FLEETDYN_FN void warm_start(const ModelView<T>& m, Strided<T> state, Strided<T> scratch) {
  const T factor = m.settings.warm_start;
  if (!(factor > T(0))) return;
  for (int r = 0; r < m.row_count; ++r) {
    const RowInfo& info = m.rows[r];
    const int b = row_scratch(r, 0);
    if (!(scratch[b + kEffMass] > T(0))) continue;
    T lower, upper;
    row_bounds(scratch, info, r, &lower, &upper);  // friction: the normal row (earlier) is set
    const T lambda = clamp(factor * state[impulse_field(m.body_count, r)], lower, upper);
    scratch[b + kLambda] = lambda;
    apply_row_impulse(scratch, m.row_count, r, info, lambda);
  }
}

// First part of a step (one lane): V*, rows, warm start. Returns false for a frozen system.
template <class T>
FLEETDYN_FN bool pgs_step_prepare(const ModelView<T>& m, Strided<T> state, Strided<T> scratch, int status, RowBuild<T>* build) {
  if (status & kStatusNonFinite) return false;
  const T dt = m.settings.step;
  const T t = state[time_field(m.body_count, m.row_count)];
  load_bodies(m, state, scratch, t);
  *build = RowBuild<T>{&m, state, scratch, T(1) / dt, 0, T(0), T(0)};
  for (int j = 0; j < m.joint_count; ++j) build_joint_rows(*build, j);
  for (int c = 0; c < m.contact_count; ++c) build_contact_rows(*build, c);
  apply_forces(m, state, scratch, t);
  warm_start(m, state, scratch);
  return true;
}

// Last part of a step (one lane), after the sweeps: status, the finite check, the position
// update and the report.
template <class T>
FLEETDYN_FN void pgs_step_finish(const ModelView<T>& m, Strided<T> state, Strided<T> scratch, Strided<T> report,
                                 int* status, const RowBuild<T>& build, T bilateral, T complementarity) {
  const T dt = m.settings.step;
  const T t = state[time_field(m.body_count, m.row_count)];
  // Never NaN out: a non-finite velocity or impulse discards the step and freezes the system.
  bool finite = finite_value(bilateral) && finite_value(complementarity);
  for (int r = 0; r < m.row_count; ++r) finite = finite && finite_value(scratch[row_scratch(r, kLambda)]);
  for (int i = 0; i < m.body_count; ++i)
    for (int k = 0; k < 6; ++k) finite = finite && finite_value(scratch[body_scratch(m.row_count, i, kSv + k)]);
  int flags = build.status;
  if (m.settings.tolerance > T(0) && larger(bilateral, complementarity) > m.settings.tolerance)
    flags |= kStatusNotConverged;
  if (!finite) {
    *status |= flags | kStatusNonFinite;
    return;
  }
  *status |= flags;

  // Semi-implicit update: positions move with the new velocities.
  for (int i = 0; i < m.body_count; ++i) {
    const Body<T>& body = m.bodies[i];
    const int s = body_scratch(m.row_count, i, 0);
    if (body.kinematic) {
      Vec3<T> x, v;
      kinematic_motion(body, t + dt, &x, &v);
      store_vec(state, body_field(i, kPx), x);
      store_vec(state, body_field(i, kVx), v);
      store_vec(state, body_field(i, kWx), Vec3<T>{T(0), T(0), T(0)});
      continue;
    }
    const Vec3<T> v = load_vec(scratch, s + kSv);
    const Vec3<T> w = load_vec(scratch, s + kSw);
    store_vec(state, body_field(i, kPx), load_vec(state, body_field(i, kPx)) + dt * v);
    store_vec(state, body_field(i, kVx), v);
    store_vec(state, body_field(i, kWx), w);
    // q1 = normalize(q0 + dt/2 (0, omega) q0), omega in the world frame.
    const Quat<T> q{state[body_field(i, kQw)], state[body_field(i, kQx)], state[body_field(i, kQy)],
                    state[body_field(i, kQz)]};
    const Quat<T> dq = Quat<T>{T(0), w.x, w.y, w.z} * q;
    const T h = T(0.5) * dt;
    const Quat<T> q1 = normalized(Quat<T>{q.w + h * dq.w, q.x + h * dq.x, q.y + h * dq.y, q.z + h * dq.z});
    state[body_field(i, kQw)] = q1.w;
    state[body_field(i, kQx)] = q1.x;
    state[body_field(i, kQy)] = q1.y;
    state[body_field(i, kQz)] = q1.z;
  }
  for (int r = 0; r < m.row_count; ++r) state[impulse_field(m.body_count, r)] = scratch[row_scratch(r, kLambda)];
  state[time_field(m.body_count, m.row_count)] = t + dt;
  report[kReportResidualBilateral] = bilateral;
  report[kReportResidualComplementarity] = complementarity;
  report[kReportDrift] = build.drift;
  report[kReportPenetration] = build.penetration;
}

// Advances one system by one step on one lane (CPU loop, thread-per-system kernel). status:
// StatusBits, sticky; a system with kStatusNonFinite is not stepped again. report: ReportField
// components of this step.
template <class T>
FLEETDYN_FN void pgs_step(const ModelView<T>& m, Strided<T> state, Strided<T> scratch, Strided<T> report, int* status,
                          int* iterations) {
  RowBuild<T> build{};
  if (!pgs_step_prepare(m, state, scratch, *status, &build)) return;
  T bilateral = T(0), complementarity = T(0);
  *iterations = pgs_solve(m, scratch, &bilateral, &complementarity);
  pgs_step_finish(m, state, scratch, report, status, build, bilateral, complementarity);
}

}  // namespace pgs
}  // namespace fleetdyn
