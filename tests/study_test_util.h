// Helpers shared by the study tests (test_study, test_study_roads, test_study_events): files,
// scratch folders and `fleetdyn run` on a scenario, in process.
#pragma once

#include <filesystem>
#include <optional>
#include <sstream>
#include <string>

#include "host/cli/run_job.h"
#include "host/scenario/scenario.h"
#include "tests/file_test_util.h"

namespace fleetdyn {
namespace test {

// `fleetdyn run SCENARIO --out OUT_DIR [--samples N] -q`; its exit code, stderr into err_text.
inline int run_scenario(const std::filesystem::path& scenario, const std::filesystem::path& out_dir,
                        std::string* err_text = nullptr, std::optional<long long> samples = std::nullopt) {
  RunOptions o;
  o.scenario = scenario.string();
  o.out = out_dir.string();
  o.quiet = true;
  o.samples = samples;
  std::ostringstream out, err;
  const int rc = run_command(o, out, err);
  if (err_text) *err_text = err.str();
  return rc;
}

// The message of the error parsing `text` gives ("(no error)" when it parses).
inline std::string parse_error(const std::string& text) {
  try {
    parse_scenario(text, "bad.yaml");
  } catch (const ScenarioError& e) {
    return e.what();
  }
  return "(no error)";
}

// Writes `text` to folder/scenario.yaml and runs it with results in folder/out.
inline int run_study_text(const std::filesystem::path& folder, const std::string& text, std::string* err_text = nullptr) {
  write_text(folder / "scenario.yaml", text);
  return run_scenario(folder / "scenario.yaml", folder / "out", err_text);
}

}  // namespace test
}  // namespace fleetdyn
