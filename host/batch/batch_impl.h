// Batch's state: model-independent (terrain, options, backend, the typed engine) plus the
// per-model part (host/batch/batch_model.h). Shared by the Batch sources (batch.cpp: construction and
// stepping; batch_vehicles.cpp: placing and reading vehicles; batch_checks.cpp: argument checks).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "fleetdyn/batch.h"
#include "fleetdyn/error.h"
#include "host/batch/batch_model.h"

namespace fleetdyn {

// The argument checks of a batch's construction (host/batch/batch_checks.cpp); throw fleetdyn::Error.
void check_batch_options(const BatchOptions& o, VehicleModel model, bool contact_requery_optional);
void check_terrain(const TerrainSpec& t, int n);
void check_capsize_roll(const BatchOptions& o);
void check_maneuvers(const std::vector<Maneuver>& tables, const std::vector<int>& vehicle_table, int n);

struct Batch::Impl {
  std::unique_ptr<BatchModel> vehicles;  // the model's part: parameters and per-model work
  TerrainSpec terrain;
  BatchOptions options;
  BackendKind backend = BackendKind::Cpu;
  std::string device;
  int vehicle_count = 0;
  std::unique_ptr<TypedBatch> typed;

  VehicleModel model() const { return vehicles->model(); }
  // The terrain vehicle v meets (TerrainSpec::variation), as the engines' vehicle_terrain.
  TerrainDesc<double> terrain_of(int v) const {
    return terrain.variation.empty() ? terrain.desc
                                     : varied_terrain(terrain.desc, terrain.variation[static_cast<size_t>(v)]);
  }
  int state_size() const { return vehicles->state_size(); }
  // The strut-only read-backs `what` (energy(), diagnostics()) refuse other models.
  void require_strut(const char* what) const {
    if (!vehicles->strut_params(0)) {
      throw Error(std::string(what) + " is available for the strut model only (this batch runs '" +
                  model_name(model()) + "')");
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
    check_length(values.size(), what);
  }
  void check_length(size_t size, const char* what) const {
    if (size != 1 && size != static_cast<size_t>(vehicle_count)) {
      throw Error(std::string(what) + ": expected 1 or " + std::to_string(vehicle_count) + " entries, got " +
                  std::to_string(size));
    }
  }
  // Vehicle v's column of a [fields][n] array.
  std::vector<double> column(const std::vector<double>& soa, int v, int fields) const {
    std::vector<double> col(fields);
    for (int j = 0; j < fields; ++j) col[j] = soa[static_cast<size_t>(j) * vehicle_count + v];
    return col;
  }
};

}  // namespace fleetdyn
