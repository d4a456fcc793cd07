// The strut vehicle model (seed 004, "free-3D inertial unsprung"): a chassis rigid body and four
// unsprung masses, each a free 3-D particle held on its strut by a stiff penalty bushing
// perpendicular to the strut axis and a spring-damper along it. Tire forces act on the particle
// along the real surface normal sampled at the wheel; the chassis feels the wheels only through
// the connection reactions (plus tire aligning moments, driveline/brake reactions and the
// gyroscopic moment of the spinning wheels).
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
//                         resolves the bushing's micrometre deflections (seed 004 + issue 2)
//   unsprung_vel  [m/s]   v_u - chassis_vel per corner
//   wheel_spin    [rad/s] absolute spin rate about the wheel axis, positive rolling forward
//   tire_defl_long, tire_defl_lat [m] tire transient deflections (TMeasy first-order dynamics)
#pragma once

#include "fleetdyn/physics/config.h"
#include "fleetdyn/physics/driveline.h"
#include "fleetdyn/physics/integrator.h"
#include "fleetdyn/physics/math.h"
#include "fleetdyn/physics/terrain.h"
#include "fleetdyn/physics/tire_tmeasy.h"
#include "fleetdyn/physics/vehicle_params.h"

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

template <class T>
FLEETDYN_FN Vec3<T> load3(const T* a, int i) { return {a[i], a[i + 1], a[i + 2]}; }
template <class T>
FLEETDYN_FN void store3(T* a, int i, Vec3<T> v) { a[i] = v.x; a[i + 1] = v.y; a[i + 2] = v.z; }
template <class T>
FLEETDYN_FN Quat<T> load_quat(const T* a, int i) { return {a[i], a[i + 1], a[i + 2], a[i + 3]}; }
template <class T>
FLEETDYN_FN void store_quat(T* a, int i, Quat<T> q) { a[i] = q.w; a[i + 1] = q.x; a[i + 2] = q.y; a[i + 3] = q.z; }

// Contact of one step when it is NOT re-queried at every stage: the tangent plane sampled at
// the wheel at the start of the step (seed 004's once-per-step query with the within-step
// correction pen = pen_rigid - (x_u - x_query).n, which the tangent plane gives exactly).
template <class T>
struct FrozenContact {
  Vec3<T> surface_point[kCorners];  // [m] local coordinates (relative to the vehicle origin)
  Vec3<T> normal[kCorners];
  T mu_scale[kCorners];
};

// What the model knows, for one step, about where it is and what the driver does that does not
// change within the step: the terrain, the vehicle's origin, the contact mode, and the front
// wheels' spin axis for the step's steering input (one sin/cos per step, not per evaluation).
template <class T>
struct StrutEnvironment {
  const TerrainDesc<scalar_of<T>>* terrain;  // one terrain for the batch, even when T holds lanes
  T origin_x, origin_y;                 // [m] the vehicle's local origin
  const FrozenContact<T>* frozen;       // null: query the terrain at every evaluation (default)
  Vec3<T> front_axis_body;              // [-] front wheels' spin axis in the body frame

  FLEETDYN_HD StrutEnvironment(const VehicleParams<T>& p, const TerrainDesc<scalar_of<T>>* terrain_, T origin_x_,
                               T origin_y_,
                               DriverInput<T> input, const FrozenContact<T>* frozen_ = nullptr)
      : terrain(terrain_), origin_x(origin_x_), origin_y(origin_y_), frozen(frozen_) {
    const T angle = road_wheel_angle(p, clamped(input).steer, 0);
    front_axis_body = Vec3<T>{-sin(angle), cos(angle), T(0)};
  }
};

// By-products of one derivative evaluation, for metrics and tests.
template <class T>
struct StrutDiagnostics {
  T tire_normal_force[kCorners];        // [N]
  Vec3<T> tire_force[kCorners];         // [N] world, on the wheel
  T strut_compression[kCorners];        // [m] (x_u - mount).u, positive in bump
  T bushing_deflection[kCorners];       // [m] |perpendicular offset|
  Vec3<T> chassis_accel;                // [m/s^2] world, kinematic (gravity included in the dynamics)
};

// Piecewise-linear table lookup, branch-free: the segment containing x is selected from the
// last one down, so the first segment with x <= xs[i] wins.
template <class T>
FLEETDYN_FN T piecewise_linear(const T* xs, const T* ys, int n, T x) {
  // Beyond the table: extend the last segment's slope (a stop keeps getting stiffer, not flat).
  T y = ys[n - 1] + (ys[n - 1] - ys[n - 2]) * (x - xs[n - 1]) / (xs[n - 1] - xs[n - 2]);
  for (int i = n - 1; i >= 1; --i) {
    y = select(x <= xs[i], ys[i - 1] + (ys[i] - ys[i - 1]) * (x - xs[i - 1]) / (xs[i] - xs[i - 1]), y);
  }
  return select(x <= xs[0], ys[0], y);
}

// Stop force at the wheel [N] for a wheel-travel penetration past the stop [m] (> 0 engaged).
// The table is on spring length; wheel travel maps to spring penetration by the motion ratio
// and the force back by the same ratio (virtual work).
template <class T>
FLEETDYN_FN T stop_force(const VehicleParams<T>& p, T wheel_penetration) {
  const auto engaged = wheel_penetration > T(0);
  if (!any_lane(engaged)) return T(0);  // the usual case: the table is not looked at
  const T mr = p.stop_motion_ratio;
  return select(engaged, mr * piecewise_linear(p.stop_table_pen, p.stop_table_force, kStopTablePoints, wheel_penetration * mr),
                T(0));
}

// Potential energy stored in a stop [J] (integral of stop_force), for the energy ledger.
template <class T>
FLEETDYN_FN T stop_energy(const VehicleParams<T>& p, T wheel_penetration) {
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

// Strut spring force [N] (pushing the body up, the wheel down): preload + k*compression, a
// coil that cannot pull once it has extended to its free length.
template <class T>
FLEETDYN_FN T strut_spring_force(const VehicleParams<T>& p, int corner, T compression) {
  const T f = p.strut_preload[corner] + p.wheel_rate[corner] * compression;
  return select(f > T(0), f, T(0));
}

template <class T>
FLEETDYN_FN T strut_spring_energy(const VehicleParams<T>& p, int corner, T compression) {
  // Integral from 0 of max(0, F0 + k c) dc, with the free length at c_free = -F0/k.
  const T k = p.wheel_rate[corner], f0 = p.strut_preload[corner];
  const T c_free = -f0 / k;
  const T c = compression > c_free ? compression : c_free;
  return f0 * c + T(0.5) * k * c * c;
}

// Unit wheel spin axes (world) of the four corners: body lateral, the front ones turned about
// body z by the steer angle (the rear wheels don't steer).
template <class T>
FLEETDYN_FN void wheel_axes(const StrutEnvironment<T>& env, const Mat3<T>& rot, Vec3<T>* axis) {
  const Vec3<T> front = rot * env.front_axis_body;
  const Vec3<T> rear = rot.col(1);
  for (int i = 0; i < kCorners; ++i) axis[i] = i < 2 ? front : rear;
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
template <class T>
FLEETDYN_FN void strut_derivative(const VehicleParams<T>& p, const StrutEnvironment<T>& env,
                                  DriverInput<T> input, const T* s, T* ds,
                                  StrutDiagnostics<T>* diag) {
  using namespace strut;
  const Vec3<T> gravity{T(0), T(0), -p.gravity};
  const Vec3<T> chassis_pos = load3(s, kPos);
  const Quat<T> q = normalized(load_quat(s, kQuat));  // RK4 stages leave |q| slightly off 1
  const Mat3<T> rot = rotation_matrix(q);
  const Vec3<T> chassis_vel = load3(s, kVel);
  const Vec3<T> omega_body = load3(s, kOmega);
  const Vec3<T> omega = rot * omega_body;  // world
  const Vec3<T> strut_axis = rot.col(2);   // u_hat = body up (motion ratio folded into the rates)

  // Driveline: engine speed from the drive-weighted mean spin of the wheels relative to the body.
  Vec3<T> axis[kCorners];
  T spin_rel[kCorners];
  T mean_spin = T(0);
  wheel_axes(env, rot, axis);
  for (int i = 0; i < kCorners; ++i) {
    spin_rel[i] = s[kWheelSpin + i] - dot(axis[i], omega);
    mean_spin += p.drive_share[i] * spin_rel[i];
  }
  const T drive_total = drive_torque_at_wheels(p, input.throttle, mean_spin);

  Vec3<T> body_force{T(0), T(0), T(0)};
  Vec3<T> body_torque{T(0), T(0), T(0)};   // world, about the body COM
  Vec3<T> spin_momentum{T(0), T(0), T(0)};  // sum of I_s * spin * axis
  Vec3<T> wheel_accel[kCorners];

  for (int i = 0; i < kCorners; ++i) {
    const Vec3<T> mount = rot * p.wheel_attach[i];                 // R rb_i
    const Vec3<T> wheel_rel = load3(s, kUnsprungPos + 3 * i);     // x_u - chassis_pos
    const Vec3<T> wheel_vel_rel = load3(s, kUnsprungVel + 3 * i); // v_u - chassis_vel
    // Velocity of the wheel relative to the body point coincident with it.
    const Vec3<T> slip_vel = wheel_vel_rel - cross(omega, wheel_rel);
    const Vec3<T> offset = wheel_rel - mount;
    const T compression = dot(offset, strut_axis);
    const T compression_rate = dot(slip_vel, strut_axis);
    const Vec3<T> perp = offset - compression * strut_axis;
    const Vec3<T> perp_vel = slip_vel - compression_rate * strut_axis;

    const T damping = select(compression_rate > T(0), p.damping_bump[i], p.damping_rebound[i]);
    const T strut_force = strut_spring_force(p, i, compression) + damping * compression_rate +
                          stop_force(p, compression - p.bump_travel[i]) -
                          stop_force(p, -compression - p.rebound_travel[i]);
    // Force of the body on the wheel: strut pushes it down, bushing pulls it onto the strut line.
    const Vec3<T> connection = -strut_force * strut_axis - p.link_stiffness * perp - p.link_damping[i] * perp_vel;

    // Tire on the particle, along the surface normal sampled at the wheel itself.
    const Vec3<T> wheel_local = chassis_pos + wheel_rel;
    const Vec3<T> wheel_vel = chassis_vel + wheel_vel_rel;
    const TerrainContact<T> contact = corner_contact(env, i, wheel_local);
    const T pen = penetration(contact, p.tire.unloaded_radius);
    const T pen_rate = -dot(wheel_vel, contact.normal);
    const T fz = tire_normal_force(p.tire, pen, pen_rate);
    const Vec3<T> t_long = normalized_or(cross(axis[i], contact.normal), rot.col(0));
    const Vec3<T> t_lat = cross(contact.normal, t_long);
    const T rolling_radius = tire_rolling_radius(p.tire, fz);

    TireInput<T> tin;
    tin.fz = fz;
    tin.v_long = dot(wheel_vel, t_long);
    tin.v_lat = dot(wheel_vel, t_lat);
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

    // Wheel spin: drive and tire torques, and the resisting torque (brake + rolling
    // resistance) that holds a wheel at rest up to its limit instead of chattering: the
    // resistance brings the relative spin to zero with time constant wheel_lock_time,
    // clamped to what brake and rolling resistance can supply (Coulomb when sliding).
    const T drive = drive_total * p.drive_share[i];
    const T external = drive - rolling_radius * tire.fx;
    const T brake_max = p.brake_torque[i] * input.brake;
    const T resist_max = brake_max + tire.rolling_resistance_torque_max;
    const T resist = clamp(-external - p.wheel_spin_inertia * p.wheel_lock_rate * spin_rel[i], -resist_max, resist_max);
    ds[kWheelSpin + i] = (external + resist) * p.inverse_spin_inertia;
    // Inboard brakes and the driveline sit on the chassis: their reactions go to the body.
    const auto resisting = resist_max > T(0);
    const T brake = select(resisting, resist * (brake_max / select(resisting, resist_max, T(1))), T(0));
    body_torque -= (drive + brake) * axis[i];
    body_torque += tire.mz * contact.normal;  // aligning moment reaches the body through the links
    spin_momentum += (p.wheel_spin_inertia * s[kWheelSpin + i]) * axis[i];

    wheel_accel[i] = (connection + tire_force) * p.inverse_unsprung_mass[i] + gravity;
    body_force -= connection;
    body_torque += cross(wheel_rel, -connection);

    if (diag) {
      diag->tire_normal_force[i] = fz;
      diag->tire_force[i] = tire_force;
      diag->strut_compression[i] = compression;
      diag->bushing_deflection[i] = norm(perp);
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
FLEETDYN_FN void strut_step(const VehicleParams<T>& p, const TerrainDesc<scalar_of<T>>& terrain, T origin_x,
                            T origin_y, const IntegratorSettings<scalar_of<T>>& integ, DriverInput<T> input,
                            const T* s, T* next, StrutDiagnostics<T>* diag) {
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

// Energy ledger of one vehicle [J] (seed 004 "Energy"). Potential energies are zero at the
// design configuration of each element; gravity PE is m g z with z the world height.
template <class T>
struct EnergyLedger {
  T chassis_kinetic;    // translation + rotation of the body
  T unsprung_kinetic;   // translation of the four wheel particles
  T wheel_spin_kinetic;
  T gravity_potential;
  T strut_potential;    // springs + stops
  T bushing_potential;
  T tire_potential;     // vertical + transient deflection springs
  FLEETDYN_HD T total() const {
    return chassis_kinetic + unsprung_kinetic + wheel_spin_kinetic + gravity_potential + strut_potential +
           bushing_potential + tire_potential;
  }
};

template <class T>
FLEETDYN_FN EnergyLedger<T> strut_energy(const VehicleParams<T>& p, const TerrainDesc<T>& terrain, T origin_x,
                                         T origin_y, const T* s) {
  using namespace strut;
  EnergyLedger<T> e{};
  const Vec3<T> pos = load3(s, kPos);
  const Mat3<T> rot = rotation_matrix(normalized(load_quat(s, kQuat)));
  const Vec3<T> vel = load3(s, kVel);
  const Vec3<T> w = load3(s, kOmega);
  const Vec3<T> u = rot.col(2);
  e.chassis_kinetic = T(0.5) * p.body_mass * norm_sq(vel) +
                      T(0.5) * (p.body_inertia_xx * w.x * w.x + p.body_inertia_yy * w.y * w.y + p.body_inertia_zz * w.z * w.z);
  e.gravity_potential = p.body_mass * p.gravity * pos.z;
  for (int i = 0; i < kCorners; ++i) {
    const Vec3<T> wheel_rel = load3(s, kUnsprungPos + 3 * i);
    const Vec3<T> wheel_vel = vel + load3(s, kUnsprungVel + 3 * i);
    e.unsprung_kinetic += T(0.5) * p.unsprung_mass[i] * norm_sq(wheel_vel);
    e.wheel_spin_kinetic += T(0.5) * p.wheel_spin_inertia * sq(s[kWheelSpin + i]);
    e.gravity_potential += p.unsprung_mass[i] * p.gravity * (pos.z + wheel_rel.z);
    const Vec3<T> offset = wheel_rel - rot * p.wheel_attach[i];
    const T compression = dot(offset, u);
    e.strut_potential += strut_spring_energy(p, i, compression) + stop_energy(p, compression - p.bump_travel[i]) +
                         stop_energy(p, -compression - p.rebound_travel[i]);
    e.bushing_potential += T(0.5) * p.link_stiffness * norm_sq(offset - compression * u);
    const TerrainContact<T> c = terrain_query(terrain, pos + wheel_rel, origin_x, origin_y);
    const T pen = penetration(c, p.tire.unloaded_radius);
    if (pen > T(0)) e.tire_potential += T(0.5) * p.tire.vertical_stiffness * pen * pen;
    e.tire_potential += T(0.5) * (p.tire.long_stiffness * sq(s[kDeflLong + i]) + p.tire.lat_stiffness * sq(s[kDeflLat + i]));
  }
  return e;
}

}  // namespace fleetdyn
