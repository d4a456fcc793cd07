#include "host/batch/model_params.h"

#include <cstring>
#include <type_traits>
#include <vector>

#include "fleetdyn/error.h"

namespace fleetdyn {

ModelParams model_preset(VehicleModel model, const std::string& name) {
  return with_model(model, [&](auto host) { return ModelParams(host, decltype(host)::preset(name)); });
}

const std::vector<VehicleParamField>& model_param_fields(VehicleModel model) {
  return with_model(model, [](auto host) -> const std::vector<VehicleParamField>& { return decltype(host)::fields(); });
}

double* model_param_ptr(ModelParams& p, const std::string& name) {
  return p.visit([&](auto host, auto& values) { return decltype(host)::field_ptr(values, name); });
}

double model_param(const ModelParams& p, const std::string& name) {
  return p.visit([&](auto host, const auto& values) { return decltype(host)::field(values, name); });
}

void finalize_model_params(ModelParams& p) {
  p.visit([](auto host, auto& values) { decltype(host)::finalize(values); });
}

const VehicleCommon<double>& model_common_params(const ModelParams& p) {
  return p.visit(
      [](auto host, const auto& values) -> const VehicleCommon<double>& { return decltype(host)::common(values); });
}

double model_vehicle_width(const ModelParams& p) {
  return p.visit([](auto host, const auto& values) { return decltype(host)::vehicle_width(values); });
}

namespace {

// The eigen-analysis behind a step analysis takes milliseconds, and parsing a scenario asks for
// the same parameter sets again and again (its extremes; the presets): the last few answers are
// kept per thread and model, keyed by the parameter set's bytes (a differing byte is a miss,
// never a wrong answer).
template <class Host>
StepAnalysis remembered(const typename Host::Params& p) {
  using Params = typename Host::Params;
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
  e.value = Host::step_analysis(p);
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
  return p.visit([](auto host, const auto& values) { return remembered<decltype(host)>(values); });
}

}  // namespace fleetdyn
