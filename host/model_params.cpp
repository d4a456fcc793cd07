#include "host/model_params.h"

#include <algorithm>

#include "fleetdyn/ce.h"
#include "fleetdyn/error.h"

namespace fleetdyn {

std::vector<std::string> model_names() { return {"strut", "ce", "pgs"}; }

VehicleModel parse_model(const std::string& name) {
  if (name == "strut") return VehicleModel::Strut;
  if (name == "ce") return VehicleModel::Ce;
  if (name == "pgs") return VehicleModel::Pgs;
  throw Error("unknown model '" + name + "' (known: strut, ce, pgs)");
}

ModelParams model_preset(VehicleModel model, const std::string& name) {
  ModelParams p;
  p.model = model;
  p.strut = vehicle_preset(name);  // also the name check
  // Every preset has both forms; the HMMWV is the only one so far. pgs is ce's vehicle in
  // maximal coordinates: it takes ce's parameters.
  if (model != VehicleModel::Strut) p.ce = hmmwv_ce_params();
  return p;
}

const std::vector<VehicleParamField>& model_param_fields(VehicleModel model) {
  return model != VehicleModel::Strut ? ce_param_fields() : vehicle_param_fields();
}

double* model_param_ptr(ModelParams& p, const std::string& name) {
  return p.model != VehicleModel::Strut ? ce_param_ptr(p.ce, name) : vehicle_param_ptr(p.strut, name);
}

double model_param(const ModelParams& p, const std::string& name) {
  return p.model != VehicleModel::Strut ? ce_param(p.ce, name) : vehicle_param(p.strut, name);
}

void finalize_model_params(ModelParams& p) {
  if (p.model != VehicleModel::Strut) {
    finalize_ce_params(p.ce);
  } else {
    finalize_vehicle_params(p.strut);
  }
}

StepAnalysis model_step_analysis(const ModelParams& p) {
  if (p.model == VehicleModel::Pgs) {
    // Semi-implicit, not RK4: no RK4 stability bound; 1 ms, the step it is validated at
    // (docs/models/pgs.md), or ce's default if that is shorter.
    StepAnalysis a = ce_step_analysis(p.ce);
    a.default_step = std::min(a.default_step, 1.0e-3);
    return a;
  }
  return p.model == VehicleModel::Ce ? ce_step_analysis(p.ce) : strut_step_analysis(p.strut);
}

}  // namespace fleetdyn
