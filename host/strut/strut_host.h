// Host traits of the strut model (docs/models/strut.md): everything the host decides for it, from
// its parameters by name to placing a vehicle on the terrain and reading it back. Registered in
// FLEETDYN_VEHICLE_MODELS (fleetdyn/vehicle_models.h); host/batch/vehicle_models.h dispatches to it.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "fleetdyn/batch.h"
#include "fleetdyn/pgs_vehicle.h"
#include "fleetdyn/physics/strut/strut_batch.h"
#include "fleetdyn/physics/strut/strut_initial.h"
#include "fleetdyn/vehicle.h"
#include "fleetdyn/vehicle_definition.h"
#include "host/batch/host_traits_base.h"

namespace fleetdyn {

struct StrutEnv;    // host/strut/strut_env.h
struct StrutBench;  // host/strut/strut_bench.h

inline constexpr RigidStateLayout strut_rigid_state{strut::kPos,   strut::kQuat,      strut::kVel,
                                                    strut::kOmega, strut::kWheelSpin, false};

// Params, Def and a batch's Vehicles: ParamSetVehicles (host/batch/host_traits_base.h).
struct StrutHost : ParamSetVehicles<StrutParams<double>> {
  static constexpr VehicleModel kModel = VehicleModel::Strut;
  using Model = StrutModel;                                      // kernel traits (physics/strut/strut_batch.h)
  static constexpr const char* kParamsTypeName = "StrutParams";  // Params in the Python API
  static constexpr int kStateSize = kStrutStateSize;
  static constexpr bool kContactRequeryOptional = true;  // BatchOptions::requery_contact = false allowed
  static constexpr bool kHasEnv = true;                  // a vector env (fleetdyn/vector_env.h)
  using Env = StrutEnv;                                  // its vector env support (host/strut/strut_env.h)
  using Bench = StrutBench;                              // `fleetdyn bench` (host/strut/strut_bench.h)
  static constexpr bool kTakesPgsSolver = false;         // a scenario's `pgs:` section

  // ---- parameters by name (scenarios, studies, `fleetdyn params`) ----
  static Params preset(const std::string& name) { return vehicle_preset(name); }
  // A vehicle definition (vehicle files) as strut parameters: its lumped equivalent.
  static Params from_definition(const VehicleDefinition& v) { return strut_params_from_definition(v); }
  static const std::vector<VehicleParamField>& fields() { return vehicle_param_fields(); }
  static double* field_ptr(Params& p, const std::string& name) { return vehicle_param_ptr(p, name); }
  static double field(const Params& p, const std::string& name) { return vehicle_param(p, name); }
  static void finalize(Params& p) { finalize_vehicle_params(p); }
  // The check at every way in (Batch): the whole parameter set.
  static void check(const Params& p, const std::string& what) { check_vehicle_params(p, what); }
  static StepAnalysis step_analysis(const Params& p) { return strut_step_analysis(p); }
  // [m] across the outer tire faces: the wider track plus a tire width (a study's lane events).
  static double vehicle_width(const Params& p) { return std::max(p.track_front, p.track_rear) + p.tire.width; }
  template <class T>
  static typename Model::template Params<T> to_precision(const Params& p) {
    return convert_params<T>(p);
  }
  // Vehicle v's parameters as a batch holds them.
  static const Params& batch_params(const Batch& b, int v) { return b.params(v); }

  // ---- a batch's vehicles (host/batch/batch_model.h) ----
  static const StrutParams<double>* strut_params(const Vehicles& vs, int v) { return &vehicle_entry(vs.params, v); }
  static const CeParams<double>* ce_params(const Vehicles&, int) { return nullptr; }

  // Placing vehicles at rest on the terrain (Batch::set_initial_conditions): cheap, one thread.
  struct Placement {
    bool parallel = false;
  };
  static Placement placement(const Vehicles&, const std::vector<InitialCondition>&) { return {}; }
  static void place(const Vehicles& vs, const Placement&, int v, const InitialCondition& ic,
                    const TerrainDesc<double>& terrain, std::vector<double>& s, double* origin_x, double* origin_y) {
    strut_initial_state(vehicle_entry(vs.params, v), terrain, ic.x, ic.y, ic.yaw, ic.speed, s.data(), origin_x,
                        origin_y, ic.lateral_speed);
  }

  // Read-back (Batch::snapshots): a rigid-body state whose frame is the body COM.
  static constexpr const RigidStateLayout* kRigidState = &strut_rigid_state;
  static Vec3<double> com_offset(const Vehicles&, int) { return {}; }
  static double mechanical_energy(const Vehicles& vs, int v, const TerrainDesc<double>& ground, double origin_x,
                                  double origin_y, const std::vector<double>& s) {
    return strut_energy(vehicle_entry(vs.params, v), ground, origin_x, origin_y, s.data()).total();
  }
};

}  // namespace fleetdyn
