// `fleetdyn run` in-process (run_command): the files it writes, its exit codes, that bad input
// writes nothing, that command-line overrides take effect; and the progress bar's formatting.
// Runs from the source tree (tests/data/tiny.yaml: 4 vehicles, 0.5 s, CPU).
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

#include "fleetdyn/batch.h"
#include "fleetdyn/ce.h"
#include "fleetdyn/ce_fields.h"
#include "fleetdyn/physics/core/metrics.h"
#include "fleetdyn/vehicle.h"
#include "host/batch/model_params.h"
#include "host/cli/params_job.h"
#include "host/cli/run_job.h"
#include "host/output/progress.h"
#include "tests/file_test_util.h"

namespace fleetdyn {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using test::contains;
using test::read_text;

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::stringstream in(s);
  std::string item;
  while (std::getline(in, item, sep)) out.push_back(item);
  return out;
}

struct Csv {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  int column(const std::string& name) const {
    for (size_t i = 0; i < header.size(); ++i) {
      if (header[i] == name) return static_cast<int>(i);
    }
    return -1;
  }
};

Csv read_csv(const fs::path& path) {
  Csv csv;
  std::vector<std::string> lines = split(read_text(path), '\n');
  if (lines.empty()) return csv;
  csv.header = split(lines[0], ',');
  for (size_t i = 1; i < lines.size(); ++i) csv.rows.push_back(split(lines[i], ','));
  return csv;
}

// Expected metric column names: name + unit suffix, e.g. max_abs_lat_accel_m_per_s2.
std::vector<std::string> metric_columns() {
  return {"max_abs_roll_rad",
          "max_abs_pitch_rad",
          "max_abs_roll_rate_rad_per_s",
          "max_abs_lat_accel_m_per_s2",
          "wheel_liftoff_time_s",
          "two_wheel_liftoff_time_s",
          "first_liftoff_time_s",
          "diverged_time_s",
          "longest_two_wheel_liftoff_s",
          "current_two_wheel_liftoff_s",
          "max_path_deviation_m",
          "path_progress_m",
          "maneuver_end_time_s",
          "max_abs_vert_accel_m_per_s2",
          "capsize_time_s",
          "roll_rotation_rad",
          "roll_quarter_turns",
          "final_attitude",
          "max_roof_contact_speed_m_per_s"};
}

std::vector<std::string> metric_names() {
  std::vector<std::string> names;
#define FLEETDYN_METRIC_NAME(name, unit, doc) names.push_back(#name);
  FLEETDYN_METRIC_FIELDS(FLEETDYN_METRIC_NAME)
#undef FLEETDYN_METRIC_NAME
  return names;
}

class CliRun : public test::ScratchFolderTest {
 protected:
  CliRun() : ScratchFolderTest("fleetdyn_cli_test_") {}

  int run(RunOptions o) {
    out_.str("");
    err_.str("");
    return run_command(o, out_, err_);
  }

  std::ostringstream out_, err_;
};

TEST_F(CliRun, TinyScenarioWritesResultsAndSummary) {
  RunOptions o;
  o.scenario = "tests/data/tiny.yaml";
  o.out = (dir_ / "run").string();
  ASSERT_EQ(run(o), kExitOk) << err_.str();
  EXPECT_EQ(err_.str(), "");

  // Exactly the two result files (the temporary names are gone).
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(dir_ / "run")) files.push_back(e.path().filename().string());
  std::sort(files.begin(), files.end());
  EXPECT_EQ(files, (std::vector<std::string>{"results.csv", "summary.json"}));

  const Csv csv = read_csv(dir_ / "run" / "results.csv");
  ASSERT_EQ(csv.rows.size(), 4u);
  for (const char* c : {"id", "x_m", "y_m", "z_m", "roll_rad", "pitch_rad", "yaw_rad", "speed_m_per_s", "diverged",
                        "capsized", "tire.mu"}) {
    EXPECT_GE(csv.column(c), 0) << c;
  }
  ASSERT_EQ(metric_columns().size(), static_cast<size_t>(kMetricCount));  // keep this test in step with the table
  for (const auto& c : metric_columns()) EXPECT_GE(csv.column(c), 0) << c;
  for (size_t v = 0; v < csv.rows.size(); ++v) {
    const auto& row = csv.rows[v];
    ASSERT_EQ(row.size(), csv.header.size()) << v;
    EXPECT_EQ(row[0], std::to_string(v));
    EXPECT_EQ(row[csv.column("diverged")], "0");
    EXPECT_EQ(std::stod(row[csv.column("tire.mu")]), 0.8);
    // Moved forward from x = 0 at about 10 m/s for 0.5 s, upright, on the ground.
    EXPECT_GT(std::stod(row[csv.column("x_m")]), 3.0);
    EXPECT_NEAR(std::stod(row[csv.column("speed_m_per_s")]), 10.0, 1.5);
    EXPECT_NEAR(std::stod(row[csv.column("z_m")]), 0.69, 0.1);
    // Full precision: 17 significant digits round-trip.
    EXPECT_GE(row[csv.column("x_m")].size(), 15u) << row[csv.column("x_m")];
  }

  const json j = json::parse(read_text(dir_ / "run" / "summary.json"));
  EXPECT_EQ(j.at("backend"), "cpu");
  EXPECT_FALSE(j.at("device").get<std::string>().empty());
  EXPECT_EQ(j.at("model"), "strut");
  EXPECT_EQ(j.at("precision"), "fp64");
  EXPECT_EQ(j.at("vehicles"), 4);
  EXPECT_EQ(j.at("steps"), 500);
  EXPECT_EQ(j.at("step"), 0.001);
  EXPECT_EQ(j.at("substeps"), 1);
  EXPECT_EQ(j.at("duration"), 0.5);
  EXPECT_EQ(j.at("fleetdyn_version"), fleetdyn_version());
  EXPECT_GT(j.at("wall_time_s").get<double>(), 0.0);
  EXPECT_GT(j.at("vehicle_steps_per_s").get<double>(), 0.0);
  EXPECT_GT(j.at("sim_vehicle_seconds_per_s").get<double>(), 0.0);
  EXPECT_NEAR(j.at("vehicle_steps_per_s").get<double>() / j.at("sim_vehicle_seconds_per_s").get<double>(), 1000.0, 1e-6);
  EXPECT_EQ(j.at("counts").at("diverged"), 0);
  EXPECT_EQ(j.at("counts").at("vehicles"), 4);
  // Echo: the parsed settings and the original text.
  EXPECT_EQ(j.at("scenario").at("text"), read_text("tests/data/tiny.yaml"));
  EXPECT_EQ(j.at("scenario").at("vehicle").at("overrides").at("tire.mu"), 0.8);
  EXPECT_EQ(j.at("scenario").at("maneuver").size(), 2u);
  EXPECT_EQ(j.at("scenario").at("terrain").at("type"), "flat");
  // Aggregates of every metric.
  for (const auto& name : metric_names()) {
    ASSERT_TRUE(j.at("metrics").contains(name)) << name;
    const json& m = j.at("metrics").at(name);
    if (m.at("count").get<int>() > 0) {
      EXPECT_LE(m.at("min").get<double>(), m.at("mean").get<double>()) << name;
      EXPECT_LE(m.at("mean").get<double>(), m.at("max").get<double>() + 1e-12) << name;
    }
  }
  EXPECT_EQ(j.at("metrics").at("max_abs_roll").at("count"), 4);

  // The human summary names the files and the diverged count.
  EXPECT_TRUE(contains(out_.str(), "results.csv")) << out_.str();
  EXPECT_TRUE(contains(out_.str(), "diverged: 0 of 4")) << out_.str();
  // The at-a-glance lines: tiny.yaml's gentle turn at 10 m/s lifts no wheel.
  EXPECT_TRUE(contains(out_.str(), "wheel lift-off: 0 of 4 vehicles (both wheels of a side: 0)")) << out_.str();
  EXPECT_TRUE(contains(out_.str(), "max roll: ")) << out_.str();
}

// `model: ce` runs the ce model: the rows equal a Batch of ce vehicles built by hand with the
// same parameters (the override, the swept front spring rate), inputs and default step, to the
// last digit written; the swept values are echoed; the summary names the model and its step.
TEST_F(CliRun, CeScenarioRunsTheCeModel) {
  RunOptions o;
  o.scenario = "tests/data/tiny_ce.yaml";
  o.out = (dir_ / "ce").string();
  ASSERT_EQ(run(o), kExitOk) << err_.str();
  const json j = json::parse(read_text(dir_ / "ce" / "summary.json"));
  EXPECT_EQ(j.at("model"), "ce");
  const double step = ce_step_analysis(hmmwv_ce_params()).default_step;
  EXPECT_EQ(j.at("step"), step);  // not given: the ce model's default (2 ms)
  const long long steps = std::llround(0.4 / step);
  EXPECT_EQ(j.at("steps"), steps);

  std::vector<CeParams<double>> params;
  for (int v = 0; v < 3; ++v) {
    CeParams<double> p = hmmwv_ce_params();
    p.tire.mu = 0.8;
    p.axle[0].spring_rate = 150000.0 + 50000.0 * v / 2.0;
    finalize_ce_params(p);
    params.push_back(p);
  }
  BatchOptions options;
  options.backend = BackendKind::Cpu;
  options.step = step;
  Batch batch(params, 3, TerrainSpec{}, options);
  batch.set_initial_conditions({{0.0, 0.0, 0.0, 10.0}});
  batch.set_maneuvers({{{0.0, 0.0, 0.2, 0.0}, {0.2, 0.3, 0.2, 0.0}}});
  batch.step(static_cast<int>(steps));
  const std::vector<VehicleSnapshot> expected = batch.snapshots();

  const Csv csv = read_csv(dir_ / "ce" / "results.csv");
  ASSERT_EQ(csv.rows.size(), 3u);
  for (int v = 0; v < 3; ++v) {
    const auto& row = csv.rows[static_cast<size_t>(v)];
    EXPECT_EQ(std::stod(row[csv.column("spring_rate_front_N_per_m")]), params[static_cast<size_t>(v)].axle[0].spring_rate);
    EXPECT_EQ(std::stod(row[csv.column("tire.mu")]), 0.8);
    EXPECT_EQ(std::stod(row[csv.column("x_m")]), expected[static_cast<size_t>(v)].position[0]);
    EXPECT_EQ(std::stod(row[csv.column("y_m")]), expected[static_cast<size_t>(v)].position[1]);
    EXPECT_EQ(std::stod(row[csv.column("yaw_rad")]), expected[static_cast<size_t>(v)].euler[2]);
    EXPECT_EQ(row[csv.column("diverged")], "0");
    EXPECT_GT(std::stod(row[csv.column("x_m")]), 3.0);  // it drove
  }
}

TEST_F(CliRun, MalformedScenarioReturns2AndWritesNothing) {
  RunOptions o;
  o.scenario = "tests/data/unknown_key.yaml";
  o.out = (dir_ / "bad").string();
  EXPECT_EQ(run(o), kExitBadInput);
  EXPECT_FALSE(fs::exists(dir_ / "bad"));
  EXPECT_EQ(out_.str(), "");
  const std::string err = err_.str();
  EXPECT_TRUE(contains(err, "tests/data/unknown_key.yaml:5: vehicle_count: unknown key")) << err;
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << "one line: " << err;

  // Deeper folders are not created either, and a missing scenario is bad input too.
  o.out = (dir_ / "a" / "b").string();
  o.scenario = "tests/data/bad_maneuver_order.yaml";
  EXPECT_EQ(run(o), kExitBadInput);
  o.scenario = "tests/data/no_such_file.yaml";
  EXPECT_EQ(run(o), kExitBadInput);
  EXPECT_TRUE(contains(err_.str(), "no_such_file.yaml")) << err_.str();
  EXPECT_FALSE(fs::exists(dir_ / "a"));
}

TEST_F(CliRun, BadOptionsReturn2AndWriteNothing) {
  RunOptions o;
  o.scenario = "tests/data/tiny.yaml";
  o.out = (dir_ / "bad").string();
  o.vehicles = 0;
  EXPECT_EQ(run(o), kExitBadInput);
  EXPECT_TRUE(contains(err_.str(), "--vehicles")) << err_.str();
  o.vehicles.reset();
  o.precision = "fp16";
  EXPECT_EQ(run(o), kExitBadInput);
  EXPECT_TRUE(contains(err_.str(), "--precision: unknown precision 'fp16'")) << err_.str();
  o.precision.reset();
  o.backend = "gpu";
  EXPECT_EQ(run(o), kExitBadInput);
  EXPECT_TRUE(contains(err_.str(), "--backend")) << err_.str();
  o.backend.reset();
  o.cpu_threads = -1;
  EXPECT_EQ(run(o), kExitBadInput);
  EXPECT_FALSE(fs::exists(dir_ / "bad"));
  // The output path exists as a file.
  o.cpu_threads.reset();
  std::ofstream(dir_ / "file") << "x";
  o.out = (dir_ / "file").string();
  EXPECT_EQ(run(o), kExitBadInput);
  EXPECT_TRUE(contains(err_.str(), "not a folder")) << err_.str();
  EXPECT_EQ(read_text(dir_ / "file"), "x");
}

TEST_F(CliRun, CommandLineOverridesTakeEffect) {
  RunOptions o;
  o.scenario = "tests/data/tiny.yaml";
  o.out = (dir_ / "over").string();
  o.vehicles = 3;
  o.precision = "fp32";
  o.backend = "cpu";
  o.cpu_threads = 1;
  o.quiet = true;
  ASSERT_EQ(run(o), kExitOk) << err_.str();
  EXPECT_EQ(out_.str(), "");  // --quiet
  EXPECT_EQ(read_csv(dir_ / "over" / "results.csv").rows.size(), 3u);
  const json j = json::parse(read_text(dir_ / "over" / "summary.json"));
  EXPECT_EQ(j.at("vehicles"), 3);
  EXPECT_EQ(j.at("precision"), "fp32");
  EXPECT_EQ(j.at("scenario").at("precision"), "fp32");
  EXPECT_EQ(j.at("cli_overrides").at("vehicles"), 3);
  EXPECT_EQ(j.at("cli_overrides").at("precision"), "fp32");
  EXPECT_EQ(j.at("counts").at("diverged"), 0);
}

TEST_F(CliRun, SweptParameterIsPerVehicle) {
  const fs::path scenario = dir_ / "sweep.yaml";
  std::ofstream(scenario) << "duration: 0.2\nstep: 0.001\nvehicles: 3\nbackend: cpu\n"
                             "vehicle:\n  sweep: {name: cg_height, from: 0.6, to: 0.9}\n"
                             "initial: {speed: 5}\n";
  RunOptions o;
  o.scenario = scenario.string();
  o.out = (dir_ / "sweep").string();
  o.quiet = true;
  ASSERT_EQ(run(o), kExitOk) << err_.str();
  const Csv csv = read_csv(dir_ / "sweep" / "results.csv");
  const int c = csv.column("cg_height_m");
  ASSERT_GE(c, 0);
  ASSERT_EQ(csv.rows.size(), 3u);
  EXPECT_EQ(std::stod(csv.rows[0][c]), 0.6);
  EXPECT_NEAR(std::stod(csv.rows[1][c]), 0.75, 1e-15);
  EXPECT_EQ(std::stod(csv.rows[2][c]), 0.9);
  // The resting COM height follows the swept value.
  EXPECT_LT(std::stod(csv.rows[0][csv.column("z_m")]), std::stod(csv.rows[2][csv.column("z_m")]));
}

TEST_F(CliRun, ProgressBarDrawsOnErrWhenAsked) {
  RunOptions o;
  o.scenario = "tests/data/tiny.yaml";
  o.out = (dir_ / "bar").string();
  o.progress = true;
  ASSERT_EQ(run(o), kExitOk) << err_.str();
  EXPECT_TRUE(contains(err_.str(), "\r[")) << err_.str();
  EXPECT_TRUE(contains(err_.str(), "100%")) << err_.str();
  EXPECT_TRUE(contains(err_.str(), "veh-steps/s")) << err_.str();
  // ... and ends erased, so the summary starts on a clean line.
  EXPECT_EQ(err_.str().substr(err_.str().size() - 4), "\r\x1b[K");
  o.quiet = true;  // --quiet wins
  ASSERT_EQ(run(o), kExitOk);
  EXPECT_EQ(err_.str(), "");
}

TEST(Progress, Formatting) {
  EXPECT_EQ(format_rate(950.0), "950");
  EXPECT_EQ(format_rate(1234567.0), "1.23M");
  EXPECT_EQ(format_rate(2.5e9), "2.50G");
  EXPECT_EQ(format_duration(5.0), "5s");
  EXPECT_EQ(format_duration(125.0), "2m05s");
  EXPECT_EQ(format_duration(7384.0), "2h03m");
  EXPECT_EQ(format_duration(-1.0), "--");
  const std::string line = format_progress_line(0.5, 3.0, 6.0, 1.5e6, 4.0);
  EXPECT_EQ(line, "[############............]  50%  t 3.00/6.00 s  1.50M veh-steps/s  ETA 4s");
  EXPECT_TRUE(contains(format_progress_line(0.0, 0.0, 6.0, -1.0, -1.0), "ETA --"));
}

// `fleetdyn params`: every overridable parameter of the model appears once, with the preset's
// value; an unknown model or preset is bad input.
TEST(ParamsCommand, ListsEveryOverridableParameterWithItsPresetValue) {
  for (const char* model : {"strut", "ce"}) {
    std::ostringstream out, err;
    ASSERT_EQ(params_command(model, "hmmwv", "", out, err), kExitOk) << err.str();
    const std::string text = out.str();
    const ModelParams p = model_preset(parse_model(model), "hmmwv");
    for (const auto& f : model_param_fields(p.model())) {
      const std::string name = f.name;
      const size_t at = text.find("\n" + name + " ");
      ASSERT_NE(at, std::string::npos) << model << " " << name;
      // The value is the last token before the range "[min, max]" (units may be two words).
      const std::string row = text.substr(at + 1, text.find('\n', at + 1) - at - 1);
      const std::string before_range = row.substr(0, row.find('['));
      const size_t end = before_range.find_last_not_of(' ');
      const size_t begin = before_range.find_last_of(' ', end) + 1;
      const double value = std::stod(before_range.substr(begin, end - begin + 1));
      const double expected = model_param(p, name);
      EXPECT_NEAR(value, expected, 1e-5 * std::fabs(expected) + 1e-12) << model << " " << name;
    }
  }
  std::ostringstream out2, err2;
  EXPECT_EQ(params_command("strut", "tank", "", out2, err2), kExitBadInput);
  EXPECT_NE(err2.str().find("unknown vehicle preset 'tank'"), std::string::npos);
  std::ostringstream out3, err3;
  EXPECT_EQ(params_command("dof14", "hmmwv", "", out3, err3), kExitBadInput);
  EXPECT_NE(err3.str().find("unknown model 'dof14'"), std::string::npos);
}

}  // namespace
}  // namespace fleetdyn
