// The check of the parameters every vehicle model shares (physics/core/vehicle_common.h).
#include <cstdio>
#include <string>

#include "fleetdyn/error.h"
#include "fleetdyn/vehicle_common.h"

namespace fleetdyn {

void check_vehicle_common(const VehicleCommon<double>& p, const std::string& what, int digits) {
  const auto number = [digits](double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.*g", digits, v);
    return std::string(buf);
  };
  // Every field finite and in its range (the NaN test is in the negation), read by member: a
  // Batch checks every per-vehicle set, so no lookup by name.
  const auto in_range = [&](const char* name, double v, const char* unit, double lo, double hi) {
    if (v >= lo && v <= hi) return;
    const std::string u = std::string(unit) == "-" ? "" : std::string(" ") + unit;
    throw Error((what.empty() ? "" : what + ": ") + name + " = " + number(v) + u + " is outside [" + number(lo) + ", " +
                number(hi) + "]");
  };
#define FLEETDYN_FIELD_CHECK(name, member, unit, lo, hi, doc) in_range(name, p.member, unit, lo, hi);
  FLEETDYN_VEHICLE_COMMON_FIELDS(FLEETDYN_FIELD_CHECK)
#undef FLEETDYN_FIELD_CHECK
}

}  // namespace fleetdyn
