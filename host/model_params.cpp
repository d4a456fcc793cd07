#include "host/model_params.h"

#include "fleetdyn/ce.h"
#include "fleetdyn/error.h"

namespace fleetdyn {

std::vector<std::string> model_names() { return {"strut", "ce"}; }

VehicleModel parse_model(const std::string& name) {
  if (name == "strut") return VehicleModel::Strut;
  if (name == "ce") return VehicleModel::Ce;
  throw Error("unknown model '" + name + "' (known: strut, ce; pgs is not available yet)");
}

ModelParams model_preset(VehicleModel model, const std::string& name) {
  ModelParams p;
  p.model = model;
  p.strut = vehicle_preset(name);  // also the name check
  // Every preset has both forms; the HMMWV is the only one so far.
  if (model == VehicleModel::Ce) p.ce = hmmwv_ce_params();
  return p;
}

const std::vector<VehicleParamField>& model_param_fields(VehicleModel model) {
  return model == VehicleModel::Ce ? ce_param_fields() : vehicle_param_fields();
}

double* model_param_ptr(ModelParams& p, const std::string& name) {
  return p.model == VehicleModel::Ce ? ce_param_ptr(p.ce, name) : vehicle_param_ptr(p.strut, name);
}

double model_param(const ModelParams& p, const std::string& name) {
  return p.model == VehicleModel::Ce ? ce_param(p.ce, name) : vehicle_param(p.strut, name);
}

void finalize_model_params(ModelParams& p) {
  if (p.model == VehicleModel::Ce) {
    finalize_ce_params(p.ce);
  } else {
    finalize_vehicle_params(p.strut);
  }
}

StepAnalysis model_step_analysis(const ModelParams& p) {
  return p.model == VehicleModel::Ce ? ce_step_analysis(p.ce) : strut_step_analysis(p.strut);
}

}  // namespace fleetdyn
