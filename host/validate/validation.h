// Checks of a model's solver against a dense direct solve of the same equations, per vehicle, on
// the CPU (a small LU) or the GPU (cuBLAS batched LU):
//   ce:  the articulated-body recursion's accelerations against M nu_dot = tau - C assembled
//        from the same body quantities (physics/ce/ce_dense.h);
//   pgs: the projected Gauss-Seidel impulses of the bilateral rows after the configured sweeps
//        against the direct solve of those rows (host/validate/pgs_validation.h).
// docs/design/validation.md says what is checked and why the tolerances are what they are.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "fleetdyn/backend.h"
#include "fleetdyn/batch.h"
#include "fleetdyn/physics/ce/ce_params.h"
#include "fleetdyn/physics/pgs/vehicle.h"

namespace fleetdyn {

// At most this many vehicles per check: the dense systems live on the device all at once (pgs:
// 88 x 88 per vehicle, 6 GB in fp64 for 100000 vehicles).
constexpr int kMaxValidationVehicles = 100000;

struct ValidationResult {
  std::string check;            // what was compared, one line
  std::string error_measure;    // what `error` measures, one line
  std::string tolerance_basis;  // why the tolerance is what it is, one line
  std::vector<double> error;    // [vehicle] the check's error measure; NaN where a solve failed
  std::vector<std::pair<std::string, double>> measurements;  // further numbers of the check, by name
  int worst_vehicle = -1;                                    // the largest error (a NaN counts as the largest)
  double worst = 0.0;
  double tolerance = 0.0;                             // the stated bound for the precision the check ran in
  std::string device;                                 // "cpu" or the GPU's name
  bool passed() const { return worst <= tolerance; }  // false for NaN
};

// Vehicles of the ce model at one instant, as a Batch holds them (Batch::state(), origins()).
struct CeValidationInput {
  std::vector<CeParams<double>> params;     // length 1 (shared) or vehicle count
  TerrainSpec terrain;                      // no per-vehicle variation
  std::vector<double> state;                // [kCeStateSize][N]
  std::vector<double> origin;               // [2][N]
  std::vector<DriverInput<double>> inputs;  // length 1 or N
};

// The states `fleetdyn validate --model ce` checks: `vehicles` HMMWVs whose chassis mass, spring
// rates and tire friction scatter (+-10 %, +-20 %, +-20 %), started at 15 m/s on flat ground and
// driven for 0.3 s on held inputs that differ per vehicle (steer up to +-0.6, throttle, brake on
// every fifth), stepped by a Batch on `backend` in `precision`: rolling, steering, pitching and
// braking states, read back as Batch::state() gives them.
CeValidationInput ce_validation_states(int vehicles, BackendKind backend, Precision precision);

// Vehicle v's parameters and held inputs in those states.
CeParams<double> validation_vehicle(int v);
DriverInput<double> validation_input(int v);

// The bound on the ce check's error (max_relative_difference of the recursion's accelerations
// from the dense solve's, physics/ce/ce_dense.h) in a precision.
double ce_validation_tolerance(Precision precision);

// Runs the ce check for every vehicle of `input` in `precision` on `backend` (Auto: CUDA when a
// device is usable, else the CPU). Throws fleetdyn::Error naming the field on bad input, or when
// CUDA is asked for and unavailable.
ValidationResult validate_ce(const CeValidationInput& input, BackendKind backend, Precision precision);

// Vehicles of the pgs model at one instant, as a Batch holds them.
struct PgsValidationInput {
  std::vector<PgsVehicleParams<double>> params;  // length 1 or N, built for steps of `step`
  double step = 1.0e-3;                          // [s] one core step (the batch's step / substeps)
  TerrainSpec terrain;                           // no per-vehicle variation
  std::vector<double> state;                     // [kPgsVehicleStateSize][N]
  std::vector<double> origin;                    // [2][N]
  std::vector<DriverInput<double>> inputs;       // length 1 or N
};

// The states `fleetdyn validate --model pgs` checks: the vehicles of ce_validation_states as pgs
// vehicles (PgsVehicleDef's defaults: tire forces, 30 sweeps), driven the same way for 0.3 s at
// the pgs step of 1 ms.
PgsValidationInput pgs_validation_states(int vehicles, BackendKind backend, Precision precision);

// The bound on the pgs check's error (the swept bilateral impulses' difference from the direct
// solve's, relative to the largest direct impulse) in a precision.
double pgs_validation_tolerance(Precision precision);

// Steps every vehicle once from its state through the configured sweeps and compares the
// bilateral rows' impulses with the direct solve of those rows (physics/pgs/pgs_dense.h).
// measurements: the worst bilateral velocity residual after the sweeps [m/s, rad/s]. Throws
// fleetdyn::Error naming the field on bad input, or when CUDA is asked for and unavailable.
ValidationResult validate_pgs(const PgsValidationInput& input, BackendKind backend, Precision precision);

// The worst entry of result.error into worst_vehicle and worst (NaN counts as the worst).
void find_worst(ValidationResult& result);

}  // namespace fleetdyn
