// The vector env's argument checks shared by its sources and the models' env traits
// (host/strut/strut_env.h, host/ce/ce_env.h): each failure names the config field.
#pragma once

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "fleetdyn/error.h"
#include "fleetdyn/vector_env.h"
#include "fleetdyn/vehicle.h"

namespace fleetdyn {
namespace env_checks {

inline void require(bool ok, const std::string& field, const std::string& what) {
  if (!ok) throw Error("VectorEnv: " + field + ": " + what);
}

inline std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);  // 1e-300 stays 1e-300, not 0
  return buf;
}

inline std::string randomize_field(size_t r, const ParamRandomization& pr) {
  return "randomize[" + std::to_string(r) + "] (" + pr.name + ")";
}

// A model's field by name (Host: its host traits, host/batch/vehicle_models.h).
template <class Host>
const VehicleParamField& param_field(const std::string& name) {
  for (const VehicleParamField& f : Host::fields()) {
    if (name == f.name) return f;
  }
  throw Error(std::string("VectorEnv: unknown ") + Host::Env::kWhat + " '" + name + "'");
}

template <class Host>
double param_value(const typename Host::Params& p, const std::string& name) {
  return Host::field(p, name);
}

// Every value entry r can draw for base set b lies in the field's allowed range; returns [lo, hi].
template <class Host>
std::pair<double, double> checked_draw_range(const ParamRandomization& pr, size_t r, const typename Host::Params& base,
                                             size_t b, size_t bases) {
  const VehicleParamField& f = param_field<Host>(pr.name);
  const double value = param_value<Host>(base, pr.name);
  const double lo = pr.relative ? value * pr.lo : pr.lo, hi = pr.relative ? value * pr.hi : pr.hi;
  require(lo >= f.min && hi <= f.max, randomize_field(r, pr),
          "draws [" + num(lo) + ", " + num(hi) + "] " + f.unit + (bases > 1 ? " for base set " + std::to_string(b) : "") +
              ", outside the allowed [" + num(f.min) + ", " + num(f.max) + "]");
  return {lo, hi};
}

}  // namespace env_checks
}  // namespace fleetdyn
