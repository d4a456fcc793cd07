// Chrono::Vehicle JSON vehicle files (host/scenario/chrono_vehicle.h): the HMMWV written in
// Chrono's schema (tests/data/chrono_hmmwv) loads to hmmwv_vehicle() field by field and to the
// same ce parameters; what fleetdyn cannot represent is refused naming file, line and field;
// bad numbers and suspensions that cannot assemble are refused at load.
// Runs from the source tree (tests/data/chrono_hmmwv).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <string>

#include "fleetdyn/ce.h"
#include "fleetdyn/vehicle_definition.h"
#include "host/scenario/chrono_vehicle.h"
#include "host/scenario/scenario.h"
#include "tests/file_test_util.h"

namespace fleetdyn {
namespace {

namespace fs = std::filesystem;
using test::contains;
using test::read_text;
using test::write_text;

const char* const kData = "tests/data/chrono_hmmwv";

// Element-wise equality of two structs made only of doubles, naming the first differing index.
template <class S>
void expect_same_doubles(const S& a, const S& b, const std::string& what) {
  static_assert(sizeof(S) % sizeof(double) == 0, "a struct of doubles");
  double x[sizeof(S) / sizeof(double)], y[sizeof(S) / sizeof(double)];
  std::memcpy(x, &a, sizeof(S));
  std::memcpy(y, &b, sizeof(S));
  for (size_t i = 0; i < sizeof(S) / sizeof(double); ++i) EXPECT_EQ(x[i], y[i]) << what << " double #" << i;
}

void expect_same_vec(Vec3<double> a, Vec3<double> b, const std::string& what) {
  EXPECT_EQ(a.x, b.x) << what;
  EXPECT_EQ(a.y, b.y) << what;
  EXPECT_EQ(a.z, b.z) << what;
}

// Every field the Chrono files carry, bit for bit. The shock is not among them: Chrono's JSON
// shock is one linear coefficient (checked separately); hmmwv_vehicle()'s is piecewise.
void expect_mapped_fields_equal(const VehicleDefinition& a, const VehicleDefinition& b) {
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.chassis_mass, b.chassis_mass);
  expect_same_vec(a.chassis_com, b.chassis_com, "chassis_com");
  expect_same_doubles(a.chassis_inertia, b.chassis_inertia, "chassis_inertia");
  expect_same_vec(a.steering.origin, b.steering.origin, "steering.origin");
  EXPECT_EQ(a.steering.pitch, b.steering.pitch);  // the quaternion's half angle printed to 17 digits
  expect_same_vec(a.steering.pitman_pivot, b.steering.pitman_pivot, "pitman_pivot");
  expect_same_vec(a.steering.pitman_link, b.steering.pitman_link, "pitman_link");
  expect_same_vec(a.steering.idler_pivot, b.steering.idler_pivot, "idler_pivot");
  expect_same_vec(a.steering.idler_link, b.steering.idler_link, "idler_link");
  EXPECT_EQ(a.steering.max_angle, b.steering.max_angle);
  EXPECT_EQ(a.steering_link_mass, b.steering_link_mass);
  EXPECT_EQ(a.pitman_arm_mass, b.pitman_arm_mass);
  const AxleDefinition* axles[2][2] = {{&a.front, &b.front}, {&a.rear, &b.rear}};
  for (int i = 0; i < 2; ++i) {
    const AxleDefinition& x = *axles[i][0];
    const AxleDefinition& y = *axles[i][1];
    const std::string w = i == 0 ? "front " : "rear ";
    EXPECT_EQ(x.x, y.x) << w;
    expect_same_doubles(x.hardpoints, y.hardpoints, w + "hardpoints");
    expect_same_doubles(x.lca, y.lca, w + "lca");
    expect_same_doubles(x.uca, y.uca, w + "uca");
    expect_same_doubles(x.upright, y.upright, w + "upright");
    expect_same_doubles(x.tierod, y.tierod, w + "tierod");
    expect_same_doubles(x.spring, y.spring, w + "spring");
    EXPECT_EQ(x.bump_stop_length, y.bump_stop_length) << w;
    EXPECT_EQ(x.rebound_stop_length, y.rebound_stop_length) << w;
  }
  expect_same_doubles(a.spindle, b.spindle, "spindle");
  expect_same_doubles(a.rim, b.rim, "rim");
  expect_same_doubles(a.tire_body, b.tire_body, "tire_body");
  const VehicleCommon<double>& c = a.common;
  const VehicleCommon<double>& d = b.common;
  EXPECT_EQ(c.engine_peak_torque, d.engine_peak_torque);
  EXPECT_EQ(c.engine_peak_power, d.engine_peak_power);
  EXPECT_EQ(c.engine_max_speed, d.engine_max_speed);
  EXPECT_EQ(c.driveline_ratio, d.driveline_ratio);  // 1 / (1.0 x 0.16666666666666666)
  EXPECT_EQ(c.front_torque_split, d.front_torque_split);
  EXPECT_EQ(c.brake_torque_front, d.brake_torque_front);
  EXPECT_EQ(c.brake_torque_rear, d.brake_torque_rear);
  expect_same_doubles(c.tire, d.tire, "tire");  // slip_velocity_floor from the defaults
}

TEST(ChronoVehicle, HmmwvLoadsToTheBuiltInDefinition) {
  const VehicleDefinition v = load_chrono_vehicle(std::string(kData) + "/vehicle.json");
  const VehicleDefinition h = hmmwv_vehicle();
  expect_mapped_fields_equal(v, h);
  // The shock: Chrono's JSON linear coefficient on all four rates (shared/reference/hmmwv.md).
  EXPECT_EQ(v.front.shock.mid_compression, 19015.5692);
  EXPECT_EQ(v.front.shock.out_rebound, 19015.5692);
  EXPECT_EQ(v.rear.shock.mid_rebound, 36725.22);
  EXPECT_EQ(v.rear.shock.out_compression, 36725.22);
  // From the defaults (Chrono's files do not carry them): the built-in HMMWV's values.
  const VehicleDefinition defaults = chrono_vehicle_defaults();
  EXPECT_EQ(v.steer_time_constant, h.steer_time_constant);
  EXPECT_EQ(v.common.driveline_efficiency, h.common.driveline_efficiency);
  EXPECT_EQ(v.common.wheel_lock_time, h.common.wheel_lock_time);
  EXPECT_EQ(v.common.gravity, h.common.gravity);
  EXPECT_EQ(v.balance_springs_at_design, h.balance_springs_at_design);
  EXPECT_EQ(v.front.shock.midstroke_min, defaults.front.shock.midstroke_min);
  for (int k = 0; k < kStopTablePoints; ++k) {
    EXPECT_EQ(v.stop_table_pen[k], h.stop_table_pen[k]);
    EXPECT_EQ(v.stop_table_force[k], h.stop_table_force[k]);
  }
}

TEST(ChronoVehicle, CeParamsHaveTheBuiltInMassComAndCornerGeometry) {
  const CeParams<double> p = make_ce_params(load_chrono_vehicle(std::string(kData) + "/vehicle.json"));
  const CeParams<double> q = hmmwv_ce_params();
  EXPECT_EQ(p.chassis_mass, q.chassis_mass);
  expect_same_vec(p.chassis_com, q.chassis_com, "chassis_com");
  expect_same_doubles(p.chassis_inertia, q.chassis_inertia, "chassis_inertia");
  EXPECT_EQ(ce_total_mass(p), ce_total_mass(q));
  EXPECT_EQ(p.wheel_mass, q.wheel_mass);
  EXPECT_EQ(p.wheel_spin_inertia, q.wheel_spin_inertia);
  for (int i = 0; i < kCorners; ++i) {
    expect_same_doubles(p.corner[i], q.corner[i], "corner " + std::to_string(i));
    for (int b = 0; b < kCeAggregateBodies; ++b) {
      EXPECT_EQ(p.body_mass[i][b], q.body_mass[i][b]);
      expect_same_doubles(p.body_inertia[i][b], q.body_inertia[i][b], "body inertia");
    }
  }
  expect_same_doubles(p.steering, q.steering, "steering");
  // The springs balanced at design from the same rates and geometry: the same free lengths.
  EXPECT_EQ(p.axle[0].spring_free_length, q.axle[0].spring_free_length);
  EXPECT_EQ(p.axle[1].spring_free_length, q.axle[1].spring_free_length);
}

// The strut model builds from it too (its lumped shock needs the design inside the midstroke
// band, which the default band for a linear shock spans).
TEST(ChronoVehicle, StrutParamsBuild) {
  const StrutParams<double> s = strut_params_from_definition(load_chrono_vehicle(std::string(kData) + "/vehicle.json"));
  EXPECT_EQ(s.total_mass, strut_params_from_definition(hmmwv_vehicle()).total_mass);
}

// A copy of the HMMWV files in a scratch folder, edited per test.
class ChronoVehicleFiles : public test::ScratchFolderTest {
 protected:
  ChronoVehicleFiles() : ScratchFolderTest("fleetdyn_chrono_") {}
  void SetUp() override {
    ScratchFolderTest::SetUp();
    for (const auto& e : fs::directory_iterator(kData)) fs::copy_file(e.path(), dir_ / e.path().filename());
  }
  // Replaces the one occurrence of `from` in `file`.
  void edit(const std::string& file, const std::string& from, const std::string& to) {
    std::string text = read_text(dir_ / file);
    const size_t at = text.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    ASSERT_EQ(text.find(from, at + 1), std::string::npos) << from << " occurs twice";
    write_text(dir_ / file, text.replace(at, from.size(), to));
  }
  // The 1-based line of the one line of `file` containing `text`.
  int line_of(const std::string& file, const std::string& text) {
    const std::string all = read_text(dir_ / file);
    const size_t at = all.find(text);
    EXPECT_NE(at, std::string::npos) << text;
    return 1 + static_cast<int>(std::count(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
  }
  VehicleDefinition load() { return load_chrono_vehicle((dir_ / "vehicle.json").string()); }
  // Loads, expecting a ScenarioError at `file`:`line`, `field`, whose message contains `what`.
  void expect_refused(const std::string& file, int line, const std::string& field, const std::string& what) {
    try {
      load();
      ADD_FAILURE() << "loaded; expected " << file << ":" << line << ": " << field;
    } catch (const ScenarioError& e) {
      EXPECT_EQ(fs::path(e.file()).filename().string(), file) << e.what();
      EXPECT_EQ(e.line(), line) << e.what();
      EXPECT_EQ(e.field(), field) << e.what();
      EXPECT_TRUE(contains(e.what(), what)) << e.what();
      EXPECT_TRUE(contains(e.what(), file + ":" + std::to_string(line) + ": ")) << e.what();
    }
  }
};

TEST_F(ChronoVehicleFiles, TheCopyLoads) { EXPECT_EQ(load().name, "HMMWV"); }

TEST_F(ChronoVehicleFiles, OtherSuspensionTemplatesAreRefusedByName) {
  for (const char* t : {"MacPhersonStrut", "SolidAxle", "MultiLink"}) {
    SetUp();
    edit("suspension_front.json", "\"Template\": \"DoubleWishbone\"", std::string("\"Template\": \"") + t + "\"");
    expect_refused("suspension_front.json", line_of("suspension_front.json", "\"Template\""), "Template",
                   std::string("unsupported suspension template '") + t + "' (supported: DoubleWishbone)");
  }
}

TEST_F(ChronoVehicleFiles, RackPinionSteeringIsRefused) {
  edit("steering.json", "\"PitmanArm\"", "\"RackPinion\"");
  expect_refused("steering.json", line_of("steering.json", "\"Template\""), "Template",
                 "unsupported steering template 'RackPinion' (supported: PitmanArm)");
}

TEST_F(ChronoVehicleFiles, ThreeAxlesAreRefused) {
  const std::string rear = "    {\n      \"Suspension Input File\": \"suspension_rear.json\",";
  edit("vehicle.json", rear, rear.substr(0, rear.size() - 1) + ", \"Suspension Location\": [-3, 0, 0]},\n" + rear);
  expect_refused("vehicle.json", line_of("vehicle.json", "\"Axles\""), "Axles",
                 "3 axles given; fleetdyn's vehicles have exactly 2");
}

TEST_F(ChronoVehicleFiles, OtherTireTemplatesAreRefused) {
  edit("tire.json", "\"TMeasyTire\"", "\"Pac02Tire\"");
  expect_refused("tire.json", line_of("tire.json", "\"Template\""), "Template",
                 "unsupported tire template 'Pac02Tire' (supported: TMeasyTire)");
}

TEST_F(ChronoVehicleFiles, TransmissionWithGearsIsRefused) {
  edit("transmission.json", "[1.0]", "[0.2, 0.5, 1.0]");
  expect_refused("transmission.json", line_of("transmission.json", "Forward Gear Ratios"),
                 "Gear Box.Forward Gear Ratios", "fleetdyn's driveline is one fixed reduction");
}

TEST_F(ChronoVehicleFiles, SteeredRearAxleIsRefused) {
  edit("vehicle.json", "\"Suspension Location\": [-1.688965, 0, 0],",
       "\"Suspension Location\": [-1.688965, 0, 0],\n      \"Steering Index\": 0,");
  expect_refused("vehicle.json", line_of("vehicle.json", "[-1.688965, 0, 0],") + 1, "Axles[1].Steering Index",
                 "fleetdyn steers the front axle only");
}

TEST_F(ChronoVehicleFiles, NegativeMassNamesFileLineField) {
  edit("suspension_rear.json", "\"Mass\": 23.965", "\"Mass\": -23.965");
  expect_refused("suspension_rear.json", line_of("suspension_rear.json", "\"Mass\": -23.965"), "Lower Control Arm.Mass",
                 "-23.965 is outside (0, 100000] kg");
}

TEST_F(ChronoVehicleFiles, NanWrittenAsStringNamesFileLineField) {
  edit("chassis.json", "\"Mass\": 2086.52", "\"Mass\": \"NaN\"");
  expect_refused("chassis.json", line_of("chassis.json", "\"NaN\""), "Components[0].Mass", "expected a number");
}

TEST_F(ChronoVehicleFiles, MissingHardpointNamesFileLineField) {
  edit("suspension_front.json", "    \"Location Upright\": [-0.053035, 0.715518, 0.215494]\n", "");
  edit("suspension_front.json", "\"Location Chassis Back\": [-0.268214, 0.477736, 0.195560],",
       "\"Location Chassis Back\": [-0.268214, 0.477736, 0.195560]");
  expect_refused("suspension_front.json", line_of("suspension_front.json", "\"Upper Control Arm\""),
                 "Upper Control Arm.Location Upright", "required key is missing");
}

// The LCA ball joint moved 1 m outboard: the tierod loop cannot close at full steering lock.
TEST_F(ChronoVehicleFiles, LoopsThatCannotCloseAreRefusedAtLoadNamingTheFile) {
  edit("suspension_front.json", "\"Location Upright\": [-0.035560, 0.786511, -0.118110]",
       "\"Location Upright\": [-0.035560, 1.786511, -0.118110]");
  try {
    load();
    ADD_FAILURE() << "loaded";
  } catch (const ScenarioError& e) {
    EXPECT_EQ(fs::path(e.file()).filename().string(), "suspension_front.json") << e.what();
    EXPECT_TRUE(contains(e.what(), "the steering does not assemble at full input")) << e.what();
  }
}

TEST_F(ChronoVehicleFiles, ZeroLengthTierodIsRefusedNamingTheFile) {
  edit("suspension_rear.json", "\"Location Upright\": [0.170282, 0.821106, -0.009271]",
       "\"Location Upright\": [0.223266, 0.416052, 0.058674]");
  try {
    load();
    ADD_FAILURE() << "loaded";
  } catch (const ScenarioError& e) {
    EXPECT_EQ(fs::path(e.file()).filename().string(), "suspension_rear.json") << e.what();
    EXPECT_TRUE(contains(e.what(), "corner RL: tierod is degenerate")) << e.what();
  }
}

// Chrono's own HMMWV front spring table (its DoubleWishboneFront.json, "Spring Curve Data"):
// read as the cubic law of shared/reference/hmmwv.md, k = 167062 N/m, c = 3.6085392e7 N/m^3.
// The table prints forces to 1e-3 N at deformations of 0.02 m and more: the fit's error is at
// most ~1e-3 / 0.02 = 0.05 N/m on k and ~1e-3 / 0.02^3 / 20 ~ 6 N/m^3 on c, so 1e-6 relative.
TEST_F(ChronoVehicleFiles, ChronosTabulatedHmmwvSpringReadsAsItsCubicLaw) {
  const char* table =
      "\"Spring Curve Data\": [[-0.2, -322095.536], [-0.18, -240521.166], [-0.16, -174535.686],\n"
      "      [-0.14, -122406.996], [-0.12, -82402.997], [-0.1, -52791.592], [-0.08, -31840.681],\n"
      "      [-0.06, -17818.165], [-0.04, -8991.945], [-0.02, -3629.923], [0, 0], [0.02, 3629.923],\n"
      "      [0.04, 8991.945], [0.06, 17818.165], [0.08, 31840.681], [0.1, 52791.592], [0.12, 82402.997],\n"
      "      [0.14, 122406.996], [0.16, 174535.686], [0.18, 240521.166], [0.2, 322095.536]],";
  edit("suspension_front.json", "\"Spring Coefficient\": 167062.0,", table);
  const VehicleDefinition v = load();
  EXPECT_NEAR(v.front.spring.rate, 167062.0, 1e-6 * 167062.0);
  EXPECT_NEAR(v.front.spring.cubic, 3.6085392e7, 1e-6 * 3.6085392e7);
}

TEST_F(ChronoVehicleFiles, TabulatedSpringThatIsNotCubicIsRefused) {
  // Linear at 100 kN/m but for a progressive last point (a bump rubber): 15 kN instead of 10 kN.
  edit("suspension_front.json", "\"Spring Coefficient\": 167062.0,",
       "\"Spring Curve Data\": [[-0.1, -10000], [-0.06, -6000], [-0.02, -2000],\n      [0.02, 2000], [0.06, 6000],\n"
       "      [0.1, 15000]],");
  expect_refused("suspension_front.json", line_of("suspension_front.json", "[0.1, 15000]"),
                 "Spring.Spring Curve Data[5]", "not a linear-plus-cubic law");
}

TEST_F(ChronoVehicleFiles, DifferentTiresFrontAndRearAreRefused) {
  fs::copy_file(dir_ / "tire.json", dir_ / "tire_rear.json");
  std::string text = read_text(dir_ / "tire_rear.json");
  const std::string mu = "\"Coefficient of Friction\": 0.8";
  text.replace(text.find(mu), mu.size(), "\"Coefficient of Friction\": 0.9");
  write_text(dir_ / "tire_rear.json", text);
  const std::string rear_tire =
      "\"Right Brake Input File\": \"brake_rear.json\",\n      \"Tire Input File\": \"tire.json\"";
  edit("vehicle.json", rear_tire,
       "\"Right Brake Input File\": \"brake_rear.json\",\n      \"Tire Input File\": \"tire_rear.json\"");
  expect_refused("vehicle.json", line_of("vehicle.json", "tire_rear.json"), "Axles[1].Tire Input File",
                 "fleetdyn has one tire for all four wheels");
}

TEST_F(ChronoVehicleFiles, LoadDependentTrailIsRefused) {
  edit("tire.json", "[0.178, 0.178]", "[0.178, 0.19]");
  expect_refused("tire.json", line_of("tire.json", "[0.178, 0.19]"),
                 "Parameters.Aligning.Normalized Trail at Zero Slip sy", "does not depend on load");
}

TEST_F(ChronoVehicleFiles, MassOfATierodIsOptional) {
  edit("suspension_rear.json", "\"Mass\": 6.0,\n    \"Inertia\": [0.05, 0.05, 0.5],\n    \"Radius\": 0.02,\n", "");
  const VehicleDefinition v = load();  // Chrono's distance-constraint tierod
  EXPECT_EQ(v.rear.tierod.mass, 0.0);
  EXPECT_EQ(v.front.tierod.mass, 6.0);
}

TEST_F(ChronoVehicleFiles, MissingSubsystemFileNamesTheReference) {
  fs::remove(dir_ / "engine.json");
  expect_refused("vehicle.json", line_of("vehicle.json", "\"Engine Input File\""), "Powertrain.Engine Input File",
                 "cannot find 'engine.json'");
}

// Chrono's paths are relative to its data folder: a vehicle file two folders down finds
// "hmmwv/..." in a folder above its own.
TEST_F(ChronoVehicleFiles, PathsResolveAgainstTheFoldersAbove) {
  const fs::path data = dir_ / "data";
  fs::create_directories(data / "hmmwv" / "vehicle");
  for (const auto& e : fs::directory_iterator(dir_)) {
    if (e.is_regular_file() && e.path().filename() != "vehicle.json") {
      fs::copy_file(e.path(), data / "hmmwv" / e.path().filename());
    }
  }
  std::string text = read_text(dir_ / "vehicle.json");
  for (size_t at = text.find("File\": \""); at != std::string::npos; at = text.find("File\": \"", at + 1)) {
    text.insert(at + 8, "hmmwv/");
  }
  write_text(data / "hmmwv" / "vehicle" / "vehicle.json", text);
  const VehicleDefinition v = load_chrono_vehicle((data / "hmmwv" / "vehicle" / "vehicle.json").string());
  expect_mapped_fields_equal(v, hmmwv_vehicle());
}

TEST_F(ChronoVehicleFiles, SyntaxErrorNamesTheFile) {
  edit("wheel.json", "\"Mass\": 18.8,", "\"Mass\": 18.8,,");
  try {
    load();
    ADD_FAILURE() << "loaded";
  } catch (const ScenarioError& e) {
    EXPECT_EQ(fs::path(e.file()).filename().string(), "wheel.json") << e.what();
    EXPECT_TRUE(contains(e.what(), "not valid JSON")) << e.what();
  }
}

// A suspension location 5 cm up moves every hardpoint of that axle 5 cm up in fleetdyn's
// suspension frame (the chassis frame shifted along x only).
TEST_F(ChronoVehicleFiles, SuspensionLocationHeightMovesTheHardpoints) {
  edit("vehicle.json", "[-1.688965, 0, 0]", "[-1.688965, 0, 0.05]");
  const VehicleDefinition v = load();
  const DoubleWishboneHardpoints<double>& h = hmmwv_vehicle().rear.hardpoints;
  EXPECT_EQ(v.rear.x, -1.688965);
  EXPECT_EQ(v.rear.hardpoints.lca_front.z, h.lca_front.z + 0.05);
  EXPECT_EQ(v.rear.hardpoints.wheel_centre.z, h.wheel_centre.z + 0.05);
  EXPECT_EQ(v.rear.hardpoints.shock_chassis.z, h.shock_chassis.z + 0.05);
  EXPECT_EQ(v.rear.hardpoints.tierod_outer.y, h.tierod_outer.y);
  expect_same_doubles(v.front.hardpoints, hmmwv_vehicle().front.hardpoints, "front hardpoints");
}

TEST_F(ChronoVehicleFiles, SuspensionLocationOffTheCentrePlaneIsRefused) {
  edit("vehicle.json", "[-1.688965, 0, 0]", "[-1.688965, 0.1, 0]");
  expect_refused("vehicle.json", line_of("vehicle.json", "[-1.688965, 0.1, 0]"), "Axles[1].Suspension Location",
                 "y must be 0");
}

// Two chassis components: mass summed, COM mass-weighted, inertia by the parallel-axis theorem.
// Hand values: masses 1500 and 500 kg at x = 0.5 and -1.5 (COM at x = 0), each with moments
// (100, 200, 300): Ixx = 200, Iyy = 400 + 1500 0.5^2 + 500 1.5^2 = 1900, Izz = 600 + 1500 = 2100.
TEST_F(ChronoVehicleFiles, ChassisComponentsCombine) {
  const std::string one =
      "{ \"Centroidal Frame\": { \"Location\": [@X, 0, 0.213], \"Orientation\": [1, 0, 0, 0] },\n"
      "      \"Mass\": @M, \"Moments of Inertia\": [100, 200, 300], \"Products of Inertia\": [0, 0, 0] }";
  std::string a = one, b = one;
  a.replace(a.find("@X"), 2, "0.5");
  a.replace(a.find("@M"), 2, "1500");
  b.replace(b.find("@X"), 2, "-1.5");
  b.replace(b.find("@M"), 2, "500");
  const std::string text = read_text(dir_ / "chassis.json");
  const size_t from = text.find("\"Components\": [") + 15, to = text.find("  ],");
  write_text(dir_ / "chassis.json", text.substr(0, from) + "\n    " + a + ",\n    " + b + "\n" + text.substr(to));
  const VehicleDefinition v = load();
  EXPECT_EQ(v.chassis_mass, 2000.0);
  EXPECT_NEAR(v.chassis_com.x, 0.0, 1e-15);  // 1500 x 0.5 - 500 x 1.5 = 0 up to rounding
  EXPECT_NEAR(v.chassis_com.z, 0.213, 1e-15);
  EXPECT_NEAR(v.chassis_inertia.xx, 200.0, 1e-9);
  EXPECT_NEAR(v.chassis_inertia.yy, 1900.0, 1e-9);
  EXPECT_NEAR(v.chassis_inertia.zz, 2100.0, 1e-9);
  EXPECT_NEAR(v.chassis_inertia.xz, 0.0, 1e-9);
}

// Chrono's rear-wheel-drive shafts driveline: all torque to the rear, the conical gear's sign
// (a direction) dropped: 1 / (1.0 x |-0.2|) = 5.
TEST_F(ChronoVehicleFiles, RearWheelDriveShaftsDriveline) {
  write_text(dir_ / "driveline.json",
             "{\n  \"Name\": \"RWD\", \"Type\": \"Driveline\", \"Template\": \"ShaftsDriveline2WD\",\n"
             "  \"Gear Ratio\": { \"Conical Gear\": -0.2, \"Differential\": -1.0 },\n"
             "  \"Differential Locking Limit\": 0\n}\n");
  edit("vehicle.json", "\"Suspension Indexes\": [0, 1]", "\"Suspension Indexes\": [1]");
  const VehicleDefinition v = load();
  EXPECT_EQ(v.common.front_torque_split, 0.0);
  EXPECT_EQ(v.common.driveline_ratio, 1.0 / 0.2);
}

TEST_F(ChronoVehicleFiles, LockingDifferentialIsRefused) {
  write_text(dir_ / "driveline.json",
             "{\n  \"Name\": \"AWD\", \"Type\": \"Driveline\", \"Template\": \"ShaftsDriveline4WD\",\n"
             "  \"Gear Ratio\": { \"Front Conical Gear\": 0.2, \"Rear Conical Gear\": 0.2 },\n"
             "  \"Axle Differential Locking Limit\": 100\n}\n");
  expect_refused("driveline.json", 4, "Axle Differential Locking Limit", "fleetdyn's are open");
}

TEST_F(ChronoVehicleFiles, SteeringRotatedAboutAnotherAxisIsRefused) {
  edit("vehicle.json", "[0.98699636656023193, 0, 0.1607425656038261, 0]",
       "[0.98699636656023193, 0.1607425656038261, 0, 0]");
  expect_refused("vehicle.json", line_of("vehicle.json", "\"Orientation\""), "Steering Subsystems[0].Orientation",
                 "rotated about the chassis y axis");
}

}  // namespace
}  // namespace fleetdyn
