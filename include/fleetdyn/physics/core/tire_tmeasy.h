// TMeasy handling tire (G. Rill, "Road Vehicle Dynamics: Fundamentals and Modeling", CRC 2012,
// ch. 3; Rill & Schaeffer TMeasy documentation) with Rill's first-order tire dynamics.
//
// Scope: the caller resolves the 3-D contact kinematics (contact point, normal, wheel heading and
// lateral axes in the contact plane) and hands this file scalars. Everything here is in the
// contact frame of one wheel: x along the wheel heading (forward), y to the left, z along the
// surface normal (ISO). SI units throughout.
//
// Model summary:
//  * Characteristic curves F(s) (initial slope df0, maximum fm at sm, sliding fs from ss) are given
//    at Fz = pn and 2 pn and interpolated in Fz (Rill: quadratic for df0, fm, fs; linear for sm, ss).
//  * Combined slip by Rill's normalized slip: one generalized curve in the direction of the
//    normalized slip vector; the force acts along that direction.
//  * Transient: Rill's first-order dynamics. The tread/carcass deflection (spring c, damper d) is in
//    series with the steady slip force, linearized by its secant stiffness f = F/s. At speed this is
//    a relaxation with length ~ f/c; at standstill it is a spring-damper with no creep from the slip
//    formula, so a parked vehicle holds on a slope.
//
// Single-source: header-only, host and device, no allocation, no virtual calls.
#pragma once

#include <cmath>

#include "fleetdyn/physics/core/config.h"
#include "fleetdyn/physics/core/math.h"

namespace fleetdyn {

// Tire parameters; POD so it can be copied to the device as-is.
template <class T>
struct TireParams {
  T unloaded_radius;     // r0 [m]: free (undeflected) radius
  T width;               // [m]: section width (informational; contact geometry is the caller's)
  T vertical_stiffness;  // k [N/m]: radial stiffness for the normal force
  T vertical_damping;    // c [N s/m]: radial damping for the normal force
  T nominal_load;        // pn [N]: load at which the "_pn" data were measured (second set at 2 pn)
  T mu_ref;              // [-]: friction coefficient of the surface the curves were measured on
  T mu;                  // [-]: friction of this tire/surface pair; fm and fs scale by mu/mu_ref
  T rolling_resistance;  // f_r [-]: rolling resistance torque = f_r Fz r_dyn
  // Longitudinal characteristic curve at pn and 2 pn.
  T dfx0_pn, dfx0_2pn;  // [N]: initial slope dFx/dsx at sx = 0
  T fxm_pn, fxm_2pn;    // [N]: maximum longitudinal force
  T sxm_pn, sxm_2pn;    // [-]: slip at the maximum
  T fxs_pn, fxs_2pn;    // [N]: sliding force
  T sxs_pn, sxs_2pn;    // [-]: slip from which the force is fxs
  // Lateral characteristic curve at pn and 2 pn.
  T dfy0_pn, dfy0_2pn;  // [N]: initial slope dFy/dsy at sy = 0
  T fym_pn, fym_2pn;    // [N]: maximum lateral force
  T sym_pn, sym_2pn;    // [-]: slip at the maximum
  T fys_pn, fys_2pn;    // [N]: sliding force
  T sys_pn, sys_2pn;    // [-]: slip from which the force is fys
  // Pneumatic trail n(sy) / contact length L (TMeasy trail curve).
  T trail_ratio0;     // [-]: n/L at sy = 0
  T trail_zero_slip;  // [-]: |sy| where the trail crosses zero
  T trail_end_slip;   // [-]: |sy| from which the trail is zero (end of the negative lobe)
  // Transient (first-order) deflection dynamics.
  T long_stiffness;       // c_x [N/m]: longitudinal tread/carcass stiffness
  T lat_stiffness;        // c_y [N/m]: lateral tread/carcass stiffness
  T long_damping;         // d_x [N s/m]: longitudinal tread/carcass damping (must be > 0)
  T lat_damping;          // d_y [N s/m]: lateral tread/carcass damping (must be > 0)
  T slip_velocity_floor;  // v_N [m/s]: small velocity added to the slip denominators
  // Rim contact: a tire deflected by more than r0 - rim_radius has its rim (flange) on the ground
  // through the squeezed tread and carcass, which add rim_stiffness to the radial rate.
  T rim_radius;     // [m]: rim flange radius, 0 = no rim (the tire never bottoms out)
  T rim_stiffness;  // [N/m]: radial stiffness added once the rim bottoms the tire
};

// HMMWV tire: TMeasy data of Project Chrono's C++ HMMWV tire (shared/reference/hmmwv.md).
// FLEETDYN_FN so a kernel can build default parameters itself.
template <class T>
FLEETDYN_FN TireParams<T> hmmwv_tire_params() {
  TireParams<T> p;
  p.unloaded_radius = T(0.4699);
  p.width = T(0.3175);
  p.vertical_stiffness = T(411121.0);
  p.vertical_damping = T(3931.7);
  p.nominal_load = T(8562.83);
  p.mu_ref = T(0.8);
  p.mu = T(0.8);
  p.rolling_resistance = T(0.015);
  p.rim_radius = T(0.20955);   // 16.5 in rim (Chrono's HMMWV TMeasy "Rim Radius")
  p.rim_stiffness = T(4.0e6);  // estimate: ten times the tire's radial rate (squeezed rubber)

  p.dfx0_pn = T(152216.0);
  p.dfx0_2pn = T(248837.0);
  p.fxm_pn = T(7703.5);
  p.fxm_2pn = T(13315.0);
  p.sxm_pn = T(0.10811);
  p.sxm_2pn = T(0.12389);
  p.fxs_pn = T(3954.6);
  p.fxs_2pn = T(7252.5);
  p.sxs_pn = T(0.66667);
  p.sxs_2pn = T(0.66667);

  p.dfy0_pn = T(63376.0);
  p.dfy0_2pn = T(117319.0);
  p.fym_pn = T(6497.1);
  p.fym_2pn = T(12438.0);
  p.sym_pn = T(0.33167);
  p.sym_2pn = T(0.33216);
  p.fys_pn = T(5846.4);
  p.fys_2pn = T(11186.0);
  p.sys_pn = T(1.0296);
  p.sys_2pn = T(1.0296);

  // Not in the reference; Chrono-TMeasy-style defaults for the trail curve: n/L = 0.178 at sy = 0,
  // zero crossing at sy = 0.4 (just past the lateral peak sym = 0.33), back to 0 at sy = 0.6.
  p.trail_ratio0 = T(0.178);
  p.trail_zero_slip = T(0.4);
  p.trail_end_slip = T(0.6);

  // Not in the reference: tread/carcass deflection stiffness and damping, chosen here.
  // Stiffness for relaxation lengths of a few tenths of a metre at pn: dfx0/c_x = 0.38 m,
  // dfy0/c_y = 0.32 m (0.62 / 0.59 m at 2 pn).
  // Damping for a well-damped deflection mode of the parked vehicle (a quarter vehicle, ~643 kg,
  // on one tire with the wheel braked): zeta = d / (2 sqrt(c m)) = 0.37 (x), 0.40 (y). (The public
  // UW-SBEL LFDM HMMWV values c = 185004 / 164448 N/m, d = 3700 / 3488 N s/m give zeta ~ 0.17:
  // a step load on a parked wheel then rings for seconds and slides several cm before holding.)
  // Cost: the force lags by an extra d/c = 30 ms (x) / 45 ms (y) at any speed.
  // Explicit RK4 at 1 ms (stable for |lambda| dt < ~2.8), with r_dyn ~ 0.463 m, wheel spin inertia
  // I ~ 7.39 kg m^2 (spindle + rim + tire), unsprung mass m_u ~ 100 kg, the fastest eigenvalues:
  //   tread spring against spin inertia  sqrt(c_x r^2 / I)     = 108 1/s
  //   tread damper against spin inertia  d_x r^2 / I            = 348 1/s (spin/tread mode is
  //                                      overdamped, zeta 1.6: eigenvalues ~311 and ~38 1/s)
  //   tread damper against unsprung mass d_x / m_u, d_y / m_u   = 120, 90 1/s
  //   deflection relaxation bound        c_x / d_x, c_y / d_y   = 33, 22 1/s
  //   (vertical, for comparison          sqrt(k / m_u) = 64 1/s, c / m_u = 39 1/s)
  // all below 1000 1/s.
  p.long_stiffness = T(4.0e5);
  p.lat_stiffness = T(2.0e5);
  p.long_damping = T(12000.0);
  p.lat_damping = T(9000.0);
  // v_N only keeps the slip denominators finite. At standstill the steady slip model needs a creep
  // velocity s * v_N to carry a force: with 1 mm/s a load of 0.3 Fz creeps ~2e-5 m/s (0.2 mm in
  // 10 s); Chrono's 0.01 m/s would creep ~2 mm in 10 s.
  p.slip_velocity_floor = T(1e-3);
  return p;
}

// How far the rim is pressed into the ground through the tire [m] (> 0 once the tire bottoms out).
template <class T>
FLEETDYN_FN T rim_penetration(const TireParams<T>& p, T penetration) {
  return penetration - (p.unloaded_radius - p.rim_radius);
}

// Vertical tire force: radial spring-damper on the penetration, stiffened by the rim once the
// tire bottoms out, never pulling the wheel down.
// penetration [m] (> 0 in contact), penetration_rate [m/s] (> 0 while compressing).
template <class T>
FLEETDYN_FN T tire_normal_force(const TireParams<T>& p, T penetration, T penetration_rate) {
  const T rim = rim_penetration(p, penetration);
  const T f = p.vertical_stiffness * penetration + p.vertical_damping * penetration_rate +
              select(rim > T(0), p.rim_stiffness * rim, T(0));
  return select(penetration > T(0), select(f > T(0), f, T(0)), T(0));
}

// Its elastic potential [J]: k pen^2 / 2, plus k_rim rim^2 / 2 once the rim bottoms the tire.
template <class T>
FLEETDYN_FN T tire_potential(const TireParams<T>& p, T penetration) {
  const T rim = rim_penetration(p, penetration);
  return select(penetration > T(0), T(0.5) * p.vertical_stiffness * penetration * penetration, T(0)) +
         select(rim > T(0), T(0.5) * p.rim_stiffness * rim * rim, T(0));
}

// Dynamic rolling radius (Rill): r_dyn = (2 r0 + r_static) / 3 with r_static = r0 - Fz / k.
template <class T>
FLEETDYN_FN T tire_rolling_radius(const TireParams<T>& p, T fz) {
  const T load = select(fz > T(0), fz, T(0));
  const T r_static = p.unloaded_radius - load / p.vertical_stiffness;
  return (T(2) * p.unloaded_radius + r_static) * T(1.0 / 3.0);
}

// One TMeasy characteristic curve F(s), s >= 0.
template <class T>
struct TmeasyCurve {
  T df0;  // [N]: initial slope dF/ds at s = 0
  T fm;   // [N]: maximum force
  T sm;   // [-]: slip at the maximum
  T fs;   // [N]: sliding force
  T ss;   // [-]: slip from which F = fs
};

// Longitudinal and lateral curves at one wheel load.
template <class T>
struct TmeasyLoadCurves {
  TmeasyCurve<T> x;  // longitudinal curve
  TmeasyCurve<T> y;  // lateral curve
};

// Rill's quadratic load interpolation through (0, 0), (pn, x_pn), (2pn, x_2pn), z = Fz/pn:
//   X(Fz) = z (2 X(pn) - X(2pn)/2 - (X(pn) - X(2pn)/2) z).
// Beyond the vertex of a concave parabola (z > ~3..12 for the HMMWV data) the value is held at
// its maximum instead of falling, so force capacity never decreases with load; X >= 0.
template <class T>
FLEETDYN_FN T tmeasy_load_quadratic(T x_pn, T x_2pn, T z) {
  const T a = T(2) * x_pn - T(0.5) * x_2pn;  // linear coefficient
  const T b = T(0.5) * x_2pn - x_pn;         // quadratic coefficient
  T zz = select(z > T(0), z, T(0));
  // Past the parabola's vertex z_v = a / (-2 b) (b < 0) hold its maximum; compared without
  // the division, which only loads past the vertex (rare: any_lane) pay for.
  const auto past_vertex = T(-2) * b * zz > a;
  if (any_lane(past_vertex)) zz = select(b < T(0), select(a > T(0), select(past_vertex, a / (T(-2) * b), zz), zz), zz);
  const T v = zz * (a + b * zz);
  return select(v > T(0), v, T(0));
}

// Linear load interpolation through (pn, x_pn), (2pn, x_2pn) (Rill, for the slips sm and ss).
template <class T>
FLEETDYN_FN T tmeasy_load_linear(T x_pn, T x_2pn, T z) {
  return x_pn + (x_2pn - x_pn) * (z - T(1));
}

// Keeps one curve well-formed at extreme loads: sm > 0, ss > sm, 0 <= fs <= fm.
template <class T>
FLEETDYN_FN TmeasyCurve<T> tmeasy_sanitize_curve(TmeasyCurve<T> c) {
  const T min_slip = T(1e-3);  // a slip at the peak below 0.1 % is not a tire
  c.sm = select(c.sm > min_slip, c.sm, min_slip);
  c.ss = select(c.ss > c.sm * T(1.01), c.ss, c.sm * T(1.01));
  c.fs = select(c.fs > c.fm, c.fm, c.fs);
  c.fs = select(c.fs < T(0), T(0), c.fs);
  return c;
}

// Characteristic curves at wheel load fz [N], friction-scaled (fm, fs by mu/mu_ref, times the
// surface's own friction factor surface_mu_scale).
template <class T>
FLEETDYN_FN TmeasyLoadCurves<T> tmeasy_curves_at_load(const TireParams<T>& p, T fz, T surface_mu_scale = T(1)) {
  const T z = select(fz > T(0), fz, T(0)) / p.nominal_load;
  const T mu_scale = p.mu / p.mu_ref * surface_mu_scale;
  TmeasyLoadCurves<T> c;
  c.x.df0 = tmeasy_load_quadratic(p.dfx0_pn, p.dfx0_2pn, z);
  c.x.fm = mu_scale * tmeasy_load_quadratic(p.fxm_pn, p.fxm_2pn, z);
  c.x.sm = tmeasy_load_linear(p.sxm_pn, p.sxm_2pn, z);
  c.x.fs = mu_scale * tmeasy_load_quadratic(p.fxs_pn, p.fxs_2pn, z);
  c.x.ss = tmeasy_load_linear(p.sxs_pn, p.sxs_2pn, z);
  c.y.df0 = tmeasy_load_quadratic(p.dfy0_pn, p.dfy0_2pn, z);
  c.y.fm = mu_scale * tmeasy_load_quadratic(p.fym_pn, p.fym_2pn, z);
  c.y.sm = tmeasy_load_linear(p.sym_pn, p.sym_2pn, z);
  c.y.fs = mu_scale * tmeasy_load_quadratic(p.fys_pn, p.fys_2pn, z);
  c.y.ss = tmeasy_load_linear(p.sys_pn, p.sys_2pn, z);
  c.x = tmeasy_sanitize_curve(c.x);
  c.y = tmeasy_sanitize_curve(c.y);
  return c;
}

// Secant F(s)/s of the generalized characteristic curve (Rill), s >= 0; df0 at s = 0, so no
// division by the slip is ever needed.
//   s <= sm:      F = df0 s / (1 + sigma (sigma + df0 sm / fm - 2)),  sigma = s / sm
//   sm < s < ss:  F = fm - (fm - fs) sigma^2 (3 - 2 sigma),           sigma = (s - sm) / (ss - sm)
//   s >= ss:      F = fs
// Branch-free: the rising part is always evaluated; the transition and sliding parts (which
// share one division by s) only when some lane is past the peak.
template <class T>
FLEETDYN_FN T tmeasy_curve_secant(const TmeasyCurve<T>& c, T s) {
  const auto rising = s <= c.sm;
  const T sigma_rise = s / c.sm;
  // Denominator = (1 - sigma)^2 + sigma df0 sm / fm > 0 for fm > 0.
  const T secant_rise = c.df0 / (T(1) + sigma_rise * (sigma_rise + c.df0 * c.sm / c.fm - T(2)));
  if (all_lanes(rising)) return secant_rise;
  const T sigma = (s - c.sm) / (c.ss - c.sm);
  const T force = select(s < c.ss, c.fm - (c.fm - c.fs) * sigma * sigma * (T(3) - T(2) * sigma), c.fs);
  return select(rising, secant_rise, force / select(rising, T(1), s));
}

// Generalized characteristic curve F(s) [N], s >= 0.
template <class T>
FLEETDYN_FN T tmeasy_curve_force(const TmeasyCurve<T>& c, T s) {
  return s * tmeasy_curve_secant(c, s);
}

// Secant stiffnesses f_x = Fx^S / sx, f_y = Fy^S / sy [N] of the steady combined-slip forces
// (Rill's normalized combined slip). Zero for fz <= 0 or degenerate curves (mu = 0).
// Branch-free: a lane without load (or with degenerate curves) computes on placeholders and is
// set to zero at the end; the whole evaluation is skipped only when no lane has load.
template <class T>
FLEETDYN_FN void tmeasy_secant_stiffness(const TireParams<T>& p, T fz, T sx, T sy, T* fx_secant, T* fy_secant,
                                         T surface_mu_scale = T(1)) {
  *fx_secant = T(0);
  *fy_secant = T(0);
  const auto loaded = fz > T(0);
  if (!any_lane(loaded)) return;
  const TmeasyLoadCurves<T> c = tmeasy_curves_at_load(p, fz, surface_mu_scale);
  const auto valid = both(both(loaded, both(c.x.df0 > T(0), c.y.df0 > T(0))), both(c.x.fm > T(0), c.y.fm > T(0)));
  if (!any_lane(valid)) return;

  // Slip normalization (Rill): makes the x and y curves comparable so one generalized curve
  // describes combined slip.
  // Divisions are a large share of this hot path: each divisor is inverted once and reused.
  const T rx = c.x.fm / c.x.df0;  // slip scale of the initial slope, longitudinal
  const T ry = c.y.fm / c.y.df0;  // same, lateral
  const T inv_sm_sum = T(1) / (c.x.sm + c.y.sm);
  const T inv_r_sum = T(1) / (rx + ry);
  const T shat_x = c.x.sm * inv_sm_sum + rx * inv_r_sum;
  const T shat_y = c.y.sm * inv_sm_sum + ry * inv_r_sum;
  const T inv_shat_x = T(1) / shat_x;
  const T inv_shat_y = T(1) / shat_y;

  const T nx = sx * inv_shat_x;  // normalized slips
  const T ny = sy * inv_shat_y;
  const T sn = sqrt(nx * nx + ny * ny);
  // Below this the direction of the normalized slip is numerically meaningless; take the pure-slip
  // limits f_x -> dfx0, f_y -> dfy0 (the forces f*s are ~0 there anyway). Rill's normalization
  // makes these nearly equal to the limits along the other axis (within ~3 % for the HMMWV).
  const auto directed = sn > T(1e-9);
  const T inv_sn = T(1) / select(directed, sn, T(1));
  const T cphi = select(directed, nx * inv_sn, T(1));
  const T sphi = select(directed, ny * inv_sn, T(0));
  TmeasyCurve<T> g;  // combined (generalized) curve in the direction phi
  g.df0 = sqrt(sq(c.x.df0 * shat_x * cphi) + sq(c.y.df0 * shat_y * sphi));
  g.fm = sqrt(sq(c.x.fm * cphi) + sq(c.y.fm * sphi));
  g.sm = sqrt(sq(c.x.sm * inv_shat_x * cphi) + sq(c.y.sm * inv_shat_y * sphi));
  // The sliding part of the curve matters only past the peak (square roots are costly here).
  const auto past_peak = sn > g.sm;
  g.fs = g.fm;
  g.ss = g.sm;
  if (any_lane(past_peak)) {
    g.fs = select(past_peak, sqrt(sq(c.x.fs * cphi) + sq(c.y.fs * sphi)), g.fm);
    g.ss = select(past_peak, sqrt(sq(c.x.ss * inv_shat_x * cphi) + sq(c.y.ss * inv_shat_y * sphi)), g.sm);
  }
  const T f_over_sn = tmeasy_curve_secant(g, sn);
  // Fx = F cos(phi) = (F / sN) sx / shat_x, so the secant is (F / sN) / shat_x.
  *fx_secant = select(valid, select(directed, f_over_sn * inv_shat_x, c.x.df0), T(0));
  *fy_secant = select(valid, select(directed, f_over_sn * inv_shat_y, c.y.df0), T(0));
}

// Steady-state combined-slip forces [N] for the TMeasy slips sx, sy at load fz.
template <class T>
FLEETDYN_FN void tmeasy_steady_forces(const TireParams<T>& p, T fz, T sx, T sy, T* fx, T* fy) {
  T fxs, fys;
  tmeasy_secant_stiffness(p, fz, sx, sy, &fxs, &fys);
  *fx = fxs * sx;
  *fy = fys * sy;
}

// TMeasy pneumatic-trail curve n/L as a function of the lateral slip (Rill): with
// s0 = trail_zero_slip, sE = trail_end_slip, w = s0/sE, a = |sy|:
//   a <= s0:      n/L = n0 [(1 - w)(1 - a/s0) + w (1 - (3 - 2 a/s0)(a/s0)^2)]
//   s0 < a < sE:  n/L = -n0 (1 - w) (a - s0)/s0 ((sE - a)/(sE - s0))^2   (small negative lobe)
//   a >= sE:      0
// Continuous with continuous slope at s0 and sE.
template <class T>
FLEETDYN_FN T tmeasy_trail_ratio(const TireParams<T>& p, T sy) {
  const T a = fabs(sy);
  const T n0 = p.trail_ratio0;
  const T s0 = p.trail_zero_slip;
  const T se = select(p.trail_end_slip > s0, p.trail_end_slip, s0);
  const T w = s0 / se;
  const auto near = a <= s0;
  const T u = a / s0;
  const T positive = n0 * ((T(1) - w) * (T(1) - u) + w * (T(1) - (T(3) - T(2) * u) * u * u));
  if (all_lanes(near)) return positive;
  const T v = (se - a) / select(near, T(1), se - s0);  // se = s0 only when no lane gets here
  const T lobe = -n0 * (T(1) - w) * (a - s0) / s0 * v * v;
  return select(a < se, select(near, positive, lobe), T(0));
}

// Inputs of one tire evaluation (contact frame of the wheel).
template <class T>
struct TireInput {
  T fz;              // [N]: normal load, >= 0
  T v_long;          // [m/s]: wheel-centre velocity along the wheel heading, in the contact plane
  T v_lat;           // [m/s]: wheel-centre velocity along the lateral axis (left), in the contact plane
  T omega;           // [rad/s]: spin rate, positive when rolling forward
  T rolling_radius;  // [m]: dynamic rolling radius (tire_rolling_radius)
  T defl_long;       // [m]: longitudinal tread/carcass deflection state
  T defl_lat;        // [m]: lateral tread/carcass deflection state
  T contact_length;  // [m]: contact patch length, scales the pneumatic trail
};

// The input of a tire whose centre penetrates the ground by `pen` [m] (<= 0: out of contact):
// the patch length 2 sqrt(R0 pen) from the penetration, the rest as given.
template <class T>
FLEETDYN_FN TireInput<T> tire_input(const TireParams<T>& tire, T fz, T pen, T v_long, T v_lat, T omega,
                                    T rolling_radius, T defl_long, T defl_lat) {
  const auto touching = pen > T(0);
  const T contact_length = select(touching, T(2) * sqrt(tire.unloaded_radius * select(touching, pen, T(0))), T(0));
  return {fz, v_long, v_lat, omega, rolling_radius, defl_long, defl_lat, contact_length};
}

// Outputs of one tire evaluation.
template <class T>
struct TireOutput {
  T fx;                             // [N]: longitudinal force on the wheel (forward +)
  T fy;                             // [N]: lateral force on the wheel (left +)
  T mz;                             // [N m]: aligning moment about the surface normal
  T defl_long_rate;                 // [m/s]: d(defl_long)/dt
  T defl_lat_rate;                  // [m/s]: d(defl_lat)/dt
  T rolling_resistance_torque_max;  // [N m]: f_r Fz r_dyn; the caller applies it against the spin
};

// Transient TMeasy forces (Rill's first-order tire dynamics).
// With slip velocity v_s, v* = r |omega| + v_N, secant stiffness f (F^S = f s, s = -v_s / v*):
// the deflection u (spring c, damper d) is in series with the slip force at the contact patch,
//   c u + d du/dt = f s_patch,  s_patch = -(v_s + du/dt) / v*,
// hence
//   du/dt = -(v* c u + f v_s) / (v* d + f),   F = c u + d du/dt = f (c u - d v_s) / (v* d + f).
// The second form of F is algebraically equal and gives exactly 0 when f = 0 (Fz = 0).
// Standstill: with f >> v_N d, du/dt ~ -v_s and F ~ c u - d v_s (a spring-damper). f is taken at
// the kinematic slip (Rill's linearization), so while the wheel centre moves faster than ~v_N sm
// the patch carries only about fs: a sudden load on a parked wheel lets the patch slip ~2 cm
// (0.3 Fz step on ~900 kg) before the spring holds. Settled, the hold creeps at v_N s(F) only.
template <class T>
FLEETDYN_FN TireOutput<T> tmeasy_forces(const TireParams<T>& p, const TireInput<T>& in, T surface_mu_scale = T(1)) {
  TireOutput<T> out;
  const T r = in.rolling_radius;
  const T fz = select(in.fz > T(0), in.fz, T(0));
  const T v_star = r * fabs(in.omega) + p.slip_velocity_floor;  // slip reference velocity
  const T vs_x = in.v_long - r * in.omega;                      // longitudinal slip velocity of the undeformed tire
  const T vs_y = in.v_lat;                                      // lateral slip velocity
  const T inv_v_star = T(1) / v_star;
  const T sx = -vs_x * inv_v_star;  // TMeasy longitudinal slip
  const T sy = -vs_y * inv_v_star;  // TMeasy lateral slip

  T fx_sec, fy_sec;
  tmeasy_secant_stiffness(p, fz, sx, sy, &fx_sec, &fy_sec, surface_mu_scale);

  const T cx = p.long_stiffness, dx = p.long_damping;
  const T cy = p.lat_stiffness, dy = p.lat_damping;
  const T den_x = v_star * dx + fx_sec;
  const T den_y = v_star * dy + fy_sec;
  // den <= 0 only with no damping and no grip: nothing to transmit, keep the state.
  const auto transmits_x = den_x > T(0);
  const auto transmits_y = den_y > T(0);
  const T inv_den_x = T(1) / select(transmits_x, den_x, T(1));
  const T inv_den_y = T(1) / select(transmits_y, den_y, T(1));
  out.defl_long_rate = select(transmits_x, -(v_star * cx * in.defl_long + fx_sec * vs_x) * inv_den_x, T(0));
  out.fx = select(transmits_x, fx_sec * (cx * in.defl_long - dx * vs_x) * inv_den_x, T(0));
  out.defl_lat_rate = select(transmits_y, -(v_star * cy * in.defl_lat + fy_sec * vs_y) * inv_den_y, T(0));
  out.fy = select(transmits_y, fy_sec * (cy * in.defl_lat - dy * vs_y) * inv_den_y, T(0));
  // Lateral slip the contact patch actually sees: s_patch = -(v_y + du/dt)/v* simplifies to
  // (c u - d v_y)/(v* d + f) = Fy / f_y: no 1/v*, so it stays well-behaved at standstill and
  // equals sy in steady state.
  const T sy_patch = select(transmits_y, (cy * in.defl_lat - dy * vs_y) * inv_den_y, sy);

  // Aligning moment (TMeasy): Mz = -n Fy, n = L * (n/L)(sy). A positive trail turns the wheel
  // heading towards its velocity (restoring).
  const T trail = in.contact_length * tmeasy_trail_ratio(p, sy_patch);
  out.mz = -trail * out.fy;

  out.rolling_resistance_torque_max = p.rolling_resistance * fz * r;
  return out;
}

}  // namespace fleetdyn
