// What the per-model traits (host/<model>/<model>_host.h) share: a batch's read-backs, and the
// vehicles of the models that are just their parameter sets.
#pragma once

#include <vector>

#include "fleetdyn/batch.h"
#include "fleetdyn/pgs_vehicle.h"
#include "fleetdyn/physics/core/math.h"
#include "fleetdyn/physics/strut/strut_params.h"

namespace fleetdyn {

// Where a rigid-body state (strut, ce) holds the vehicle frame's pose and motion: position,
// attitude quaternion, velocity, body rates and the 4 wheel spins. frame_off_com: the frame is not
// the body COM (ce: the chassis frame origin, its velocity in chassis axes; the COM sits at the
// traits' com_offset in it); otherwise the frame is the COM with its world velocity (strut).
struct RigidStateLayout {
  int pos, quat, vel, omega, wheel_spin;
  bool frame_off_com;
};

// The parameter set of vehicle v: one shared by all, or one per vehicle.
template <class P>
const P& vehicle_entry(const std::vector<P>& values, int v) {
  return values[static_cast<size_t>(v) % values.size()];
}

// The part of a model's traits where its vehicles are just their parameter sets (strut, ce): a
// batch holds one set, shared, or one per vehicle, and the kernels read them as they are.
template <class ParamsT>
struct ParamSetVehicles {
  using Params = ParamsT;  // the parameters named in scenarios and results.csv
  using Def = Params;      // what Batch's constructor takes per vehicle
  // The tire, driveline and brakes every model shares.
  static const VehicleCommon<double>& common(const Params& p) { return p; }
  // A batch's vehicles from their parameter sets (the pgs solver settings do not apply).
  static std::vector<Def> batch_defs(std::vector<Params> p, const PgsVehicleDef&) { return p; }

  // ---- a batch's vehicles (host/batch/batch_model.h) ----
  struct Vehicles {
    std::vector<Params> params;
  };
  static Vehicles vehicles(std::vector<Def> defs) { return {std::move(defs)}; }
  static size_t count(const Vehicles& vs) { return vs.params.size(); }
  static const VehicleCommon<double>& common(const Vehicles& vs, int v) { return vehicle_entry(vs.params, v); }
  static const Params& checked_params(const Vehicles& vs, int v) { return vehicle_entry(vs.params, v); }
  static const PgsVehicleParams<double>* pgs_params(const Vehicles&, int) { return nullptr; }
  // Once the batch's options and terrain are known (nothing to build).
  static void prepare(Vehicles&, const BatchOptions&, const TerrainDesc<double>&) {}
  static const std::vector<Params>& kernel_params(const Vehicles& vs) { return vs.params; }
  // Read-back: the traits' kRigidState says it all.
  static void snapshot(const Vehicles&, int, const double*, double, double, VehicleSnapshot&) {}
};

}  // namespace fleetdyn
