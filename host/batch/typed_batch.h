// The typed half of a Batch: a model's storage and engine in the batch's precision and backend,
// behind a model- and precision-independent face (host/batch/batch.cpp holds the API over it).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "fleetdyn/batch.h"
#include "host/backend/cpu_engine.h"
#include "host/backend/cuda_engine.h"
#include "host/batch/batch_storage.h"
#include "host/batch/convert_scalars.h"
#include "host/batch/driver_setup.h"

namespace fleetdyn {

namespace typed_batch {
// Metrics that start at -1, "no event yet" (their description says so, physics/core/metrics.h).
inline bool starts_at_minus_one(int m) {
  switch (m) {
    case metric::first_liftoff_time:
    case metric::diverged_time:
    case metric::max_path_deviation:
    case metric::path_progress:
    case metric::maneuver_end_time:
    case metric::capsize_time: return true;
    default: return false;
  }
}
}  // namespace typed_batch

// Model- and precision-independent face of the typed storage + engine.
class TypedBatch {
 public:
  virtual ~TypedBatch() = default;
  virtual void set_vehicles(const std::vector<double>& state, const std::vector<double>& origin) = 0;
  virtual void set_maneuvers(const std::vector<Maneuver>& tables, const std::vector<int>& vehicle_table) = 0;
  virtual void set_inputs(const std::vector<double>& inputs) = 0;  // [3][N]
  // Drivers, arguments already checked (host/batch/driver_setup.h).
  virtual void set_path_driver(const std::vector<Path>& paths, const std::vector<int>& vehicle_path,
                               const std::vector<PathDriverSettings>& settings) = 0;
  virtual void set_steer_program(const std::vector<SteerProgram>& programs) = 0;
  virtual std::vector<double> driver_state() = 0;
  virtual void step(int n) = 0;
  virtual void synchronize() = 0;
  virtual void read(std::vector<double>* state, std::vector<double>* origin, std::vector<double>* metrics,
                    std::vector<int>* status, std::vector<int>* step_count) = 0;
  virtual void write_vehicle_state(int v, const std::vector<double>& state) = 0;
  virtual BatchSummary summary(const SummaryPlan& plan) = 0;  // plan checked (plan_summary)
  virtual std::string device_name() const = 0;
  virtual bool using_tables() const = 0;
  virtual DriverInput<double> current_input(int v, double t) = 0;
};

// Host: the model's host traits (host/batch/vehicle_models.h); T: the batch's precision.
template <class Host, class T>
class TypedBatchImpl final : public TypedBatch {
  using Model = typename Host::Model;
  static constexpr int kStateSize = Model::kStateSize;

 public:
  TypedBatchImpl(const std::vector<typename Model::template Params<double>>& params, int n, const TerrainSpec& terrain,
                 const BatchOptions& options, std::unique_ptr<Engine<Model, T>> engine)
      : engine_(std::move(engine)) {
    host_.vehicle_count = n;
    for (const auto& p : params) host_.params.push_back(Host::template to_precision<T>(p));
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
      const T initial = typed_batch::starts_at_minus_one(m) ? T(-1) : T(0);
      for (int v = 0; v < n; ++v) host_.metrics[static_cast<size_t>(m) * n + v] = initial;
    }
    host_.step_count.assign(n, 0);
    host_.status.assign(n, kStatusRunning);
    if (!host_.driver_state.empty()) driver_setup::reset_driver_state(host_);
    engine_->upload(host_, kSyncVehicles);
  }

  void set_maneuvers(const std::vector<Maneuver>& tables, const std::vector<int>& vehicle_table) override {
    host_.clear_arrays(kSyncManeuver);
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

  BatchSummary summary(const SummaryPlan& plan) override { return engine_->summarize(host_, plan); }
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

// The typed batch of a model in the options' precision on `backend`, from the model's kernel
// parameter sets (Host::kernel_params).
template <class Host, class T>
std::unique_ptr<TypedBatch> make_typed(const std::vector<typename Host::Model::template Params<double>>& params, int n,
                                       const TerrainSpec& terrain, const BatchOptions& options, BackendKind backend) {
  using Model = typename Host::Model;
  std::unique_ptr<Engine<Model, T>> engine = backend == BackendKind::Cuda
                                                 ? make_cuda_engine<Model, T>()
                                                 : make_cpu_engine<Model, T>(options.cpu_threads, options.cpu_simd);
  return std::make_unique<TypedBatchImpl<Host, T>>(params, n, terrain, options, std::move(engine));
}

template <class Host>
std::unique_ptr<TypedBatch> make_typed(const std::vector<typename Host::Model::template Params<double>>& params, int n,
                                       const TerrainSpec& terrain, const BatchOptions& options, BackendKind backend) {
  return options.precision == Precision::Fp32 ? make_typed<Host, float>(params, n, terrain, options, backend)
                                              : make_typed<Host, double>(params, n, terrain, options, backend);
}

}  // namespace fleetdyn
