// A planar reference: on a PLANAR double wishbone (arm axes parallel, every joint in one
// plane) the 3-D closures of ce_kinematics.h must reproduce the seed's planar closed forms
// exactly: the four-bar (seed 001 eqs. 15-27, fourbar.h) for the UCA and upright angles, their
// rates p and q and the second-order terms, and the shock loop (seed eqs. 28-30).
#include <gtest/gtest.h>

#include <cmath>

#include "fleetdyn/physics/ce/ce_kinematics.h"

namespace fleetdyn {
namespace {

// A made-up planar left corner in the y-z plane (x = 0), arms pivoting about x. The tierod
// leaves the plane (it has to, to steer), which must not disturb the in-plane loop.
DoubleWishboneHardpoints<double> planar_corner() {
  DoubleWishboneHardpoints<double> h{};
  h.lca_front = {0.2, 0.30, 0.0};
  h.lca_back = {-0.2, 0.30, 0.0};
  h.lca_ball = {0.0, 0.80, -0.10};
  h.lca_com = {0.0, 0.55, -0.05};
  h.uca_front = {0.15, 0.46, 0.26};
  h.uca_back = {-0.15, 0.46, 0.26};
  h.uca_ball = {0.0, 0.72, 0.22};
  h.uca_com = {0.0, 0.59, 0.24};
  h.upright_com = {0.0, 0.76, 0.0};
  h.wheel_centre = {0.0, 0.92, -0.02};
  h.tierod_inner = {-0.16, 0.42, 0.05};
  h.tierod_outer = {-0.16, 0.82, 0.0};
  h.spring_chassis = {0.0, 0.50, 0.30};
  h.spring_arm = {0.0, 0.56, -0.04};
  h.shock_chassis = {0.0, 0.52, 0.33};
  h.shock_arm = {0.0, 0.58, -0.05};
  return h;
}

struct PlanarFrame {  // seed Fig. 5 complex plane: rocker pivot G at the origin, A on the real axis
  Vec3<double> g, real, imag;
  double angle(Vec3<double> v) const { return std::atan2(dot(v, imag), dot(v, real)); }
};

double wrap(double a) { return std::atan2(std::sin(a), std::cos(a)); }

TEST(CePlanarSpecialCase, FourBarClosedFormsAreReproduced) {
  const CornerGeometry<double> g = make_corner_geometry(planar_corner(), 0.0, 1.0, false);
  // The pivot-axis points in the plane x = 0: A (LCA) and G (UCA).
  const Vec3<double> a_pt{0.0, 0.30, 0.0}, g_pt{0.0, 0.46, 0.26};
  PlanarFrame f;
  f.g = g_pt;
  f.real = (a_pt - g_pt) * (1.0 / norm(a_pt - g_pt));
  f.imag = cross(Vec3<double>{1.0, 0.0, 0.0}, f.real);  // real x imag = +x, the arms' rotation axis
  const DoubleWishboneHardpoints<double>& d = g.design;
  const double a = norm(a_pt - g_pt), b = norm(d.lca_ball - a_pt), c = norm(d.lca_ball - d.uca_ball),
               dd = norm(d.uca_ball - g_pt);
  const double theta_design = f.angle(d.lca_ball - a_pt);
  // The seed's branch sign (eq. 20) that the design configuration is on.
  const double theta4_design = f.angle(d.uca_ball - g_pt);
  double branch = 1.0;
  if (std::fabs(wrap(solve_four_bar(a, b, c, dd, theta_design, 1.0, 0.0).theta4 - theta4_design)) > 1e-9) branch = -1.0;
  const TierodInner<double> fixed{d.tierod_inner, {0, 0, 0}, {0, 0, 0}};
  int checked = 0;
  for (double lca = -0.25; lca <= 0.351; lca += 0.05) {  // this linkage toggles near -0.32 rad
    const double rate = 2.3;                             // [rad/s] for the second-order terms
    const CornerPose<double> pose = corner_pose(g, lca, fixed);
    const CornerMotion<double> m = corner_motion(g, pose, rate, fixed);
    const double theta = f.angle(pose.lca_ball - a_pt);
    EXPECT_NEAR(wrap(theta - theta_design), lca, 1e-12);
    const FourBarSolution<double> fb = solve_four_bar(a, b, c, dd, theta, branch, rate);
    ASSERT_TRUE(fb.assembled);
    // Absolute angles (seed eqs. 20-21): rocker GF and coupler FD.
    EXPECT_NEAR(wrap(f.angle(pose.uca_ball - g_pt) - fb.theta4), 0.0, 1e-12) << lca;
    EXPECT_NEAR(wrap(f.angle(pose.lca_ball - pose.uca_ball) - fb.theta3), 0.0, 1e-12) << lca;
    // Rates (seed eqs. 25-26): UCA turns at q theta_dot, the upright (coupler) at p theta_dot,
    // both about +x; the upright's spin about its kingpin lies in the plane and adds no x part.
    EXPECT_NEAR(m.uca_omega.x, fb.q * rate, 1e-11) << lca;
    EXPECT_NEAR(m.upright_omega.x, fb.p * rate, 1e-11) << lca;
    EXPECT_NEAR(m.uca_omega.y, 0.0, 1e-12);
    // Second-order terms (seed eq. 14 for the four-bar): theta3'' and theta4'' at theta'' = 0.
    EXPECT_NEAR(m.uca_alpha.x, fb.theta4_bias, 1e-10) << lca;
    EXPECT_NEAR(m.upright_alpha.x, fb.theta3_bias, 1e-10) << lca;
    // The seed's X for the four-bar (eq. 27): relative joint rates [p - 1, q - p, -q].
    const double x_col[3] = {m.upright_omega.x / rate - 1.0, (m.uca_omega.x - m.upright_omega.x) / rate, -m.uca_omega.x / rate};
    EXPECT_NEAR(x_col[0], fb.p - 1.0, 1e-11);
    EXPECT_NEAR(x_col[1], fb.q - fb.p, 1e-11);
    EXPECT_NEAR(x_col[2], -fb.q, 1e-11);
    ++checked;
  }
  EXPECT_EQ(checked, 13);
}

TEST(CePlanarSpecialCase, ShockLoopClosedFormIsReproduced) {
  // Seed eqs. 28-30 with A the LCA pivot, J the shock's chassis end, B its end on the LCA:
  //   x e^{i beta} - y e^{i eta} = z e^{i gamma},  z_dot = y sin(eta - gamma) eta_dot.
  const CornerGeometry<double> g = make_corner_geometry(planar_corner(), 0.0, 1.0, false);
  const Vec3<double> a_pt{0.0, 0.30, 0.0};
  PlanarFrame f;
  f.real = Vec3<double>{0.0, 1.0, 0.0};
  f.imag = cross(Vec3<double>{1.0, 0.0, 0.0}, f.real);
  const DoubleWishboneHardpoints<double>& d = g.design;
  const double x = norm(d.shock_chassis - a_pt), y = norm(d.shock_arm - a_pt);
  const double beta = f.angle(d.shock_chassis - a_pt);
  const TierodInner<double> fixed{d.tierod_inner, {0, 0, 0}, {0, 0, 0}};
  for (double lca = -0.3; lca <= 0.3; lca += 0.1) {
    const CornerPose<double> pose = corner_pose(g, lca, fixed);
    const CornerMotion<double> m = corner_motion(g, pose, 1.0, fixed);
    const double eta = f.angle(pose.shock_arm - a_pt);
    const double gamma = std::atan2(x * std::sin(beta) - y * std::sin(eta), x * std::cos(beta) - y * std::cos(eta));
    const double z = (x * std::cos(beta) - y * std::cos(eta)) / std::cos(gamma);
    EXPECT_NEAR(pose.shock_length, z, 1e-12) << lca;
    // The shock extends (z_dot > 0) when the LCA drops: our rate is d|J - B|/dtheta.
    EXPECT_NEAR(m.shock_rate, y * std::sin(eta - gamma), 1e-12) << lca;
  }
}

}  // namespace
}  // namespace fleetdyn
