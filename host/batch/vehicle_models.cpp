// Names and sizes of the registered vehicle models, generated from FLEETDYN_VEHICLE_MODELS.
#include "fleetdyn/vehicle_models.h"

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "fleetdyn/error.h"
#include "fleetdyn/physics/core/metrics.h"
#include "fleetdyn/physics/drivers/driver.h"
#include "host/batch/vehicle_models.h"

namespace fleetdyn {

const char* model_name(VehicleModel m) {
  switch (m) {
#define FLEETDYN_MODEL_NAME(id, name, host) \
  case VehicleModel::id: return name;
    FLEETDYN_VEHICLE_MODELS(FLEETDYN_MODEL_NAME)
#undef FLEETDYN_MODEL_NAME
  }
  return "?";
}

std::vector<std::string> model_names() {
  return {
#define FLEETDYN_MODEL_NAME(id, name, host) name,
      FLEETDYN_VEHICLE_MODELS(FLEETDYN_MODEL_NAME)
#undef FLEETDYN_MODEL_NAME
  };
}

VehicleModel parse_model(const std::string& name) {
#define FLEETDYN_MODEL_PARSE(id, model, host) \
  if (name == model) return VehicleModel::id;
  FLEETDYN_VEHICLE_MODELS(FLEETDYN_MODEL_PARSE)
#undef FLEETDYN_MODEL_PARSE
  std::string known;
  for (const std::string& n : model_names()) known += (known.empty() ? "" : ", ") + n;
  throw Error("unknown model '" + name + "' (known: " + known + ")");
}

int max_vehicles(VehicleModel m) {
  const int state_size = with_model(m, [](auto host) { return decltype(host)::kStateSize; });
  return std::numeric_limits<int>::max() /
         std::max({state_size, static_cast<int>(kMetricCount), static_cast<int>(kDriverStateSize)});
}

}  // namespace fleetdyn
