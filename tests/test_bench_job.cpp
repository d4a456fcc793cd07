// `fleetdyn bench` in-process (run_bench_job): the ce model next to strut, on a tiny matrix
// (1 and 8 vehicles, CPU, fp64, one thread, 0.05 s per measurement), so the whole file runs in
// a few seconds. Checks the files written, their schema and results, the instrumented floor, and
// that bad configurations return 2 and write nothing.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "fleetdyn/physics/ce/ce_model.h"
#include "fleetdyn/physics/core/metrics.h"
#include "fleetdyn/physics/strut/strut_model.h"
#include "host/cli/bench_job.h"
#include "tests/file_test_util.h"

namespace fleetdyn {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

class BenchJob : public test::ScratchFolderTest {
 protected:
  BenchJob() : ScratchFolderTest("fleetdyn_bench_test_") {}

  BenchConfig config(const std::string& model) const {
    BenchConfig c;
    c.model = model;
    c.sizes = {1, 8};
    c.backends = {"cpu"};
    c.precisions = {"fp64"};
    c.cpu_threads = {1};
    c.min_wall_seconds = 0.05;
    c.out_dir = dir_.string();
    c.machine = "testbox";
    c.quiet = true;
    return c;
  }

  int run(const BenchConfig& c) {
    log_.str("");
    return run_bench_job(c, log_);
  }

  json read_json(const std::string& name) const {
    std::ifstream in(dir_ / name);
    EXPECT_TRUE(in.good()) << name;
    json j;
    if (in) in >> j;
    return j;
  }

  std::vector<std::string> files() const {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir_)) names.push_back(e.path().filename().string());
    return names;
  }

  std::ostringstream log_;
};

TEST_F(BenchJob, CeWritesItsFileWithHeavierFloorThanStrut) {
  ASSERT_EQ(run(config("ce")), 0) << log_.str();
  const json ce = read_json("testbox-ce.json");
  EXPECT_EQ(ce.at("schema"), "fleetdyn-bench-ce/1");
  EXPECT_EQ(ce.at("scenario").at("model"), "ce");
  EXPECT_DOUBLE_EQ(ce.at("scenario").at("step_s").get<double>(), 0.002);
  EXPECT_TRUE(ce.at("scenario").contains("steer_input"));  // says the steer input is the Pitman angle
  const json& results = ce.at("results");
  // ce has one CPU path (scalar): 2 parameter modes x 2 sizes.
  ASSERT_EQ(results.size(), 4u);
  for (const json& r : results) {
    EXPECT_EQ(r.at("model"), "ce");
    EXPECT_EQ(r.at("backend"), "cpu");
    EXPECT_EQ(r.at("cpu_path"), "scalar");
    EXPECT_NE(r.at("device").get<std::string>().find("scalar"), std::string::npos) << r.at("device");
    EXPECT_DOUBLE_EQ(r.at("step_s").get<double>(), 0.002);
    EXPECT_GT(r.at("vehicle_steps_per_s").get<double>(), 0.0);
    EXPECT_GT(r.at("sim_vehicle_seconds_per_wall_s_per_core").get<double>(), 0.0);
    EXPECT_EQ(r.at("diverged_vehicles").get<int>(), 0) << r.dump();
  }
  // The floor counts ce's own state (34 scalars) and parameter struct.
  const json& floor = ce.at("floor");
  ASSERT_TRUE(floor.is_object());
  EXPECT_EQ(floor.at("params_bytes").at("fp64").get<size_t>(), sizeof(CeParams<double>));
  EXPECT_EQ(floor.at("params_bytes").at("fp32").get<size_t>(), sizeof(CeParams<float>));
  EXPECT_DOUBLE_EQ(floor.at("kernel_bytes_per_vehicle_per_launch").at("fp64").get<double>(),
                   double((2 * kCeStateSize + 2 * kMetricCount + 2 * 2 + 3) * 8 + 2 * 2 * 4));

  ASSERT_EQ(run(config("strut")), 0) << log_.str();
  const json strut = read_json("testbox-strut.json");
  EXPECT_EQ(strut.at("schema"), "fleetdyn-bench-strut/1");
  EXPECT_EQ(strut.at("scenario").at("model"), "strut");
  EXPECT_FALSE(strut.at("scenario").contains("steer_input"));  // strut's file keeps its content
  for (const json& r : strut.at("results")) EXPECT_EQ(r.at("model"), "strut");
  EXPECT_EQ(strut.at("floor").at("params_bytes").at("fp64").get<size_t>(), sizeof(StrutParams<double>));

  // Kernel bytes differ by the state sizes only (state in and out).
  EXPECT_DOUBLE_EQ(strut.at("floor").at("kernel_bytes_per_vehicle_per_launch").at("fp64").get<double>() -
                       floor.at("kernel_bytes_per_vehicle_per_launch").at("fp64").get<double>(),
                   2.0 * (kStrutStateSize - kCeStateSize) * 8.0);
  // ce's derivative (four 3-D loop closures, the articulated-body recursion) is much heavier.
  const double ce_flop = floor.at("ops_per_vehicle_step").at("flop").get<double>();
  const double strut_flop = strut.at("floor").at("ops_per_vehicle_step").at("flop").get<double>();
  EXPECT_GT(strut_flop, 0.0);
  EXPECT_GT(ce_flop, 4.0 * strut_flop) << "ce " << ce_flop << " vs strut " << strut_flop << " FLOP per vehicle-step";

  const std::vector<std::string> written = files();
  EXPECT_EQ(written.size(), 2u);
}

TEST_F(BenchJob, CeAskedForSimdMeasuresItsScalarPathAndSaysSo) {
  BenchConfig c = config("ce");
  c.sizes = {1};
  c.param_sets = {"shared"};
  c.cpu_paths = {"simd"};
  c.quiet = false;
  ASSERT_EQ(run(c), 0) << log_.str();
  EXPECT_NE(log_.str().find("no SIMD"), std::string::npos) << log_.str();
  const json ce = read_json("testbox-ce.json");
  ASSERT_EQ(ce.at("results").size(), 1u);
  EXPECT_EQ(ce.at("results")[0].at("cpu_path"), "scalar");
  EXPECT_TRUE(ce.at("method").contains("cpu_paths"));
}

TEST_F(BenchJob, UnknownModelReturns2AndWritesNothing) {
  BenchConfig c = config("bicycle");
  EXPECT_EQ(run(c), 2);
  EXPECT_NE(log_.str().find("unknown model 'bicycle'"), std::string::npos) << log_.str();
  EXPECT_NE(log_.str().find("strut"), std::string::npos);
  EXPECT_NE(log_.str().find("ce"), std::string::npos);
  EXPECT_TRUE(files().empty());
}

}  // namespace
}  // namespace fleetdyn
