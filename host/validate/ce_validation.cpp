// The ce check (host/validate/validation.h): argument checks, the CPU path (the single-source
// assembly of physics/ce/ce_dense.h and a small LU per vehicle) and the dispatch to the GPU path.
#include <cmath>
#include <limits>
#include <string>

#include "fleetdyn/ce.h"
#include "fleetdyn/error.h"
#include "fleetdyn/physics/ce/ce_dense.h"
#include "host/backend/cuda_engine.h"
#include "host/batch/convert_scalars.h"
#include "host/validate/dense_lu.h"
#include "host/validate/validation.h"
#include "host/validate/validation_engine.h"

namespace fleetdyn {
namespace {

template <class T>
CeValidationArrays<T> to_arrays(const CeValidationInput& in, int n) {
  CeValidationArrays<T> a;
  a.vehicle_count = n;
  for (const CeParams<double>& p : in.params) a.params.push_back(convert_scalars<CeParams, T>(p));
  a.terrain = convert_terrain<T>(in.terrain.desc);
  for (double h : in.terrain.heightfield) a.heightfield.push_back(T(h));
  for (double x : in.state) a.state.push_back(T(x));
  for (double x : in.origin) a.origin.push_back(T(x));
  a.inputs = input_arrays<T>(in.inputs, n);
  return a;
}

template <class T>
std::vector<T> ce_validate_cpu(const CeValidationArrays<T>& a) {
  CeCheckView<T> view{a.vehicle_count, a.params.data(), static_cast<int>(a.params.size()), a.terrain, a.state.data(),
                      a.origin.data(), a.inputs.data()};
  view.terrain.hf_heights = a.heightfield.empty() ? nullptr : a.heightfield.data();
  std::vector<T> error(a.vehicle_count);
  for (int v = 0; v < a.vehicle_count; ++v) {
    T mass[kCeDofs * kCeDofs], rhs[kCeDofs], recursion[kCeDofs];
    ce_dense_check_vehicle(view, v, mass, rhs, recursion);
    error[v] = dense_lu_solve(mass, rhs, kCeDofs) ? ce_check_error(a.params[v % a.params.size()], recursion, rhs)
                                                  : std::numeric_limits<T>::quiet_NaN();
  }
  return error;
}

template <class T>
ValidationResult run_ce(const CeValidationInput& in, int n, bool cuda, Precision precision) {
  const CeValidationArrays<T> arrays = to_arrays<T>(in, n);
  ValidationResult r;
  const std::vector<T> error = cuda ? ce_validate_cuda(arrays, &r.device) : ce_validate_cpu(arrays);
  if (!cuda) r.device = "cpu";
  r.error.assign(error.begin(), error.end());
  r.check = "articulated-body recursion vs dense LU of M nu_dot = tau - C (14 x 14, assembled from the same bodies)";
  r.error_measure = "max |nu_dot difference| / max(max |nu_dot|, g)";
  r.tolerance = ce_validation_tolerance(precision);
  r.tolerance_basis = "3e4 x machine epsilon: cond(M) < 1e3 times a growth allowance of 30";
  find_worst(r);
  return r;
}

}  // namespace

CeValidationInput ce_validation_states(int vehicles, BackendKind backend, Precision precision) {
  check_vehicles_argument(vehicles);
  CeValidationInput in;
  for (int v = 0; v < vehicles; ++v) {
    in.params.push_back(validation_vehicle(v));
    in.inputs.push_back(validation_input(v));
  }
  BatchOptions options;
  options.backend = backend;
  options.precision = precision;
  options.step = 2.0e-3;  // the HMMWV's default ce step (ce_step_analysis)
  Batch batch(in.params, vehicles, in.terrain, options);
  InitialCondition start;
  start.speed = 15.0;
  batch.set_initial_conditions({start});
  batch.set_inputs(in.inputs);
  batch.step(150);
  in.state = batch.state();
  in.origin = batch.origins();
  return in;
}

// kappa(M) stays under 1e3 for the HMMWV (767 at most over the test states), and the error
// measured is at most ~3e3 eps over 1000 vehicles in either precision; 3e4 eps allows a growth of
// 30 beyond kappa (14 unknowns, sums of ~20 body terms per equation).
double ce_validation_tolerance(Precision precision) {
  return 3.0e4 * (precision == Precision::Fp64 ? std::numeric_limits<double>::epsilon()
                                               : static_cast<double>(std::numeric_limits<float>::epsilon()));
}

ValidationResult validate_ce(const CeValidationInput& input, BackendKind backend, Precision precision) {
  const int n = checked_vehicle_count(input.origin, input.state.size(), ce::kStateSize, input.params.size(),
                                      input.inputs.size(), input.terrain.variation.size());
  const bool cuda = backend == BackendKind::Cuda || (backend == BackendKind::Auto && cuda_device_usable(nullptr));
  return precision == Precision::Fp64 ? run_ce<double>(input, n, cuda, precision) : run_ce<float>(input, n, cuda, precision);
}

}  // namespace fleetdyn
