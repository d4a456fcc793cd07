// Analytic double-wishbone kinematics (physics/ce/ce_kinematics.h) on the HMMWV: the design
// position is reproduced, the published derived geometry is recovered, the Pitman mechanism
// behaves as its parallelogram geometry demands, and the motion is continuous and plausible.
#include <gtest/gtest.h>

#include <cmath>

#include "fleetdyn/error.h"
#include "fleetdyn/physics/core/math.h"
#include "fleetdyn/suspension.h"

namespace fleetdyn {
namespace {

constexpr double kDeg = kPi / 180.0;

class HmmwvKinematics : public ::testing::Test {
 protected:
  CeSuspension<double> s = make_ce_suspension(hmmwv_suspension_design());
};

TEST_F(HmmwvKinematics, DesignPositionIsReproducedAtZeroAngles) {
  for (int c = 0; c < kCorners; ++c) {
    const CornerKinematics k = corner_kinematics(s, c, 0.0, 0.0);
    const DoubleWishboneHardpoints<double>& d = s.corner[c].design;
    EXPECT_TRUE(k.pose.assembled);
    EXPECT_LT(norm(k.pose.uca_ball - d.uca_ball), 1e-12) << corner_name(c);
    EXPECT_LT(norm(k.pose.tierod_outer - d.tierod_outer), 1e-12) << corner_name(c);
    EXPECT_LT(norm(k.pose.tierod_inner - d.tierod_inner), 1e-12) << corner_name(c);
    EXPECT_LT(norm(k.pose.wheel_centre - d.wheel_centre), 1e-12) << corner_name(c);
    EXPECT_NEAR(camber_angle(k.pose, s.corner[c].side), 0.0, 1e-12);  // reference: camber = toe = 0
    EXPECT_NEAR(toe_in_angle(k.pose, s.corner[c].side), 0.0, 1e-12);
  }
}

TEST_F(HmmwvKinematics, PublishedDerivedGeometry) {
  // shared/reference/hmmwv.md "Derived design-position geometry".
  const double spring[2] = {0.24646, 0.30602}, shock[2] = {0.37259, 0.36452}, tierod[2] = {0.38654, 0.41412};
  const double caster[2] = {3.0, 0.0};
  for (int c = 0; c < kCorners; ++c) {
    const int axle = c / 2;
    const CornerGeometry<double>& g = s.corner[c];
    const CornerPose<double> p = corner_kinematics(s, c, 0.0, 0.0).pose;
    EXPECT_NEAR(p.spring_length, spring[axle], 1e-5) << corner_name(c);
    EXPECT_NEAR(p.shock_length, shock[axle], 1e-5) << corner_name(c);
    EXPECT_NEAR(g.tierod_length, tierod[axle], 1e-5) << corner_name(c);
    const Vec3<double> k = p.uca_ball - p.lca_ball;
    const double inclination = std::atan2(-g.side * k.y, k.z);  // top of the kingpin leans inboard
    const double caster_angle = std::atan2(-k.x, k.z);          // top of the kingpin leans back
    EXPECT_NEAR(inclination / kDeg, 12.0, 0.05) << corner_name(c);
    EXPECT_NEAR(caster_angle / kDeg, caster[axle], 0.05) << corner_name(c);
  }
}

TEST_F(HmmwvKinematics, LeftAndRightMirror) {
  for (int axle = 0; axle < 2; ++axle) {
    for (double angle : {-0.2, -0.05, 0.1, 0.25}) {
      const CornerPose<double> l = corner_kinematics(s, 2 * axle, angle, 0.0).pose;
      const CornerPose<double> r = corner_kinematics(s, 2 * axle + 1, angle, 0.0).pose;
      EXPECT_NEAR(l.wheel_centre.x, r.wheel_centre.x, 1e-12);
      EXPECT_NEAR(l.wheel_centre.y, -r.wheel_centre.y, 1e-12);
      EXPECT_NEAR(l.wheel_centre.z, r.wheel_centre.z, 1e-12);
      EXPECT_NEAR(camber_angle(l, 1.0), camber_angle(r, -1.0), 1e-12);
      EXPECT_NEAR(toe_in_angle(l, 1.0), toe_in_angle(r, -1.0), 1e-12);
      EXPECT_NEAR(l.uca_angle, r.uca_angle, 1e-12);
    }
  }
}

TEST_F(HmmwvKinematics, PositiveLcaAngleIsBumpAndCompressesTheSpring) {
  for (int c = 0; c < kCorners; ++c) {
    double last_z = -1.0, last_spring = 1.0;
    for (double angle = -0.3; angle <= 0.3; angle += 0.01) {
      const CornerKinematics k = corner_kinematics(s, c, angle, 0.0);
      ASSERT_TRUE(k.pose.assembled) << corner_name(c) << " at " << angle;
      EXPECT_GT(k.pose.wheel_centre.z, last_z);
      EXPECT_LT(k.pose.spring_length, last_spring);
      EXPECT_GT(k.per_lca_rate.wheel_centre_vel.z, 0.0);
      last_z = k.pose.wheel_centre.z;
      last_spring = k.pose.spring_length;
    }
  }
}

TEST_F(HmmwvKinematics, TravelInversionHitsTheRequestedHeight) {
  for (int c = 0; c < kCorners; ++c) {
    for (double travel : {-0.12, -0.03, 0.0, 0.05, 0.12}) {
      const double angle = lca_angle_for_travel(s, c, travel, 0.0);
      const CornerPose<double> p = corner_kinematics(s, c, angle, 0.0).pose;
      EXPECT_NEAR(p.wheel_centre.z - s.corner[c].design.wheel_centre.z, travel, 1e-12);
    }
  }
  EXPECT_THROW(lca_angle_for_travel(s, 0, 1.5, 0.0), Error);
}

TEST_F(HmmwvKinematics, PitmanParallelogramTranslatesTheLinkWithoutTurningIt) {
  // Pitman and idler arms are equal and parallel, so the link's coupler angle never changes and
  // the tierod inner point moves on a circle of the arm length (0.129 m) in the mechanism plane.
  for (double steer : {-0.5, -0.2, 0.0, 0.3, 0.5}) {
    const SteeringLinkState<double> st = steering_link_state(s.steering, steer, 0.7);
    EXPECT_NEAR(st.rotation, 0.0, 1e-12);
    EXPECT_NEAR(st.rate, 0.0, 1e-12);
    EXPECT_NEAR(st.bias_acc, 0.0, 1e-12);
    const TierodInner<double> in = tierod_inner_point(s.corner[0], s.steering, st);
    const Vec3<double> moved = in.pos - s.corner[0].design.tierod_inner;
    EXPECT_NEAR(dot(moved, s.steering.axis), 0.0, 1e-12);                             // stays in the mechanism plane
    EXPECT_NEAR(norm(moved), 2.0 * 0.129 * std::fabs(std::sin(steer / 2.0)), 1e-12);  // chord of the arm circle
  }
}

TEST_F(HmmwvKinematics, SteeringTurnsBothFrontWheelsTheSameWayAndLeavesTheRearAlone) {
  const double full = s.steering.max_angle;
  const double fl = corner_kinematics(s, 0, 0.0, full).pose.steer_angle;
  const double fr = corner_kinematics(s, 1, 0.0, full).pose.steer_angle;
  EXPECT_GT(fl, 15.0 * kDeg);  // + steering angle turns left; the HMMWV reaches about 30 deg
  EXPECT_GT(fr, 15.0 * kDeg);
  EXPECT_LT(fl, 45.0 * kDeg);
  EXPECT_NEAR(corner_kinematics(s, 1, 0.0, -full).pose.steer_angle, -fl, 1e-12);  // mirror
  EXPECT_NEAR(corner_kinematics(s, 2, 0.0, full).pose.steer_angle, 0.0, 1e-12);
  EXPECT_NEAR(corner_kinematics(s, 3, 0.0, full).pose.steer_angle, 0.0, 1e-12);
}

TEST(CeSuspensionDesign, DegenerateDesignIsRejectedWithTheCornerNamed) {
  SuspensionDesign d = hmmwv_suspension_design();
  d.rear.uca_ball = d.rear.lca_ball;
  try {
    make_ce_suspension(d);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("RL"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("kingpin"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace fleetdyn
