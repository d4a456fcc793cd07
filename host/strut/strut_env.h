// The strut model in the vector env (fleetdyn/vector_env.h): its base vehicle in the config, the
// fields the env does not draw at reset, its default randomization and the check of a
// randomization against its base sets. StrutHost::Env (host/strut/strut_host.h).
#pragma once

#include <string>
#include <vector>

#include "fleetdyn/vector_env.h"
#include "fleetdyn/vehicle.h"
#include "host/env/env_checks.h"
#include "host/strut/strut_host.h"

namespace fleetdyn {

struct StrutEnv {
  static constexpr const char* kWhat = "vehicle parameter";  // in messages: "unknown vehicle parameter 'x'"
  static constexpr const char* kConfigField = "vehicle";     // VectorEnvConfig's member
  static constexpr const char* kFieldsFunction = "vehicle_param_fields";  // lists the names
  static constexpr const char* kParamsHint = "StrutParams (e.g. hmmwv_params())";
  static StrutParams<double>& base(VectorEnvConfig& c) { return c.vehicle; }
  static const StrutParams<double>& base(const VectorEnvConfig& c) { return c.vehicle; }
  // The HMMWV where the config leaves the vehicle unset.
  static void default_base(VectorEnvConfig& c) {
    if (c.vehicle.total_mass == 0.0) c.vehicle = hmmwv_params();
  }

  // Fields the env does not draw at reset, and why: the model's parts are switched, not scattered.
  static const char* fixed_reason(const std::string& name) {
    if (name == "tire_force_at_contact" || name == "linkage_geometry" || name == "progressive_spring") {
      return "a part of the model, on (1) or off (0): set it on the base parameters (set_base_param)";
    }
    return nullptr;
  }

  static std::vector<ParamRandomization> default_randomization(const VectorEnvConfig&) {
    return {{"total_mass", 0.9, 1.15, true},
            {"cg_height", 0.95, 1.1, true},
            {"tire.mu", 0.7, 1.0, false},
            {"wheel_rate_front", 0.85, 1.15, true},
            {"wheel_rate_rear", 0.85, 1.15, true}};
  }

  // Every draw inside the field's allowed range, and the worst corner (lightest vehicle with the
  // heaviest wheels, lowest CG with the largest tire) still a valid vehicle. The entries are
  // checked on their own before.
  static void check_bases(const std::vector<ParamRandomization>& set, const std::vector<StrutParams<double>>& bases) {
    for (size_t b = 0; b < bases.size(); ++b) {
      StrutParams<double> worst = bases[b];
      for (size_t r = 0; r < set.size(); ++r) {
        const ParamRandomization& pr = set[r];
        const auto [lo, hi] = env_checks::checked_draw_range<StrutHost>(pr, r, bases[b], b, bases.size());
        const bool low_is_worse = pr.name == "total_mass" || pr.name == "cg_height";
        const bool high_is_worse = pr.name == "unsprung_mass_front" || pr.name == "unsprung_mass_rear" ||
                                   pr.name == "tire.unloaded_radius";
        if (low_is_worse) *vehicle_param_ptr(worst, pr.name) = lo;
        if (high_is_worse) *vehicle_param_ptr(worst, pr.name) = hi;
      }
      try {
        finalize_vehicle_params(worst);
      } catch (const Error& e) {
        throw Error(std::string("VectorEnv: randomize: the extreme draws make an invalid vehicle: ") + e.what());
      }
    }
  }
};

}  // namespace fleetdyn
