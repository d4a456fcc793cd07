// Running a study (a scenario with a `study:` section) into an output folder:
//   study.json    the manifest: scenario text and path, command-line overrides, version, columns
//   samples.csv   one row per sample: index, valid, sampled values, metrics, events (0/1);
//                 appended durably a chunk at a time (host/study/samples_file.h)
//   summary.json  probabilities with 95 % intervals, metric quantiles, sensitivities, timings
//   report.html   the plots (self-contained, works offline)
// A study killed at any moment resumes with `fleetdyn run --resume DIR` and ends with the same
// samples.csv, byte for byte, as an uninterrupted run: every sample's vehicle and result depend
// on its index alone, never on the chunk it ran in.
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "host/scenario/scenario.h"

namespace fleetdyn::study {

struct StudyRunOptions {
  bool resume = false;  // continue the study in s.output (its study.json and samples.csv)
  bool quiet = false;
  bool progress = false;                                          // draw the progress bar on `err`
  nlohmann::ordered_json cli = nlohmann::ordered_json::object();  // the command-line overrides, for the manifest
  // Called with (samples done, samples in the study) at the start, after every slice of steps
  // and after every chunk, on the thread running the study (rank 0 only). It may throw to stop
  // the study: samples.csv then holds whole chunks, so the study resumes.
  std::function<void(int64_t done, int64_t total)> on_progress;
};

// The scenario, already validated and with the command line applied. Returns an exit code
// (run_job.h); throws fleetdyn::Error on runtime failures.
int run_study(const Scenario& s, const StudyRunOptions& options, std::ostream& out, std::ostream& err);

// For --resume: the scenario and command-line overrides recorded in DIR/study.json. Throws
// fleetdyn::Error naming the folder when it holds no study.
struct StudyManifest {
  std::string scenario_path, scenario_text, version;
  nlohmann::ordered_json cli;
};
StudyManifest read_manifest(const std::string& folder);

}  // namespace fleetdyn::study
