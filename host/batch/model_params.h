// A vehicle's parameters for any model, addressed by name: what scenario files override and
// sweep, and what results.csv echoes. Each model's parameter type, presets and field table come
// from its host traits (host/<model>/<model>_host.h; strut names from
// FLEETDYN_VEHICLE_PARAM_FIELDS in vehicle.h, ce's and pgs's from FLEETDYN_CE_PARAM_FIELDS).
#pragma once

#include <string>
#include <variant>
#include <vector>

#include "fleetdyn/batch.h"
#include "fleetdyn/ce_fields.h"
#include "fleetdyn/vehicle.h"
#include "host/batch/vehicle_models.h"

namespace fleetdyn {

// One model's parameters (Host::Params of the model).
class ModelParams {
 public:
  ModelParams() = default;  // strut, default-initialized
  template <class Host>
  ModelParams(Host, typename Host::Params p)
      : model_(Host::kModel), values_(std::in_place_index<index<Host>()>, std::move(p)) {}

  VehicleModel model() const { return model_; }
  // The parameters as the model's traits Host takes them; Host must be the model's.
  template <class Host>
  typename Host::Params& of() {
    return std::get<index<Host>()>(values_);
  }
  template <class Host>
  const typename Host::Params& of() const {
    return std::get<index<Host>()>(values_);
  }
  // Calls f(Host{}, params) with the model's traits and parameters.
  template <class F>
  decltype(auto) visit(F&& f) {
    return with_model(model_, [&](auto host) -> decltype(auto) { return f(host, of<decltype(host)>()); });
  }
  template <class F>
  decltype(auto) visit(F&& f) const {
    return with_model(model_, [&](auto host) -> decltype(auto) { return f(host, of<decltype(host)>()); });
  }

 private:
  template <class Host>
  static constexpr size_t index() {
    return static_cast<size_t>(Host::kModel);
  }
  VehicleModel model_ = VehicleModel::Strut;
  std::variant<
#define FLEETDYN_MODEL_PARAMS(id, name, host) host::Params,
      FLEETDYN_VEHICLE_MODELS(FLEETDYN_MODEL_PARAMS)
#undef FLEETDYN_MODEL_PARAMS
          std::monostate>
      values_;
};

// The preset `name` (vehicle_preset_names()) of a model; throws fleetdyn::Error if unknown.
ModelParams model_preset(VehicleModel model, const std::string& name);

// The overridable fields of a model, and access by name (null / throws when unknown).
const std::vector<VehicleParamField>& model_param_fields(VehicleModel model);
double* model_param_ptr(ModelParams& p, const std::string& name);
double model_param(const ModelParams& p, const std::string& name);
// The model's finalize (finalize_vehicle_params, finalize_ce_params); throws fleetdyn::Error on
// inconsistency.
void finalize_model_params(ModelParams& p);
// The tire, driveline and brakes every model shares.
const VehicleCommon<double>& model_common_params(const ModelParams& p);
// [m] across the outer tire faces (the model traits' vehicle_width).
double model_vehicle_width(const ModelParams& p);

// The model's step analysis (strut_step_analysis / ce_step_analysis).
StepAnalysis model_step_analysis(const ModelParams& p);

}  // namespace fleetdyn
