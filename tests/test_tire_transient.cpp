// Tests of the TMeasy tire (include/fleetdyn/physics/core/tire_tmeasy.h), dynamics: the transient
// deflection at speed and at standstill, zero load, wheel spin with an unsprung mass, and the
// aligning moment.
#include "fleetdyn/physics/core/tire_tmeasy.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "tests/tire_test_util.h"

namespace fleetdyn {
namespace {

using namespace test;

TYPED_TEST_SUITE(TireTest, Scalars);

// ---------------------------------------------------------------------------------------------
// Transient deflection dynamics

// Wheel kinematics for given slips at speed v: omega from sx, v_lat from sy (TMeasy definitions).
template <class T>
TireInput<T> rolling_input(const TireParams<T>& p, double fz, double v, double sx, double sy) {
  const double r = double(tire_rolling_radius(p, T(fz)));
  const double vn = double(p.slip_velocity_floor);
  // sx = (r w - v) / (r w + vN)  (forward rolling)  =>  r w = (v + sx vN) / (1 - sx)
  const double rw = (v + sx * vn) / (1.0 - sx);
  TireInput<T> in{};
  in.fz = T(fz);
  in.v_long = T(v);
  in.omega = T(rw / r);
  in.v_lat = T(-sy * (rw + vn));
  in.rolling_radius = T(r);
  in.contact_length = T(0.2);
  return in;
}

// One RK4 step of the deflection states alone (kinematics held fixed).
template <class T>
void rk4_deflection(const TireParams<T>& p, TireInput<T>& in, T dt) {
  auto rates = [&](T u, T w, T* du, T* dw) {
    TireInput<T> s = in;
    s.defl_long = u;
    s.defl_lat = w;
    const TireOutput<T> o = tmeasy_forces(p, s);
    *du = o.defl_long_rate;
    *dw = o.defl_lat_rate;
  };
  const T u = in.defl_long, w = in.defl_lat;
  T k1u, k1w, k2u, k2w, k3u, k3w, k4u, k4w;
  rates(u, w, &k1u, &k1w);
  rates(u + dt / 2 * k1u, w + dt / 2 * k1w, &k2u, &k2w);
  rates(u + dt / 2 * k2u, w + dt / 2 * k2w, &k3u, &k3w);
  rates(u + dt * k3u, w + dt * k3w, &k4u, &k4w);
  in.defl_long = u + dt / 6 * (k1u + 2 * k2u + 2 * k3u + k4u);
  in.defl_lat = w + dt / 6 * (k1w + 2 * k2w + 2 * k3w + k4w);
}

TYPED_TEST(TireTest, TransientConvergesToSteadyForceAtSpeed) {
  using T = TypeParam;
  const TireParams<T> p = hmmwv_tire_params<T>();
  const double fz = 8562.83;
  struct Case {
    double sx, sy;
  };
  for (const Case k : {Case{0.05, 0.03}, Case{-0.2, 0.1}, Case{0.02, -0.4}, Case{0.8, 0.0}}) {
    TireInput<T> in = rolling_input(p, fz, 20.0, k.sx, k.sy);
    const T sx = -(in.v_long - in.rolling_radius * in.omega) / (in.rolling_radius * std::fabs(in.omega) + p.slip_velocity_floor);
    const T sy = -in.v_lat / (in.rolling_radius * std::fabs(in.omega) + p.slip_velocity_floor);
    T fx_ss, fy_ss;
    tmeasy_steady_forces(p, T(fz), sx, sy, &fx_ss, &fy_ss);
    for (int step = 0; step < 3000; ++step) rk4_deflection(p, in, T(1e-3));  // 3 s = 60 m
    const TireOutput<T> out = tmeasy_forces(p, in);
    const double scale = std::hypot(double(fx_ss), double(fy_ss));
    EXPECT_NEAR(double(out.fx), double(fx_ss), Tol<T>::sim_rel * scale) << k.sx << "," << k.sy;
    EXPECT_NEAR(double(out.fy), double(fy_ss), Tol<T>::sim_rel * scale) << k.sx << "," << k.sy;
    EXPECT_NEAR(double(out.defl_long_rate), 0.0, Tol<T>::sim_rate);
    EXPECT_NEAR(double(out.defl_lat_rate), 0.0, Tol<T>::sim_rate);
  }
}

// Small slip: first-order lag with time constant (v* d + f)/(v* c), i.e. relaxation length
// ~ f/c + v d/c; after one time constant the deflection reached 1 - 1/e of its final value.
TYPED_TEST(TireTest, TransientRelaxesWithFirstOrderTimeConstant) {
  using T = TypeParam;
  const TireParams<T> p = hmmwv_tire_params<T>();
  const double fz = 8562.83, v = 20.0;
  TireInput<T> in = rolling_input(p, fz, v, 0.01, 0.0);
  T f_sec, f_unused;
  const T sx = -(in.v_long - in.rolling_radius * in.omega) / (in.rolling_radius * in.omega + p.slip_velocity_floor);
  tmeasy_secant_stiffness(p, T(fz), sx, T(0), &f_sec, &f_unused);
  const double vstar = double(in.rolling_radius * in.omega + p.slip_velocity_floor);
  const double cx = double(p.long_stiffness), dx = double(p.long_damping);
  const double tau = (vstar * dx + double(f_sec)) / (vstar * cx);
  const double u_final = double(f_sec) * double(sx) / cx;
  const int n = static_cast<int>(std::lround(tau / 1e-4));
  for (int i = 0; i < n; ++i) rk4_deflection(p, in, T(1e-4));
  const double ratio = double(in.defl_long) / u_final;
  EXPECT_NEAR(ratio, 1.0 - std::exp(-n * 1e-4 / tau), 2e-3);
  // Relaxation length ~ dfx0 / c_x (0.38 m at pn) plus the damper lag v d / c.
  EXPECT_NEAR(v * tau, 152216.0 / cx + v * dx / cx, 0.05);
}

TYPED_TEST(TireTest, ZeroLoadGivesExactlyZeroForce) {
  using T = TypeParam;
  const TireParams<T> p = hmmwv_tire_params<T>();
  for (double v : {0.0, 0.3, 15.0}) {
    TireInput<T> in{};
    in.fz = T(0);
    in.v_long = T(v);
    in.v_lat = T(0.7);
    in.omega = T(3.0);
    in.rolling_radius = T(0.4699);
    in.defl_long = T(0.01);
    in.defl_lat = T(-0.02);
    in.contact_length = T(0);
    const TireOutput<T> out = tmeasy_forces(p, in);
    EXPECT_EQ(out.fx, T(0));
    EXPECT_EQ(out.fy, T(0));
    EXPECT_EQ(out.mz, T(0));
    EXPECT_EQ(out.rolling_resistance_torque_max, T(0));
    // Unloaded, the stored deflection springs back through its damper: du/dt = -c/d u.
    const double kx = double(p.long_stiffness / p.long_damping);
    const double ky = double(p.lat_stiffness / p.lat_damping);
    EXPECT_NEAR(double(out.defl_long_rate), -kx * 0.01, 1e-5 * kx);
    EXPECT_NEAR(double(out.defl_lat_rate), ky * 0.02, 1e-5 * ky);
  }
  // Negative load (caller glitch) is treated as no load.
  TireInput<T> in{};
  in.fz = T(-100);
  in.v_long = T(5);
  in.rolling_radius = T(0.46);
  in.defl_long = T(0.01);
  const TireOutput<T> out = tmeasy_forces(p, in);
  EXPECT_EQ(out.fx, T(0));
  EXPECT_EQ(out.fy, T(0));
}

// ---------------------------------------------------------------------------------------------
// Standstill: a mass on a slope held by a locked (braked) wheel through the tire.

struct SlopeResult {
  double pos_settled;     // displacement downhill at t_settle [m]
  double pos_end;         // displacement downhill at the end [m]
  double max_vel_late;    // max |velocity| over the last 4 s [m/s]
  int sign_changes_late;  // velocity sign changes over the last 4 s
  double force_end;       // tire force along the slope at the end [N]
  double defl_end;        // deflection state along the slope at the end [m]
  bool finite;
};

// axis 0: slope along the wheel heading (longitudinal), 1: across it (lateral). The mass is chosen
// so that Fz = pn; gravity pulls along +axis, the tire resists. The wheel is locked (omega = 0).
// The deflection starts at preload * (static value) -- 0: released from rest undeflected,
// 1: parked in static equilibrium. RK4, dt = 1 ms.
template <class T>
SlopeResult simulate_slope(const TireParams<T>& p, int axis, double tan_theta, double duration, double preload, double t_settle) {
  const double theta = std::atan(tan_theta);
  const double fz = 8562.83;
  const double m = fz / (kG * std::cos(theta));
  const T push = T(m * kG * std::sin(theta));
  const T mass = T(m);
  const T dt = T(1e-3);
  TireInput<T> base{};
  base.fz = T(fz);
  base.omega = T(0);  // brake locked
  base.rolling_radius = tire_rolling_radius(p, T(fz));
  base.contact_length = T(0.2);
  // state: x position, v velocity, u deflection along the axis
  auto deriv = [&](T v, T u, T* dv, T* du, T* force) {
    TireInput<T> in = base;
    if (axis == 0) {
      in.v_long = v;
      in.defl_long = u;
    } else {
      in.v_lat = v;
      in.defl_lat = u;
    }
    const TireOutput<T> o = tmeasy_forces(p, in);
    *force = axis == 0 ? o.fx : o.fy;
    *du = axis == 0 ? o.defl_long_rate : o.defl_lat_rate;
    *dv = (push + *force) / mass;
  };
  const T c = axis == 0 ? p.long_stiffness : p.lat_stiffness;
  T x = T(0), v = T(0), u = -T(preload) * push / c, f = T(0);
  SlopeResult r{};
  r.finite = true;
  const int n = static_cast<int>(std::lround(duration / 1e-3));
  const int settle = static_cast<int>(std::lround(t_settle / 1e-3));
  const int late_from = n - 4000;
  double prev_v = 0.0;
  for (int i = 1; i <= n; ++i) {
    T a1, b1, a2, b2, a3, b3, a4, b4;
    deriv(v, u, &a1, &b1, &f);
    deriv(v + dt / 2 * a1, u + dt / 2 * b1, &a2, &b2, &f);
    deriv(v + dt / 2 * a2, u + dt / 2 * b2, &a3, &b3, &f);
    deriv(v + dt * a3, u + dt * b3, &a4, &b4, &f);
    x += dt / 6 * (v + 2 * (v + dt / 2 * a1) + 2 * (v + dt / 2 * a2) + (v + dt * a3));
    v += dt / 6 * (a1 + 2 * a2 + 2 * a3 + a4);
    u += dt / 6 * (b1 + 2 * b2 + 2 * b3 + b4);
    if (!std::isfinite(double(x)) || !std::isfinite(double(v)) || !std::isfinite(double(u))) {
      r.finite = false;
      return r;
    }
    if (i == settle) r.pos_settled = double(x);
    if (i > late_from) {
      r.max_vel_late = std::fmax(r.max_vel_late, std::fabs(double(v)));
      if (i > late_from + 1 && (double(v) > 0) != (prev_v > 0)) ++r.sign_changes_late;
    }
    prev_v = double(v);
  }
  T dv, du;
  deriv(v, u, &dv, &du, &f);
  r.pos_end = double(x);
  r.force_end = double(f);
  r.defl_end = double(u);
  return r;
}

// Released from rest on a 0.3 slope (demand 0.3 Fz, inside the 0.90 Fz / 0.76 Fz peaks): the
// deflection builds to the spring value demand / c, the force holds the demand, and once settled
// the mass stays put (< 1 mm over the remaining 8 s) without oscillating. While the load comes on,
// the contact patch slips a little: the first-order model evaluates the secant stiffness at the
// kinematic slip (mass velocity / v_N, deep in sliding), so the patch can carry ~fs only, not fm,
// during the step.
TYPED_TEST(TireTest, StandstillStepLoadBuildsSpringAndHolds) {
  using T = TypeParam;
  const TireParams<T> p = hmmwv_tire_params<T>();
  const double demand = 0.3 * 8562.83;
  const double stiffness[2] = {double(p.long_stiffness), double(p.lat_stiffness)};
  for (int axis : {0, 1}) {
    const SlopeResult r = simulate_slope(p, axis, 0.3, 10.0, 0.0, 2.0);
    ASSERT_TRUE(r.finite);
    EXPECT_NEAR(-r.defl_end, demand / stiffness[axis], 1e-3 * demand / stiffness[axis]) << "axis " << axis;
    EXPECT_NEAR(r.force_end, -demand, 1e-3 * demand) << "axis " << axis;
    EXPECT_LT(std::fabs(r.pos_end - r.pos_settled), 1e-3) << "axis " << axis;
    EXPECT_LT(r.max_vel_late, 1e-4) << "axis " << axis;
    EXPECT_EQ(r.sign_changes_late, 0) << "axis " << axis;
    // Settling slip of the patch stays a few centimetres.
    EXPECT_LT(r.pos_settled, 0.04) << "axis " << axis;
  }
}

// Parked in static equilibrium: the tire holds as a spring; it stays put within 1 mm over 10 s.
// With half the friction the same 0.3 Fz demand lies between the sliding force (0.23 Fz) and the
// peak (0.45 Fz): it still holds (static grip above the sliding force).
TYPED_TEST(TireTest, StandstillParkedHoldsWithinOneMillimetre) {
  using T = TypeParam;
  const TireParams<T> p = hmmwv_tire_params<T>();
  TireParams<T> half = p;
  half.mu = p.mu_ref / T(2);
  const double demand = 0.3 * 8562.83;
  struct Case {
    const TireParams<T>* params;
    int axis;
  };
  for (const Case k : {Case{&p, 0}, Case{&p, 1}, Case{&half, 0}}) {
    const SlopeResult r = simulate_slope(*k.params, k.axis, 0.3, 10.0, 1.0, 0.001);
    ASSERT_TRUE(r.finite);
    EXPECT_LT(std::fabs(r.pos_end), 1e-3) << "axis " << k.axis;
    EXPECT_LT(r.max_vel_late, 1e-4) << "axis " << k.axis;
    EXPECT_EQ(r.sign_changes_late, 0) << "axis " << k.axis;
    EXPECT_NEAR(r.force_end, -demand, 1e-3 * demand) << "axis " << k.axis;
  }
}

TYPED_TEST(TireTest, StandstillSlidesWhenDemandExceedsFriction) {
  using T = TypeParam;
  const TireParams<T> p = hmmwv_tire_params<T>();
  // Demand 1.0 Fz exceeds the peaks (0.90 Fz longitudinal, 0.76 Fz lateral at pn for mu_ref),
  // even starting from the parked, pre-deflected state.
  const double sliding[2] = {3954.6, 5846.4};
  for (int axis : {0, 1}) {
    for (double preload : {0.0, 1.0}) {
      const SlopeResult r = simulate_slope(p, axis, 1.0, 5.0, preload, 1.0);
      ASSERT_TRUE(r.finite);
      EXPECT_GT(r.pos_end, 10.0) << "axis " << axis;
      // Sliding at the sliding force (locked wheel: |s| >> ss).
      EXPECT_NEAR(r.force_end, -sliding[axis], 2e-3 * sliding[axis]) << "axis " << axis;
    }
  }
  // Half the friction: peak 0.45 Fz, so a 0.6 Fz demand slides at half the sliding force.
  TireParams<T> half = p;
  half.mu = p.mu_ref / T(2);
  const SlopeResult slide = simulate_slope(half, 0, 0.6, 5.0, 1.0, 1.0);
  ASSERT_TRUE(slide.finite);
  EXPECT_GT(slide.pos_end, 5.0);
  EXPECT_NEAR(slide.force_end, -0.5 * 3954.6, 2e-3 * 3954.6);
}

// ---------------------------------------------------------------------------------------------
// Wheel spin coupled to an unsprung mass: explicit RK4 at 1 ms is stable and accurate (compared
// with a 0.1 ms run). Worst case: a 100 kg body (unsprung alone) with the full load pn.

struct SpinState {
  double v, w, u;
};

template <class T>
SpinState simulate_spin(const TireParams<T>& p, double mass, double inertia, double torque, SpinState s0,
                        double duration, double dt_d, double* max_late_w_rate) {
  const T fz = T(8562.83);
  const T r = tire_rolling_radius(p, fz);
  const T dt = T(dt_d);
  auto deriv = [&](T v, T w, T u, T* dv, T* dw, T* du) {
    TireInput<T> in{};
    in.fz = fz;
    in.v_long = v;
    in.omega = w;
    in.rolling_radius = r;
    in.defl_long = u;
    in.contact_length = T(0.2);
    const TireOutput<T> o = tmeasy_forces(p, in);
    *dv = o.fx / T(mass);
    *dw = (T(torque) - r * o.fx) / T(inertia);
    *du = o.defl_long_rate;
  };
  T v = T(s0.v), w = T(s0.w), u = T(s0.u);
  const int n = static_cast<int>(std::lround(duration / dt_d));
  if (max_late_w_rate) *max_late_w_rate = 0.0;
  for (int i = 0; i < n; ++i) {
    T a1, b1, c1, a2, b2, c2, a3, b3, c3, a4, b4, c4;
    deriv(v, w, u, &a1, &b1, &c1);
    deriv(v + dt / 2 * a1, w + dt / 2 * b1, u + dt / 2 * c1, &a2, &b2, &c2);
    deriv(v + dt / 2 * a2, w + dt / 2 * b2, u + dt / 2 * c2, &a3, &b3, &c3);
    deriv(v + dt * a3, w + dt * b3, u + dt * c3, &a4, &b4, &c4);
    v += dt / 6 * (a1 + 2 * a2 + 2 * a3 + a4);
    w += dt / 6 * (b1 + 2 * b2 + 2 * b3 + b4);
    u += dt / 6 * (c1 + 2 * c2 + 2 * c3 + c4);
    if (max_late_w_rate && i > n / 2) *max_late_w_rate = std::fmax(*max_late_w_rate, std::fabs(double(b1)));
  }
  return SpinState{double(v), double(w), double(u)};
}

TYPED_TEST(TireTest, WheelSpinWithUnsprungMassStableAtOneMillisecond) {
  using T = TypeParam;
  const TireParams<T> p = hmmwv_tire_params<T>();
  const double mass = 100.0, inertia = 7.39;
  const double r = double(tire_rolling_radius(p, T(8562.83)));
  struct Case {
    double torque;
    SpinState s0;
    double duration;
  };
  const Case cases[] = {
      {1500.0, {0.0, 0.0, 0.0}, 1.0},         // drive from rest within the traction limit
      {6000.0, {0.0, 0.0, 0.0}, 1.0},         // wheelspin from rest (T/r > fxm)
      {0.0, {20.0, 20.0 / r, 0.0}, 1.0},      // free rolling at 20 m/s
      {-1500.0, {20.0, 20.0 / r, 0.0}, 1.0},  // braking torque at speed
      {0.0, {0.0, 0.0, 0.02}, 2.0},           // released 2 cm deflection at standstill
  };
  for (const Case& k : cases) {
    double late_rate_coarse = 0.0;
    const SpinState a = simulate_spin(p, mass, inertia, k.torque, k.s0, k.duration, 1e-3, &late_rate_coarse);
    const SpinState b = simulate_spin(p, mass, inertia, k.torque, k.s0, k.duration, 1e-4, static_cast<double*>(nullptr));
    ASSERT_TRUE(std::isfinite(a.v) && std::isfinite(a.w) && std::isfinite(a.u));
    const double tol = sizeof(T) == 4 ? 2e-3 : 1e-4;
    EXPECT_NEAR(a.v, b.v, tol * (1 + std::fabs(b.v))) << "torque " << k.torque;
    EXPECT_NEAR(a.w * r, b.w * r, tol * (1 + std::fabs(b.w * r))) << "torque " << k.torque;
    EXPECT_NEAR(a.u, b.u, tol * 1e-2 + tol * std::fabs(b.u)) << "torque " << k.torque;
  }
  // The released deflection dies out: the spin/tread mode is well damped.
  double late_rate = 0.0;
  const SpinState rest = simulate_spin(p, mass, inertia, 0.0, {0.0, 0.0, 0.02}, 2.0, 1e-3, &late_rate);
  EXPECT_LT(std::fabs(rest.w), 1e-3);
  EXPECT_LT(std::fabs(rest.u), 1e-4);
  EXPECT_LT(late_rate, 1e-2);
}

// ---------------------------------------------------------------------------------------------
// Aligning moment

TYPED_TEST(TireTest, TrailCurveShape) {
  using T = TypeParam;
  const TireParams<T> p = hmmwv_tire_params<T>();
  expect_rel(tmeasy_trail_ratio(p, T(0)), 0.178, Tol<T>::rel, "n/L at 0");
  EXPECT_NEAR(double(tmeasy_trail_ratio(p, T(0.4))), 0.0, 1e-6);
  EXPECT_EQ(tmeasy_trail_ratio(p, T(0.6)), T(0));
  EXPECT_EQ(tmeasy_trail_ratio(p, T(2.0)), T(0));
  EXPECT_LT(tmeasy_trail_ratio(p, T(0.5)), T(0));                            // negative lobe
  EXPECT_GT(tmeasy_trail_ratio(p, T(0.5)), T(-0.1 * 0.178));                 // ... and small
  EXPECT_EQ(tmeasy_trail_ratio(p, T(-0.1)), tmeasy_trail_ratio(p, T(0.1)));  // even
  // Decreasing on [0, s0], continuous across s0 and sE.
  T prev = tmeasy_trail_ratio(p, T(0));
  for (int i = 1; i <= 40; ++i) {
    const T n = tmeasy_trail_ratio(p, T(0.01 * i));
    EXPECT_LT(n, prev) << "sy=" << 0.01 * i;
    prev = n;
  }
  for (double s : {0.4, 0.6}) {
    EXPECT_NEAR(double(tmeasy_trail_ratio(p, T(s - 1e-4))), double(tmeasy_trail_ratio(p, T(s + 1e-4))), 1e-4);
  }
}

// Steady lateral slip at speed (deflection at its steady value): Fy along sy, Mz = -n Fy.
TYPED_TEST(TireTest, AligningMomentRestores) {
  using T = TypeParam;
  const TireParams<T> p = hmmwv_tire_params<T>();
  const double fz = 8562.83, L = 0.2;
  for (double sy : {0.05, -0.05, 0.2, -0.2, 0.5, -0.5, 0.8}) {
    TireInput<T> in = rolling_input(p, fz, 10.0, 0.0, sy);
    in.contact_length = T(L);
    for (int i = 0; i < 3000; ++i) rk4_deflection(p, in, T(1e-3));
    const TireOutput<T> out = tmeasy_forces(p, in);
    EXPECT_GT(double(out.fy) * sy, 0.0) << "Fy along sy, sy=" << sy;
    const double n = L * double(tmeasy_trail_ratio(p, T(sy)));
    EXPECT_NEAR(double(out.mz), -n * double(out.fy), 1e-3 * std::fabs(n * double(out.fy)) + 1e-3) << "sy=" << sy;
    if (std::fabs(sy) < 0.4) {
      // Positive trail: moment opposes sy, i.e. turns the heading towards the velocity.
      EXPECT_LT(double(out.mz) * sy, 0.0) << "sy=" << sy;
      EXPECT_GT(std::fabs(double(out.mz)), 10.0) << "sy=" << sy;
    } else if (std::fabs(sy) < 0.6) {
      EXPECT_GT(double(out.mz) * sy, 0.0) << "negative lobe, sy=" << sy;
    } else {
      EXPECT_EQ(out.mz, T(0)) << "sy=" << sy;
    }
  }
}

}  // namespace
}  // namespace fleetdyn
