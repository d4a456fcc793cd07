// The parameters every vehicle model shares (physics/core/vehicle_common.h), host API: the row of a
// model's field table by name, and the check of the shared part.
#pragma once

#include <string>

#include "fleetdyn/physics/core/vehicle_common.h"

namespace fleetdyn {

// One overridable scalar of a model's field table (vehicle_param_fields, ce_param_fields).
struct VehicleParamField {
  const char* name;
  const char* unit;
  double min, max;
  const char* description;
};

// The check of the part every model shares, which each model's check calls: every field of
// FLEETDYN_VEHICLE_COMMON_FIELDS finite and within its [min, max]. Throws fleetdyn::Error
// "WHAT: FIELD = VALUE UNIT is outside [MIN, MAX]" ("FIELD = ..." for an empty `what`), the
// numbers to `digits` significant digits (strut's messages have 6, ce's 9). The shared derived
// fields are derive_vehicle_common's (physics/core/vehicle_common.h), called by each model's finalize.
void check_vehicle_common(const VehicleCommon<double>& p, const std::string& what = "", int digits = 6);

}  // namespace fleetdyn
