#include "host/cli/params_job.h"

#include <algorithm>
#include <cstdio>

#include "fleetdyn/error.h"
#include "fleetdyn/vehicle.h"
#include "host/batch/model_params.h"
#include "host/cli/run_job.h"
#include "host/scenario/vehicle_file.h"

namespace fleetdyn {

int params_command(const std::string& model, const std::string& preset, const std::string& vehicle, std::ostream& out,
                   std::ostream& err) {
  ModelParams p;
  try {
    p = vehicle.empty() ? model_preset(parse_model(model), preset)
                        : model_params_from_definition(parse_model(model), load_vehicle_file(vehicle));
  } catch (const Error& e) {
    err << "fleetdyn params: " << e.what() << "\n";
    return kExitBadInput;
  }
  const std::vector<VehicleParamField>& fields = model_param_fields(p.model());
  size_t name_width = 4;
  for (const auto& f : fields) name_width = std::max(name_width, std::string(f.name).size());
  char line[512];
  std::snprintf(line, sizeof(line), "%-*s %-7s %14s  %-21s %s\n", static_cast<int>(name_width), "name", "unit",
                vehicle.empty() ? preset.c_str() : "value", "allowed range", "meaning");
  out << line;
  for (const auto& f : fields) {
    char range[64];
    std::snprintf(range, sizeof(range), "[%g, %g]", f.min, f.max);
    std::snprintf(line, sizeof(line), "%-*s %-7s %14.6g  %-21s %s\n", static_cast<int>(name_width), f.name, f.unit,
                  model_param(p, f.name), range, f.description);
    out << line;
  }
  return kExitOk;
}

}  // namespace fleetdyn
