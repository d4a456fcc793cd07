// Batch: the checks of its arguments, each naming the bad value (fleetdyn::Error).
#include <cmath>
#include <string>
#include <vector>

#include "fleetdyn/physics/core/math.h"
#include "fleetdyn/physics/core/terrain_soil.h"
#include "host/batch/batch_impl.h"

namespace fleetdyn {

void check_batch_options(const BatchOptions& o, VehicleModel model, bool contact_requery_optional) {
  if (!(o.step > 0.0) || !(o.step < 1.0)) throw Error("step must be in (0, 1) s, got " + std::to_string(o.step));
  if (o.substeps < 1 || o.substeps > kMaxSubsteps) {
    throw Error("substeps must be in [1, " + std::to_string(kMaxSubsteps) + "], got " + std::to_string(o.substeps));
  }
  if (o.cpu_threads < 0 || o.cpu_threads > kMaxCpuThreads) {
    throw Error("cpu_threads must be in [0, " + std::to_string(kMaxCpuThreads) + "] (0: all hardware threads), got " +
                std::to_string(o.cpu_threads));
  }
  if (!contact_requery_optional && !o.requery_contact) {
    throw Error(std::string("requery_contact = false is a strut option: the ") + model_name(model) +
                " model queries the terrain at every stage");
  }
}

void check_capsize_roll(const BatchOptions& o) {
  if (!(o.capsize_roll >= 0.0 && o.capsize_roll <= kPi)) {
    throw Error("capsize_roll must be in [0, pi] rad (0: never), got " + std::to_string(o.capsize_roll));
  }
}

void check_terrain(const TerrainSpec& t, int n) {
  if (!t.variation.empty() && t.variation.size() != static_cast<size_t>(n)) {
    throw Error("terrain: variation has " + std::to_string(t.variation.size()) +
                " entries, expected none or one per vehicle (" + std::to_string(n) + ")");
  }
  for (size_t v = 0; v < t.variation.size(); ++v) {
    const TerrainVariation<double>& x = t.variation[v];
    if (!std::isfinite(x.shift_x) || !std::isfinite(x.shift_y) || !std::isfinite(x.relief_scale) ||
        !std::isfinite(x.curb_rise) || !std::isfinite(x.curb_offset)) {
      throw Error("terrain: variation of vehicle " + std::to_string(v) + " has a non-finite value");
    }
    if (x.soil_varied) {
      try {
        check_soil_params(x.soil);
      } catch (const Error& e) {
        throw Error("terrain: variation of vehicle " + std::to_string(v) + ": " + e.what());
      }
    }
  }
  if (t.desc.soil_region) check_terrain_soil(t.desc);
  if (t.desc.kind == TerrainKind::Heightfield) {
    const long long expected = static_cast<long long>(t.desc.hf_nx) * t.desc.hf_ny;
    if (t.desc.hf_nx < 1 || t.desc.hf_ny < 1 || expected != static_cast<long long>(t.heightfield.size())) {
      throw Error("terrain: heightfield has " + std::to_string(t.heightfield.size()) +
                  " samples, expected nx*ny = " + std::to_string(expected));
    }
    if (!(t.desc.hf_dx > 0.0) || !(t.desc.hf_dy > 0.0)) throw Error("terrain: heightfield spacing must be positive");
    if (t.desc.hf_periodic && (t.desc.hf_nx < 2 || t.desc.hf_ny < 2)) {
      throw Error("terrain: a periodic heightfield needs at least 2 x 2 samples");
    }
  }
}

void check_maneuvers(const std::vector<Maneuver>& tables, const std::vector<int>& vehicle_table, int n) {
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
    if (vehicle_table.size() != static_cast<size_t>(n)) {
      throw Error("maneuver: vehicle_table must have one entry per vehicle");
    }
    for (int t : vehicle_table) {
      if (t < 0 || t >= static_cast<int>(tables.size()))
        throw Error("maneuver: table index " + std::to_string(t) + " out of range");
    }
  }
}

}  // namespace fleetdyn
