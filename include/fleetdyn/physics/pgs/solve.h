// Projected Gauss-Seidel over a system's stored rows (seed 000: J M^-1 J^T lambda =
// b - J (V0 + M^-1 F dt); seed 002: "faster solvers will work well, e.g. projected Gauss
// Seidel"). Each row in turn takes the impulse that zeroes its velocity error, projected on its
// bounds, and the body velocities follow at once (V += M^-1 J^T d_lambda), so the velocities are
// always V* + M^-1 J^T lambda for the current lambda.
//
// Projection: bilateral rows are free; unilateral rows lambda >= 0; friction rows
// |lambda_t| <= mu lambda_n per tangent (pyramid), or the tangent pair stepped together and
// projected radially onto the disk of radius mu lambda_n (circular cone, cone_proposal), with
// lambda_n the normal row's current value.
//
// Residual (velocity units; the natural map of the box/cone-constrained problem, scaled by
// J M^-1 J^T): |lambda - proj(lambda - m_eff w)| / m_eff with w = J v - target. Zero exactly
// at a solution: w = 0 where lambda is inside its bounds, w >= 0 at a lower bound, w <= 0 at
// an upper one, and the cone's tangential velocity opposing the friction impulse at its rim.
#pragma once

#include "fleetdyn/physics/config.h"
#include "fleetdyn/physics/math.h"
#include "fleetdyn/physics/pgs/layout.h"
#include "fleetdyn/physics/pgs/model.h"
#include "fleetdyn/physics/pgs/rows.h"

namespace fleetdyn {
namespace pgs {

// Bounds of row r for the current impulses (friction: scaled by lambda_n).
template <class T>
FLEETDYN_FN void row_bounds(Strided<T> scratch, const RowInfo& info, int r, T* lower, T* upper) {
  const int b = row_scratch(r, 0);
  if (info.kind == kRowFriction) {
    const T lambda_n = scratch[row_scratch(info.normal_row, kLambda)];
    *lower = scratch[b + kLower] * lambda_n;
    *upper = scratch[b + kUpper] * lambda_n;
  } else {
    *lower = scratch[b + kLower];
    *upper = scratch[b + kUpper];
  }
}

// Unprojected Gauss-Seidel proposal for row r: lambda - m_eff (J v - target).
template <class T>
FLEETDYN_FN T row_proposal(Strided<T> scratch, int row_count, int r, const RowInfo& info) {
  const int b = row_scratch(r, 0);
  const T w = row_velocity(scratch, row_count, r, info) - scratch[b + kTarget];
  return scratch[b + kLambda] - scratch[b + kEffMass] * w;
}

// Projects a circular-cone tangent pair onto the disk of radius `limit`.
template <class T>
FLEETDYN_FN void project_disk(T* l1, T* l2, T limit) {
  const T mag = sqrt(*l1 * *l1 + *l2 * *l2);
  if (mag > limit) {
    const T s = mag > T(0) ? limit / mag : T(0);
    *l1 *= s;
    *l2 *= s;
  }
}

// Circular cone: both tangent rows step with one common effective mass (the smaller), then the
// pair is projected radially onto the disk. At a fixed point on the rim the friction impulse is
// then exactly opposite the sliding velocity (maximal dissipation); with each row's own
// effective mass it would oppose M w instead, off by the rows' mass anisotropy (measured about
// 1 % of mu g on a sliding box).
// Returns the common effective mass (the residual of the pair is |d lambda| / that mass).
template <class T>
FLEETDYN_FN T cone_proposal(const ModelView<T>& m, Strided<T> scratch, int r, int q, T* l1, T* l2) {
  const int n = m.row_count;
  const int b = row_scratch(r, 0), bq = row_scratch(q, 0);
  const T eff = scratch[b + kEffMass], eff_q = scratch[bq + kEffMass];
  const T common = eff_q > T(0) && eff_q < eff ? eff_q : eff;
  *l1 = scratch[b + kLambda] - common * (row_velocity(scratch, n, r, m.rows[r]) - scratch[b + kTarget]);
  *l2 = scratch[bq + kLambda] - common * (row_velocity(scratch, n, q, m.rows[q]) - scratch[bq + kTarget]);
  project_disk(l1, l2, scratch[b + kUpper] * scratch[row_scratch(m.rows[r].normal_row, kLambda)]);
  return common;
}

// One Gauss-Seidel update of row r (with its cone partner). Returns the change in velocity
// units (|d_lambda| / m_eff); 0 for singular rows and for a cone pair's second row.
template <class T>
FLEETDYN_FN T update_row(const ModelView<T>& m, Strided<T> scratch, int r) {
  const int n = m.row_count;
  const RowInfo& info = m.rows[r];
  const int b = row_scratch(r, 0);
  const T eff = scratch[b + kEffMass];
  if (!(eff > T(0))) return T(0);  // singular rows never act
  if (info.kind == kRowFriction && info.partner >= 0) {
    if (info.partner < r) return T(0);  // the pair is done at its first row
    const int q = info.partner;
    const int bq = row_scratch(q, 0);
    T l1, l2;
    const T common = cone_proposal(m, scratch, r, q, &l1, &l2);
    const T d1 = l1 - scratch[b + kLambda], d2 = l2 - scratch[bq + kLambda];
    scratch[b + kLambda] = l1;
    scratch[bq + kLambda] = l2;
    apply_row_impulse(scratch, n, r, info, d1);
    apply_row_impulse(scratch, n, q, m.rows[q], d2);
    return larger(fabs(d1), fabs(d2)) / common;
  }
  T lower, upper;
  row_bounds(scratch, info, r, &lower, &upper);
  const T proposed = clamp(row_proposal(scratch, n, r, info), lower, upper);
  const T d = proposed - scratch[b + kLambda];
  scratch[b + kLambda] = proposed;
  apply_row_impulse(scratch, n, r, info, d);
  return fabs(d) / eff;
}

// One sweep over all rows in table order. Returns the largest change.
template <class T>
FLEETDYN_FN T pgs_sweep(const ModelView<T>& m, Strided<T> scratch) {
  T largest = T(0);
  for (int r = 0; r < m.row_count; ++r) largest = larger(largest, update_row(m, scratch, r));
  return largest;
}

// The lanes of a CUDA warp that share one system: a barrier, and the largest value over the
// lanes. Host code has one lane and neither does anything.
FLEETDYN_FN void lane_sync() {
#if defined(__CUDA_ARCH__)
  __syncwarp();
#endif
}
template <class T>
FLEETDYN_FN T lanes_max(T v) {
#if defined(__CUDA_ARCH__)
  for (int offset = 16; offset > 0; offset >>= 1) v = larger(v, __shfl_xor_sync(0xffffffffu, v, offset));
#endif
  return v;
}

// One sweep color by color (the row table's coloring: no two rows of a color share a body, so
// their updates commute). `lanes` lanes split each color; on the host lanes = 1 runs the same
// order serially, which is how the CPU tests the warp kernel's order. With lanes > 1 (a full
// warp) the lanes synchronize after each color and agree on the largest change.
template <class T>
FLEETDYN_FN T pgs_sweep_colored(const ModelView<T>& m, Strided<T> scratch, int lane, int lanes) {
  T largest = T(0);
  for (int c = 0; c < m.color_count; ++c) {
    for (int i = m.color_begin[c] + lane; i < m.color_begin[c + 1]; i += lanes) {
      largest = larger(largest, update_row(m, scratch, m.sweep_order[i]));
    }
    if (lanes > 1) lane_sync();
  }
  return lanes > 1 ? lanes_max(largest) : largest;
}

// Residuals of the current impulses and velocities (natural map, see above), without changing
// them: the largest over bilateral rows and over the unilateral and friction rows.
template <class T>
FLEETDYN_FN void pgs_residual(const ModelView<T>& m, Strided<T> scratch, T* bilateral, T* complementarity) {
  *bilateral = T(0);
  *complementarity = T(0);
  const int n = m.row_count;
  for (int r = 0; r < n; ++r) {
    const RowInfo& info = m.rows[r];
    const int b = row_scratch(r, 0);
    const T eff = scratch[b + kEffMass];
    if (!(eff > T(0))) continue;
    const T lambda = scratch[b + kLambda];
    if (info.kind == kRowBilateral) {
      *bilateral = larger(*bilateral, fabs(row_velocity(scratch, n, r, info) - scratch[b + kTarget]));
      continue;
    }
    if (info.kind == kRowFriction && info.partner >= 0) {
      if (info.partner < r) continue;
      const int q = info.partner;
      T l1, l2;
      const T common = cone_proposal(m, scratch, r, q, &l1, &l2);
      *complementarity = larger(*complementarity, larger(fabs(l1 - lambda), fabs(l2 - scratch[row_scratch(q, kLambda)])) / common);
      continue;
    }
    T lower, upper;
    row_bounds(scratch, info, r, &lower, &upper);
    const T proposed = clamp(row_proposal(scratch, n, r, info), lower, upper);
    *complementarity = larger(*complementarity, fabs(proposed - lambda) / eff);
  }
}

// Sweeps until the residual is at most `tolerance` or `max_iterations` sweeps were made. The
// residual is evaluated (one extra pass) only when a sweep changed no row by more than the
// tolerance, so a converged result is certified, not inferred. Returns the sweeps made.
// With lanes > 1 (a warp per system) every lane runs this loop: all see the same change and
// residuals (read after a barrier), so they stop together.
template <class T>
FLEETDYN_FN int pgs_solve(const ModelView<T>& m, Strided<T> scratch, T* bilateral, T* complementarity, int lane = 0,
                          int lanes = 1) {
  const T tol = m.settings.tolerance;
  const bool colored = lanes > 1 || m.settings.colored_sweeps;
  int sweeps = 0;
  while (sweeps < m.settings.max_iterations) {
    const T change = colored ? pgs_sweep_colored(m, scratch, lane, lanes) : pgs_sweep(m, scratch);
    ++sweeps;
    if (tol > T(0) && change <= tol) {
      pgs_residual(m, scratch, bilateral, complementarity);
      if (larger(*bilateral, *complementarity) <= tol) return sweeps;
    }
  }
  pgs_residual(m, scratch, bilateral, complementarity);
  return sweeps;
}

}  // namespace pgs
}  // namespace fleetdyn
