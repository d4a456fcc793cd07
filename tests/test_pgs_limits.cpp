// Hinge limits (JointKind::HingeLimit): a horizontal arm on a revolute joint falls onto a stop.
//   rigid stop: it rests at the stop angle (within the Baumgarte drift), the stop's impulse per
//     step is the static gravity torque m g l cos(angle);
//   elastic stop (stiffness k, damping c): it rests where k (angle - stop) = m g l cos(angle), the
//     analytic static balance, solved here by Newton;
//   inside the limits a swinging pendulum never touches them (the stop's impulse stays 0);
//   bad limits are rejected with the field named.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "fleetdyn/error.h"
#include "fleetdyn/pgs.h"
#include "tests/pgs_test_util.h"

namespace fleetdyn {
namespace {

using V = Vec3<double>;
constexpr double kG = 9.81, kMass = 2.0, kArm = 0.5, kStep = 1.0e-3;
const V kInertia{0.03, 0.04, 0.02};

PgsSolverSettings settings() { return test::solver_settings(kStep, 1.0e-10, 500); }

// Rotation angle about y of a body turned only about y.
double pitch_angle(const PgsBodyState& b) { return 2.0 * std::atan2(b.orientation.y, b.orientation.w); }

// A body whose COM is kArm from the origin along x (side = +1) or -x (side = -1), on a revolute
// about y at the origin, with a hinge limit [lower, upper] about the same axis. Gravity turns
// the +x arm to positive angles about y, the -x arm to negative ones.
PgsModelDef arm_on_a_stop(double side, double lower, double upper, double stiffness, double damping) {
  PgsModelDef model;
  model.ground.enabled = false;
  PgsBodyDef body;
  body.mass = kMass;
  body.inertia = kInertia;
  body.position = V{side * kArm, 0.0, 0.0};
  model.bodies = {body};
  PgsJointDef hinge;
  hinge.kind = pgs::JointKind::Revolute;
  hinge.body_a = -1;
  hinge.body_b = 0;
  hinge.anchor_b = V{-side * kArm, 0.0, 0.0};
  hinge.axis_a = hinge.axis_b = V{0.0, 1.0, 0.0};
  PgsJointDef limit = hinge;
  limit.kind = pgs::JointKind::HingeLimit;
  limit.lower = lower;
  limit.upper = upper;
  limit.stiffness = stiffness;
  limit.damping = damping;
  model.joints = {hinge, limit};
  return model;
}

// The angle where an elastic stop at `stop` holds the arm: k |angle - stop| = m g l cos(angle).
double elastic_rest_angle(double stop, double side, double k) {
  double angle = stop;
  for (int i = 0; i < 50; ++i) {
    const double f = k * side * (angle - stop) - kMass * kG * kArm * std::cos(angle);
    const double df = k * side + kMass * kG * kArm * std::sin(angle);
    angle -= f / df;
  }
  return angle;
}

TEST(PgsLimits, ArmRestsOnRigidAndElasticStops) {
  const double stop = 0.3;
  for (double side : {1.0, -1.0}) {
    for (double k : {double(INFINITY), 2000.0}) {
      // The elastic stop critically damped about its contact mode, so the rest comes within 2 s.
      const double inertia = kInertia.y + kMass * kArm * kArm;
      const double c = std::isinf(k) ? 0.0 : 2.0 * std::sqrt(k * inertia);
      PgsBatch batch(arm_on_a_stop(side, -stop, stop, k, c), 1, settings(), {BackendKind::Cpu, Precision::Fp64, 1});
      ASSERT_EQ(batch.row_count(), 6);
      double most_beyond = 0.0;
      for (int n = 0; n < 2000; ++n) {
        batch.step(1);
        const double lambda = batch.impulses(0)[5];
        EXPECT_GE(lambda, 0.0) << "a stop only pushes";
        most_beyond = std::max(most_beyond, side * pitch_angle(batch.bodies(0)[0]) - stop);
      }
      const double angle = pitch_angle(batch.bodies(0)[0]);
      const double torque = batch.impulses(0)[5] / kStep;
      const double expected_torque = kMass * kG * kArm * std::cos(angle);
      std::printf("side %+.0f, k %g: rest angle %.7f rad, stop torque %.5f N m (static %.5f), deepest %.2e rad\n", side,
                  k, angle, torque, expected_torque, most_beyond);
      EXPECT_NEAR(torque, expected_torque, 1e-6 * expected_torque);
      if (std::isinf(k)) {
        EXPECT_NEAR(angle, side * stop, 1e-6) << "rigid stop: at the stop";
        EXPECT_LT(most_beyond, 0.01) << "rigid stop: the arrival's overshoot (Baumgarte-corrected)";
      } else {
        const double expected = elastic_rest_angle(side * stop, side, k);
        EXPECT_GT(side * (expected - side * stop), 0.004) << "the elastic stop gives noticeably";
        EXPECT_NEAR(angle, expected, 1e-7) << "elastic stop: the static balance";
      }
      EXPECT_EQ(batch.reports()[0].status, pgs::kStatusOk);
    }
  }
}

// A pendulum hanging below its hinge, swinging +-0.2 rad inside limits of +-0.3 rad: the stop
// rows see the gap every step and never act.
TEST(PgsLimits, PendulumInsideTheLimitsNeverTouchesThem) {
  PgsModelDef model = arm_on_a_stop(1.0, -0.3, 0.3, INFINITY, 0.0);
  model.bodies[0].position = V{0.0, 0.0, -kArm};
  for (PgsJointDef& j : model.joints) j.anchor_b = V{0.0, 0.0, kArm};
  model.bodies[0].omega = V{0.0, 0.2 * std::sqrt(kMass * kG * kArm / (kInertia.y + kMass * kArm * kArm)), 0.0};
  model.bodies[0].velocity = cross(model.bodies[0].omega, model.bodies[0].position);
  PgsBatch batch(model, 1, settings(), {BackendKind::Cpu, Precision::Fp64, 1});
  double largest_angle = 0.0;
  for (int n = 0; n < 3000; ++n) {
    batch.step(1);
    EXPECT_EQ(batch.impulses(0)[5], 0.0) << "step " << n;
    largest_angle = std::max(largest_angle, std::fabs(pitch_angle(batch.bodies(0)[0])));
  }
  EXPECT_GT(largest_angle, 0.19);
  EXPECT_LT(largest_angle, 0.3);
}

TEST(PgsLimits, BadLimitsAreRejected) {
  const auto message = [](const PgsModelDef& model) {
    try {
      PgsBatch batch(model, 1, settings(), {BackendKind::Cpu, Precision::Fp64, 1});
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(message(arm_on_a_stop(1.0, 0.3, 0.3, INFINITY, 0.0)).find("lower < upper"), std::string::npos);
  EXPECT_NE(message(arm_on_a_stop(1.0, -4.0, 0.3, INFINITY, 0.0)).find("-pi < lower"), std::string::npos);
  EXPECT_NE(message(arm_on_a_stop(1.0, -0.3, 0.3, 0.0, 0.0)).find("stiffness"), std::string::npos);
  EXPECT_NE(message(arm_on_a_stop(1.0, -0.3, 0.3, NAN, 0.0)).find("stiffness"), std::string::npos);
  EXPECT_NE(message(arm_on_a_stop(1.0, -0.3, 0.3, 100.0, -1.0)).find("damping"), std::string::npos);
  PgsModelDef planar = arm_on_a_stop(1.0, -0.3, 0.3, INFINITY, 0.0);
  planar.dimension = 2;
  planar.gravity = V{0.0, -kG, 0.0};
  for (PgsJointDef& j : planar.joints) j.axis_a = j.axis_b = V{0.0, 0.0, 1.0};
  EXPECT_NE(message(planar).find("3-D"), std::string::npos) << message(planar);
}

}  // namespace
}  // namespace fleetdyn
