// One corner of the strut model: the linkage's wheel path and carrier, the bushing, coil, damper
// and stops, the tire on the wheel particle, and the corner's part of the derivative (seed 004
// "Model"), written once for every corner group (physics/core/corner_group.h).
#pragma once

#include "fleetdyn/physics/core/terrain_soil.h"
#include "fleetdyn/physics/core/tire_contact.h"
#include "fleetdyn/physics/core/tire_tmeasy.h"
#include "fleetdyn/physics/strut/strut_state.h"

namespace fleetdyn {

// A corner's spin axis and its rate of turn with the wheel travel z, both in the body frame:
// axis = Rz(road-wheel angle) Rz(carrier yaw(z)) Rx(carrier roll(z)) e_y (seed 004: toe and
// camber from the linkage turn the tire's contact frame).
template <class T>
struct CornerAxis {
  Vec3<T> axis, slope;  // [-], [1/m]
};

template <class T>
FLEETDYN_FN CornerAxis<T> corner_axis(const StrutParams<T>& p, const StrutEnvironment<T>& env, int corner, T travel) {
  const AxleLinkage<T>& link = p.linkage.axle[corner / 2];
  const ScaledArgument<T> x = scaled_argument((travel - link.travel_mid) * link.travel_inverse_half);
  const CurvePoint<T> roll = linkage_curve(link.carrier_roll, x.clamped, x.beyond, link.travel_inverse_half);
  const CurvePoint<T> yaw = linkage_curve(link.carrier_yaw, x.clamped, x.beyond, link.travel_inverse_half);
  const T g = corner % 2 == 0 ? p.linkage_geometry : -p.linkage_geometry;  // the right corner mirrors roll and yaw
  T sr, cr, sy, cy;
  small_angle_sin_cos(g * roll.value, sr, cr);
  small_angle_sin_cos(g * yaw.value, sy, cy);
  const T roll_rate = g * roll.slope, yaw_rate = g * yaw.slope;
  const Vec3<T> a{-sy * cr, cy * cr, sr};
  const Vec3<T> da{-cy * cr * yaw_rate + sy * sr * roll_rate, -sy * cr * yaw_rate - cy * sr * roll_rate, cr * roll_rate};
  T c, s;
  steer_cos_sin(env, corner, c, s);
  return {{c * a.x - s * a.y, s * a.x + c * a.y, a.z}, {c * da.x - s * da.y, s * da.x + c * da.y, da.z}};
}

// The wheel path and the coil at travel z: migration (dx, dy) of the wheel centre in the body
// frame with its slope, the coil's length and motion ratio MR = -dl/dz (the linear coil l = -z,
// MR = 1 when progressive_spring is off).
template <class T>
struct CornerTravel {
  T dx, dy, dx_slope, dy_slope;   // [m], [-]
  T dx_curvature, dy_curvature;   // [1/m]
  T spring_length, motion_ratio;  // [m], [-]
};

template <class T>
FLEETDYN_FN CornerTravel<T> corner_travel(const StrutParams<T>& p, int corner, T travel) {
  const AxleLinkage<T>& link = p.linkage.axle[corner / 2];
  const ScaledArgument<T> x = scaled_argument((travel - link.travel_mid) * link.travel_inverse_half);
  const CurvePoint2<T> mx = linkage_curve_with_curvature(link.migration_x, x.clamped, x.beyond, link.travel_inverse_half);
  const CurvePoint2<T> my = linkage_curve_with_curvature(link.migration_y, x.clamped, x.beyond, link.travel_inverse_half);
  const CurvePoint<T> len = linkage_curve(link.spring_length, x.clamped, x.beyond, link.travel_inverse_half);
  const T g = p.linkage_geometry;
  const T gy = corner % 2 == 0 ? g : -g;  // the right corner mirrors y
  const auto progressive = p.progressive_spring > T(0.5);
  return {g * mx.value,
          gy * my.value,
          g * mx.slope,
          gy * my.slope,
          g * mx.curvature,
          gy * my.curvature,
          select(progressive, len.value, -travel),
          select(progressive, -len.slope, T(1))};
}

// Stop force at the wheel [N] for a wheel-travel penetration past the stop [m] (> 0 engaged).
// The table is on spring length; wheel travel maps to spring penetration by the motion ratio
// and the force back by the same ratio (virtual work).
template <class T>
FLEETDYN_FN T stop_force(const StrutParams<T>& p, T wheel_penetration) {
  const auto engaged = wheel_penetration > T(0);
  if (!any_lane(engaged)) return T(0);  // the usual case: the table is not looked at
  const T mr = p.stop_motion_ratio;
  return select(engaged,
                mr * piecewise_linear(p.stop_table_pen, p.stop_table_force, kStopTablePoints, wheel_penetration * mr), T(0));
}

// Potential energy stored in a stop [J] (integral of stop_force), for the energy ledger.
template <class T>
FLEETDYN_FN T stop_energy(const StrutParams<T>& p, T wheel_penetration) {
  if (wheel_penetration <= T(0)) return T(0);
  const T spring_pen = wheel_penetration * p.stop_motion_ratio;
  // Integral of the piecewise-linear table from 0 to spring_pen (trapezoids), on spring length;
  // the motion ratio cancels (F_wheel dx_wheel = F_spring dx_spring).
  T energy = T(0);
  T x_prev = T(0), f_prev = piecewise_linear(p.stop_table_pen, p.stop_table_force, kStopTablePoints, T(0));
  for (int i = 0; i <= kStopTablePoints; ++i) {
    const bool last = i == kStopTablePoints || p.stop_table_pen[i] >= spring_pen;
    const T x = last ? spring_pen : p.stop_table_pen[i];
    if (x > x_prev) {
      const T f = piecewise_linear(p.stop_table_pen, p.stop_table_force, kStopTablePoints, x);
      energy += T(0.5) * (f + f_prev) * (x - x_prev);
      f_prev = f;
      x_prev = x;
    }
    if (last) break;
  }
  return energy;
}

// The wheel's distance from its path, squared [m^2]: with d = (o_x - dx, o_y - dy) the horizontal
// offset from the path point at the wheel's travel and s = (dx', dy') the path's slope, the part
// of (d, 0) perpendicular to the tangent (s, 1): |d|^2 - (d.s)^2 / (1 + |s|^2).
template <class T>
FLEETDYN_FN T bushing_distance_sq(const CornerTravel<T>& path, Vec3<T> o) {
  const T dx = o.x - path.dx, dy = o.y - path.dy;
  return dx * dx + dy * dy - sq(dx * path.dx_slope + dy * path.dy_slope) / (T(1) + sq(path.dx_slope) + sq(path.dy_slope));
}

// Force of the bushing on the wheel (body frame): -grad of k/2 bushing_distance_sq plus the
// damper on the same component of the offset's rate (without the path's curvature). The spring
// is exactly conservative; the damper dissipates |rate|^2 - (rate.s)^2 / (1 + |s|^2) >= 0
// (Cauchy-Schwarz). With P = d.s, A = 1 + |s|^2: dU/d(o_x, o_y) = k (d - P s / A) and
// dU/do_z = -k P / A - k (P / A) (d.s' - P (s.s') / A), s' the path's curvature.
template <class T>
FLEETDYN_FN Vec3<T> bushing_force(const StrutParams<T>& p, int corner, const CornerTravel<T>& path, Vec3<T> o, Vec3<T> o_rate) {
  const T dx = o.x - path.dx, dy = o.y - path.dy;
  const T inverse_a = T(1) / (T(1) + sq(path.dx_slope) + sq(path.dy_slope));
  const T ex = p.link_stiffness * dx + p.link_damping[corner] * (o_rate.x - path.dx_slope * o_rate.z);
  const T ey = p.link_stiffness * dy + p.link_damping[corner] * (o_rate.y - path.dy_slope * o_rate.z);
  const T along = (ex * path.dx_slope + ey * path.dy_slope) * inverse_a;
  const T p_over_a = (dx * path.dx_slope + dy * path.dy_slope) * inverse_a;
  const T curvature = p.link_stiffness * p_over_a *
                      (dx * path.dx_curvature + dy * path.dy_curvature -
                       p_over_a * (path.dx_slope * path.dx_curvature + path.dy_slope * path.dy_curvature));
  return {-(ex - along * path.dx_slope), -(ey - along * path.dy_slope), along + curvature};
}

// Coil spring force at the wheel [N] (pushing the body up, the wheel down): the coil's force
// coil_rate (free length - l) times the motion ratio (virtual work), a coil that cannot pull once
// it has extended to its free length. With the linear coil (l = -z, MR = 1): preload + k z.
template <class T>
FLEETDYN_FN T strut_spring_force(const StrutParams<T>& p, int corner, const CornerTravel<T>& t) {
  const T squeeze = p.coil_free_length[corner] - t.spring_length;
  return select(squeeze > T(0), p.coil_rate[corner] * squeeze * t.motion_ratio, T(0));
}

// Its potential [J]: dV/dz = F (since dl/dz = -MR), zero at the free length.
template <class T>
FLEETDYN_FN T strut_spring_energy(const StrutParams<T>& p, int corner, const CornerTravel<T>& t) {
  const T squeeze = p.coil_free_length[corner] - t.spring_length;
  return select(squeeze > T(0), T(0.5) * p.coil_rate[corner] * squeeze * squeeze, T(0));
}

// The tire's contacts (physics/core/tire_contact.h) at spin axis `axis` (world); with the contact
// frozen for the step, its tangent plane alone.
template <class T>
FLEETDYN_FN TireContacts<T> corner_contacts(const StrutParams<T>& p, const StrutEnvironment<T>& env,
                                            const FrozenCorner<T>* frozen, Vec3<T> wheel_local, Vec3<T> axis) {
  const T radius = p.tire.unloaded_radius, half_width = tire_half_width(p.tire);
  if (frozen == nullptr)
    return tire_contacts(*env.terrain, wheel_local, env.origin_x, env.origin_y, axis, radius, half_width);
  TerrainContact<T> c;
  c.normal = frozen->normal;
  c.distance = dot(wheel_local - frozen->surface_point, c.normal);
  c.mu_scale = frozen->mu_scale;
  return {tire_plane_contact(c, axis, radius, half_width), no_tire_contact(radius)};
}
// The chassis at one evaluation, as every corner reads it.
template <class T>
struct StrutFrame {
  Vec3<T> pos, vel;    // [m], [m/s] body COM, world (pos relative to the local origin)
  Mat3<T> rot;         // body -> world
  Vec3<T> omega_body;  // [rad/s] body axes
  Vec3<T> omega;       // [rad/s] world
};

// What one corner applies to the chassis (world; torque about the body COM) and the spin
// momentum its wheel carries: summed over the corners by the group.
template <class T>
struct StrutChassisLoad {
  Vec3<T> force, torque, spin_momentum;
};

template <class T>
FLEETDYN_HD StrutChassisLoad<T> operator+(const StrutChassisLoad<T>& a, const StrutChassisLoad<T>& b) {
  return {a.force + b.force, a.torque + b.torque, a.spin_momentum + b.spin_momentum};
}

// A corner's part of the engine speed: its drive share times its wheel's spin relative to the
// body about the steered axis (camber and toe aside: a few degrees change the engine speed by
// parts in ten thousand, and the corners' curves need not be evaluated twice).
template <class T>
FLEETDYN_FN T strut_drive_spin(const StrutParams<T>& p, const StrutEnvironment<T>& env, const StrutFrame<T>& f,
                               int corner, T spin) {
  T c, s;
  steer_cos_sin(env, corner, c, s);
  return p.drive_share[corner] * (spin - (f.omega_body.y * c - f.omega_body.x * s));
}

// One corner's part of the time derivative of the strut state (seed 004 "Model"), ds = f(s, inputs):
// `c` and `dc` are the corner's scalars in the split layout (strut::CornerIndex); dc's velocity
// rate is left to the caller, which knows the chassis acceleration once the corners' loads are
// summed (it receives the wheel's absolute acceleration in `wheel_accel`).
//
// Per corner, z is the wheel's travel along body up relative to its mount (+ = bump), and in the
// body frame the wheel centre's offset from the mount is o. The connection of body and wheel:
//   - bushing: potential k/2 dist^2, dist the wheel centre's distance from the linkage's wheel
//     path design + (dx(z), dy(z), z) (dx = dy = 0: the straight strut) perpendicular to the path
//     tangent (dx', dy', 1): it holds the wheel on the path and lets it travel along it;
//   - coil spring and damper on z, stops on z;
//   - the tire force F acts at the contact patch rho = -(R0 - pen) n from the wheel centre. The
//     particle carries F; its moment M = rho x F about the wheel centre reaches the body through the
//     linkage, all but the spin-axis part, which turns the wheel. Where the linkage turns the wheel
//     carrier with travel (spin axis a(z)), the part of M along a x a' works on z instead.
// Every body<->wheel force is applied at the wheel centre's actual position, relative velocities
// are taken against the body point coincident with the wheel, and the tire's slip is that of the
// carrier's contact patch (wheel centre velocity + the carrier's rotation, spin aside, x rho): so
// the power of F at the patch equals what the particle, the body, the travel and the spin
// receive, and the moment does no work the tire model does not account for (docs/models/strut.md).
template <class T>
FLEETDYN_FN StrutChassisLoad<T> strut_corner_derivative(const StrutParams<T>& p, const StrutEnvironment<T>& env,
                                                        const StrutFrame<T>& f, const FrozenCorner<T>* frozen,
                                                        DriverInput<T> input, T drive_total, int i, const T* c, T* dc,
                                                        Vec3<T>& wheel_accel, StrutDiagnostics<T>* diag, int slot) {
  using namespace strut;
  const Mat3<T>& rot = f.rot;
  const Vec3<T> wheel_rel = load3(c, kCornerPos);      // x_u - chassis_pos
  const Vec3<T> wheel_vel_rel = load3(c, kCornerVel);  // v_u - chassis_vel
  const T spin = c[kCornerSpin];
  // Velocity of the wheel relative to the body point coincident with it, in the body frame.
  const Vec3<T> slip_vel = wheel_vel_rel - cross(f.omega, wheel_rel);
  const Vec3<T> o = mul_transpose(rot, wheel_rel) - p.wheel_attach[i];
  const Vec3<T> o_rate = mul_transpose(rot, slip_vel);
  const T travel = o.z, travel_rate = o_rate.z;
  const CornerTravel<T> path = corner_travel(p, i, travel);
  // The spin axis (world) at this travel and its rate of turn with the travel.
  const CornerAxis<T> carrier_axis = corner_axis(p, env, i, travel);
  const Vec3<T> axis = rot * carrier_axis.axis, axis_slope = rot * carrier_axis.slope;
  const T spin_rel = spin - dot(axis, f.omega);

  // Bushing (body frame): spring and damper on the distance from the path, measured
  // perpendicular to its tangent (so its rate is link_stiffness however steep the path).
  const Vec3<T> bushing = bushing_force(p, i, path, o, o_rate);

  // Tire, along the surface normal sampled at the wheel itself.
  const Vec3<T> wheel_local = f.pos + wheel_rel;
  const Vec3<T> wheel_vel = f.vel + wheel_vel_rel;
  const TireContacts<T> contacts = corner_contacts(p, env, frozen, wheel_local, axis);
  const TireContact<T>& contact = contacts.primary;
  const T pen = contact.penetration;
  const T pen_rate = -dot(wheel_vel, contact.normal);
  T fz = tire_normal_force(p.tire, pen, pen_rate);
  const Vec3<T> t_long = normalized_or(cross(axis, contact.normal), rot.col(0));
  const Vec3<T> t_lat = cross(contact.normal, t_long);
  const T rolling_radius = tire_rolling_radius(p.tire, fz);
  // Contact patch from the wheel centre, and the carrier's angular velocity without the spin.
  Vec3<T> patch = (p.tire_force_at_contact * (pen - contact.extent)) * contact.normal +
                  p.tire_force_at_contact * contact.lateral;
  const Vec3<T> carrier_turn = cross(axis, axis_slope);  // the carrier's turn per unit travel, spin aside
  const Vec3<T> carrier = f.omega + travel_rate * carrier_turn;
  const Vec3<T> patch_vel = wheel_vel + cross(carrier - dot(carrier, axis) * axis, patch);

  const TireInput<T> tin = tire_input(p.tire, fz, pen, dot(patch_vel, t_long), dot(patch_vel, t_lat), spin,
                                      rolling_radius, c[kCornerDeflLong], c[kCornerDeflLat]);
  TireOutput<T> tire = tmeasy_forces(p.tire, tin, contact.mu_scale);
  // On soil (physics/core/terrain_soil.h) the soil's forces replace the tire's: the longitudinal
  // and vertical ones through the wheel centre (a rigid wheel's normal stresses are radial), with
  // the soil's torque about the spin axis instead of the rolling resistance; the lateral one where
  // it acts, on the contact arc and the immersed side face below the centre (its moments mx, mz
  // about the centre); the tire's damping stays on the normal force; the tread deflections relax
  // as on a tire without grip (Rill: du/dt = -c u / d).
  // The tire's torque on the spin is -spin_lever * spin_force; on soil 1 * (-my).
  T spin_lever = rolling_radius, spin_force = tire.fx;
  Vec3<T> soil_moment{T(0), T(0), T(0)};
  Vec3<T> soil_edge{T(0), T(0), T(0)};                          // at the wheel centre (terrain_soil.h, soil_tire_load)
  if (FLEETDYN_SOIL_UNLIKELY(env.terrain->soil_region != 0)) {  // the only cost without soil
    // the soil bears where the tire stands on the ground, not while it bears on a curb's block
    const T soil_pen = select(contacts.primary_on_ground > T(0), pen, T(0));
    const SoilTireLoad<T> soil = soil_tire_load(*env.terrain, wheel_local, env.origin_x, env.origin_y,
                                                p.tire.unloaded_radius, p.tire.width, p.tire.vertical_stiffness,
                                                p.tire.vertical_damping, soil_pen, pen_rate, dot(wheel_vel, t_long),
                                                dot(wheel_vel, t_lat), spin, fz, tire_potential(p.tire, pen));
    const auto on = soil.on_soil > T(0);
    if (any_lane(on)) {
      fz = select(on, soil.fz, fz);
      tire.fx = select(on, soil.fx, tire.fx);
      tire.fy = select(on, soil.fy, tire.fy);
      tire.mz = select(on, T(0), tire.mz);
      tire.defl_long_rate = select(on, -p.tire.long_stiffness / p.tire.long_damping * c[kCornerDeflLong], tire.defl_long_rate);
      tire.defl_lat_rate = select(on, -p.tire.lat_stiffness / p.tire.lat_damping * c[kCornerDeflLat], tire.defl_lat_rate);
      tire.rolling_resistance_torque_max = select(on, T(0), tire.rolling_resistance_torque_max);
      patch = Vec3<T>{select(on, T(0), patch.x), select(on, T(0), patch.y), select(on, T(0), patch.z)};
      spin_lever = select(on, T(1), spin_lever);
      spin_force = select(on, -soil.my, spin_force);
      const T mx = select(on, p.tire_force_at_contact * soil.mx, T(0));
      const T mz = select(on, p.tire_force_at_contact * soil.mz, T(0));
      soil_moment = mx * t_long + mz * contact.normal;
      soil_edge = Vec3<T>{select(on, soil.edge_x, T(0)), select(on, soil.edge_y, T(0)), T(0)};
    }
  }
  Vec3<T> tire_force = tire.fx * t_long + tire.fy * t_lat + fz * contact.normal;
  dc[kCornerDeflLong] = tire.defl_long_rate;
  dc[kCornerDeflLat] = tire.defl_lat_rate;
  // The tire's moment about the wheel centre without its spin-axis part (which the spin takes
  // below): to the body, and the part along a x a' to the travel.
  Vec3<T> moment = cross(patch, tire_force);
  if (FLEETDYN_SOIL_UNLIKELY(env.terrain->soil_region != 0)) {
    moment += soil_moment;
    tire_force += soil_edge;
  }
  // A second surface the tire touches (a curb's face beside the ground it stands on): its force
  // on the particle, its moment (spin aside, tire_secondary_force) with the tire's.
  if (any_lane(contacts.secondary.penetration > T(0))) {
    const Vec3<T> arm = p.tire_force_at_contact * contact_patch(contacts.secondary);
    const Vec3<T> point_vel = wheel_vel + cross(carrier - dot(carrier, axis) * axis, arm);
    Vec3<T> force = tire_secondary_force(p.tire, contacts.secondary, point_vel);
    if (FLEETDYN_SOIL_UNLIKELY(env.terrain->soil_region != 0)) {
      // The ground under a tire that bears on a curb's block is, on a soil region, the soil: its
      // forces as where the ground is the primary contact (the spin-axis moment left out, as for
      // any secondary contact), so the ground's law does not change when the curb becomes the
      // deeper contact.
      const TireContact<T>& g = contacts.secondary;
      const T ground_pen = select(contacts.primary_on_ground > T(0), T(0), g.penetration);
      const Vec3<T> g_long = normalized_or(cross(axis, g.normal), rot.col(0));
      const Vec3<T> g_lat = cross(g.normal, g_long);
      const T ground_rate = -dot(wheel_vel, g.normal);
      const SoilTireLoad<T> soil = soil_tire_load(*env.terrain, wheel_local, env.origin_x, env.origin_y, p.tire.unloaded_radius,
                                                  p.tire.width, p.tire.vertical_stiffness, p.tire.vertical_damping,
                                                  ground_pen, ground_rate, dot(wheel_vel, g_long), dot(wheel_vel, g_lat),
                                                  spin, tire_normal_force(p.tire, ground_pen, ground_rate),
                                                  tire_potential(p.tire, ground_pen));
      const auto on = soil.on_soil > T(0);
      if (any_lane(on)) {
        const Vec3<T> soil_force = soil.fx * g_long + soil.fy * g_lat + soil.fz * g.normal;
        force = Vec3<T>{select(on, soil_force.x, force.x), select(on, soil_force.y, force.y),
                        select(on, soil_force.z, force.z)};
        tire_force += Vec3<T>{select(on, soil.edge_x, T(0)), select(on, soil.edge_y, T(0)), T(0)};  // at the centre
      }
    }
    tire_force += force;
    moment += cross(arm, force);
  }
  const Vec3<T> moment_perp = moment - dot(moment, axis) * axis;
  const T travel_from_moment = dot(moment_perp, carrier_turn);

  // Strut along the travel: coil (progressive with the motion ratio), damper scaled by
  // (MR/MR0)^2 (seed 004), stops on the travel.
  const T damping = select(travel_rate > T(0), p.damping_bump[i], p.damping_rebound[i]) *
                    (sq(path.motion_ratio) * p.coil_inverse_mr_design_sq[i]);
  const T strut_force = strut_spring_force(p, i, path) + damping * travel_rate + stop_force(p, travel - p.bump_travel[i]) -
                        stop_force(p, -travel - p.rebound_travel[i]) - travel_from_moment;
  // Force of the body on the wheel: the strut pushes it down, the bushing onto its path.
  const Vec3<T> connection = rot * Vec3<T>{bushing.x, bushing.y, bushing.z - strut_force};

  // Wheel spin: drive and tire torques, and the resisting torque (brake + rolling
  // resistance) that holds a wheel at rest up to its limit instead of chattering: the
  // resistance brings the relative spin to zero with time constant wheel_lock_time,
  // clamped to what brake and rolling resistance can supply (Coulomb when sliding).
  const T drive = drive_total * p.drive_share[i];
  const T external = drive - spin_lever * spin_force;
  const T brake_max = p.brake_torque[i] * input.brake;
  const T resist_max = brake_max + tire.rolling_resistance_torque_max;
  const T resist = clamp(-external - p.wheel_spin_inertia * p.wheel_lock_rate * spin_rel, -resist_max, resist_max);
  dc[kCornerSpin] = (external + resist) * p.inverse_spin_inertia;
  store3(dc, kCornerPos, wheel_vel_rel);
  wheel_accel = (connection + tire_force) * p.inverse_unsprung_mass[i] + Vec3<T>{T(0), T(0), -p.gravity};

  // To the chassis: the connection's reaction at the wheel, the inboard brake's and the
  // driveline's reactions, the aligning moment and the tire's moment through the links.
  const auto resisting = resist_max > T(0);
  const T brake = select(resisting, resist * (brake_max / select(resisting, resist_max, T(1))), T(0));
  StrutChassisLoad<T> load;
  load.force = -connection;
  load.torque = tire.mz * contact.normal - (drive + brake) * axis + moment_perp + cross(wheel_rel, load.force);
  load.spin_momentum = (p.wheel_spin_inertia * spin) * axis;
  if (diag) {
    diag->tire_normal_force[slot] = fz;
    diag->tire_force[slot] = tire_force;
    diag->strut_compression[slot] = travel;
    diag->bushing_deflection[slot] = sqrt(bushing_distance_sq(path, o));
  }
  return load;
}

}  // namespace fleetdyn
