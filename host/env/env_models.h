// The vector env's model dispatch and configuration (host/env/vector_env.cpp, env_config.cpp):
// only models whose host traits have a vector env (Host::kHasEnv) are admitted.
#pragma once

#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "fleetdyn/physics/env/env_config.h"
#include "fleetdyn/vector_env.h"
#include "host/batch/vehicle_models.h"
#include "host/ce/ce_env.h"
#include "host/env/env_checks.h"
#include "host/strut/strut_env.h"

namespace fleetdyn {
namespace env_checks {

// Calls f(Host{}) with the traits of a model that has a vector env; throws naming the models
// that have one otherwise.
template <class F>
decltype(auto) with_env_model(VehicleModel model, const std::string& field, F&& f) {
  std::string known;
  for_each_model([&](auto host) {
    if (decltype(host)::kHasEnv)
      known += std::string(known.empty() ? "" : " and ") + model_name(decltype(host)::kModel);
  });
  return with_model(model, [&](auto host) {
    using Host = decltype(host);
    if constexpr (Host::kHasEnv) {
      return f(host);
    } else {
      require(false, field,
              std::string("the ") + model_name(model) + " model has no vector env (" + known + " have one)");
      return f(StrutHost{});  // not reached: gives the branch the result type of a model with an env
    }
  });
}

// Index of a named parameter's scalar in the model's parameter struct (a struct of T only, so
// the same index in float and double).
template <class Host>
int param_index(const std::string& name, const std::string& field) {
  typename Host::Params p{};
  const double* ptr = Host::field_ptr(p, name);
  if (!ptr) throw Error("VectorEnv: " + field + ": unknown " + Host::Env::kWhat + " '" + name + "'");
  return static_cast<int>(ptr - reinterpret_cast<const double*>(&p));
}

// The entries on their own: known and randomizable names, each once, finite ordered bounds.
template <class Host>
void check_randomization_entries(const std::vector<ParamRandomization>& set) {
  std::set<std::string> seen;
  for (size_t r = 0; r < set.size(); ++r) {
    const ParamRandomization& pr = set[r];
    const std::string field = randomize_field(r, pr);
    param_index<Host>(pr.name, field);
    if (const char* why = Host::Env::fixed_reason(pr.name)) {
      std::string allowed;
      for (const std::string& n : env_randomizable_params(Host::kModel)) allowed += (allowed.empty() ? "" : ", ") + n;
      require(false, field,
              std::string("not randomizable in the ") + model_name(Host::kModel) + " env: " + why +
                  " (randomizable: " + allowed + ")");
    }
    require(seen.insert(pr.name).second, field, "randomized twice");
    require(std::isfinite(pr.lo) && std::isfinite(pr.hi) && pr.lo <= pr.hi, field,
            "needs finite lo <= hi, got [" + num(pr.lo) + ", " + num(pr.hi) + "]");
    if (pr.relative) require(pr.lo > 0.0, field, "a relative range needs lo > 0, got " + num(pr.lo));
  }
  require(set.size() <= static_cast<size_t>(env::kMaxRandomized), "randomize",
          "at most " + std::to_string(env::kMaxRandomized) + " parameters");
}

// A randomization against the base sets it draws around (the model's Env::check_bases).
template <class Host>
void check_randomization(const std::vector<ParamRandomization>& set, const std::vector<typename Host::Params>& bases) {
  check_randomization_entries<Host>(set);
  Host::Env::check_bases(set, bases);
}

// Index of an observation feature by name (observation_features()); throws naming the known ones.
int feature_index(const std::string& name);

// The config with every default filled in, checked (throws fleetdyn::Error naming the field).
VectorEnvConfig resolve(VectorEnvConfig c);

// A resolved config in the device's form (float or double).
template <class T>
env::EnvConfig<T> device_config(const VectorEnvConfig& c);

}  // namespace env_checks
}  // namespace fleetdyn
