// A tire on a soil region of the terrain (TerrainDesc::soil_*): the wheel meets the soil as a rigid
// wheel of the tire's unloaded radius and section width (physics/core/soil_bekker.h), sunk by the
// penetration of its centre below the undisturbed surface. The coupling's choices and limits:
// docs/models/soft-soil.md, "Coupling to the vehicles".
// Single-source (host and device), no allocation.
#pragma once

#include <sstream>

#include "fleetdyn/physics/core/config.h"
#include "fleetdyn/physics/core/math.h"
#include "fleetdyn/physics/core/soil_bekker.h"
#include "fleetdyn/physics/core/terrain.h"
#include "fleetdyn/physics/core/tire_tmeasy.h"

namespace fleetdyn {

// Allowed range of TerrainDesc::soil_slip_speed [m/s].
constexpr double kSoilSlipSpeedMin = 0.01, kSoilSlipSpeedMax = 10.0;
// Largest internal friction angle check_soil_params allows [rad].
constexpr double kSoilFrictionAngleMax = 1.2;
// Largest TerrainDesc::soil_edge_width [m].
constexpr double kSoilEdgeWidthMax = 10.0;

// Whether world point (x, y) lies on the terrain's soil rectangle (lower bounds in, upper out).
template <class T>
FLEETDYN_FN bool soil_region_contains(const TerrainDesc<T>& t, T x, T y) {
  return t.soil_region != 0 && x >= t.soil_x_min && x < t.soil_x_max && y >= t.soil_y_min && y < t.soil_y_max;
}

// The soil's share of a ground contact at world (x, y): 0 off the rectangle, rising linearly with
// the distance d to its nearest side, d / soil_edge_width, to 1 from soil_edge_width inside (1
// everywhere on it for a width of 0, the hard edge). A tire's normal force and elastic energy are
// the share's blend of the soil's and the firm ground's, so a wheel sunk in the soil rolls out onto
// firm ground over that width instead of being thrown up by the firm ground's spring at once.
template <class T>
struct SoilShare {
  T share;   // [-] in [0, 1]
  T dx, dy;  // [1/m] its gradient (0 where it is constant)
};

template <class T>
FLEETDYN_FN SoilShare<T> soil_share(const TerrainDesc<T>& t, T x, T y) {
  if (!soil_region_contains(t, x, y)) return {T(0), T(0), T(0)};
  const T width = t.soil_edge_width;
  if (!(width > T(0))) return {T(1), T(0), T(0)};
  T d = x - t.soil_x_min, dx = T(1), dy = T(0);  // the nearest side and the direction inwards
  if (t.soil_x_max - x < d) {
    d = t.soil_x_max - x;
    dx = T(-1);
  }
  if (y - t.soil_y_min < d) {
    d = y - t.soil_y_min;
    dx = T(0);
    dy = T(1);
  }
  if (t.soil_y_max - y < d) {
    d = t.soil_y_max - y;
    dx = T(0);
    dy = T(-1);
  }
  if (!(d < width)) return {T(1), T(0), T(0)};
  const T inv = T(1) / width;
  return {d * inv, dx * inv, dy * inv};
}

// Potential energy [J] of the wheel at rest sunk `pen` [m] into the soil: the integral of the
// vertical force of a wheel at rest, min(soil_normal_load(z), k z), from 0 to pen (two 10-point
// Gauss-Legendre panels in z = pen u^2, which smooths the z^((2n+1)/2) onset), for the energy
// ledger. A rolling wheel's vertical force differs by its shear; that work is the slip's.
template <class T>
FLEETDYN_FN T soil_potential(const SoilParams<T>& soil, T radius, T width, T tire_stiffness, T pen) {
  if (!(pen > T(0))) return T(0);
  const SoilWheel<T> wheel{radius, width};
  T sum = T(0);
  for (int panel = 0; panel < 2; ++panel) {
    for (int i = 0; i < kSoilArcNodes; ++i) {
      T t, w;
      soil_gauss_node(i, &t, &w);
      const T u = T(0.5) * (T(panel) + t);  // u in [0, 1], dz = 2 pen u du
      const T z = pen * u * u;
      const T load = soil_normal_load(soil, wheel, z);
      const T spring = tire_stiffness * z;
      sum += T(0.5) * w * (load < spring ? load : spring) * T(2) * pen * u;
    }
  }
  return sum;
}

// What the soil does to one wheel, in the tire's contact frame.
template <class T>
struct SoilTireLoad {
  T on_soil;         // [-] the soil's share (soil_share) where the wheel touches soil (the fields below
                     // then replace the tire's), else 0
  T fx, fy;          // [N] along the wheel heading and to its left, in the contact plane; fx through the
                     // centre (with my about the spin axis), fy below it (with mx and mz)
  T fz;              // [N] along the surface normal, the tire's damping included (never pulling): the
                     // share's blend of the soil's and the firm ground's
  T my;              // [N m] about the spin axis, on the wheel
  T mx;              // [N m] about the wheel heading through the centre: fy acts below it (SoilWheelForces::mx)
  T mz;              // [N m] about the surface normal through the centre (SoilWheelForces::mz)
  T edge_x, edge_y;  // [N] world, at the wheel centre, within the edge width: the blended elastic
                     // energy's slope across the edge, (U_firm - U_soil) grad(share), towards the soil
};

// The soil's load on a wheel whose centre is at wheel_local (+ origin) and penetrates by `pen` [m]
// (the sinkage), moving at v_long, v_lat [m/s] (the centre's velocity along the heading and the
// lateral axis) and spinning at `spin` [rad/s] (> 0 rolling forward). radius, width: the tire's
// unloaded radius and section width [m]; tire_stiffness [N/m] and tire_damping [N s/m] its
// vertical stiffness and damping, pen_rate [m/s] the penetration's rate.
//  - Slips (Wong-Reece, as soil_slips, mirrored when rolling backward) are referred to
//    max(r |omega|, |v_x|, v_s), v_s = soil_slip_speed: the slip stiffness dF/dv is at most
//    (dF/ds) / v_s, so the explicit step stays stable at any speed (a steady-state slip law with
//    a 1 mm/s floor would be a damper of ~1e7 N s/m on a 7 kg m^2 wheel).
//  - Wong-Reece's kinematics are those of a rolling wheel: at zero slip its shear displacement
//    r [(theta_1 - theta) - (sin theta_1 - sin theta)] is not zero, and the front arc's normal
//    stress pushes back (compaction resistance). A wheel that does not roll has neither: below the
//    rolling speed v_s these zero-slip offsets fade out linearly, with weight
//    1 - max(r |omega|, |v_x|) / v_s: fx and my less the faded model's at zero slip, and fz less
//    the faded difference between the model's at zero slip and the normal stress alone
//    (soil_normal_load, whose equilibrium is soil_static_sinkage, Bekker's for c1 = c2 = 0). A
//    wheel at rest sinks to the static sinkage, feels no rolling resistance and does not creep,
//    while the slip's own forces stay (a wheel spun at rest pulls; a sliding wheel is damped by
//    (dF/ds) / v_s). fy (lateral shear and bulldozing) is the rolling model's at any speed.
//  - fz is the Bekker/Wong-Reece vertical force, bounded by the tire's own spring k pen: the
//    tire in series with the soil, which also bounds the stiffness near z = 0 (dF/dz ~ z^(n-1/2)
//    is unbounded for n < 0.5); plus the tire's damping c pen_rate, the sum never pulling.
//  - Within soil_edge_width of the region's boundary (soil_share) fz is the share's blend of the
//    soil's and `firm_force`, the tire's normal force on firm ground at this penetration, and the
//    wheel centre feels the slope of the blended energy across the edge (edge_x, edge_y, with
//    `firm_potential`, the tire's elastic energy there): the blend is a potential of the wheel's
//    position, and rolling across the edge neither gains nor loses elastic energy.
// Not inlined: the firm-ground tire code around the call keeps its code, and its rounding (the
// compiler's multiply-add contraction there does not see the soil's arithmetic).
template <class T>
__attribute__((noinline)) FLEETDYN_FN SoilTireLoad<T> soil_tire_load(const TerrainDesc<T>& t, Vec3<T> wheel_local, T origin_x,
                                                                     T origin_y, T radius, T width, T tire_stiffness,
                                                                     T tire_damping, T pen, T pen_rate, T v_long,
                                                                     T v_lat, T spin, T firm_force, T firm_potential) {
  SoilTireLoad<T> out{T(0), T(0), T(0), T(0), T(0), T(0), T(0), T(0), T(0)};
  if (!(pen > T(0))) return out;
  const SoilShare<T> share = soil_share(t, origin_x + wheel_local.x, origin_y + wheel_local.y);
  if (!(share.share > T(0))) return out;
  const T direction = v_long + radius * spin >= T(0) ? T(1) : T(-1);
  const T vx = fabs(v_long), rim = direction * radius * spin;
  const T rolling = rim > vx ? rim : vx;  // rim >= -vx: rolling >= 0
  const T v_s = t.soil_slip_speed;
  const T ref = rolling > v_s ? rolling : v_s;
  const T slip = clamp((rim - direction * v_long) / ref, T(-1), T(1));
  const SoilWheel<T> wheel{radius, width};
  const SoilWheelForces<T> f = soil_wheel_forces(t.soil, wheel, pen, slip, v_lat / ref);
  T fx = f.fx, fz = f.fz, my = f.my;
  if (rolling < v_s) {  // the rolling offsets fade out: what is left is the slip's
    const T fade = T(1) - rolling / v_s;
    const SoilWheelForces<T> f0 = soil_wheel_forces(t.soil, wheel, pen, T(0), v_lat / ref);
    fx -= fade * f0.fx;
    my -= fade * f0.my;
    fz -= fade * (f0.fz - soil_normal_load(t.soil, wheel, pen));
  }
  const T spring = tire_stiffness * pen;
  out.on_soil = share.share;
  out.fx = direction * fx;
  out.fy = f.fy;
  const T damped = (fz < spring ? fz : spring) + tire_damping * pen_rate;
  out.fz = damped > T(0) ? damped : T(0);
  if (share.share < T(1)) {  // within the edge width
    out.fz = share.share * out.fz + (T(1) - share.share) * firm_force;
    const T step = firm_potential - soil_potential(t.soil, radius, width, tire_stiffness, pen);
    out.edge_x = step * share.dx;
    out.edge_y = step * share.dy;
  }
  out.my = direction * my;
  out.mx = f.mx;
  out.mz = direction * f.mz;
  return out;
}

// Branch hint for the soil check of the tire code: soil is the exception, and the firm-ground
// path keeps its code layout.
#define FLEETDYN_SOIL_UNLIKELY(condition) __builtin_expect(!!(condition), 0)

// The elastic energy [J] of a tire whose centre is over world (x, y), penetrating by `pen`: the
// soil's (soil_potential) on the terrain's soil region, the tire's own (tire_potential) elsewhere,
// blended by the soil's share within the edge width, as the tire code blends them. For the energy
// ledgers.
template <class T>
FLEETDYN_FN T tire_ground_potential(const TerrainDesc<T>& t, const TireParams<T>& tire, T x, T y, T pen) {
  const T share = soil_share(t, x, y).share;
  if (!(share > T(0))) return tire_potential(tire, pen);
  const T soil = soil_potential(t.soil, tire.unloaded_radius, tire.width, tire.vertical_stiffness, pen);
  return share < T(1) ? share * soil + (T(1) - share) * tire_potential(tire, pen) : soil;
}

// Host check of a terrain's soil: its parameters (check_soil_params), a non-empty rectangle and
// the slip speed. Throws fleetdyn::Error naming the field, its value and the allowed range.
template <class T>
void check_terrain_soil(const TerrainDesc<T>& t) {
  check_soil_params(t.soil);
  const auto bounds = [](const char* lo_name, double lo, const char* hi_name, double hi) {
    if (!(lo < hi)) {  // also rejects NaN
      std::ostringstream message;
      message << "soil region: " << lo_name << " = " << lo << " must be below " << hi_name << " = " << hi;
      throw Error(message.str());
    }
  };
  bounds("x_min", double(t.soil_x_min), "x_max", double(t.soil_x_max));
  bounds("y_min", double(t.soil_y_min), "y_max", double(t.soil_y_max));
  soil_detail::check_range("slip_speed", double(t.soil_slip_speed), kSoilSlipSpeedMin, kSoilSlipSpeedMax, "m/s");
  soil_detail::check_range("edge_width", double(t.soil_edge_width), 0.0, kSoilEdgeWidthMax, "m");
}

}  // namespace fleetdyn
