// `fleetdyn validate` in-process (validate_command): its report, exit codes and option checks.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "fleetdyn/backend.h"
#include "host/cli/run_job.h"
#include "host/cli/validate_job.h"

namespace fleetdyn {
namespace {

struct Outcome {
  int code;
  std::string out, err;
};

Outcome run(const ValidateOptions& o) {
  std::ostringstream out, err;
  const int code = validate_command(o, out, err);
  return {code, out.str(), err.str()};
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(CliValidate, CeReportsTheWorstVehicleAndTheTolerance) {
  ValidateOptions o;
  o.model = "ce";
  o.vehicles = 6;
  for (const char* precision : {"fp64", "fp32"}) {
    o.precision = precision;
    const Outcome r = run(o);
    EXPECT_EQ(r.code, kExitOk) << r.out << r.err;
    EXPECT_TRUE(contains(r.out, "validate ce: 6 vehicles, backend cpu (cpu), " + std::string(precision))) << r.out;
    EXPECT_TRUE(contains(r.out, "worst error ")) << r.out;
    EXPECT_TRUE(contains(r.out, "tolerance ")) << r.out;
    EXPECT_TRUE(contains(r.out, ": ok\n")) << r.out;
    EXPECT_TRUE(r.err.empty()) << r.err;
  }
}

TEST(CliValidate, PgsReportsTheResidualToo) {
  ValidateOptions o;
  o.model = "pgs";
  o.vehicles = 3;
  const Outcome r = run(o);
  EXPECT_EQ(r.code, kExitOk) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "88 bilateral rows")) << r.out;
  EXPECT_TRUE(contains(r.out, "worst bilateral velocity residual after the sweeps")) << r.out;
  EXPECT_TRUE(contains(r.out, ": ok\n")) << r.out;
}

TEST(CliValidate, BadOptionsNameTheOptionAndWhatIsAllowed) {
  const auto expect_bad = [](ValidateOptions o, const std::string& message) {
    const Outcome r = run(o);
    EXPECT_EQ(r.code, kExitBadInput);
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_TRUE(contains(r.err, message)) << r.err;
  };
  ValidateOptions o;
  o.model = "strut";
  expect_bad(o, "--model 'strut' is not known (allowed: ce, pgs)");
  o = ValidateOptions{};
  o.vehicles = 0;
  expect_bad(o, "--vehicles 0 is out of range (allowed: 1 .. 100000)");
  o.vehicles = 100001;
  expect_bad(o, "--vehicles 100001 is out of range");
  o = ValidateOptions{};
  o.backend = "gpu";
  expect_bad(o, "--backend 'gpu' is not known (allowed: cpu, cuda)");
  o = ValidateOptions{};
  o.precision = "fp16";
  expect_bad(o, "--precision 'fp16' is not known (allowed: fp32, fp64)");
}

TEST(CliValidate, CudaWithoutADeviceIsARuntimeFailure) {
  std::string why;
  if (cuda_available(&why)) GTEST_SKIP() << "a device is usable: " << why;
  ValidateOptions o;
  o.vehicles = 2;
  o.backend = "cuda";
  const Outcome r = run(o);
  EXPECT_EQ(r.code, kExitFailure);
  EXPECT_TRUE(contains(r.err, "fleetdyn validate: ")) << r.err;
  EXPECT_TRUE(contains(r.err, "cuda")) << r.err;
}

}  // namespace
}  // namespace fleetdyn
