// Host traits of the ce model (the 14-DOF vehicle of docs/models/ce.md): everything the host
// decides for it. Registered in FLEETDYN_VEHICLE_MODELS (fleetdyn/vehicle_models.h).
#pragma once

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "fleetdyn/batch.h"
#include "fleetdyn/ce.h"
#include "fleetdyn/ce_fields.h"
#include "fleetdyn/error.h"
#include "fleetdyn/pgs_vehicle.h"
#include "fleetdyn/physics/ce/ce_batch.h"
#include "host/batch/host_traits_base.h"

namespace fleetdyn {

struct CeEnv;    // host/ce/ce_env.h
struct CeBench;  // host/ce/ce_bench.h

inline constexpr RigidStateLayout ce_rigid_state{ce::kPos, ce::kQuat, ce::kVel, ce::kOmega, ce::kWheelSpin, true};

// Params, Def and a batch's Vehicles: ParamSetVehicles (host/batch/host_traits_base.h).
struct CeHost : ParamSetVehicles<CeParams<double>> {
  static constexpr VehicleModel kModel = VehicleModel::Ce;
  using Model = CeModel;                                      // kernel traits (physics/ce/ce_batch.h)
  static constexpr const char* kParamsTypeName = "CeParams";  // Params in the Python API
  static constexpr int kStateSize = kCeStateSize;
  static constexpr bool kContactRequeryOptional = false;  // queries the terrain at every stage
  static constexpr bool kHasEnv = true;                   // a vector env (fleetdyn/vector_env.h)
  using Env = CeEnv;                                      // its vector env support (host/ce/ce_env.h)
  using Bench = CeBench;                                  // `fleetdyn bench` (host/ce/ce_bench.h)
  static constexpr bool kTakesPgsSolver = false;          // a scenario's `pgs:` section

  // ---- parameters by name (scenarios, studies, `fleetdyn params`) ----
  // Every preset has both forms; the HMMWV is the only one so far (the name is checked against
  // the strut presets).
  static Params preset(const std::string& name) {
    vehicle_preset(name);
    return hmmwv_ce_params();
  }
  static Params from_definition(const VehicleDefinition& v) {
    Params p = make_ce_params(v);
    finalize_ce_params(p);
    return p;
  }
  static const std::vector<VehicleParamField>& fields() { return ce_param_fields(); }
  static double* field_ptr(Params& p, const std::string& name) { return ce_param_ptr(p, name); }
  static double field(const Params& p, const std::string& name) { return ce_param(p, name); }
  static void finalize(Params& p) { finalize_ce_params(p); }
  // The check at every way in (Batch): the shared part (the rest is checked by finalize).
  static void check(const Params& p, const std::string& what) { check_vehicle_common(p, what); }
  static StepAnalysis step_analysis(const Params& p) { return ce_step_analysis(p); }
  // [m] across the outer tire faces: the wider design track (left minus right wheel centre)
  // plus a tire width (a study's lane events).
  static double vehicle_width(const Params& p) {
    const auto track = [&p](int left) {
      return p.corner[left].design.wheel_centre.y - p.corner[left + 1].design.wheel_centre.y;
    };
    return std::max(track(0), track(2)) + p.tire.width;
  }
  template <class T>
  static typename Model::template Params<T> to_precision(const Params& p) {
    return convert_ce_params<T>(p);
  }
  // Vehicle v's parameters as a batch holds them.
  static const Params& batch_params(const Batch& b, int v) { return b.ce_params(v); }

  // ---- a batch's vehicles (host/batch/batch_model.h) ----
  static const StrutParams<double>* strut_params(const Vehicles&, int) { return nullptr; }
  static const CeParams<double>* ce_params(const Vehicles& vs, int v) { return &vehicle_entry(vs.params, v); }

  // Placing vehicles at rest on the terrain (Batch::set_initial_conditions): a Newton rest state
  // (~0.2 ms each). With one shared parameter set, one per distinct speed, solved up front; with
  // per-vehicle sets, one per vehicle, solved in parallel by the batch.
  struct Placement {
    bool parallel = false;
    std::map<double, std::vector<double>> rest_by_speed;  // shared parameter set only
  };
  static Placement rest_placement(const std::vector<Params>& params, const std::vector<InitialCondition>& initial) {
    Placement out;
    out.parallel = params.size() != 1;
    if (out.parallel) return out;
    for (int v = 0; v < static_cast<int>(initial.size()); ++v) {
      std::vector<double>& rest = out.rest_by_speed[initial[static_cast<size_t>(v)].speed];
      if (rest.empty()) {
        try {
          rest = ce_rest_state(params[0], initial[static_cast<size_t>(v)].speed);
        } catch (const Error& e) {
          throw Error("initial conditions: vehicle " + std::to_string(v) + ": " + e.what());
        }
      }
    }
    return out;
  }
  // The ce state of vehicle v at rest on the terrain (throws fleetdyn::Error).
  static std::vector<double> rest_on_terrain(const Params& p, const Placement& pl, const InitialCondition& ic,
                                             const TerrainDesc<double>& terrain, double* origin_x, double* origin_y) {
    const std::vector<double> rest = pl.parallel ? ce_rest_state(p, ic.speed) : pl.rest_by_speed.at(ic.speed);
    std::vector<double> s = ce_place_on_terrain(p, rest, terrain, ic.x, ic.y, ic.yaw, origin_x, origin_y);
    s[ce::kVel + 1] += ic.lateral_speed;  // chassis axes: the whole vehicle slides sideways
    return s;
  }
  static Placement placement(const Vehicles& vs, const std::vector<InitialCondition>& initial) {
    return rest_placement(vs.params, initial);
  }
  static void place(const Vehicles& vs, const Placement& pl, int v, const InitialCondition& ic,
                    const TerrainDesc<double>& terrain, std::vector<double>& s, double* origin_x, double* origin_y) {
    try {
      s = rest_on_terrain(vehicle_entry(vs.params, v), pl, ic, terrain, origin_x, origin_y);
    } catch (const Error& e) {
      throw Error("initial conditions: vehicle " + std::to_string(v) + ": " + e.what());
    }
  }

  // Read-back (Batch::snapshots): a rigid-body state holding the chassis frame origin and its
  // velocity in chassis axes; the snapshot gives the chassis COM and its world velocity.
  static constexpr const RigidStateLayout* kRigidState = &ce_rigid_state;
  static Vec3<double> com_offset(const Vehicles& vs, int v) { return vehicle_entry(vs.params, v).chassis_com; }
  static double mechanical_energy(const Vehicles& vs, int v, const TerrainDesc<double>& ground, double origin_x,
                                  double origin_y, const std::vector<double>& s) {
    const CeEnvironment<double> env{&ground, origin_x, origin_y};
    return ce_energy(vehicle_entry(vs.params, v), env, s.data());
  }
};

}  // namespace fleetdyn
