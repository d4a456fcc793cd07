// Host-side storage of a batch of one model in the batch's scalar type: the structure-of-arrays
// state and everything a BatchView points to. The CPU engine steps it in place; the CUDA engine
// mirrors it on the device (kernels/cuda_engine.cuh). Internal to the library.
#pragma once

#include <vector>

#include "fleetdyn/physics/ce/ce_batch.h"
#include "fleetdyn/physics/pgs/pgs_vehicle_batch.h"
#include "fleetdyn/physics/strut/strut_batch.h"
#include "host/batch/batch_summary.h"

namespace fleetdyn {

// Which parts of the storage changed on the host and must reach the engine's copy.
enum SyncPart : unsigned {
  kSyncConstant = 0u,  // set once at construction: sent with the first upload only
  kSyncVehicles = 1u,  // state, origin, step_count, status, metrics
  kSyncInputs = 2u,    // inputs
  kSyncManeuver = 4u,  // maneuver tables
  kSyncDriver = 8u,    // driver paths, settings, programs and state (the state also with kSyncVehicles)
  kSyncAll = 15u,
};

// Every array of a batch, written once: X(sync, name, element, view) declares the storage's
// std::vector<element> `name`, the BatchView member `view` that points at it (null when it is
// empty), and the sync parts whose upload sends it (kSyncConstant: only the first upload). The
// arrays of kSyncVehicles are the ones an engine's download brings back. `Params` is the
// model's parameter struct in the batch's scalar type. The CUDA engine's device mirror, its
// uploads, its device view and its download are generated from this list (kernels/cuda_engine.cuh).
#define FLEETDYN_BATCH_ARRAYS(X)                                                                                  \
  X(kSyncConstant, params, Params, params)                                    /* [param_count] */                 \
  X(kSyncConstant, heightfield, T, terrain.hf_heights)                        /* TerrainDesc's samples */         \
  X(kSyncConstant, terrain_variation, TerrainVariation<T>, terrain_variation) /* [vehicle_count] or empty */      \
  X(kSyncConstant, driver_geometry, DriverGeometry<T>, driver.geometry)       /* [param_count] from the params */ \
  X(kSyncVehicles, state, T, state)                                           /* [kStateSize][vehicle_count] */   \
  X(kSyncVehicles, origin, T, origin)                                         /* [2][vehicle_count] */            \
  X(kSyncVehicles, step_count, int, step_count)                               /* [vehicle_count] */               \
  X(kSyncVehicles, status, int, status)                                       /* [vehicle_count] VehicleStatus */ \
  X(kSyncVehicles, metrics, T, metrics)                                       /* [kMetricCount][vehicle_count] */ \
  /* [kDriverStateSize][vehicle_count]; empty (nothing stored, moved or reset) until a driver is set */           \
  X(kSyncVehicles | kSyncDriver, driver_state, T, driver.state)                                                   \
  X(kSyncInputs, inputs, T, inputs) /* [3][vehicle_count] */                                                      \
  /* Maneuver tables (concatenated) and the per-vehicle table index. */                                           \
  X(kSyncManeuver, table_offset, int, maneuver.table_offset)                                                      \
  X(kSyncManeuver, table_length, int, maneuver.table_length)                                                      \
  X(kSyncManeuver, vehicle_table, int, maneuver.vehicle_table)                                                    \
  X(kSyncManeuver, table_time, T, maneuver.time)                                                                  \
  X(kSyncManeuver, table_steer, T, maneuver.steer)                                                                \
  X(kSyncManeuver, table_throttle, T, maneuver.throttle)                                                          \
  X(kSyncManeuver, table_brake, T, maneuver.brake)                                                                \
  /* Drivers (physics/drivers/driver.h), set by Batch::set_path_driver / set_steer_program. */                    \
  X(kSyncDriver, path_offset, int, driver.paths.offset)                                                           \
  X(kSyncDriver, path_count, int, driver.paths.count)                                                             \
  X(kSyncDriver, path_closed, int, driver.paths.closed)                                                           \
  X(kSyncDriver, vehicle_path, int, driver.paths.vehicle_path)                                                    \
  X(kSyncDriver, path_length, T, driver.paths.length)                                                             \
  X(kSyncDriver, path_x, T, driver.paths.x)                                                                       \
  X(kSyncDriver, path_y, T, driver.paths.y)                                                                       \
  X(kSyncDriver, path_speed, T, driver.paths.speed)                                                               \
  X(kSyncDriver, path_s, T, driver.paths.s)                                                                       \
  X(kSyncDriver, path_params, PathDriverParams<T>, driver.path_params)                                            \
  X(kSyncDriver, programs, SteerProgramParams<T>, driver.programs)

// The view's counts of tables that are not per vehicle: X(view count, storage array).
#define FLEETDYN_BATCH_COUNTS(X)          \
  X(param_count, params)                  \
  X(maneuver.table_count, table_offset)   \
  X(driver.paths.path_count, path_offset) \
  X(driver.path_param_count, path_params) \
  X(driver.program_count, programs)

// The first element of a storage array, or null when it is empty (as a device buffer's data()).
template <class E>
E* data_or_null(std::vector<E>& a) {
  return a.empty() ? nullptr : a.data();
}

template <class Model, class T>
struct BatchStorage {
  using Params = typename Model::template Params<T>;
  int vehicle_count = 0;
  TerrainDesc<T> terrain{};  // hf_heights: set by view() to `heightfield`
  T capsize_roll = T(0);     // [rad] 0: never (BatchOptions::capsize_roll)
  IntegratorSettings<T> integrator{};
  int driver_mode = kDriverOpenLoop;
#define FLEETDYN_STORAGE_MEMBER(sync, name, E, view) std::vector<E> name;
  FLEETDYN_BATCH_ARRAYS(FLEETDYN_STORAGE_MEMBER)
#undef FLEETDYN_STORAGE_MEMBER

  // Empties the arrays that belong to exactly these sync parts (the maneuver tables, a driver's
  // paths and settings) before they are set anew.
  void clear_arrays(unsigned parts) {
#define FLEETDYN_CLEAR_ARRAY(sync, name, E, view) \
  if (static_cast<unsigned>(sync) == parts) name.clear();
    FLEETDYN_BATCH_ARRAYS(FLEETDYN_CLEAR_ARRAY)
#undef FLEETDYN_CLEAR_ARRAY
  }

  // View over this storage (host pointers).
  BatchView<Model, T> view() {
    BatchView<Model, T> v{};
    v.vehicle_count = vehicle_count;
    v.terrain = terrain;
    v.capsize_roll = capsize_roll;
    v.integrator = integrator;
    v.driver.mode = driver_mode;
#define FLEETDYN_VIEW_ARRAY(sync, name, E, view) v.view = data_or_null(name);
    FLEETDYN_BATCH_ARRAYS(FLEETDYN_VIEW_ARRAY)
#undef FLEETDYN_VIEW_ARRAY
#define FLEETDYN_VIEW_COUNT(count, name) v.count = static_cast<int>(name.size());
    FLEETDYN_BATCH_COUNTS(FLEETDYN_VIEW_COUNT)
#undef FLEETDYN_VIEW_COUNT
    return v;
  }
};

// Every (model, scalar type) a batch can have, for the engines' explicit instantiations.
#define FLEETDYN_BATCH_KINDS(X) \
  X(StrutModel, float)          \
  X(StrutModel, double) X(CeModel, float) X(CeModel, double) X(PgsVehicleModel, float) X(PgsVehicleModel, double)

// A backend: steps a batch and keeps its copy of the storage in step with the host's.
template <class Model, class T>
class Engine {
 public:
  virtual ~Engine() = default;
  virtual void upload(const BatchStorage<Model, T>& host, unsigned parts) = 0;
  virtual void step(BatchStorage<Model, T>& host, int steps) = 0;  // may be asynchronous
  virtual void download(BatchStorage<Model, T>& host) = 0;  // vehicles' arrays (and driver state) back to host; synchronizes
  virtual void synchronize() = 0;
  virtual std::string device_name() const = 0;
  // Batch::summary where the engine keeps the vehicles' metrics and status. This default brings
  // `host` up to date and reduces it; the CUDA engine reduces its device copy, downloading nothing.
  virtual BatchSummary summarize(BatchStorage<Model, T>& host, const SummaryPlan& plan) {
    download(host);
    return summarize_host(host.metrics.data(), host.status.data(), plan);
  }
};

}  // namespace fleetdyn
