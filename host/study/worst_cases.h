// Time series of chosen samples (the worst cases of a study), simulated again on their own: a
// sample's vehicle and inputs depend on its index alone, so the rerun is the run that produced
// its row in samples.csv.
#pragma once

#include <cstdint>
#include <vector>

#include "host/scenario/scenario.h"
#include "host/study/report.h"

namespace fleetdyn::study {

// One trace per valid sample in `samples` (invalid ones are skipped), `points` time points
// each (at least 2): roll and pitch (world ZYX Euler) [rad], roll rate [rad/s], speed [m/s],
// lateral position [m]; and the metrics the rerun ends with, which are the sample's row.
std::vector<ReportTrace> simulate_traces(const Scenario& s, const std::vector<int64_t>& samples, int points,
                                         const std::string& label);

}  // namespace fleetdyn::study
