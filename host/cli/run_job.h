// `fleetdyn run [SCENARIO]`: simulate a scenario file (host/scenario/scenario.h) and write
//   <output>/results.csv    one row per vehicle: id, final pose and speed, every metric, diverged,
//                           the overridden and swept parameters (full precision)
//   <output>/summary.json   scenario echo (settings and file text), version, backend, device,
//                           timings and throughput, diverged count, metric aggregates
// Both files are written under a temporary name and renamed, so a crash never leaves a half
// file under the final name. Bad input (scenario or options) creates no folder and no file.
// A scenario with a `study:` section runs a Monte Carlo study instead (host/study/study_job.h):
// samples.csv, summary.json and report.html, resumable with `resume`.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <string>

namespace fleetdyn {

struct RunOptions {
  std::string scenario = "scenarios/default.yaml";  // relative to the working directory
  std::optional<std::string> scenario_text;         // the scenario itself instead of reading `scenario`, which
                                                    // then only names it in messages and anchors its files
  std::optional<std::string> out;                   // result folder instead of the scenario's `output`
  std::optional<int> vehicles;                      // instead of the scenario's `vehicles`
  std::optional<long long> samples;                 // instead of the study's `samples` (studies only)
  std::optional<std::string> resume;                // continue the study in this folder (its study.json names
                                                    // the scenario and overrides; only threads/quiet/progress apply)
  std::optional<std::string> backend;               // auto | cpu | cuda
  std::optional<std::string> precision;             // fp32 | fp64
  std::optional<int> cpu_threads;                   // CPU backend threads, 0 = all
  bool quiet = false;     // no progress bar, no summary on `out` (errors and warnings still go to `err`)
  bool progress = false;  // draw the progress bar on `err` (the CLI sets it when stderr is a terminal)
  std::function<void(int64_t done, int64_t total)> on_progress;  // studies: StudyRunOptions::on_progress
};

// Exit codes of the command-line tool.
constexpr int kExitOk = 0;
constexpr int kExitFailure = 1;   // runtime failure (no CUDA device, cannot write the results, ...)
constexpr int kExitBadInput = 2;  // bad scenario or options

// Runs the job; the human summary goes to `out`, errors, warnings and the progress bar to `err`.
// Never throws; returns an exit code.
int run_command(const RunOptions& options, std::ostream& out, std::ostream& err);

// The library version, e.g. "0.1.0".
const char* fleetdyn_version();

}  // namespace fleetdyn
