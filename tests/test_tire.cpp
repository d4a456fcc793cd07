// Tests of the TMeasy tire (include/fleetdyn/physics/core/tire_tmeasy.h), steady state: the vertical
// force and rolling radius, characteristic curves against the HMMWV data, combined slip and
// friction scaling. The transient dynamics are in test_tire_transient.cpp.
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
// Vertical force and rolling radius

TYPED_TEST(TireTest, NormalForceNeverNegativeAndZeroOffSurface) {
  using T = TypeParam;
  const TireParams<T> p = hmmwv_tire_params<T>();
  // Off the surface: zero whatever the rate.
  for (T rate : {T(-10), T(0), T(10)}) {
    EXPECT_EQ(tire_normal_force(p, T(-0.01), rate), T(0));
    EXPECT_EQ(tire_normal_force(p, T(0), rate), T(0));
  }
  // In contact but separating fast: the damper would pull; the tire must not.
  EXPECT_EQ(tire_normal_force(p, T(0.001), T(-5)), T(0));
  // Ordinary contact: k pen + c rate.
  const double expected = 411121.0 * 0.02 + 3931.7 * 0.1;
  expect_rel(tire_normal_force(p, T(0.02), T(0.1)), expected, Tol<T>::rel, "k pen + c rate");
  // Sweep: never negative.
  for (int i = 0; i <= 40; ++i) {
    for (int j = -20; j <= 20; ++j) {
      EXPECT_GE(tire_normal_force(p, T(-0.02 + 0.001 * i), T(0.5 * j)), T(0));
    }
  }
}

TYPED_TEST(TireTest, RollingRadiusAndRollingResistance) {
  using T = TypeParam;
  const TireParams<T> p = hmmwv_tire_params<T>();
  const double fz = 8562.83;
  const double r_static = 0.4699 - fz / 411121.0;
  const double r_dyn = (2.0 * 0.4699 + r_static) / 3.0;
  expect_rel(tire_rolling_radius(p, T(fz)), r_dyn, Tol<T>::rel, "Rill r_dyn");
  expect_rel(tire_rolling_radius(p, T(0)), 0.4699, Tol<T>::rel, "unloaded r_dyn");

  TireInput<T> in{};
  in.fz = T(fz);
  in.v_long = T(10);
  in.omega = T(10 / r_dyn);
  in.rolling_radius = T(r_dyn);
  in.contact_length = T(0.2);
  const TireOutput<T> out = tmeasy_forces(p, in);
  expect_rel(out.rolling_resistance_torque_max, 0.015 * fz * r_dyn, Tol<T>::rel, "f_r Fz r");
}

// ---------------------------------------------------------------------------------------------
// Characteristic curves and load interpolation

TYPED_TEST(TireTest, LoadInterpolationReproducesBothDataPoints) {
  using T = TypeParam;
  const TireParams<T> p = hmmwv_tire_params<T>();
  const double tol = Tol<T>::rel;
  const TmeasyLoadCurves<T> a = tmeasy_curves_at_load(p, T(8562.83));
  expect_rel(a.x.df0, 152216.0, tol, "dfx0 pn");
  expect_rel(a.x.fm, 7703.5, tol, "fxm pn");
  expect_rel(a.x.sm, 0.10811, tol, "sxm pn");
  expect_rel(a.x.fs, 3954.6, tol, "fxs pn");
  expect_rel(a.x.ss, 0.66667, tol, "sxs pn");
  expect_rel(a.y.df0, 63376.0, tol, "dfy0 pn");
  expect_rel(a.y.fm, 6497.1, tol, "fym pn");
  expect_rel(a.y.sm, 0.33167, tol, "sym pn");
  expect_rel(a.y.fs, 5846.4, tol, "fys pn");
  expect_rel(a.y.ss, 1.0296, tol, "sys pn");
  const TmeasyLoadCurves<T> b = tmeasy_curves_at_load(p, T(2 * 8562.83));
  expect_rel(b.x.df0, 248837.0, tol, "dfx0 2pn");
  expect_rel(b.x.fm, 13315.0, tol, "fxm 2pn");
  expect_rel(b.x.sm, 0.12389, tol, "sxm 2pn");
  expect_rel(b.x.fs, 7252.5, tol, "fxs 2pn");
  expect_rel(b.x.ss, 0.66667, tol, "sxs 2pn");
  expect_rel(b.y.df0, 117319.0, tol, "dfy0 2pn");
  expect_rel(b.y.fm, 12438.0, tol, "fym 2pn");
  expect_rel(b.y.sm, 0.33216, tol, "sym 2pn");
  expect_rel(b.y.fs, 11186.0, tol, "fys 2pn");
  expect_rel(b.y.ss, 1.0296, tol, "sys 2pn");

  // Between the points: Rill's quadratic, computed independently here.
  const double z = 1.5;
  auto quad = [z](double x1, double x2) { return z * (2 * x1 - x2 / 2 - (x1 - x2 / 2) * z); };
  const TmeasyLoadCurves<T> m = tmeasy_curves_at_load(p, T(1.5 * 8562.83));
  expect_rel(m.x.df0, quad(152216.0, 248837.0), tol, "dfx0 1.5pn");
  expect_rel(m.y.fm, quad(6497.1, 12438.0), tol, "fym 1.5pn");
  expect_rel(m.x.fs, quad(3954.6, 7252.5), tol, "fxs 1.5pn");
  expect_rel(m.x.sm, 0.10811 + 0.5 * (0.12389 - 0.10811), tol, "sxm 1.5pn");

  // No load, no force capacity.
  const TmeasyLoadCurves<T> zero = tmeasy_curves_at_load(p, T(0));
  EXPECT_EQ(zero.x.df0, T(0));
  EXPECT_EQ(zero.x.fm, T(0));
  EXPECT_EQ(zero.y.fs, T(0));
}

TYPED_TEST(TireTest, CurvesStaySaneAtExtremeLoads) {
  using T = TypeParam;
  const TireParams<T> p = hmmwv_tire_params<T>();
  T prev_dfx0 = T(0), prev_fxm = T(0), prev_fym = T(0);
  for (double z : {0.001, 0.1, 0.5, 1.0, 2.0, 3.0, 4.0, 6.0, 10.0, 20.0, 50.0, 200.0}) {
    const TmeasyLoadCurves<T> c = tmeasy_curves_at_load(p, T(z * 8562.83));
    for (const TmeasyCurve<T>& k : {c.x, c.y}) {
      EXPECT_GT(k.df0, T(0)) << "z=" << z;
      EXPECT_GT(k.fm, T(0)) << "z=" << z;
      EXPECT_GE(k.fs, T(0)) << "z=" << z;
      EXPECT_LE(k.fs, k.fm) << "z=" << z;
      EXPECT_GT(k.sm, T(0)) << "z=" << z;
      EXPECT_GT(k.ss, k.sm) << "z=" << z;
    }
    // Force capacity never drops with load (the parabola is held at its vertex).
    EXPECT_GE(c.x.df0, prev_dfx0) << "z=" << z;
    EXPECT_GE(c.x.fm, prev_fxm) << "z=" << z;
    EXPECT_GE(c.y.fm, prev_fym) << "z=" << z;
    prev_dfx0 = c.x.df0;
    prev_fxm = c.x.fm;
    prev_fym = c.y.fm;
  }
}

// Checks one pure-slip curve (axis 0: longitudinal, 1: lateral) at load fz against the data.
template <class T>
void check_pure_slip(int axis, double fz, double df0, double fm, double sm, double fs, double ss) {
  const TireParams<T> p = hmmwv_tire_params<T>();
  auto force = [&](double s) { return axis == 0 ? steady_fx(p, T(fz), T(s), T(0)) : steady_fy(p, T(fz), T(0), T(s)); };
  auto cross = [&](double s) { return axis == 0 ? steady_fy(p, T(fz), T(s), T(0)) : steady_fx(p, T(fz), T(0), T(s)); };
  // Initial slope by a forward finite difference (F(0) = 0).
  const double h = Tol<T>::fd_step * sm;
  const double slope = (static_cast<double>(force(h)) - static_cast<double>(force(0))) / h;
  EXPECT_NEAR(slope, df0, Tol<T>::fd_rel * df0) << "initial slope, axis " << axis;
  // Maximum: value fm at sm, and lower on both sides.
  expect_rel(force(sm), fm, Tol<T>::rel * 10, "peak force");
  EXPECT_LT(force(0.98 * sm), force(sm)) << "axis " << axis;
  EXPECT_LT(force(1.02 * sm), force(sm)) << "axis " << axis;
  // Falling between sm and ss along Rill's cubic: F = fm - (fm - fs) sigma^2 (3 - 2 sigma).
  for (double sigma : {0.25, 0.5, 0.8}) {
    const double s = sm + sigma * (ss - sm);
    expect_rel(force(s), fm - (fm - fs) * sigma * sigma * (3 - 2 * sigma), Tol<T>::rel * 10, "transition cubic");
  }
  // Sliding from ss on.
  for (double s : {ss, 1.2 * ss, 2.0, 10.0, 1e3}) {
    expect_rel(force(s), fs, Tol<T>::rel * 10, "sliding force");
  }
  // Odd symmetry and no cross force.
  for (double s : {0.01, sm, 0.5, 3.0}) {
    EXPECT_EQ(force(-s), -force(s)) << "s=" << s;
    EXPECT_EQ(cross(s), T(0)) << "s=" << s;
  }
}

TYPED_TEST(TireTest, PureLongitudinalAtPnAnd2pn) {
  check_pure_slip<TypeParam>(0, 8562.83, 152216.0, 7703.5, 0.10811, 3954.6, 0.66667);
  check_pure_slip<TypeParam>(0, 2 * 8562.83, 248837.0, 13315.0, 0.12389, 7252.5, 0.66667);
}

TYPED_TEST(TireTest, PureLateralAtPnAnd2pn) {
  check_pure_slip<TypeParam>(1, 8562.83, 63376.0, 6497.1, 0.33167, 5846.4, 1.0296);
  check_pure_slip<TypeParam>(1, 2 * 8562.83, 117319.0, 12438.0, 0.33216, 11186.0, 1.0296);
}

// Combined-curve maximum and sliding force in the normalized-slip direction, computed here
// independently of the header from the per-axis curves (Rill's normalized slip).
struct CombinedRef {
  double fm, fs, ss;
};
template <class T>
CombinedRef combined_reference(const TmeasyLoadCurves<T>& c, double sx, double sy) {
  const double xm = c.x.fm, ym = c.y.fm, x0 = c.x.df0, y0 = c.y.df0;
  const double xsm = c.x.sm, ysm = c.y.sm;
  const double shx = xsm / (xsm + ysm) + (xm / x0) / (xm / x0 + ym / y0);
  const double shy = ysm / (xsm + ysm) + (ym / y0) / (xm / x0 + ym / y0);
  const double nx = sx / shx, ny = sy / shy, sn = std::hypot(nx, ny);
  const double cos_phi = nx / sn, sin_phi = ny / sn;
  CombinedRef r;
  r.fm = std::hypot(xm * cos_phi, ym * sin_phi);
  r.fs = std::hypot(double(c.x.fs) * cos_phi, double(c.y.fs) * sin_phi);
  r.ss = std::hypot(double(c.x.ss) / shx * cos_phi, double(c.y.ss) / shy * sin_phi);
  return r;
}

TYPED_TEST(TireTest, CombinedSlipBoundedAndPureLimitsRecovered) {
  using T = TypeParam;
  const TireParams<T> p = hmmwv_tire_params<T>();
  for (double z : {0.5, 1.0, 2.0}) {
    const T fz = T(z * 8562.83);
    const TmeasyLoadCurves<T> c = tmeasy_curves_at_load(p, fz);
    for (int i = -20; i <= 20; ++i) {
      for (int j = -20; j <= 20; ++j) {
        const double sx = 0.1 * i, sy = 0.1 * j;
        T fx, fy;
        tmeasy_steady_forces(p, fz, T(sx), T(sy), &fx, &fy);
        const double f = std::hypot(double(fx), double(fy));
        if (i == 0 && j == 0) {
          EXPECT_EQ(fx, T(0));
          EXPECT_EQ(fy, T(0));
          continue;
        }
        const CombinedRef ref = combined_reference(c, sx, sy);
        EXPECT_LE(f, ref.fm * (1 + 10 * Tol<T>::rel)) << "sx=" << sx << " sy=" << sy;
        // Forces act along the slip (same signs).
        EXPECT_GE(double(fx) * sx, 0.0);
        EXPECT_GE(double(fy) * sy, 0.0);
        // Pure-slip limits: the other component is exactly zero, this one the pure curve.
        if (j == 0) {
          EXPECT_EQ(fy, T(0));
          const double pure = std::copysign(double(tmeasy_curve_force(c.x, T(std::fabs(sx)))), sx);
          EXPECT_NEAR(double(fx), pure, 10 * Tol<T>::rel * std::fabs(pure));
        }
        if (i == 0) {
          EXPECT_EQ(fx, T(0));
          const double pure = std::copysign(double(tmeasy_curve_force(c.y, T(std::fabs(sy)))), sy);
          EXPECT_NEAR(double(fy), pure, 10 * Tol<T>::rel * std::fabs(pure));
        }
      }
    }
    // Deep sliding in an oblique direction: |F| is the combined sliding force.
    const double sx = 30.0, sy = -45.0;
    T fx, fy;
    tmeasy_steady_forces(p, fz, T(sx), T(sy), &fx, &fy);
    const CombinedRef ref = combined_reference(c, sx, sy);
    EXPECT_NEAR(std::hypot(double(fx), double(fy)), ref.fs, 10 * Tol<T>::rel * ref.fs);
    // Combined slip takes longitudinal force away: Fx(sxm, 0.2) < Fx(sxm, 0).
    EXPECT_LT(steady_fx(p, fz, c.x.sm, T(0.2)), steady_fx(p, fz, c.x.sm, T(0)));
  }
}

TYPED_TEST(TireTest, MuScalingHalvesMaximumAndSlidingForces) {
  using T = TypeParam;
  const TireParams<T> p = hmmwv_tire_params<T>();
  TireParams<T> half = p;
  half.mu = p.mu_ref / T(2);
  for (double z : {1.0, 2.0}) {
    const T fz = T(z * 8562.83);
    const TmeasyLoadCurves<T> c = tmeasy_curves_at_load(p, fz);
    const TmeasyLoadCurves<T> h = tmeasy_curves_at_load(half, fz);
    expect_rel(h.x.fm, 0.5 * double(c.x.fm), Tol<T>::rel, "fxm halves");
    expect_rel(h.y.fs, 0.5 * double(c.y.fs), Tol<T>::rel, "fys halves");
    expect_rel(h.x.df0, double(c.x.df0), Tol<T>::rel, "df0 unchanged");
    // The curves themselves: peak at sm and sliding force halve.
    expect_rel(steady_fx(half, fz, c.x.sm, T(0)), 0.5 * double(c.x.fm), 10 * Tol<T>::rel, "peak");
    expect_rel(steady_fy(half, fz, T(0), T(5)), 0.5 * double(c.y.fs), 10 * Tol<T>::rel, "slide");
  }
}

}  // namespace
}  // namespace fleetdyn

namespace fleetdyn {
namespace {

// Rim contact: below r0 - rim_radius of deflection the force is the tire's spring alone; past it
// the rim adds its stiffness, continuously (no jump at the bottoming point). The elastic force is
// the potential's derivative (central differences), so the energy ledgers stay exact.
TEST(TireRim, BottomingAddsTheRimStiffnessContinuouslyAndFollowsItsPotential) {
  const TireParams<double> p = hmmwv_tire_params<double>();
  const double bottom = p.unloaded_radius - p.rim_radius;
  ASSERT_GT(bottom, 0.2);
  EXPECT_EQ(tire_normal_force(p, 0.5 * bottom, 0.0), p.vertical_stiffness * 0.5 * bottom);
  const double below = tire_normal_force(p, bottom - 1e-9, 0.0), above = tire_normal_force(p, bottom + 1e-9, 0.0);
  EXPECT_NEAR(above - below, p.vertical_stiffness * 2e-9 + p.rim_stiffness * 1e-9, 1e-4);
  const double past = 0.01;
  EXPECT_NEAR(tire_normal_force(p, bottom + past, 0.0), p.vertical_stiffness * (bottom + past) + p.rim_stiffness * past, 1e-6);
  for (double pen : {0.05, bottom - 0.001, bottom + 0.001, bottom + 0.02}) {
    const double h = 1e-6;
    const double slope = (tire_potential(p, pen + h) - tire_potential(p, pen - h)) / (2.0 * h);
    EXPECT_NEAR(slope, tire_normal_force(p, pen, 0.0), 1e-6 * tire_normal_force(p, pen, 0.0)) << pen;
  }
  // Without a rim (radius 0) the tire never bottoms within its radius.
  TireParams<double> none = p;
  none.rim_radius = 0.0;
  EXPECT_EQ(tire_normal_force(none, 0.4, 0.0), p.vertical_stiffness * 0.4);
}

}  // namespace
}  // namespace fleetdyn
