// Analytic kinematics of one double-wishbone corner of the ce model (seed 001 section 5), in 3-D.
//
// The corner is one constraint-embedded aggregate body (seed section 4.1) with a single
// independent coordinate, the LCA angle theta (0 at design, + = bump, i.e. the ball joint rises).
// The seed's derivations are planar; the HMMWV's are not (skewed arm axes, caster, kingpin
// inclination), so every loop is closed here by the 3-D form of the same idea: the unknown point
// runs on a circle about a known axis and keeps a fixed distance to a known point, which reduces
// to A cos(phi) + B sin(phi) = C (seed eq. 19 and section 5.3):
//   1. LCA ball joint D: rotates with theta about the LCA pivot axis.
//   2. UCA ball joint F: on its circle about the UCA axis, |F - D| = kingpin length
//      (the four-bar loop ADFG of seed 5.1).
//   3. Tierod outer point K: on its circle about the kingpin axis D-F (the upright turning about
//      its ball joints), |K - L| = tierod length (the spindle/tierod loop of seed 5.3).
// The upright's rotation follows from D, F and K. Spring and shock act between chassis and LCA,
// so their lengths are distances (the shock loop of seed 5.2 needs no extra unknown).
//
// Velocities (seed eqs. 9, 13): every rate is linear in (theta_dot, steering rate); they follow by
// differentiating each distance constraint, d.(v_a - v_b) = 0. The velocity-product terms (seed
// eq. 14, X_dot theta_dot) are the accelerations with theta_ddot = 0 and steering acceleration 0,
// from the second derivative |v_a - v_b|^2 + d.(a_a - a_b) = 0. All analytic, no iteration.
//
// Branches: each closure has two solutions; the sign that reproduces the design position is
// stored in the geometry and kept, so the solution is continuous until the closure becomes
// singular (arm and link aligned: the toggle position, far outside the stops for the HMMWV);
// there `assembled` turns false and the nearest real configuration is returned.
//
// Everything is in the chassis frame (ISO), relative to the chassis, and written once for host
// and device (FLEETDYN_FN).
#pragma once

#include "fleetdyn/physics/ce/fourbar.h"
#include "fleetdyn/physics/ce/suspension_geometry.h"
#include "fleetdyn/physics/core/config.h"
#include "fleetdyn/physics/core/math.h"

namespace fleetdyn {

// ---- closures -------------------------------------------------------------------------------

// The unit vector (cos phi, sin phi) with A cos phi + B sin phi = C on the given branch, without
// trigonometric calls. `assembled` is false when |C| > sqrt(A^2 + B^2) (no closure).
template <class T>
struct CircleClosure {
  T cos_phi, sin_phi;
  bool assembled;
};
template <class T>
FLEETDYN_FN CircleClosure<T> close_circle(T a, T b, T c, T branch) {
  const T r2 = a * a + b * b;
  const T w2 = r2 - c * c;
  const T w = branch * sqrt(select(w2 > T(0), w2, T(0)));
  return {(a * c - b * w) / r2, (b * c + a * w) / r2, w2 >= T(0)};
}

// Point on the circle (centre, radius, basis e1, e2) at the closure with |point - target| = length.
// Writes the closure flag and the cosine and sine of the circle angle (from e1 towards e2).
template <class T>
FLEETDYN_FN Vec3<T> point_on_circle_at_distance(Vec3<T> centre, T radius, Vec3<T> e1, Vec3<T> e2, Vec3<T> target,
                                                T length, T branch, bool& assembled, T& cos_angle, T& sin_angle) {
  // |centre + radius (cos e1 + sin e2) - target|^2 = length^2
  const Vec3<T> m = centre - target;
  const T a = T(2) * radius * dot(m, e1);
  const T b = T(2) * radius * dot(m, e2);
  const T c = length * length - norm_sq(m) - radius * radius;
  const CircleClosure<T> cl = close_circle(a, b, c, branch);
  assembled = cl.assembled;
  cos_angle = cl.cos_phi;
  sin_angle = cl.sin_phi;
  return centre + radius * (cl.cos_phi * e1 + cl.sin_phi * e2);
}

// Rotation matrix about the unit `axis` by the angle with the given cosine and sine.
template <class T>
FLEETDYN_FN Mat3<T> axis_rotation(Vec3<T> a, T c, T s) {
  const T t = T(1) - c;
  Mat3<T> r;
  r.m[0][0] = c + t * a.x * a.x;
  r.m[0][1] = t * a.x * a.y - s * a.z;
  r.m[0][2] = t * a.x * a.z + s * a.y;
  r.m[1][0] = t * a.x * a.y + s * a.z;
  r.m[1][1] = c + t * a.y * a.y;
  r.m[1][2] = t * a.y * a.z - s * a.x;
  r.m[2][0] = t * a.x * a.z - s * a.y;
  r.m[2][1] = t * a.y * a.z + s * a.x;
  r.m[2][2] = c + t * a.z * a.z;
  return r;
}

// ---- steering -----------------------------------------------------------------------------

// Pitman four-bar constants in the form of seed eq. 15 (see fourbar.h), precomputed.
template <class T>
struct SteeringLinkage {
  Vec3<T> axis;                // mechanism z in the chassis frame (all pivot axes)
  Vec3<T> real_dir, imag_dir;  // planar complex axes in the chassis frame: real along W -> T
  Vec3<T> pitman_pivot;        // T, chassis frame
  Vec3<T> idler_pivot;         // W
  T a, b, c, d;                // |TW|, |TU|, |UV|, |WV| [m]
  T theta_design;              // crank angle at zero steering
  T theta3_design;             // coupler (link) angle at zero steering
  T branch;                    // assembly mode of the design
  T input_sign;                // +1 or -1: Pitman angle = input_sign * steering angle (+ = turn left)
  T max_angle;                 // [rad] Pitman angle at full steering input
};

// Pose and motion of the steering link for a given steering angle (Pitman arm rotation from
// centre, + = turn left), its rate and acceleration: the link moves in the mechanism plane as a
// rigid body. The *_acc terms are the link's accelerations for the given steering acceleration
// (0: the velocity-product part alone).
template <class T>
struct SteeringLinkState {
  Vec3<T> joint_pos, joint_vel, joint_bias_acc;  // U on the link [m, m/s, m/s^2]
  T rotation;                                    // link rotation from design about `axis` [rad]
  T rate, bias_acc;                              // [rad/s], [rad/s^2]
};

template <class T>
FLEETDYN_FN SteeringLinkState<T> steering_link_state(const SteeringLinkage<T>& s, T steer_angle, T steer_rate,
                                                     T steer_accel = T(0)) {
  const T pitman = s.input_sign * steer_angle;
  const T pitman_rate = s.input_sign * steer_rate;
  const T pitman_accel = s.input_sign * steer_accel;
  const T theta = s.theta_design + pitman;
  const FourBarSolution<T> fb = solve_four_bar(s.a, s.b, s.c, s.d, theta, s.branch, pitman_rate);
  SteeringLinkState<T> st;
  const Vec3<T> crank = s.b * (cos(theta) * s.real_dir + sin(theta) * s.imag_dir);
  st.joint_pos = s.pitman_pivot + crank;
  const Vec3<T> crank_perp = cross(s.axis, crank);
  st.joint_vel = pitman_rate * crank_perp;
  st.joint_bias_acc = pitman_accel * crank_perp - (pitman_rate * pitman_rate) * crank;
  st.rotation = fb.theta3 - s.theta3_design;
  st.rate = fb.p * pitman_rate;
  st.bias_acc = fb.theta3_bias + fb.p * pitman_accel;
  return st;
}

// ---- one corner ---------------------------------------------------------------------------

// Configuration of a corner for a given LCA angle (chassis frame).
template <class T>
struct CornerPose {
  T lca_angle;                 // [rad] independent coordinate, 0 at design, + = bump
  T uca_angle;                 // [rad] UCA rotation about its axis from design
  T steer_angle;               // [rad] heading of the spin axis about chassis z (+ = left): steer plus bump steer
  Vec3<T> lca_ball, uca_ball;  // [m] D, F
  Vec3<T> tierod_inner, tierod_outer;                 // [m] L, K
  Vec3<T> wheel_centre;                               // [m] E
  Vec3<T> lca_com, uca_com, upright_com, tierod_com;  // [m]
  Mat3<T> lca_rotation, uca_rotation;                 // design -> current orientation of the arms
  Mat3<T> upright_rotation;       // design -> current orientation of the upright (and spindle, spin aside)
  Vec3<T> spin_axis;              // unit wheel spin axis (+y at design on both sides: + = rolling forward)
  Vec3<T> spring_arm, shock_arm;  // [m] LCA ends of spring and shock
  T spring_length, shock_length;  // [m]
  bool assembled;                 // every closure exists (false past a toggle position)
};

// Rates and velocity-product terms of a corner (chassis frame, relative to the chassis). For
// lca_rate = 1 and zero steering rate the velocities are the columns of X (seed eq. 9); for the
// actual rates the *_bias terms are X_dot theta_dot (seed eq. 14), the accelerations at
// theta_ddot = 0 and zero steering acceleration.
template <class T>
struct CornerMotion {
  Vec3<T> lca_omega, uca_omega, upright_omega, tierod_omega;                                 // [rad/s]
  Vec3<T> lca_ball_vel, uca_ball_vel, tierod_outer_vel, tierod_inner_vel, wheel_centre_vel;  // [m/s]
  T spring_rate, shock_rate;                                                                 // [m/s] length rates
  Vec3<T> lca_alpha, uca_alpha, upright_alpha, tierod_alpha;                                 // [rad/s^2] bias
  Vec3<T> lca_ball_acc, uca_ball_acc, tierod_outer_acc, tierod_inner_acc, wheel_centre_acc;  // [m/s^2] bias
  T spring_acc, shock_acc;                                                                   // [m/s^2] bias
};

// Velocity and bias acceleration of a point rigidly attached to a body (relative kinematics).
template <class T>
FLEETDYN_FN Vec3<T> rigid_point_vel(Vec3<T> ref_vel, Vec3<T> omega, Vec3<T> r) {
  return ref_vel + cross(omega, r);
}
template <class T>
FLEETDYN_FN Vec3<T> rigid_point_acc(Vec3<T> ref_acc, Vec3<T> omega, Vec3<T> alpha, Vec3<T> r) {
  return ref_acc + cross(alpha, r) + cross(omega, cross(omega, r));
}

template <class T>
FLEETDYN_FN Mat3<T> mat_mul_transpose_b(const Mat3<T>& a, const Mat3<T>& b) {  // a * b^T
  Mat3<T> r;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) r.m[i][j] = a.m[i][0] * b.m[j][0] + a.m[i][1] * b.m[j][1] + a.m[i][2] * b.m[j][2];
  return r;
}

// Tierod inner point of a corner: fixed on the chassis (rear) or carried by the steering link.
template <class T>
struct TierodInner {
  Vec3<T> pos, vel, bias_acc;
};
template <class T>
FLEETDYN_FN TierodInner<T> tierod_inner_point(const CornerGeometry<T>& g, const SteeringLinkage<T>& s,
                                              const SteeringLinkState<T>& link) {
  const Vec3<T> zero{T(0), T(0), T(0)};
  if (g.steered == T(0)) return {g.design.tierod_inner, zero, zero};
  const Vec3<T> design_joint = s.pitman_pivot + s.b * (cos(s.theta_design) * s.real_dir + sin(s.theta_design) * s.imag_dir);
  const Vec3<T> r = rotate_about(s.axis, link.rotation, g.design.tierod_inner - design_joint);
  const Vec3<T> omega = link.rate * s.axis;
  const Vec3<T> alpha = link.bias_acc * s.axis;
  return {link.joint_pos + r, rigid_point_vel(link.joint_vel, omega, r),
          rigid_point_acc(link.joint_bias_acc, omega, alpha, r)};
}

template <class T>
FLEETDYN_FN CornerPose<T> corner_pose(const CornerGeometry<T>& g, T lca_angle, const TierodInner<T>& inner) {
  CornerPose<T> p;
  const DoubleWishboneHardpoints<T>& d = g.design;
  p.lca_angle = lca_angle;
  // 1. LCA: rigid rotation about its pivot axis.
  const Vec3<T> o = g.lca_axis_point;
  p.lca_rotation = axis_rotation(g.lca_axis, cos(lca_angle), sin(lca_angle));
  p.lca_ball = o + p.lca_rotation * (d.lca_ball - o);
  p.lca_com = o + p.lca_rotation * (d.lca_com - o);
  p.spring_arm = o + p.lca_rotation * (d.spring_arm - o);
  p.shock_arm = o + p.lca_rotation * (d.shock_arm - o);
  // 2. UCA ball joint: on its circle, at kingpin length from the LCA ball joint.
  bool uca_ok = true, tierod_ok = true;
  T uca_cos, uca_sin;
  p.uca_ball = point_on_circle_at_distance(g.uca_circle_centre, g.uca_radius, g.uca_e1, g.uca_e2, p.lca_ball,
                                           g.kingpin_length, g.uca_branch, uca_ok, uca_cos, uca_sin);
  p.uca_angle = atan2(uca_sin, uca_cos);
  p.uca_rotation = axis_rotation(g.uca_axis, uca_cos, uca_sin);
  p.uca_com = g.uca_circle_centre + p.uca_rotation * (d.uca_com - g.uca_circle_centre);
  // 3. Upright about the kingpin: tierod outer point on its circle, at tierod length from L.
  const Vec3<T> k = (p.uca_ball - p.lca_ball) * (T(1) / g.kingpin_length);
  const Mat3<T> basis = frame_from_axis_and_point(k, vec3(T(1), T(0), T(0)));
  p.tierod_inner = inner.pos;
  T circle_cos, circle_sin;  // the basis is arbitrary: only the point matters
  p.tierod_outer = point_on_circle_at_distance(p.lca_ball + g.tierod_axial * k, g.tierod_radial, basis.col(1),
                                               basis.col(2), inner.pos, g.tierod_length, g.tierod_branch, tierod_ok,
                                               circle_cos, circle_sin);
  const Mat3<T> frame = frame_from_axis_and_point(k, p.tierod_outer - p.lca_ball);
  p.upright_rotation = mat_mul_transpose_b(frame, g.design_kingpin_frame);
  const Mat3<T>& r = p.upright_rotation;
  p.wheel_centre = p.lca_ball + r * (d.wheel_centre - d.lca_ball);
  p.upright_com = p.lca_ball + r * (d.upright_com - d.lca_ball);
  p.tierod_com = T(0.5) * (p.tierod_inner + p.tierod_outer);
  p.spin_axis = r.col(1);
  // Steer: the upright's rotation about the kingpin, as the angle of the spin axis about z.
  p.steer_angle = atan2(-p.spin_axis.x, p.spin_axis.y);
  p.spring_length = norm(d.spring_chassis - p.spring_arm);
  p.shock_length = norm(d.shock_chassis - p.shock_arm);
  p.assembled = uca_ok && tierod_ok;
  return p;
}

// Velocities of a corner (the first half of CornerMotion) for an LCA rate and the tierod inner
// point's velocity: every rate is linear in them (seed eqs. 9, 13).
template <class T>
FLEETDYN_FN void corner_velocities(const CornerGeometry<T>& g, const CornerPose<T>& p, T lca_rate, Vec3<T> inner_vel,
                                   CornerMotion<T>& m) {
  // 1. LCA: fixed axis.
  m.lca_omega = lca_rate * g.lca_axis;
  m.lca_ball_vel = cross(m.lca_omega, p.lca_ball - g.lca_axis_point);
  // 2. UCA: (F - D).(v_F - v_D) = 0 with v_F = phi_dot (u x r_F).
  const Vec3<T> tangent = cross(g.uca_axis, p.uca_ball - g.uca_circle_centre);
  const Vec3<T> kingpin = p.uca_ball - p.lca_ball;
  const T uca_rate = dot(kingpin, m.lca_ball_vel) / dot(kingpin, tangent);
  m.uca_omega = uca_rate * g.uca_axis;
  m.uca_ball_vel = uca_rate * tangent;
  // 3. Upright: omega x (F - D) = v_F - v_D fixes omega up to a spin sigma about the kingpin;
  //    the tierod, (K - L).(v_K - v_L) = 0, fixes sigma.
  const T inv_len2 = T(1) / norm_sq(kingpin);
  const Vec3<T> k = kingpin * sqrt(inv_len2);
  const Vec3<T> omega_perp = cross(kingpin, m.uca_ball_vel - m.lca_ball_vel) * inv_len2;
  const Vec3<T> r_k = p.tierod_outer - p.lca_ball;
  const Vec3<T> tierod = p.tierod_outer - p.tierod_inner;
  const T sigma = dot(tierod, inner_vel - m.lca_ball_vel - cross(omega_perp, r_k)) / dot(tierod, cross(k, r_k));
  m.upright_omega = omega_perp + sigma * k;
  m.tierod_outer_vel = rigid_point_vel(m.lca_ball_vel, m.upright_omega, r_k);
  m.tierod_inner_vel = inner_vel;
  m.wheel_centre_vel = rigid_point_vel(m.lca_ball_vel, m.upright_omega, p.wheel_centre - p.lca_ball);
  // 4. Tierod body: joined by universal joints (seed 5), so no spin about its own axis.
  m.tierod_omega = cross(tierod, m.tierod_outer_vel - inner_vel) * (T(1) / norm_sq(tierod));
  // 5. Spring and shock lengths (chassis point fixed).
  const Vec3<T> spring = p.spring_arm - g.design.spring_chassis, shock = p.shock_arm - g.design.shock_chassis;
  m.spring_rate = dot(spring, cross(m.lca_omega, p.spring_arm - g.lca_axis_point)) / p.spring_length;
  m.shock_rate = dot(shock, cross(m.lca_omega, p.shock_arm - g.lca_axis_point)) / p.shock_length;
}

// The velocity-product terms (second half of CornerMotion) given the velocities: accelerations
// at zero LCA acceleration, from |v_a - v_b|^2 + (a - b).(acc_a - acc_b) = 0 per distance.
template <class T>
FLEETDYN_FN void corner_biases(const CornerGeometry<T>& g, const CornerPose<T>& p, const TierodInner<T>& inner,
                               CornerMotion<T>& m) {
  // 1. LCA: fixed axis, theta_ddot = 0 -> no angular acceleration, centripetal only.
  m.lca_alpha = Vec3<T>{T(0), T(0), T(0)};
  m.lca_ball_acc = cross(m.lca_omega, m.lca_ball_vel);
  // 2. UCA: |v_FD|^2 + (F-D).(phi_ddot tangent + centripetal_f - a_D) = 0
  const Vec3<T> tangent = cross(g.uca_axis, p.uca_ball - g.uca_circle_centre);
  const Vec3<T> kingpin = p.uca_ball - p.lca_ball;
  const Vec3<T> centripetal_f = cross(m.uca_omega, m.uca_ball_vel);
  const Vec3<T> kingpin_vel = m.uca_ball_vel - m.lca_ball_vel;
  const T uca_bias = -(norm_sq(kingpin_vel) + dot(kingpin, centripetal_f - m.lca_ball_acc)) / dot(kingpin, tangent);
  m.uca_alpha = uca_bias * g.uca_axis;
  m.uca_ball_acc = uca_bias * tangent + centripetal_f;
  // 3. Upright: alpha x (F - D) = a_F - a_D - omega x (omega x (F - D)) =: b, so
  //    alpha = (F - D) x b / |F - D|^2 + tau k; the tierod's second derivative fixes tau.
  const T inv_len2 = T(1) / norm_sq(kingpin);
  const Vec3<T> k = kingpin * sqrt(inv_len2);
  const Vec3<T> r_k = p.tierod_outer - p.lca_ball;
  const Vec3<T> tierod = p.tierod_outer - p.tierod_inner;
  const Vec3<T> spin_lever = cross(k, r_k);
  const Vec3<T> b = m.uca_ball_acc - m.lca_ball_acc - cross(m.upright_omega, cross(m.upright_omega, kingpin));
  const Vec3<T> alpha_perp = cross(kingpin, b) * inv_len2;
  const Vec3<T> tierod_vel = m.tierod_outer_vel - inner.vel;
  const Vec3<T> acc_k_without_tau = rigid_point_acc(m.lca_ball_acc, m.upright_omega, alpha_perp, r_k);
  const T tau = -(norm_sq(tierod_vel) + dot(tierod, acc_k_without_tau - inner.bias_acc)) / dot(tierod, spin_lever);
  m.upright_alpha = alpha_perp + tau * k;
  m.tierod_outer_acc = acc_k_without_tau + tau * spin_lever;
  m.tierod_inner_acc = inner.bias_acc;
  m.wheel_centre_acc = rigid_point_acc(m.lca_ball_acc, m.upright_omega, m.upright_alpha, p.wheel_centre - p.lca_ball);
  // 4. Tierod body: alpha x d = a_rel - omega x (omega x d), no axial component.
  const Vec3<T> tierod_acc = m.tierod_outer_acc - inner.bias_acc;
  m.tierod_alpha = cross(tierod, tierod_acc - cross(m.tierod_omega, cross(m.tierod_omega, tierod))) * (T(1) / norm_sq(tierod));
  // 5. Spring and shock lengths: d2/dt2 |r| = (|v|^2 + r.a - rate^2) / |r|, chassis end fixed.
  const Vec3<T> v_s = cross(m.lca_omega, p.spring_arm - g.lca_axis_point);
  const Vec3<T> v_b = cross(m.lca_omega, p.shock_arm - g.lca_axis_point);
  m.spring_acc = (norm_sq(v_s) + dot(p.spring_arm - g.design.spring_chassis, cross(m.lca_omega, v_s)) -
                  m.spring_rate * m.spring_rate) /
                 p.spring_length;
  m.shock_acc = (norm_sq(v_b) + dot(p.shock_arm - g.design.shock_chassis, cross(m.lca_omega, v_b)) - m.shock_rate * m.shock_rate) /
                p.shock_length;
}

template <class T>
FLEETDYN_FN CornerMotion<T> corner_motion(const CornerGeometry<T>& g, const CornerPose<T>& p, T lca_rate,
                                          const TierodInner<T>& inner) {
  CornerMotion<T> m;
  corner_velocities(g, p, lca_rate, inner.vel, m);
  corner_biases(g, p, inner, m);
  return m;
}

// ---- construction (host or device; done once per parameter set) ----------------------------

template <class T>
FLEETDYN_FN CornerGeometry<T> make_corner_geometry(const DoubleWishboneHardpoints<T>& left, T axle_x, T side, bool steered) {
  CornerGeometry<T> g;
  g.side = side;
  g.steered = steered ? T(1) : T(0);
  DoubleWishboneHardpoints<T>& d = g.design;
  const Vec3<T>* src = &left.lca_front;
  Vec3<T>* dst = &d.lca_front;
  constexpr int kPoints = sizeof(DoubleWishboneHardpoints<T>) / sizeof(Vec3<T>);
  for (int i = 0; i < kPoints; ++i) dst[i] = corner_point(src[i], axle_x, side);
  const Vec3<T> fallback{T(1), T(0), T(0)};
  // Axes point forward on the left and backward on the right, so + rotation lifts the outboard end.
  g.lca_axis = side * normalized_or(d.lca_front - d.lca_back, fallback);
  g.lca_axis_point = d.lca_back;
  g.uca_axis = side * normalized_or(d.uca_front - d.uca_back, fallback);
  const Vec3<T> f_rel = d.uca_ball - d.uca_back;
  g.uca_circle_centre = d.uca_back + dot(f_rel, g.uca_axis) * g.uca_axis;
  const Vec3<T> radial = d.uca_ball - g.uca_circle_centre;
  g.uca_radius = norm(radial);
  g.uca_e1 = radial * (T(1) / g.uca_radius);
  g.uca_e2 = cross(g.uca_axis, g.uca_e1);
  g.kingpin_length = norm(d.uca_ball - d.lca_ball);
  const Vec3<T> k = (d.uca_ball - d.lca_ball) * (T(1) / g.kingpin_length);
  const Vec3<T> k_rel = d.tierod_outer - d.lca_ball;
  g.tierod_axial = dot(k_rel, k);
  g.tierod_radial = norm(k_rel - g.tierod_axial * k);
  g.tierod_length = norm(d.tierod_outer - d.tierod_inner);
  g.design_kingpin_frame = frame_from_axis_and_point(k, k_rel);
  // Branches: the closure solution that reproduces the design point. At design the UCA angle is
  // 0, so sin(phi) = 0 and the sign of w = A sin - B cos ... decides; pick by comparison.
  g.uca_branch = T(1);
  g.tierod_branch = T(1);
  for (int pass = 0; pass < 2; ++pass) {
    const TierodInner<T> fixed{d.tierod_inner, {T(0), T(0), T(0)}, {T(0), T(0), T(0)}};
    const CornerPose<T> pose = corner_pose(g, T(0), fixed);
    if (pass == 0) {
      if (norm(pose.uca_ball - d.uca_ball) > T(1e-6) * g.kingpin_length) g.uca_branch = T(-1);
    } else if (norm(pose.tierod_outer - d.tierod_outer) > T(1e-6) * g.tierod_length) {
      g.tierod_branch = T(-1);
    }
  }
  return g;
}

template <class T>
FLEETDYN_FN SteeringLinkage<T> make_steering_linkage(const PitmanSteeringGeometry<T>& m) {
  SteeringLinkage<T> s;
  const T c = cos(m.pitch), sn = sin(m.pitch);
  // Rotation about chassis y by `pitch`: mechanism -> chassis.
  auto to_chassis = [&](Vec3<T> v) { return Vec3<T>{c * v.x + sn * v.z, v.y, -sn * v.x + c * v.z}; };
  auto planar = [](Vec3<T> v) { return Vec3<T>{v.x, v.y, T(0)}; };
  s.axis = to_chassis(vec3(T(0), T(0), T(1)));
  const Vec3<T> t = planar(m.pitman_pivot), u = planar(m.pitman_link), v = planar(m.idler_link), w = planar(m.idler_pivot);
  const Vec3<T> real_m = normalized_or(t - w, vec3(T(0), T(1), T(0)));
  const Vec3<T> imag_m = cross(vec3(T(0), T(0), T(1)), real_m);
  s.real_dir = to_chassis(real_m);
  s.imag_dir = to_chassis(imag_m);
  s.pitman_pivot = m.origin + to_chassis(t);
  s.idler_pivot = m.origin + to_chassis(w);
  s.a = norm(t - w);
  s.b = norm(u - t);
  s.c = norm(u - v);
  s.d = norm(v - w);
  s.theta_design = atan2(dot(u - t, imag_m), dot(u - t, real_m));
  const T theta4_design = atan2(dot(v - w, imag_m), dot(v - w, real_m));
  s.branch = T(1);
  FourBarSolution<T> fb = solve_four_bar(s.a, s.b, s.c, s.d, s.theta_design, s.branch, T(0));
  if (fabs(sin(fb.theta4 - theta4_design)) + fabs(cos(fb.theta4 - theta4_design) - T(1)) > T(1e-9)) {
    s.branch = T(-1);
    fb = solve_four_bar(s.a, s.b, s.c, s.d, s.theta_design, s.branch, T(0));
  }
  s.theta3_design = fb.theta3;
  s.max_angle = m.max_angle;
  s.input_sign = T(1);  // set by the vehicle from the wheels' response (make_ce_suspension)
  return s;
}

}  // namespace fleetdyn
