// Body contact: the vehicle body as a box whose eight corners (VehicleCommon::body_corner) touch
// the terrain, so a vehicle that rolls over lands on its side or roof and rolls on or comes to
// rest instead of passing through the ground.
//
// Per corner with penetration d = -distance > 0 along the surface normal n and the corner's
// velocity v (n-component v_n, tangential part v_t):
//   normal   F_n = max(0, (k + c (-v_n)) d)          (Hunt-Crossley: the damping grows with the
//                                                      penetration, so the force starts at zero and
//                                                      only dissipates: F_damp . v = -c d v_n^2)
//   friction F_t = -mu mu_s F_n v_t / sqrt(|v_t|^2 + v_s^2)   (regularized Coulomb: |F_t| < mu mu_s F_n,
//                                                      always against the slip, so it only dissipates)
// k = body_contact_stiffness, c = body_contact_damping, mu = body_mu, mu_s the surface's
// mu_scale, v_s = kBodySlipVelocity. A body at rest on flat ground feels no tangential force, so
// it stays at rest; on a slope below the friction angle it creeps at about v_s tan / mu.
// Single-source (FLEETDYN_FN), branch-free per corner; skipped when no corner of any lane touches.
#pragma once

#include "fleetdyn/physics/core/config.h"
#include "fleetdyn/physics/core/math.h"
#include "fleetdyn/physics/core/terrain.h"
#include "fleetdyn/physics/core/vehicle_common.h"

namespace fleetdyn {

constexpr double kBodySlipVelocity = 0.01;  // [m/s] regularization of the body's Coulomb friction

// The contact's resultant on the body: force (world) and torque about the body frame's origin;
// and the largest speed [m/s] at which a roof corner (4-7) in contact closes on the surface, 0
// when none does (the roof-impact metric).
template <class T>
struct BodyContactLoad {
  Vec3<T> force, torque;
  T roof_speed;
};

// The body frame at `pos` (local to the batch origin), turned by `rot` (body -> world), moving
// with `vel` and angular velocity `omega` (world).
template <class T>
FLEETDYN_FN BodyContactLoad<T> body_contact_load(const VehicleCommon<T>& p, const TerrainDesc<scalar_of<T>>& terrain,
                                                 T origin_x, T origin_y, Vec3<T> pos, const Mat3<T>& rot, Vec3<T> vel,
                                                 Vec3<T> omega) {
  BodyContactLoad<T> load{{T(0), T(0), T(0)}, {T(0), T(0), T(0)}, T(0)};
  TerrainContact<T> contact[8];
  Vec3<T> arm[8];
  bool touching = false;  // in any lane
  for (int i = 0; i < 8; ++i) {
    arm[i] = rot * p.body_corner[i];
    contact[i] = terrain_query(terrain, pos + arm[i], origin_x, origin_y);
    touching = touching || any_lane(contact[i].distance < T(0));
  }
  if (!touching) return load;
  const T slip_sq = T(kBodySlipVelocity * kBodySlipVelocity);
  for (int i = 0; i < 8; ++i) {
    const TerrainContact<T>& c = contact[i];
    const T depth = select(c.distance < T(0), -c.distance, T(0));
    const Vec3<T> v = vel + cross(omega, arm[i]);
    const T v_n = dot(v, c.normal);
    const T normal = (p.body_contact_stiffness - p.body_contact_damping * v_n) * depth;
    const T f_n = select(normal > T(0), normal, T(0));
    const Vec3<T> v_t = v - v_n * c.normal;
    const T friction = p.body_mu * c.mu_scale * f_n / sqrt(dot(v_t, v_t) + slip_sq);
    const Vec3<T> f = f_n * c.normal - friction * v_t;
    load.force = load.force + f;
    load.torque = load.torque + cross(arm[i], f);
    if (i >= 4) load.roof_speed = select(both(depth > T(0), -v_n > load.roof_speed), -v_n, load.roof_speed);
  }
  return load;
}

// The contact's potential energy [J]: sum over the corners of k d^2 / 2 (the damping and friction
// only dissipate), for the energy ledgers.
template <class T>
FLEETDYN_FN T body_contact_energy(const VehicleCommon<T>& p, const TerrainDesc<scalar_of<T>>& terrain, T origin_x,
                                  T origin_y, Vec3<T> pos, const Mat3<T>& rot) {
  T energy = T(0);
  for (int i = 0; i < 8; ++i) {
    const TerrainContact<T> c = terrain_query(terrain, pos + rot * p.body_corner[i], origin_x, origin_y);
    const T depth = select(c.distance < T(0), -c.distance, T(0));
    energy += T(0.5) * p.body_contact_stiffness * depth * depth;
  }
  return energy;
}

}  // namespace fleetdyn
