// The pgs vehicle's equality rows solved directly, single source (host and device, float or
// double): after one step's projected Gauss-Seidel sweeps (physics/pgs/solve.h), the bilateral
// rows' impulses lambda_B against the exact solution of the same rows,
//   (J_B M^-1 J_B^T + C_B) lambda_B = target_B - J_B V_other,
// where C_B is the rows' compliance (the regularization the sweeps use: J v + c lambda = target)
// and V_other = V - M^-1 J_B^T lambda_B are the body velocities with every other row's impulse
// (hinge limits, contacts) held at its swept value. This is the fixed point the sweeps approach:
// the difference shows how far the configured sweeps are from it. Solved on the CPU with a small
// LU (host/validate/dense_lu.h), on the GPU with cuBLAS batched LU (kernels/pgs_validate.cu).
#pragma once

#include "fleetdyn/physics/core/config.h"
#include "fleetdyn/physics/pgs/layout.h"
#include "fleetdyn/physics/pgs/model.h"
#include "fleetdyn/physics/pgs/rows.h"
#include "fleetdyn/physics/pgs/solve.h"
#include "fleetdyn/physics/pgs/vehicle.h"

namespace fleetdyn {
namespace pgs {

// J_r M^-1 J_s^T: row r's Jacobian against row s's stored M^-1 J^T, over the bodies they share.
template <class T>
FLEETDYN_FN T row_coupling(Strided<T> scratch, const RowInfo& ir, int r, const RowInfo& is, int s) {
  const int br = row_scratch(r, 0), bs = row_scratch(s, 0);
  const int bodies_r[2] = {ir.body_a, ir.body_b}, bodies_s[2] = {is.body_a, is.body_b};
  T sum = T(0);
  for (int side_r = 0; side_r < 2; ++side_r) {
    if (bodies_r[side_r] < 0) continue;
    for (int side_s = 0; side_s < 2; ++side_s) {
      if (bodies_s[side_s] != bodies_r[side_r]) continue;
      for (int k = 0; k < 6; ++k) sum += scratch[br + kJ + 6 * side_r + k] * scratch[bs + kMinvJt + 6 * side_s + k];
    }
  }
  return sum;
}

// The number of bilateral rows in a row table (the size of the direct system).
FLEETDYN_FN int bilateral_row_count(const RowInfo* rows, int row_count) {
  int n = 0;
  for (int r = 0; r < row_count; ++r) n += rows[r].kind == kRowBilateral ? 1 : 0;
  return n;
}

// The direct system of the bilateral rows from a solved scratch: `a` (nb x nb, symmetric, so
// row- and column-major alike), `rhs` and the swept impulses `lambda`, in row-table order of the
// bilateral rows (nb = bilateral_row_count). A singular row (never acting) gets the identity row
// and a zero right-hand side: its exact impulse is its swept one, 0.
template <class T>
FLEETDYN_FN void bilateral_system(const ModelView<T>& m, Strided<T> scratch, int nb, T* a, T* rhs, T* lambda) {
  int index[pgsv::kMaxRows];
  int k = 0;
  for (int r = 0; r < m.row_count && k < nb; ++r) {
    if (m.rows[r].kind == kRowBilateral) index[k++] = r;
  }
  for (int i = 0; i < nb; ++i) {
    const int r = index[i];
    const RowInfo& ir = m.rows[r];
    const int br = row_scratch(r, 0);
    const bool acting = scratch[br + kEffMass] > T(0);
    lambda[i] = scratch[br + kLambda];
    // target - J_r V + J_r M^-1 J_B^T lambda_B: the velocity error against V_other.
    T b = scratch[br + kTarget] - row_velocity(scratch, m.row_count, r, ir);
    for (int j = 0; j < nb; ++j) {
      const int s = index[j];
      const RowInfo& is = m.rows[s];
      const bool acting_s = scratch[row_scratch(s, kEffMass)] > T(0);
      T c = acting && acting_s ? row_coupling(scratch, ir, r, is, s) : T(0);
      if (acting && acting_s) b += c * scratch[row_scratch(s, kLambda)];
      if (i == j) c = acting ? c + scratch[br + kCompliance] : T(1);
      a[i * nb + j] = c;
    }
    rhs[i] = acting ? b : T(0);
  }
}

}  // namespace pgs

// A batch of pgs vehicles to check, structure-of-arrays like the batch (BatchView): state, origin
// and input of vehicle v are component j at [j * vehicle_count + v]; `scratch` is the core's
// scratch of every vehicle, component-major too ([pgsv::kScratchSize][vehicle_count]).
template <class T>
struct PgsCheckView {
  int vehicle_count;
  const PgsVehicleParams<T>* params;  // [param_count]; vehicle v uses params[v % param_count]
  int param_count;
  TerrainDesc<T> terrain;
  T step;           // [s] the batch's step (one core step per check)
  int bilateral;    // bilateral rows per vehicle (the same row table for all)
  const T* state;   // [pgsv::kStateSize][vehicle_count]
  const T* origin;  // [2][vehicle_count]
  const T* inputs;  // [3][vehicle_count] steer, throttle, brake
  T* scratch;
};

// One step of vehicle v up to and through its configured sweeps (the batch's own step, which
// is not stored), then its bilateral rows' direct system (pgs::bilateral_system). Returns the
// sweeps' bilateral residual [m/s, rad/s] (the core's), or -1 for a frozen vehicle (a
// non-finite step before: nothing is solved).
template <class T>
FLEETDYN_FN T pgs_dense_check_vehicle(const PgsCheckView<T>& b, int v, T* a, T* rhs, T* lambda) {
  const int n = b.vehicle_count;
  T s[pgsv::kStateSize], next[pgsv::kStateSize];
  for (int j = 0; j < pgsv::kStateSize; ++j) s[j] = b.state[j * n + v];
  const PgsVehicleParams<T>& p = b.params[v % b.param_count];
  const DriverInput<T> input{b.inputs[v], b.inputs[n + v], b.inputs[2 * n + v]};
  pgsv::StepWork<T> w;
  pgsv::step_begin(p, b.step, 1, input, s, next, w);
  const pgs::Strided<T> scratch{b.scratch, n, v};
  T bilateral = T(0), complementarity = T(0);
  if (!pgsv::substep_prepare(p, b.terrain, b.origin[v], b.origin[n + v], 0, next, scratch, w)) return T(-1);
  pgs::pgs_solve(w.model, scratch, &bilateral, &complementarity);
  pgs::bilateral_system(w.model, scratch, b.bilateral, a, rhs, lambda);
  return bilateral;
}

}  // namespace fleetdyn
