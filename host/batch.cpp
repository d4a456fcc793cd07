// Batch: the backend-independent API over an engine of the chosen precision and backend.
#include "fleetdyn/batch.h"

#include <cmath>
#include <string>

#include <algorithm>
#include <exception>
#include <limits>
#include <map>
#include <thread>

#include "fleetdyn/ce.h"
#include "fleetdyn/error.h"
#include "fleetdyn/physics/strut_initial.h"
#include "fleetdyn/vehicle.h"
#include "host/convert_scalars.h"
#include "host/cpu_engine.h"
#include "host/cuda_engine.h"
#include "host/driver_setup.h"

namespace fleetdyn {

const char* backend_name(BackendKind b) {
  switch (b) {
    case BackendKind::Auto: return "auto";
    case BackendKind::Cpu: return "cpu";
    case BackendKind::Cuda: return "cuda";
  }
  return "?";
}

const char* model_name(VehicleModel m) {
  switch (m) {
    case VehicleModel::Strut: return "strut";
    case VehicleModel::Ce: return "ce";
    case VehicleModel::Pgs: return "pgs";
  }
  return "?";
}

namespace {
int state_size_of(VehicleModel m) {
  return m == VehicleModel::Ce ? kCeStateSize : m == VehicleModel::Pgs ? kPgsVehicleStateSize : kStrutStateSize;
}
}  // namespace

int max_vehicles(VehicleModel m) {
  return std::numeric_limits<int>::max() /
         std::max({state_size_of(m), static_cast<int>(kMetricCount), static_cast<int>(kDriverStateSize)});
}

const char* precision_name(Precision p) { return p == Precision::Fp32 ? "fp32" : "fp64"; }

bool cuda_available(std::string* why) { return cuda_device_usable(why); }

namespace {

// Metrics that start at -1, "no event yet" (their description says so, physics/metrics.h).
bool starts_at_minus_one(int m) {
  switch (m) {
    case metric::first_liftoff_time:
    case metric::diverged_time:
    case metric::max_path_deviation:
    case metric::path_progress:
    case metric::maneuver_end_time:
    case metric::capsize_time:
      return true;
    default:
      return false;
  }
}

// A model's parameters in the batch's precision.
template <class T>
VehicleParams<T> to_precision(const VehicleParams<double>& p) { return convert_params<T>(p); }
template <class T>
CeParams<T> to_precision(const CeParams<double>& p) { return convert_ce_params<T>(p); }
template <class T>
PgsVehicleParams<T> to_precision(const PgsVehicleParams<double>& p) { return convert_pgs_vehicle_params<T>(p); }

// Model- and precision-independent face of the typed storage + engine.
class TypedBatch {
 public:
  virtual ~TypedBatch() = default;
  virtual void set_vehicles(const std::vector<double>& state, const std::vector<double>& origin) = 0;
  virtual void set_maneuvers(const std::vector<Maneuver>& tables, const std::vector<int>& vehicle_table) = 0;
  virtual void set_inputs(const std::vector<double>& inputs) = 0;  // [3][N]
  // Drivers, arguments already checked (host/driver_setup.h).
  virtual void set_path_driver(const std::vector<Path>& paths, const std::vector<int>& vehicle_path,
                               const std::vector<PathDriverSettings>& settings) = 0;
  virtual void set_steer_program(const std::vector<SteerProgram>& programs) = 0;
  virtual std::vector<double> driver_state() = 0;
  virtual void step(int n) = 0;
  virtual void synchronize() = 0;
  virtual void read(std::vector<double>* state, std::vector<double>* origin, std::vector<double>* metrics,
                    std::vector<int>* status, std::vector<int>* step_count) = 0;
  virtual void write_vehicle_state(int v, const std::vector<double>& state) = 0;
  virtual std::string device_name() const = 0;
  virtual bool using_tables() const = 0;
  virtual DriverInput<double> current_input(int v, double t) = 0;
};

template <class Model, class T>
class TypedBatchImpl final : public TypedBatch {
  static constexpr int kStateSize = Model::kStateSize;

 public:
  TypedBatchImpl(const std::vector<typename Model::template Params<double>>& params, int n, const TerrainSpec& terrain,
                 const BatchOptions& options, std::unique_ptr<Engine<Model, T>> engine)
      : engine_(std::move(engine)) {
    host_.vehicle_count = n;
    for (const auto& p : params) host_.params.push_back(to_precision<T>(p));
    host_.terrain = convert_terrain<T>(terrain.desc);
    for (double h : terrain.heightfield) host_.heightfield.push_back(T(h));
    for (const auto& tv : terrain.variation) host_.terrain_variation.push_back(convert_terrain_variation<T>(tv));
    host_.capsize_roll = T(options.capsize_roll);
    host_.integrator = IntegratorSettings<T>{T(options.step), options.substeps, options.requery_contact};
    host_.state.assign(static_cast<size_t>(kStateSize) * n, T(0));
    host_.origin.assign(2 * static_cast<size_t>(n), T(0));
    host_.inputs.assign(3 * static_cast<size_t>(n), T(0));
    host_.metrics.assign(static_cast<size_t>(kMetricCount) * n, T(0));
    host_.step_count.assign(n, 0);
    host_.status.assign(n, kStatusRunning);
    for (const auto& p : params) {
      const DriverGeometry<double> g = Model::driver_geometry(p);
      host_.driver_geometry.push_back({T(g.front_axle_x), T(g.rear_axle_x), T(g.steer_gain)});
    }
    engine_->upload(host_, kSyncAll);
  }

  void set_vehicles(const std::vector<double>& state, const std::vector<double>& origin) override {
    fetch();
    const int n = host_.vehicle_count;
    for (size_t j = 0; j < state.size(); ++j) host_.state[j] = T(state[j]);
    for (size_t j = 0; j < origin.size(); ++j) host_.origin[j] = T(origin[j]);
    for (int m = 0; m < kMetricCount; ++m) {
      const T initial = starts_at_minus_one(m) ? T(-1) : T(0);
      for (int v = 0; v < n; ++v) host_.metrics[static_cast<size_t>(m) * n + v] = initial;
    }
    host_.step_count.assign(n, 0);
    host_.status.assign(n, kStatusRunning);
    if (!host_.driver_state.empty()) driver_setup::reset_driver_state(host_);
    engine_->upload(host_, kSyncVehicles);
  }

  void set_maneuvers(const std::vector<Maneuver>& tables, const std::vector<int>& vehicle_table) override {
    host_.table_offset.clear();
    host_.table_length.clear();
    host_.table_time.clear();
    host_.table_steer.clear();
    host_.table_throttle.clear();
    host_.table_brake.clear();
    for (const Maneuver& m : tables) {
      host_.table_offset.push_back(static_cast<int>(host_.table_time.size()));
      host_.table_length.push_back(static_cast<int>(m.size()));
      for (const ManeuverPoint& pt : m) {
        host_.table_time.push_back(T(pt.time));
        host_.table_steer.push_back(T(pt.steer));
        host_.table_throttle.push_back(T(pt.throttle));
        host_.table_brake.push_back(T(pt.brake));
      }
    }
    host_.vehicle_table = vehicle_table;
    host_.driver_mode = kDriverOpenLoop;
    engine_->upload(host_, kSyncManeuver);
  }

  void set_inputs(const std::vector<double>& inputs) override {
    for (size_t j = 0; j < inputs.size(); ++j) host_.inputs[j] = T(inputs[j]);
    host_.table_offset.clear();
    host_.table_length.clear();
    host_.driver_mode = kDriverOpenLoop;
    engine_->upload(host_, kSyncInputs | kSyncManeuver);
  }

  void set_path_driver(const std::vector<Path>& paths, const std::vector<int>& vehicle_path,
                       const std::vector<PathDriverSettings>& settings) override {
    fetch();  // the driver state is about to be reset on the host and uploaded
    driver_setup::store_path_driver(host_, paths, vehicle_path, settings);
    driver_setup::reset_driver_state(host_);
    engine_->upload(host_, kSyncDriver);
  }

  void set_steer_program(const std::vector<SteerProgram>& programs) override {
    fetch();
    driver_setup::store_steer_programs(host_, programs);
    driver_setup::reset_driver_state(host_);
    engine_->upload(host_, kSyncDriver);
  }

  std::vector<double> driver_state() override {
    fetch();
    return std::vector<double>(host_.driver_state.begin(), host_.driver_state.end());
  }

  void step(int n) override {
    engine_->step(host_, n);
    host_fresh_ = false;
  }
  void synchronize() override { engine_->synchronize(); }

  void read(std::vector<double>* state, std::vector<double>* origin, std::vector<double>* metrics,
            std::vector<int>* status, std::vector<int>* step_count) override {
    fetch();
    if (state) state->assign(host_.state.begin(), host_.state.end());
    if (origin) origin->assign(host_.origin.begin(), host_.origin.end());
    if (metrics) metrics->assign(host_.metrics.begin(), host_.metrics.end());
    if (status) *status = host_.status;
    if (step_count) *step_count = host_.step_count;
  }

  void write_vehicle_state(int v, const std::vector<double>& state) override {
    fetch();
    const int n = host_.vehicle_count;
    for (int j = 0; j < kStateSize; ++j) host_.state[static_cast<size_t>(j) * n + v] = T(state[j]);
    engine_->upload(host_, kSyncVehicles);
  }

  std::string device_name() const override { return engine_->device_name(); }
  bool using_tables() const override { return !host_.table_offset.empty(); }

  DriverInput<double> current_input(int v, double t) override {
    const int n = host_.vehicle_count;
    if (host_.driver_mode != kDriverOpenLoop) {  // the driver's last command
      fetch();
      const auto at = [&](int j) { return double(host_.driver_state[static_cast<size_t>(j) * n + v]); };
      return {at(driver::kSteer), at(driver::kThrottle), at(driver::kBrake)};
    }
    const BatchView<Model, T> view = host_.view();
    if (view.maneuver.table_count > 0) {
      const DriverInput<T> in = maneuver_input(view.maneuver, v, T(t));
      return {double(in.steer), double(in.throttle), double(in.brake)};
    }
    return {double(host_.inputs[v]), double(host_.inputs[n + v]), double(host_.inputs[2 * n + v])};
  }

 private:
  void fetch() {
    if (!host_fresh_) engine_->download(host_);
    host_fresh_ = true;
  }

  BatchStorage<Model, T> host_;
  std::unique_ptr<Engine<Model, T>> engine_;
  bool host_fresh_ = true;
};

template <class Model, class T>
std::unique_ptr<TypedBatch> make_typed(const std::vector<typename Model::template Params<double>>& params, int n,
                                       const TerrainSpec& terrain, const BatchOptions& options, BackendKind backend) {
  std::unique_ptr<Engine<Model, T>> engine = backend == BackendKind::Cuda
                                                 ? make_cuda_engine<Model, T>()
                                                 : make_cpu_engine<Model, T>(options.cpu_threads, options.cpu_simd);
  return std::make_unique<TypedBatchImpl<Model, T>>(params, n, terrain, options, std::move(engine));
}

template <class Model>
std::unique_ptr<TypedBatch> make_typed(const std::vector<typename Model::template Params<double>>& params, int n,
                                       const TerrainSpec& terrain, const BatchOptions& options, BackendKind backend) {
  return options.precision == Precision::Fp32 ? make_typed<Model, float>(params, n, terrain, options, backend)
                                              : make_typed<Model, double>(params, n, terrain, options, backend);
}

void validate_terrain(const TerrainSpec& t, int n) {
  if (!t.variation.empty() && t.variation.size() != static_cast<size_t>(n)) {
    throw Error("terrain: variation has " + std::to_string(t.variation.size()) + " entries, expected none or one per vehicle (" +
                std::to_string(n) + ")");
  }
  for (size_t v = 0; v < t.variation.size(); ++v) {
    const TerrainVariation<double>& x = t.variation[v];
    if (!std::isfinite(x.shift_x) || !std::isfinite(x.shift_y) || !std::isfinite(x.relief_scale)) {
      throw Error("terrain: variation of vehicle " + std::to_string(v) + " has a non-finite value");
    }
  }
  if (t.desc.kind == TerrainKind::Heightfield) {
    const long long expected = static_cast<long long>(t.desc.hf_nx) * t.desc.hf_ny;
    if (t.desc.hf_nx < 1 || t.desc.hf_ny < 1 || expected != static_cast<long long>(t.heightfield.size())) {
      throw Error("terrain: heightfield has " + std::to_string(t.heightfield.size()) + " samples, expected nx*ny = " +
                  std::to_string(expected));
    }
    if (!(t.desc.hf_dx > 0.0) || !(t.desc.hf_dy > 0.0)) throw Error("terrain: heightfield spacing must be positive");
    if (t.desc.hf_periodic && (t.desc.hf_nx < 2 || t.desc.hf_ny < 2)) {
      throw Error("terrain: a periodic heightfield needs at least 2 x 2 samples");
    }
  }
}

}  // namespace

struct Batch::Impl {
  VehicleModel model = VehicleModel::Strut;
  std::vector<VehicleParams<double>> params;  // strut: the vehicles'; ce: their shared parts (CeParams::vehicle)
  std::vector<CeParams<double>> ce_params;    // ce; pgs: the vehicles its bodies are built from
  std::vector<PgsVehicleDef> pgs_defs;        // pgs only
  std::vector<PgsVehicleParams<double>> pgs_params;  // pgs only, built by init for the step
  TerrainSpec terrain;
  BatchOptions options;
  BackendKind backend = BackendKind::Cpu;
  std::string device;
  int vehicle_count = 0;
  std::unique_ptr<TypedBatch> typed;

  const VehicleParams<double>& params_of(int v) const { return params[static_cast<size_t>(v) % params.size()]; }
  const CeParams<double>& ce_params_of(int v) const { return ce_params[static_cast<size_t>(v) % ce_params.size()]; }
  const PgsVehicleParams<double>& pgs_params_of(int v) const {
    return pgs_params[static_cast<size_t>(v) % pgs_params.size()];
  }
  // The terrain vehicle v meets (TerrainSpec::variation), as the engines' vehicle_terrain.
  TerrainDesc<double> terrain_of(int v) const {
    return terrain.variation.empty() ? terrain.desc : varied_terrain(terrain.desc, terrain.variation[static_cast<size_t>(v)]);
  }
  int state_size() const {
    return state_size_of(model);
  }
  void require_strut(const char* what) const {
    if (model != VehicleModel::Strut) {
      throw Error(std::string(what) + " is available for the strut model only (this batch runs '" + model_name(model) +
                  "')");
    }
  }
  // Validation and the engine, once the parameters are in.
  void init(int n, TerrainSpec terrain_spec, const BatchOptions& batch_options);
  void check_vehicle(int v) const {
    if (v < 0 || v >= vehicle_count) {
      throw Error("vehicle index " + std::to_string(v) + " out of range [0, " + std::to_string(vehicle_count) + ")");
    }
  }
  template <class E>
  void check_length(const std::vector<E>& values, const char* what) const {
    if (values.size() != 1 && values.size() != static_cast<size_t>(vehicle_count)) {
      throw Error(std::string(what) + ": expected 1 or " + std::to_string(vehicle_count) + " entries, got " +
                  std::to_string(values.size()));
    }
  }
};

void Batch::Impl::init(int n, TerrainSpec terrain_spec, const BatchOptions& batch_options) {
  vehicle_count = n;
  const int most = max_vehicles(model);
  if (n < 1 || n > most) {
    throw Error("vehicle count must be in [1, " + std::to_string(most) + "] for the " + model_name(model) + " model, got " +
                std::to_string(n));
  }
  check_length(params, "vehicle parameters");
  // A parameter set that did not go through finalize (or was edited after it) is checked here
  // too; the ce and pgs models' shared fields are in `params` as well.
  for (size_t i = 0; i < params.size(); ++i) {
    check_vehicle_params(params[i], params.size() == 1 ? std::string("vehicle parameters")
                                                       : "vehicle parameters[" + std::to_string(i) + "]");
  }
  const BatchOptions& o = batch_options;
  if (!(o.step > 0.0) || !(o.step < 1.0)) throw Error("step must be in (0, 1) s, got " + std::to_string(o.step));
  if (o.substeps < 1 || o.substeps > kMaxSubsteps) {
    throw Error("substeps must be in [1, " + std::to_string(kMaxSubsteps) + "], got " + std::to_string(o.substeps));
  }
  if (o.cpu_threads < 0 || o.cpu_threads > kMaxCpuThreads) {
    throw Error("cpu_threads must be in [0, " + std::to_string(kMaxCpuThreads) + "] (0: all hardware threads), got " +
                std::to_string(o.cpu_threads));
  }
  if (model != VehicleModel::Strut && !o.requery_contact) {
    throw Error(std::string("requery_contact = false is a strut option: the ") + model_name(model) +
                " model queries the terrain at every stage");
  }
  validate_terrain(terrain_spec, n);
  if (!(o.capsize_roll >= 0.0 && o.capsize_roll <= kPi)) {
    throw Error("capsize_roll must be in [0, pi] rad (0: never), got " + std::to_string(o.capsize_roll));
  }
  terrain = std::move(terrain_spec);
  terrain.desc.hf_heights = terrain.heightfield.empty() ? nullptr : terrain.heightfield.data();
  options = o;

  std::string why;
  const bool cuda = cuda_device_usable(&why);
  if (o.backend == BackendKind::Cuda && !cuda) throw Error("backend 'cuda' requested but " + why);
  backend = (o.backend == BackendKind::Cpu || !cuda) ? BackendKind::Cpu : BackendKind::Cuda;
  if (model == VehicleModel::Pgs) {
    pgs_params.clear();
    for (const PgsVehicleDef& def : pgs_defs) pgs_params.push_back(build_pgs_vehicle_params<double>(def, o.step / o.substeps, terrain.desc));
  }
  typed = model == VehicleModel::Ce    ? make_typed<CeModel>(ce_params, n, terrain, o, backend)
          : model == VehicleModel::Pgs ? make_typed<PgsVehicleModel>(pgs_params, n, terrain, o, backend)
                                       : make_typed<StrutModel>(params, n, terrain, o, backend);
  device = typed->device_name();
  if (backend == BackendKind::Cpu && o.backend == BackendKind::Auto) device += ", " + why;
}

Batch::Batch(std::vector<VehicleParams<double>> params, int vehicle_count, TerrainSpec terrain, BatchOptions options)
    : impl_(std::make_unique<Impl>()) {
  impl_->params = std::move(params);
  impl_->init(vehicle_count, std::move(terrain), options);
  set_initial_conditions({InitialCondition{}});
}

Batch::Batch(std::vector<CeParams<double>> params, int vehicle_count, TerrainSpec terrain, BatchOptions options)
    : impl_(std::make_unique<Impl>()) {
  Impl& b = *impl_;
  b.model = VehicleModel::Ce;
  b.ce_params = std::move(params);
  for (const CeParams<double>& p : b.ce_params) b.params.push_back(p.vehicle);
  b.init(vehicle_count, std::move(terrain), options);
  set_initial_conditions({InitialCondition{}});
}

Batch::Batch(std::vector<PgsVehicleDef> params, int vehicle_count, TerrainSpec terrain, BatchOptions options)
    : impl_(std::make_unique<Impl>()) {
  Impl& b = *impl_;
  b.model = VehicleModel::Pgs;
  b.pgs_defs = std::move(params);
  for (const PgsVehicleDef& d : b.pgs_defs) {
    b.ce_params.push_back(pgs_vehicle_rest_params(d));
    b.params.push_back(d.vehicle.vehicle);
  }
  b.init(vehicle_count, std::move(terrain), options);
  set_initial_conditions({InitialCondition{}});
}

Batch::~Batch() = default;
Batch::Batch(Batch&&) noexcept = default;
Batch& Batch::operator=(Batch&&) noexcept = default;

int Batch::vehicle_count() const { return impl_->vehicle_count; }
VehicleModel Batch::model() const { return impl_->model; }
int Batch::state_size() const { return impl_->state_size(); }
BackendKind Batch::backend() const { return impl_->backend; }
Precision Batch::precision() const { return impl_->options.precision; }
const std::string& Batch::device_name() const { return impl_->device; }
const BatchOptions& Batch::options() const { return impl_->options; }
const VehicleParams<double>& Batch::params(int vehicle) const {
  impl_->check_vehicle(vehicle);
  return impl_->params_of(vehicle);
}
const CeParams<double>& Batch::ce_params(int vehicle) const {
  impl_->check_vehicle(vehicle);
  if (impl_->model == VehicleModel::Strut) throw Error("ce_params: this batch runs the strut model");
  return impl_->ce_params_of(vehicle);
}
const PgsVehicleParams<double>& Batch::pgs_params(int vehicle) const {
  impl_->check_vehicle(vehicle);
  if (impl_->model != VehicleModel::Pgs) {
    throw Error(std::string("pgs_params: this batch runs the ") + model_name(impl_->model) + " model");
  }
  return impl_->pgs_params_of(vehicle);
}
const TerrainSpec& Batch::terrain() const { return impl_->terrain; }

void Batch::set_initial_conditions(const std::vector<InitialCondition>& initial) {
  Impl& b = *impl_;
  b.check_length(initial, "initial conditions");
  const int n = b.vehicle_count;
  const int size = b.state_size();
  const auto condition = [&initial](int v) -> const InitialCondition& { return initial[initial.size() == 1 ? 0 : v]; };
  for (int v = 0; v < static_cast<int>(initial.size()); ++v) {
    const InitialCondition& ic = initial[static_cast<size_t>(v)];
    if (!std::isfinite(ic.x) || !std::isfinite(ic.y) || !std::isfinite(ic.yaw) || !std::isfinite(ic.speed)) {
      throw Error("initial conditions: vehicle " + std::to_string(v) + " has a non-finite value");
    }
  }
  // ce starts from a Newton rest state (~0.2 ms each): with one shared parameter set, one per
  // distinct speed, solved here; with per-vehicle sets, one per vehicle, solved in parallel below.
  // pgs starts from the ce rest state of the vehicle it is built from, mapped onto its bodies.
  const bool ce = b.model != VehicleModel::Strut;
  const bool ce_shared = ce && b.ce_params.size() == 1;
  std::map<double, std::vector<double>> ce_rest_by_speed;
  if (ce_shared) {
    for (int v = 0; v < static_cast<int>(initial.size()); ++v) {
      std::vector<double>& rest = ce_rest_by_speed[initial[static_cast<size_t>(v)].speed];
      if (rest.empty()) {
        try {
          rest = ce_rest_state(b.ce_params[0], initial[static_cast<size_t>(v)].speed);
        } catch (const Error& e) {
          throw Error("initial conditions: vehicle " + std::to_string(v) + ": " + e.what());
        }
      }
    }
  }
  std::vector<double> state(static_cast<size_t>(size) * n), origin(2 * static_cast<size_t>(n));
  // Vehicles [first, last): each writes only its own columns.
  const auto place = [&](int first, int last) {
    std::vector<double> s(size);
    for (int v = first; v < last; ++v) {
      const InitialCondition& ic = condition(v);
      double ox, oy;
      if (!ce) {
        strut_initial_state(b.params_of(v), b.terrain_of(v), ic.x, ic.y, ic.yaw, ic.speed, s.data(), &ox, &oy);
      } else {
        const CeParams<double>& p = b.ce_params_of(v);
        try {
          const std::vector<double> rest = ce_shared ? ce_rest_by_speed.at(ic.speed) : ce_rest_state(p, ic.speed);
          s = ce_place_on_terrain(p, rest, b.terrain_of(v), ic.x, ic.y, ic.yaw, &ox, &oy);
          if (b.model == VehicleModel::Pgs) s = pgs_vehicle_state_from_ce(b.pgs_params_of(v), s);
        } catch (const Error& e) {
          throw Error("initial conditions: vehicle " + std::to_string(v) + ": " + e.what());
        }
      }
      for (int j = 0; j < size; ++j) state[static_cast<size_t>(j) * n + v] = s[j];
      origin[v] = ox;
      origin[n + v] = oy;
    }
  };
  const int hardware = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  const int threads = ce && !ce_shared && n >= 64 ? std::min(n / 32, b.options.cpu_threads > 0 ? b.options.cpu_threads : hardware) : 1;
  if (threads <= 1) {
    place(0, n);
  } else {
    // The first failure by vehicle order is reported, whatever the thread timing.
    std::vector<std::exception_ptr> failure(static_cast<size_t>(threads));
    std::vector<std::thread> workers;
    for (int w = 0; w < threads; ++w) {
      workers.emplace_back([&, w] {
        try {
          place(static_cast<int>(static_cast<long long>(n) * w / threads),
                static_cast<int>(static_cast<long long>(n) * (w + 1) / threads));
        } catch (...) {
          failure[static_cast<size_t>(w)] = std::current_exception();
        }
      });
    }
    for (std::thread& t : workers) t.join();
    for (const std::exception_ptr& e : failure) {
      if (e) std::rethrow_exception(e);
    }
  }
  b.typed->set_vehicles(state, origin);
}

void Batch::set_maneuvers(const std::vector<Maneuver>& tables, const std::vector<int>& vehicle_table) {
  Impl& b = *impl_;
  if (tables.empty()) throw Error("maneuver: at least one time table is required");
  for (size_t k = 0; k < tables.size(); ++k) {
    const Maneuver& m = tables[k];
    if (m.empty()) throw Error("maneuver table " + std::to_string(k) + " has no points");
    for (size_t i = 0; i < m.size(); ++i) {
      const ManeuverPoint& p = m[i];
      const std::string where = "maneuver table " + std::to_string(k) + " point " + std::to_string(i);
      if (!std::isfinite(p.time) || (i > 0 && !(p.time > m[i - 1].time))) throw Error(where + ": times must increase");
      if (!(std::fabs(p.steer) <= 1.0)) throw Error(where + ": steer must be in [-1, 1]");
      if (!(p.throttle >= 0.0 && p.throttle <= 1.0)) throw Error(where + ": throttle must be in [0, 1]");
      if (!(p.brake >= 0.0 && p.brake <= 1.0)) throw Error(where + ": brake must be in [0, 1]");
    }
  }
  if (!vehicle_table.empty()) {
    if (vehicle_table.size() != static_cast<size_t>(b.vehicle_count)) {
      throw Error("maneuver: vehicle_table must have one entry per vehicle");
    }
    for (int t : vehicle_table) {
      if (t < 0 || t >= static_cast<int>(tables.size())) throw Error("maneuver: table index " + std::to_string(t) + " out of range");
    }
  }
  b.typed->set_maneuvers(tables, vehicle_table);
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

double Batch::time(int vehicle) {
  impl_->check_vehicle(vehicle);
  std::vector<int> counts;
  impl_->typed->read(nullptr, nullptr, nullptr, nullptr, &counts);
  return counts[vehicle] * impl_->options.step;
}

namespace {
// Snapshots of a pgs batch: the chassis body's COM and motion in the chassis frame's attitude.
std::vector<VehicleSnapshot> pgs_snapshots(const Batch::Impl& b, const std::vector<double>& s, const std::vector<double>& o,
                                           const std::vector<int>& status, const std::vector<int>& counts) {
  const int n = b.vehicle_count;
  std::vector<VehicleSnapshot> out(n);
  std::vector<double> col(kPgsVehicleStateSize);
  for (int v = 0; v < n; ++v) {
    for (int j = 0; j < kPgsVehicleStateSize; ++j) col[j] = s[static_cast<size_t>(j) * n + v];
    const PgsChassisMotion m = pgs_vehicle_chassis_motion(b.pgs_params_of(v), col.data());
    const Mat3<double>& r = m.rotation;
    VehicleSnapshot& snap = out[v];
    snap.time = counts[v] * b.options.step;
    snap.status = status[v];
    snap.position = {o[v] + m.com.x, o[n + v] + m.com.y, m.com.z};
    snap.euler = {std::atan2(r.m[2][1], r.m[2][2]), std::asin(std::max(-1.0, std::min(1.0, -r.m[2][0]))),
                  std::atan2(r.m[1][0], r.m[0][0])};  // ZYX, as euler_zyx
    snap.velocity = {m.velocity.x, m.velocity.y, m.velocity.z};
    snap.omega_body = {m.omega_body.x, m.omega_body.y, m.omega_body.z};
    for (int i = 0; i < kCorners; ++i) snap.wheel_spin[i] = m.wheel_spin[i];
  }
  return out;
}
}  // namespace

std::vector<VehicleSnapshot> Batch::snapshots() {
  Impl& b = *impl_;
  const int n = b.vehicle_count;
  std::vector<double> s, o;
  std::vector<int> status, counts;
  b.typed->read(&s, &o, nullptr, &status, &counts);
  std::vector<VehicleSnapshot> out(n);
  // The models' state indices mean the same, except that ce holds the chassis frame origin and
  // its velocity in chassis axes where strut holds the COM and its world velocity.
  if (b.model == VehicleModel::Pgs) return pgs_snapshots(b, s, o, status, counts);
  const bool ce = b.model == VehicleModel::Ce;
  const auto index = [ce](int ce_index, int strut_index) { return ce ? ce_index : strut_index; };
  const int pos = index(ce::kPos, strut::kPos), quat = index(ce::kQuat, strut::kQuat);
  const int vel = index(ce::kVel, strut::kVel), omega_at = index(ce::kOmega, strut::kOmega);
  const int spin = index(ce::kWheelSpin, strut::kWheelSpin);
  for (int v = 0; v < n; ++v) {
    auto at = [&](int j) { return s[static_cast<size_t>(j) * n + v]; };
    auto vec_at = [&](int j) { return Vec3<double>{at(j), at(j + 1), at(j + 2)}; };
    VehicleSnapshot& snap = out[v];
    snap.time = counts[v] * b.options.step;
    snap.status = status[v];
    const Quat<double> q = normalized(Quat<double>{at(quat), at(quat + 1), at(quat + 2), at(quat + 3)});
    const Vec3<double> omega = vec_at(omega_at);
    Vec3<double> com = vec_at(pos), com_vel = vec_at(vel);
    if (ce) {
      const Mat3<double> rot = rotation_matrix(q);
      const Vec3<double> com_offset = b.ce_params_of(v).chassis_com;
      com += rot * com_offset;
      com_vel = rot * (com_vel + cross(omega, com_offset));
    }
    const Vec3<double> e = euler_zyx(q);
    snap.position = {o[v] + com.x, o[n + v] + com.y, com.z};
    snap.euler = {e.x, e.y, e.z};
    snap.velocity = {com_vel.x, com_vel.y, com_vel.z};
    snap.omega_body = {omega.x, omega.y, omega.z};
    for (int i = 0; i < kCorners; ++i) snap.wheel_spin[i] = at(spin + i);
  }
  return out;
}

namespace {
std::vector<double> vehicle_column(const std::vector<double>& soa, int n, int v, int fields) {
  std::vector<double> col(fields);
  for (int j = 0; j < fields; ++j) col[j] = soa[static_cast<size_t>(j) * n + v];
  return col;
}
}  // namespace

double Batch::mechanical_energy(int vehicle) {
  Impl& b = *impl_;
  if (b.model == VehicleModel::Strut) return energy(vehicle).total();
  b.check_vehicle(vehicle);
  std::vector<double> s, o;
  b.typed->read(&s, &o, nullptr, nullptr, nullptr);
  if (b.model == VehicleModel::Pgs) {
    return pgs_vehicle_energy(b.pgs_params_of(vehicle), b.terrain_of(vehicle), o[vehicle], o[b.vehicle_count + vehicle],
                              vehicle_column(s, b.vehicle_count, vehicle, kPgsVehicleStateSize));
  }
  const std::vector<double> col = vehicle_column(s, b.vehicle_count, vehicle, kCeStateSize);
  const TerrainDesc<double> ground = b.terrain_of(vehicle);
  const CeEnvironment<double> env{&ground, o[vehicle], o[b.vehicle_count + vehicle]};
  return ce_energy(b.ce_params_of(vehicle), env, col.data());
}

EnergyLedger<double> Batch::energy(int vehicle) {
  Impl& b = *impl_;
  b.require_strut("energy()");
  b.check_vehicle(vehicle);
  std::vector<double> s, o;
  b.typed->read(&s, &o, nullptr, nullptr, nullptr);
  const std::vector<double> col = vehicle_column(s, b.vehicle_count, vehicle, kStrutStateSize);
  return strut_energy(b.params_of(vehicle), b.terrain_of(vehicle), o[vehicle], o[b.vehicle_count + vehicle], col.data());
}

StrutDiagnostics<double> Batch::diagnostics(int vehicle) {
  Impl& b = *impl_;
  b.require_strut("diagnostics()");
  b.check_vehicle(vehicle);
  std::vector<double> s, o;
  std::vector<int> counts;
  b.typed->read(&s, &o, nullptr, nullptr, &counts);
  const std::vector<double> col = vehicle_column(s, b.vehicle_count, vehicle, kStrutStateSize);
  const DriverInput<double> input = clamped(b.typed->current_input(vehicle, counts[vehicle] * b.options.step));
  const TerrainDesc<double> ground = b.terrain_of(vehicle);
  const StrutEnvironment<double> env(b.params_of(vehicle), &ground, o[vehicle], o[b.vehicle_count + vehicle], input);
  double ds[kStrutStateSize];
  StrutDiagnostics<double> diag{};
  strut_derivative(b.params_of(vehicle), env, input, col.data(), ds, &diag);
  return diag;
}

void Batch::set_vehicle_state(int vehicle, const std::vector<double>& state) {
  impl_->check_vehicle(vehicle);
  if (state.size() != static_cast<size_t>(impl_->state_size())) {
    throw Error("set_vehicle_state: expected " + std::to_string(impl_->state_size()) + " values, got " +
                std::to_string(state.size()));
  }
  impl_->typed->write_vehicle_state(vehicle, state);
}

}  // namespace fleetdyn
