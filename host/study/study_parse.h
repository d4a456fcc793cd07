// Parsing the `study:` section of a scenario (format: host/study/study_spec.h).
#pragma once

#include <yaml-cpp/yaml.h>

#include "host/scenario/scenario.h"
#include "host/scenario/yaml_input.h"

namespace fleetdyn::study {

// Fills s.study from the section; s.params, s.overrides and s.sweeps must already be parsed.
// Throws ScenarioError naming the file, line and field.
void parse_study(const yaml_input::Ctx& ctx, const YAML::Node& node, Scenario& s);

}  // namespace fleetdyn::study
