// Vehicle presets and parameter access by name (host API).
#pragma once

#include <string>
#include <vector>

#include "fleetdyn/physics/vehicle_params.h"

namespace fleetdyn {

// The HMMWV preset from ../shared/reference/hmmwv.md (Chrono's HMMWV data), finalized.
// How every number was obtained is documented in docs/models/strut.md and host/vehicle_params.cpp.
VehicleParams<double> hmmwv_params();

// Names of the built-in presets ("hmmwv").
std::vector<std::string> vehicle_preset_names();
// Preset by name; throws fleetdyn::Error naming the unknown preset and the known ones.
VehicleParams<double> vehicle_preset(const std::string& name);

// Recompute the derived fields (body mass, strut mounts, preloads, per-corner arrays, bushing
// damping) after changing any overridable field. Throws fleetdyn::Error if the parameters are
// inconsistent (e.g. the unsprung masses exceed the total mass).
void finalize_vehicle_params(VehicleParams<double>& p);

// The overridable scalar fields, from FLEETDYN_VEHICLE_PARAM_FIELDS.
struct VehicleParamField {
  const char* name;
  const char* unit;
  double min, max;
  const char* description;
};
const std::vector<VehicleParamField>& vehicle_param_fields();
// Pointer to a field by name, or null if there is no such field.
double* vehicle_param_ptr(VehicleParams<double>& p, const std::string& name);
double vehicle_param(const VehicleParams<double>& p, const std::string& name);

// Fastest eigenvalue magnitude [1/s] of the strut model's linearized dynamics, estimated per
// mode (bushing with the reduced wheel/body mass, tire vertical, strut damper, wheel lock), and
// the default step derived from it: RK4 is stable for |lambda| dt < 2.785 on the real axis; the
// default keeps |lambda| dt <= 1.2 for accuracy and margin. See docs/models/strut.md.
double strut_stiffest_rate(const VehicleParams<double>& p);
double strut_default_step(const VehicleParams<double>& p);

// Convert a finalized double-precision parameter set to another scalar type.
template <class T>
VehicleParams<T> convert_params(const VehicleParams<double>& p);

}  // namespace fleetdyn
