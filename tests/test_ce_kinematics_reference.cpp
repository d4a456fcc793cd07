// The analytic 3-D corner kinematics (physics/ce/ce_kinematics.h)
// against an independent numerical reference (tests/reference/ce_reference_kinematics.h: tree-augmented
// model, Newton on the cut joints, X and X_dot theta_dot from seed 001 eqs. 13-14 with exact jet
// derivatives), and against finite differences of the analytic positions themselves.
// Each test prints the worst discrepancy it saw, so the margins are on record.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "fleetdyn/physics/core/math.h"
#include "fleetdyn/suspension.h"
#include "tests/reference/ce_reference_kinematics.h"

namespace fleetdyn {
namespace {

double dist(const Vec3<double>& a, const RefVec3& b) {
  return std::sqrt(sq(a.x - b[0]) + sq(a.y - b[1]) + sq(a.z - b[2]));
}
double dist(const Vec3<double>& a, const Vec3<double>& b) { return norm(a - b); }
double max_entry_diff(const Mat3<double>& a, const RefMat3& b) {
  double e = 0.0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) e = std::max(e, std::fabs(a.m[i][j] - b[i][j]));
  return e;
}

// Worst value of one discrepancy over a sweep, with where it happened (NaN counts as worst).
struct Worst {
  Worst(const char* name) : what(name) {}  // NOLINT: implicit, for brace lists of names
  std::string what;
  double value = 0.0;
  std::string where;
  void add(double e, const std::string& field, int corner, double lca, double steer) {
    if (!(e <= value)) {
      value = e;
      char buf[160];
      std::snprintf(buf, sizeof buf, "%s at %s lca %+.3f steer %+.3f", field.c_str(), corner_name(corner), lca, steer);
      where = buf;
    }
  }
  void print() const { std::printf("  worst %-38s %.3e  (%s)\n", what.c_str(), value, where.c_str()); }
};

// The analytic corner at arbitrary rates (corner_kinematics gives unit rates only).
CornerMotion<double> analytic_motion(const CeSuspension<double>& s, int c, double lca, double steer, double lca_rate,
                                     double steer_rate, double steer_accel = 0.0) {
  const TierodInner<double> inner = tierod_inner_point(s.corner[c], s.steering,
                                                       steering_link_state(s.steering, steer, steer_rate, steer_accel));
  return corner_motion(s.corner[c], corner_pose(s.corner[c], lca, inner), lca_rate, inner);
}
CornerPose<double> analytic_pose(const CeSuspension<double>& s, int c, double lca, double steer) {
  return corner_kinematics(s, c, lca, steer).pose;
}

// Velocities (X columns at the given rates) and bias accelerations, field by field.
void compare_motion(const CornerMotion<double>& a, const ReferenceCornerMotion& r, Worst& vel, Worst& acc, int c,
                    double lca, double steer) {
  vel.add(dist(a.uca_omega, r.uca_omega), "uca_omega", c, lca, steer);
  vel.add(dist(a.upright_omega, r.upright_omega), "upright_omega", c, lca, steer);
  vel.add(dist(a.lca_ball_vel, r.lca_ball_vel), "lca_ball_vel", c, lca, steer);
  vel.add(dist(a.uca_ball_vel, r.uca_ball_vel), "uca_ball_vel", c, lca, steer);
  vel.add(dist(a.tierod_inner_vel, r.tierod_inner_vel), "tierod_inner_vel", c, lca, steer);
  vel.add(dist(a.tierod_outer_vel, r.tierod_outer_vel), "tierod_outer_vel", c, lca, steer);
  vel.add(dist(a.wheel_centre_vel, r.wheel_centre_vel), "wheel_centre_vel", c, lca, steer);
  acc.add(dist(a.uca_alpha, r.uca_alpha), "uca_alpha", c, lca, steer);
  acc.add(dist(a.upright_alpha, r.upright_alpha), "upright_alpha", c, lca, steer);
  acc.add(dist(a.lca_ball_acc, r.lca_ball_acc), "lca_ball_acc", c, lca, steer);
  acc.add(dist(a.uca_ball_acc, r.uca_ball_acc), "uca_ball_acc", c, lca, steer);
  acc.add(dist(a.tierod_inner_acc, r.tierod_inner_acc), "tierod_inner_acc", c, lca, steer);
  acc.add(dist(a.tierod_outer_acc, r.tierod_outer_acc), "tierod_outer_acc", c, lca, steer);
  acc.add(dist(a.wheel_centre_acc, r.wheel_centre_acc), "wheel_centre_acc", c, lca, steer);
}

void compare_pose(const CornerPose<double>& p, const ReferenceCornerState& r, Worst& pos, Worst& rot, int c, double lca,
                  double steer) {
  pos.add(dist(p.lca_ball, r.lca_ball), "lca_ball", c, lca, steer);
  pos.add(dist(p.uca_ball, r.uca_ball), "uca_ball", c, lca, steer);
  pos.add(dist(p.tierod_inner, r.tierod_inner), "tierod_inner", c, lca, steer);
  pos.add(dist(p.tierod_outer, r.tierod_outer), "tierod_outer", c, lca, steer);
  pos.add(dist(p.wheel_centre, r.wheel_centre), "wheel_centre", c, lca, steer);
  rot.add(max_entry_diff(p.upright_rotation, r.upright_rotation), "upright_rotation", c, lca, steer);
  rot.add(dist(p.spin_axis, r.spin_axis), "spin_axis", c, lca, steer);
  rot.add(std::fabs(p.uca_angle - r.uca_angle), "uca_angle", c, lca, steer);
}

// Steering angles of a sweep: five across the range on a steered corner, the extremes on a rear one
// (where steering must change nothing).
std::vector<double> steer_angles(const CeSuspension<double>& s, int c) {
  const double m = s.steering.max_angle;
  if (c < 2) return {-m, -0.5 * m, 0.0, 0.5 * m, m};
  return {-m, 0.0, m};
}

// Rates for the bias comparisons: bump/rebound with and without steering [rad/s].
constexpr double kRates[3][2] = {{1.5, 0.0}, {-2.0, 0.8}, {0.7, -1.2}};

// The reference and the analytic kinematics over the full travel, all corners, steering range.
// Tolerances: both sides are exact in exact arithmetic, so only roundoff separates them: positions
// are O(2 m) (ulp 4e-16) and go through a few dozen operations, so 1e-10 m is a 1e5 x margin;
// velocities are ratios of O(0.1 m^2) projections, 1e-8 per unit rate is the required accuracy.
void compare_over_sweep(const CeSuspension<double>& s, const ReferenceSuspension& ref, double lca_max, Worst* w) {
  for (int c = 0; c < kCorners; ++c)
    for (double steer : steer_angles(s, c))
      for (double lca = -lca_max; lca <= lca_max + 1e-9; lca += 0.05) {
        const CornerKinematics k = corner_kinematics(s, c, lca, steer);
        const ReferenceCornerState r = solve_reference_corner(ref, c, lca, steer, kRates[1][0], kRates[1][1]);
        ASSERT_TRUE(k.pose.assembled) << corner_name(c) << " lca " << lca << " steer " << steer;
        ASSERT_TRUE(r.converged) << corner_name(c) << " lca " << lca << " steer " << steer;
        w[6].add(r.residual, "residual", c, lca, steer);
        compare_pose(k.pose, r, w[0], w[1], c, lca, steer);
        compare_motion(k.per_lca_rate, r.per_lca_rate, w[2], w[4], c, lca, steer);
        compare_motion(k.per_steer_rate, r.per_steer_rate, w[3], w[4], c, lca, steer);
        // Bias terms at combined rates (the analytic one is not a sum of the unit-rate ones).
        const CornerMotion<double> a = analytic_motion(s, c, lca, steer, kRates[1][0], kRates[1][1]);
        Worst ignored("");
        compare_motion(a, r.at_rates, ignored, w[5], c, lca, steer);
      }
}

// compare_over_sweep within its tolerances, the worst of each discrepancy printed. Bias
// accelerations are O(r omega^2), 1 to ~30 (m or rad)/s^2 (the most at full rebound, where the UCA
// nears its toggle), so 1e-8 is <= 1e-8 relative; roundoff in the analytic chain (four
// projections, each divided by a lever that stays above ~0.5 of its length) is ~1e-13.
void expect_agreement_over_sweep(const CeSuspension<double>& s, const ReferenceSuspension& ref, double lca_max) {
  Worst w[7] = {{"position [m]"},
                {"rotation / uca angle [-, rad]"},
                {"X lca column [m/rad, rad/rad]"},
                {"X steer column [m/rad, rad/rad]"},
                {"bias acc at unit rates"},
                {"bias acc (combined)"},
                {"reference residual [m]"}};
  compare_over_sweep(s, ref, lca_max, w);
  for (const Worst& x : w) x.print();
  const double tolerance[7] = {1e-10, 1e-10, 1e-8, 1e-8, 1e-8, 1e-8, 1e-13};
  for (int i = 0; i < 7; ++i) EXPECT_LT(w[i].value, tolerance[i]) << w[i].where;
}

class ReferenceKinematics : public ::testing::Test {
 protected:
  SuspensionDesign design = hmmwv_suspension_design();
  CeSuspension<double> s = make_ce_suspension(design);
  ReferenceSuspension ref = make_reference_suspension(design);
};

TEST_F(ReferenceKinematics, AnalyticAgreesWithNewtonReferenceOverTheFullTravel) {
  EXPECT_EQ(ref.steering.input_sign, s.steering.input_sign);
  expect_agreement_over_sweep(s, ref, 0.35);
}

TEST_F(ReferenceKinematics, SweepCoversTheFullWheelTravel) {
  // +-0.15 m of wheel travel lies inside the +-0.35 rad LCA sweep on every corner and steering.
  for (int c = 0; c < kCorners; ++c)
    for (double steer : steer_angles(s, c))
      for (double travel : {-0.15, 0.15}) EXPECT_LT(std::fabs(lca_angle_for_travel(s, c, travel, steer)), 0.35);
}

Vec3<double> vee_of_skew(const double m[3][3]) {
  return {0.5 * (m[2][1] - m[1][2]), 0.5 * (m[0][2] - m[2][0]), 0.5 * (m[1][0] - m[0][1])};
}

// Requirement 3.2: X against central differences of the analytic positions.
// Step h = 1e-5 rad: roundoff eps |p| / h with |p| ~ 2 m, a few ulp, is ~1e-10; truncation
// h^2/6 |p'''| is ~2e-11 for |p'''| ~ 1 m, but at full rebound (-0.35 rad) the UCA four-bar is
// heading for its toggle near -0.47 rad (kingpin within 57 deg of the UCA ball joint's path) and
// |p'''| reaches ~1e2, so ~2e-9 there. Checked at 1e-8.
TEST_F(ReferenceKinematics, VelocitiesMatchCentralDifferencesOfAnalyticPositions) {
  constexpr double h = 1e-5;
  Worst lca_col{"FD X lca column"}, steer_col{"FD X steer column"};
  for (int c = 0; c < kCorners; ++c)
    for (double steer : steer_angles(s, c))
      for (double lca = -0.35; lca <= 0.35 + 1e-9; lca += 0.05) {
        const CornerKinematics k = corner_kinematics(s, c, lca, steer);
        const CornerPose<double> p[2][2] = {{analytic_pose(s, c, lca + h, steer), analytic_pose(s, c, lca - h, steer)},
                                            {analytic_pose(s, c, lca, steer + h), analytic_pose(s, c, lca, steer - h)}};
        const CornerMotion<double>* m[2] = {&k.per_lca_rate, &k.per_steer_rate};
        Worst* w[2] = {&lca_col, &steer_col};
        for (int col = 0; col < 2; ++col) {
          const CornerPose<double>& a = p[col][0];
          const CornerPose<double>& b = p[col][1];
          auto fd = [&](Vec3<double> pa, Vec3<double> pb) { return (pa - pb) * (0.5 / h); };
          w[col]->add(dist(fd(a.wheel_centre, b.wheel_centre), m[col]->wheel_centre_vel), "wheel_centre_vel", c, lca, steer);
          w[col]->add(dist(fd(a.tierod_outer, b.tierod_outer), m[col]->tierod_outer_vel), "tierod_outer_vel", c, lca, steer);
          w[col]->add(dist(fd(a.tierod_inner, b.tierod_inner), m[col]->tierod_inner_vel), "tierod_inner_vel", c, lca, steer);
          w[col]->add(dist(fd(a.uca_ball, b.uca_ball), m[col]->uca_ball_vel), "uca_ball_vel", c, lca, steer);
          w[col]->add(std::fabs((a.uca_angle - b.uca_angle) * (0.5 / h) - dot(m[col]->uca_omega, s.corner[c].uca_axis)),
                      "uca_rate", c, lca, steer);
          // [omega]x = R' R^T, R' by central differences.
          double wx[3][3];
          for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) {
              wx[i][j] = 0.0;
              for (int l = 0; l < 3; ++l)
                wx[i][j] += (a.upright_rotation.m[i][l] - b.upright_rotation.m[i][l]) * (0.5 / h) *
                            k.pose.upright_rotation.m[j][l];
            }
          const Vec3<double> omega = vee_of_skew(wx);
          w[col]->add(dist(omega, m[col]->upright_omega), "upright_omega", c, lca, steer);
        }
      }
  lca_col.print();
  steer_col.print();
  EXPECT_LT(lca_col.value, 1e-8) << lca_col.where;
  EXPECT_LT(steer_col.value, 1e-8) << steer_col.where;
}

// Requirement 3.2: the velocity-product terms (seed eq. 14) are the second time derivatives of the
// analytic positions along theta(t) = theta0 + w t, steer(t) = s0 + sw t (zero accelerations).
// A second difference D(h) errs by h^2/12 |p''''|, and |p''''| grows to ~5e4 near full rebound
// (the UCA toggle, see above), so one step cannot do it: Richardson (4 D(h/2) - D(h)) / 3 cancels
// the h^2 term. With h = 1e-3 s the h^4 remainder is <~ 2e-7 there (it falls 16x per halving of
// h, checked) and the roundoff 16/3 * 4 eps |p| / h^2 (|p| ~ 2 m) is ~1e-8. Checked at 1e-6
// against bias accelerations up to ~30 (rad or m)/s^2.
TEST_F(ReferenceKinematics, BiasAccelerationsMatchSecondDifferencesAlongATrajectory) {
  constexpr double h = 1e-3;
  Worst acc{"FD bias accelerations [m/s^2, rad/s^2]"};
  for (int c = 0; c < kCorners; ++c)
    for (double steer : steer_angles(s, c))
      for (double lca = -0.35; lca <= 0.35 + 1e-9; lca += 0.05)
        for (const auto& rate : kRates) {
          const double w = rate[0], sw = rate[1];
          const CornerMotion<double> m = analytic_motion(s, c, lca, steer, w, sw);
          auto at = [&](double t) { return analytic_pose(s, c, lca + w * t, steer + sw * t); };
          const CornerPose<double> p0 = at(0.0), pp[2] = {at(h), at(0.5 * h)}, pm[2] = {at(-h), at(-0.5 * h)};
          const double step2[2] = {h * h, 0.25 * h * h};
          // Richardson-extrapolated second derivative of a point.
          auto dd = [&](Vec3<double> CornerPose<double>::*point) {
            Vec3<double> d[2];
            for (int k = 0; k < 2; ++k) d[k] = (pp[k].*point - 2.0 * (p0.*point) + pm[k].*point) * (1.0 / step2[k]);
            return (4.0 * d[1] - d[0]) * (1.0 / 3.0);
          };
          acc.add(dist(dd(&CornerPose<double>::wheel_centre), m.wheel_centre_acc), "wheel_centre_acc", c, lca, steer);
          acc.add(dist(dd(&CornerPose<double>::tierod_outer), m.tierod_outer_acc), "tierod_outer_acc", c, lca, steer);
          acc.add(dist(dd(&CornerPose<double>::tierod_inner), m.tierod_inner_acc), "tierod_inner_acc", c, lca, steer);
          acc.add(dist(dd(&CornerPose<double>::uca_ball), m.uca_ball_acc), "uca_ball_acc", c, lca, steer);
          acc.add(dist(dd(&CornerPose<double>::lca_ball), m.lca_ball_acc), "lca_ball_acc", c, lca, steer);
          // [alpha]x = skew(R'' R^T) (R' R'^T is symmetric and drops out); R'' as above.
          double ax[2][3][3];
          for (int k = 0; k < 2; ++k)
            for (int i = 0; i < 3; ++i)
              for (int j = 0; j < 3; ++j) {
                ax[k][i][j] = 0.0;
                for (int l = 0; l < 3; ++l) {
                  const double r2 = (pp[k].upright_rotation.m[i][l] - 2.0 * p0.upright_rotation.m[i][l] +
                                     pm[k].upright_rotation.m[i][l]) /
                                    step2[k];
                  ax[k][i][j] += r2 * p0.upright_rotation.m[j][l];
                }
              }
          const Vec3<double> alpha = (4.0 * vee_of_skew(ax[1]) - vee_of_skew(ax[0])) * (1.0 / 3.0);
          acc.add(dist(alpha, m.upright_alpha), "upright_alpha", c, lca, steer);
        }
  acc.print();
  EXPECT_LT(acc.value, 1e-6) << acc.where;
}

// A steering acceleration enters linearly: the accelerations are J q_ddot + J_dot q_dot with
// q_ddot = X (0, steer_ddot) + X_dot theta_dot, i.e. the bias plus steer_ddot times the steering
// column of X. Both reference parts are exact, so the same roundoff bound as above applies.
TEST_F(ReferenceKinematics, SteeringAccelerationAddsTheSteeringColumn) {
  constexpr double steer_accel = 3.0;  // [rad/s^2]
  Worst acc{"acc with steering acceleration"};
  for (int c = 0; c < kCorners; ++c)
    for (double steer : steer_angles(s, c))
      for (double lca : {-0.3, 0.0, 0.3}) {
        const ReferenceCornerState r = solve_reference_corner(ref, c, lca, steer, kRates[2][0], kRates[2][1]);
        const CornerMotion<double> a = analytic_motion(s, c, lca, steer, kRates[2][0], kRates[2][1], steer_accel);
        auto plus = [&](const RefVec3& bias, const RefVec3& per_steer) {
          return RefVec3{bias[0] + steer_accel * per_steer[0], bias[1] + steer_accel * per_steer[1],
                         bias[2] + steer_accel * per_steer[2]};
        };
        const ReferenceCornerMotion& b = r.at_rates;
        const ReferenceCornerMotion& x = r.per_steer_rate;
        acc.add(dist(a.upright_alpha, plus(b.upright_alpha, x.upright_omega)), "upright_alpha", c, lca, steer);
        acc.add(dist(a.uca_alpha, plus(b.uca_alpha, x.uca_omega)), "uca_alpha", c, lca, steer);
        acc.add(dist(a.tierod_inner_acc, plus(b.tierod_inner_acc, x.tierod_inner_vel)), "tierod_inner_acc", c, lca, steer);
        acc.add(dist(a.tierod_outer_acc, plus(b.tierod_outer_acc, x.tierod_outer_vel)), "tierod_outer_acc", c, lca, steer);
        acc.add(dist(a.wheel_centre_acc, plus(b.wheel_centre_acc, x.wheel_centre_vel)), "wheel_centre_acc", c, lca, steer);
      }
  acc.print();
  EXPECT_LT(acc.value, 1e-8) << acc.where;
}

// The reference checks itself: Newton closes every cut to roundoff, eq. 14 zeroes the
// acceleration-level constraint error, and X agrees with differences of its own Newton positions
// (so the jets and the solver agree, independent of the analytic code; h = 1e-5 as above).
TEST_F(ReferenceKinematics, ReferenceIsSelfConsistent) {
  constexpr double h = 1e-5;
  Worst residual{"reference residual [m]"}, acc_error{"reference d2C/dt2 after eq. 14"}, fd{"reference X vs own FD"};
  for (int c = 0; c < kCorners; ++c)
    for (double lca : {-0.35, -0.1, 0.0, 0.2, 0.35}) {
      const double steer = 0.7 * s.steering.max_angle;
      const ReferenceCornerState r = solve_reference_corner(ref, c, lca, steer, 2.0, -1.0);
      EXPECT_TRUE(r.converged);
      residual.add(r.residual, "residual", c, lca, steer);
      acc_error.add(r.at_rates.acc_constraint_error, "at_rates", c, lca, steer);
      const ReferenceCornerState a = solve_reference_corner(ref, c, lca + h, steer);
      const ReferenceCornerState b = solve_reference_corner(ref, c, lca - h, steer);
      for (int i = 0; i < kRefCoordinates; ++i)
        fd.add(std::fabs((a.q[i] - b.q[i]) / (2.0 * h) - r.velocity_map[i][0]), "q_dot", c, lca, steer);
      for (int i = 0; i < 3; ++i)
        fd.add(std::fabs((a.wheel_centre[i] - b.wheel_centre[i]) / (2.0 * h) - r.per_lca_rate.wheel_centre_vel[i]),
               "wheel_centre_vel", c, lca, steer);
    }
  residual.print();
  acc_error.print();
  fd.print();
  EXPECT_LT(residual.value, 1e-13) << residual.where;
  EXPECT_LT(acc_error.value, 1e-12) << acc_error.where;
  EXPECT_LT(fd.value, 1e-8) << fd.where;
}

// A made-up corner that is neither planar nor symmetric: every HMMWV hardpoint moved by up to 4 cm
// in a fixed pseudo-random pattern, the whole left-side design turned 7 deg about a skew axis, and
// a Pitman mechanism that is NOT a parallelogram (so the steering link turns) on a different pitch.
// The agreement must not be an accident of the HMMWV numbers.
SuspensionDesign made_up_design() {
  SuspensionDesign d = hmmwv_suspension_design();
  unsigned state = 12345u;
  auto jitter = [&state]() {  // uniform in [-0.04, 0.04] m, deterministic
    state = state * 1664525u + 1013904223u;
    return 0.08 * (static_cast<double>(state >> 8) / 16777216.0 - 0.5);
  };
  const Vec3<double> axis = normalized_or(Vec3<double>{0.3, -0.5, 0.8}, Vec3<double>{1, 0, 0});
  for (DoubleWishboneHardpoints<double>* h : {&d.front, &d.rear}) {
    Vec3<double>* p = &h->lca_front;
    for (int i = 0; i < static_cast<int>(sizeof(*h) / sizeof(Vec3<double>)); ++i) {
      p[i] = p[i] + Vec3<double>{jitter(), jitter(), jitter()};
      p[i] = rotate_about(axis, 7.0 * kPi / 180.0, p[i]);
    }
  }
  d.steering.pitch = 9.0 * kPi / 180.0;
  d.steering.origin = {1.21, 0.02, 0.12};
  d.steering.idler_pivot = {0.01, -0.31, 0.0};
  d.steering.idler_link = {0.115, -0.335, 0.0};  // idler arm 0.108 m vs Pitman 0.129 m, link not parallel
  return d;
}

TEST(ReferenceKinematicsMadeUp, NonPlanarSkewedDesignAgreesToo) {
  const SuspensionDesign design = made_up_design();
  const CeSuspension<double> s = make_ce_suspension(design);
  const ReferenceSuspension ref = make_reference_suspension(design);
  EXPECT_EQ(ref.steering.input_sign, s.steering.input_sign);
  // The link does turn (the HMMWV parallelogram never exercises that path).
  EXPECT_GT(std::fabs(steering_link_state(s.steering, s.steering.max_angle, 0.0).rotation), 0.01);
  expect_agreement_over_sweep(s, ref, 0.3);
}

}  // namespace
}  // namespace fleetdyn
