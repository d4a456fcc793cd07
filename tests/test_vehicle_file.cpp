// Vehicle files: the HMMWV file is the built-in definition to the bit; a made-up vehicle loads and
// its models stand at rest under its own weight; bad files name file, line and field.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include "fleetdyn/ce.h"
#include "fleetdyn/vehicle.h"
#include "fleetdyn/vehicle_definition.h"
#include "host/cli/kinematics_job.h"
#include "host/cli/params_job.h"
#include "host/cli/run_job.h"
#include "host/scenario/scenario.h"
#include "host/scenario/vehicle_file.h"

namespace fleetdyn {
namespace {

constexpr const char* kHmmwvFile = "vehicles/hmmwv.yaml";
constexpr const char* kLightFile = "tests/data/vehicles/light_utility.yaml";

template <class T>
bool same_bits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The error of parsing `text` (the HMMWV file edited) as "edited.yaml".
ScenarioError vehicle_error(const std::string& text) {
  try {
    parse_vehicle_yaml(text, "edited.yaml");
  } catch (const ScenarioError& e) {
    return e;
  }
  ADD_FAILURE() << "expected a ScenarioError";
  return ScenarioError("", -1, "", "");
}

// The HMMWV file with the first occurrence of `from` replaced by `to`.
std::string hmmwv_with(const std::string& from, const std::string& to) {
  std::string text = read_text(kHmmwvFile);
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

int line_of(const std::string& text, const std::string& fragment) {
  const size_t at = text.find(fragment);
  int line = 1;
  for (size_t i = 0; i < at && i < text.size(); ++i) line += text[i] == '\n';
  return line;
}

TEST(VehicleFile, HmmwvFileIsTheBuiltInDefinitionToTheBit) {
  const VehicleDefinition file = load_vehicle_file(kHmmwvFile);
  const VehicleDefinition built_in = hmmwv_vehicle();
  EXPECT_EQ(file.name, built_in.name);
  EXPECT_TRUE(same_bits(file.front, built_in.front));
  EXPECT_TRUE(same_bits(file.rear, built_in.rear));
  EXPECT_TRUE(same_bits(file.steering, built_in.steering));
  EXPECT_TRUE(same_bits(file.common, built_in.common));
  for (const auto& [a, b] : {std::pair{file.spindle, built_in.spindle}, std::pair{file.rim, built_in.rim},
                             std::pair{file.tire_body, built_in.tire_body}}) {
    EXPECT_TRUE(same_bits(a, b));
  }
  EXPECT_TRUE(same_bits(file.stop_table_pen, built_in.stop_table_pen));
  EXPECT_TRUE(same_bits(file.stop_table_force, built_in.stop_table_force));
  EXPECT_EQ(file.chassis_mass, built_in.chassis_mass);
  EXPECT_TRUE(same_bits(file.chassis_com, built_in.chassis_com));
  EXPECT_TRUE(same_bits(file.chassis_inertia, built_in.chassis_inertia));
  EXPECT_EQ(file.steering_link_mass, built_in.steering_link_mass);
  EXPECT_EQ(file.pitman_arm_mass, built_in.pitman_arm_mass);
  EXPECT_EQ(file.steer_time_constant, built_in.steer_time_constant);
  EXPECT_EQ(file.balance_springs_at_design, built_in.balance_springs_at_design);
  // So the ce (and pgs) model built from the file is the preset.
  EXPECT_TRUE(same_bits(make_ce_params(file), hmmwv_ce_params()));
}

// The strut model built from a definition (its ce model lumped) against the strut preset, which was
// lumped by hand from the same data. The hand lumping leaves the tierods (6 kg per corner) out;
// everything else is the same mass. The tracks are the same wheel centres; the wheelbase and COM
// height differ by what the hand lumping neglected (docs/models/strut.md: the COMs of the link
// halves, the wheel centres at rest instead of at design: mm); the road-wheel angle at full input
// comes from the steering linkage here and is assumed equal to the Pitman arm's 30 deg there.
TEST(VehicleFile, StrutFromTheHmmwvDefinitionMatchesTheHandLumpedPreset) {
  const VehicleDefinition v = load_vehicle_file(kHmmwvFile);
  const StrutParams<double> derived = strut_params_from_definition(v);
  const StrutParams<double> preset = hmmwv_params();
  const double tierod = v.front.tierod.mass;
  EXPECT_NEAR(derived.total_mass, preset.total_mass + 4.0 * tierod, 1e-9 * preset.total_mass);
  EXPECT_NEAR(derived.unsprung_mass_front, preset.unsprung_mass_front + 0.5 * tierod, 1e-9);
  EXPECT_NEAR(derived.unsprung_mass_rear, preset.unsprung_mass_rear + 0.5 * tierod, 1e-9);
  EXPECT_NEAR(derived.cg_to_front_axle + derived.cg_to_rear_axle, preset.cg_to_front_axle + preset.cg_to_rear_axle, 5e-3);
  EXPECT_NEAR(derived.track_front, preset.track_front, 5e-3);
  EXPECT_NEAR(derived.cg_height, preset.cg_height, 0.01);
  EXPECT_NEAR(derived.max_steer, preset.max_steer, deg_to_rad(5.0));
}

// A vehicle that is not the HMMWV: its ce model finds a rest state whose tire loads carry its
// weight (a force balance the rest solver does not impose directly: it zeroes accelerations), and
// the strut model built from it has the same mass and static front/rear split as ce.
TEST(VehicleFile, MadeUpVehicleStandsOnItsOwnWheelsInBothModels) {
  const VehicleDefinition v = load_vehicle_file(kLightFile);
  EXPECT_EQ(v.name, "light utility (made up)");
  const CeParams<double> ce = make_ce_params(v);
  const double mass = ce_total_mass(ce);
  EXPECT_NEAR(mass, 1200.0 + 3.681 + 1.605 + 4.0 * (23.965 + 5.813 + 19.45 + 6.0 + 14.705 + 18.8 + 37.6), 1e-9);
  const std::vector<double> rest = ce_rest_state(ce, 0.0);
  const TerrainDesc<double> flat = default_terrain_desc<double>();
  const CeEnvironment<double> env{&flat, 0.0, 0.0};
  CeCornerBodies<double> corners[kCorners];
  std::vector<double> ds(rest.size());
  ce_derivative(ce, env, DriverInput<double>{0.0, 0.0, 0.0}, rest.data(), ds.data(), corners);
  double load = 0.0, front = 0.0;
  for (int i = 0; i < kCorners; ++i) {
    load += corners[i].tire_normal_force;
    if (i < 2) front += corners[i].tire_normal_force;
  }
  EXPECT_NEAR(load, mass * ce.gravity, 1e-6 * mass * ce.gravity);
  // Track: the wheel centres 0.1 m inboard of the HMMWV's.
  EXPECT_NEAR(ce.corner[0].design.wheel_centre.y - ce.corner[1].design.wheel_centre.y, 2.0 * 0.809701, 1e-12);

  const StrutParams<double> strut = strut_params_from_definition(v);
  EXPECT_NEAR(strut.total_mass, mass, 1e-9 * mass);
  // Static front axle load of the strut vehicle: the body's weight shared by lever arms (its COM
  // is the sprung one, cg_to_*_axle) plus the two front unsprung weights.
  const double wheelbase = strut.cg_to_front_axle + strut.cg_to_rear_axle;
  const double body = strut.total_mass - 2.0 * (strut.unsprung_mass_front + strut.unsprung_mass_rear);
  const double strut_front = strut.gravity * (body * strut.cg_to_rear_axle / wheelbase + 2.0 * strut.unsprung_mass_front);
  EXPECT_NEAR(strut_front, front, 0.01 * front) << "front axle load, strut " << strut_front << " N, ce " << front << " N";
  EXPECT_GT(std::fabs(strut_front - hmmwv_params().total_mass * 9.81 * 0.5), 1000.0) << "really another vehicle";
}

TEST(VehicleFile, BadFilesNameFileLineAndField) {
  struct Case {
    std::string from, to, field, fragment;
  };
  const Case cases[] = {
      {"  mass: 2086.52", "  mass: -5", "chassis.mass", "outside (0"},
      {"  mass: 2086.52", "  mass: .nan", "chassis.mass", "expected a number"},
      {"  mass: 2086.52", "  mas: 2086.52", "chassis.mas", "did you mean 'mass'"},
      {"      wheel_centre: [-0.040386, 0.909701, -0.026289]\n", "", "axles.front.hardpoints.wheel_centre",
       "required key is missing"},
      {"    lca: {mass: 23.965", "    lca: {mass: 0", "axles.front.lca.mass", "outside (0"},
      {"    stops: {bump_length: 0.15, rebound_length: 0.3}", "    stops: {bump_length: 0.4, rebound_length: 0.3}",
       "axles.front.stops.rebound_length", "must exceed bump_length"},
      {"  type: pitman_arm", "  type: rack_pinion", "steering.type", "unknown steering type 'rack_pinion'"},
      {"  dfx0_pn: 152216", "  dfx0_pn: 1e30", "tire.dfx0_pn", "outside [1"},
      {"  mu: 0.8\n", "  mu: 7\n", "tire.mu", "outside [0.05, 3]"},
      {"  penetration: [0, 0.01, 0.02", "  penetration: [0, 0.03, 0.02", "stop_table.penetration[2]", "increase"},
  };
  for (const Case& c : cases) {
    const std::string text = hmmwv_with(c.from, c.to);
    const ScenarioError e = vehicle_error(text);
    EXPECT_EQ(e.file(), "edited.yaml");
    EXPECT_EQ(e.field(), c.field) << e.what();
    EXPECT_NE(std::string(e.what()).find(c.fragment), std::string::npos) << e.what();
    EXPECT_GT(e.line(), 0) << e.what();
  }
  // The line is the one of the bad value.
  const std::string text = hmmwv_with("  mass: 2086.52", "  mass: -5");
  EXPECT_EQ(vehicle_error(text).line(), line_of(text, "  mass: -5"));
  EXPECT_THROW(load_vehicle_file("vehicles/no_such_vehicle.yaml"), ScenarioError);
}

// Hardpoints from which the linkage cannot be assembled (an arm without a pivot axis, a ball joint
// on its arm's axis, a zero-length tierod) are refused at load, naming the corner and the part.
TEST(VehicleFile, GeometryThatCannotAssembleIsRefusedAtLoad) {
  struct Case {
    std::string from, to, part;
  };
  const Case cases[] = {
      {"      lca_back: [-0.223266, 0.307086, 0]", "      lca_back: [0.223266, 0.307086, 0]", "LCA pivot axis"},
      {"      uca_ball: [-0.053035, 0.715518, 0.215494]", "      uca_ball: [-0.047915, 0.445960, 0.244622]",
       "UCA ball joint distance from the UCA axis"},
      {"      tierod_inner: [-0.250317, 0.448437, 0.054229]", "      tierod_inner: [-0.175819, 0.821106, -0.016332]",
       "tierod"},
  };
  for (const Case& c : cases) {
    const ScenarioError e = vehicle_error(hmmwv_with(c.from, c.to));
    EXPECT_EQ(e.field(), "axles") << e.what();
    EXPECT_NE(std::string(e.what()).find("corner FL"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(c.part), std::string::npos) << e.what();
  }
}

// A scenario's `vehicle: {file: ...}` (relative to the scenario's folder) gives every model the
// file's vehicle; `preset` and `file` together are refused.
TEST(VehicleFile, ScenarioVehicleFileReachesEveryModel) {
  const std::string path = "tests/data/vehicles/scenario.yaml";
  const auto scenario = [&](const std::string& model) {
    return parse_scenario("model: " + model + "\nvehicle: {file: light_utility.yaml}\nduration: 1\n", path);
  };
  const VehicleDefinition v = load_vehicle_file(kLightFile);
  const Scenario ce = scenario("ce");
  EXPECT_EQ(ce.vehicle_path, kLightFile);
  CeParams<double> expected = make_ce_params(v);
  finalize_ce_params(expected);
  EXPECT_TRUE(same_bits(ce.params.of<CeHost>(), expected));
  EXPECT_TRUE(same_bits(scenario("pgs").params.of<PgsHost>(), expected));
  EXPECT_TRUE(same_bits(scenario("strut").params.of<StrutHost>(), strut_params_from_definition(v)));
  // Overrides apply on top of the file's vehicle.
  const Scenario heavy = parse_scenario(
      "model: ce\nvehicle: {file: light_utility.yaml, overrides: {chassis_mass: 1500}}\nduration: 1\n", path);
  EXPECT_EQ(heavy.params.of<CeHost>().chassis_mass, 1500.0);
  try {
    parse_scenario("vehicle: {preset: hmmwv, file: light_utility.yaml}\nduration: 1\n", path);
    ADD_FAILURE() << "preset and file together";
  } catch (const ScenarioError& e) {
    EXPECT_EQ(e.field(), "vehicle.file");
    EXPECT_EQ(e.line(), 1);
  }
  try {
    parse_scenario("vehicle: {file: missing.yaml}\nduration: 1\n", path);
    ADD_FAILURE() << "missing file";
  } catch (const ScenarioError& e) {
    EXPECT_EQ(e.field(), "vehicle.file");
    EXPECT_NE(std::string(e.what()).find("missing.yaml"), std::string::npos) << e.what();
  }
}

// A `.json` vehicle file is read as a Chrono::Vehicle specification (host/scenario/chrono_vehicle.h),
// from every entry point: the HMMWV written in Chrono's schema has the built-in HMMWV's mass and
// suspension.
TEST(VehicleFile, ChronoJsonIsReadByExtension) {
  const std::string json = "tests/data/chrono_hmmwv/vehicle.json";
  const CeParams<double> ce = make_ce_params(load_vehicle_file(json));
  const CeParams<double> preset = hmmwv_ce_params();
  EXPECT_EQ(ce_total_mass(ce), ce_total_mass(preset));
  EXPECT_TRUE(same_bits(ce.corner, preset.corner));
  const Scenario s = parse_scenario("model: ce\nvehicle: {file: ../chrono_hmmwv/vehicle.json}\nduration: 1\n",
                                    "tests/data/vehicles/scenario.yaml");
  EXPECT_EQ(ce_total_mass(s.params.of<CeHost>()), ce_total_mass(preset));
  std::ostringstream out, err;
  EXPECT_EQ(params_command("strut", "hmmwv", json, out, err), kExitOk) << err.str();
}

// `fleetdyn params --vehicle` and `fleetdyn kinematics --vehicle`. The made-up vehicle's corners
// are the HMMWV's moved 0.1 m inboard (and its axles moved in x), a rigid shift of every
// hardpoint: its camber and toe curves must be the HMMWV's and its wheel centres 0.1 m inboard.
TEST(VehicleFile, CommandsTakeAVehicleFile) {
  std::ostringstream out, err;
  ASSERT_EQ(params_command("ce", "hmmwv", kLightFile, out, err), kExitOk) << err.str();
  EXPECT_NE(out.str().find("chassis_mass"), std::string::npos);
  EXPECT_NE(out.str().find("1205.29"), std::string::npos) << "1200 kg chassis + 5.286 kg steering\n" << out.str();
  std::ostringstream out2, err2;
  EXPECT_EQ(params_command("strut", "hmmwv", "tests/data/vehicles/none.yaml", out2, err2), kExitBadInput);
  EXPECT_NE(err2.str().find("tests/data/vehicles/none.yaml"), std::string::npos) << err2.str();

  const auto curves = [](std::optional<std::string> vehicle) {
    KinematicsOptions o;
    o.vehicle = std::move(vehicle);
    o.from = -0.05;
    o.to = 0.05;
    o.step = 0.025;
    std::ostringstream csv, e;
    EXPECT_EQ(kinematics_command(o, csv, e), kExitOk) << e.str();
    std::vector<std::vector<double>> rows;  // FL rows: travel, camber, toe, x, y, z
    std::istringstream lines(csv.str());
    std::string line;
    while (std::getline(lines, line)) {
      if (line.rfind("FL,", 0) != 0) continue;
      std::vector<double> row;
      std::istringstream cells(line.substr(3));
      std::string cell;
      while (std::getline(cells, cell, ',')) row.push_back(std::stod(cell));
      rows.push_back(row);
    }
    return rows;
  };
  const auto hmmwv = curves(std::nullopt);
  const auto light = curves(std::string(kLightFile));
  ASSERT_EQ(hmmwv.size(), 5u);
  ASSERT_EQ(light.size(), hmmwv.size());
  for (size_t i = 0; i < hmmwv.size(); ++i) {
    EXPECT_NEAR(light[i][1], hmmwv[i][1], 1e-9) << "camber at travel " << hmmwv[i][0];
    EXPECT_NEAR(light[i][2], hmmwv[i][2], 1e-9) << "toe at travel " << hmmwv[i][0];
    EXPECT_NEAR(hmmwv[i][4] - light[i][4], 0.1, 1e-9) << "wheel centre y at travel " << hmmwv[i][0];
  }
  KinematicsOptions bad;
  bad.vehicle = "tests/data/vehicles/none.yaml";
  std::ostringstream o3, e3;
  EXPECT_EQ(kinematics_command(bad, o3, e3), kExitBadInput);
  EXPECT_NE(e3.str().find("none.yaml"), std::string::npos) << e3.str();
}

}  // namespace
}  // namespace fleetdyn
