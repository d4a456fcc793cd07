// A scenario as JSON, for the summary.json of runs and studies: every setting as parsed, and the
// file's original text.
#pragma once

#include <nlohmann/json.hpp>

#include "host/scenario/scenario.h"

namespace fleetdyn {

nlohmann::ordered_json scenario_json(const Scenario& s);

}  // namespace fleetdyn
