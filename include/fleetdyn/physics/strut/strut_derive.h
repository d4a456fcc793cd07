// The derived fields of StrutParams (marked "derived" in physics/strut/strut_params.h and, for the
// shared part, physics/core/vehicle_common.h) from the others. Single source: finalize_vehicle_params
// (host/strut/strut_params.cpp) checks the inputs and calls it in double; the vector environment
// calls it on the device after drawing an env's randomized parameters at each reset
// (physics/env/env_reset.h), whose ranges the host checked.
#pragma once

#include "fleetdyn/physics/core/config.h"
#include "fleetdyn/physics/core/math.h"
#include "fleetdyn/physics/strut/strut_params.h"

namespace fleetdyn {

// Reduced mass of a wheel particle against the body at its mount for a bushing force along
// `dir` (body x or y): 1/mu = 1/m_u + 1/M + |r x dir|^2_I^-1, diagonal body inertia.
template <class T>
FLEETDYN_FN T bushing_reduced_mass(const StrutParams<T>& p, int corner, Vec3<T> dir) {
  const Vec3<T> r = p.wheel_attach[corner];
  const Vec3<T> lever = cross(r, dir);
  const T inv = T(1) / p.unsprung_mass[corner] + T(1) / p.body_mass + lever.x * lever.x / p.body_inertia_xx +
                lever.y * lever.y / p.body_inertia_yy + lever.z * lever.z / p.body_inertia_zz;
  return T(1) / inv;
}

// Requires: unsprung masses well below total_mass and cg_height above half the tire radius
// (finalize_vehicle_params throws otherwise).
template <class T>
FLEETDYN_FN void derive_vehicle_params(StrutParams<T>& p) {
  derive_vehicle_common(p);
  const T unsprung_total = T(2) * (p.unsprung_mass_front + p.unsprung_mass_rear);
  p.body_mass = p.total_mass - unsprung_total;
  const T wheelbase = p.cg_to_front_axle + p.cg_to_rear_axle;
  const T body_weight = p.body_mass * p.gravity;
  for (int i = 0; i < kCorners; ++i) {
    const bool front = i < 2;
    const T side = (i % 2 == 0) ? T(1) : T(-1);  // left corners at +y
    p.unsprung_mass[i] = front ? p.unsprung_mass_front : p.unsprung_mass_rear;
    // Static axle loads of the body from the moment balance about the other axle.
    p.strut_preload[i] = T(0.5) * body_weight * (front ? p.cg_to_rear_axle : p.cg_to_front_axle) / wheelbase;
    p.static_tire_load[i] = p.strut_preload[i] + p.unsprung_mass[i] * p.gravity;
    const T loaded_radius = p.tire.unloaded_radius - p.static_tire_load[i] / p.tire.vertical_stiffness;
    p.wheel_attach[i] = {front ? p.cg_to_front_axle : -p.cg_to_rear_axle,
                         side * T(0.5) * (front ? p.track_front : p.track_rear), loaded_radius - p.cg_height};
    p.wheel_rate[i] = front ? p.wheel_rate_front : p.wheel_rate_rear;
    p.damping_bump[i] = front ? p.damping_bump_front : p.damping_bump_rear;
    p.damping_rebound[i] = front ? p.damping_rebound_front : p.damping_rebound_rear;
    p.bump_travel[i] = front ? p.bump_travel_front : p.bump_travel_rear;
    p.rebound_travel[i] = front ? p.rebound_travel_front : p.rebound_travel_rear;
  }
  // Coil at the wheel (seed 004 "Progressive coil rate"): rate and free length chosen so the
  // static load and the wheel rate at design equal the lumped ones, MR0 = -dl/dz at design.
  const auto progressive = p.progressive_spring > T(0.5);
  for (int i = 0; i < kCorners; ++i) {
    const AxleLinkage<T>& link = p.linkage.axle[i / 2];
    const ScaledArgument<T> x0 = scaled_argument(-link.travel_mid * link.travel_inverse_half);
    const CurvePoint<T> length = linkage_curve(link.spring_length, x0.clamped, x0.beyond, link.travel_inverse_half);
    const T mr0 = select(progressive, -length.slope, T(1));
    p.coil_rate[i] = p.wheel_rate[i] / (mr0 * mr0);
    p.coil_free_length[i] = select(progressive, length.value, T(0)) + p.strut_preload[i] / (p.coil_rate[i] * mr0);
    p.coil_inverse_mr_design_sq[i] = T(1) / (mr0 * mr0);
  }
  for (int i = 0; i < kCorners; ++i) p.inverse_unsprung_mass[i] = T(1) / p.unsprung_mass[i];
  p.inverse_body_mass = T(1) / p.body_mass;
  p.inverse_body_inertia = {T(1) / p.body_inertia_xx, T(1) / p.body_inertia_yy, T(1) / p.body_inertia_zz};
  p.inverse_spin_inertia = T(1) / p.wheel_spin_inertia;
  derive_body_corners<T>(p, p.cg_to_front_axle, -p.cg_to_rear_axle, -p.cg_height);
  // Bushing damping: the given ratio of critical for the smaller of the reduced masses along
  // body x and y, so the stiffest bushing mode is exactly at the requested damping ratio.
  for (int i = 0; i < kCorners; ++i) {
    const T mu_x = bushing_reduced_mass(p, i, Vec3<T>{T(1), T(0), T(0)});
    const T mu_y = bushing_reduced_mass(p, i, Vec3<T>{T(0), T(1), T(0)});
    p.link_damping[i] = T(2) * p.link_damping_ratio * sqrt(p.link_stiffness * (mu_y < mu_x ? mu_y : mu_x));
  }
}

}  // namespace fleetdyn
