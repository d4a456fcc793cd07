// The one dispatch from a VehicleModel to its host traits type, generated from the registration
// list FLEETDYN_VEHICLE_MODELS (fleetdyn/vehicle_models.h). Code that differs per model asks the
// traits (host/<model>/<model>_host.h) through this instead of branching on the enum:
//
//   const int size = with_model(batch.model(), [](auto host) { return decltype(host)::kStateSize; });
#pragma once

#include <utility>

#include "fleetdyn/error.h"
#include "fleetdyn/vehicle_models.h"
#include "host/ce/ce_host.h"
#include "host/pgs/pgs_host.h"
#include "host/strut/strut_host.h"

namespace fleetdyn {

// Calls f(Host{}) with the traits type of model m; every branch must return the same type.
template <class F>
decltype(auto) with_model(VehicleModel m, F&& f) {
  switch (m) {
#define FLEETDYN_MODEL_CASE(id, name, host) \
  case VehicleModel::id: return std::forward<F>(f)(host{});
    FLEETDYN_VEHICLE_MODELS(FLEETDYN_MODEL_CASE)
#undef FLEETDYN_MODEL_CASE
  }
  throw Error("unknown vehicle model " + std::to_string(static_cast<int>(m)));
}

// Calls f(Host{}) for every registered model, in registration order.
template <class F>
void for_each_model(F&& f) {
#define FLEETDYN_MODEL_VISIT(id, name, host) f(host{});
  FLEETDYN_VEHICLE_MODELS(FLEETDYN_MODEL_VISIT)
#undef FLEETDYN_MODEL_VISIT
}

}  // namespace fleetdyn
