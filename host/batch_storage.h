// Host-side storage of a batch of one model in the batch's scalar type: the structure-of-arrays
// state and everything a BatchView points to. The CPU engine steps it in place; the CUDA engine
// mirrors it on the device. Internal to the library.
#pragma once

#include <vector>

#include "fleetdyn/physics/ce_batch.h"
#include "fleetdyn/physics/pgs_vehicle_batch.h"
#include "fleetdyn/physics/strut_batch.h"

namespace fleetdyn {

template <class Model, class T>
struct BatchStorage {
  int vehicle_count = 0;
  std::vector<typename Model::template Params<T>> params;
  TerrainDesc<T> terrain{};
  std::vector<T> heightfield;
  std::vector<TerrainVariation<T>> terrain_variation;  // [vehicle_count] or empty (TerrainSpec::variation)
  T capsize_roll = T(0);                               // [rad] 0: never (BatchOptions::capsize_roll)
  IntegratorSettings<T> integrator{};
  // Maneuver tables (concatenated) and the per-vehicle table index.
  std::vector<int> table_offset, table_length, vehicle_table;
  std::vector<T> table_time, table_steer, table_throttle, table_brake;
  // Per-vehicle SoA arrays.
  std::vector<T> state, origin, inputs, metrics;
  std::vector<int> step_count, status;
  // Drivers (physics/driver.h). The geometry is derived from the parameters at construction;
  // the rest is set by Batch::set_path_driver / set_steer_program. driver_state stays empty
  // (nothing stored, moved or reset) until a driver is set.
  int driver_mode = kDriverOpenLoop;
  std::vector<DriverGeometry<T>> driver_geometry;  // [params.size()]
  std::vector<int> path_offset, path_count, path_closed, vehicle_path;
  std::vector<T> path_length, path_x, path_y, path_speed, path_s;
  std::vector<PathDriverParams<T>> path_params;
  std::vector<SteerProgramParams<T>> programs;
  std::vector<T> driver_state;  // [kDriverStateSize][vehicle_count]

  // View over this storage (host pointers).
  BatchView<Model, T> view() {
    BatchView<Model, T> v{};
    v.vehicle_count = vehicle_count;
    v.params = params.data();
    v.param_count = static_cast<int>(params.size());
    v.terrain = terrain;
    v.terrain.hf_heights = heightfield.empty() ? nullptr : heightfield.data();
    v.terrain_variation = terrain_variation.empty() ? nullptr : terrain_variation.data();
    v.capsize_roll = capsize_roll;
    v.integrator = integrator;
    v.maneuver.table_count = static_cast<int>(table_offset.size());
    v.maneuver.table_offset = table_offset.data();
    v.maneuver.table_length = table_length.data();
    v.maneuver.time = table_time.data();
    v.maneuver.steer = table_steer.data();
    v.maneuver.throttle = table_throttle.data();
    v.maneuver.brake = table_brake.data();
    v.maneuver.vehicle_table = vehicle_table.empty() ? nullptr : vehicle_table.data();
    v.state = state.data();
    v.origin = origin.data();
    v.step_count = step_count.data();
    v.status = status.data();
    v.inputs = inputs.data();
    v.metrics = metrics.data();
    DriverView<T>& d = v.driver;
    d.mode = driver_mode;
    d.geometry = driver_geometry.data();
    d.paths.path_count = static_cast<int>(path_offset.size());
    d.paths.offset = path_offset.data();
    d.paths.count = path_count.data();
    d.paths.closed = path_closed.data();
    d.paths.length = path_length.data();
    d.paths.x = path_x.data();
    d.paths.y = path_y.data();
    d.paths.speed = path_speed.data();
    d.paths.s = path_s.data();
    d.paths.vehicle_path = vehicle_path.empty() ? nullptr : vehicle_path.data();
    d.path_params = path_params.data();
    d.path_param_count = static_cast<int>(path_params.size());
    d.programs = programs.data();
    d.program_count = static_cast<int>(programs.size());
    d.state = driver_state.empty() ? nullptr : driver_state.data();
    return v;
  }
};

// Every (model, scalar type) a batch can have, for the engines' explicit instantiations.
#define FLEETDYN_BATCH_KINDS(X)                                                                      \
  X(StrutModel, float) X(StrutModel, double) X(CeModel, float) X(CeModel, double) X(PgsVehicleModel, float) \
  X(PgsVehicleModel, double)

// Which parts of the storage changed on the host and must reach the engine's copy.
enum SyncPart : unsigned {
  kSyncVehicles = 1u,   // state, origin, step_count, status, metrics
  kSyncInputs = 2u,     // inputs
  kSyncManeuver = 4u,   // maneuver tables
  kSyncDriver = 8u,     // driver paths, settings, programs and state (the state also with kSyncVehicles)
  kSyncAll = 15u,
};

// A backend: steps a batch and keeps its copy of the storage in step with the host's.
template <class Model, class T>
class Engine {
 public:
  virtual ~Engine() = default;
  virtual void upload(const BatchStorage<Model, T>& host, unsigned parts) = 0;
  virtual void step(BatchStorage<Model, T>& host, int steps) = 0;  // may be asynchronous
  virtual void download(BatchStorage<Model, T>& host) = 0;        // vehicles' arrays (and driver state) back to host; synchronizes
  virtual void synchronize() = 0;
  virtual std::string device_name() const = 0;
};

}  // namespace fleetdyn
