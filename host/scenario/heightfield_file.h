// A scenario's heightfield file (terrain type heightfield): CSV heights read into a TerrainSpec,
// with the file, line and field of any error (scenario.h describes the format).
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>

#include "fleetdyn/batch.h"
#include "host/scenario/yaml_input.h"

namespace fleetdyn {

// Reads `path` into t.heightfield and t.desc's hf_nx, hf_ny; `at` is the scenario's `file:` node
// (errors name it). At most 2e8 heights, and lines of at most 16 Mi characters.
void load_heightfield(const yaml_input::Ctx& ctx, const YAML::Node& at, const std::string& path, TerrainSpec& t);

}  // namespace fleetdyn
