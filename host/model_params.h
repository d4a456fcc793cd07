// A vehicle's parameters for either model, addressed by name: what scenario files override and
// sweep, and what results.csv echoes. Strut names come from FLEETDYN_VEHICLE_PARAM_FIELDS
// (vehicle.h), ce names from FLEETDYN_CE_PARAM_FIELDS (ce_fields.h).
#pragma once

#include <string>
#include <vector>

#include "fleetdyn/batch.h"
#include "fleetdyn/ce_fields.h"
#include "fleetdyn/vehicle.h"

namespace fleetdyn {

struct ModelParams {
  VehicleModel model = VehicleModel::Strut;
  VehicleParams<double> strut{};  // used when model == Strut
  CeParams<double> ce{};          // used when model == Ce
};

// "strut" or "ce"; throws fleetdyn::Error naming the known models.
VehicleModel parse_model(const std::string& name);
std::vector<std::string> model_names();

// The preset `name` (vehicle_preset_names()) of a model; throws fleetdyn::Error if unknown.
ModelParams model_preset(VehicleModel model, const std::string& name);

// The overridable fields of a model, and access by name (null / throws when unknown).
const std::vector<VehicleParamField>& model_param_fields(VehicleModel model);
double* model_param_ptr(ModelParams& p, const std::string& name);
double model_param(const ModelParams& p, const std::string& name);
// finalize_vehicle_params or finalize_ce_params; throws fleetdyn::Error on inconsistency.
void finalize_model_params(ModelParams& p);

// The model's step analysis (strut_step_analysis / ce_step_analysis).
StepAnalysis model_step_analysis(const ModelParams& p);

// Per-model access for code templated on the parameter struct.
inline double* param_ptr(VehicleParams<double>& p, const std::string& name) { return vehicle_param_ptr(p, name); }
inline double* param_ptr(CeParams<double>& p, const std::string& name) { return ce_param_ptr(p, name); }
inline void finalize_params(VehicleParams<double>& p) { finalize_vehicle_params(p); }
inline void finalize_params(CeParams<double>& p) { finalize_ce_params(p); }

}  // namespace fleetdyn
