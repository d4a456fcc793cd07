// The strut vehicle model (seed 004, "free-3D inertial unsprung"): a chassis rigid body and four
// unsprung masses, each a free 3-D particle held on its wheel path (the linkage's, or straight
// along body up) by a stiff penalty bushing perpendicular to the path and a spring-damper along
// the travel. Tire forces act on the particle along the real surface normal sampled at the
// wheel; the chassis feels the wheels only through the connection reactions (plus the tire
// force's moment about the wheel centre, driveline/brake reactions and the gyroscopic moment of
// the spinning wheels).
//
// Why free particles (seed 004 "Why this architecture is forced"): the strut deflection
// (x_u - mount).u depends on the body pose, so the springs deliver quasi-static roll stiffness;
// the tire normal acts on the particle, so a loop or a bank pushes the body through the links;
// every body<->wheel force is a two-point element, so the model is energy consistent.
//
// Energy consistency in detail: every connection force is applied to the body AT THE WHEEL
// CENTRE'S ACTUAL POSITION and relative velocities are taken against the body point coincident
// with the wheel. Then the springs are exactly conservative, including the torque from the
// strut axis turning with the body (U depends on the body attitude through u = R e_z, which a
// force applied at the mount would miss), and every damper dissipates: P = -c |v_rel|^2.
//
// State (one vehicle, kStrutStateSize scalars), world axes unless noted:
//   chassis_pos   [m]     body COM relative to the vehicle's local origin (origin_x, origin_y, 0)
//   chassis_quat  [-]     body -> world rotation (w, x, y, z)
//   chassis_vel   [m/s]   body COM velocity
//   chassis_omega [rad/s] body angular velocity, BODY frame
//   unsprung_pos  [m]     x_u - chassis_pos per corner: kept relative to the chassis so fp32
//                         resolves the bushing's micrometre deflections (seed 004, with the step kept stable)
//   unsprung_vel  [m/s]   v_u - chassis_vel per corner
//   wheel_spin    [rad/s] absolute spin rate about the wheel axis, positive rolling forward
//   tire_defl_long, tire_defl_lat [m] tire transient deflections (TMeasy first-order dynamics)
#pragma once

#include "fleetdyn/physics/core/config.h"
#include "fleetdyn/physics/core/driveline.h"
#include "fleetdyn/physics/core/integrator.h"
#include "fleetdyn/physics/core/math.h"
#include "fleetdyn/physics/core/terrain.h"
#include "fleetdyn/physics/core/tire_tmeasy.h"
#include "fleetdyn/physics/strut/strut_params.h"

namespace fleetdyn {

namespace strut {
enum StateIndex : int {
  kPos = 0,
  kQuat = 3,
  kVel = 7,
  kOmega = 10,
  kUnsprungPos = 13,  // + 3 * corner
  kUnsprungVel = 25,  // + 3 * corner
  kWheelSpin = 37,    // + corner
  kDeflLong = 41,     // + corner
  kDeflLat = 45,      // + corner
  kStateSize = 49
};
}  // namespace strut

constexpr int kStrutStateSize = strut::kStateSize;

// Contact of one step when it is NOT re-queried at every stage: the tangent plane sampled at
// the wheel at the start of the step (seed 004's once-per-step query with the within-step
// correction pen = pen_rigid - (x_u - x_query).n, which the tangent plane gives exactly).
template <class T>
struct FrozenContact {
  Vec3<T> surface_point[kCorners];  // [m] local coordinates (relative to the vehicle origin)
  Vec3<T> normal[kCorners];
  T mu_scale[kCorners];
};

// Road-wheel steer angle [rad] of a corner: front wheels steer, rear wheels don't (parallel
// steering; the linkage's Ackermann offset is added by StrutEnvironment).
template <class T>
FLEETDYN_FN T road_wheel_angle(const StrutParams<T>& p, T steer_input, int corner) {
  return corner < 2 ? steer_input * p.max_steer : T(0);
}

// What the model knows, for one step, about where it is and what the driver does that does not
// change within the step: the terrain, the vehicle's origin, the contact mode, and the front
// wheels' road-wheel angles for the step's steering input (the mean angle steer * max_steer plus
// the linkage's Ackermann offset; one sin/cos per wheel and step, not per evaluation).
template <class T>
struct StrutEnvironment {
  const TerrainDesc<scalar_of<T>>* terrain;  // one terrain for the batch, even when T holds lanes
  T origin_x, origin_y;                      // [m] the vehicle's local origin
  const FrozenContact<T>* frozen;            // null: query the terrain at every evaluation (default)
  T steer_cos[2], steer_sin[2];              // [-] front corners' road-wheel angle

  FLEETDYN_HD StrutEnvironment(const StrutParams<T>& p, const TerrainDesc<scalar_of<T>>* terrain_, T origin_x_,
                               T origin_y_, DriverInput<T> input, const FrozenContact<T>* frozen_ = nullptr)
      : terrain(terrain_), origin_x(origin_x_), origin_y(origin_y_), frozen(frozen_) {
    const T mean = road_wheel_angle(p, clamped(input).steer, 0);
    const T mean_cos = cos(mean), mean_sin = sin(mean);
    const AxleLinkage<T>& link = p.linkage.axle[0];
    for (int i = 0; i < 2; ++i) {
      // The Ackermann offset is a few degrees: its rotation by the series, not a library call.
      // The right wheel mirrors the left: its offset at mean angle d is minus the left's at -d.
      const T side = i == 0 ? T(1) : T(-1);
      const ScaledArgument<T> x = scaled_argument(side * mean * link.steer_inverse_half);
      const T offset = side * p.linkage_geometry *
                       linkage_curve(link.steer_offset, x.clamped, x.beyond, link.steer_inverse_half).value;
      T s, c;
      small_angle_sin_cos(offset, s, c);
      steer_cos[i] = mean_cos * c - mean_sin * s;
      steer_sin[i] = mean_sin * c + mean_cos * s;
    }
  }
};

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
  const T c = corner < 2 ? env.steer_cos[corner] : T(1);
  const T s = corner < 2 ? env.steer_sin[corner] : T(0);
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

// By-products of one derivative evaluation, for metrics and tests.
template <class T>
struct StrutDiagnostics {
  T tire_normal_force[kCorners];   // [N]
  Vec3<T> tire_force[kCorners];    // [N] world, on the wheel
  T strut_compression[kCorners];   // [m] (x_u - mount).u, positive in bump
  T bushing_deflection[kCorners];  // [m] |perpendicular offset|
  Vec3<T> chassis_accel;           // [m/s^2] world, kinematic (gravity included in the dynamics)
};

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

template <class T>
FLEETDYN_FN TerrainContact<T> corner_contact(const StrutEnvironment<T>& env, int corner, Vec3<T> wheel_local) {
  if (env.frozen == nullptr) return terrain_query(*env.terrain, wheel_local, env.origin_x, env.origin_y);
  TerrainContact<T> c;
  c.normal = env.frozen->normal[corner];
  c.distance = dot(wheel_local - env.frozen->surface_point[corner], c.normal);
  c.mu_scale = env.frozen->mu_scale[corner];
  return c;
}

// Time derivative of the strut state (seed 004 "Model"): ds = f(s, inputs).
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
FLEETDYN_FN void strut_derivative(const StrutParams<T>& p, const StrutEnvironment<T>& env, DriverInput<T> input,
                                  const T* s, T* ds, StrutDiagnostics<T>* diag) {
  using namespace strut;
  const Vec3<T> gravity{T(0), T(0), -p.gravity};
  const Vec3<T> chassis_pos = load3(s, kPos);
  const Quat<T> q = normalized(load_quat(s, kQuat));  // RK4 stages leave |q| slightly off 1
  const Mat3<T> rot = rotation_matrix(q);
  const Vec3<T> chassis_vel = load3(s, kVel);
  const Vec3<T> omega_body = load3(s, kOmega);
  const Vec3<T> omega = rot * omega_body;  // world

  // Engine speed from the drive-weighted mean spin of the wheels relative to the body, about
  // their steered axes (camber and toe aside: a few degrees change the engine speed by parts in
  // ten thousand, and the corners' curves need not be evaluated twice nor kept for all four).
  T mean_spin = T(0);
  for (int i = 0; i < kCorners; ++i) {
    const T body_rate = i < 2 ? omega_body.y * env.steer_cos[i] - omega_body.x * env.steer_sin[i] : omega_body.y;
    mean_spin += p.drive_share[i] * (s[kWheelSpin + i] - body_rate);
  }
  const T drive_total = drive_torque_at_wheels(p, input.throttle, mean_spin);

  Vec3<T> body_force{T(0), T(0), T(0)};
  Vec3<T> body_torque{T(0), T(0), T(0)};    // world, about the body COM
  Vec3<T> spin_momentum{T(0), T(0), T(0)};  // sum of I_s * spin * axis
  Vec3<T> wheel_accel[kCorners];

  for (int i = 0; i < kCorners; ++i) {
    const Vec3<T> wheel_rel = load3(s, kUnsprungPos + 3 * i);      // x_u - chassis_pos
    const Vec3<T> wheel_vel_rel = load3(s, kUnsprungVel + 3 * i);  // v_u - chassis_vel
    // Velocity of the wheel relative to the body point coincident with it, in the body frame.
    const Vec3<T> slip_vel = wheel_vel_rel - cross(omega, wheel_rel);
    const Vec3<T> o = mul_transpose(rot, wheel_rel) - p.wheel_attach[i];
    const Vec3<T> o_rate = mul_transpose(rot, slip_vel);
    const T travel = o.z, travel_rate = o_rate.z;
    const CornerTravel<T> path = corner_travel(p, i, travel);
    // The spin axis (world) at this travel and its rate of turn with the travel.
    const CornerAxis<T> carrier_axis = corner_axis(p, env, i, travel);
    const Vec3<T> axis = rot * carrier_axis.axis, axis_slope = rot * carrier_axis.slope;
    const T spin_rel = s[kWheelSpin + i] - dot(axis, omega);

    // Bushing (body frame): spring and damper on the distance from the path, measured
    // perpendicular to its tangent (so its rate is link_stiffness however steep the path).
    const Vec3<T> bushing = bushing_force(p, i, path, o, o_rate);

    // Tire, along the surface normal sampled at the wheel itself.
    const Vec3<T> wheel_local = chassis_pos + wheel_rel;
    const Vec3<T> wheel_vel = chassis_vel + wheel_vel_rel;
    const TerrainContact<T> contact = corner_contact(env, i, wheel_local);
    const T pen = penetration(contact, p.tire.unloaded_radius);
    const T pen_rate = -dot(wheel_vel, contact.normal);
    const T fz = tire_normal_force(p.tire, pen, pen_rate);
    const Vec3<T> t_long = normalized_or(cross(axis, contact.normal), rot.col(0));
    const Vec3<T> t_lat = cross(contact.normal, t_long);
    const T rolling_radius = tire_rolling_radius(p.tire, fz);
    // Contact patch from the wheel centre, and the carrier's angular velocity without the spin.
    const Vec3<T> patch = (p.tire_force_at_contact * (pen - p.tire.unloaded_radius)) * contact.normal;
    const Vec3<T> carrier_turn = cross(axis, axis_slope);  // the carrier's turn per unit travel, spin aside
    const Vec3<T> carrier = omega + travel_rate * carrier_turn;
    const Vec3<T> patch_vel = wheel_vel + cross(carrier - dot(carrier, axis) * axis, patch);

    TireInput<T> tin;
    tin.fz = fz;
    tin.v_long = dot(patch_vel, t_long);
    tin.v_lat = dot(patch_vel, t_lat);
    tin.omega = s[kWheelSpin + i];
    tin.rolling_radius = rolling_radius;
    tin.defl_long = s[kDeflLong + i];
    tin.defl_lat = s[kDeflLat + i];
    const auto touching = pen > T(0);
    tin.contact_length = select(touching, T(2) * sqrt(p.tire.unloaded_radius * select(touching, pen, T(0))), T(0));
    const TireOutput<T> tire = tmeasy_forces(p.tire, tin, contact.mu_scale);
    const Vec3<T> tire_force = tire.fx * t_long + tire.fy * t_lat + fz * contact.normal;
    ds[kDeflLong + i] = tire.defl_long_rate;
    ds[kDeflLat + i] = tire.defl_lat_rate;
    // The tire's moment about the wheel centre without its spin-axis part (which the spin takes
    // below): to the body, and the part along a x a' to the travel.
    const Vec3<T> moment = cross(patch, tire_force);
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
    const T external = drive - rolling_radius * tire.fx;
    const T brake_max = p.brake_torque[i] * input.brake;
    const T resist_max = brake_max + tire.rolling_resistance_torque_max;
    const T resist = clamp(-external - p.wheel_spin_inertia * p.wheel_lock_rate * spin_rel, -resist_max, resist_max);
    ds[kWheelSpin + i] = (external + resist) * p.inverse_spin_inertia;
    // Inboard brakes and the driveline sit on the chassis: their reactions go to the body.
    const auto resisting = resist_max > T(0);
    const T brake = select(resisting, resist * (brake_max / select(resisting, resist_max, T(1))), T(0));
    body_torque -= (drive + brake) * axis;
    body_torque += tire.mz * contact.normal;  // aligning moment reaches the body through the links
    body_torque += moment_perp;
    spin_momentum += (p.wheel_spin_inertia * s[kWheelSpin + i]) * axis;

    wheel_accel[i] = (connection + tire_force) * p.inverse_unsprung_mass[i] + gravity;
    body_force -= connection;
    body_torque += cross(wheel_rel, -connection);

    if (diag) {
      diag->tire_normal_force[i] = fz;
      diag->tire_force[i] = tire_force;
      diag->strut_compression[i] = travel;
      diag->bushing_deflection[i] = sqrt(bushing_distance_sq(path, o));
    }
  }
  // The wheels' spin momentum turns with the body: the body supplies omega x H (seed 004, gyroscopic coupling).
  body_torque -= cross(omega, spin_momentum);

  const Vec3<T> chassis_accel = body_force * p.inverse_body_mass + gravity;
  const Vec3<T> torque_body = mul_transpose(rot, body_torque);
  const Vec3<T> inertia{p.body_inertia_xx, p.body_inertia_yy, p.body_inertia_zz};
  const Vec3<T> momentum_body{inertia.x * omega_body.x, inertia.y * omega_body.y, inertia.z * omega_body.z};
  const Vec3<T> euler_rhs = torque_body - cross(omega_body, momentum_body);

  store3(ds, kPos, chassis_vel);
  store_quat(ds, kQuat, quat_derivative(q, omega_body));
  store3(ds, kVel, chassis_accel);
  const Vec3<T> inv_inertia = p.inverse_body_inertia;
  store3(ds, kOmega, Vec3<T>{euler_rhs.x * inv_inertia.x, euler_rhs.y * inv_inertia.y, euler_rhs.z * inv_inertia.z});
  for (int i = 0; i < kCorners; ++i) {
    store3(ds, kUnsprungPos + 3 * i, load3(s, kUnsprungVel + 3 * i));
    store3(ds, kUnsprungVel + 3 * i, wheel_accel[i] - chassis_accel);
  }
  if (diag) diag->chassis_accel = chassis_accel;
}

// One outer step from `s` into `next` (which may not alias `s`): `substeps` classic RK4 steps
// of the strut ODE, the quaternion renormalized after each. `diag`, if given, receives the
// diagnostics of the first stage (the state at step start). Low-storage form: the stage
// derivative is folded into an accumulator at once, so only four state-sized arrays are live
// (state, next, stage, derivative) plus the accumulator, which keeps GPU registers in reach.
template <class T>
FLEETDYN_FN void strut_step(const StrutParams<T>& p, const TerrainDesc<scalar_of<T>>& terrain, T origin_x, T origin_y,
                            const IntegratorSettings<scalar_of<T>>& integ, DriverInput<T> input, const T* s, T* next,
                            StrutDiagnostics<T>* diag) {
  using namespace strut;
  input = clamped(input);
  FrozenContact<T> frozen;
  StrutEnvironment<T> env(p, &terrain, origin_x, origin_y, input);
  if (!integ.requery_contact) {
    // Once-per-step query at the wheel (seed 004's default-off mode), then the tangent plane.
    const Vec3<T> chassis_pos = load3(s, kPos);
    for (int i = 0; i < kCorners; ++i) {
      const Vec3<T> wheel_local = chassis_pos + load3(s, kUnsprungPos + 3 * i);
      const TerrainContact<T> c = terrain_query(terrain, wheel_local, origin_x, origin_y);
      frozen.surface_point[i] = wheel_local - c.distance * c.normal;
      frozen.normal[i] = c.normal;
      frozen.mu_scale[i] = c.mu_scale;
    }
    env.frozen = &frozen;
  }
  const T h = T(integ.step / scalar_of<T>(integ.substeps));
  T rate[kStateSize], sum[kStateSize], stage[kStateSize];
  for (int j = 0; j < kStateSize; ++j) next[j] = s[j];
  for (int sub = 0; sub < integ.substeps; ++sub) {
    // k1 at the start, then k2, k3 at half steps along k1, k2, and k4 at the full step along k3;
    // sum = k1 + 2 k2 + 2 k3 + k4.
    strut_derivative(p, env, input, next, rate, sub == 0 ? diag : nullptr);
    for (int j = 0; j < kStateSize; ++j) {
      sum[j] = rate[j];
      stage[j] = next[j] + T(0.5) * h * rate[j];
    }
    strut_derivative(p, env, input, stage, rate, static_cast<StrutDiagnostics<T>*>(nullptr));
    for (int j = 0; j < kStateSize; ++j) {
      sum[j] += T(2) * rate[j];
      stage[j] = next[j] + T(0.5) * h * rate[j];
    }
    strut_derivative(p, env, input, stage, rate, static_cast<StrutDiagnostics<T>*>(nullptr));
    for (int j = 0; j < kStateSize; ++j) {
      sum[j] += T(2) * rate[j];
      stage[j] = next[j] + h * rate[j];
    }
    strut_derivative(p, env, input, stage, rate, static_cast<StrutDiagnostics<T>*>(nullptr));
    for (int j = 0; j < kStateSize; ++j) next[j] += (h / T(6)) * (sum[j] + rate[j]);
    store_quat(next, kQuat, normalized(load_quat(next, kQuat)));
  }
}

// Energy ledger of one vehicle [J] (seed 004 "Energy"). Potential energies are zero where each
// element is relaxed (the coil at its free length, bushings on the path, stops and tires out of
// contact); gravity PE is m g z with z the world height.
template <class T>
struct EnergyLedger {
  T chassis_kinetic;   // translation + rotation of the body
  T unsprung_kinetic;  // translation of the four wheel particles
  T wheel_spin_kinetic;
  T gravity_potential;
  T strut_potential;  // springs + stops
  T bushing_potential;
  T tire_potential;  // vertical + transient deflection springs
  FLEETDYN_HD T total() const {
    return chassis_kinetic + unsprung_kinetic + wheel_spin_kinetic + gravity_potential + strut_potential +
           bushing_potential + tire_potential;
  }
};

template <class T>
FLEETDYN_FN EnergyLedger<T> strut_energy(const StrutParams<T>& p, const TerrainDesc<T>& terrain, T origin_x, T origin_y,
                                         const T* s) {
  using namespace strut;
  EnergyLedger<T> e{};
  const Vec3<T> pos = load3(s, kPos);
  const Mat3<T> rot = rotation_matrix(normalized(load_quat(s, kQuat)));
  const Vec3<T> vel = load3(s, kVel);
  const Vec3<T> w = load3(s, kOmega);
  e.chassis_kinetic = T(0.5) * p.body_mass * norm_sq(vel) +
                      T(0.5) * (p.body_inertia_xx * w.x * w.x + p.body_inertia_yy * w.y * w.y + p.body_inertia_zz * w.z * w.z);
  e.gravity_potential = p.body_mass * p.gravity * pos.z;
  for (int i = 0; i < kCorners; ++i) {
    const Vec3<T> wheel_rel = load3(s, kUnsprungPos + 3 * i);
    const Vec3<T> wheel_vel = vel + load3(s, kUnsprungVel + 3 * i);
    e.unsprung_kinetic += T(0.5) * p.unsprung_mass[i] * norm_sq(wheel_vel);
    e.wheel_spin_kinetic += T(0.5) * p.wheel_spin_inertia * sq(s[kWheelSpin + i]);
    e.gravity_potential += p.unsprung_mass[i] * p.gravity * (pos.z + wheel_rel.z);
    const Vec3<T> o = mul_transpose(rot, wheel_rel - rot * p.wheel_attach[i]);
    const CornerTravel<T> path = corner_travel(p, i, o.z);
    e.strut_potential += strut_spring_energy(p, i, path) + stop_energy(p, o.z - p.bump_travel[i]) +
                         stop_energy(p, -o.z - p.rebound_travel[i]);
    e.bushing_potential += T(0.5) * p.link_stiffness * bushing_distance_sq(path, o);
    const TerrainContact<T> c = terrain_query(terrain, pos + wheel_rel, origin_x, origin_y);
    const T pen = penetration(c, p.tire.unloaded_radius);
    if (pen > T(0)) e.tire_potential += T(0.5) * p.tire.vertical_stiffness * pen * pen;
    e.tire_potential += T(0.5) * (p.tire.long_stiffness * sq(s[kDeflLong + i]) + p.tire.lat_stiffness * sq(s[kDeflLat + i]));
  }
  return e;
}

}  // namespace fleetdyn
