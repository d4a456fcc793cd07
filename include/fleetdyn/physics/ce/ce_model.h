// The ce vehicle model (seed 001): 14 DOF in minimal coordinates, an ODE with no constraints left.
//
// Topology (seed section 4.1): the chassis (floating, 6 DOF) carries four constraint-embedded
// aggregate bodies (one per corner: LCA, UCA, upright, tierod; 1 DOF, the LCA angle), each
// carrying a wheel (1 DOF, spin relative to the upright). The steering is kinematic: the Pitman
// angle follows the driver's command through a first-order actuator and moves the front tierod
// inner points (seed 5.4).
//
// Dynamics: the articulated-body recursion (seed eqs. 4-7) with the aggregate-body quantities of
// seed eqs. 9-11: for an aggregate S, H(S) stacks each member body's motion per unit LCA rate
// (X^T H, seed eq. 9/10), P(S) is block diagonal plus the wheel's articulated inertia on the
// upright block, and a(S) carries the velocity-product term X_dot theta_dot (seed eq. 11/14).
// Since S has one DOF, D(S) is a scalar. All spatial quantities are in the chassis frame about
// its origin O (physics/core/spatial.h); the base's spatial acceleration in body axes is exactly the
// time derivative of its body-axis velocity state.
//
// Forces: gravity on every body; spring, shock and stops between chassis and LCA enter as a
// generalized force on the LCA angle by virtual work (tau = F dL/dtheta); the tire force acts on
// the wheel at the contact point; drive and inboard brake torques act between chassis and wheel.
//
// State (kStateSize scalars per vehicle):
//   pos        [m]     chassis frame origin, world, relative to the vehicle's local origin
//   quat       [-]     chassis -> world rotation (w, x, y, z)
//   omega      [rad/s] chassis angular velocity, chassis axes
//   vel        [m/s]   velocity of the chassis frame origin, chassis axes
//   lca        [rad]   LCA angle per corner (0 at design, + = bump)
//   lca_rate   [rad/s]
//   wheel_spin [rad/s] wheel spin relative to the upright, + = rolling forward
//   defl_long, defl_lat [m] tire transient deflections (TMeasy)
//   steer      [rad]   steering angle (Pitman arm rotation, + = turn left)
#pragma once

#include "fleetdyn/physics/ce/ce_kinematics.h"
#include "fleetdyn/physics/ce/ce_params.h"
#include "fleetdyn/physics/core/config.h"
#include "fleetdyn/physics/core/driveline.h"
#include "fleetdyn/physics/core/math.h"
#include "fleetdyn/physics/core/spatial.h"
#include "fleetdyn/physics/core/terrain.h"
#include "fleetdyn/physics/core/tire_tmeasy.h"

namespace fleetdyn {

namespace ce {
enum StateIndex : int {
  kPos = 0,
  kQuat = 3,
  kOmega = 7,
  kVel = 10,
  kLca = 13,        // + corner
  kLcaRate = 17,    // + corner
  kWheelSpin = 21,  // + corner
  kDeflLong = 25,   // + corner
  kDeflLat = 29,    // + corner
  kSteer = 33,
  kStateSize = 34
};
}  // namespace ce

constexpr int kCeStateSize = ce::kStateSize;

// ---- small rotations -------------------------------------------------------------------------

template <class T>
FLEETDYN_FN Mat3<T> axis_angle_matrix(Vec3<T> a, T angle) {
  return axis_rotation(a, cos(angle), sin(angle));
}
// The smallest rotation taking unit a to unit b (a . b > -1).
template <class T>
FLEETDYN_FN Mat3<T> rotation_between(Vec3<T> a, Vec3<T> b) {
  const Vec3<T> v = cross(a, b);
  const T k = T(1) / (T(1) + dot(a, b));
  Mat3<T> r;
  const T vx[3] = {v.x, v.y, v.z};
  const T vv[3][3] = {{T(0), -v.z, v.y}, {v.z, T(0), -v.x}, {-v.y, v.x, T(0)}};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      r.m[i][j] = (i == j ? T(1) : T(0)) + vv[i][j] + k * (vx[i] * vx[j] - (i == j ? dot(v, v) : T(0)));
  return r;
}

// ---- force elements --------------------------------------------------------------------------

// Spring force [N] along its length (> 0 pushes chassis and LCA apart); a coil that cannot pull.
template <class T>
FLEETDYN_FN T ce_spring_force(const CeAxleForces<T>& a, T length) {
  const T x = a.spring_free_length - length;
  const T f = a.spring_rate * x + a.spring_cubic * x * x * x;
  return select(x > T(0), f, T(0));
}
template <class T>
FLEETDYN_FN T ce_spring_energy(const CeAxleForces<T>& a, T length) {
  const T x = a.spring_free_length - length;
  return select(x > T(0), T(0.5) * a.spring_rate * x * x + T(0.25) * a.spring_cubic * x * x * x * x, T(0));
}
// Stops on spring length: the bump stop pushes apart below its length, the rebound stop pulls
// together above its length (table: shared/reference/hmmwv.md).
template <class T>
FLEETDYN_FN T ce_stop_table(const CeParams<T>& p, T penetration) {
  const auto engaged = penetration > T(0);
  if (!any_lane(engaged)) return T(0);
  return select(engaged, piecewise_linear(p.stop_table_pen, p.stop_table_force, kStopTablePoints, penetration), T(0));
}
template <class T>
FLEETDYN_FN T ce_stop_force(const CeParams<T>& p, const CeAxleForces<T>& a, T spring_length) {
  return ce_stop_table(p, a.bump_stop_length - spring_length) - ce_stop_table(p, spring_length - a.rebound_stop_length);
}
// Shock force [N] along its length (> 0 pushes apart): piecewise-linear damping with a
// midstroke band (shared/reference/hmmwv.md).
// Generalized force [N m] of the travel limits on the LCA angle (positive = towards bump).
template <class T>
FLEETDYN_FN T ce_travel_limit_torque(const CeAxleForces<T>& a, T lca_angle) {
  const T beyond = select(lca_angle < a.droop_limit_lca, lca_angle - a.droop_limit_lca,
                          select(lca_angle > a.bump_limit_lca, lca_angle - a.bump_limit_lca, T(0)));
  return -a.travel_limit_stiffness * beyond;
}

template <class T>
FLEETDYN_FN T ce_shock_force(const CeAxleForces<T>& a, T length, T length_rate) {
  const auto mid = both(length >= a.shock_midstroke_min, length <= a.shock_midstroke_max);
  const auto compressing = length_rate < T(0);
  const T c = select(mid, select(compressing, a.shock_mid_compression, a.shock_mid_rebound),
                     select(compressing, a.shock_out_compression, a.shock_out_rebound));
  return -c * length_rate;
}

// ---- per-corner body quantities --------------------------------------------------------------

// Everything the recursion (and the dense reference) needs of one corner at one instant, in the
// chassis frame about O. Member bodies j = kCeLca .. kCeTierod, then the wheel.
template <class T>
struct CeCornerBodies {
  RigidInertia<T> inertia[kCeAggregateBodies];
  RigidInertia<T> wheel_inertia;
  SpatialVec<T> lca_map[kCeAggregateBodies];    // motion per unit LCA rate (the columns X^T H)
  SpatialVec<T> rel_vel[kCeAggregateBodies];    // motion relative to the chassis
  SpatialVec<T> rel_bias[kCeAggregateBodies];   // relative acceleration at zero LCA acceleration
  SpatialVec<T> spin_axis;                      // wheel motion per unit spin rate
  SpatialVec<T> ext_force[kCeAggregateBodies];  // gravity
  SpatialVec<T> wheel_ext_force;                // gravity, tire, drive and brake torques
  SpatialVec<T> chassis_reaction;               // drive and brake reaction on the chassis
  T lca_force;                                  // [N m] generalized force on the LCA angle
  T tire_defl_long_rate, tire_defl_lat_rate;    // TMeasy deflection rates
  T tire_normal_force;                          // [N]
  CornerPose<T> pose;
};

// Per-vehicle context of one derivative evaluation.
template <class T>
struct CeEnvironment {
  const TerrainDesc<scalar_of<T>>* terrain;
  T origin_x, origin_y;
};

template <class T>
FLEETDYN_FN void ce_corner_bodies(const CeParams<T>& p, const CeEnvironment<T>& env, int i, const T* s,
                                  const Mat3<T>& rot, const SteeringLinkState<T>& link, T drive_torque,
                                  DriverInput<T> input, CeCornerBodies<T>& out) {
  using namespace ce;
  const CornerGeometry<T>& g = p.corner[i];
  const T lca = s[kLca + i], lca_rate = s[kLcaRate + i], spin = s[kWheelSpin + i];
  const TierodInner<T> inner = tierod_inner_point(g, p.steering, link);
  const CornerPose<T> pose = corner_pose(g, lca, inner);
  CornerMotion<T> unit;  // velocities per unit LCA rate, steering still: X (seed eq. 9)
  corner_velocities(g, pose, T(1), Vec3<T>{T(0), T(0), T(0)}, unit);
  const CornerMotion<T> m = corner_motion(g, pose, lca_rate, inner);  // actual rates, X_dot theta_dot
  out.pose = pose;

  // Member bodies: orientation, COM, reference point for the motion vectors.
  const Vec3<T> tierod_design = g.design.tierod_outer - g.design.tierod_inner;
  const Vec3<T> tierod_now = pose.tierod_outer - pose.tierod_inner;
  const Mat3<T> tierod_rot = rotation_between(tierod_design * (T(1) / norm(tierod_design)),
                                              tierod_now * (T(1) / norm(tierod_now)));
  const Mat3<T>* rots[kCeAggregateBodies] = {&pose.lca_rotation, &pose.uca_rotation, &pose.upright_rotation, &tierod_rot};
  const Vec3<T> coms[kCeAggregateBodies] = {pose.lca_com, pose.uca_com, pose.upright_com, pose.tierod_com};
  const Vec3<T> ref_point[kCeAggregateBodies] = {pose.lca_ball, pose.uca_ball, pose.wheel_centre, pose.tierod_outer};
  const Vec3<T> omega_unit[kCeAggregateBodies] = {unit.lca_omega, unit.uca_omega, unit.upright_omega, unit.tierod_omega};
  const Vec3<T> vel_unit[kCeAggregateBodies] = {unit.lca_ball_vel, unit.uca_ball_vel, unit.wheel_centre_vel,
                                                unit.tierod_outer_vel};
  const Vec3<T> omega[kCeAggregateBodies] = {m.lca_omega, m.uca_omega, m.upright_omega, m.tierod_omega};
  const Vec3<T> vel[kCeAggregateBodies] = {m.lca_ball_vel, m.uca_ball_vel, m.wheel_centre_vel, m.tierod_outer_vel};
  const Vec3<T> alpha[kCeAggregateBodies] = {m.lca_alpha, m.uca_alpha, m.upright_alpha, m.tierod_alpha};
  const Vec3<T> acc[kCeAggregateBodies] = {m.lca_ball_acc, m.uca_ball_acc, m.wheel_centre_acc, m.tierod_outer_acc};
  const Vec3<T> gravity_body = mul_transpose(rot, Vec3<T>{T(0), T(0), -p.gravity});
  for (int j = 0; j < kCeAggregateBodies; ++j) {
    out.inertia[j] = rigid_inertia(p.body_mass[i][j], coms[j], rotate_sym(*rots[j], p.body_inertia[i][j]));
    out.lca_map[j] = motion_at_origin(omega_unit[j], vel_unit[j], ref_point[j]);
    out.rel_vel[j] = motion_at_origin(omega[j], vel[j], ref_point[j]);
    out.rel_bias[j] = spatial_accel_at_origin(alpha[j], acc[j], omega[j], vel[j], ref_point[j]);
    out.ext_force[j] = force_at(p.body_mass[i][j] * gravity_body, coms[j]);
  }

  // Wheel: symmetric about its spin axis, centred on the wheel centre.
  const Vec3<T> axis = pose.spin_axis;
  const T it = p.wheel_transverse_inertia, ia = p.wheel_spin_inertia;
  const Sym3<T> wheel_rot_inertia{it + (ia - it) * axis.x * axis.x, it + (ia - it) * axis.y * axis.y,
                                  it + (ia - it) * axis.z * axis.z, (ia - it) * axis.x * axis.y,
                                  (ia - it) * axis.x * axis.z,      (ia - it) * axis.y * axis.z};
  out.wheel_inertia = rigid_inertia(p.wheel_mass, pose.wheel_centre, wheel_rot_inertia);
  out.spin_axis = motion_at_origin(axis, Vec3<T>{T(0), T(0), T(0)}, pose.wheel_centre);

  // Tire: contact at the wheel centre's terrain query (as strut), force at the contact point.
  const Vec3<T> chassis_pos = load3(s, kPos);
  const Vec3<T> omega_b = load3(s, kOmega), vel_b = load3(s, kVel);
  const Vec3<T> wheel_local = chassis_pos + rot * pose.wheel_centre;
  const Vec3<T> wheel_vel_body = vel_b + cross(omega_b, pose.wheel_centre) + m.wheel_centre_vel;
  const Vec3<T> wheel_vel = rot * wheel_vel_body;
  const Vec3<T> axis_world = rot * axis;
  const TerrainContact<T> contact = terrain_query(*env.terrain, wheel_local, env.origin_x, env.origin_y);
  const T pen = penetration(contact, p.tire.unloaded_radius);
  const T fz = tire_normal_force(p.tire, pen, -dot(wheel_vel, contact.normal));
  const Vec3<T> t_long = normalized_or(cross(axis_world, contact.normal), rot.col(0));
  const Vec3<T> t_lat = cross(contact.normal, t_long);
  const T rolling_radius = tire_rolling_radius(p.tire, fz);
  TireInput<T> tin;
  tin.fz = fz;
  tin.v_long = dot(wheel_vel, t_long);
  tin.v_lat = dot(wheel_vel, t_lat);
  // Absolute spin about the axis (the upright turns too, e.g. with chassis pitch): the slip the
  // patch sees. With the relative spin alone the tire would feed energy into pitch and windup.
  tin.omega = spin + dot(axis, omega_b + m.upright_omega);
  tin.rolling_radius = rolling_radius;
  tin.defl_long = s[kDeflLong + i];
  tin.defl_lat = s[kDeflLat + i];
  const auto touching = pen > T(0);
  tin.contact_length = select(touching, T(2) * sqrt(p.tire.unloaded_radius * select(touching, pen, T(0))), T(0));
  const TireOutput<T> tire = tmeasy_forces(p.tire, tin, contact.mu_scale);
  out.tire_defl_long_rate = tire.defl_long_rate;
  out.tire_defl_lat_rate = tire.defl_lat_rate;
  out.tire_normal_force = fz;
  const Vec3<T> tire_force_world = tire.fx * t_long + tire.fy * t_lat + fz * contact.normal;
  const T contact_lever = p.tire.unloaded_radius - pen;
  const Vec3<T> contact_point_body = pose.wheel_centre - contact_lever * mul_transpose(rot, contact.normal);
  const Vec3<T> normal_body = mul_transpose(rot, contact.normal);

  // Drive and brake (as strut: the resisting torque holds a wheel at rest up to its limit). The
  // tire's moment about the axis is that of its force at the contact point, lever R0 - pen.
  const T external = drive_torque - contact_lever * tire.fx;
  const T brake_max = p.brake_torque[i] * input.brake;
  const T resist_max = brake_max + tire.rolling_resistance_torque_max;
  const T resist = clamp(-external - p.wheel_spin_inertia * p.wheel_lock_rate * spin, -resist_max, resist_max);
  const auto resisting = resist_max > T(0);
  const T brake = select(resisting, resist * (brake_max / select(resisting, resist_max, T(1))), T(0));
  const Vec3<T> wheel_torque = (drive_torque + resist) * axis + tire.mz * normal_body;
  out.wheel_ext_force = force_at(p.wheel_mass * gravity_body, pose.wheel_centre) +
                        force_at(mul_transpose(rot, tire_force_world), contact_point_body) +
                        SpatialVec<T>{wheel_torque, {T(0), T(0), T(0)}};
  out.chassis_reaction = SpatialVec<T>{-(drive_torque + brake) * axis, {T(0), T(0), T(0)}};

  // Spring, stops and shock by virtual work on the LCA angle: tau = F dL/dtheta.
  const CeAxleForces<T>& a = p.axle[i / 2];
  const T spring_total = ce_spring_force(a, pose.spring_length) + ce_stop_force(p, a, pose.spring_length);
  out.lca_force = spring_total * unit.spring_rate +
                  ce_shock_force(a, pose.shock_length, m.shock_rate) * unit.shock_rate + ce_travel_limit_torque(a, lca);
}

// ---- the recursion ---------------------------------------------------------------------------

template <class T>
struct CeAccelerations {
  SpatialVec<T> chassis;  // (d omega/dt, d vel/dt) in chassis axes
  T lca[kCorners];        // [rad/s^2]
  T spin[kCorners];       // [rad/s^2]
};

// The wheel's articulated inertia I - U U^T / D, applied without forming it.
template <class T>
FLEETDYN_FN SpatialVec<T> wheel_articulated_times(const RigidInertia<T>& inertia, const SpatialVec<T>& u, T inv_d,
                                                  const SpatialVec<T>& x) {
  return inertia * x - (dot(x, u) * inv_d) * u;
}

// Forward dynamics by the articulated-body recursion with aggregate bodies (seed eqs. 4-7, 9-11).
// Every articulated inertia here is a sum of rigid-body inertias minus rank-one terms U U^T / D,
// so the rigid parts are summed in their 10-number form and the 6x6 matrix is formed once, at
// the base.
template <class T>
FLEETDYN_FN CeAccelerations<T> ce_articulated_body(const CeParams<T>& p, const T* s, const Mat3<T>& rot,
                                                   const CeCornerBodies<T>* corners) {
  using namespace ce;
  const SpatialVec<T> base_vel{load3(s, kOmega), load3(s, kVel)};
  const Vec3<T> gravity_body = mul_transpose(rot, Vec3<T>{T(0), T(0), -p.gravity});
  const RigidInertia<T> chassis = rigid_inertia(p.chassis_mass, p.chassis_com, p.chassis_inertia);
  RigidInertia<T> rigid_sum = chassis;
  SpatialVec<T> base_bias = cross_force(base_vel, chassis * base_vel) - force_at(p.chassis_mass * gravity_body, p.chassis_com);
  // Tip-to-base gather (seed eqs. 4 and 6), kept per corner for the scatter.
  SpatialVec<T> agg_u_vec[kCorners], wheel_u_vec[kCorners], upright_bias[kCorners];
  T agg_d[kCorners], agg_u[kCorners], wheel_d[kCorners], wheel_u[kCorners];
  for (int i = 0; i < kCorners; ++i) {
    const CeCornerBodies<T>& c = corners[i];
    base_bias = base_bias - c.chassis_reaction;
    // Wheel on the upright (revolute about the spin axis).
    const SpatialVec<T> upright_vel = base_vel + c.rel_vel[kCeUpright];
    const SpatialVec<T> wheel_rel = s[kWheelSpin + i] * c.spin_axis;
    const SpatialVec<T> wheel_vel = upright_vel + wheel_rel;
    const SpatialVec<T> wheel_c = cross_motion(upright_vel, wheel_rel);
    const SpatialVec<T> wheel_pc = cross_force(wheel_vel, c.wheel_inertia * wheel_vel) - c.wheel_ext_force +
                                   c.wheel_inertia * wheel_c;
    const SpatialVec<T> uw = c.wheel_inertia * c.spin_axis;
    wheel_d[i] = dot(c.spin_axis, uw);
    wheel_u[i] = -dot(c.spin_axis, wheel_pc);
    wheel_u_vec[i] = uw;
    const T inv_dw = T(1) / wheel_d[i];
    const SpatialVec<T> wheel_art_bias = wheel_pc + (wheel_u[i] * inv_dw) * uw;
    rigid_sum += c.wheel_inertia;
    // Aggregate: member bodies, the wheel's articulated inertia riding on the upright.
    SpatialVec<T> u_vec = spatial_zero<T>(), pc_sum = spatial_zero<T>();
    T d = T(0), u = c.lca_force;
    for (int j = 0; j < kCeAggregateBodies; ++j) {
      const SpatialVec<T> vel = base_vel + c.rel_vel[j];
      const SpatialVec<T> bias = c.rel_bias[j] + cross_motion(base_vel, c.rel_vel[j]);
      SpatialVec<T> pc = cross_force(vel, c.inertia[j] * vel) - c.ext_force[j] + c.inertia[j] * bias;
      SpatialVec<T> ih = c.inertia[j] * c.lca_map[j];
      if (j == kCeUpright) {
        // The wheel's articulated body sees the upright's motion: its inertia and bias join.
        upright_bias[i] = bias;
        pc += wheel_art_bias + wheel_articulated_times(c.wheel_inertia, uw, inv_dw, bias);
        ih += wheel_articulated_times(c.wheel_inertia, uw, inv_dw, c.lca_map[j]);
      }
      rigid_sum += c.inertia[j];
      u_vec += ih;
      d += dot(c.lca_map[j], ih);
      pc_sum += pc;
      u -= dot(c.lca_map[j], pc);
    }
    agg_u_vec[i] = u_vec;
    agg_d[i] = d;
    agg_u[i] = u;
    base_bias += pc_sum + (u / d) * u_vec;
  }
  // Base (seed eq. 7 at the root): floating chassis with every articulated inertia.
  Mat6<T> base_inertia = mat6_from_rigid(rigid_sum);
  for (int i = 0; i < kCorners; ++i) {
    subtract_rank_one_lower(base_inertia, wheel_u_vec[i], wheel_d[i]);
    subtract_rank_one_lower(base_inertia, agg_u_vec[i], agg_d[i]);
  }
  CeAccelerations<T> out;
  out.chassis = solve_spd(base_inertia, T(-1) * base_bias);
  // Base-to-tip scatter (seed eq. 7).
  for (int i = 0; i < kCorners; ++i) {
    const CeCornerBodies<T>& c = corners[i];
    out.lca[i] = (agg_u[i] - dot(agg_u_vec[i], out.chassis)) / agg_d[i];
    const SpatialVec<T> upright_acc = out.chassis + out.lca[i] * c.lca_map[kCeUpright] + upright_bias[i];
    out.spin[i] = (wheel_u[i] - dot(wheel_u_vec[i], upright_acc)) / wheel_d[i];
  }
  return out;
}

// ---- derivative and step ----------------------------------------------------------------------

template <class T>
FLEETDYN_FN T ce_steer_command(const CeParams<T>& p, DriverInput<T> input) {
  return input.steer * p.steering.max_angle;
}

// What the batch's metrics need of one derivative evaluation.
template <class T>
struct CeDiagnostics {
  T tire_normal_force[kCorners];  // [N]
  Vec3<T> chassis_accel;          // [m/s^2] world, acceleration of the chassis centre of mass
};

// Time derivative of the ce state. `corners_out`, if given, receives the four corners' bodies;
// `diag`, if given, the tire loads and the chassis COM acceleration.
template <class T>
FLEETDYN_FN void ce_derivative(const CeParams<T>& p, const CeEnvironment<T>& env, DriverInput<T> input, const T* s,
                               T* ds, CeCornerBodies<T>* corners_out = nullptr, CeDiagnostics<T>* diag = nullptr) {
  using namespace ce;
  const Quat<T> q = normalized(load_quat(s, kQuat));
  const Mat3<T> rot = rotation_matrix(q);
  // Steering actuator: first-order lag towards the command; its acceleration for a command held
  // over the step enters the velocity-product terms.
  const T steer = s[kSteer];
  const T steer_rate = (ce_steer_command(p, input) - steer) / p.steer_time_constant;
  const T steer_accel = -steer_rate / p.steer_time_constant;
  const SteeringLinkState<T> link = steering_link_state(p.steering, steer, steer_rate, steer_accel);
  // Driveline: engine speed from the drive-weighted mean wheel spin.
  T mean_spin = T(0);
  for (int i = 0; i < kCorners; ++i) mean_spin += p.drive_share[i] * s[kWheelSpin + i];
  const T drive_total = drive_torque_at_wheels(p, input.throttle, mean_spin);

  CeCornerBodies<T> local[kCorners];
  CeCornerBodies<T>* corners = corners_out ? corners_out : local;
  for (int i = 0; i < kCorners; ++i) {
    ce_corner_bodies(p, env, i, s, rot, link, drive_total * p.drive_share[i], input, corners[i]);
  }
  const CeAccelerations<T> acc = ce_articulated_body(p, s, rot, corners);

  store3(ds, kPos, rot * load3(s, kVel));
  store_quat(ds, kQuat, quat_derivative(q, load3(s, kOmega)));
  store3(ds, kOmega, acc.chassis.ang);
  store3(ds, kVel, acc.chassis.lin);
  for (int i = 0; i < kCorners; ++i) {
    ds[kLca + i] = s[kLcaRate + i];
    ds[kLcaRate + i] = acc.lca[i];
    ds[kWheelSpin + i] = acc.spin[i];
    ds[kDeflLong + i] = corners[i].tire_defl_long_rate;
    ds[kDeflLat + i] = corners[i].tire_defl_lat_rate;
  }
  ds[kSteer] = steer_rate;
  if (diag) {
    // The state's velocity is in the moving chassis axes: the origin's acceleration adds
    // omega x v, the COM's the rigid-body terms alpha x r + omega x (omega x r).
    const Vec3<T> omega = load3(s, kOmega), r = p.chassis_com;
    const Vec3<T> origin_accel = acc.chassis.lin + cross(omega, load3(s, kVel));
    diag->chassis_accel = rot * (origin_accel + cross(acc.chassis.ang, r) + cross(omega, cross(omega, r)));
    for (int i = 0; i < kCorners; ++i) diag->tire_normal_force[i] = corners[i].tire_normal_force;
  }
}

// One step of `substeps` classic RK4 steps (the quaternion renormalized after each). `diag`, if
// given, receives the diagnostics of the first stage (the state at step start).
template <class T>
FLEETDYN_FN void ce_step(const CeParams<T>& p, const CeEnvironment<T>& env, scalar_of<T> step, int substeps,
                         DriverInput<T> input, const T* s, T* next, CeDiagnostics<T>* diag = nullptr) {
  using namespace ce;
  input = clamped(input);
  const T h = T(step / scalar_of<T>(substeps));
  T rate[kStateSize], sum[kStateSize], stage[kStateSize];
  for (int j = 0; j < kStateSize; ++j) next[j] = s[j];
  for (int sub = 0; sub < substeps; ++sub) {
    ce_derivative(p, env, input, next, rate, static_cast<CeCornerBodies<T>*>(nullptr), sub == 0 ? diag : nullptr);
    for (int j = 0; j < kStateSize; ++j) {
      sum[j] = rate[j];
      stage[j] = next[j] + T(0.5) * h * rate[j];
    }
    ce_derivative(p, env, input, stage, rate);
    for (int j = 0; j < kStateSize; ++j) {
      sum[j] += T(2) * rate[j];
      stage[j] = next[j] + T(0.5) * h * rate[j];
    }
    ce_derivative(p, env, input, stage, rate);
    for (int j = 0; j < kStateSize; ++j) {
      sum[j] += T(2) * rate[j];
      stage[j] = next[j] + h * rate[j];
    }
    ce_derivative(p, env, input, stage, rate);
    for (int j = 0; j < kStateSize; ++j) next[j] += (h / T(6)) * (sum[j] + rate[j]);
    store_quat(next, kQuat, normalized(load_quat(next, kQuat)));
  }
}

// Mechanical energy [J]: kinetic energy of every body, gravity (world height), springs and tire
// vertical springs (stops excluded). Conserved when dampers, tire damping, slip forces and the
// stops are out of play.
template <class T>
FLEETDYN_FN T ce_energy(const CeParams<T>& p, const CeEnvironment<T>& env, const T* s) {
  using namespace ce;
  CeCornerBodies<T> corners[kCorners];
  T ds[kStateSize];
  ce_derivative(p, env, DriverInput<T>{s[kSteer] / p.steering.max_angle, T(0), T(0)}, s, ds, corners);
  const Mat3<T> rot = rotation_matrix(normalized(load_quat(s, kQuat)));
  const SpatialVec<T> base_vel{load3(s, kOmega), load3(s, kVel)};
  const Vec3<T> pos = load3(s, kPos);
  const RigidInertia<T> chassis = rigid_inertia(p.chassis_mass, p.chassis_com, p.chassis_inertia);
  T kinetic = T(0.5) * dot(base_vel, chassis * base_vel);
  T potential = p.chassis_mass * p.gravity * (pos + rot * p.chassis_com).z;
  for (int i = 0; i < kCorners; ++i) {
    const CeCornerBodies<T>& c = corners[i];
    for (int j = 0; j < kCeAggregateBodies; ++j) {
      const SpatialVec<T> v = base_vel + c.rel_vel[j];
      kinetic += T(0.5) * dot(v, c.inertia[j] * v);
      const Vec3<T> com = c.inertia[j].first_moment * (T(1) / c.inertia[j].mass);
      potential += c.inertia[j].mass * p.gravity * (pos + rot * com).z;
    }
    const SpatialVec<T> wv = base_vel + c.rel_vel[kCeUpright] + s[kWheelSpin + i] * c.spin_axis;
    kinetic += T(0.5) * dot(wv, c.wheel_inertia * wv);
    potential += p.wheel_mass * p.gravity * (pos + rot * c.pose.wheel_centre).z;
    const CeAxleForces<T>& a = p.axle[i / 2];
    potential += ce_spring_energy(a, c.pose.spring_length);
    const TerrainContact<T> contact = terrain_query(*env.terrain, pos + rot * c.pose.wheel_centre, env.origin_x, env.origin_y);
    const T pen = penetration(contact, p.tire.unloaded_radius);
    potential += select(pen > T(0), T(0.5) * p.tire.vertical_stiffness * pen * pen, T(0));
  }
  return kinetic + potential;
}

}  // namespace fleetdyn
