// The device side of the validation checks (kernels/ce_validate.cu; without CUDA,
// host/validate/validation_cuda_unavailable.cpp), over arrays already in the check's precision.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "fleetdyn/physics/ce/ce_params.h"
#include "fleetdyn/physics/core/driveline.h"
#include "fleetdyn/physics/core/terrain.h"
#include "fleetdyn/physics/pgs/vehicle.h"

namespace fleetdyn {

// The vehicle count of a check's arrays (origin: 2 per vehicle), after checking the others
// against it; throws fleetdyn::Error naming the field, its size and what was expected.
int checked_vehicle_count(const std::vector<double>& origin, std::size_t state_values, int state_size,
                          std::size_t params, std::size_t inputs, std::size_t terrain_variations);
// Throws fleetdyn::Error unless 1 <= vehicles <= kMaxValidationVehicles.
void check_vehicles_argument(int vehicles);

// Held inputs (length 1 or n) as the component-major [3][n] array of the check views.
template <class T>
std::vector<T> input_arrays(const std::vector<DriverInput<double>>& inputs, int n) {
  std::vector<T> a(3 * static_cast<std::size_t>(n));
  for (int v = 0; v < n; ++v) {
    const DriverInput<double>& d = inputs[inputs.size() == 1 ? 0 : v];
    a[v] = T(d.steer);
    a[n + v] = T(d.throttle);
    a[2 * n + v] = T(d.brake);
  }
  return a;
}

// A ce check's batch on the host, in precision T (the layout of CeCheckView, physics/ce/ce_dense.h).
template <class T>
struct CeValidationArrays {
  int vehicle_count = 0;
  std::vector<CeParams<T>> params;
  TerrainDesc<T> terrain{};  // hf_heights is set to the device copy of `heightfield`
  std::vector<T> heightfield;
  std::vector<T> state;   // [ce::kStateSize][N]
  std::vector<T> origin;  // [2][N]
  std::vector<T> inputs;  // [3][N]
};

// Per vehicle: max_relative_difference of the recursion's accelerations from the dense solve's,
// assembled by one thread per vehicle and solved by cuBLAS getrfBatched / getrsBatched; NaN
// where the LU met a zero pivot. `device` receives the GPU's name. Throws fleetdyn::Error when
// no device is usable.
template <class T>
std::vector<T> ce_validate_cuda(const CeValidationArrays<T>& arrays, std::string* device);

// A pgs check's batch on the host, in precision T (the layout of PgsCheckView,
// physics/pgs/pgs_dense.h).
template <class T>
struct PgsValidationArrays {
  int vehicle_count = 0;
  int bilateral = 0;  // bilateral rows per vehicle
  T step = T(0);
  std::vector<PgsVehicleParams<T>> params;
  TerrainDesc<T> terrain{};
  std::vector<T> heightfield;
  std::vector<T> state;   // [pgsv::kStateSize][N]
  std::vector<T> origin;  // [2][N]
  std::vector<T> inputs;  // [3][N]
};

// Per vehicle of a pgs check: the swept bilateral impulses' difference from the direct solve's
// (max_relative_difference) and the sweeps' bilateral residual.
template <class T>
struct PgsCheckErrors {
  std::vector<T> difference, residual;
};

// The pgs check on the GPU: one thread per vehicle steps it through the sweeps and assembles the
// direct system, cuBLAS getrfBatched / getrsBatched solve them. Throws fleetdyn::Error when no
// device is usable.
template <class T>
PgsCheckErrors<T> pgs_validate_cuda(const PgsValidationArrays<T>& arrays, std::string* device);

}  // namespace fleetdyn
