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
//
// The physics is written per corner (strut_corner.h) and per chassis (here) against a corner group
// (physics/core/corner_group.h): the CPU steps a vehicle's four corners in a loop, the GPU in four
// lanes, from this one source. The group steps the split layout (strut_state.h: the chassis, then
// each held corner); strut_derivative and strut_step below are the whole vehicle in the batch's
// layout.
#pragma once

#include "fleetdyn/physics/core/body_contact.h"
#include "fleetdyn/physics/core/corner_group.h"
#include "fleetdyn/physics/core/integrator.h"
#include "fleetdyn/physics/strut/strut_corner.h"
#include "fleetdyn/physics/strut/strut_energy.h"

namespace fleetdyn {

// Time derivative of the split state x of a corner group's corners (seed 004 "Model"): the corners'
// parts (strut_corner_derivative), their loads summed over the vehicle's corners, then the body's
// Newton-Euler equations and the wheels' accelerations relative to it. `frozen` is null (query the
// terrain at every evaluation) or holds the group's corners' contact planes.
template <class T, class Group>
FLEETDYN_FN void strut_derivative_split(const StrutParams<T>& p, const StrutEnvironment<T>& env,
                                        const FrozenCorner<T>* frozen, DriverInput<T> input, const T* x, T* dx,
                                        StrutDiagnostics<T>* diag, const Group& group) {
  using namespace strut;
  constexpr int kHeld = Group::kCount;
  StrutFrame<T> f;
  f.pos = load3(x, kPos);
  const Quat<T> q = normalized(load_quat(x, kQuat));  // RK4 stages leave |q| slightly off 1
  f.rot = rotation_matrix(q);
  f.vel = load3(x, kVel);
  f.omega_body = load3(x, kOmega);
  f.omega = f.rot * f.omega_body;

  // Engine speed from the drive-weighted spin of the wheels relative to the body.
  T drive_spin[kHeld];
  for (int k = 0; k < kHeld; ++k) {
    drive_spin[k] = strut_drive_spin(p, env, f, group.corner(k), x[kChassisSize + kCornerSize * k + kCornerSpin]);
  }
  const T drive_total = drive_torque_at_wheels(p, input.throttle, group.sum(drive_spin));

  StrutChassisLoad<T> load[kHeld];
  Vec3<T> wheel_accel[kHeld];
  for (int k = 0; k < kHeld; ++k) {
    const int at = kChassisSize + kCornerSize * k;
    load[k] = strut_corner_derivative(p, env, f, frozen ? frozen + k : nullptr, input, drive_total, group.corner(k),
                                      x + at, dx + at, wheel_accel[k], diag, k);
  }
  StrutChassisLoad<T> total = group.sum(load);
  // The body's own contact with the terrain (a rollover), zero and skipped while no corner of the
  // body box touches: every lane of a group computes it alike.
  const BodyContactLoad<T> body = body_contact_load<T>(p, *env.terrain, env.origin_x, env.origin_y, f.pos, f.rot, f.vel,
                                                       f.omega);
  total.force = total.force + body.force;
  total.torque = total.torque + body.torque;
  // The wheels' spin momentum turns with the body: the body supplies omega x H (seed 004, gyroscopic coupling).
  const Vec3<T> body_torque = total.torque - cross(f.omega, total.spin_momentum);
  const Vec3<T> chassis_accel = total.force * p.inverse_body_mass + Vec3<T>{T(0), T(0), -p.gravity};
  const Vec3<T> torque_body = mul_transpose(f.rot, body_torque);
  const Vec3<T> w = f.omega_body;
  const Vec3<T> momentum_body{p.body_inertia_xx * w.x, p.body_inertia_yy * w.y, p.body_inertia_zz * w.z};
  const Vec3<T> euler_rhs = torque_body - cross(w, momentum_body);
  const Vec3<T> inv_inertia = p.inverse_body_inertia;

  store3(dx, kPos, f.vel);
  store_quat(dx, kQuat, quat_derivative(q, w));
  store3(dx, kVel, chassis_accel);
  store3(dx, kOmega, Vec3<T>{euler_rhs.x * inv_inertia.x, euler_rhs.y * inv_inertia.y, euler_rhs.z * inv_inertia.z});
  for (int k = 0; k < kHeld; ++k)
    store3(dx + kChassisSize + kCornerSize * k, kCornerVel, wheel_accel[k] - chassis_accel);
  if (diag) {
    diag->chassis_accel = chassis_accel;
    diag->roof_contact_speed = body.roof_speed;
  }
}

// The strut ODE of a corner group for the integrator (physics/core/integrator.h).
template <class T, class Group>
struct StrutOde {
  const StrutParams<T>& p;
  const StrutEnvironment<T>& env;
  const FrozenCorner<T>* frozen;
  DriverInput<T> input;
  StrutDiagnostics<T>* diag;
  const Group& group;
  FLEETDYN_FN void derivative(const T* x, T* dx, bool first) {
    strut_derivative_split(p, env, frozen, input, x, dx, first ? diag : static_cast<StrutDiagnostics<T>*>(nullptr), group);
  }
  FLEETDYN_FN void project(T* x) { store_quat(x, strut::kQuat, normalized(load_quat(x, strut::kQuat))); }
};

// One outer step of a corner group from split state `x` into `next` (which may not alias `x`):
// `substeps` classic RK4 steps of the strut ODE, the quaternion renormalized after each. `diag`,
// if given, receives the diagnostics of the first stage (the state at step start).
template <class T, class Group>
FLEETDYN_FN void strut_step_split(const StrutParams<T>& p, const TerrainDesc<scalar_of<T>>& terrain, T origin_x,
                                  T origin_y, const IntegratorSettings<scalar_of<T>>& integ, DriverInput<T> input,
                                  const T* x, T* next, StrutDiagnostics<T>* diag, const Group& group) {
  using namespace strut;
  constexpr int kSize = kChassisSize + kCornerSize * Group::kCount;
  input = clamped(input);
  const StrutEnvironment<T> env(p, &terrain, origin_x, origin_y, input);
  FrozenCorner<T> frozen[Group::kCount];
  if (!integ.requery_contact) {
    // Once-per-step query at the wheel (seed 004's default-off mode), then the tangent plane.
    for (int k = 0; k < Group::kCount; ++k) {
      const Vec3<T> wheel_local = load3(x, kPos) + load3(x, kChassisSize + kCornerSize * k + kCornerPos);
      const TerrainContact<T> c = terrain_query(terrain, wheel_local, origin_x, origin_y);
      frozen[k] = FrozenCorner<T>{wheel_local - c.distance * c.normal, c.normal, c.mu_scale};
    }
  }
  for (int j = 0; j < kSize; ++j) next[j] = x[j];
  StrutOde<T, Group> ode{p, env, integ.requery_contact ? nullptr : frozen, input, diag, group};
  rk4_substeps<kSize>(ode, T(integ.step / scalar_of<T>(integ.substeps)), integ.substeps, next);
}

// The batch's layout of a whole vehicle to the split layout of AllCorners, and back.
template <class T>
FLEETDYN_FN void strut_split_state(const T* s, T* x) {
  using namespace strut;
  for (int j = 0; j < kChassisSize; ++j) x[j] = s[j];
  for (int i = 0; i < kCorners; ++i) {
    for (int j = 0; j < kCornerSize; ++j) x[kChassisSize + kCornerSize * i + j] = s[state_index(i, j)];
  }
}
template <class T>
FLEETDYN_FN void strut_join_state(const T* x, T* s) {
  using namespace strut;
  for (int j = 0; j < kChassisSize; ++j) s[j] = x[j];
  for (int i = 0; i < kCorners; ++i) {
    for (int j = 0; j < kCornerSize; ++j) s[state_index(i, j)] = x[kChassisSize + kCornerSize * i + j];
  }
}

// Time derivative of a whole vehicle's state in the batch's layout: ds = f(s, inputs), the terrain
// queried at the wheels.
template <class T>
FLEETDYN_FN void strut_derivative(const StrutParams<T>& p, const StrutEnvironment<T>& env, DriverInput<T> input,
                                  const T* s, T* ds, StrutDiagnostics<T>* diag) {
  T x[kStrutStateSize], dx[kStrutStateSize];
  strut_split_state(s, x);
  strut_derivative_split(p, env, static_cast<const FrozenCorner<T>*>(nullptr), input, x, dx, diag, AllCorners{});
  strut_join_state(dx, ds);
}

// One outer step of a whole vehicle in the batch's layout (strut_step_split with AllCorners).
template <class T>
FLEETDYN_FN void strut_step(const StrutParams<T>& p, const TerrainDesc<scalar_of<T>>& terrain, T origin_x, T origin_y,
                            const IntegratorSettings<scalar_of<T>>& integ, DriverInput<T> input, const T* s, T* next,
                            StrutDiagnostics<T>* diag) {
  T x[kStrutStateSize], x_next[kStrutStateSize];
  strut_split_state(s, x);
  strut_step_split(p, terrain, origin_x, origin_y, integ, input, x, x_next, diag, AllCorners{});
  strut_join_state(x_next, next);
}

}  // namespace fleetdyn
