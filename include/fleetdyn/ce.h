// The ce model's host API: the HMMWV preset, precision conversion, and rest states.
#pragma once

#include <vector>

#include "fleetdyn/physics/ce/ce_model.h"
#include "fleetdyn/physics/ce/ce_params.h"
#include "fleetdyn/suspension.h"
#include "fleetdyn/vehicle.h"
#include "fleetdyn/vehicle_definition.h"

namespace fleetdyn {

// The HMMWV as the ce model sees it (shared/reference/hmmwv.md): Chrono's bodies and hardpoints,
// Chrono's linear spring rates with free lengths balanced so the design position is the static
// one (Chrono's own free lengths leave it 5 cm (front) and 10 cm (rear, touching the rebound
// stop) in droop: ce_balance_springs_at_design), the piecewise shock,
// the stops, and the shared tire/driveline/brakes of hmmwv_params(). Values and their sources are
// documented in docs/models/ce.md and host/ce/ce_params.cpp.
CeParams<double> hmmwv_ce_params();

// Build ce parameters from a vehicle definition: its corner geometry (make_ce_suspension: throws
// fleetdyn::Error naming the corner when a loop cannot close), the steering mechanism lumped into
// the chassis, the links' inertias turned into the chassis frame, the force elements, the travel
// limits, and the springs balanced at design when the definition asks for it.
// (hmmwv_ce_params() is this with hmmwv_vehicle().)
CeParams<double> make_ce_params(const VehicleDefinition& v);

template <class T>
CeParams<T> convert_ce_params(const CeParams<double>& p);

// Set the front and rear spring free lengths so that the vehicle at rest on flat ground sits at
// its design position (spring rates unchanged). Throws fleetdyn::Error if impossible.
void ce_balance_springs_at_design(CeParams<double>& p);

// Total mass of the vehicle [kg] (chassis, aggregate bodies, wheels).
double ce_total_mass(const CeParams<double>& p);

// A state at rest in static equilibrium on flat ground (height 0), heading along +x at `speed`
// [m/s] with the wheels rolling freely: chassis height, pitch, roll and the four LCA angles are
// found by Newton iteration on the ce accelerations. Throws fleetdyn::Error if it fails.
std::vector<double> ce_rest_state(const CeParams<double>& p, double speed = 0.0);

// The rest state `rest` (from ce_rest_state) placed on `terrain`: its chassis COM's ground point
// moved to world (x, y), turned to heading `yaw` [rad] and tilted onto the surface normal there
// (exact on flat ground and planes, first order on the smooth kinds). Velocities are in chassis
// axes and carry over. Writes the vehicle's local origin (quantized, batch_origin.h); the
// returned state's position is relative to it.
std::vector<double> ce_place_on_terrain(const CeParams<double>& p, const std::vector<double>& rest,
                                        const TerrainDesc<double>& terrain, double x, double y, double yaw,
                                        double* origin_x, double* origin_y);

// Stable RK4 step of the ce model from its linearized eigenvalues (at rest and at 15 m/s,
// brakes off and on), and the default step: the fastest mode resolved (|lambda| dt <= 0.3) and
// within 75 % of the stability limit, rounded down to 1, 2 or 5 x 10^k s (HMMWV: 2 ms).
StepAnalysis ce_step_analysis(const CeParams<double>& p);

// The strut model's lumped parameters for the vehicle a CeParams describes (same total mass, sprung COM, wheel positions
// at rest, wheel rates k_spring MR^2 and damping c MR^2 with motion ratios taken from the ce kinematics at design, spin inertia, tire and driveline), so the two models can be compared on the same vehicle.
StrutParams<double> strut_equivalent_params(const CeParams<double>& p);

}  // namespace fleetdyn
