// One corner of the ce model (seed 001): its force elements and the quantities of its aggregate
// body and wheel that the recursion (and the dense reference) need, at one instant.
#pragma once

#include "fleetdyn/physics/ce/ce_kinematics.h"
#include "fleetdyn/physics/ce/ce_params.h"
#include "fleetdyn/physics/ce/ce_state.h"
#include "fleetdyn/physics/core/config.h"
#include "fleetdyn/physics/core/driveline.h"
#include "fleetdyn/physics/core/math.h"
#include "fleetdyn/physics/core/spatial.h"
#include "fleetdyn/physics/core/terrain.h"
#include "fleetdyn/physics/core/terrain_soil.h"
#include "fleetdyn/physics/core/tire_contact.h"
#include "fleetdyn/physics/core/tire_tmeasy.h"

namespace fleetdyn {

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

// One corner's bodies at the split state: `x` the chassis' scalars, `c` the corner's
// (ce::CornerIndex).
template <class T>
FLEETDYN_FN void ce_corner_bodies(const CeParams<T>& p, const CeEnvironment<T>& env, int i, const T* x, const T* c,
                                  const Mat3<T>& rot, const SteeringLinkState<T>& link, T drive_torque,
                                  DriverInput<T> input, CeCornerBodies<T>& out) {
  using namespace ce;
  const CornerGeometry<T>& g = p.corner[i];
  const T lca = c[kCornerLca], lca_rate = c[kCornerLcaRate], spin = c[kCornerSpin];
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
  const Vec3<T> chassis_pos = load3(x, kPos);
  const Vec3<T> omega_b = load3(x, kOmega), vel_b = load3(x, kVel);
  const Vec3<T> wheel_local = chassis_pos + rot * pose.wheel_centre;
  const Vec3<T> wheel_vel_body = vel_b + cross(omega_b, pose.wheel_centre) + m.wheel_centre_vel;
  const Vec3<T> wheel_vel = rot * wheel_vel_body;
  const Vec3<T> axis_world = rot * axis;
  const TireContacts<T> contacts = tire_contacts(*env.terrain, wheel_local, env.origin_x, env.origin_y, axis_world,
                                                 p.tire.unloaded_radius, tire_half_width(p.tire));
  const TireContact<T>& contact = contacts.primary;
  const T pen = contact.penetration;
  const T pen_rate = -dot(wheel_vel, contact.normal);
  T fz = tire_normal_force(p.tire, pen, pen_rate);
  const Vec3<T> t_long = normalized_or(cross(axis_world, contact.normal), rot.col(0));
  const Vec3<T> t_lat = cross(contact.normal, t_long);
  const T rolling_radius = tire_rolling_radius(p.tire, fz);
  // Absolute spin about the axis (the upright turns too, e.g. with chassis pitch): the slip the
  // patch sees. With the relative spin alone the tire would feed energy into pitch and windup.
  const T spin_abs = spin + dot(axis, omega_b + m.upright_omega);
  const TireInput<T> tin = tire_input(p.tire, fz, pen, dot(wheel_vel, t_long), dot(wheel_vel, t_lat), spin_abs,
                                      rolling_radius, c[kCornerDeflLong], c[kCornerDeflLat]);
  TireOutput<T> tire = tmeasy_forces(p.tire, tin, contact.mu_scale);
  // On soil (physics/core/terrain_soil.h), as strut: the soil's forces at the wheel centre, its
  // torque about the spin axis and the moments of its lateral force, which acts below the centre
  // (soil_couple), replace the tire's forces, aligning moment and rolling resistance; the tire's
  // damping stays on the normal force; the tread deflections relax (du/dt = -c u / d).
  // Everything soil changes is set in this one block (the firm-ground code keeps its rounding).
  const Vec3<T> normal_body = mul_transpose(rot, contact.normal);
  T contact_lever = contact.extent - pen;
  Vec3<T> contact_lateral = contact.lateral;           // off the tread: to the sidewall's edge
  T spin_lever = contact_lever, spin_force = tire.fx;  // the tire's torque on the spin: -lever * force
  Vec3<T> mz_axis = normal_body;                       // the axis of the tire's moment mz on the wheel
  bool on_soil = false;
  Vec3<T> soil_couple{T(0), T(0), T(0)};                        // body frame
  Vec3<T> soil_edge{T(0), T(0), T(0)};                          // body frame, at the wheel centre
  if (FLEETDYN_SOIL_UNLIKELY(env.terrain->soil_region != 0)) {  // the only cost without soil
    // the soil bears where the tire stands on the ground, not while it bears on a curb's block
    const T soil_pen = contacts.primary_on_ground > T(0) ? pen : T(0);
    const SoilTireLoad<T> soil = soil_tire_load(*env.terrain, wheel_local, env.origin_x, env.origin_y,
                                                p.tire.unloaded_radius, p.tire.width, p.tire.vertical_stiffness,
                                                p.tire.vertical_damping, soil_pen, pen_rate, dot(wheel_vel, t_long),
                                                dot(wheel_vel, t_lat), spin_abs, fz, tire_potential(p.tire, pen));
    if (soil.on_soil > T(0)) {
      fz = soil.fz;
      tire.fx = soil.fx;
      tire.fy = soil.fy;
      tire.mz = soil.my;  // about the spin axis: no aligning moment on soil
      mz_axis = axis;
      tire.defl_long_rate = -p.tire.long_stiffness / p.tire.long_damping * c[kCornerDeflLong];
      tire.defl_lat_rate = -p.tire.lat_stiffness / p.tire.lat_damping * c[kCornerDeflLat];
      tire.rolling_resistance_torque_max = T(0);
      contact_lever = T(0);
      contact_lateral = Vec3<T>{T(0), T(0), T(0)};
      spin_lever = T(1);
      spin_force = -soil.my;
      on_soil = true;
      soil_couple = mul_transpose(rot, soil.mx * t_long + soil.mz * contact.normal);
      soil_edge = mul_transpose(rot, Vec3<T>{soil.edge_x, soil.edge_y, T(0)});
    }
  }
  out.tire_defl_long_rate = tire.defl_long_rate;
  out.tire_defl_lat_rate = tire.defl_lat_rate;
  out.tire_normal_force = fz;
  const Vec3<T> tire_force_world = tire.fx * t_long + tire.fy * t_lat + fz * contact.normal;
  const Vec3<T> contact_point_body = pose.wheel_centre - contact_lever * mul_transpose(rot, contact.normal) +
                                     mul_transpose(rot, contact_lateral);

  // Drive and brake (as strut: the resisting torque holds a wheel at rest up to its limit). The
  // tire's moment about the axis is that of its force at the contact point, lever R0 - pen.
  const T external = drive_torque - spin_lever * spin_force;
  const T brake_max = p.brake_torque[i] * input.brake;
  const T resist_max = brake_max + tire.rolling_resistance_torque_max;
  const T resist = clamp(-external - p.wheel_spin_inertia * p.wheel_lock_rate * spin, -resist_max, resist_max);
  const auto resisting = resist_max > T(0);
  const T brake = select(resisting, resist * (brake_max / select(resisting, resist_max, T(1))), T(0));
  const Vec3<T> wheel_torque = (drive_torque + resist) * axis + tire.mz * mz_axis;
  out.wheel_ext_force = force_at(p.wheel_mass * gravity_body, pose.wheel_centre) +
                        force_at(mul_transpose(rot, tire_force_world), contact_point_body) +
                        SpatialVec<T>{wheel_torque, {T(0), T(0), T(0)}};
  if (on_soil)
    out.wheel_ext_force = out.wheel_ext_force + SpatialVec<T>{soil_couple, {T(0), T(0), T(0)}} +
                          force_at(soil_edge, pose.wheel_centre);
  out.chassis_reaction = SpatialVec<T>{-(drive_torque + brake) * axis, {T(0), T(0), T(0)}};
  // A second surface the tire touches (a curb's face beside the ground it stands on): its force
  // at its contact point, without its moment about the spin axis (tire_secondary_force).
  if (contacts.secondary.penetration > T(0)) {
    const Vec3<T> arm = mul_transpose(rot, contact_patch(contacts.secondary));
    const Vec3<T> carrier = omega_b + m.upright_omega;
    const Vec3<T> point_vel = wheel_vel + rot * cross(carrier - dot(carrier, axis) * axis, arm);
    Vec3<T> force_world = tire_secondary_force(p.tire, contacts.secondary, point_vel);
    if (FLEETDYN_SOIL_UNLIKELY(env.terrain->soil_region != 0) && !(contacts.primary_on_ground > T(0))) {
      // The ground under a tire that bears on a curb's block: on a soil region the soil's forces
      // (as strut_corner_derivative), the spin-axis moment left out as for any secondary contact.
      const TireContact<T>& ground = contacts.secondary;
      const Vec3<T> ground_long = normalized_or(cross(axis_world, ground.normal), rot.col(0));
      const Vec3<T> ground_lat = cross(ground.normal, ground_long);
      const T ground_rate = -dot(wheel_vel, ground.normal);
      const SoilTireLoad<T> soil = soil_tire_load(*env.terrain, wheel_local, env.origin_x, env.origin_y,
                                                  p.tire.unloaded_radius, p.tire.width, p.tire.vertical_stiffness,
                                                  p.tire.vertical_damping, ground.penetration, ground_rate,
                                                  dot(wheel_vel, ground_long), dot(wheel_vel, ground_lat), spin_abs,
                                                  tire_normal_force(p.tire, ground.penetration, ground_rate),
                                                  tire_potential(p.tire, ground.penetration));
      if (soil.on_soil > T(0)) {
        force_world = soil.fx * ground_long + soil.fy * ground_lat + soil.fz * ground.normal;
        // the edge's slope at the wheel centre (terrain_soil.h, soil_tire_load)
        out.wheel_ext_force = out.wheel_ext_force +
                              force_at(mul_transpose(rot, Vec3<T>{soil.edge_x, soil.edge_y, T(0)}), pose.wheel_centre);
      }
    }
    const Vec3<T> force = mul_transpose(rot, force_world);
    out.wheel_ext_force = out.wheel_ext_force + force_at(force, pose.wheel_centre + arm) +
                          SpatialVec<T>{-dot(axis, cross(arm, force)) * axis, {T(0), T(0), T(0)}};
  }

  // Spring, stops and shock by virtual work on the LCA angle: tau = F dL/dtheta.
  const CeAxleForces<T>& a = p.axle[i / 2];
  const T spring_total = ce_spring_force(a, pose.spring_length) + ce_stop_force(p, a, pose.spring_length);
  out.lca_force = spring_total * unit.spring_rate +
                  ce_shock_force(a, pose.shock_length, m.shock_rate) * unit.shock_rate + ce_travel_limit_torque(a, lca);
}

}  // namespace fleetdyn
