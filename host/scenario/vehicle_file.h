// Vehicle files: a VehicleDefinition (fleetdyn/vehicle_definition.h) as YAML, or a Project
// Chrono::Vehicle JSON specification (host/scenario/chrono_vehicle.h). The format is documented
// in docs/vehicle-files.md; vehicles/hmmwv.yaml is the built-in HMMWV (hmmwv_vehicle()).
#pragma once

#include <string>

#include "fleetdyn/vehicle_definition.h"
#include "host/batch/model_params.h"

namespace fleetdyn {

// Reads a vehicle file: `.json` as Chrono::Vehicle JSON, anything else as fleetdyn YAML. Every
// number is checked (finite, within its range), unknown keys are errors, and the suspension's
// loops must close (make_ce_params is run once). Throws ScenarioError "<file>:<line>: <field>:
// <what>".
VehicleDefinition load_vehicle_file(const std::string& path);
// The same from YAML text; `path` names it in messages.
VehicleDefinition parse_vehicle_yaml(const std::string& text, const std::string& path);

// A model's parameters for a definition (the model's host traits: from_definition), finalized.
// Throws fleetdyn::Error when the model cannot represent the vehicle.
ModelParams model_params_from_definition(VehicleModel model, const VehicleDefinition& v);

}  // namespace fleetdyn
