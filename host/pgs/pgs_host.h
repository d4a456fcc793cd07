// Host traits of the pgs model: ce's vehicle in maximal coordinates, stepped by the projected
// Gauss-Seidel solver (fleetdyn/pgs_vehicle.h, docs/models/pgs.md). It is built from ce's
// parameters, so it shares ce's parameters by name. It has no vector env. Registered in
// FLEETDYN_VEHICLE_MODELS (fleetdyn/vehicle_models.h).
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "fleetdyn/batch.h"
#include "fleetdyn/error.h"
#include "fleetdyn/pgs_vehicle.h"
#include "fleetdyn/physics/pgs/pgs_vehicle_batch.h"
#include "host/batch/host_traits_base.h"
#include "host/ce/ce_host.h"

namespace fleetdyn {

struct PgsBench;  // host/pgs/pgs_bench.h

struct PgsHost {
  static constexpr VehicleModel kModel = VehicleModel::Pgs;
  using Model = PgsVehicleModel;                              // kernel traits (physics/pgs/pgs_vehicle_batch.h)
  using Params = CeParams<double>;                            // the parameters named in scenarios and results.csv: ce's
  using Def = PgsVehicleDef;                                  // what Batch's constructor takes per vehicle
  static constexpr const char* kParamsTypeName = "CeParams";  // Params in the Python API
  static constexpr int kStateSize = kPgsVehicleStateSize;
  static constexpr bool kContactRequeryOptional = false;  // queries the terrain at every stage
  static constexpr bool kHasEnv = false;                  // no vector env: refused by name
  using Env = void;                                       // no vector env
  using Bench = PgsBench;                                 // `fleetdyn bench` (host/pgs/pgs_bench.h)
  static constexpr bool kTakesPgsSolver = true;           // a scenario's `pgs:` section

  // ---- parameters by name (scenarios, studies, `fleetdyn params`): ce's ----
  static Params preset(const std::string& name) { return CeHost::preset(name); }
  static Params from_definition(const VehicleDefinition& v) { return CeHost::from_definition(v); }
  static const std::vector<VehicleParamField>& fields() { return CeHost::fields(); }
  static double* field_ptr(Params& p, const std::string& name) { return CeHost::field_ptr(p, name); }
  static double field(const Params& p, const std::string& name) { return CeHost::field(p, name); }
  static void finalize(Params& p) { CeHost::finalize(p); }
  // Semi-implicit, not RK4: no RK4 stability bound; 1 ms, the step it is validated at
  // (docs/models/pgs.md), or ce's default if that is shorter.
  static StepAnalysis step_analysis(const Params& p) {
    StepAnalysis a = ce_step_analysis(p);
    a.default_step = std::min(a.default_step, 1.0e-3);
    return a;
  }
  static const VehicleCommon<double>& common(const Params& p) { return CeHost::common(p); }
  static void check(const Params& p, const std::string& what) { CeHost::check(p, what); }
  static double vehicle_width(const Params& p) { return CeHost::vehicle_width(p); }
  template <class T>
  static typename Model::template Params<T> to_precision(const PgsVehicleParams<double>& p) {
    return convert_pgs_vehicle_params<T>(p);
  }
  // A batch's vehicles: each a copy of the solver settings' whole def (new settings flow too)
  // with its own ce parameters.
  static std::vector<Def> batch_defs(std::vector<Params> p, const PgsVehicleDef& solver) {
    std::vector<Def> defs(p.size(), solver);
    for (size_t v = 0; v < p.size(); ++v) defs[v].vehicle = p[v];
    return defs;
  }
  // Vehicle v's ce parameters as a batch holds them (pgs_vehicle_rest_params).
  static const Params& batch_params(const Batch& b, int v) { return b.ce_params(v); }

  // ---- a batch's vehicles (host/batch/batch_model.h) ----
  struct Vehicles {
    std::vector<Def> defs;
    std::vector<CeParams<double>> ce;              // the vehicles the bodies are built from
    std::vector<PgsVehicleParams<double>> bodies;  // built by prepare for the step
  };
  static Vehicles vehicles(std::vector<Def> defs) {
    Vehicles vs;
    vs.defs = std::move(defs);
    for (const Def& d : vs.defs) vs.ce.push_back(pgs_vehicle_rest_params(d));
    return vs;
  }
  static size_t count(const Vehicles& vs) { return vs.defs.size(); }
  static const VehicleCommon<double>& common(const Vehicles& vs, int v) {
    return CeHost::common(vehicle_entry(vs.defs, v).vehicle);
  }
  static const Params& checked_params(const Vehicles& vs, int v) { return vehicle_entry(vs.defs, v).vehicle; }
  static const StrutParams<double>* strut_params(const Vehicles&, int) { return nullptr; }
  static const CeParams<double>* ce_params(const Vehicles& vs, int v) { return &vehicle_entry(vs.ce, v); }
  static const PgsVehicleParams<double>* pgs_params(const Vehicles& vs, int v) { return &vehicle_entry(vs.bodies, v); }
  // The bodies and joints for the batch's pgs step (BatchOptions::step / substeps).
  static void prepare(Vehicles& vs, const BatchOptions& o, const TerrainDesc<double>& terrain) {
    vs.bodies.clear();
    for (const Def& def : vs.defs)
      vs.bodies.push_back(build_pgs_vehicle_params<double>(def, o.step / o.substeps, terrain));
  }
  static const std::vector<PgsVehicleParams<double>>& kernel_params(const Vehicles& vs) { return vs.bodies; }

  // Placing vehicles at rest: the ce rest state of the vehicle each is built from, mapped onto
  // its bodies.
  using Placement = CeHost::Placement;
  static Placement placement(const Vehicles& vs, const std::vector<InitialCondition>& initial) {
    return CeHost::rest_placement(vs.ce, initial);
  }
  static void place(const Vehicles& vs, const Placement& pl, int v, const InitialCondition& ic,
                    const TerrainDesc<double>& terrain, std::vector<double>& s, double* origin_x, double* origin_y) {
    try {
      s = CeHost::rest_on_terrain(vehicle_entry(vs.ce, v), pl, ic, terrain, origin_x, origin_y);
      s = pgs_vehicle_state_from_ce(vehicle_entry(vs.bodies, v), s);
    } catch (const Error& e) {
      throw Error("initial conditions: vehicle " + std::to_string(v) + ": " + e.what());
    }
  }

  // Read-back (Batch::snapshots): the chassis body's COM and motion in the chassis frame's
  // attitude, from the bodies' state.
  static constexpr const RigidStateLayout* kRigidState = nullptr;
  static Vec3<double> com_offset(const Vehicles&, int) { return {}; }
  static void snapshot(const Vehicles& vs, int v, const double* s, double origin_x, double origin_y, VehicleSnapshot& snap) {
    const PgsChassisMotion m = pgs_vehicle_chassis_motion(vehicle_entry(vs.bodies, v), s);
    const Mat3<double>& r = m.rotation;
    snap.position = {origin_x + m.com.x, origin_y + m.com.y, m.com.z};
    snap.euler = {std::atan2(r.m[2][1], r.m[2][2]), std::asin(std::max(-1.0, std::min(1.0, -r.m[2][0]))),
                  std::atan2(r.m[1][0], r.m[0][0])};  // ZYX, as euler_zyx
    snap.velocity = {m.velocity.x, m.velocity.y, m.velocity.z};
    snap.omega_body = {m.omega_body.x, m.omega_body.y, m.omega_body.z};
    for (int i = 0; i < kCorners; ++i) snap.wheel_spin[i] = m.wheel_spin[i];
  }
  static double mechanical_energy(const Vehicles& vs, int v, const TerrainDesc<double>& ground, double origin_x,
                                  double origin_y, const std::vector<double>& s) {
    return pgs_vehicle_energy(vehicle_entry(vs.bodies, v), ground, origin_x, origin_y, s);
  }
};

}  // namespace fleetdyn
