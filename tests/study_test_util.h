// Helpers shared by the study tests (test_study, test_study_roads, test_study_events): files,
// scratch folders and `fleetdyn run` on a scenario, in process.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include "host/cli/run_job.h"
#include "host/scenario/scenario.h"

namespace fleetdyn {
namespace test {

inline std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

inline void write_text(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

inline bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

// A path for one test under the temporary folder, `suite`-specific and per process: removed if
// it was there, its parent created (the folder itself is left to the caller or the run).
inline std::filesystem::path fresh_path(const std::string& suite, const std::string& name) {
  namespace fs = std::filesystem;
  const fs::path p = fs::temp_directory_path() / ("fleetdyn_test_" + suite + "_" + std::to_string(::getpid())) / name;
  fs::remove_all(p);
  fs::create_directories(p.parent_path());
  return p;
}

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
