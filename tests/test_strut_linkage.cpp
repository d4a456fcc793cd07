// The strut model's linkage curves and their switches: what each switch turns off, and the errors
// for linkage data that cannot be used (physics/strut/strut_linkage.h, host/strut/strut_linkage.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "fleetdyn/error.h"
#include "fleetdyn/physics/strut/strut_model.h"
#include "fleetdyn/suspension.h"
#include "fleetdyn/vehicle.h"
#include "tests/strut_test_util.h"

namespace fleetdyn {
namespace {

using test::error_of;

TEST(StrutLinkage, SwitchedOffThePlainStrutRemains) {
  StrutParams<double> p = hmmwv_params();
  p.linkage_geometry = 0.0;
  p.progressive_spring = 0.0;
  finalize_vehicle_params(p);
  const TerrainDesc<double> flat{};
  const StrutEnvironment<double> env(p, &flat, 0.0, 0.0, DriverInput<double>{0.5, 0.0, 0.0});
  for (int i = 0; i < kCorners; ++i) {
    for (double travel : {-0.1, 0.0, 0.07}) {
      const CornerTravel<double> path = corner_travel(p, i, travel);
      EXPECT_EQ(path.dx, 0.0);
      EXPECT_EQ(path.dy, 0.0);
      EXPECT_EQ(path.dx_slope, 0.0);
      // The linear coil: preload + wheel rate x travel, and it cannot pull.
      EXPECT_NEAR(strut_spring_force(p, i, path), std::max(0.0, p.strut_preload[i] + p.wheel_rate[i] * travel),
                  1e-9 * p.strut_preload[i]);
      const CornerAxis<double> a = corner_axis(p, env, i, travel);
      const double steer = i < 2 ? 0.5 * p.max_steer : 0.0;  // parallel steering
      EXPECT_NEAR(a.axis.x, -std::sin(steer), 1e-15);
      EXPECT_NEAR(a.axis.y, std::cos(steer), 1e-15);
      EXPECT_EQ(a.axis.z, 0.0);
      EXPECT_EQ(a.slope.z, 0.0);
    }
  }
}

TEST(StrutLinkage, SwitchedOnTheCurvesPassThroughTheDesignPosition) {
  const StrutParams<double> p = hmmwv_params();
  for (int i = 0; i < kCorners; ++i) {
    const CornerTravel<double> path = corner_travel(p, i, 0.0);
    EXPECT_NEAR(path.dx, 0.0, 1e-12);
    EXPECT_NEAR(path.dy, 0.0, 1e-12);
    EXPECT_NEAR(strut_spring_force(p, i, path), p.strut_preload[i], 1e-9 * p.strut_preload[i]);
    EXPECT_GT(path.motion_ratio, 0.3);  // the HMMWV's coil: about 0.45 at design
    EXPECT_LT(path.motion_ratio, 0.6);
  }
}

TEST(StrutLinkage, OptionsAreZeroOrOne) {
  for (const char* name : {"tire_force_at_contact", "linkage_geometry", "progressive_spring"}) {
    StrutParams<double> p = hmmwv_params();
    *vehicle_param_ptr(p, name) = 0.5;
    const std::string e = error_of([&] { finalize_vehicle_params(p); });
    EXPECT_NE(e.find(std::string(name) + " = 0.5: must be 0 (off) or 1 (on)"), std::string::npos) << e;
  }
}

TEST(StrutLinkage, OptionsNeedTheCurves) {
  StrutParams<double> p = hmmwv_params();
  p.linkage = StrutLinkage<double>{};
  const std::string e = error_of([&] { finalize_vehicle_params(p); });
  EXPECT_NE(e.find("linkage_geometry = 1 needs the linkage curves of a suspension design"), std::string::npos) << e;
  p.linkage_geometry = 0.0;
  const std::string e2 = error_of([&] { finalize_vehicle_params(p); });
  EXPECT_NE(e2.find("progressive_spring = 1 needs the linkage curves"), std::string::npos) << e2;
  p.progressive_spring = 0.0;
  EXPECT_EQ(error_of([&] { finalize_vehicle_params(p); }), "");
}

TEST(StrutLinkage, StopsBeyondTheTabulatedTravelAreRefused) {
  StrutParams<double> p = hmmwv_params();
  p.bump_travel_rear = 0.6;
  std::string e = error_of([&] { finalize_vehicle_params(p); });
  EXPECT_NE(
      e.find(
          "bump_travel_rear = 0.6 m: beyond the reach of the linkage; the linkage of the rear axle is tabulated over"),
      std::string::npos)
      << e;
  p = hmmwv_params();
  p.rebound_travel_front = 0.3;
  e = error_of([&] { finalize_vehicle_params(p); });
  EXPECT_NE(e.find("rebound_travel_front = 0.3 m: beyond the reach of the linkage; the linkage of the front axle"), std::string::npos)
      << e;
}

TEST(StrutLinkage, TravelTheLinkageCannotReachIsRefusedAtTabulation) {
  StrutParams<double> p = hmmwv_params();
  p.rebound_travel_front = 1.0;  // a metre of droop: past the arms' toggle
  const std::string e = error_of([&] { tabulate_strut_linkage(make_ce_suspension(hmmwv_suspension_design()), p); });
  EXPECT_NE(e.find("strut linkage, corner FL: travel -"), std::string::npos) << e;
  EXPECT_NE(e.find("is outside the reach of the linkage"), std::string::npos) << e;
}

// The curves are stored once per axle: a right side that is not the left's mirror image is
// refused (here the rear right tierod 2 mm longer: a different toe).
TEST(StrutLinkage, AsymmetricSidesAreRefused) {
  CeSuspension<double> s = make_ce_suspension(hmmwv_suspension_design());
  s.corner[3].tierod_length += 0.002;
  StrutParams<double> p = hmmwv_params();
  const std::string e = error_of([&] { tabulate_strut_linkage(s, p); });
  EXPECT_NE(e.find("strut linkage, corner RL: the right corner is not the left's mirror image"), std::string::npos) << e;
}

}  // namespace
}  // namespace fleetdyn
