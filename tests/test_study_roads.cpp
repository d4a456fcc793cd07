// Rough roads generated per sample: in a study on a rough_road each sample
// drives its own stretch of one periodic ISO 8608 road tile, with its own class, keyed by
// (study seed, sample) alone. Checked here:
//   (a) two samples get different roads; a sample gets the same road whatever the chunk size,
//       thread count or batch it is in, on the SIMD lanes and the scalar path, for strut and ce;
//   (b) a sample's profile has exactly the variance of its class's PSD integral;
//   (c) a rougher class shakes the vehicle harder (rank correlation significantly > 0);
// and the scenario errors of the sampled terrain names.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "fleetdyn/ce.h"
#include "fleetdyn/rough_road.h"
#include "host/cli/run_job.h"
#include "host/scenario/scenario.h"
#include "host/study/sample_setup.h"
#include "host/study/samples_file.h"
#include "host/study/statistics.h"
#include "tests/strut_test_util.h"
#include "tests/study_test_util.h"

namespace fleetdyn {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using study::SampleSetup;
using study::StudyDesign;

// A rough-road study: 24 samples coasting at 20 m/s for 2 s over a 400 m x 8 m tile, the class
// sampled from B to E. `extra` is appended to the study section.
std::string road_study(const std::string& parameters = "    terrain.class: {dist: uniform, min: B, max: E}\n",
                       const std::string& extra = "", const std::string& head = "") {
  return "name: road_small\nmodel: strut\nvehicle: {preset: hmmwv}\n" + head +
         "terrain: {type: rough_road, class: C, length: 400, width: 8, seed: 3}\n"
         "initial: {speed: 20.0}\nduration: 2.0\nstep: 0.001\nprecision: fp64\nbackend: cpu\n"
         "study:\n  samples: 24\n  seed: 5\n  sampling: random\n  chunk: 24\n  parameters:\n" +
         parameters + extra;
}

using test::read_text;

fs::path scratch(const std::string& name) {
  const fs::path p = test::fresh_path("roads", name);
  fs::create_directories(p);
  return p;
}

// Runs the study text in `folder` (scenario.yaml, results in folder/out); returns the exit code.
int run_study_text(const fs::path& folder, const std::string& text) {
  std::string err;
  const int rc = test::run_study_text(folder, text, &err);
  EXPECT_EQ(err, "");
  return rc;
}

// The terrain sample `i` of study scenario s meets, with the scenario's heights attached.
TerrainDesc<double> sample_terrain(const Scenario& s, int64_t i, SampleSetup* setup = nullptr) {
  const StudyDesign design(s.study);
  std::vector<double> values(static_cast<size_t>(s.study.dimensions()));
  design.values(i, values.data());
  const SampleSetup su = study::sample_setup(s, values.data(), design.base_sample(i));
  if (setup) *setup = su;
  TerrainDesc<double> d = s.terrain.desc;
  d.hf_heights = s.terrain.heightfield.data();
  return varied_terrain(d, su.terrain);
}

double height_at(const TerrainDesc<double>& t, double x, double y) {
  const TerrainContact<double> c = terrain_query(t, Vec3<double>{x, y, 0.0}, 0.0, 0.0);
  return -c.distance / c.normal.z;  // exact for the height: distance = (0 - h) n_z
}

double variance(const std::vector<double>& h) {
  double mean = 0.0, sq = 0.0;
  for (double x : h) mean += x;
  mean /= static_cast<double>(h.size());
  for (double x : h) sq += (x - mean) * (x - mean);
  return sq / static_cast<double>(h.size());
}

// ---- (a) different samples, different roads; the same sample, the same road ---------------------

TEST(SampleRoads, TwoSamplesDriveDifferentRoadsAndOneSampleAlwaysTheSame) {
  const Scenario s = parse_scenario(road_study(), "road.yaml");
  ASSERT_TRUE(s.terrain_per_sample);
  ASSERT_EQ(s.terrain.desc.hf_periodic, 1);
  const TerrainDesc<double> a = sample_terrain(s, 0), b = sample_terrain(s, 1), a_again = sample_terrain(s, 0);
  std::vector<double> ha, hb, diff;
  for (double x = 0.0; x < 50.0; x += 0.05) {
    for (double y : {-0.9, 0.9}) {
      ha.push_back(height_at(a, x, y));
      hb.push_back(height_at(b, x, y));
      diff.push_back(ha.back() - hb.back());
      EXPECT_EQ(height_at(a_again, x, y), ha.back());  // keyed by the sample alone
    }
  }
  // Not a small perturbation of each other: the difference is as large as the roads themselves.
  EXPECT_GT(variance(diff), 0.5 * std::min(variance(ha), variance(hb)));
  // The key is (study seed, sample): another seed moves sample 0 elsewhere.
  std::string other = road_study();
  other.replace(other.find("seed: 5"), 7, "seed: 6");
  const TerrainDesc<double> c = sample_terrain(parse_scenario(other, "road.yaml"), 0);
  EXPECT_NE(c.hf_x0, a.hf_x0);
}

TEST(SampleRoads, SamplesCsvIsTheSameForAnyChunkSizeAndThreadCount) {
  const fs::path dir = scratch("chunks");
  std::string whole = road_study(), small = road_study(), threads = road_study();
  small.replace(small.find("chunk: 24"), 9, "chunk: 5");
  threads.replace(threads.find("backend: cpu"), 12, "backend: cpu\ncpu_threads: 1");
  threads.replace(threads.find("chunk: 24"), 9, "chunk: 7");
  fs::create_directories(dir / "whole");
  fs::create_directories(dir / "small");
  fs::create_directories(dir / "threads");
  ASSERT_EQ(run_study_text(dir / "whole", whole), kExitOk);
  ASSERT_EQ(run_study_text(dir / "small", small), kExitOk);
  ASSERT_EQ(run_study_text(dir / "threads", threads), kExitOk);
  const std::string reference = read_text(dir / "whole" / "out" / "samples.csv");
  EXPECT_EQ(read_text(dir / "small" / "out" / "samples.csv"), reference);
  EXPECT_EQ(read_text(dir / "threads" / "out" / "samples.csv"), reference);
  const json summary = json::parse(read_text(dir / "whole" / "out" / "summary.json"));
  EXPECT_EQ(summary["study"]["terrain_per_sample"]["tile_length_m"], 400.0);
  EXPECT_EQ(summary["counts"]["diverged"], 0);
}

// A periodic ISO 8608 road tile of the given class, length and width [m].
TerrainSpec periodic_road(char road_class, double length = 200.0, double width = 8.0) {
  RoughRoadSettings r;
  r.road_class = road_class;
  r.length = length;
  r.width = width;
  r.periodic = true;
  return iso8608_road(r);
}

// A vehicle on its own variation of the terrain, in a batch of others, moves exactly as the same
// vehicle alone in a batch whose terrain is that variation: the per-vehicle path (run_vehicle_steps'
// vehicle_terrain, the lanes' per-lane descriptors, the placement) adds nothing of its own.
template <class Params>
void expect_each_vehicle_as_alone(const std::vector<Params>& params, BatchOptions options, double seconds, bool bitwise) {
  const TerrainSpec road = periodic_road('D');
  const int n = 5;  // a full group of 4 lanes and a padded one
  TerrainSpec varied = road;
  for (int v = 0; v < n; ++v)
    varied.variation.push_back({37.0 * v + 3.0, 1.3 * v, v % 2 ? -1.0 + 0.2 * v : 0.5 + 0.3 * v, 0, {}, 0.0, 0.0});
  InitialCondition ic;
  ic.speed = 15.0;
  Batch all(params, n, varied, options);
  all.set_initial_conditions({ic});
  all.set_inputs({DriverInput<double>{0.05, 0.2, 0.0}});
  const int steps = static_cast<int>(std::lround(seconds / options.step));
  all.step(steps);
  const std::vector<VehicleSnapshot> together = all.snapshots();
  const std::vector<double> metrics = all.metrics();
  for (int v = 0; v < n; ++v) {
    TerrainSpec own = road;
    own.desc = varied_terrain(road.desc, varied.variation[static_cast<size_t>(v)]);
    Batch alone({params[static_cast<size_t>(v) % params.size()]}, 1, own, options);
    alone.set_initial_conditions({ic});
    alone.set_inputs({DriverInput<double>{0.05, 0.2, 0.0}});
    alone.step(steps);
    const VehicleSnapshot x = alone.snapshots()[0];
    const std::vector<double> m = alone.metrics();
    for (int k = 0; k < 3; ++k) {
      if (bitwise) {
        EXPECT_EQ(together[static_cast<size_t>(v)].position[k], x.position[k]) << "vehicle " << v;
      } else {
        EXPECT_NEAR(together[static_cast<size_t>(v)].position[k], x.position[k], 1e-6) << "vehicle " << v;
      }
    }
    const double scale = std::max(1.0, std::fabs(m[metric::max_abs_vert_accel]));
    EXPECT_NEAR(metrics[static_cast<size_t>(metric::max_abs_vert_accel) * n + v], m[metric::max_abs_vert_accel], bitwise ? 0.0 : 1e-6 * scale)
        << "vehicle " << v;
  }
  // The roads really differ: the vehicles are shaken differently.
  EXPECT_NE(metrics[static_cast<size_t>(metric::max_abs_vert_accel) * n + 0],
            metrics[static_cast<size_t>(metric::max_abs_vert_accel) * n + 1]);
}

TEST(SampleRoads, StrutScalarPathVehicleEqualsItAloneOnItsRoad) {
  BatchOptions o = test::cpu_options();
  o.cpu_simd = false;
  expect_each_vehicle_as_alone(std::vector<StrutParams<double>>{hmmwv_params()}, o, 2.0, true);
}

TEST(SampleRoads, StrutSimdLanesVehicleEqualsItAloneOnItsRoad) {
  BatchOptions o = test::cpu_options();
  o.cpu_simd = true;  // alone: one lane of a padded group, on the shared (varied) descriptor
  expect_each_vehicle_as_alone(std::vector<StrutParams<double>>{hmmwv_params()}, o, 2.0, true);
  o.precision = Precision::Fp32;
  expect_each_vehicle_as_alone(std::vector<StrutParams<double>>{hmmwv_params()}, o, 2.0, true);
}

TEST(SampleRoads, CeVehicleEqualsItAloneOnItsRoad) {
  BatchOptions o = test::cpu_options();
  o.step = 2.0e-3;
  expect_each_vehicle_as_alone(std::vector<CeParams<double>>{hmmwv_ce_params()}, o, 1.0, true);
}

// n HMMWVs driven 2 s at 20 m/s over `road` (no inputs) with options o.
Batch drive_road(const TerrainSpec& road, int n, const BatchOptions& o) {
  Batch b({hmmwv_params()}, n, road, o);
  InitialCondition ic;
  ic.speed = 20.0;
  b.set_initial_conditions({ic});
  b.step(2000);
  return b;
}

// The SIMD lanes and the scalar path put every vehicle on the same road: they agree to round-off.
TEST(SampleRoads, SimdLanesAgreeWithScalarPath) {
  TerrainSpec road = periodic_road('E');
  const int n = 7;
  for (int v = 0; v < n; ++v) road.variation.push_back({23.0 * v, 0.7 * v, v % 2 ? -1.0 : 1.0, 0, {}, 0.0, 0.0});
  std::vector<std::vector<double>> metrics;
  std::vector<std::vector<VehicleSnapshot>> snaps;
  for (bool simd : {true, false}) {
    BatchOptions o = test::cpu_options();
    o.cpu_simd = simd;
    Batch b = drive_road(road, n, o);
    metrics.push_back(b.metrics());
    snaps.push_back(b.snapshots());
  }
  for (int v = 0; v < n; ++v) {
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(snaps[0][v].position[k], snaps[1][v].position[k], 1e-6) << v;
    const size_t i = static_cast<size_t>(metric::max_abs_vert_accel) * n + v;
    EXPECT_NEAR(metrics[0][i], metrics[1][i], 1e-6 * metrics[1][i]) << v;
    EXPECT_GT(metrics[1][i], 0.5);  // a class E road at 20 m/s: the body is shaken
  }
}

TEST(SampleRoads, CudaMatchesCpu) {
  std::string why;
  if (!cuda_available(&why)) GTEST_SKIP() << why;
  TerrainSpec road = periodic_road('D');
  const int n = 40;
  for (int v = 0; v < n; ++v) road.variation.push_back({4.9 * v, 0.2 * v, v % 2 ? -1.0 : 1.0, 0, {}, 0.0, 0.0});
  std::vector<std::vector<VehicleSnapshot>> snaps;
  for (BackendKind backend : {BackendKind::Cpu, BackendKind::Cuda}) {
    BatchOptions o = test::cpu_options();
    o.backend = backend;
    o.cpu_simd = false;
    snaps.push_back(drive_road(road, n, o).snapshots());
  }
  for (int v = 0; v < n; ++v) {
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(snaps[0][v].position[k], snaps[1][v].position[k], 1e-6) << v;
  }
}

// Placement: each vehicle starts on its own road surface, not the shared one.
TEST(SampleRoads, VehiclesStartOnTheirOwnSurface) {
  TerrainSpec road = periodic_road('F', 100.0);
  road.variation = {{0.0, 0.0, 1.0, 0, {}, 0.0, 0.0}, {31.0, 2.0, -1.0, 0, {}, 0.0, 0.0}};
  Batch b({hmmwv_params()}, 2, road, test::cpu_options());
  const TerrainDesc<double> d = b.terrain().desc;
  const double z0 = height_at(varied_terrain(d, road.variation[0]), 0.0, 0.0);
  const double z1 = height_at(varied_terrain(d, road.variation[1]), 0.0, 0.0);
  ASSERT_GT(std::fabs(z1 - z0), 0.01);  // a class F road: centimetres apart under the two
  for (int v = 0; v < 2; ++v) {
    TerrainSpec own = road;
    own.variation.clear();
    own.desc = varied_terrain(road.desc, road.variation[static_cast<size_t>(v)]);
    Batch alone({hmmwv_params()}, 1, own, test::cpu_options());
    EXPECT_EQ(test::vehicle_state(b, v), alone.state()) << "vehicle " << v;
  }
  EXPECT_THROW(Batch({hmmwv_params()}, 3, road, test::cpu_options()), Error);  // 2 variations for 3 vehicles
}

// ---- (b) a sample's profile has its class's variance ---------------------------------------------

// Var = integral of Gd(n0) (n0/n)^2 over [n_min, n_max] = Gd(n0) n0^2 (1/n_min - 1/n_max). On the
// periodic tile each line y = const is a sum of waves with whole periods along it, so the variance
// over one period of samples is that integral to round-off: no statistical tolerance. Read through
// the sample's own terrain (shift and scale), at points that land on the grid.
TEST(SampleRoads, ProfileVarianceIsTheIntegralOfTheSampleClassPsd) {
  const Scenario s = parse_scenario(road_study(), "road.yaml");
  const TerrainDesc<double>& tile = s.terrain.desc;
  const int period = tile.hf_nx - 1;
  int checked = 0;
  for (int64_t i = 0; i < 6; ++i) {
    SampleSetup su;
    const TerrainDesc<double> d = sample_terrain(s, i, &su);
    const StudyDesign design(s.study);
    double road_class = 0.0;
    design.values(i, &road_class);
    RoughRoadSettings r = s.rough_road;
    r.roughness = iso8608_class_psd(road_class);
    const double expected = rough_road_variance(r);
    EXPECT_NEAR(su.terrain.relief_scale * su.terrain.relief_scale,
                iso8608_class_psd(road_class) / rough_road_psd(s.rough_road), 1e-12);
    for (int iy : {3, 16, 29}) {
      std::vector<double> h;
      for (int ix = 0; ix < period; ++ix) {
        h.push_back(height_at(d, tile.hf_x0 + ix * tile.hf_dx - su.terrain.shift_x,
                              tile.hf_y0 + iy * tile.hf_dy - su.terrain.shift_y));
      }
      EXPECT_NEAR(variance(h), expected, 1e-6 * expected) << "sample " << i << " class " << road_class << " row " << iy;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 18);
  // ISO 8608's classes: each 4x the previous in PSD, C = 256e-6 m^3.
  EXPECT_DOUBLE_EQ(iso8608_class_psd(3.0), iso8608_reference_psd('C'));
  EXPECT_DOUBLE_EQ(iso8608_class_psd(4.5) / iso8608_class_psd(3.5), 4.0);
}

// The tile joins itself: heights repeat with its length and width, and the wrap is seamless
// (no step where one period meets the next).
TEST(SampleRoads, PeriodicTileHasNoSeam) {
  TerrainSpec road = periodic_road('D', 300.0, 10.0);
  road.desc.hf_heights = road.heightfield.data();
  const double length = (road.desc.hf_nx - 1) * road.desc.hf_dx, width = (road.desc.hf_ny - 1) * road.desc.hf_dy;
  EXPECT_DOUBLE_EQ(length, 300.0);
  for (double x = -2.0; x < 2.0; x += 0.01) {
    for (double y : {-4.0, 0.3, 4.9}) {
      // (wrapping far-away coordinates costs round-off of ~1e-12 grid cells)
      EXPECT_NEAR(height_at(road.desc, x, y), height_at(road.desc, x + length, y), 1e-9);
      EXPECT_NEAR(height_at(road.desc, x, y), height_at(road.desc, x - 3 * length, y + width), 1e-9);
    }
  }
  // Continuous across the tile's edges (x = 0 and y = -width/2 are where one period meets the
  // next): a wrap without the repeated last column and row would step there by centimetres.
  double largest_jump = 0.0;
  for (double y : {-4.0, 0.3, 4.9}) {
    largest_jump = std::max(largest_jump, std::fabs(height_at(road.desc, -1e-7, y) - height_at(road.desc, 1e-7, y)));
  }
  for (double x : {-3.0, 0.05, 17.3}) {
    largest_jump = std::max(largest_jump,
                            std::fabs(height_at(road.desc, x, -5.0 - 1e-7) - height_at(road.desc, x, -5.0 + 1e-7)));
  }
  EXPECT_LT(largest_jump, 1e-6);
}

// ---- (c) a rougher class shakes the vehicle harder ------------------------------------------------

// 24 samples, classes B..E: the rank correlation of the largest vertical acceleration with the
// class must be significantly positive (one-sided 1 %: t = rho sqrt(n-2) / sqrt(1-rho^2) above
// t(0.99, 22) = 2.508). Each sample also drives its own stretch, so this is roughness winning over
// the luck of the stretch, not one stretch scaled.
TEST(SampleRoads, RougherClassGivesLargerVerticalAcceleration) {
  const fs::path dir = scratch("rougher");
  ASSERT_EQ(run_study_text(dir, road_study()), kExitOk);
  const study::SamplesTable t = study::read_samples((dir / "out" / "samples.csv").string());
  const std::vector<double>& road_class = t.values[static_cast<size_t>(t.column("terrain.class"))];
  const std::vector<double>& vert = t.values[static_cast<size_t>(t.column("max_abs_vert_accel_m_per_s2"))];
  const std::vector<double>& lift = t.values[static_cast<size_t>(t.column("wheel_liftoff_time_s"))];
  const double rho = study::spearman_correlation(road_class, vert);
  const double n = static_cast<double>(road_class.size());
  const double t_stat = rho * std::sqrt(n - 2.0) / std::sqrt(1.0 - rho * rho);
  EXPECT_GT(t_stat, 2.508) << "rho " << rho;
  EXPECT_GE(study::spearman_correlation(road_class, lift), 0.0);
  // The summary's sensitivity is the same number.
  const json summary = json::parse(read_text(dir / "out" / "summary.json"));
  EXPECT_NEAR(summary["sensitivity"]["spearman"]["max_abs_vert_accel"]["terrain.class"].get<double>(), rho, 1e-12);
}

// ---- the scenario's terrain names and their errors -----------------------------------------------

using test::contains;
using test::parse_error;

TEST(SampleRoads, ClassesAsLettersAndScenarioErrors) {
  const Scenario s = parse_scenario(road_study("    terrain.class: {dist: choice, values: [C, D, 4.5]}\n"),
                                    "road.yaml");
  EXPECT_EQ(s.study.parameters[0].distribution.values, (std::vector<double>{3.0, 4.0, 4.5}));
  const std::string on_flat =
      "name: f\nterrain: {type: flat}\nduration: 1\nstudy:\n  samples: 4\n  parameters:\n"
      "    terrain.class: {dist: choice, values: [C, D]}\n";
  EXPECT_EQ(parse_error(on_flat),
            "bad.yaml:7: study.parameters.terrain.class: cannot be sampled on terrain type flat "
            "(terrain.class and terrain.roughness: rough_road; terrain.relief_scale, terrain.offset_x, "
            "terrain.offset_y: rough_road, hill, heightfield)");
  EXPECT_TRUE(
      contains(parse_error(road_study("    terrain.class: {dist: choice, values: [C]}\n"
                                      "    terrain.roughness: {dist: uniform, min: 1e-4, max: 2e-4}\n")),
               ":17: study.parameters.terrain.roughness: sets the relief's height, as terrain.class does already"));
  EXPECT_TRUE(contains(parse_error(road_study("    terrain.length: {dist: uniform, min: 100, max: 200}\n")),
                       ":16: study.parameters.terrain.length: cannot be sampled: a sample's terrain differs"));
  EXPECT_TRUE(contains(parse_error(road_study("    terrain.class: {dist: choice, values: [C, Q]}\n")),
                       ":16: study.parameters.terrain.class.values[1]: expected a number, got 'Q'"));
  EXPECT_TRUE(
      contains(parse_error("name: r\nterrain: {type: rough_road, per_sample: true}\nduration: 1\n"),
               "bad.yaml:2: terrain.per_sample: gives each sample of a study its own stretch of the road, but this "
               "scenario has no study"));
  EXPECT_TRUE(
      contains(parse_error("name: r\nterrain:\n  type: rough_road\n  class: C\n  roughness: 1e-4\nduration: 1\n"),
               "bad.yaml:5: terrain.roughness: gives Gd(n0) directly: give either class (line 4) or roughness"));
  // A roughness instead of a class; per_sample: false keeps every sample on one stretch.
  const Scenario fixed = parse_scenario(road_study("    terrain.roughness: {dist: uniform, min: 1e-4, max: 2e-3}\n")
                                            .replace(road_study().find("seed: 3}"), 8, "seed: 3, per_sample: false}"),
                                        "road.yaml");
  EXPECT_FALSE(fixed.terrain_per_sample);
  EXPECT_EQ(fixed.terrain.desc.hf_periodic, 0);
  SampleSetup a, b;
  sample_terrain(fixed, 0, &a);
  sample_terrain(fixed, 1, &b);
  EXPECT_EQ(a.terrain.shift_x, 0.0);
  EXPECT_EQ(b.terrain.shift_x, 0.0);
  EXPECT_NE(a.terrain.relief_scale, b.terrain.relief_scale);
}

}  // namespace
}  // namespace fleetdyn
