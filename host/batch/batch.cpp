// Batch: the backend-independent API over an engine of the chosen precision and backend. Its
// per-model work goes through the model's host traits (host/batch/batch_model.h); placing and reading
// vehicles is in batch_vehicles.cpp, the argument checks in batch_checks.cpp.
#include "fleetdyn/batch.h"

#include <cmath>
#include <string>
#include <vector>

#include "fleetdyn/error.h"
#include "host/backend/cuda_engine.h"
#include "host/batch/batch_impl.h"
#include "host/batch/batch_summary.h"
#include "host/batch/driver_setup.h"

namespace fleetdyn {

const char* backend_name(BackendKind b) {
  switch (b) {
    case BackendKind::Auto: return "auto";
    case BackendKind::Cpu: return "cpu";
    case BackendKind::Cuda: return "cuda";
  }
  return "?";
}

const char* precision_name(Precision p) { return p == Precision::Fp32 ? "fp32" : "fp64"; }

bool cuda_available(std::string* why) { return cuda_device_usable(why); }

void Batch::Impl::init(int n, TerrainSpec terrain_spec, const BatchOptions& batch_options) {
  vehicle_count = n;
  const int most = max_vehicles(model());
  if (n < 1 || n > most) {
    throw Error("vehicle count must be in [1, " + std::to_string(most) + "] for the " + model_name(model()) +
                " model, got " + std::to_string(n));
  }
  check_length(vehicles->param_count(), "vehicle parameters");
  // A parameter set that did not go through finalize (or was edited after it) is checked here
  // too, as the model's traits check it.
  const size_t count = vehicles->param_count();
  for (size_t i = 0; i < count; ++i) {
    vehicles->check_params(i, count == 1 ? std::string("vehicle parameters")
                                         : "vehicle parameters[" + std::to_string(i) + "]");
  }
  const BatchOptions& o = batch_options;
  check_batch_options(o, model(), vehicles->contact_requery_optional());
  check_terrain(terrain_spec, n);
  check_capsize_roll(o);
  terrain = std::move(terrain_spec);
  terrain.desc.hf_heights = terrain.heightfield.empty() ? nullptr : terrain.heightfield.data();
  options = o;

  std::string why;
  const bool cuda = cuda_device_usable(&why);
  if (o.backend == BackendKind::Cuda && !cuda) throw Error("backend 'cuda' requested but " + why);
  backend = (o.backend == BackendKind::Cpu || !cuda) ? BackendKind::Cpu : BackendKind::Cuda;
  typed = vehicles->make_typed(n, terrain, o, backend);
  device = typed->device_name();
  if (backend == BackendKind::Cpu && o.backend == BackendKind::Auto) device += ", " + why;
}

namespace {
template <class Host>
std::unique_ptr<Batch::Impl> impl_of(std::vector<typename Host::Def> defs) {
  auto impl = std::make_unique<Batch::Impl>();
  impl->vehicles = std::make_unique<ModelBatchOf<Host>>(std::move(defs));
  return impl;
}
}  // namespace

Batch::Batch(std::vector<StrutParams<double>> params, int vehicle_count, TerrainSpec terrain, BatchOptions options)
    : impl_(impl_of<StrutHost>(std::move(params))) {
  impl_->init(vehicle_count, std::move(terrain), options);
  set_initial_conditions({InitialCondition{}});
}

Batch::Batch(std::vector<CeParams<double>> params, int vehicle_count, TerrainSpec terrain, BatchOptions options)
    : impl_(impl_of<CeHost>(std::move(params))) {
  impl_->init(vehicle_count, std::move(terrain), options);
  set_initial_conditions({InitialCondition{}});
}

Batch::Batch(std::vector<PgsVehicleDef> params, int vehicle_count, TerrainSpec terrain, BatchOptions options)
    : impl_(impl_of<PgsHost>(std::move(params))) {
  impl_->init(vehicle_count, std::move(terrain), options);
  set_initial_conditions({InitialCondition{}});
}

Batch::~Batch() = default;
Batch::Batch(Batch&&) noexcept = default;
Batch& Batch::operator=(Batch&&) noexcept = default;

int Batch::vehicle_count() const { return impl_->vehicle_count; }
VehicleModel Batch::model() const { return impl_->model(); }
int Batch::state_size() const { return impl_->state_size(); }
BackendKind Batch::backend() const { return impl_->backend; }
Precision Batch::precision() const { return impl_->options.precision; }
const std::string& Batch::device_name() const { return impl_->device; }
const BatchOptions& Batch::options() const { return impl_->options; }
const StrutParams<double>& Batch::params(int vehicle) const {
  impl_->check_vehicle(vehicle);
  const StrutParams<double>* p = impl_->vehicles->strut_params(vehicle);
  if (!p) {
    throw Error(std::string("params: this batch runs the ") + model_name(impl_->model()) +
                " model (common_params has its shared part)");
  }
  return *p;
}
const VehicleCommon<double>& Batch::common_params(int vehicle) const {
  impl_->check_vehicle(vehicle);
  return impl_->vehicles->common(vehicle);
}
const CeParams<double>& Batch::ce_params(int vehicle) const {
  impl_->check_vehicle(vehicle);
  const CeParams<double>* p = impl_->vehicles->ce_params(vehicle);
  if (!p) throw Error(std::string("ce_params: this batch runs the ") + model_name(impl_->model()) + " model");
  return *p;
}
const PgsVehicleParams<double>& Batch::pgs_params(int vehicle) const {
  impl_->check_vehicle(vehicle);
  const PgsVehicleParams<double>* p = impl_->vehicles->pgs_params(vehicle);
  if (!p) throw Error(std::string("pgs_params: this batch runs the ") + model_name(impl_->model()) + " model");
  return *p;
}
const TerrainSpec& Batch::terrain() const { return impl_->terrain; }

void Batch::set_maneuvers(const std::vector<Maneuver>& tables, const std::vector<int>& vehicle_table) {
  check_maneuvers(tables, vehicle_table, impl_->vehicle_count);
  impl_->typed->set_maneuvers(tables, vehicle_table);
}

void Batch::set_inputs(const std::vector<DriverInput<double>>& inputs) {
  Impl& b = *impl_;
  b.check_length(inputs, "inputs");
  const int n = b.vehicle_count;
  std::vector<double> soa(3 * static_cast<size_t>(n));
  for (int v = 0; v < n; ++v) {
    const DriverInput<double>& in = inputs[inputs.size() == 1 ? 0 : v];
    if (!std::isfinite(in.steer) || !std::isfinite(in.throttle) || !std::isfinite(in.brake)) {
      throw Error("inputs: vehicle " + std::to_string(v) + " has a non-finite input");
    }
    soa[v] = in.steer;
    soa[n + v] = in.throttle;
    soa[2 * n + v] = in.brake;
  }
  b.typed->set_inputs(soa);
}

void Batch::set_path_driver(const std::vector<Path>& paths, const std::vector<int>& vehicle_path,
                            const std::vector<PathDriverSettings>& settings) {
  Impl& b = *impl_;
  driver_setup::check_paths(paths, vehicle_path, b.vehicle_count);
  driver_setup::check_path_settings(settings, b.vehicle_count);
  b.typed->set_path_driver(paths, vehicle_path, settings);
}

void Batch::set_steer_program(const std::vector<SteerProgram>& programs) {
  Impl& b = *impl_;
  driver_setup::check_steer_programs(programs, b.vehicle_count);
  b.typed->set_steer_program(programs);
}

std::vector<double> Batch::driver_state() { return impl_->typed->driver_state(); }

void Batch::step(int n) {
  if (n < 0) throw Error("step count must not be negative, got " + std::to_string(n));
  if (n > 0) impl_->typed->step(n);
}

void Batch::synchronize() { impl_->typed->synchronize(); }

std::vector<double> Batch::state() {
  std::vector<double> s;
  impl_->typed->read(&s, nullptr, nullptr, nullptr, nullptr);
  return s;
}
std::vector<double> Batch::origins() {
  std::vector<double> o;
  impl_->typed->read(nullptr, &o, nullptr, nullptr, nullptr);
  return o;
}
std::vector<double> Batch::metrics() {
  std::vector<double> m;
  impl_->typed->read(nullptr, nullptr, &m, nullptr, nullptr);
  return m;
}
std::vector<int> Batch::status() {
  std::vector<int> s;
  impl_->typed->read(nullptr, nullptr, nullptr, &s, nullptr);
  return s;
}

BatchSummary Batch::summary(const SummaryRequest& request) {
  return impl_->typed->summary(plan_summary(request, impl_->vehicle_count));
}

double Batch::time(int vehicle) {
  impl_->check_vehicle(vehicle);
  std::vector<int> counts;
  impl_->typed->read(nullptr, nullptr, nullptr, nullptr, &counts);
  return counts[vehicle] * impl_->options.step;
}

}  // namespace fleetdyn
