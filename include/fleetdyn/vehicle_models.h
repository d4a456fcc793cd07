// The vehicle models, registered once: each line names the model's enumerator, its name in
// scenarios, the CLI and Python, and its host traits type (host/<name>/<name>_host.h), which holds
// everything the host decides per model. host/batch/vehicle_models.h turns the list into the dispatch
// with_model(); docs/architecture.md says how to add a model.
#pragma once

#include <string>
#include <vector>

#define FLEETDYN_VEHICLE_MODELS(X) \
  X(Strut, "strut", StrutHost)     \
  X(Ce, "ce", CeHost)              \
  X(Pgs, "pgs", PgsHost)

namespace fleetdyn {

enum class VehicleModel {
#define FLEETDYN_MODEL_ENUMERATOR(id, name, host) id,
  FLEETDYN_VEHICLE_MODELS(FLEETDYN_MODEL_ENUMERATOR)
#undef FLEETDYN_MODEL_ENUMERATOR
};

const char* model_name(VehicleModel m);  // "strut", "ce", "pgs"
// The model named `name`; throws fleetdyn::Error naming the known models.
VehicleModel parse_model(const std::string& name);
std::vector<std::string> model_names();  // in registration order
// The most vehicles a batch of the model takes: the engines index its [field][vehicle] arrays
// (state, metrics, driver state) with ints.
int max_vehicles(VehicleModel m);

}  // namespace fleetdyn
