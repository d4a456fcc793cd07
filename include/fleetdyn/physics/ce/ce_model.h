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
//
// The corners' bodies (ce_corner.h), gathers and scatters are written per corner and the base per
// vehicle, against a corner group (physics/core/corner_group.h): the CPU runs a vehicle's corners in
// a loop, the GPU in four lanes, from this one source, on the split layout (ce_state.h).
#pragma once

#include "fleetdyn/physics/ce/ce_corner.h"
#include "fleetdyn/physics/core/body_contact.h"
#include "fleetdyn/physics/core/corner_group.h"
#include "fleetdyn/physics/core/integrator.h"

namespace fleetdyn {

// ---- the recursion, per corner -----------------------------------------------------------------

// What a corner's gather (tip to base, seed eqs. 4 and 6) keeps for its scatter (seed eq. 7).
template <class T>
struct CeCornerArticulated {
  SpatialVec<T> agg_u_vec, wheel_u_vec;  // U of the aggregate body and of the wheel
  SpatialVec<T> upright_map;             // the upright's motion per unit LCA rate
  SpatialVec<T> upright_bias;            // the upright's velocity-product acceleration
  T agg_d, agg_u, wheel_d, wheel_u;
};

// What a corner adds to the floating base: its articulated inertia (the rigid bodies' inertias
// minus the rank-one terms U U^T / D of the wheel and the aggregate) and its bias force. Summed over
// the corners by the group; the chassis' own part is added at the base.
template <class T>
struct CeBaseShare {
  Lower6<T> inertia;
  SpatialVec<T> bias;
};
template <class T>
FLEETDYN_HD CeBaseShare<T> operator+(const CeBaseShare<T>& a, const CeBaseShare<T>& b) {
  return {a.inertia + b.inertia, a.bias + b.bias};
}

// The wheel's articulated inertia I - U U^T / D, applied without forming it.
template <class T>
FLEETDYN_FN SpatialVec<T> wheel_articulated_times(const RigidInertia<T>& inertia, const SpatialVec<T>& u, T inv_d,
                                                  const SpatialVec<T>& x) {
  return inertia * x - (dot(x, u) * inv_d) * u;
}

// A corner's gather: the wheel's articulated body on the upright (revolute about the spin axis),
// then the aggregate body with the wheel riding on its upright (seed eqs. 4, 6, 9-11). Every
// articulated inertia is a sum of rigid-body inertias minus rank-one terms, so the rigid parts are
// summed in their 10-number form and the 6x6 is formed once per corner.
template <class T>
FLEETDYN_FN CeBaseShare<T> ce_corner_gather(const CeCornerBodies<T>& c, const SpatialVec<T>& base_vel, T spin,
                                            CeCornerArticulated<T>& a) {
  const SpatialVec<T> upright_vel = base_vel + c.rel_vel[kCeUpright];
  const SpatialVec<T> wheel_rel = spin * c.spin_axis;
  const SpatialVec<T> wheel_vel = upright_vel + wheel_rel;
  const SpatialVec<T> wheel_c = cross_motion(upright_vel, wheel_rel);
  const SpatialVec<T> wheel_pc = cross_force(wheel_vel, c.wheel_inertia * wheel_vel) - c.wheel_ext_force +
                                 c.wheel_inertia * wheel_c;
  const SpatialVec<T> uw = c.wheel_inertia * c.spin_axis;
  a.wheel_d = dot(c.spin_axis, uw);
  a.wheel_u = -dot(c.spin_axis, wheel_pc);
  a.wheel_u_vec = uw;
  const T inv_dw = T(1) / a.wheel_d;
  const SpatialVec<T> wheel_art_bias = wheel_pc + (a.wheel_u * inv_dw) * uw;
  RigidInertia<T> rigid = c.wheel_inertia;
  SpatialVec<T> u_vec = spatial_zero<T>(), pc_sum = spatial_zero<T>();
  T d = T(0), u = c.lca_force;
  for (int j = 0; j < kCeAggregateBodies; ++j) {
    const SpatialVec<T> vel = base_vel + c.rel_vel[j];
    const SpatialVec<T> bias = c.rel_bias[j] + cross_motion(base_vel, c.rel_vel[j]);
    SpatialVec<T> pc = cross_force(vel, c.inertia[j] * vel) - c.ext_force[j] + c.inertia[j] * bias;
    SpatialVec<T> ih = c.inertia[j] * c.lca_map[j];
    if (j == kCeUpright) {
      // The wheel's articulated body sees the upright's motion: its inertia and bias join.
      a.upright_bias = bias;
      pc += wheel_art_bias + wheel_articulated_times(c.wheel_inertia, uw, inv_dw, bias);
      ih += wheel_articulated_times(c.wheel_inertia, uw, inv_dw, c.lca_map[j]);
    }
    rigid += c.inertia[j];
    u_vec += ih;
    d += dot(c.lca_map[j], ih);
    pc_sum += pc;
    u -= dot(c.lca_map[j], pc);
  }
  a.agg_u_vec = u_vec;
  a.agg_d = d;
  a.agg_u = u;
  a.upright_map = c.lca_map[kCeUpright];
  Mat6<T> inertia = mat6_from_rigid(rigid);
  subtract_rank_one_lower(inertia, uw, a.wheel_d);
  subtract_rank_one_lower(inertia, u_vec, d);
  return {lower6_of(inertia), (pc_sum + (u / d) * u_vec) - c.chassis_reaction};
}

// The floating base (seed eq. 7 at the root): the chassis with every corner's articulated inertia
// and bias, gravity and the body's own contact with the terrain (physics/core/body_contact.h,
// zero while no corner of the body box touches); returns its spatial acceleration (d omega/dt,
// d vel/dt) in chassis axes.
template <class T>
FLEETDYN_FN SpatialVec<T> ce_base_acceleration(const CeParams<T>& p, const T* x, const Mat3<T>& rot,
                                               const BodyContactLoad<T>& body, const CeBaseShare<T>& corners) {
  using namespace ce;
  const SpatialVec<T> base_vel{load3(x, kOmega), load3(x, kVel)};
  const Vec3<T> gravity_body = mul_transpose(rot, Vec3<T>{T(0), T(0), -p.gravity});
  const RigidInertia<T> chassis = rigid_inertia(p.chassis_mass, p.chassis_com, p.chassis_inertia);
  SpatialVec<T> bias = (cross_force(base_vel, chassis * base_vel) - force_at(p.chassis_mass * gravity_body, p.chassis_com)) +
                       corners.bias;
  bias = bias - SpatialVec<T>{mul_transpose(rot, body.torque), mul_transpose(rot, body.force)};
  return solve_spd(plus_lower(mat6_from_rigid(chassis), corners.inertia), T(-1) * bias);
}

// A corner's scatter (seed eq. 7): its LCA and wheel spin accelerations from the base's.
template <class T>
FLEETDYN_FN void ce_corner_scatter(const CeCornerArticulated<T>& a, const SpatialVec<T>& base_acc, T& lca_acc, T& spin_acc) {
  lca_acc = (a.agg_u - dot(a.agg_u_vec, base_acc)) / a.agg_d;
  const SpatialVec<T> upright_acc = base_acc + lca_acc * a.upright_map + a.upright_bias;
  spin_acc = (a.wheel_u - dot(a.wheel_u_vec, upright_acc)) / a.wheel_d;
}

// ---- derivative and step ----------------------------------------------------------------------

template <class T>
FLEETDYN_FN T ce_steer_command(const CeParams<T>& p, DriverInput<T> input) {
  return input.steer * p.steering.max_angle;
}

// What the batch's metrics need of one derivative evaluation (the tire loads by the group's slot).
template <class T>
struct CeDiagnostics {
  T tire_normal_force[kCorners];  // [N]
  Vec3<T> chassis_accel;          // [m/s^2] world, acceleration of the chassis centre of mass
  T roof_contact_speed;           // [m/s] BodyContactLoad::roof_speed
};

// Time derivative of the split state x of a corner group's corners: each corner's bodies and
// gather, the base from the corners' sum, each corner's scatter. `corners_out`, if given, receives
// the held corners' bodies (by slot); `diag`, if given, the tire loads (by slot) and the chassis COM
// acceleration.
template <class T, class Group>
FLEETDYN_FN void ce_derivative_split(const CeParams<T>& p, const CeEnvironment<T>& env, DriverInput<T> input, const T* x,
                                     T* dx, CeCornerBodies<T>* corners_out, CeDiagnostics<T>* diag, const Group& group) {
  using namespace ce;
  constexpr int kHeld = Group::kCount;
  const Quat<T> q = normalized(load_quat(x, kQuat));
  const Mat3<T> rot = rotation_matrix(q);
  // Steering actuator: first-order lag towards the command; its acceleration for a command held
  // over the step enters the velocity-product terms.
  const T steer = x[kChassisSteer];
  const T steer_rate = (ce_steer_command(p, input) - steer) / p.steer_time_constant;
  const T steer_accel = -steer_rate / p.steer_time_constant;
  const SteeringLinkState<T> link = steering_link_state(p.steering, steer, steer_rate, steer_accel);
  // Driveline: engine speed from the drive-weighted mean wheel spin.
  T drive_spin[kHeld];
  for (int k = 0; k < kHeld; ++k) {
    drive_spin[k] = p.drive_share[group.corner(k)] * x[kChassisSize + kCornerSize * k + kCornerSpin];
  }
  const T drive_total = drive_torque_at_wheels(p, input.throttle, group.sum(drive_spin));

  const SpatialVec<T> base_vel{load3(x, kOmega), load3(x, kVel)};
  CeCornerArticulated<T> art[kHeld];
  CeBaseShare<T> share[kHeld];
  for (int k = 0; k < kHeld; ++k) {
    const int i = group.corner(k);
    const T* c = x + kChassisSize + kCornerSize * k;
    T* dc = dx + kChassisSize + kCornerSize * k;
    CeCornerBodies<T> local;
    CeCornerBodies<T>& bodies = corners_out ? corners_out[k] : local;
    ce_corner_bodies(p, env, i, x, c, rot, link, drive_total * p.drive_share[i], input, bodies);
    share[k] = ce_corner_gather(bodies, base_vel, c[kCornerSpin], art[k]);
    dc[kCornerLca] = c[kCornerLcaRate];
    dc[kCornerDeflLong] = bodies.tire_defl_long_rate;
    dc[kCornerDeflLat] = bodies.tire_defl_lat_rate;
    if (diag) diag->tire_normal_force[k] = bodies.tire_normal_force;
  }
  const BodyContactLoad<T> body = body_contact_load<T>(p, *env.terrain, env.origin_x, env.origin_y, load3(x, kPos), rot,
                                                       rot * base_vel.lin, rot * base_vel.ang);
  const SpatialVec<T> base_acc = ce_base_acceleration(p, x, rot, body, group.sum(share));
  for (int k = 0; k < kHeld; ++k) {
    T* dc = dx + kChassisSize + kCornerSize * k;
    ce_corner_scatter(art[k], base_acc, dc[kCornerLcaRate], dc[kCornerSpin]);
  }

  store3(dx, kPos, rot * load3(x, kVel));
  store_quat(dx, kQuat, quat_derivative(q, load3(x, kOmega)));
  store3(dx, kOmega, base_acc.ang);
  store3(dx, kVel, base_acc.lin);
  dx[kChassisSteer] = steer_rate;
  if (diag) {
    // The state's velocity is in the moving chassis axes: the origin's acceleration adds
    // omega x v, the COM's the rigid-body terms alpha x r + omega x (omega x r).
    const Vec3<T> omega = load3(x, kOmega), r = p.chassis_com;
    const Vec3<T> origin_accel = base_acc.lin + cross(omega, load3(x, kVel));
    diag->chassis_accel = rot * (origin_accel + cross(base_acc.ang, r) + cross(omega, cross(omega, r)));
    diag->roof_contact_speed = body.roof_speed;
  }
}

// The ce ODE of a corner group for the integrator (physics/core/integrator.h).
template <class T, class Group>
struct CeOde {
  const CeParams<T>& p;
  const CeEnvironment<T>& env;
  DriverInput<T> input;
  CeDiagnostics<T>* diag;
  const Group& group;
  FLEETDYN_FN void derivative(const T* x, T* dx, bool first) {
    ce_derivative_split(p, env, input, x, dx, static_cast<CeCornerBodies<T>*>(nullptr),
                        first ? diag : static_cast<CeDiagnostics<T>*>(nullptr), group);
  }
  FLEETDYN_FN void project(T* x) { store_quat(x, ce::kQuat, normalized(load_quat(x, ce::kQuat))); }
};

// One step of a corner group from split state `x` into `next` (which may not alias `x`):
// `substeps` classic RK4 steps (the quaternion renormalized after each). `diag`, if given,
// receives the diagnostics of the first stage (the state at step start).
template <class T, class Group>
FLEETDYN_FN void ce_step_split(const CeParams<T>& p, const CeEnvironment<T>& env, scalar_of<T> step, int substeps,
                               DriverInput<T> input, const T* x, T* next, CeDiagnostics<T>* diag, const Group& group) {
  constexpr int kSize = ce::kChassisSize + ce::kCornerSize * Group::kCount;
  for (int j = 0; j < kSize; ++j) next[j] = x[j];
  CeOde<T, Group> ode{p, env, clamped(input), diag, group};
  rk4_substeps<kSize>(ode, T(step / scalar_of<T>(substeps)), substeps, next);
}

// The batch's layout of a whole vehicle to the split layout of AllCorners, and back.
template <class T>
FLEETDYN_FN void ce_split_state(const T* s, T* x) {
  using namespace ce;
  for (int j = 0; j < kChassisSize; ++j) x[j] = s[chassis_state_index(j)];
  for (int i = 0; i < kCorners; ++i) {
    for (int j = 0; j < kCornerSize; ++j) x[kChassisSize + kCornerSize * i + j] = s[state_index(i, j)];
  }
}
template <class T>
FLEETDYN_FN void ce_join_state(const T* x, T* s) {
  using namespace ce;
  for (int j = 0; j < kChassisSize; ++j) s[chassis_state_index(j)] = x[j];
  for (int i = 0; i < kCorners; ++i) {
    for (int j = 0; j < kCornerSize; ++j) s[state_index(i, j)] = x[kChassisSize + kCornerSize * i + j];
  }
}

// Time derivative of a whole vehicle's state in the batch's layout. `corners_out`, if given,
// receives the four corners' bodies; `diag`, if given, the tire loads and the chassis COM
// acceleration.
template <class T>
FLEETDYN_FN void ce_derivative(const CeParams<T>& p, const CeEnvironment<T>& env, DriverInput<T> input, const T* s,
                               T* ds, CeCornerBodies<T>* corners_out = nullptr, CeDiagnostics<T>* diag = nullptr) {
  T x[kCeStateSize], dx[kCeStateSize];
  ce_split_state(s, x);
  ce_derivative_split(p, env, input, x, dx, corners_out, diag, AllCorners{});
  ce_join_state(dx, ds);
}

// One step of a whole vehicle in the batch's layout (ce_step_split with AllCorners).
template <class T>
FLEETDYN_FN void ce_step(const CeParams<T>& p, const CeEnvironment<T>& env, scalar_of<T> step, int substeps,
                         DriverInput<T> input, const T* s, T* next, CeDiagnostics<T>* diag = nullptr) {
  T x[kCeStateSize], x_next[kCeStateSize];
  ce_split_state(s, x);
  ce_step_split(p, env, step, substeps, input, x, x_next, diag, AllCorners{});
  ce_join_state(x_next, next);
}

// Mechanical energy [J]: kinetic energy of every body, gravity (world height), springs, tire
// vertical and transient deflection springs and the body contact's springs (stops excluded). Conserved when dampers,
// tire damping, slip forces and the stops are out of play.
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
    const Vec3<T> wheel = pos + rot * c.pose.wheel_centre;
    const TireContacts<T> contacts = tire_contacts(*env.terrain, wheel, env.origin_x, env.origin_y, rot * c.pose.spin_axis,
                                                   p.tire.unloaded_radius, tire_half_width(p.tire));
    potential += tire_contacts_potential(*env.terrain, p.tire, contacts, env.origin_x + wheel.x, env.origin_y + wheel.y);
    // the tread's transient deflection springs (TMeasy), as strut_energy counts them
    potential += T(0.5) * (p.tire.long_stiffness * sq(s[kDeflLong + i]) + p.tire.lat_stiffness * sq(s[kDeflLat + i]));
  }
  potential += body_contact_energy(p, *env.terrain, env.origin_x, env.origin_y, pos, rot);
  return kinetic + potential;
}

}  // namespace fleetdyn
