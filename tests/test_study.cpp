// Monte Carlo studies through `fleetdyn run` (run_command, in-process): the study section's
// errors, byte-identical samples.csv across reruns and chunk sizes, resume after kill -9 and
// after a torn write, invalid samples, summary probabilities, and rollover rising with CG height.
// Runs from the source tree (tests/data/study_small.yaml: 24 samples, 3 s each, CPU).
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "fleetdyn/physics/core/math.h"
#include "host/cli/run_job.h"
#include "host/output/output_files.h"
#include "host/scenario/scenario.h"
#include "host/study/samples_file.h"
#include "host/study/statistics.h"
#include "tests/study_test_util.h"

#if defined(FLEETDYN_HAS_HDF5)
#include <hdf5.h>
#endif

namespace fleetdyn {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

using test::contains;
using test::read_text;
using test::write_text;

// A fresh path under the build's scratch space for one test.
fs::path scratch(const std::string& name) { return test::fresh_path("study", name); }

// The small study's text with `study:` lines replaced (key: value pairs under study).
std::string small_study(const std::string& study_block) {
  std::string text = read_text("tests/data/study_small.yaml");
  return text.substr(0, text.find("study:")) + study_block;
}

fs::path write_scenario(const fs::path& folder, const std::string& text) {
  fs::create_directories(folder);
  const fs::path p = folder / "scenario.yaml";
  write_text(p, text);
  return p;
}

int run(const fs::path& scenario, const fs::path& out_dir, std::string* err_text = nullptr,
        std::optional<long long> samples = std::nullopt) {
  return test::run_scenario(scenario, out_dir, err_text, samples);
}

int resume(const fs::path& out_dir, std::string* err_text = nullptr) {
  RunOptions o;
  o.resume = out_dir.string();
  o.quiet = true;
  std::ostringstream out, err;
  const int rc = run_command(o, out, err);
  if (err_text) *err_text = err.str();
  return rc;
}

// ---- the study section's errors: file, line, field ------------------------------------------------

std::string parse_error(const std::string& study_block) { return test::parse_error(small_study(study_block)); }

TEST(StudyScenario, MalformedDistributionsNameFileLineAndField) {
  const std::string head = "study:\n  samples: 10\n  parameters:\n";
  const std::string base = small_study("");
  const int line = static_cast<int>(std::count(base.begin(), base.end(), '\n')) + 4;  // the parameter's line
  const std::string at = "bad.yaml:" + std::to_string(line) + ": ";
  EXPECT_EQ(parse_error(head + "    cg_height: {dist: normal, mean: 1.0, sd: -0.1}\n"),
            at + "study.parameters.cg_height.sd: must be > 0 (got -0.1)");
  EXPECT_TRUE(contains(parse_error(head + "    cg_height: {dist: uniform, min: 1.0, max: 0.5}\n"),
                       at + "study.parameters.cg_height.max: "));
  EXPECT_TRUE(
      contains(parse_error(head + "    cg_height: {dist: gaussian, mean: 1, sd: 0.1}\n"),
               at +
                   "study.parameters.cg_height.dist: unknown distribution 'gaussian' (allowed: fixed, uniform, normal, "
                   "truncated_normal, lognormal, choice)"));
  EXPECT_TRUE(contains(parse_error(head + "    cg_height: {dist: normal, mean: 1}\n"),
                       at + "study.parameters.cg_height.sd: required key is missing"));
  EXPECT_TRUE(contains(parse_error(head + "    cg_height: {dist: normal, mean: 1, sd: 0.1, min: 0}\n"),
                       at + "study.parameters.cg_height.min: unknown key 'min' for a normal distribution"));
  EXPECT_TRUE(contains(parse_error(head + "    cg_height: {dist: choice, values: [1, 2], weights: [1]}\n"),
                       at + "study.parameters.cg_height.weights: "));
  EXPECT_TRUE(contains(parse_error(head + "    cg_height: {dist: choice, values: [1, 2], weights: [1, -2]}\n"),
                       at + "study.parameters.cg_height.weights[1]: "));
  EXPECT_TRUE(
      contains(parse_error(head + "    cg_hieght: {dist: uniform, min: 1, max: 2}\n"), "(did you mean 'cg_height'?)"));
  EXPECT_TRUE(contains(parse_error(head + "    terrain.slope_deg: {dist: uniform, min: 1, max: 2}\n"),
                       "cannot be sampled: a sample's terrain differs from the batch's only by its friction"));
  EXPECT_TRUE(
      contains(parse_error(head + "    cg_height: {dist: uniform, min: 10, max: 20}\n"),
               at + "study.parameters.cg_height: the distribution lies entirely outside the allowed range [0.2, 5] m"));
  EXPECT_TRUE(
      contains(parse_error(head + "    cg_height: 0.9\n"), at + "study.parameters.cg_height: expected a distribution"));
  EXPECT_TRUE(contains(parse_error("study:\n  parameters:\n    cg_height: {dist: fixed, value: 1}\n"),
                       "study.samples: required key is missing"));
  EXPECT_TRUE(contains(parse_error("study:\n  samples: 0\n  parameters:\n    cg_height: {dist: fixed, value: 1}\n"),
                       "study.samples: 0 is outside [1, "));
  EXPECT_TRUE(contains(
      parse_error("study:\n  samples: 4\n  sampling: latin\n  parameters:\n    cg_height: {dist: fixed, value: 1}\n"),
      "study.sampling: unknown sampling 'latin' (allowed: random, lhs, sobol)"));
  EXPECT_TRUE(contains(parse_error("study:\n  samples: 4\n  parameters: {}\n"),
                       "study.parameters: expected at least one sampled parameter"));
}

TEST(StudyScenario, ConflictsWithOverridesSweepsAndVehicles) {
  std::string text = small_study(
      "study:\n  samples: 4\n  parameters:\n    tire.mu: {dist: uniform, min: 0.5, max: 1}\n");
  const std::string with_override = std::string(text).replace(text.find("vehicle: {preset: hmmwv}"), 24,
                                                              "vehicle: {preset: hmmwv, overrides: {tire.mu: 0.8}}");
  const std::string with_override_error = test::parse_error(with_override);
  EXPECT_TRUE(contains(with_override_error, "study.parameters.tire.mu: 'tire.mu' is also set in vehicle.overrides"))
      << with_override_error;
  const std::string with_vehicles = text + "vehicles: 8\n";
  const std::string with_vehicles_error = test::parse_error(with_vehicles);
  EXPECT_TRUE(contains(with_vehicles_error, "vehicles: a study simulates study.samples vehicles")) << with_vehicles_error;
  const std::string with_sweep = std::string(text).replace(
      text.find("vehicle: {preset: hmmwv}"), 24,
      "vehicle: {preset: hmmwv, sweep: {name: cg_height, from: 0.6, to: 0.9}}");
  const std::string with_sweep_error = test::parse_error(with_sweep);
  EXPECT_TRUE(contains(with_sweep_error, "study: a study cannot be combined with vehicle.sweep")) << with_sweep_error;
}

TEST(StudyScenario, PartlyOutOfRangeDistributionWarns) {
  const Scenario s = parse_scenario(
      small_study("study:\n  samples: 4\n  parameters:\n    cg_height: {dist: normal, mean: 0.3, sd: 0.1}\n"),
      "w.yaml");
  ASSERT_EQ(s.warnings.size(), 1u);
  EXPECT_TRUE(contains(s.warnings[0],
                       "study.parameters.cg_height: part of the distribution lies outside the allowed range [0.2, 5]"));
}

TEST(StudyScenario, DriverSectionErrors) {
  const auto error_of = [](const std::string& text) -> std::string {
    try {
      parse_scenario(text, "d.yaml");
    } catch (const ScenarioError& e) {
      return e.what();
    }
    return "(no error)";
  };
  const std::string head = "duration: 1.0\n";
  EXPECT_TRUE(contains(error_of(head + "driver: {type: fishhook, rate: 1}\n"),
                       "d.yaml:2: driver.amplitude: required key is missing"));
  EXPECT_TRUE(contains(error_of(head + "driver: {type: fishook, amplitude: 0.2}\n"),
                       "driver.type: unknown driver 'fishook' (allowed: path, fishhook, sine_with_dwell, j_turn, "
                       "step_steer) (did you mean 'fishhook'?)"));
  EXPECT_TRUE(contains(error_of(head + "driver: {type: fishhook, amplitude: 0.2}\nmaneuver: [[0, 0, 0, 0]]\n"),
                       "d.yaml:3: maneuver: a scenario has either a maneuver table or a driver (line 2), not both"));
  EXPECT_TRUE(contains(error_of(head + "driver: {type: path, path: circle, speed: 8}\n"),
                       "driver.radius: required key is missing"));
  EXPECT_TRUE(contains(error_of(head + "driver: {type: path, path: iso3888_1, speed: 8, radius: 3}\n"),
                       "driver.radius: only for path: circle"));
  EXPECT_TRUE(
      contains(error_of(head + "driver: {type: path, path: points, speed: 8, points: [[0, 0, 5], [9, 0, 5]]}\n"),
               "driver.speed: path: points gives each point its speed"));
  EXPECT_TRUE(contains(error_of(head + "driver: {type: j_turn, amplitude: 0.2, dwell: 1}\n"),
                       "driver.dwell: unknown key 'dwell' for driver type j_turn"));
  const std::string study = "study:\n  samples: 4\n  parameters:\n";
  EXPECT_TRUE(
      contains(error_of(head + "driver: {type: fishhook, amplitude: 0.2}\n" + study +
                        "    maneuver.steer_scale: {dist: uniform, min: 0.5, max: 1}\n"),
               "study.parameters.maneuver.steer_scale: scales the maneuver table, but this scenario has a driver"));
  EXPECT_TRUE(contains(error_of(head + study + "    driver.amplitude: {dist: uniform, min: 0.1, max: 0.2}\n"),
                       "study.parameters.driver.amplitude: needs a programmed driver"));
}

// ---- results: identical whatever the chunking, resumable ----------------------------------------

TEST(StudyRun, SamplesAreByteIdenticalAcrossRerunsAndChunkSizes) {
  const fs::path dir = scratch("chunks");
  const std::string text = read_text("tests/data/study_small.yaml");
  const fs::path one = write_scenario(dir / "one", text);
  std::string chunk5 = text;
  chunk5.replace(chunk5.find("chunk: 24"), 9, "chunk: 5");
  const fs::path five = write_scenario(dir / "five", chunk5);
  ASSERT_EQ(run(one, dir / "a"), kExitOk);
  ASSERT_EQ(run(one, dir / "b"), kExitOk);
  ASSERT_EQ(run(five, dir / "c"), kExitOk);
  const std::string a = read_text(dir / "a" / "samples.csv");
  EXPECT_EQ(std::count(a.begin(), a.end(), '\n'), 25);
  EXPECT_EQ(a, read_text(dir / "b" / "samples.csv"));
  EXPECT_EQ(a, read_text(dir / "c" / "samples.csv"));
  // The summary's statistics too (its timings differ).
  const json sa = json::parse(read_text(dir / "a" / "summary.json"));
  const json sc = json::parse(read_text(dir / "c" / "summary.json"));
  EXPECT_EQ(sa["events"], sc["events"]);
  EXPECT_EQ(sa["metrics"], sc["metrics"]);
  EXPECT_EQ(sa["sensitivity"], sc["sensitivity"]);
}

TEST(StudyRun, LatinHypercubeColumnHitsEveryStratumOnce) {
  const fs::path dir = scratch("lhs");
  ASSERT_EQ(run("tests/data/study_small.yaml", dir), kExitOk);
  const study::SamplesTable t = study::read_samples((dir / "samples.csv").string());
  ASSERT_EQ(t.rows(), 24);
  const std::vector<double>& cg = t.values[static_cast<size_t>(t.column("cg_height_m"))];
  std::vector<int> hits(24, 0);
  for (double v : cg) ++hits[static_cast<size_t>(std::floor((v - 0.6) / 1.0 * 24.0))];
  for (int h : hits) EXPECT_EQ(h, 1);
}

TEST(StudyRun, RefusesToOverwriteAStudy) {
  const fs::path dir = scratch("twice");
  ASSERT_EQ(run("tests/data/study_small.yaml", dir), kExitOk);
  const std::string before = read_text(dir / "samples.csv");
  std::string err;
  EXPECT_EQ(run("tests/data/study_small.yaml", dir, &err), kExitBadInput);
  EXPECT_TRUE(contains(err, "already holds a study; continue it with `fleetdyn run --resume")) << err;
  EXPECT_EQ(read_text(dir / "samples.csv"), before);
}

TEST(StudyRun, ResumeAfterATornWriteEndsIdentical) {
  const fs::path dir = scratch("torn");
  std::string text = read_text("tests/data/study_small.yaml");
  text.replace(text.find("chunk: 24"), 9, "chunk: 5");
  const fs::path sc = write_scenario(dir / "scenario", text);
  ASSERT_EQ(run(sc, dir / "whole"), kExitOk);
  const std::string whole = read_text(dir / "whole" / "samples.csv");
  // A crash in the middle of the third chunk: two whole chunks, then half a row (a NUL-filled
  // block as a power cut can leave), and no summary.
  ASSERT_EQ(run(sc, dir / "cut"), kExitOk);
  size_t pos = 0;
  for (int line = 0; line < 1 + 10 + 2; ++line) pos = whole.find('\n', pos) + 1;
  write_text(dir / "cut" / "samples.csv", whole.substr(0, pos) + whole.substr(pos, 30) + std::string(8, '\0'));
  fs::remove(dir / "cut" / "summary.json");
  std::string err;
  RunOptions o;
  o.resume = (dir / "cut").string();
  std::ostringstream out, errs;
  ASSERT_EQ(run_command(o, out, errs), kExitOk) << errs.str();
  EXPECT_TRUE(contains(errs.str(), "cut 38 bytes of an unfinished chunk")) << errs.str();
  EXPECT_EQ(read_text(dir / "cut" / "samples.csv"), whole);
  const json s = json::parse(read_text(dir / "cut" / "summary.json"));
  EXPECT_EQ(s["samples_done_before_this_run"], 12);
  EXPECT_EQ(s["events"], json::parse(read_text(dir / "whole" / "summary.json"))["events"]);
}

TEST(StudyRun, KillNineThenResumeEndsIdentical) {
  const fs::path dir = scratch("kill");
  std::string text = read_text("tests/data/study_small.yaml");
  text.replace(text.find("chunk: 24"), 9, "chunk: 4");
  text.replace(text.find("samples: 24"), 11, "samples: 160");
  text += "cpu_threads: 1\n";
  const fs::path sc = write_scenario(dir / "scenario", text);
  ASSERT_EQ(run(sc, dir / "whole"), kExitOk);
  const std::string whole = read_text(dir / "whole" / "samples.csv");

  const fs::path victim = dir / "victim";
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {  // the study, killed below wherever it is
    RunOptions o;
    o.scenario = sc.string();
    o.out = victim.string();
    o.quiet = true;
    std::ostringstream out, err;
    ::_exit(run_command(o, out, err));
  }
  // Wait until some chunks are on disk, then kill -9 without warning.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  size_t rows = 0;
  while (std::chrono::steady_clock::now() < deadline) {
    const std::string now = read_text(victim / "samples.csv");
    rows = static_cast<size_t>(std::count(now.begin(), now.end(), '\n'));
    if (rows > 1 + 12) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  ::kill(child, SIGKILL);
  int status = 0;
  ::waitpid(child, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status)) << "the study finished before it could be killed (" << rows << " rows)";
  const std::string partial = read_text(victim / "samples.csv");
  ASSERT_LT(partial.size(), whole.size());
  EXPECT_EQ(partial, whole.substr(0, partial.size()));  // a prefix, perhaps with a torn row

  std::string err;
  ASSERT_EQ(resume(victim, &err), kExitOk) << err;
  EXPECT_EQ(read_text(victim / "samples.csv"), whole);
  // Resuming a finished study changes nothing and simulates nothing.
  ASSERT_EQ(resume(victim, &err), kExitOk) << err;
  EXPECT_EQ(read_text(victim / "samples.csv"), whole);
  EXPECT_EQ(json::parse(read_text(victim / "summary.json"))["timings"]["samples_this_run"], 0);
}

// A full disk while appending (here a file-size limit, which fails the write the same way as
// ENOSPC): the run stops with an error naming samples.csv and the reason, the finished chunks
// stay, and --resume cuts the torn row and ends byte-identical to an undisturbed run.
TEST(StudyRun, FullDiskWhileAppendingThenResumeEndsIdentical) {
  const fs::path dir = scratch("full_disk");
  std::string text = read_text("tests/data/study_small.yaml");
  text.replace(text.find("chunk: 24"), 9, "chunk: 4");
  text += "cpu_threads: 1\n";
  const fs::path sc = write_scenario(dir / "scenario", text);
  ASSERT_EQ(run(sc, dir / "whole"), kExitOk);
  const std::string whole = read_text(dir / "whole" / "samples.csv");
  size_t limit = 0;  // two chunks and 40 bytes of the third: the limit falls inside a row
  for (int line = 0; line < 1 + 2 * 4; ++line) limit = whole.find('\n', limit) + 1;
  limit += 40;
  ASSERT_LT(fs::file_size(dir / "whole" / "study.json"), limit);  // the other files written first fit

  const fs::path victim = dir / "victim";
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::signal(SIGXFSZ, SIG_IGN);  // a write past the limit fails with EFBIG instead of killing
    const rlimit cap{static_cast<rlim_t>(limit), static_cast<rlim_t>(limit)};
    ::setrlimit(RLIMIT_FSIZE, &cap);
    RunOptions o;
    o.scenario = sc.string();
    o.out = victim.string();
    o.quiet = true;
    std::ostringstream out, err;
    const int rc = run_command(o, out, err);
    std::ofstream(dir / "err.txt") << err.str();
    ::_exit(rc);
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), kExitFailure);
  const std::string err = read_text(dir / "err.txt");
  EXPECT_TRUE(contains(err, "samples.csv: cannot append rows: File too large")) << err;
  EXPECT_TRUE(contains(err, "the 8 samples done are kept")) << err;
  EXPECT_TRUE(contains(err, "fleetdyn run --resume " + victim.string())) << err;
  const std::string partial = read_text(victim / "samples.csv");
  EXPECT_EQ(partial.size(), limit);                     // the write stopped at the limit ...
  EXPECT_EQ(partial, whole.substr(0, partial.size()));  // ... mid-row

  RunOptions o;
  o.resume = victim.string();
  std::ostringstream out, errs;
  ASSERT_EQ(run_command(o, out, errs), kExitOk) << errs.str();
  EXPECT_TRUE(contains(errs.str(), "cut 40 bytes of an unfinished chunk")) << errs.str();
  EXPECT_EQ(read_text(victim / "samples.csv"), whole);
}

TEST(StudyRun, ResumeErrors) {
  std::string err;
  const fs::path dir = scratch("resume_errors");
  fs::create_directories(dir / "empty");
  EXPECT_EQ(resume(dir / "empty", &err), kExitBadInput);
  EXPECT_TRUE(contains(err, "holds no study (no study.json")) << err;
  EXPECT_EQ(resume(dir / "missing", &err), kExitBadInput);
  EXPECT_TRUE(contains(err, "is not a folder")) << err;
}

TEST(StudyRun, SamplesFlagOverridesAndIsRecordedForResume) {
  const fs::path dir = scratch("samples_flag");
  ASSERT_EQ(run("tests/data/study_small.yaml", dir, nullptr, 6), kExitOk);
  const std::string csv = read_text(dir / "samples.csv");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 7);
  EXPECT_EQ(json::parse(read_text(dir / "study.json"))["cli_overrides"]["samples"], 6);
  std::string err;
  EXPECT_EQ(run("tests/data/tiny.yaml", scratch("samples_plain"), &err, 6), kExitBadInput);
  EXPECT_TRUE(contains(err, "--samples: tests/data/tiny.yaml has no study section")) << err;
}

#if defined(FLEETDYN_HAS_HDF5)
std::vector<double> read_dataset(hid_t file, const std::string& path) {
  const hid_t set = H5Dopen2(file, path.c_str(), H5P_DEFAULT);
  EXPECT_GE(set, 0) << path;
  if (set < 0) return {};
  const hid_t space = H5Dget_space(set);
  hsize_t n = 0;
  H5Sget_simple_extent_dims(space, &n, nullptr);
  std::vector<double> v(static_cast<size_t>(n));
  H5Dread(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data());
  H5Sclose(space);
  H5Dclose(set);
  return v;
}
#endif

// The worst samples' trajectories, simulated again in a batch of their own, reproduce their rows:
// the metrics the rerun ends with are the bits of the sample's row in samples.csv; recorded at
// every step, the ground-relative roll asin(sin(roll) cos(pitch)) (flat ground) peaks at the
// sample's max_abs_roll (computed here apart from the model's metric).
void expect_worst_cases_reproduce_rows(const std::string& name, const std::string& backend, const std::string& precision) {
  const fs::path dir = scratch(name);
  std::string text = read_text("tests/data/study_small.yaml") + "  trajectories: {worst: 3, points: 3001}\n";
  text.replace(text.find("backend: cpu"), 12, "backend: " + backend);
  text.replace(text.find("precision: fp64"), 15, "precision: " + precision);
  const fs::path sc = write_scenario(dir / "scenario", text);
#if !defined(FLEETDYN_HAS_HDF5)
  FAIL() << "this build has no HDF5: scripts/install-deps.sh installs libhdf5-dev";
#else
  ASSERT_EQ(run(sc, dir / "out"), kExitOk);
  const json summary = json::parse(read_text(dir / "out" / "summary.json"));
  EXPECT_EQ(summary["files"]["trajectories"], "trajectories.h5");
  const study::SamplesTable t = study::read_samples((dir / "out" / "samples.csv").string());
  const auto& roll_metric = t.values[static_cast<size_t>(t.column("max_abs_roll_rad"))];
  const hid_t file = H5Fopen((dir / "out" / "trajectories.h5").c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  ASSERT_GE(file, 0);
  hsize_t groups = 0;
  H5Gget_num_objs(file, &groups);
  EXPECT_EQ(groups, 3u);
  double previous = 1e9;
  for (int i = 0; i < 3; ++i) {
    const int64_t sample = summary["worst_cases"]["samples"][i]["sample"].get<int64_t>();
    char group[40];
    std::snprintf(group, sizeof group, "/sample_%06lld/", static_cast<long long>(sample));
    const std::vector<double> time = read_dataset(file, std::string(group) + "time");
    const std::vector<double> roll = read_dataset(file, std::string(group) + "roll");
    const std::vector<double> pitch = read_dataset(file, std::string(group) + "pitch");
    ASSERT_EQ(time.size(), 3001u);
    EXPECT_EQ(time.front(), 0.0);
    EXPECT_NEAR(time.back(), 3.0, 1e-12);
    double peak = 0.0;  // over the states at the start of each step, as the metric
    for (size_t k = 0; k + 1 < roll.size(); ++k)
      peak = std::max(peak, std::fabs(std::asin(std::sin(roll[k]) * std::cos(pitch[k]))));
    const double expected = roll_metric[static_cast<size_t>(sample)];
    EXPECT_NEAR(peak, expected, (precision == "fp64" ? 1e-9 : 1e-5) * expected) << "sample " << sample;
    EXPECT_LE(expected, previous);  // worst first
    previous = expected;
    const std::vector<double> metrics = read_dataset(file, std::string(group) + "metrics");
    ASSERT_EQ(metrics.size(), static_cast<size_t>(kMetricCount));
    for (int m = 0; m < kMetricCount; ++m) {
      const std::string column = std::string(kMetricInfo[m].name) + unit_suffix(kMetricInfo[m].unit);
      const double row = t.values[static_cast<size_t>(t.column(column))][static_cast<size_t>(sample)];
      const double rerun = metrics[static_cast<size_t>(m)];
      EXPECT_TRUE(std::memcmp(&row, &rerun, sizeof row) == 0 || (std::isnan(row) && std::isnan(rerun)))
          << "sample " << sample << ", " << column << ": samples.csv " << row << ", rerun " << rerun;
    }
  }
  H5Fclose(file);
#endif
}

TEST(StudyRun, TrajectoriesOfTheWorstSamplesReproduceTheirRows) {
  expect_worst_cases_reproduce_rows("trajectories", "cpu", "fp64");
}

TEST(StudyRun, TrajectoriesOfTheWorstSamplesReproduceTheirRowsOnCuda) {
  std::string why;
  if (!cuda_available(&why)) GTEST_SKIP() << why;
  expect_worst_cases_reproduce_rows("trajectories_cuda64", "cuda", "fp64");
  expect_worst_cases_reproduce_rows("trajectories_cuda32", "cuda", "fp32");
}

// A sampled fishhook amplitude (the roll-rate-timed NHTSA program, per sample on the device
// path): with the CG raised to 0.9 m (below the HMMWV's tip-over height, so the roll stays
// proportional rather than saturating at a capsize), a larger first steer rolls the body further.
TEST(StudyRun, SampledFishhookAmplitudeDrivesRoll) {
  const fs::path dir = scratch("amplitude");
  const std::string text =
      "model: strut\nvehicle: {preset: hmmwv, overrides: {cg_height: 0.9}}\ninitial: {speed: 20.0}\n"
      "driver: {type: fishhook, amplitude: 0.27, rate: 1.41, start_time: 0.3}\n"
      "duration: 3.0\nbackend: cpu\n"
      "study:\n  samples: 16\n  sampling: lhs\n  parameters:\n    driver.amplitude: {dist: uniform, min: 0.05, max: "
      "0.4}\n";
  const fs::path sc = write_scenario(dir / "scenario", text);
  std::string err;
  ASSERT_EQ(run(sc, dir / "out", &err), kExitOk) << err;
  const json s = json::parse(read_text(dir / "out" / "summary.json"));
  EXPECT_GT(s["sensitivity"]["spearman"]["max_abs_roll"]["driver.amplitude"].get<double>(), 0.9);
  EXPECT_EQ(s["scenario"]["driver"]["type"], "fishhook");
}

// ---- invalid samples and the summary ------------------------------------------------------------

TEST(StudyRun, OutOfRangeSamplesAreInvalidCountedAndExplained) {
  const fs::path dir = scratch("invalid");
  // cg_height below 0.2 m is outside its range: about 16 % of this normal's draws.
  const fs::path sc = write_scenario(
      dir / "scenario",
      small_study(
          "study:\n  samples: 40\n  seed: 3\n  parameters:\n    cg_height: {dist: normal, mean: 0.3, sd: 0.1}\n"));
  ASSERT_EQ(run(sc, dir / "out"), kExitOk);
  const study::SamplesTable t = study::read_samples((dir / "out" / "samples.csv").string());
  const auto& valid = t.values[static_cast<size_t>(t.column("valid"))];
  const auto& cg = t.values[static_cast<size_t>(t.column("cg_height_m"))];
  const auto& roll = t.values[static_cast<size_t>(t.column("max_abs_roll_rad"))];
  int invalid = 0;
  for (int64_t r = 0; r < t.rows(); ++r) {
    const size_t i = static_cast<size_t>(r);
    // Below 0.2 m is outside the range; just above it the strut preset's consistency check
    // (cg_height above half the tire radius) rejects the vehicle too.
    if (cg[i] < 0.2) {
      EXPECT_EQ(valid[i], 0.0) << "sample " << r;
    }
    if (cg[i] > 0.4699 / 2.0) {
      EXPECT_EQ(valid[i], 1.0) << "sample " << r;
    }
    EXPECT_EQ(std::isnan(roll[i]), valid[i] == 0.0) << "sample " << r;
    invalid += valid[i] == 0.0 ? 1 : 0;
  }
  EXPECT_GT(invalid, 0);
  const json s = json::parse(read_text(dir / "out" / "summary.json"));
  EXPECT_EQ(s["counts"]["invalid"], invalid);
  EXPECT_EQ(s["counts"]["valid"], 40 - invalid);
  EXPECT_EQ(s["events"]["rollover"]["of"], 40 - invalid);
  ASSERT_FALSE(s["invalid_examples"].empty());
  EXPECT_TRUE(contains(s["invalid_examples"][0]["reason"].get<std::string>(), "cg_height = ")) << s["invalid_examples"][0];
}

TEST(StudyRun, SummaryProbabilitiesAndIntervalsMatchTheSamples) {
  const fs::path dir = scratch("summary");
  ASSERT_EQ(run("tests/data/study_small.yaml", dir), kExitOk);
  const study::SamplesTable t = study::read_samples((dir / "samples.csv").string());
  const json s = json::parse(read_text(dir / "summary.json"));
  for (const char* event : {"rollover", "two_wheel_lift", "diverged"}) {
    const auto& col = t.values[static_cast<size_t>(t.column(event))];
    int64_t k = 0;
    for (double v : col) k += v == 1.0 ? 1 : 0;
    const json& e = s["events"][event];
    EXPECT_EQ(e["count"], k) << event;
    EXPECT_EQ(e["of"], 24) << event;
    const study::Interval w = study::wilson_interval(k, 24);
    EXPECT_DOUBLE_EQ(e["wilson_95"][0].get<double>(), w.lo) << event;
    EXPECT_DOUBLE_EQ(e["wilson_95"][1].get<double>(), w.hi) << event;
  }
  // Rollover by definition: roll beyond 45 deg or an unbroken 0.5 s of two-wheel lift.
  const auto& roll = t.values[static_cast<size_t>(t.column("max_abs_roll_rad"))];
  const auto& lift = t.values[static_cast<size_t>(t.column("longest_two_wheel_liftoff_s"))];
  const auto& rolled = t.values[static_cast<size_t>(t.column("rollover"))];
  for (int64_t r = 0; r < t.rows(); ++r) {
    const size_t i = static_cast<size_t>(r);
    EXPECT_EQ(rolled[i] == 1.0, roll[i] > 45.0 * kPi / 180.0 || lift[i] >= 0.5) << "sample " << r;
  }
}

// A fishhook with the body's CG raised from 0.6 m to 1.3 m (the preset has 0.69 m) and the tire
// friction scattered: the rollover probability must rise with CG height (the static stability
// factor t / 2h of the whole vehicle falls from about 1.5 to 0.75, across the 0.7 to 1.0 g the
// tires give), and the rank correlation must say CG height drives it. The step is the default one,
// derived from the stiffest sampled vehicle, so no vehicle diverges from a too-large step.
TEST(StudyRun, FishhookRolloverProbabilityRisesWithCgHeight) {
  const fs::path dir = scratch("cg");
  std::string text = small_study(
      "study:\n  samples: 48\n  seed: 11\n  sampling: lhs\n  parameters:\n"
      "    cg_height: {dist: uniform, min: 0.6, max: 1.3}\n"
      "    tire.mu: {dist: uniform, min: 0.7, max: 1.0}\n");
  text.erase(text.find("step: 0.001\n"), 12);
  const fs::path sc = write_scenario(dir / "scenario", text);
  ASSERT_EQ(run(sc, dir / "out"), kExitOk);
  const study::SamplesTable t = study::read_samples((dir / "out" / "samples.csv").string());
  const auto& cg = t.values[static_cast<size_t>(t.column("cg_height_m"))];
  const auto& rolled = t.values[static_cast<size_t>(t.column("rollover"))];
  int low = 0, high = 0;
  for (int64_t r = 0; r < t.rows(); ++r) {
    const size_t i = static_cast<size_t>(r);
    (cg[i] < 0.95 ? low : high) += rolled[i] == 1.0 ? 1 : 0;
  }
  EXPECT_LT(low, high) << "rollovers with CG below the middle: " << low << ", above: " << high;
  const json s = json::parse(read_text(dir / "out" / "summary.json"));
  EXPECT_EQ(s["events"]["diverged"]["count"], 0);
  EXPECT_GT(s["sensitivity"]["spearman"]["rollover"]["cg_height"].get<double>(), 0.5);
  EXPECT_GT(s["sensitivity"]["spearman"]["max_abs_roll"]["cg_height"].get<double>(), 0.8);
}

}  // namespace
}  // namespace fleetdyn
