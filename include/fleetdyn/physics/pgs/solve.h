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
//
// Lanes: the scratch values S are the model's scalar T (one system: the CPU loop, a CUDA
// thread) or a SIMD lane type of W systems sharing one row table (host/backend/lanes.h, the CPU's
// vectorized vehicle runner). Choices are select()s, so every lane follows its own; a row that
// is singular in some lanes (effective mass 0, bounds 0, impulse 0) stays a no-op in those.
#pragma once

#include "fleetdyn/physics/core/config.h"
#include "fleetdyn/physics/core/math.h"
#include "fleetdyn/physics/pgs/layout.h"
#include "fleetdyn/physics/pgs/model.h"
#include "fleetdyn/physics/pgs/rows.h"

namespace fleetdyn {
namespace pgs {

// Bounds of row r for the current impulses (friction: scaled by lambda_n).
template <class S>
FLEETDYN_INLINE_FN void row_bounds(Strided<S> scratch, const RowInfo& info, int r, S* lower, S* upper) {
  const int b = row_scratch(r, 0);
  if (info.kind == kRowFriction) {
    const S lambda_n = scratch[row_scratch(info.normal_row, kLambda)];
    *lower = scratch[b + kLower] * lambda_n;
    *upper = scratch[b + kUpper] * lambda_n;
  } else {
    *lower = scratch[b + kLower];
    *upper = scratch[b + kUpper];
  }
}

// Velocity error of row r: J v + compliance lambda - target (compliance 0 but on soft rows).
template <class S>
FLEETDYN_INLINE_FN S row_error(Strided<S> scratch, int row_count, int r, const RowInfo& info) {
  const int b = row_scratch(r, 0);
  return row_velocity(scratch, row_count, r, info) + scratch[b + kCompliance] * scratch[b + kLambda] - scratch[b + kTarget];
}

// Unprojected Gauss-Seidel proposal for row r: lambda - m_eff (J v + compliance lambda - target).
template <class S>
FLEETDYN_INLINE_FN S row_proposal(Strided<S> scratch, int row_count, int r, const RowInfo& info) {
  const int b = row_scratch(r, 0);
  return scratch[b + kLambda] - scratch[b + kEffMass] * row_error(scratch, row_count, r, info);
}

// A change in impulse in velocity units, |d_lambda| / m_eff; 0 where the row is singular.
template <class S>
FLEETDYN_INLINE_FN S velocity_change(S d_lambda, S eff) {
  const auto acting = eff > S(0);
  return select(acting, fabs(d_lambda) / select(acting, eff, S(1)), S(0));
}

// Projects a circular-cone tangent pair onto the disk of radius `limit`.
template <class S>
FLEETDYN_INLINE_FN void project_disk(S* l1, S* l2, S limit) {
  const S mag = sqrt(*l1 * *l1 + *l2 * *l2);
  const auto positive = mag > S(0);
  const S scale = select(positive, limit / select(positive, mag, S(1)), S(0));
  const auto outside = mag > limit;
  *l1 = select(outside, *l1 * scale, *l1);
  *l2 = select(outside, *l2 * scale, *l2);
}

// Circular cone: both tangent rows step with one common effective mass (the smaller), then the
// pair is projected radially onto the disk. At a fixed point on the rim the friction impulse is
// then exactly opposite the sliding velocity (maximal dissipation); with each row's own
// effective mass it would oppose M w instead, off by the rows' mass anisotropy (measured about
// 1 % of mu g on a sliding box).
// Returns the common effective mass (the residual of the pair is |d lambda| / that mass).
template <class T, class S>
FLEETDYN_INLINE_FN S cone_proposal(const ModelView<T>& m, Strided<S> scratch, int r, int q, S* l1, S* l2) {
  const int n = m.row_count;
  const int b = row_scratch(r, 0), bq = row_scratch(q, 0);
  const S eff = scratch[b + kEffMass], eff_q = scratch[bq + kEffMass];
  const S common = select(both(eff_q > S(0), eff_q < eff), eff_q, eff);
  *l1 = scratch[b + kLambda] - common * (row_velocity(scratch, n, r, m.rows[r]) - scratch[b + kTarget]);
  *l2 = scratch[bq + kLambda] - common * (row_velocity(scratch, n, q, m.rows[q]) - scratch[bq + kTarget]);
  project_disk(l1, l2, scratch[b + kUpper] * scratch[row_scratch(m.rows[r].normal_row, kLambda)]);
  return common;
}

// One Gauss-Seidel update of row r (with its cone partner). Returns the change in velocity
// units (|d_lambda| / m_eff); 0 for singular rows and for a cone pair's second row.
template <class T, class S>
FLEETDYN_INLINE_FN S update_row(const ModelView<T>& m, Strided<S> scratch, int r) {
  const int n = m.row_count;
  const RowInfo& info = m.rows[r];
  const int b = row_scratch(r, 0);
  const S eff = scratch[b + kEffMass];
  if (!any_lane(eff > S(0))) return S(0);  // singular rows never act
  if (info.kind == kRowFriction && info.partner >= 0) {
    if (info.partner < r) return S(0);  // the pair is done at its first row
    const int q = info.partner;
    const int bq = row_scratch(q, 0);
    S l1, l2;
    const S common = cone_proposal(m, scratch, r, q, &l1, &l2);
    const S d1 = l1 - scratch[b + kLambda], d2 = l2 - scratch[bq + kLambda];
    scratch[b + kLambda] = l1;
    scratch[bq + kLambda] = l2;
    apply_row_impulse(scratch, n, r, info, d1);
    apply_row_impulse(scratch, n, q, m.rows[q], d2);
    return velocity_change(larger(fabs(d1), fabs(d2)), common);
  }
  S lower, upper;
  row_bounds(scratch, info, r, &lower, &upper);
  const S proposed = clamp(row_proposal(scratch, n, r, info), lower, upper);
  const S d = proposed - scratch[b + kLambda];
  scratch[b + kLambda] = proposed;
  apply_row_impulse(scratch, n, r, info, d);
  return velocity_change(d, eff);
}

// One sweep over all rows in table order. Returns the largest change.
template <class T, class S>
FLEETDYN_INLINE_FN S pgs_sweep(const ModelView<T>& m, Strided<S> scratch) {
  S largest = S(0);
  for (int r = 0; r < m.row_count; ++r) largest = larger(largest, update_row(m, scratch, r));
  return largest;
}

// The lanes of a CUDA warp that share one system: `lanes` consecutive lanes (a power of two, at
// most 32) starting at a multiple of `lanes`, so a warp may hold 32 / lanes systems. A barrier
// over the group, the largest value over it and lane 0's value. The masks name the group's lanes
// only (lanes < 32), so a block of whole groups may be a partial warp. Host code has one lane and
// none of them does anything.
FLEETDYN_FN unsigned lane_group_mask(int lanes) {
#if defined(__CUDA_ARCH__)
  if (lanes >= 32) return 0xffffffffu;
  const unsigned first = (threadIdx.x % 32u) & ~static_cast<unsigned>(lanes - 1);
  return ((1u << lanes) - 1u) << first;
#else
  (void)lanes;
  return 1u;
#endif
}
FLEETDYN_FN void lane_sync(int lanes) {
#if defined(__CUDA_ARCH__)
  __syncwarp(lane_group_mask(lanes));
#else
  (void)lanes;
#endif
}
template <class S>
FLEETDYN_INLINE_FN S lanes_max(S v, int lanes) {
#if defined(__CUDA_ARCH__)
  const unsigned mask = lane_group_mask(lanes);
  for (int offset = lanes / 2; offset > 0; offset >>= 1) v = larger(v, __shfl_xor_sync(mask, v, offset, lanes));
#else
  (void)lanes;
#endif
  return v;
}
template <class V>
FLEETDYN_INLINE_FN V lane0_value(V v, int lanes) {
#if defined(__CUDA_ARCH__)
  return __shfl_sync(lane_group_mask(lanes), v, 0, lanes);
#else
  (void)lanes;
  return v;
#endif
}

// Lane `lane` of `lanes`'s share of color c: rows color_begin[c] + lane, + lanes, ... of the
// sweep order. No two rows of a color share a body, so they commute: the lanes' shares done one
// after another (the host tests) or at once (a CUDA warp) give the same numbers bit for bit.
// Returns the largest change among the lane's rows.
template <class T, class S>
FLEETDYN_INLINE_FN S sweep_color(const ModelView<T>& m, Strided<S> scratch, int c, int lane, int lanes) {
  S largest = S(0);
  for (int i = m.color_begin[c] + lane; i < m.color_begin[c + 1]; i += lanes) {
    largest = larger(largest, update_row(m, scratch, m.sweep_order[i]));
  }
  return largest;
}

// One sweep color by color (the row table's coloring). With lanes = 1 the host runs the colors'
// rows serially in the same order, which is how the CPU tests a warp kernel's arithmetic. With
// lanes > 1 the lanes synchronize after each color and agree on the largest change.
template <class T, class S>
FLEETDYN_INLINE_FN S pgs_sweep_colored(const ModelView<T>& m, Strided<S> scratch, int lane, int lanes) {
  S largest = S(0);
  for (int c = 0; c < m.color_count; ++c) {
    largest = larger(largest, sweep_color(m, scratch, c, lane, lanes));
    if (lanes > 1) lane_sync(lanes);
  }
  return lanes > 1 ? lanes_max(largest, lanes) : largest;
}

// Residuals of the current impulses and velocities (natural map, see above), without changing
// them: the largest over bilateral rows and over the unilateral and friction rows. Lane `lane`
// of `lanes` takes rows lane, lane + lanes, ...; with lanes > 1 the lanes then agree on the
// largest (a maximum: the same whichever lane saw which row).
template <class T, class S>
FLEETDYN_FN void pgs_residual(const ModelView<T>& m, Strided<S> scratch, S* bilateral, S* complementarity, int lane = 0,
                              int lanes = 1) {
  *bilateral = S(0);
  *complementarity = S(0);
  const int n = m.row_count;
  for (int r = lane; r < n; r += lanes) {
    const RowInfo& info = m.rows[r];
    const int b = row_scratch(r, 0);
    const S eff = scratch[b + kEffMass];
    const auto acting = eff > S(0);
    if (!any_lane(acting)) continue;
    const S lambda = scratch[b + kLambda];
    if (info.kind == kRowBilateral) {
      const S error = fabs(row_error(scratch, n, r, info));
      *bilateral = larger(*bilateral, select(acting, error, S(0)));
      continue;
    }
    if (info.kind == kRowFriction && info.partner >= 0) {
      if (info.partner < r) continue;
      const int q = info.partner;
      S l1, l2;
      const S common = cone_proposal(m, scratch, r, q, &l1, &l2);
      const S change = larger(fabs(l1 - lambda), fabs(l2 - scratch[row_scratch(q, kLambda)]));
      *complementarity = larger(*complementarity, select(acting, velocity_change(change, common), S(0)));
      continue;
    }
    S lower, upper;
    row_bounds(scratch, info, r, &lower, &upper);
    const S proposed = clamp(row_proposal(scratch, n, r, info), lower, upper);
    *complementarity = larger(*complementarity, select(acting, velocity_change(proposed - lambda, eff), S(0)));
  }
  if (lanes > 1) {
    *bilateral = lanes_max(*bilateral, lanes);
    *complementarity = lanes_max(*complementarity, lanes);
    lane_sync(lanes);  // every lane's reads are done before any lane sweeps again
  }
}

// Sweeps until the residual is at most `tolerance` or `max_iterations` sweeps were made. The
// residual is evaluated (one extra pass) only when a sweep changed no row by more than the
// tolerance, so a converged result is certified, not inferred. Returns the sweeps made.
// With lanes > 1 (lanes of a warp per system) every lane runs this loop: all see the same change
// and residuals (reduced over the lanes), so they stop together. SIMD lanes (S a lane type) stop
// when every lane has converged.
template <class T, class S>
FLEETDYN_FN int pgs_solve(const ModelView<T>& m, Strided<S> scratch, S* bilateral, S* complementarity, int lane = 0,
                          int lanes = 1) {
  const T tol = m.settings.tolerance;
  const bool colored = lanes > 1 || m.settings.colored_sweeps;
  int sweeps = 0;
  while (sweeps < m.settings.max_iterations) {
    const S change = colored ? pgs_sweep_colored(m, scratch, lane, lanes) : pgs_sweep(m, scratch);
    ++sweeps;
    if (tol > T(0) && all_lanes(change <= S(tol))) {
      pgs_residual(m, scratch, bilateral, complementarity, lane, lanes);
      if (all_lanes(larger(*bilateral, *complementarity) <= S(tol))) return sweeps;
    }
  }
  pgs_residual(m, scratch, bilateral, complementarity, lane, lanes);
  return sweeps;
}

}  // namespace pgs
}  // namespace fleetdyn
