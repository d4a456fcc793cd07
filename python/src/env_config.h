// fleetdyn.VectorEnv's configuration from Python keywords and back (python/src/env_config.cpp).
#pragma once

#include <pybind11/pybind11.h>

#include "fleetdyn/vector_env.h"
#include "host/batch/vehicle_models.h"

namespace fleetdyn {
namespace py_bindings {

// Calls f(Host{}) with the traits of the env's model (parse_model admits only models with an env).
template <class F>
void with_env_model(VehicleModel model, F&& f) {
  with_model(model, [&](auto host) {
    if constexpr (decltype(host)::kHasEnv) f(host);
  });
}

// A VectorEnvConfig from VectorEnv's keywords (TypeError / ValueError / KeyError naming the key).
VectorEnvConfig config_from(const pybind11::dict& kwargs);
// The config as a dict with the keywords' names.
pybind11::dict config_dict(const VectorEnvConfig& c);

}  // namespace py_bindings
}  // namespace fleetdyn
