// A scenario's batch: its vehicles' swept parameter sets, options and driver, per model through
// the model's host traits (host/batch/vehicle_models.h).
#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

#include "fleetdyn/error.h"
#include "fleetdyn/physics/core/math.h"
#include "host/batch/vehicle_models.h"
#include "host/scenario/scenario.h"
#include "host/scenario/scenario_driver.h"

namespace fleetdyn {

namespace {

// One finalized parameter set per vehicle with the swept values.
template <class Host>
std::vector<typename Host::Params> swept_params(const Scenario& s, const typename Host::Params& base, int vehicles) {
  using P = typename Host::Params;
  if (s.sweeps.empty()) return {base};
  std::vector<P> out(static_cast<size_t>(vehicles), base);
  for (int v = 0; v < vehicles; ++v) {
    P& p = out[static_cast<size_t>(v)];
    for (const auto& sw : s.sweeps) *Host::field_ptr(p, sw.name) = sweep_value(sw, v, vehicles);
    try {
      Host::finalize(p);
    } catch (const Error& e) {
      throw ScenarioError(s.path, 0, "vehicle.sweep", "vehicle " + std::to_string(v) + ": " + e.what());
    }
  }
  return out;
}

}  // namespace

double sweep_value(const ParamSweep& sw, int v, int n) {
  if (n <= 1) return sw.from;
  return sw.from + (sw.to - sw.from) * static_cast<double>(v) / static_cast<double>(n - 1);
}

// The scenario's swept parameter sets when its model takes parameters of type P (`which`
// names the models that do).
template <class P>
std::vector<P> scenario_params(const Scenario& s, int vehicles, const char* which) {
  return s.params.visit([&](auto host, const auto& base) -> std::vector<P> {
    if constexpr (std::is_same_v<std::decay_t<decltype(base)>, P>) {
      return swept_params<decltype(host)>(s, base, vehicles);
    } else {
      throw Error(s.path + ": the scenario's model is '" + s.model + "', not " + which);
    }
  });
}

std::vector<StrutParams<double>> scenario_vehicle_params(const Scenario& s, int vehicles) {
  return scenario_params<StrutParams<double>>(s, vehicles, "strut");
}

std::vector<CeParams<double>> scenario_ce_params(const Scenario& s, int vehicles) {
  return scenario_params<CeParams<double>>(s, vehicles, "ce or pgs");
}

std::vector<PgsVehicleDef> pgs_vehicle_defs(const std::vector<CeParams<double>>& vehicles, const PgsVehicleDef& solver) {
  return PgsHost::batch_defs(vehicles, solver);
}

BatchOptions scenario_batch_options(const Scenario& s) {
  BatchOptions bo;
  bo.backend = s.backend;
  bo.precision = s.precision;
  bo.step = s.step;
  bo.substeps = s.substeps;
  bo.requery_contact = s.contact_requery;
  bo.cpu_threads = s.cpu_threads;
  bo.capsize_roll = deg_to_rad(s.capsize_roll_deg);
  return bo;
}

Batch scenario_batch(const Scenario& s) {
  const BatchOptions bo = scenario_batch_options(s);
  Batch batch = s.params.visit([&](auto host, const auto& base) {
    using Host = decltype(host);
    return Batch(Host::batch_defs(swept_params<Host>(s, base, s.vehicles), s.pgs), s.vehicles, s.terrain, bo);
  });
  apply_driver(batch, s.driver, s.maneuver);  // the driver first: set_initial_conditions starts the run
  batch.set_initial_conditions({s.initial});
  return batch;
}

long long scenario_step_count(const Scenario& s) { return std::max<long long>(1, std::llround(s.duration / s.step)); }

}  // namespace fleetdyn
