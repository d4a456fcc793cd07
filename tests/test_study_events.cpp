// A study's events beyond rollover: lane departure, path deviation and
// maneuver completion of path drivers (an ISO 3888-2 lane change at a speed the driver manages
// and at one it does not); the capsize stop (a vehicle past the capsize angle is frozen with
// kStatusRolledOver, the same on the SIMD lanes and the scalar path, and counted as capsized,
// not diverged); and the per-rank GPU choice of a study sharded over MPI ranks.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "fleetdyn/ce.h"
#include "fleetdyn/driver.h"
#include "fleetdyn/physics/core/math.h"
#include "host/cli/run_job.h"
#include "host/scenario/scenario.h"
#include "host/study/process_group.h"
#include "host/study/samples_file.h"
#include "tests/strut_test_util.h"
#include "tests/study_test_util.h"

namespace fleetdyn {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

using test::contains;
using test::read_text;
using test::run_study_text;

fs::path scratch(const std::string& name) {
  const fs::path p = test::fresh_path("events", name);
  fs::create_directories(p);
  return p;
}

using test::parse_error;

// ---- path events: ISO 3888-2 where the driver manages and where it does not ----------------------

// The HMMWV through the ISO 3888-2 lanes (for its 2.16 m width) with pure pursuit, 4 samples of a
// narrow tire friction spread. docs/design/drivers.md: at 12 m/s it stays within 0.73 m of the
// lane centres; at 15 m/s its tires saturate and it is 2-4 m off. A 4 m lane leaves
// (4 - 2.16) / 2 = 0.92 m either side; path_deviation at 1.5 m.
std::string lane_change_study(double speed, const std::string& events =
                                                "  lane_departure: {lane_width: 4.0}\n"
                                                "  path_deviation: {max: 1.5}\n") {
  char head[400];
  std::snprintf(head, sizeof head,
                "name: iso3888_2_study\nmodel: strut\nvehicle: {preset: hmmwv}\ninitial: {speed: %g}\n"
                "driver: {type: path, path: iso3888_2, vehicle_width: 2.16, speed: %g}\n"
                "duration: 10.0\nstep: 0.001\nprecision: fp64\nbackend: cpu\n",
                speed, speed);
  return std::string(head) +
         "study:\n  samples: 4\n  seed: 2\n  sampling: lhs\n  parameters:\n"
         "    tire.mu: {dist: uniform, min: 0.78, max: 0.82}\n" +
         events;
}

struct EventColumns {
  std::map<std::string, std::vector<double>> columns;
  json summary;
  std::string report;
};

EventColumns run_events(const std::string& name, const std::string& text) {
  const fs::path dir = scratch(name);
  std::string err;
  EXPECT_EQ(run_study_text(dir, text, &err), kExitOk) << err;
  EventColumns e;
  const study::SamplesTable t = study::read_samples((dir / "out" / "samples.csv").string());
  for (size_t c = 0; c < t.columns.size(); ++c) e.columns[t.columns[c]] = t.values[c];
  e.summary = json::parse(read_text(dir / "out" / "summary.json"));
  e.report = read_text(dir / "out" / "report.html");
  return e;
}

TEST(PathEvents, LaneChangeSucceedsAtTwelveAndFailsAtFifteenMetresPerSecond) {
  const EventColumns slow = run_events("slow", lane_change_study(12.0));
  const EventColumns fast = run_events("fast", lane_change_study(15.0));
  for (const EventColumns* e : {&slow, &fast}) {
    for (const char* c : {"completed", "lane_departure", "path_deviation", "rollover", "capsized"}) {
      ASSERT_EQ(e->columns.count(c), 1u) << c;
      ASSERT_EQ(e->columns.at(c).size(), 4u) << c;
    }
    for (double done : e->columns.at("completed")) EXPECT_EQ(done, 1.0);  // both get through the cones' line
    EXPECT_TRUE(contains(e->report, "lane_departure"));
    EXPECT_TRUE(contains(e->report, "path_deviation"));
  }
  const std::vector<double>& dev_slow = slow.columns.at("max_path_deviation_m");
  const std::vector<double>& dev_fast = fast.columns.at("max_path_deviation_m");
  for (size_t i = 0; i < 4; ++i) {
    // The events follow their definitions from the metric.
    EXPECT_LT(dev_slow[i], 0.92);
    EXPECT_GT(dev_fast[i], 1.5);
    EXPECT_EQ(slow.columns.at("lane_departure")[i], 0.0);
    EXPECT_EQ(slow.columns.at("path_deviation")[i], 0.0);
    EXPECT_EQ(fast.columns.at("lane_departure")[i], 1.0);
    EXPECT_EQ(fast.columns.at("path_deviation")[i], 1.0);
  }
  // Probabilities with their intervals: 0 of 4 and 4 of 4.
  const json& ls = slow.summary["events"]["lane_departure"];
  EXPECT_EQ(ls["count"], 0);
  EXPECT_EQ(ls["of"], 4);
  EXPECT_EQ(ls["probability"], 0.0);
  EXPECT_EQ(ls["clopper_pearson_95"][0], 0.0);
  EXPECT_NEAR(ls["clopper_pearson_95"][1].get<double>(), 1.0 - std::pow(0.025, 0.25), 1e-9);  // 1 - (alpha/2)^(1/n)
  const json& lf = fast.summary["events"]["lane_departure"];
  EXPECT_EQ(lf["probability"], 1.0);
  EXPECT_GT(lf["wilson_95"][0].get<double>(), 0.4);
  EXPECT_EQ(fast.summary["events"]["completed"]["probability"], 1.0);
  // The thresholds are in the summary, derived from the driver's vehicle width.
  const json& cfg = slow.summary["study"]["lane_departure"];
  EXPECT_EQ(cfg["lane_width"], 4.0);
  EXPECT_EQ(cfg["vehicle_width"], 2.16);
  EXPECT_NEAR(cfg["max_path_deviation_m"].get<double>(), 0.92, 1e-12);
  EXPECT_EQ(slow.summary["study"]["path_deviation"]["max"], 1.5);
}

TEST(PathEvents, DefaultsAndWhichStudiesHaveThem) {
  // Defaults: a 3.5 m lane; path_deviation at 1 m; the width from the driver, else the model's
  // wider track plus a tire width.
  const Scenario with_driver = parse_scenario(lane_change_study(12.0, ""), "s.yaml");
  EXPECT_EQ(with_driver.study.path_events.lane_width, 3.5);
  EXPECT_EQ(with_driver.study.path_events.vehicle_width, 2.16);
  EXPECT_EQ(with_driver.study.path_events.max_deviation, 1.0);
  std::string circle = lane_change_study(8.0, "");
  circle.replace(circle.find("path: iso3888_2, vehicle_width: 2.16"), 36, "path: circle, radius: 30");
  const Scenario on_circle = parse_scenario(circle, "s.yaml");
  const StrutParams<double> p = hmmwv_params();
  EXPECT_DOUBLE_EQ(on_circle.study.path_events.vehicle_width, std::max(p.track_front, p.track_rear) + p.tire.width);
  // Without a path driver there is no path to depart from: no such columns, and the keys are errors.
  const std::string table =
      "name: t\ninitial: {speed: 10}\nduration: 1\nstudy:\n  samples: 2\n  parameters:\n"
      "    cg_height: {dist: uniform, min: 0.6, max: 0.8}\n";
  EXPECT_EQ(parse_error(table + "  lane_departure: {lane_width: 4}\n"),
            "bad.yaml:8: study.lane_departure: is an event of path drivers (driver: {type: path, ...}); this scenario "
            "has none");
  EXPECT_TRUE(contains(parse_error(lane_change_study(12.0, "  lane_departure: {lane_width: 2.0}\n")),
                       "bad.yaml:16: study.lane_departure: the vehicle (2.16 m) is not narrower than the lane (2 m)"));
  EXPECT_TRUE(contains(parse_error(lane_change_study(12.0, "  path_deviation: {max: -1}\n")),
                       "bad.yaml:16: study.path_deviation.max: "));
  const EventColumns open_loop = run_events("open_loop", table);
  EXPECT_EQ(open_loop.columns.count("lane_departure"), 0u);
  EXPECT_EQ(open_loop.columns.count("completed"), 0u);
  EXPECT_EQ(open_loop.columns.count("capsized"), 1u);
  EXPECT_FALSE(open_loop.summary["events"].contains("lane_departure"));
}

// ---- capsize stop ----------------------------------------------------------------------------------

// The NHTSA fishhook of scenarios/fishhook.yaml at 72 km/h with the CG raised to 1.7 m (it rolls
// over) and at the preset's 0.687 m (all wheels stay down).
Batch fishhook_batch(BatchOptions options, double cg_height = 1.7) {
  StrutParams<double> high = hmmwv_params();
  high.cg_height = cg_height;
  finalize_vehicle_params(high);
  Batch b({hmmwv_params(), high}, 2, TerrainSpec{}, options);
  b.set_steer_program({nhtsa_fishhook(0.27, 1.41, 0.5)});
  InitialCondition ic;
  ic.speed = 20.0;
  b.set_initial_conditions({ic});
  return b;
}

double ground_roll(const VehicleSnapshot& s) {
  const Mat3<double> rot = rotation_matrix(quat_from_euler_zyx(s.euler[0], s.euler[1], s.euler[2]));
  return std::fabs(std::atan2(rot.m[2][1], rot.m[2][2]));  // flat ground: body y and z against world z
}

TEST(Capsize, FishhookRollsTheHighCgVehicleOverAndFreezesIt) {
  BatchOptions o = test::cpu_options();
  o.step = 5.0e-4;  // the default step for the CG-1.7 m vehicle
  Batch b = fishhook_batch(o);
  b.step(10000);  // 5 s
  const std::vector<int> status = b.status();
  const std::vector<double> m = b.metrics();
  EXPECT_EQ(status[0], kStatusRunning);
  ASSERT_EQ(status[1], kStatusRolledOver);
  const double capsize_time = m[static_cast<size_t>(metric::capsize_time) * 2 + 1];
  EXPECT_GT(capsize_time, 1.0);
  EXPECT_LT(capsize_time, 4.5);
  EXPECT_EQ(m[static_cast<size_t>(metric::diverged_time) * 2 + 1], -1.0);
  EXPECT_EQ(m[static_cast<size_t>(metric::capsize_time) * 2 + 0], -1.0);
  for (int k = 0; k < kMetricCount; ++k)
    EXPECT_TRUE(std::isfinite(m[static_cast<size_t>(k) * 2 + 1])) << "metric " << k;
  // Frozen where it passed 80 deg: its time stops at the capsize time and its roll is just past it.
  const VehicleSnapshot x = b.snapshots()[1];
  EXPECT_DOUBLE_EQ(x.time, capsize_time);
  EXPECT_GT(ground_roll(x), o.capsize_roll);
  EXPECT_LT(ground_roll(x), o.capsize_roll + 2.0 * kPi / 180.0);
  // The rollover metric holds the roll up to there (the arcsine measure: up to 90 deg).
  EXPECT_GT(m[static_cast<size_t>(metric::max_abs_roll) * 2 + 1], 75.0 * kPi / 180.0);
  // Further steps change nothing for it, while the other vehicle goes on.
  const std::vector<double> before = test::vehicle_state(b, 1), other_before = test::vehicle_state(b, 0);
  b.step(100);
  EXPECT_EQ(test::vehicle_state(b, 1), before);
  EXPECT_NE(test::vehicle_state(b, 0), other_before);
  const std::vector<double> after = b.metrics();
  for (int k = 0; k < kMetricCount; ++k)
    EXPECT_EQ(after[static_cast<size_t>(k) * 2 + 1], m[static_cast<size_t>(k) * 2 + 1]) << k;
}

// Without the stop the same vehicle rolls on to its roof (the model has no body-ground contact,
// so the body sinks through the road) and its peaks mean nothing: why the stop exists.
TEST(Capsize, WithoutTheStopTheVehicleRollsOnToItsRoof) {
  BatchOptions o = test::cpu_options();
  o.step = 5.0e-4;
  o.capsize_roll = 0.0;
  Batch b = fishhook_batch(o);
  b.step(10000);
  EXPECT_EQ(b.status()[1], kStatusRunning);
  EXPECT_GT(ground_roll(b.snapshots()[1]), 0.5 * kPi);
  EXPECT_EQ(b.metrics()[static_cast<size_t>(metric::capsize_time) * 2 + 1], -1.0);
}

// The SIMD lanes and the scalar path stop the vehicle at the same step (their states agree to
// round-off until then) and keep the same metrics.
TEST(Capsize, SimdLanesAndScalarPathAgree) {
  std::vector<std::vector<double>> metrics;
  std::vector<std::vector<int>> status;
  std::vector<std::vector<VehicleSnapshot>> snaps;
  for (bool simd : {true, false}) {
    for (Precision precision : {Precision::Fp64}) {
      BatchOptions o = test::cpu_options(precision);
      o.step = 5.0e-4;
      o.cpu_simd = simd;
      Batch b = fishhook_batch(o);
      b.step(10000);
      metrics.push_back(b.metrics());
      status.push_back(b.status());
      snaps.push_back(b.snapshots());
    }
  }
  EXPECT_EQ(status[0], status[1]);
  ASSERT_EQ(status[0][1], kStatusRolledOver);
  const auto at = [&](int run, int m, int v) {
    return metrics[static_cast<size_t>(run)][static_cast<size_t>(m) * 2 + v];
  };
  EXPECT_EQ(at(0, metric::capsize_time, 1), at(1, metric::capsize_time, 1));
  for (int m = 0; m < kMetricCount; ++m) {
    for (int v = 0; v < 2; ++v)
      EXPECT_NEAR(at(0, m, v), at(1, m, v), 1e-6 * std::max(1.0, std::fabs(at(1, m, v)))) << m << " " << v;
  }
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(snaps[0][1].position[k], snaps[1][1].position[k], 1e-6);
  // fp32 lanes stop it too.
  BatchOptions o = test::cpu_options(Precision::Fp32);
  o.step = 5.0e-4;
  Batch b = fishhook_batch(o);
  b.step(10000);
  EXPECT_EQ(b.status()[1], kStatusRolledOver);
}

// The ce model runs the same shared loop: a ce vehicle rolled 85 deg (and lifted clear of the
// ground, so its step is an ordinary free flight) is frozen at its next step.
TEST(Capsize, CeVehiclePastTheAngleIsFrozen) {
  BatchOptions o = test::cpu_options();
  o.step = 2.0e-3;
  Batch b({hmmwv_ce_params()}, 2, TerrainSpec{}, o);
  b.step(1);
  std::vector<double> s = test::vehicle_state(b, 1);
  const Quat<double> roll = quat_from_axis_angle(Vec3<double>{1.0, 0.0, 0.0}, 85.0 * kPi / 180.0);
  const Quat<double> q = roll * Quat<double>{s[ce::kQuat], s[ce::kQuat + 1], s[ce::kQuat + 2], s[ce::kQuat + 3]};
  s[ce::kQuat] = q.w;
  s[ce::kQuat + 1] = q.x;
  s[ce::kQuat + 2] = q.y;
  s[ce::kQuat + 3] = q.z;
  s[ce::kPos + 2] += 2.0;
  b.set_vehicle_state(1, s);
  b.step(5);
  EXPECT_EQ(b.status()[0], kStatusRunning);
  EXPECT_EQ(b.status()[1], kStatusRolledOver);
  EXPECT_DOUBLE_EQ(b.metrics()[static_cast<size_t>(metric::capsize_time) * 2 + 1], 1 * o.step);
  EXPECT_EQ(test::vehicle_state(b, 1), s);
}

// A study counts the capsized samples as capsized and rolled over, never as diverged; their
// metrics are finite and summarized with the others.
TEST(Capsize, StudyCountsCapsizedNotDiverged) {
  const std::string text =
      "name: tip\nmodel: strut\nvehicle: {preset: hmmwv}\ninitial: {speed: 20.0}\n"
      "driver: {type: fishhook, amplitude: 0.27, rate: 1.41, start_time: 0.5}\nduration: 4.0\nstep: 0.0005\n"
      "precision: fp64\nbackend: cpu\nstudy:\n  samples: 4\n  seed: 1\n  sampling: lhs\n  parameters:\n"
      "    cg_height: {dist: uniform, min: 1.6, max: 1.75}\n";
  const EventColumns e = run_events("tip", text);
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(e.columns.at("capsized")[i], 1.0);
    EXPECT_EQ(e.columns.at("rollover")[i], 1.0);
    EXPECT_EQ(e.columns.at("diverged")[i], 0.0);
    EXPECT_EQ(e.columns.at("completed")[i], 0.0);  // frozen before the program's end
    EXPECT_GT(e.columns.at("capsize_time_s")[i], 0.5);
    EXPECT_TRUE(std::isfinite(e.columns.at("max_abs_lat_accel_m_per_s2")[i]));
  }
  EXPECT_EQ(e.summary["counts"]["capsized"], 4);
  EXPECT_EQ(e.summary["counts"]["diverged"], 0);
  EXPECT_EQ(e.summary["events"]["capsized"]["probability"], 1.0);
  EXPECT_EQ(e.summary["metrics"]["max_abs_roll"]["count"], 4);  // summarized with the others
  EXPECT_EQ(e.summary["study"]["capsize_roll_deg"], 80.0);
  EXPECT_TRUE(contains(e.report, "capsized"));
}

TEST(Capsize, ScenarioKey) {
  const std::string head = "name: c\nduration: 1\n";
  EXPECT_NEAR(scenario_batch_options(parse_scenario(head + "capsize_roll_deg: 85\n", "c.yaml")).capsize_roll,
              85.0 * kPi / 180.0, 1e-15);
  EXPECT_EQ(scenario_batch_options(parse_scenario(head + "capsize_roll_deg: 0\n", "c.yaml")).capsize_roll, 0.0);
  EXPECT_NEAR(scenario_batch_options(parse_scenario(head, "c.yaml")).capsize_roll, 80.0 * kPi / 180.0, 1e-15);
  EXPECT_EQ(
      parse_error(head + "capsize_roll_deg: 10\n"),
      "bad.yaml:3: capsize_roll_deg: 10 deg would freeze vehicles that are only leaning in a turn; give at least 30 "
      "(default 80), or 0 for never");
  EXPECT_TRUE(
      contains(parse_error(head + "capsize_roll_deg: 200\n"), "bad.yaml:3: capsize_roll_deg: 200 is outside [0, 180]"));
  BatchOptions o = test::cpu_options();
  o.capsize_roll = 4.0;
  EXPECT_THROW(Batch({hmmwv_params()}, 1, TerrainSpec{}, o), Error);
}

// ---- per-rank GPU choice -------------------------------------------------------------------------

TEST(RankDevices, LocalRankModuloDeviceCount) {
  EXPECT_EQ(study::cuda_device_for_rank(0, 4), 0);
  EXPECT_EQ(study::cuda_device_for_rank(3, 4), 3);
  EXPECT_EQ(study::cuda_device_for_rank(5, 4), 1);  // more ranks than GPUs: shared evenly
  EXPECT_EQ(study::cuda_device_for_rank(7, 8), 7);
  EXPECT_EQ(study::cuda_device_for_rank(2, 1), 0);
  EXPECT_EQ(study::cuda_device_for_rank(0, 0), -1);  // no GPU: none
  EXPECT_EQ(study::cuda_device_for_rank(-1, 2), -1);
  // Ranks 0..7 on one node with 3 GPUs: each GPU gets 2 or 3 of them.
  std::vector<int> per_device(3, 0);
  for (int r = 0; r < 8; ++r) ++per_device[static_cast<size_t>(study::cuda_device_for_rank(r, 3))];
  EXPECT_EQ(per_device, (std::vector<int>{3, 3, 2}));
}

const char* fake_environment(const char* name) {
  if (std::strcmp(name, "MPI_LOCALRANKID") == 0) return "3";
  if (std::strcmp(name, "SLURM_LOCALID") == 0) return "9";
  return nullptr;
}
const char* open_mpi_environment(const char* name) {
  return std::strcmp(name, "OMPI_COMM_WORLD_LOCAL_RANK") == 0 ? "2" : nullptr;
}
const char* bad_environment(const char* name) { return std::strcmp(name, "SLURM_LOCALID") == 0 ? "x1" : nullptr; }
const char* empty_environment(const char*) { return nullptr; }

TEST(RankDevices, LocalRankFromTheLauncher) {
  EXPECT_EQ(study::launcher_local_rank(&open_mpi_environment), 2);
  EXPECT_EQ(study::launcher_local_rank(&fake_environment), 3);  // OpenMPI's first, then MPICH's, then Slurm's
  EXPECT_EQ(study::launcher_local_rank(&bad_environment), -1);
  EXPECT_EQ(study::launcher_local_rank(&empty_environment), -1);
}

// One process: summary.json records rank 0, its node and device (no GPU here: none).
TEST(RankDevices, SummaryRecordsEachRanksDevice) {
  const std::string text =
      "name: t\ninitial: {speed: 10}\nduration: 0.5\nbackend: cpu\nstudy:\n  samples: 2\n  parameters:\n"
      "    cg_height: {dist: uniform, min: 0.6, max: 0.8}\n";
  const EventColumns e = run_events("ranks", text);
  const json& ranks = e.summary["ranks"];
  ASSERT_EQ(ranks.size(), 1u);
  EXPECT_EQ(ranks[0]["rank"], 0);
  EXPECT_EQ(ranks[0]["local_rank"], 0);
  EXPECT_TRUE(ranks[0]["cuda_device"].is_null());  // backend cpu: no device chosen
  EXPECT_TRUE(contains(ranks[0]["device"].get<std::string>(), "cpu"));
  EXPECT_FALSE(ranks[0]["host"].get<std::string>().empty());
}

}  // namespace
}  // namespace fleetdyn

namespace fleetdyn {
namespace {

// The curb-trip study as shipped (scenarios/curb_trip_mc.yaml), cut to its first 64 Sobol samples on
// the CPU: no sample diverges, some roll over, and the report carries the rollover metrics.
TEST(TrippedStudy, CurbTripStudyRollsSomeOverAndDivergesNone) {
  std::string text = read_text("scenarios/curb_trip_mc.yaml");
  const auto replace = [&](const std::string& from, const std::string& to) {
    const size_t at = text.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    text.replace(at, from.size(), to);
  };
  replace("samples: 2000", "samples: 64");
  replace("backend: auto", "backend: cpu");
  const EventColumns e = run_events("curb_trip_mc", text);
  const std::vector<double>& rollover = e.columns.at("rollover");
  ASSERT_EQ(rollover.size(), 64u);
  int rolled = 0;
  for (size_t i = 0; i < rollover.size(); ++i) {
    EXPECT_EQ(e.columns.at("diverged")[i], 0.0) << "sample " << i;
    rolled += rollover[i] > 0.0;
  }
  EXPECT_GT(rolled, 0);
  for (const char* m : {"roll_quarter_turns", "final_attitude", "max_roof_contact_speed"})
    EXPECT_TRUE(contains(e.report, m)) << m;
}

}  // namespace
}  // namespace fleetdyn
