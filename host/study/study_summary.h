// What a study found, computed from its whole samples.csv: counts, event probabilities with
// 95 % intervals, metric quantiles, sensitivities (summary.json), and the text printed at the end.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "host/scenario/scenario.h"
#include "host/study/report.h"
#include "host/study/samples_file.h"

namespace fleetdyn::study {

// Per-sample yes/no outcomes, the last columns of samples.csv: host/study/study_events.h.

struct StudyTimings {
  double setup_s = 0.0, wall_time_s = 0.0;  // this run (a resumed study: the resumed part)
  int64_t samples_this_run = 0, simulated_this_run = 0;
  double vehicle_steps_this_run = 0.0;
};

nlohmann::ordered_json study_summary(const Scenario& s, const SamplesTable& table, const StudyTimings& timings);
// The report's data: the valid samples' parameters, metrics (event times without the event and
// diverged samples' peaks as missing) and events, and the summary's sensitivities. The caller adds
// the worst cases' traces and the device.
StudyReport study_report(const Scenario& s, const SamplesTable& table, const nlohmann::ordered_json& summary);
std::string study_text_summary(const Scenario& s, const nlohmann::ordered_json& summary, const std::string& folder);

}  // namespace fleetdyn::study
