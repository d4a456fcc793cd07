// The strut model's vehicle presets and parameter access by name (host API).
#pragma once

#include <string>
#include <vector>

#include "fleetdyn/physics/strut/strut_model.h"  // EnergyLedger, StrutDiagnostics: Batch::energy(), diagnostics()
#include "fleetdyn/physics/strut/strut_params.h"
#include "fleetdyn/vehicle_common.h"

namespace fleetdyn {

// The HMMWV preset from ../shared/reference/hmmwv.md (Chrono's HMMWV data), finalized.
// How every number was obtained is documented in docs/models/strut.md and host/strut/strut_params.cpp.
StrutParams<double> hmmwv_params();

// Names of the built-in presets ("hmmwv").
std::vector<std::string> vehicle_preset_names();
// Preset by name; throws fleetdyn::Error naming the unknown preset and the known ones.
StrutParams<double> vehicle_preset(const std::string& name);

// Recompute the derived fields (body mass, strut mounts, preloads, per-corner arrays, bushing
// damping) after changing any overridable field. Throws fleetdyn::Error (check_vehicle_params)
// if a field is out of range or the parameters are inconsistent.
void finalize_vehicle_params(StrutParams<double>& p);

// The one check of a strut parameter set, at every way in (finalize, Batch, the vector env,
// Python): every overridable field finite and within its [min, max] (vehicle_param_fields: the
// strut's own, then check_vehicle_common), the masses and heights consistent, the model's
// parts 0 or 1 and their linkage curves present. Throws fleetdyn::Error
// "WHAT: FIELD = VALUE UNIT is outside [MIN, MAX]" (or the inconsistency).
void check_vehicle_params(const StrutParams<double>& p, const std::string& what);

// The overridable scalar fields, from FLEETDYN_VEHICLE_PARAM_FIELDS.
const std::vector<VehicleParamField>& vehicle_param_fields();
// Pointer to a field by name, or null if there is no such field.
double* vehicle_param_ptr(StrutParams<double>& p, const std::string& name);
double vehicle_param(const StrutParams<double>& p, const std::string& name);

// The strut model's step limits, from the eigenvalues of the model linearized (fp64, central
// differences) at rest and rolling at 15 m/s on flat ground, brakes off and on: the fastest
// eigenvalue magnitude, the largest step for which classic RK4 is stable for every eigenvalue
// (|R(lambda dt)| <= 1), and the default step: 75 % of that limit rounded down to 1, 2 or
// 5 x 10^k s. For the HMMWV: |lambda|max ~ 1950 1/s (overdamped lateral bushing mode of the
// four wheels with body yaw), RK4 limit ~ 1.43 ms (braked, at rest),
// default 1 ms. See docs/models/strut.md.
struct StepAnalysis {
  double stiffest_rate;    // [1/s]
  double rk4_stable_step;  // [s]
  double default_step;     // [s]
};
StepAnalysis strut_step_analysis(const StrutParams<double>& p);
double strut_default_step(const StrutParams<double>& p);

// Convert a finalized double-precision parameter set to another scalar type.
template <class T>
StrutParams<T> convert_params(const StrutParams<double>& p);

}  // namespace fleetdyn
