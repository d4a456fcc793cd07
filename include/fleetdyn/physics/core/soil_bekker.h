// Soft-soil (terramechanics) forces on one rigid wheel: Bekker-Wong pressure-sinkage, Wong-Reece
// normal-stress distribution, Mohr-Coulomb strength with Janosi-Hanamoto shear mobilization, and
// Rankine passive earth pressure on the wheel's immersed side face (bulldozing). The model, its
// equations and sources, the assumptions and the soil presets: docs/models/soft-soil.md.
//
// A pneumatic tire much stiffer than the soil (inflation plus carcass pressure above the soil's
// bearing pressure at the sinkage) keeps its round shape and sinks as a rigid wheel; that is the
// case this file models. A softer tire on firm soil flattens and needs a flexible-tire model.
//
// Frame: the wheel's contact frame (ISO): x along the wheel heading, y to the left, z up. The
// equations are written for a wheel rolling forward; soil_tire_forces mirrors a wheel rolling
// backward. SI units throughout; angles in radians.
//
// Single-source: header-only, host and device, no allocation, no virtual calls. The contact arc is
// integrated with a fixed 10-point Gauss-Legendre rule per stress region and the sinkage solve runs
// a fixed number of iterations, so every wheel does the same work.
#pragma once

#include <cmath>
#include <sstream>
#include <string>

#include "fleetdyn/error.h"
#include "fleetdyn/physics/core/config.h"
#include "fleetdyn/physics/core/math.h"

namespace fleetdyn {

using std::expm1;
using std::pow;

// Soil parameters; POD so it can be copied to the device as-is.
template <class T>
struct SoilParams {
  T k_c;             // [N/m^(n+1)]: Bekker cohesive modulus of deformation
  T k_phi;           // [N/m^(n+2)]: Bekker frictional modulus of deformation
  T n;               // [-]: Bekker sinkage exponent
  T cohesion;        // c [Pa]: Mohr-Coulomb cohesion
  T friction_angle;  // phi [rad]: Mohr-Coulomb internal friction angle
  T shear_modulus;   // K [m]: Janosi-Hanamoto shear deformation modulus
  T c1;              // [-]: Wong-Reece theta_m / theta_1 at zero slip
  T c2;              // [-]: Wong-Reece growth of theta_m / theta_1 with slip
  T unit_weight;     // gamma [N/m^3]: bulk unit weight, for the bulldozing (passive earth pressure)
};

// SoilParams' fields, written once: M(X, field) for each (M passes X on, e.g. with a prefix).
#define FLEETDYN_SOIL_FIELDS(M, X) \
  M(X, k_c)                        \
  M(X, k_phi)                      \
  M(X, n)                          \
  M(X, cohesion)                   \
  M(X, friction_angle)             \
  M(X, shear_modulus)              \
  M(X, c1)                         \
  M(X, c2)                         \
  M(X, unit_weight)

// The wheel as the soil sees it: a rigid cylinder.
template <class T>
struct SoilWheel {
  T radius;  // r [m]
  T width;   // b [m]
};

// Slips of a wheel on soft soil (the Wong-Reece kinematics, rolling forward).
template <class T>
struct SoilSlips {
  T longitudinal;  // s [-]: (r omega - v_x) / max(r omega, v_x), in [-1, 1], > 0 driving
  T lateral;       // s_y [-]: v_y / max(r omega, v_x); (1 - s) tan(slip angle) when driving
  T direction;     // +1 rolling forward, -1 backward (the equations then run mirrored in x)
};

// Forces of the soil on the wheel, contact frame.
template <class T>
struct SoilWheelForces {
  T fx;                  // [N]: drawbar pull, forward + (soil thrust less compaction resistance)
  T fy;                  // [N]: lateral force, left + (lateral shear plus bulldozing)
  T fz;                  // [N]: vertical force the soil carries
  T my;                  // [N m]: soil torque on the wheel about its spin axis (y); the driving torque
                         // that holds the slip steady is -my
  T mx;                  // [N m]: moment of fy about the wheel centre, around the heading (x): the
                         // lateral shear acts on the contact arc, the bulldozing on the immersed side
                         // face, both below the centre (docs/models/soft-soil.md)
  T mz;                  // [N m]: moment of fy about the wheel centre, around the vertical (z): the
                         // lateral shear on the arc ahead of the lowest point
  T sinkage;             // z [m]: depth of the wheel's lowest point below the undisturbed surface
  T entry_angle;         // theta_1 [rad]: where the rim meets the undisturbed surface
  T fy_bulldozing;       // [N]: the bulldozing part of fy
  bool sinkage_clamped;  // sinkage limited to the radius: the load is more than the soil carries
};

// ---- soil presets --------------------------------------------------------------------------------

enum class SoilPreset { DrySand, LeteSand, SandyLoam, ClayeySoil, Snow };

// Terrain values from Wong, "Theory of Ground Vehicles" (Table 2.3, after Bekker and Wong) and the
// typical K, c1, c2 and unit weights of docs/models/soft-soil.md (which cites each).
template <class T>
FLEETDYN_FN SoilParams<T> soil_preset_values(double n, double k_c, double k_phi, double cohesion, double phi_deg,
                                             double shear_modulus, double c1, double c2, double unit_weight) {
  return {T(k_c), T(k_phi), T(n), T(cohesion), T(deg_to_rad(phi_deg)), T(shear_modulus), T(c1), T(c2), T(unit_weight)};
}

template <class T>
FLEETDYN_FN SoilParams<T> soil_preset(SoilPreset preset) {
  // n, k_c [N/m^(n+1)], k_phi [N/m^(n+2)], c [Pa], phi [deg], K [m], c1, c2, gamma [N/m^3]
  switch (preset) {
    case SoilPreset::LeteSand:
      return soil_preset_values<T>(0.79, 102e3, 5301e3, 1.3e3, 31.1, 0.012, 0.43, 0.32, 15.7e3);
    case SoilPreset::SandyLoam:
      return soil_preset_values<T>(0.7, 5.27e3, 1515.04e3, 1.72e3, 29.0, 0.025, 0.43, 0.32, 16.5e3);
    case SoilPreset::ClayeySoil:
      return soil_preset_values<T>(0.5, 13.19e3, 692.15e3, 4.14e3, 13.0, 0.006, 0.18, 0.32, 17.5e3);
    case SoilPreset::Snow: return soil_preset_values<T>(1.6, 4.37e3, 196.72e3, 1.03e3, 19.7, 0.04, 0.43, 0.32, 3.4e3);
    case SoilPreset::DrySand:
    default: return soil_preset_values<T>(1.1, 0.99e3, 1528.43e3, 1.04e3, 28.0, 0.025, 0.43, 0.32, 15.7e3);
  }
}

constexpr int kSoilPresetCount = 5;

// A preset's name, as soil_preset(name) takes it.
inline const char* soil_preset_name(SoilPreset preset) {
  switch (preset) {
    case SoilPreset::DrySand: return "dry_sand";
    case SoilPreset::LeteSand: return "lete_sand";
    case SoilPreset::SandyLoam: return "sandy_loam";
    case SoilPreset::ClayeySoil: return "clayey_soil";
    case SoilPreset::Snow: return "snow";
  }
  return "";
}

// A preset by name (host): "dry_sand", "lete_sand", "sandy_loam", "clayey_soil" or "snow".
template <class T>
SoilParams<T> soil_preset(const std::string& name) {
  std::string known;
  for (int i = 0; i < kSoilPresetCount; ++i) {
    const auto preset = static_cast<SoilPreset>(i);
    if (name == soil_preset_name(preset)) return soil_preset<T>(preset);
    known += std::string(i ? ", " : "") + soil_preset_name(preset);
  }
  throw Error("soil preset '" + name + "' is not known; the presets are " + known);
}

// ---- parameter checks (host) -----------------------------------------------------------------------

namespace soil_detail {
inline void check_range(const char* field, double value, double lo, double hi, const char* unit) {
  if (!(value >= lo && value <= hi)) {  // also rejects NaN
    std::ostringstream message;
    message << "soil " << field << " = " << value << " is outside [" << lo << ", " << hi << "] " << unit;
    throw Error(message.str());
  }
}
}  // namespace soil_detail

// Throws fleetdyn::Error naming the field, its value and the allowed range.
template <class T>
void check_soil_params(const SoilParams<T>& p) {
  using soil_detail::check_range;
  check_range("k_c", double(p.k_c), 0.0, 1e9, "N/m^(n+1)");
  check_range("k_phi", double(p.k_phi), 0.0, 1e10, "N/m^(n+2)");
  check_range("n", double(p.n), 0.05, 2.0, "(-)");
  check_range("cohesion", double(p.cohesion), 0.0, 1e6, "Pa");
  check_range("friction_angle", double(p.friction_angle), 0.0, 1.2, "rad");
  check_range("shear_modulus", double(p.shear_modulus), 1e-5, 1.0, "m");
  check_range("c1", double(p.c1), 0.0, 1.0, "(-)");
  check_range("c2", double(p.c2), 0.0, 1.0, "(-)");
  check_range("unit_weight", double(p.unit_weight), 0.0, 1e5, "N/m^3");
  if (!(double(p.k_c) + double(p.k_phi) > 0.0)) throw Error("soil k_c and k_phi are both 0: the soil carries no load");
}

template <class T>
void check_soil_wheel(const SoilWheel<T>& w) {
  soil_detail::check_range("wheel radius", double(w.radius), 0.01, 5.0, "m");
  soil_detail::check_range("wheel width", double(w.width), 0.01, 5.0, "m");
}

// ---- geometry --------------------------------------------------------------------------------------

// Entry angle theta_1 = acos(1 - z / r), written as 2 asin(sqrt(z / 2r)) so small sinkages keep
// their precision in float. z is clamped to [0, r].
template <class T>
FLEETDYN_FN T soil_entry_angle(T radius, T sinkage) {
  const T z = clamp(sinkage, T(0), radius);
  return T(2) * asin(sqrt(z / (T(2) * radius)));
}

// 10-point Gauss-Legendre rule on [0, 1]: node i and its weight (a switch of constants, no table
// in memory, so the device keeps them in registers).
template <class T>
FLEETDYN_FN void soil_gauss_node(int i, T* t, T* w) {
  double node = 0, weight = 0;
  switch (i < 5 ? i : i - 5) {
    case 0: node = 0.5744371694908156, weight = 0.1477621123573764; break;
    case 1: node = 0.7166976970646236, weight = 0.13463335965499826; break;
    case 2: node = 0.8397047841495122, weight = 0.109543181257991; break;
    case 3: node = 0.9325316833444923, weight = 0.0747256745752902; break;
    default: node = 0.9869532642585859, weight = 0.03333567215434407; break;
  }
  *t = T(i < 5 ? node : 1.0 - node);
  *w = T(weight);
}
constexpr int kSoilArcNodes = 10;

// Immersed side face of the wheel (the circular segment below the undisturbed surface, depth z):
// its area A [m^2], its first moment M = integral of depth dA [m^3] and its second moment
// S = integral of depth^2 dA [m^4] about the surface. Integrated in y = z t^2 (height above the
// lowest point), which removes the square-root edge.
template <class T>
FLEETDYN_FN void soil_side_face(T radius, T sinkage, T* area, T* moment, T* second = nullptr) {
  const T z = clamp(sinkage, T(0), radius);
  T a = T(0), m = T(0), s = T(0);
  for (int i = 0; i < kSoilArcNodes; ++i) {
    T t, w;
    soil_gauss_node(i, &t, &w);
    const T u = t * t;
    // chord 2 sqrt(y (2r - y)) times dy = 2 z t dt, with y = z u
    const T da = w * T(4) * z * u * sqrt(z * (T(2) * radius - z * u));
    const T depth = z * (T(1) - u);
    a += da;
    m += da * depth;
    s += da * depth * depth;
  }
  *area = a;
  *moment = m;
  if (second) *second = s;
}

// Bulldozing on the immersed side face: Rankine passive earth pressure gamma d N_phi + 2 c
// sqrt(N_phi) at depth d, N_phi = tan^2(pi/4 + phi/2).
template <class T>
struct SoilBulldozing {
  T capacity;  // [N]: the pressure's resultant
  T depth;     // [m]: where it acts, below the undisturbed surface (its centre of pressure)
};

template <class T>
FLEETDYN_FN SoilBulldozing<T> soil_bulldozing(const SoilParams<T>& p, T radius, T sinkage) {
  T area, moment, second;
  soil_side_face(radius, sinkage, &area, &moment, &second);
  const T sqrt_n_phi = tan(T(kPi / 4) + T(0.5) * p.friction_angle);
  const T weight_part = p.unit_weight * sqrt_n_phi * sqrt_n_phi, cohesion_part = T(2) * p.cohesion * sqrt_n_phi;
  const T capacity = weight_part * moment + cohesion_part * area;
  const T lever = weight_part * second + cohesion_part * moment;  // integral of pressure * depth
  return {capacity, capacity > T(0) ? lever / capacity : T(0)};
}

template <class T>
FLEETDYN_FN T soil_bulldozing_capacity(const SoilParams<T>& p, T radius, T sinkage) {
  return soil_bulldozing(p, radius, sinkage).capacity;
}

// ---- the contact arc -------------------------------------------------------------------------------

// Integrals over the contact arc theta in [0, theta_1] (the lowest point to the entry; the soil
// behind the lowest point does not rebound). Wong-Reece normal stress: from the entry to theta_m
//   sigma(theta) = (k_c / b + k_phi) r^n (cos theta - cos theta_1)^n,
// and behind theta_m the same profile at the equivalent angle theta_1 - (theta / theta_m)
// (theta_1 - theta_m), theta_m = clamp(c1 + c2 s, 0, 1) theta_1. Each region is mapped from t in
// [0, 1] with theta = theta_1 - (theta_1 - theta_m) t^2 (front) and theta = theta_m t^2 (rear): both
// see the same normal stress at the same t, and the t^2 map smooths the (.)^n edge for the rule.
// kShear adds the Mohr-Coulomb / Janosi-Hanamoto shear; without it only the normal stress counts.
template <class T>
struct SoilArcIntegrals {
  T fz;             // [N]: r b int (sigma cos + tau_x sin)
  T fx;             // [N]: r b int (tau_x cos - sigma sin)
  T shear_y;        // [N]: r b int tau_y (along the wheel's lateral shear displacement)
  T shear_x;        // [N]: r b int tau_x (the driving torque is r times this)
  T shear_y_below;  // [N m]: r b int tau_y r cos theta: shear_y's moment arm below the centre
  T shear_y_ahead;  // [N m]: r b int tau_y r sin theta: shear_y's moment arm ahead of the centre
};

template <bool kShear, class T>
FLEETDYN_FN SoilArcIntegrals<T> soil_arc_integrals(const SoilParams<T>& p, const SoilWheel<T>& wheel, T sinkage, T slip,
                                                   T lateral_slip) {
  const T r = wheel.radius;
  const T th1 = soil_entry_angle(r, sinkage);
  const T thm = clamp(p.c1 + p.c2 * slip, T(0), T(1)) * th1;
  const T span = th1 - thm;  // front region
  const T k_eq = p.k_c / wheel.width + p.k_phi;
  const T tan_phi = tan(p.friction_angle);
  const T inv_k = T(1) / p.shear_modulus;
  const T roll = T(1) - slip;
  T fz = T(0), fx = T(0), sy = T(0), sx = T(0), sy_below = T(0), sy_ahead = T(0);
  for (int i = 0; i < kSoilArcNodes; ++i) {
    T t, w;
    soil_gauss_node(i, &t, &w);
    const T u = t * t;
    // Both regions write theta = a - h with a = (theta_1 + theta) / 2 and h = (theta_1 - theta) / 2:
    //   cos theta - cos theta_1 = 2 sin a sin h,  sin theta_1 - sin theta = 2 cos a sin h,
    // free of cancellation for small angles, and sin theta, cos theta by the sum formulas.
    // The front's equivalent angle is its own theta, so sigma comes from the front's a and h.
    T sigma = T(0);
    for (int region = 0; region < 2; ++region) {
      const T h = T(0.5) * (region == 0 ? span * u : th1 - thm * u);
      const T a = th1 - h;
      const T sin_a = sin(a), cos_a = cos(a), sin_h = sin(h), cos_h = cos(h);
      if (region == 0) sigma = k_eq * pow(r * T(2) * sin_a * sin_h, p.n);
      const T s_th = sin_a * cos_h - cos_a * sin_h;
      const T c_th = cos_a * cos_h + sin_a * sin_h;
      const T weight = w * T(2) * t * (region == 0 ? span : thm);
      T tau_x = T(0), tau_y = T(0);
      if (kShear) {
        const T back = T(2) * h;  // theta_1 - theta, >= 0
        const T jx = r * (back - roll * T(2) * cos_a * sin_h);
        const T jy = r * back * lateral_slip;
        const T j = sqrt(jx * jx + jy * jy);
        // (1 - exp(-j/K)) / j, -> 1/K as j -> 0, so tau = strength * ratio * (jx, jy)
        const auto moving = j * inv_k > T(1e-12);
        const T ratio = select(moving, -expm1(-j * inv_k) / select(moving, j, T(1)), inv_k);
        const T strength = p.cohesion + sigma * tan_phi;
        tau_x = strength * ratio * jx;
        tau_y = strength * ratio * jy;
      }
      fz += weight * (sigma * c_th + tau_x * s_th);
      fx += weight * (tau_x * c_th - sigma * s_th);
      sy += weight * tau_y;
      sx += weight * tau_x;
      sy_below += weight * tau_y * c_th;
      sy_ahead += weight * tau_y * s_th;
    }
  }
  const T rb = r * wheel.width;
  return {rb * fz, rb * fx, rb * sy, rb * sx, rb * r * sy_below, rb * r * sy_ahead};
}

// Forces at a given sinkage [m] (clamped to [0, r] and flagged past r), longitudinal slip s
// (clamped to [-1, 1]) and lateral slip s_y (clamped to +-1e6, far past full mobilization).
template <class T>
FLEETDYN_FN SoilWheelForces<T> soil_wheel_forces(const SoilParams<T>& p, const SoilWheel<T>& wheel, T sinkage, T slip,
                                                 T lateral_slip) {
  const T r = wheel.radius;
  const T z = clamp(sinkage, T(0), r);
  const T s = clamp(slip, T(-1), T(1));
  const T sy = clamp(lateral_slip, T(-1e6), T(1e6));
  const SoilArcIntegrals<T> arc = soil_arc_integrals<true>(p, wheel, z, s, sy);
  const T th1 = soil_entry_angle(r, z);
  // Bulldozing, mobilized by the lateral displacement at the lowest point (r theta_1 s_y) with the
  // Janosi-Hanamoto law, so it rises smoothly from zero as the wheel starts to slide sideways.
  const T mobilized = -expm1(-r * th1 * fabs(sy) / p.shear_modulus);
  const T side = select(sy > T(0), T(1), select(sy < T(0), T(-1), T(0)));
  const SoilBulldozing<T> side_face = soil_bulldozing(p, r, z);
  const T bulldozing = -side * mobilized * side_face.capacity;
  SoilWheelForces<T> f;
  f.fx = arc.fx;
  f.fy = -arc.shear_y + bulldozing;
  f.fz = arc.fz;
  f.my = -r * arc.shear_x;
  // A lateral force F at depth d below the centre turns the wheel about its heading by F d; one
  // at distance a ahead of it, about the vertical by F a. The side face's centre of pressure is
  // r - z + depth below the centre, in the wheel's vertical plane through the centre.
  f.mx = -arc.shear_y_below + bulldozing * (r - z + side_face.depth);
  f.mz = -arc.shear_y_ahead;
  f.sinkage = z;
  f.entry_angle = th1;
  f.fy_bulldozing = bulldozing;
  f.sinkage_clamped = sinkage > r;
  return f;
}

// Vertical force [N] of the normal stress alone on the front arc at zero slip, at sinkage z: what a
// wheel rolling without slip carries when no shear is counted. With c1 = c2 = 0 it is Bekker's
// rigid-wheel integral (the pressure k z^n on the contact's horizontal projection).
template <class T>
FLEETDYN_FN T soil_normal_load(const SoilParams<T>& p, const SoilWheel<T>& wheel, T sinkage) {
  return soil_arc_integrals<false>(p, wheel, clamp(sinkage, T(0), wheel.radius), T(0), T(0)).fz;
}

constexpr int kSoilSinkageIterations = 8;

// The sinkage where the vertical force equals the load [N]: regula falsi (Illinois) on
// F^(2/(2n+1)), which Bekker's small-sinkage law W ~ z^((2n+1)/2) makes nearly linear in z, over
// the bracket [0, r], a fixed number of iterations. Past what the wheel carries at z = r, z = r and
// *clamped is set. kShear as in soil_arc_integrals.
template <bool kShear, class T>
FLEETDYN_FN T soil_solve_sinkage(const SoilParams<T>& p, const SoilWheel<T>& wheel, T load, T slip, T lateral_slip,
                                 bool* clamped) {
  const T r = wheel.radius;
  const T target_load = select(load > T(0), load, T(0));
  const T power = T(2) / (T(2) * p.n + T(1));
  const T target = pow(target_load, power);
  auto residual = [&](T z) {
    const T f = soil_arc_integrals<kShear>(p, wheel, z, slip, lateral_slip).fz;
    return pow(select(f > T(0), f, T(0)), power) - target;
  };
  T lo = T(0), hi = r;
  T f_lo = -target;
  T f_hi = residual(r);
  const auto too_heavy = f_hi < T(0);
  T side = T(0);  // +1: the last step moved hi, -1: lo (Illinois halves the stale end's value)
  T z = lo;
  for (int it = 0; it < kSoilSinkageIterations; ++it) {
    const T den = f_hi - f_lo;
    z = select(den > T(0), hi - f_hi * (hi - lo) / select(den > T(0), den, T(1)), lo);
    const T f = residual(z);
    const auto above = f > T(0);
    f_lo = select(above, select(side > T(0), T(0.5) * f_lo, f_lo), f);
    f_hi = select(above, f, select(side < T(0), T(0.5) * f_hi, f_hi));
    lo = select(above, lo, z);
    hi = select(above, z, hi);
    side = select(above, T(1), T(-1));
  }
  *clamped = too_heavy;
  return select(too_heavy, r, select(target > T(0), z, T(0)));
}

// Static sinkage [m] under a load [N]: where soil_normal_load carries it (Bekker's towed-wheel
// sinkage for c1 = c2 = 0; the soil behind the lowest point does not rebound, so the front arc alone
// carries the load). *clamped is set when the load needs more than the radius.
template <class T>
FLEETDYN_FN T soil_static_sinkage(const SoilParams<T>& p, const SoilWheel<T>& wheel, T load, bool* clamped) {
  return soil_solve_sinkage<false>(p, wheel, load, T(0), T(0), clamped);
}

// Forces on a wheel carrying a load [N] at the slips: the sinkage where the vertical force of normal
// and shear stress (slip sinkage included) equals the load.
template <class T>
FLEETDYN_FN SoilWheelForces<T> soil_wheel_forces_at_load(const SoilParams<T>& p, const SoilWheel<T>& wheel, T load,
                                                         T slip, T lateral_slip) {
  const T s = clamp(slip, T(-1), T(1));
  const T sy = clamp(lateral_slip, T(-1e6), T(1e6));
  bool clamped = false;
  const T z = soil_solve_sinkage<true>(p, wheel, load, s, sy, &clamped);
  SoilWheelForces<T> f = soil_wheel_forces(p, wheel, z, s, sy);
  f.sinkage_clamped = clamped;
  return f;
}

// Slips from the wheel-centre velocity (v_x along the heading, v_y to the left) [m/s] and the spin
// rate omega [rad/s] (> 0 rolling forward). The reference speed max(r |omega|, |v_x|) + v_floor
// keeps a wheel at rest finite: sliding sideways from rest, s_y is large and the shear is fully
// mobilized, as for a locked wheel.
template <class T>
FLEETDYN_FN SoilSlips<T> soil_slips(T radius, T v_x, T v_y, T omega, T v_floor) {
  const T direction = select(v_x + radius * omega >= T(0), T(1), T(-1));
  const T vx = direction * v_x;
  const T rim = direction * radius * omega;
  const T ref = select(fabs(rim) > fabs(vx), fabs(rim), fabs(vx)) + v_floor;
  return {clamp((rim - vx) / ref, T(-1), T(1)), v_y / ref, direction};
}

// A vehicle model's entry: forces on a wheel carrying `load` [N] moving at (v_x, v_y) [m/s] and
// spinning at omega [rad/s], in the contact frame, rolling forward or backward. v_floor [m/s] as in
// soil_slips (e.g. 1e-3).
template <class T>
FLEETDYN_FN SoilWheelForces<T> soil_tire_forces(const SoilParams<T>& p, const SoilWheel<T>& wheel, T load, T v_x, T v_y,
                                                T omega, T v_floor) {
  const SoilSlips<T> slip = soil_slips(wheel.radius, v_x, v_y, omega, v_floor);
  SoilWheelForces<T> f = soil_wheel_forces_at_load(p, wheel, load, slip.longitudinal, slip.lateral);
  f.fx *= slip.direction;
  f.my *= slip.direction;
  f.mz *= slip.direction;  // the arc ahead lies behind the centre when rolling backward
  return f;
}

// The same with the sinkage [m] given instead of the load: for a vehicle model that knows the
// wheel's depth below the soil surface (no sinkage solve; fz is then the soil's vertical force).
template <class T>
FLEETDYN_FN SoilWheelForces<T> soil_tire_forces_at_sinkage(const SoilParams<T>& p, const SoilWheel<T>& wheel, T sinkage,
                                                           T v_x, T v_y, T omega, T v_floor) {
  const SoilSlips<T> slip = soil_slips(wheel.radius, v_x, v_y, omega, v_floor);
  SoilWheelForces<T> f = soil_wheel_forces(p, wheel, sinkage, slip.longitudinal, slip.lateral);
  f.fx *= slip.direction;
  f.my *= slip.direction;
  f.mz *= slip.direction;  // the arc ahead lies behind the centre when rolling backward
  return f;
}

}  // namespace fleetdyn
