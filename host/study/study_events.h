// A study's events: yes/no outcomes per sample, decided from its metrics and status, written as
// the last columns of samples.csv and counted with their 95 % intervals in summary.json and the
// report. Which events a study has depends on its scenario: every study has rollover,
// two_wheel_lift, diverged and capsized; a path driver or steer program adds completed; a path
// driver adds lane_departure and path_deviation (definitions: host/study/study_spec.h).
#pragma once

#include <string>
#include <vector>

#include "host/scenario/scenario.h"

namespace fleetdyn::study {

struct StudyEvent {
  std::string name;         // the samples.csv column, e.g. "lane_departure"
  std::string description;  // with the scenario's thresholds, for the summary and the report
};

// The events of scenario s's study, in column order.
std::vector<StudyEvent> study_events(const Scenario& s);

// One sample's events, in study_events order, from its metrics ([kMetricCount]) and status
// (VehicleStatus).
std::vector<bool> sample_events(const Scenario& s, const double* metrics, int status);

}  // namespace fleetdyn::study
