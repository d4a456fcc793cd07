// The strut model's energy ledger (seed 004 "Energy"): the invariant its tests check.
#pragma once

#include "fleetdyn/physics/core/body_contact.h"
#include "fleetdyn/physics/strut/strut_corner.h"

namespace fleetdyn {

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
  T body_potential;  // body contact springs (physics/core/body_contact.h)
  FLEETDYN_HD T total() const {
    return chassis_kinetic + unsprung_kinetic + wheel_spin_kinetic + gravity_potential + strut_potential +
           bushing_potential + tire_potential + body_potential;
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
  e.body_potential = body_contact_energy(p, terrain, origin_x, origin_y, pos, rot);
  // The tires' spin axes with the front wheels straight (the state does not hold the steer): the
  // ledger reads the tires' contacts as the model does but for a steered wheel's sidewall.
  const StrutEnvironment<T> unsteered(p, &terrain, origin_x, origin_y, DriverInput<T>{T(0), T(0), T(0)});
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
    const Vec3<T> axis = rot * corner_axis(p, unsteered, i, o.z).axis;
    const TireContacts<T> contacts = corner_contacts(p, unsteered, static_cast<const FrozenCorner<T>*>(nullptr),
                                                     pos + wheel_rel, axis);
    e.tire_potential += tire_contacts_potential(terrain, p.tire, contacts, origin_x + pos.x + wheel_rel.x,
                                                origin_y + pos.y + wheel_rel.y);
    e.tire_potential += T(0.5) * (p.tire.long_stiffness * sq(s[kDeflLong + i]) + p.tire.lat_stiffness * sq(s[kDeflLat + i]));
  }
  return e;
}

}  // namespace fleetdyn
