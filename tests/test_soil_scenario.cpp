// Soil regions in scenario files and studies: terrain.soil's keys (a preset, the rectangle, any
// soil parameter overriding the preset), its errors naming the field, value and range, and a
// study's sampled terrain.soil.<field> reaching the sample's own soil (TerrainVariation).
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "fleetdyn/physics/core/terrain_soil.h"
#include "host/scenario/scenario_json.h"
#include "host/study/sample_setup.h"
#include "tests/scenario_test_util.h"

namespace fleetdyn {
namespace {

using test::parse_error;

std::string with_soil(const std::string& soil) {
  return "duration: 1.0\nterrain:\n  type: flat\n  soil: " + soil + "\n";
}

TEST(SoilScenario, PresetRectangleAndOverrides) {
  const Scenario s = parse_scenario(with_soil(
                                        "{preset: sandy_loam, y_max: -3.5, k_phi: 2.0e6, friction_angle_deg: 30}"),
                                    "inline.yaml");
  const TerrainDesc<double>& d = s.terrain.desc;
  const SoilParams<double> loam = soil_preset<double>(SoilPreset::SandyLoam);
  EXPECT_EQ(d.soil_region, 1);
  EXPECT_EQ(d.soil_y_max, -3.5);
  EXPECT_TRUE(std::isinf(d.soil_x_min) && d.soil_x_min < 0.0);
  EXPECT_TRUE(std::isinf(d.soil_x_max) && d.soil_x_max > 0.0);
  EXPECT_EQ(d.soil.k_phi, 2.0e6);
  EXPECT_NEAR(d.soil.friction_angle, 30.0 * kPi / 180.0, 1e-15);
  EXPECT_EQ(d.soil.n, loam.n);
  EXPECT_EQ(d.soil.k_c, loam.k_c);
  EXPECT_EQ(d.soil_slip_speed, kSoilSlipSpeed);
  // The run's scenario.json echoes it, open bounds left out.
  const auto echo = scenario_json(s)["terrain"]["soil"];
  EXPECT_EQ(echo["k_phi"], 2.0e6);
  EXPECT_EQ(echo["y_max"], -3.5);
  EXPECT_FALSE(echo.contains("x_min"));
  // No soil key: no region.
  EXPECT_EQ(parse_scenario("duration: 1.0\n", "inline.yaml").terrain.desc.soil_region, 0);
}

TEST(SoilScenario, ErrorsNameFieldValueAndRange) {
  ScenarioError e = parse_error(with_soil("{n: 5}"));
  EXPECT_EQ(e.line(), 4);
  EXPECT_EQ(e.field(), "terrain.soil");
  EXPECT_NE(std::string(e.what()).find("n = 5 is outside [0.05, 2]"), std::string::npos) << e.what();
  e = parse_error(with_soil("{preset: gravel}"));
  EXPECT_EQ(e.field(), "terrain.soil.preset");
  EXPECT_NE(std::string(e.what()).find("dry_sand"), std::string::npos) << e.what();
  e = parse_error(with_soil("{x_min: 5, x_max: 1}"));
  EXPECT_NE(std::string(e.what()).find("x_min = 5 must be below x_max = 1"), std::string::npos) << e.what();
  e = parse_error(with_soil("{friction_angle_deg: 80}"));
  EXPECT_EQ(e.field(), "terrain.soil.friction_angle_deg");
  e = parse_error(with_soil("{slip_speed: 0}"));
  EXPECT_EQ(e.field(), "terrain.soil.slip_speed");
  e = parse_error(with_soil("{kphi: 1.0e6}"));
  EXPECT_NE(std::string(e.what()).find("kphi"), std::string::npos) << e.what();
  e = parse_error(with_soil("{cohesion: .nan}"));
  EXPECT_EQ(e.field(), "terrain.soil.cohesion");
}

const char* kStudy =
    "study:\n  samples: 4\n  parameters:\n"
    "    terrain.soil.k_phi: {dist: uniform, min: 1.0e6, max: 2.0e6}\n"
    "    terrain.soil.friction_angle_deg: {dist: uniform, min: 25, max: 35}\n";

TEST(SoilScenario, StudySamplesTheSoil) {
  const Scenario s = parse_scenario(with_soil("{preset: dry_sand, x_min: 10}") + kStudy, "inline.yaml");
  EXPECT_TRUE(study::sample_terrain_varies(s));
  const double values[2] = {1.5e6, 33.0};
  const study::SampleSetup setup = study::sample_setup(s, values, 0);
  ASSERT_TRUE(setup.valid) << setup.invalid_reason;
  EXPECT_EQ(setup.terrain.soil_varied, 1);
  EXPECT_EQ(setup.terrain.soil.k_phi, 1.5e6);
  EXPECT_NEAR(setup.terrain.soil.friction_angle, 33.0 * kPi / 180.0, 1e-15);
  EXPECT_EQ(setup.terrain.soil.n, s.terrain.desc.soil.n);  // the rest is the scenario's soil
  // The batch's terrain as the sample meets it: its own soil, the batch's region.
  const TerrainDesc<double> mine = varied_terrain(s.terrain.desc, setup.terrain);
  EXPECT_EQ(mine.soil.k_phi, 1.5e6);
  EXPECT_EQ(mine.soil_x_min, 10.0);
  // Outside the allowed range: the sample is invalid, with the reason.
  const double bad[2] = {-1.0, 30.0};
  const study::SampleSetup invalid = study::sample_setup(s, bad, 1);
  EXPECT_FALSE(invalid.valid);
  EXPECT_NE(invalid.invalid_reason.find("terrain.soil.k_phi"), std::string::npos) << invalid.invalid_reason;
  // Without a soil region there is no soil to sample.
  const ScenarioError e = parse_error(std::string("duration: 1.0\n") + kStudy);
  EXPECT_NE(std::string(e.what()).find("has no soil"), std::string::npos) << e.what();
}

}  // namespace
}  // namespace fleetdyn
