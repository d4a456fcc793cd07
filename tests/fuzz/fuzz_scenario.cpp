// libFuzzer target: any bytes as a scenario file go through the parser, its validation and the
// construction of a one-vehicle batch (a study's first sample), without stepping. Bad input must
// end in fleetdyn::Error (the message the CLI prints, exit code 2); anything else (another
// exception, a crash, a sanitizer report, a hang or an allocation beyond -rss_limit_mb) is a
// finding. Seeds: scenarios/ and tests/data/ (scripts/fuzz.sh).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fleetdyn/error.h"
#include "host/scenario/scenario.h"
#include "host/study/sample_setup.h"

namespace {

void build_one_vehicle(fleetdyn::Scenario& s) {
  s.backend = fleetdyn::BackendKind::Cpu;  // the same checks; no device needed
  s.cpu_threads = 1;
  if (!s.study.enabled) {
    s.vehicles = 1;
    fleetdyn::Batch batch = fleetdyn::scenario_batch(s);
    return;
  }
  const fleetdyn::study::StudyDesign design(s.study);
  std::vector<double> values(static_cast<size_t>(s.study.dimensions()));
  design.values(0, values.data());
  const fleetdyn::study::SampleSetup setup = fleetdyn::study::sample_setup(s, values.data(), design.base_sample(0));
  if (setup.valid) fleetdyn::Batch batch = fleetdyn::study::sample_batch(s, {&setup});
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    fleetdyn::Scenario s = fleetdyn::parse_scenario(text, "fuzz.yaml");
    build_one_vehicle(s);
  } catch (const fleetdyn::Error&) {
    // a clear refusal: what bad input must get
  }
  return 0;
}
