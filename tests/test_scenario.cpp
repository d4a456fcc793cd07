// Scenario files: the default scenario's values, every malformed file's one documented error
// (tests/data/README.md), defaults, sweeps, heightfields and strict value parsing.
// Runs from the source tree (scenarios/, tests/data/).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "fleetdyn/pgs_vehicle.h"
#include "fleetdyn/physics/core/math.h"
#include "fleetdyn/vehicle.h"
#include "host/scenario/scenario.h"
#include "host/scenario/scenario_json.h"
#include "host/study/sample_setup.h"
#include "tests/file_test_util.h"
#include "tests/scenario_test_util.h"

namespace fleetdyn {
namespace {

namespace fs = std::filesystem;
using test::contains;
using test::read_text;

using test::parse_error;

TEST(Scenario, DefaultParsesToExpectedValues) {
  const Scenario s = load_scenario("scenarios/default.yaml");
  EXPECT_EQ(s.path, "scenarios/default.yaml");
  EXPECT_EQ(s.text, read_text("scenarios/default.yaml"));
  EXPECT_EQ(s.name, "default");
  EXPECT_EQ(s.model, "strut");
  EXPECT_EQ(s.preset, "hmmwv");
  EXPECT_TRUE(s.overrides.empty());
  // The preset, finalized, with the CG height swept across the batch.
  const StrutParams<double> preset = hmmwv_params();
  EXPECT_EQ(s.params.of<StrutHost>().total_mass, preset.total_mass);
  EXPECT_EQ(s.params.of<StrutHost>().body_mass, preset.body_mass);
  ASSERT_EQ(s.sweeps.size(), 1u);
  EXPECT_EQ(s.sweeps[0].name, "cg_height");
  EXPECT_EQ(s.sweeps[0].from, 0.687);
  EXPECT_EQ(s.sweeps[0].to, 1.2);
  EXPECT_EQ(s.terrain_type, "flat");
  EXPECT_EQ(s.terrain.desc.kind, TerrainKind::Flat);
  EXPECT_EQ(s.terrain.desc.mu_scale, 1.0);
  EXPECT_EQ(s.initial.speed, 20.0);
  EXPECT_EQ(s.initial.x, 0.0);
  EXPECT_EQ(s.initial.y, 0.0);
  EXPECT_EQ(s.initial.yaw, 0.0);
  EXPECT_EQ(s.initial.lateral_speed, 0.0);
  ASSERT_EQ(s.maneuver.size(), 4u);
  const double expected[4][4] = {{0.0, 0.0, 0.25, 0.0}, {1.0, 0.0, 0.25, 0.0}, {1.3, 0.5, 0.25, 0.0}, {5.0, 0.5, 0.25, 0.0}};
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(s.maneuver[i].time, expected[i][0]) << i;
    EXPECT_EQ(s.maneuver[i].steer, expected[i][1]) << i;
    EXPECT_EQ(s.maneuver[i].throttle, expected[i][2]) << i;
    EXPECT_EQ(s.maneuver[i].brake, expected[i][3]) << i;
  }
  EXPECT_EQ(s.vehicles, 64);
  EXPECT_EQ(s.duration, 5.0);
  EXPECT_EQ(s.step, 0.001);
  EXPECT_FALSE(s.step_is_default);
  EXPECT_EQ(s.substeps, 1);
  EXPECT_TRUE(s.contact_requery);
  EXPECT_EQ(s.precision, Precision::Fp64);
  EXPECT_EQ(s.backend, BackendKind::Auto);
  EXPECT_EQ(s.output, "out/default");
  EXPECT_TRUE(s.warnings.empty());
  EXPECT_EQ(scenario_step_count(s), 5000);
}

TEST(Scenario, ExampleScenariosParse) {
  for (const char* f :
       {"scenarios/flat_step_steer.yaml", "scenarios/loop.yaml", "scenarios/bank.yaml", "scenarios/fishhook.yaml",
        "scenarios/fishhook_mc.yaml", "scenarios/sine_with_dwell.yaml", "scenarios/double_lane_change.yaml",
        "scenarios/j_turn.yaml", "scenarios/step_steer.yaml", "scenarios/constant_radius.yaml",
        "scenarios/braking.yaml", "scenarios/pgs_step_steer.yaml", "scenarios/j_turn_slope.yaml"}) {
    EXPECT_NO_THROW(load_scenario(f)) << f;
  }
  const Scenario bank = load_scenario("scenarios/bank.yaml");
  EXPECT_EQ(bank.terrain.desc.kind, TerrainKind::Plane);
  EXPECT_NEAR(bank.terrain.desc.bank, 8.0 * kPi / 180.0, 1e-15);
  ASSERT_EQ(bank.sweeps.size(), 1u);
  EXPECT_EQ(bank.sweeps[0].name, "cg_height");
  const Scenario loop = load_scenario("scenarios/loop.yaml");
  EXPECT_EQ(loop.terrain.desc.kind, TerrainKind::Loop);
  EXPECT_EQ(loop.terrain.desc.loop_x, 30.0);
}

// file, line, field, fragment of the message: the table of tests/data/README.md.
using test::Malformed;
const Malformed kMalformed[] = {
    {"unknown_key.yaml", 5, "vehicle_count", "unknown key 'vehicle_count' (allowed: name, model,"},
    {"wrong_type.yaml", 4, "vehicles", "expected an integer, got the string \"many\""},
    {"out_of_range.yaml", 5, "vehicles", "0 is outside [1, 100000000]"},
    {"bad_override.yaml", 7, "vehicle.overrides.tire.friction",
     "unknown strut vehicle parameter 'tire.friction' (known: total_mass,"},
    {"override_out_of_range.yaml", 6, "vehicle.overrides.tire.mu",
     "50 is outside the allowed range [0.05, 3] of tire.mu"},
    {"unknown_preset.yaml", 4, "vehicle.preset", "unknown vehicle preset 'jeep' (known: hmmwv)"},
    {"unknown_terrain.yaml", 4, "terrain.type",
     "unknown terrain type 'moon' (allowed: flat, plane, hill, heightfield, loop, rough_road)"},
    {"bad_maneuver_order.yaml", 7, "maneuver[2][0]", "times must increase (0.5 after 1)"},
    {"bad_maneuver_row.yaml", 6, "maneuver[1]", "expected a row [t, steer, throttle, brake] of 4 numbers, got 3 values"},
    {"syntax_error.yaml", 5, "", "YAML syntax error: end of map not found"},
    {"unknown_model.yaml", 3, "model", "unknown model 'dof14' (known: strut, ce"},
    {"ce_strut_parameter.yaml", 6, "vehicle.overrides.cg_height",
     "unknown ce vehicle parameter 'cg_height' (a parameter of the other model; this scenario's model is 'ce')"},
    {"ce_contact_once.yaml", 4, "contact_requery", "false is a strut option"},
    {"unknown_backend.yaml", 4, "backend", "unknown backend 'gpu' (allowed: auto, cpu, cuda)"},
    {"steer_out_of_range.yaml", 6, "maneuver[1][1]", "steer 1.5 is outside [-1, 1]"},
    {"step_out_of_range.yaml", 4, "step", "0.5 is outside (0, 0.1] s"},
    {"missing_duration.yaml", 2, "duration", "required key is missing"},
    {"duplicate_key.yaml", 5, "vehicles", "duplicate key (first on line 3)"},
    {"terrain_key_for_type.yaml", 5, "terrain.radius", "unknown key 'radius' for terrain type flat"},
    {"inconsistent_override.yaml", 6, "vehicle.overrides", "must be well below total_mass"},
    {"heightfield_missing.yaml", 5, "terrain.file", "cannot open heightfield file 'tests/data/no_such_heights.csv'"},
    {"heightfield_ragged.yaml", 5, "terrain.file",
     "ragged_heights.csv:4: ragged heightfield: row has 2 values, the first row has 3"},
    {"heightfield_not_csv.yaml", 5, "terrain.file", "/dev/zero:1: line longer than 16777216 characters"},
    {"rough_road_too_long.yaml", 4, "terrain", "rough road: more than 2e8 samples; raise the spacing"},
    {"rough_road_too_much_work.yaml", 4, "terrain",
     "rough road: 2.13e+07 samples x 128 bands is more than 1e9 wave evaluations"},
    {"sweep_conflict.yaml", 7, "vehicle.sweep.name", "'tire.mu' is also set in vehicle.overrides"},
    {"bad_distribution.yaml", 8, "study.parameters.cg_height.sd", "must be > 0 (got -0.05)"},
    {"unknown_sampled_parameter.yaml", 7, "study.parameters.cg_hieght", "(did you mean 'cg_height'?)"},
};

TEST(Scenario, MalformedFilesGiveTheirDocumentedError) {
  for (const Malformed& m : kMalformed) {
    const std::string path = std::string("tests/data/") + m.file;
    SCOPED_TRACE(path);
    ASSERT_TRUE(fs::exists(path));
    try {
      load_scenario(path);
      ADD_FAILURE() << "parsed without error";
    } catch (const ScenarioError& e) {
      const std::string msg = e.what();
      EXPECT_EQ(e.file(), path);
      EXPECT_EQ(e.line(), m.line) << msg;
      EXPECT_EQ(e.field(), m.field) << msg;
      // The message itself names file and line, then the field, then what is wrong.
      const std::string where = path + ":" + std::to_string(m.line) + ": ";
      EXPECT_EQ(msg.rfind(where, 0), 0u) << msg;
      if (*m.field) {
        EXPECT_TRUE(contains(msg, where + m.field + ": ")) << msg;
      }
      EXPECT_TRUE(contains(msg, m.fragment)) << msg;
      EXPECT_EQ(msg.find('\n'), std::string::npos) << "one line: " << msg;
    }
  }
}

// A path that is no scenario file (a device, a huge file) is refused after at most 16 MiB read.
TEST(Scenario, FilesLargerThanAScenarioAreRefused) {
  try {
    load_scenario("/dev/zero");
    ADD_FAILURE() << "read /dev/zero as a scenario";
  } catch (const ScenarioError& e) {
    EXPECT_EQ(std::string(e.what()), "/dev/zero: is larger than 16 MiB: not a scenario file");
  }
}

// Every malformed file in tests/data is in the table above, and the README lists each of them.
TEST(Scenario, EveryDataFileIsCoveredAndDocumented) {
  std::set<std::string> tested;
  for (const Malformed& m : kMalformed) tested.insert(m.file);
  const std::string readme = read_text("tests/data/README.md");
  for (const auto& entry : fs::directory_iterator("tests/data")) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() != ".yaml") continue;
    EXPECT_TRUE(contains(readme, "| " + name + " |")) << name << " is not in tests/data/README.md";
    if (name == "tiny.yaml" || name == "tiny_ce.yaml" || name == "study_small.yaml") continue;  // the valid ones
    EXPECT_TRUE(tested.count(name)) << name << " has no expected error in kMalformed";
    // The first line of the file says what it must produce.
    EXPECT_EQ(read_text(entry.path().string()).rfind("# Must fail: line ", 0), 0u) << name;
  }
  for (const Malformed& m : kMalformed) {
    EXPECT_TRUE(contains(readme, std::string("| ") + m.file + " | " + std::to_string(m.line) + " |")) << m.file;
  }
}

TEST(Scenario, MissingFile) {
  try {
    load_scenario("tests/data/no_such_file.yaml");
    FAIL() << "loaded a missing file";
  } catch (const ScenarioError& e) {
    EXPECT_TRUE(contains(e.what(), "tests/data/no_such_file.yaml")) << e.what();
    EXPECT_TRUE(contains(e.what(), "cannot open scenario file")) << e.what();
    EXPECT_EQ(e.line(), 0);
  }
  EXPECT_THROW(load_scenario("tests/data"), ScenarioError);  // a folder
}

// `model: ce` reads the ce parameter table: overrides land in CeParams, the default step is the
// ce model's, sweeps give per-vehicle ce sets, and the strut accessors refuse the scenario.
TEST(Scenario, CeScenarioUsesTheCeTable) {
  const Scenario s = parse_scenario(
      "model: ce\nvehicle:\n  overrides: {chassis_mass: 2500, tire.mu: 0.7}\n"
      "  sweep: {name: chassis_com_z, from: 0.2, to: 0.6}\nvehicles: 5\nduration: 1.0\n",
      "ce.yaml");
  EXPECT_EQ(s.params.model(), VehicleModel::Ce);
  EXPECT_EQ(s.params.of<CeHost>().chassis_mass, 2500.0);
  EXPECT_EQ(s.params.of<CeHost>().tire.mu, 0.7);
  EXPECT_TRUE(s.step_is_default);
  // The sweep's two ends bound the default step: the smaller of their ce defaults.
  double expected_step = 1.0;
  for (double z : {0.2, 0.6}) {
    ModelParams p = s.params;
    p.of<CeHost>().chassis_com.z = z;
    expected_step = std::min(expected_step, model_step_analysis(p).default_step);
  }
  EXPECT_EQ(s.step, expected_step);
  const std::vector<CeParams<double>> per_vehicle = scenario_ce_params(s, 5);
  ASSERT_EQ(per_vehicle.size(), 5u);
  EXPECT_EQ(per_vehicle[0].chassis_com.z, 0.2);
  EXPECT_EQ(per_vehicle[2].chassis_com.z, 0.4);
  EXPECT_EQ(per_vehicle[4].chassis_com.z, 0.6);
  EXPECT_EQ(per_vehicle[3].chassis_mass, 2500.0);
  EXPECT_THROW(scenario_vehicle_params(s, 5), Error);
  EXPECT_THROW(scenario_ce_params(parse_scenario("duration: 1.0\n", "strut.yaml"), 1), Error);
}

TEST(Scenario, DefaultsForOmittedKeys) {
  const Scenario s = parse_scenario("duration: 1.0\n", "some/dir/minimal.yaml");
  EXPECT_EQ(s.name, "minimal");
  EXPECT_EQ(s.output, "out/minimal");
  EXPECT_EQ(s.model, "strut");
  EXPECT_EQ(s.preset, "hmmwv");
  EXPECT_EQ(s.vehicles, 1);
  EXPECT_TRUE(s.step_is_default);
  EXPECT_EQ(s.step, strut_default_step(hmmwv_params()));
  EXPECT_EQ(s.substeps, 1);
  EXPECT_EQ(s.precision, Precision::Fp64);
  EXPECT_EQ(s.backend, BackendKind::Auto);
  EXPECT_EQ(s.terrain.desc.kind, TerrainKind::Flat);
  ASSERT_EQ(s.maneuver.size(), 1u);
  EXPECT_EQ(s.maneuver[0].throttle, 0.0);
  EXPECT_EQ(s.initial.speed, 0.0);
}

TEST(Scenario, DefaultStepFollowsOverrides) {
  // A much stiffer strut bushing needs a smaller step; the default is derived after the overrides.
  const Scenario s = parse_scenario("duration: 1.0\nvehicle:\n  overrides:\n    link_stiffness: 1.0e9\n", "x.yaml");
  StrutParams<double> p = hmmwv_params();
  p.link_stiffness = 1.0e9;
  finalize_vehicle_params(p);
  EXPECT_EQ(s.step, strut_default_step(p));
  EXPECT_LT(s.step, strut_default_step(hmmwv_params()));
}

TEST(Scenario, SweepGivesLinearSpread) {
  const Scenario s = parse_scenario(
      "duration: 1.0\nvehicles: 5\nvehicle:\n  overrides: {tire.mu: 0.8}\n  sweep: {name: cg_height, from: 0.6, to: "
      "0.9}\n",
      "sweep.yaml");
  ASSERT_EQ(s.sweeps.size(), 1u);
  const auto params = scenario_vehicle_params(s, 5);
  ASSERT_EQ(params.size(), 5u);
  for (int v = 0; v < 5; ++v) {
    EXPECT_NEAR(params[v].cg_height, 0.6 + 0.3 * v / 4.0, 1e-15) << v;
    EXPECT_EQ(params[v].tire.mu, 0.8);
    // Finalized per vehicle: the wheel mounts follow the COM height.
    StrutParams<double> p = s.params.of<StrutHost>();
    p.cg_height = params[v].cg_height;
    finalize_vehicle_params(p);
    EXPECT_EQ(params[v].wheel_attach[0].z, p.wheel_attach[0].z) << v;
  }
  EXPECT_EQ(scenario_vehicle_params(s, 1)[0].cg_height, 0.6);
  // Without a sweep: one shared set.
  EXPECT_EQ(scenario_vehicle_params(parse_scenario("duration: 1.0\n", "x.yaml"), 100).size(), 1u);
  // A list sweeps several parameters together.
  const Scenario two = parse_scenario(
      "duration: 1.0\nvehicle:\n  sweep:\n    - {name: cg_height, from: 0.6, to: 0.9}\n    - {name: tire.mu, from: "
      "1.0, to: 0.5}\n",
      "sweep2.yaml");
  const auto p3 = scenario_vehicle_params(two, 3);
  EXPECT_NEAR(p3[1].cg_height, 0.75, 1e-15);
  EXPECT_NEAR(p3[1].tire.mu, 0.75, 1e-15);
  EXPECT_EQ(p3[2].tire.mu, 0.5);
}

TEST(Scenario, SweepErrors) {
  ScenarioError e = parse_error("duration: 1.0\nvehicle:\n  sweep: {name: cg_height, from: 0.6, to: 9.0}\n");
  EXPECT_EQ(e.field(), "vehicle.sweep.to");
  EXPECT_EQ(e.line(), 3);
  EXPECT_TRUE(contains(e.what(), "9 is outside the allowed range [0.2, 5] m of cg_height")) << e.what();
  e = parse_error("duration: 1.0\nvehicle:\n  sweep: {name: cg_height, from: 0.6}\n");
  EXPECT_EQ(e.field(), "vehicle.sweep.to");
  EXPECT_TRUE(contains(e.what(), "required key is missing")) << e.what();
  e = parse_error("duration: 1.0\nvehicle:\n  sweep: {name: cg_hieght, from: 0.6, to: 0.7}\n");
  EXPECT_TRUE(contains(e.what(), "did you mean 'cg_height'?")) << e.what();
  // Consistent at one end, not at the other (finalize_vehicle_params rejects the 'to' set).
  e = parse_error("duration: 1.0\nvehicle:\n  sweep: {name: unsprung_mass_front, from: 100, to: 1500}\n");
  EXPECT_EQ(e.field(), "vehicle.sweep");
  EXPECT_TRUE(contains(e.what(), "at the 'to' values")) << e.what();
}

// An ISO 8608 road as terrain: the settings reach the generator (same road as built directly),
// mu_scale applies on top, and a bad class names its line and field.
TEST(Scenario, RoughRoadTerrain) {
  const Scenario s = parse_scenario(
      "duration: 1.0\nterrain:\n  type: rough_road\n  class: D\n  length: 200\n  width: 6\n  seed: 5\n  mu_scale: "
      "0.8\n",
      "rough.yaml");
  RoughRoadSettings r;
  r.road_class = 'D';
  r.length = 200.0;
  r.width = 6.0;
  r.seed = 5;
  const TerrainSpec direct = iso8608_road(r);
  EXPECT_EQ(s.terrain.desc.kind, TerrainKind::Heightfield);
  EXPECT_EQ(s.terrain.heightfield, direct.heightfield);
  EXPECT_EQ(s.terrain.desc.hf_nx, direct.desc.hf_nx);
  EXPECT_EQ(s.terrain.desc.mu_scale, 0.8);
  const ScenarioError e = parse_error("duration: 1.0\nterrain:\n  type: rough_road\n  class: Q\n", "rough.yaml");
  EXPECT_EQ(e.line(), 4);
  EXPECT_EQ(e.field(), "terrain.class");
}

TEST(Scenario, HeightfieldLoadsRelativeToTheScenario) {
  const fs::path dir = fs::temp_directory_path() / ("fleetdyn_scenario_test_" + std::to_string(::getpid()));
  fs::create_directories(dir / "maps");
  {
    std::ofstream csv(dir / "maps" / "h.csv");
    csv << "# two rows along y, three columns along x\n0.0, 0.5, 1.0\n\n2.0,2.5,3.0\n";
  }
  const std::string path = (dir / "hf.yaml").string();
  const Scenario s = parse_scenario(
      "duration: 1.0\nterrain:\n  type: heightfield\n  file: maps/h.csv\n  x0: -1\n  y0: 2\n  dx: 0.5\n  dy: 0.25\n", path);
  EXPECT_EQ(s.terrain.desc.kind, TerrainKind::Heightfield);
  EXPECT_EQ(s.terrain.desc.hf_nx, 3);
  EXPECT_EQ(s.terrain.desc.hf_ny, 2);
  EXPECT_EQ(s.terrain.desc.hf_x0, -1.0);
  EXPECT_EQ(s.terrain.desc.hf_y0, 2.0);
  EXPECT_EQ(s.terrain.desc.hf_dx, 0.5);
  EXPECT_EQ(s.terrain.desc.hf_dy, 0.25);
  ASSERT_EQ(s.terrain.heightfield.size(), 6u);
  EXPECT_EQ(s.terrain.heightfield[1], 0.5);  // row 0 (y0), column 1
  EXPECT_EQ(s.terrain.heightfield[3], 2.0);  // row 1, column 0
  EXPECT_EQ(s.heightfield_file, "maps/h.csv");
  EXPECT_EQ(s.terrain.desc.hf_envelope, 0) << "the tire envelope is off unless asked for";
  // tire_envelope: a boolean on heightfield (and rough_road) terrain, an unknown key elsewhere.
  const std::string hf = "duration: 1.0\nterrain:\n  type: heightfield\n  file: maps/h.csv\n  dx: 0.5\n  dy: 0.25\n";
  EXPECT_EQ(parse_scenario(hf + "  tire_envelope: true\n", path).terrain.desc.hf_envelope, 1);
  EXPECT_EQ(parse_error(hf + "  tire_envelope: 3\n", path).field(), "terrain.tire_envelope");
  EXPECT_EQ(parse_error("duration: 1.0\nterrain:\n  type: flat\n  tire_envelope: true\n", path).field(),
            "terrain.tire_envelope");
  // A heightfield without spacing is an error naming the missing key.
  const ScenarioError e = parse_error("duration: 1.0\nterrain:\n  type: heightfield\n  file: maps/h.csv\n  dx: 0.5\n", path);
  EXPECT_EQ(e.field(), "terrain.dy");
  // A cell that is not a number.
  {
    std::ofstream csv(dir / "maps" / "bad.csv");
    csv << "0, 1\n0, x\n";
  }
  const ScenarioError bad = parse_error(
      "duration: 1.0\nterrain:\n  type: heightfield\n  file: maps/bad.csv\n  dx: 1\n  dy: 1\n", path);
  EXPECT_EQ(bad.line(), 4);
  EXPECT_TRUE(contains(bad.what(), "bad.csv:2: column 2: 'x' is not a number")) << bad.what();
  fs::remove_all(dir);
}

TEST(Scenario, TerrainFieldsPerType) {
  Scenario s = parse_scenario("duration: 1\nterrain: {type: plane, slope_deg: 5, bank_deg: -3, mu_scale: 0.7}\n",
                              "x.yaml");
  EXPECT_EQ(s.terrain.desc.kind, TerrainKind::Plane);
  EXPECT_NEAR(s.terrain.desc.slope, 5.0 * kPi / 180.0, 1e-15);
  EXPECT_NEAR(s.terrain.desc.bank, -3.0 * kPi / 180.0, 1e-15);
  EXPECT_EQ(s.terrain.desc.mu_scale, 0.7);
  s = parse_scenario("duration: 1\nterrain: {type: hill, x: 10, y: -2, height: 1.5, radius: 4}\n", "x.yaml");
  EXPECT_EQ(s.terrain.desc.kind, TerrainKind::Hill);
  EXPECT_EQ(s.terrain.desc.hill_x, 10.0);
  EXPECT_EQ(s.terrain.desc.hill_y, -2.0);
  EXPECT_EQ(s.terrain.desc.hill_height, 1.5);
  EXPECT_EQ(s.terrain.desc.hill_radius, 4.0);
  s = parse_scenario("duration: 1\nterrain: {type: loop, x: 30}\n", "x.yaml");
  EXPECT_EQ(s.terrain.desc.kind, TerrainKind::Loop);
  EXPECT_EQ(s.terrain.desc.loop_x, 30.0);
  EXPECT_EQ(s.terrain.desc.loop_radius, 8.0);  // the library's default
  ScenarioError e = parse_error("duration: 1\nterrain: {type: hill, height: 1.5}\n");
  EXPECT_EQ(e.field(), "terrain.radius");
  EXPECT_TRUE(contains(e.what(), "required key is missing")) << e.what();
  e = parse_error("duration: 1\nterrain:\n  type: plane\n  slope_deg: 85\n");
  EXPECT_EQ(e.field(), "terrain.slope_deg");
  EXPECT_EQ(e.line(), 4);
}

TEST(Scenario, StrictValues) {
  struct Case {
    const char* text;
    const char* field;
    const char* fragment;
  };
  const Case cases[] = {
      {"duration: .inf\n", "duration", "expected a number, got '.inf'"},
      {"duration: \"1.0\"\n", "duration", "expected a number, got the string \"1.0\""},
      {"duration: 0\n", "duration", "0 is outside (0, 1000000] s"},
      {"duration: -1\n", "duration", "is outside (0, 1000000] s"},
      {"duration: 1\nvehicles: 2.5\n", "vehicles", "expected an integer, got '2.5'"},
      {"duration: 1\nvehicles: 1e9\n", "vehicles", "1e9 is outside [1, 100000000]"},
      {"duration: 1\nvehicles: [1, 2]\n", "vehicles", "expected an integer, got a list"},
      {"duration: 1\ncontact_requery: maybe\n", "contact_requery", "expected true or false"},
      {"duration: 1\nprecision: fp16\n", "precision", "unknown precision 'fp16' (allowed: fp32, fp64)"},
      {"duration: 1\nsubsteps: 0\n", "substeps", "0 is outside [1, 1000]"},
      {"duration: 1\nmaneuver: []\n", "maneuver", "expected a list of rows"},
      {"duration: 1\nmaneuver:\n  - [0, 0, 1.2, 0]\n", "maneuver[0][2]", "throttle 1.2 is outside [0, 1]"},
      {"duration: 1\nmaneuver:\n  - [0, 0, 0, -0.1]\n", "maneuver[0][3]", "brake -0.1 is outside [0, 1]"},
      {"duration: 1\nmaneuver:\n  - [0, abc, 0, 0]\n", "maneuver[0][1]", "expected a number, got 'abc'"},
      {"duration: 1\ninitial: {speed: -5}\n", "initial.speed", "-5 is outside [0, 200] m/s"},
      {"duration: 1\ninitial: {velocity: 5}\n", "initial.velocity",
       "unknown key 'velocity' (allowed: speed, lateral_speed, x, y, yaw_deg)"},
      {"duration: 1\ninitial: {lateral_speed: 60}\n", "initial.lateral_speed", "60 is outside [-50, 50] m/s"},
      {"duration: 1\nvehicels: 4\n", "vehicels", "did you mean 'vehicles'?"},
      {"duration: 1\nvehicle: hmmwv\n", "vehicle", "expected a mapping of keys, got 'hmmwv'"},
      {"duration: 0.0001\nstep: 0.001\n", "duration", "shorter than one step"},
      {"- 1\n- 2\n", "scenario", "expected a mapping of keys, got a list"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    const ScenarioError e = parse_error(c.text);
    EXPECT_EQ(e.field(), c.field) << e.what();
    EXPECT_TRUE(contains(e.what(), c.fragment)) << e.what();
    EXPECT_TRUE(contains(e.what(), "inline.yaml:")) << e.what();
  }
  EXPECT_TRUE(contains(parse_error("").what(), "the scenario is empty"));
  // Integral numbers in exponent form are fine for integer keys.
  EXPECT_EQ(parse_scenario("duration: 1\nvehicles: 1e3\n", "x.yaml").vehicles, 1000);
}

TEST(Scenario, WarnsAboutAnUnstableStep) {
  EXPECT_TRUE(parse_scenario("duration: 1\nstep: 0.001\n", "x.yaml").warnings.empty());
  const Scenario s = parse_scenario("duration: 1\nstep: 0.05\n", "x.yaml");
  ASSERT_EQ(s.warnings.size(), 1u);
  EXPECT_TRUE(contains(s.warnings[0], "x.yaml:2: step:")) << s.warnings[0];
  // Substeps bring the RK4 step back under the limit.
  EXPECT_TRUE(parse_scenario("duration: 1\nstep: 0.05\nsubsteps: 100\n", "x.yaml").warnings.empty());
}

// The strut model's parts are scenario keys (overrides of 0 or 1): off, the plain seed-004 strut;
// anything else is refused with the file and line.
TEST(Scenario, StrutPartsSwitchOffByOverride) {
  const Scenario s = parse_scenario(
      "duration: 1\nvehicle: {preset: hmmwv, overrides: {linkage_geometry: 0, progressive_spring: 0, "
      "tire_force_at_contact: 0}}\n",
      "x.yaml");
  EXPECT_EQ(s.params.of<StrutHost>().linkage_geometry, 0.0);
  EXPECT_EQ(s.params.of<StrutHost>().progressive_spring, 0.0);
  EXPECT_EQ(s.params.of<StrutHost>().tire_force_at_contact, 0.0);
  EXPECT_EQ(hmmwv_params().linkage_geometry, 1.0);  // the preset has them on
  std::string m = parse_error("duration: 1\nvehicle: {preset: hmmwv, overrides: {linkage_geometry: 2}}\n", "y.yaml").what();
  EXPECT_NE(m.find("y.yaml:2"), std::string::npos) << m;
  EXPECT_NE(m.find("linkage_geometry"), std::string::npos) << m;
  m = parse_error("duration: 1\nvehicle: {preset: hmmwv, overrides: {progressive_spring: 0.5}}\n", "z.yaml").what();
  EXPECT_NE(m.find("progressive_spring = 0.5: must be 0 (off) or 1 (on)"), std::string::npos) << m;
}

}  // namespace
}  // namespace fleetdyn
