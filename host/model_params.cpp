#include "host/model_params.h"

#include <algorithm>
#include <cstring>
#include <type_traits>
#include <vector>

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

namespace {

// The eigen-analysis behind a step analysis takes milliseconds, and parsing a scenario asks for
// the same parameter sets again and again (its extremes; the presets): the last few answers are
// kept per thread, keyed by the parameter set's bytes (a differing byte is a miss, never a wrong
// answer).
template <class Params>
StepAnalysis remembered(const Params& p, StepAnalysis (*analyse)(const Params&)) {
  static_assert(std::is_trivially_copyable_v<Params>, "keyed by its bytes");
  struct Entry {
    unsigned char key[sizeof(Params)];
    StepAnalysis value;
  };
  constexpr size_t kKept = 4;
  thread_local std::vector<Entry> kept;
  thread_local size_t next = 0;
  for (const Entry& e : kept) {
    if (std::memcmp(e.key, &p, sizeof p) == 0) return e.value;
  }
  Entry e;
  std::memcpy(e.key, &p, sizeof p);
  e.value = analyse(p);
  if (kept.size() < kKept) {
    kept.push_back(e);
  } else {
    kept[next] = e;
  }
  next = (next + 1) % kKept;
  return e.value;
}

}  // namespace

StepAnalysis model_step_analysis(const ModelParams& p) {
  if (p.model == VehicleModel::Pgs) {
    // Semi-implicit, not RK4: no RK4 stability bound; 1 ms, the step it is validated at
    // (docs/models/pgs.md), or ce's default if that is shorter.
    StepAnalysis a = remembered(p.ce, ce_step_analysis);
    a.default_step = std::min(a.default_step, 1.0e-3);
    return a;
  }
  return p.model == VehicleModel::Ce ? remembered(p.ce, ce_step_analysis) : remembered(p.strut, strut_step_analysis);
}

}  // namespace fleetdyn
