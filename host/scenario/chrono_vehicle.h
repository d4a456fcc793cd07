// Project Chrono::Vehicle JSON wheeled-vehicle specifications read into a VehicleDefinition
// (docs/chrono-vehicle-json.md): the top-level Vehicle file and the subsystem files it names
// (chassis, DoubleWishbone suspensions, PitmanArm steering, wheels, brakes, TMeasy tires,
// driveline, engine, transmission). What fleetdyn cannot represent is refused by name; what
// Chrono's files do not carry takes the documented defaults (chrono_vehicle_defaults).
#pragma once

#include <string>

#include "fleetdyn/vehicle_definition.h"

namespace fleetdyn {

// Reads a Chrono::Vehicle JSON vehicle file and the files it names. A relative subsystem path is
// looked up against the vehicle file's folder, then each folder above it (so a file inside
// Chrono's data/vehicle tree finds "hmmwv/suspension/..."). Unknown keys are ignored unless they
// change the physics in a way the definition cannot hold. The suspension's loops must close
// (make_ce_params is run once). Throws ScenarioError "<file>:<line>: <field>: <what>" naming the
// file at fault.
VehicleDefinition load_chrono_vehicle(const std::string& path);

// A definition holding only the fields Chrono's files do not carry, at their defaults (the
// stop force table, the steering time constant, driveline efficiency, wheel lock time,
// gravity, the tire's slip velocity floor, balance_springs_at_design); load_chrono_vehicle
// starts from it.
VehicleDefinition chrono_vehicle_defaults();

}  // namespace fleetdyn
