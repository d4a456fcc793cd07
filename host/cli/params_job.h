// `fleetdyn params [--model strut|ce|pgs] [--preset NAME | --vehicle FILE]`: the overridable vehicle
// parameters of a model (the names a scenario's `overrides` and `sweep` accept), with unit, the
// preset's (or vehicle file's) value, allowed range and meaning.
#pragma once

#include <ostream>
#include <string>

namespace fleetdyn {

// Prints the table to `out`; an unknown model or preset, or a bad vehicle file (`vehicle`, used
// instead of the preset when not empty), prints one line to `err` and returns 2.
int params_command(const std::string& model, const std::string& preset, const std::string& vehicle, std::ostream& out,
                   std::ostream& err);

}  // namespace fleetdyn
