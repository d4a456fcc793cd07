// What the solver reports instead of returning NaN: singular rows, inconsistent constraints,
// non-finite results (per system, the others unaffected), and the errors bad inputs raise.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "fleetdyn/error.h"
#include "fleetdyn/pgs.h"
#include "tests/strut_test_util.h"

namespace fleetdyn {
namespace {

using test::error_of;
using V = Vec3<double>;

PgsBodyDef free_body(V position) {
  PgsBodyDef b;
  b.mass = 1.0;
  b.inertia = {0.1, 0.1, 0.1};
  b.position = position;
  return b;
}

// A model without ground of the given bodies and joints.
PgsModelDef without_ground(std::vector<PgsBodyDef> bodies, std::vector<PgsJointDef> joints = {}) {
  PgsModelDef m;
  m.ground.enabled = false;
  m.bodies = std::move(bodies);
  m.joints = std::move(joints);
  return m;
}

bool all_finite(const std::vector<PgsBodyState>& s) {
  for (const auto& b : s) {
    for (double v : {b.position.x, b.position.y, b.position.z, b.velocity.x, b.velocity.y, b.velocity.z, b.omega.x,
                     b.omega.y, b.omega.z, b.orientation.w, b.orientation.x, b.orientation.y, b.orientation.z})
      if (!std::isfinite(v)) return false;
  }
  return true;
}

TEST(PgsStatus, DistanceJointWithCoincidentPointsIsASingularRow) {
  PgsJointDef j{pgs::JointKind::Distance, -1, 0};
  j.length = 0.5;  // the points coincide: |d| = 0 has no direction
  const PgsModelDef m = without_ground({free_body({0.0, 0.0, 0.0})}, {j});
  PgsBatch batch(m, 1, {}, {BackendKind::Cpu, Precision::Fp64, 1});
  batch.step(1);
  const PgsReport rep = batch.reports()[0];
  EXPECT_TRUE(rep.status & pgs::kStatusSingularRow);
  EXPECT_FALSE(rep.status & pgs::kStatusNonFinite);
  EXPECT_TRUE(all_finite(batch.bodies(0)));
  EXPECT_EQ(batch.impulses(0)[0], 0.0);                               // the dropped row does not act
  EXPECT_NEAR(batch.bodies(0)[0].velocity.z, -9.81 * 1.0e-3, 1e-12);  // the body falls freely
  // Once apart, the points define a direction again and the row acts (the flag stays: sticky).
  batch.step(100);
  EXPECT_TRUE(all_finite(batch.bodies(0)));
  EXPECT_NE(batch.impulses(0)[0], 0.0);
}

TEST(PgsStatus, JointBetweenWorldAndKinematicBodyIsSingular) {
  PgsBodyDef carrier;
  carrier.kinematic = true;
  carrier.motion_velocity = {1.0, 0.0, 0.0};
  const PgsModelDef m = without_ground({carrier}, {PgsJointDef{pgs::JointKind::Ball, -1, 0}});
  PgsBatch batch(m, 1, {}, {BackendKind::Cpu, Precision::Fp64, 1});
  batch.step(5);
  EXPECT_TRUE(batch.reports()[0].status & pgs::kStatusSingularRow);
  EXPECT_NEAR(batch.bodies(0)[0].position.x, 0.005, 1e-12);  // the motion law wins
}

TEST(PgsStatus, InconsistentConstraintsAreReportedNotConvergedAndStayFinite) {
  // One body held at the same body point by two world anchors 1 m apart: no velocity meets both
  // position corrections.
  const PgsJointDef a{pgs::JointKind::Ball, -1, 0};
  PgsJointDef b = a;
  b.anchor_a = {1.0, 0.0, 0.0};
  const PgsModelDef m = without_ground({free_body({0.0, 0.0, 0.0})}, {a, b});
  PgsSolverSettings s;
  s.max_iterations = 50;
  PgsBatch batch(m, 1, s, {BackendKind::Cpu, Precision::Fp64, 1});
  batch.step(20);
  const PgsReport rep = batch.reports()[0];
  std::printf("inconsistent: status %d, sweeps %d, bilateral residual %.3e m/s, drift %.3f m\n", rep.status,
              rep.iterations, rep.residual_bilateral, rep.drift);
  EXPECT_TRUE(rep.status & pgs::kStatusNotConverged);
  EXPECT_FALSE(rep.status & pgs::kStatusNonFinite);
  EXPECT_GT(rep.residual_bilateral, 1.0);
  EXPECT_TRUE(all_finite(batch.bodies(0)));
  for (double l : batch.impulses(0)) EXPECT_TRUE(std::isfinite(l));
}

TEST(PgsStatus, NonFiniteResultFreezesOnlyThatSystem) {
  // fp32: a spin of 1e25 rad/s overflows the gyroscopic term (omega x I omega ~ 1e50): that
  // system's step is discarded and it is frozen; its neighbour steps on.
  PgsBodyDef b = free_body({0.0, 0.0, 0.0});
  b.inertia = {0.1, 0.2, 0.3};
  const PgsModelDef m = without_ground({b});
  PgsBatch batch(m, 2, {}, {BackendKind::Cpu, Precision::Fp32, 1});
  PgsBodyState wild{{0.0, 0.0, 0.0}, {1.0, 0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}, {1.0e25, 2.0e25, 0.5e25}};
  batch.set_state(1, {wild});
  batch.step(3);
  const auto reports = batch.reports();
  EXPECT_EQ(reports[0].status, pgs::kStatusOk);
  EXPECT_TRUE(reports[1].status & pgs::kStatusNonFinite);
  EXPECT_TRUE(all_finite(batch.bodies(1)));
  EXPECT_EQ(batch.time(1), 0.0);  // frozen before its first step
  EXPECT_NEAR(batch.time(0), 3.0e-3, 1e-9);
  batch.set_state(1, {PgsBodyState{{0.0, 0.0, 0.0}, {1.0, 0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}}});
  batch.step(1);
  EXPECT_EQ(batch.reports()[1].status, pgs::kStatusOk);  // set_state clears it
}

TEST(PgsStatus, BadInputsThrowNamingTheField) {
  const PgsModelDef good = without_ground({free_body({0.0, 0.0, 0.0})});
  auto build = [](const PgsModelDef& m, PgsSolverSettings s = {}) {
    PgsBatch batch(m, 1, s, {BackendKind::Cpu, Precision::Fp64, 1});
  };
  EXPECT_EQ(error_of([&] { build(good); }), "");

  PgsModelDef m = good;
  m.bodies[0].mass = 0.0;
  EXPECT_NE(error_of([&] { build(m); }).find("body 0: mass"), std::string::npos);
  m = good;
  m.bodies[0].inertia.y = -1.0;
  EXPECT_NE(error_of([&] { build(m); }).find("body 0: principal inertia"), std::string::npos);
  m = good;
  m.joints = {PgsJointDef{pgs::JointKind::Ball, -1, 3}};
  EXPECT_NE(error_of([&] { build(m); }).find("joint 0: body_b = 3"), std::string::npos);
  m = good;
  m.joints = {PgsJointDef{pgs::JointKind::Ball, 0, 0}};
  EXPECT_NE(error_of([&] { build(m); }).find("must differ"), std::string::npos);
  m = good;
  m.dimension = 2;
  m.gravity = {0.0, -9.81, 0.0};
  m.joints = {PgsJointDef{pgs::JointKind::Universal, -1, 0}};
  EXPECT_NE(error_of([&] { build(m); }).find("universal joint needs a 3-D model"), std::string::npos);
  m = good;
  m.dimension = 2;
  EXPECT_NE(error_of([&] { build(m); }).find("gravity must lie in the x-y plane"), std::string::npos);
  m = good;
  m.contacts = {PgsContactDef{0, {0.0, 0.0, 0.0}, 0.1, 0.5, 0.0}};
  EXPECT_NE(error_of([&] { build(m); }).find("contacts need the ground"), std::string::npos);
  m.ground.enabled = true;
  m.contacts[0].friction = -0.1;
  EXPECT_NE(error_of([&] { build(m); }).find("contact 0: friction"), std::string::npos);
  m = good;
  m.bodies[0].velocity.x = std::numeric_limits<double>::quiet_NaN();
  EXPECT_NE(error_of([&] { build(m); }).find("must be finite"), std::string::npos);
  PgsSolverSettings s;
  s.step = 0.0;
  EXPECT_NE(error_of([&] { build(good, s); }).find("settings: step"), std::string::npos);
  s = {};
  s.baumgarte = 1.5;
  EXPECT_NE(error_of([&] { build(good, s); }).find("settings: baumgarte"), std::string::npos);
  EXPECT_NE(error_of([&] { PgsBatch b(good, 0); }).find("system_count"), std::string::npos);
  PgsBatch batch(good, 1, {}, {BackendKind::Cpu, Precision::Fp64, 1});
  EXPECT_NE(error_of([&] { batch.bodies(1); }).find("system 1 out of range"), std::string::npos);
  EXPECT_NE(error_of([&] { batch.set_state(0, {}); }).find("0 body states for a model of 1 bodies"), std::string::npos);
  EXPECT_NE(error_of([&] { batch.step(-1); }).find("step count"), std::string::npos);
}

// Without a device, asking for CUDA is refused by name and auto falls back to the CPU; with one,
// both run on it.
TEST(PgsStatus, CudaBackendFollowsTheDevice) {
  std::string why;
  const PgsModelDef m = without_ground({free_body({0.0, 0.0, 0.0})});
  if (cuda_available(&why)) {
    PgsBatch cuda(m, 1, {}, {BackendKind::Cuda});
    EXPECT_EQ(cuda.backend(), BackendKind::Cuda);
    PgsBatch automatic(m, 1, {}, {BackendKind::Auto});
    EXPECT_EQ(automatic.backend(), BackendKind::Cuda);
    return;
  }
  const std::string message = error_of([&] { PgsBatch b(m, 1, {}, {BackendKind::Cuda}); });
  EXPECT_NE(message.find("backend 'cuda' requested"), std::string::npos) << message;
  PgsBatch automatic(m, 1, {}, {BackendKind::Auto});
  EXPECT_EQ(automatic.backend(), BackendKind::Cpu);
}

}  // namespace
}  // namespace fleetdyn
