// The ce model in the vector env (fleetdyn/vector_env.h): its base vehicle in the config, the
// fields the env does not draw at reset, its default randomization and the check of a
// randomization against its base sets. CeHost::Env (host/ce/ce_host.h).
#pragma once

#include <string>
#include <vector>

#include "fleetdyn/ce.h"
#include "fleetdyn/vector_env.h"
#include "host/ce/ce_host.h"
#include "host/env/env_checks.h"

namespace fleetdyn {

struct CeEnv {
  static constexpr const char* kWhat = "ce parameter";               // in messages: "unknown ce parameter 'x'"
  static constexpr const char* kConfigField = "ce_vehicle";          // VectorEnvConfig's member
  static constexpr const char* kFieldsFunction = "ce_param_fields";  // lists the names
  static constexpr const char* kParamsHint = "CeParams (e.g. hmmwv_ce_params())";
  static CeParams<double>& base(VectorEnvConfig& c) { return c.ce_vehicle; }
  static const CeParams<double>& base(const VectorEnvConfig& c) { return c.ce_vehicle; }
  // The HMMWV where the config leaves the vehicle unset.
  static void default_base(VectorEnvConfig& c) {
    if (c.ce_vehicle.chassis_mass == 0.0) c.ce_vehicle = hmmwv_ce_params();
  }

  // Fields the env does not draw at reset, and why: each is tied at construction to values the
  // device does not recompute.
  static const char* fixed_reason(const std::string& name) {
    const auto starts = [&name](const char* prefix) { return name.rfind(prefix, 0) == 0; };
    if (starts("bump_stop_length") || starts("rebound_stop_length")) {
      return "make_ce_params derives the bump travel limit from the stop lengths, and their order is checked with the "
             "geometry";
    }
    if (starts("droop_limit_lca") || starts("bump_limit_lca")) {
      return "the travel limits are set from the linkage's geometry when the parameters are made";
    }
    if (starts("travel_limit_stiffness"))
      return "the travel limits' stiffness sets the fastest mode, hence the stable step";
    if (name == "max_steer") return "the steering's assembly at full lock is searched on the host";
    return nullptr;
  }

  // The strut default's scatter on the same vehicle: the chassis carries the payload; the CG
  // height range of strut's x[0.95, 1.1] on its 0.687 m, as an offset of the chassis COM.
  static std::vector<ParamRandomization> default_randomization(const VectorEnvConfig& c) {
    const double com_z = c.ce_vehicle.chassis_com.z;
    return {{"chassis_mass", 0.9, 1.15, true},
            {"chassis_com_z", com_z - 0.035, com_z + 0.07, false},
            {"tire.mu", 0.7, 1.0, false},
            {"spring_rate_front", 0.85, 1.15, true},
            {"spring_rate_rear", 0.85, 1.15, true}};
  }

  // Every draw inside the field's allowed range; and at every corner of the box the statics
  // fields span, a valid vehicle whose rest state exists, stands on all four tires and rests
  // inside the suspension's travel limits (host/ce/ce_env.cpp). The entries are checked on their
  // own before.
  static void check_bases(const std::vector<ParamRandomization>& set, const std::vector<CeParams<double>>& bases);
};

}  // namespace fleetdyn
