// Batch::summary's reductions (include/fleetdyn/batch.h, docs/design/batch-summary.md): the
// request checked and resolved once (SummaryPlan), which vehicles have a value of a metric
// (MetricSelection, the same code on the host and the device), the type-7 quantile, and the host
// reduction, the reference the CUDA one (kernels/batch_reduce.cu) is tested against.
#pragma once

#include <cstdint>
#include <vector>

#include "fleetdyn/batch.h"
#include "fleetdyn/physics/core/config.h"
#include "fleetdyn/physics/core/metrics.h"

namespace fleetdyn {

// A checked request: metric indices instead of names.
struct SummaryPlan {
  int vehicle_count = 0;
  std::vector<int> metrics;  // metric::MetricIndex, in the request's order
  std::vector<double> quantiles;
  int worst_by = metric::max_abs_roll;
  int worst_count = 0;
};

// Throws fleetdyn::Error naming the field, the value and what is allowed: an unknown or repeated
// metric name, a quantile outside [0, 1], worst_count outside [0, vehicle_count].
SummaryPlan plan_summary(const SummaryRequest& request, int vehicle_count);

// Whether a vehicle's value of one metric counts (the rule SummaryRequest states).
struct MetricSelection {
  bool of_diverged = false;  // diverged_time: only diverged vehicles have one
  bool event_time = false;   // -1 = no event: only values >= 0

  template <class T>
  FLEETDYN_FN bool operator()(T x, int status) const {
    if (!(x - x == T(0))) return false;  // NaN or infinite
    if ((status == kStatusDiverged) != of_diverged) return false;
    return !event_time || x >= T(0);
  }
};
MetricSelection metric_selection(int metric);

// Hyndman-Fan type 7 quantile p of `count` sorted values (study::sorted_quantile, numpy's default):
// h = (count - 1) p, between the values at `below` = floor(h) and `above` (below + 1, or the last).
struct QuantilePoint {
  int64_t below = 0, above = 0;
  double t = 0.0;  // h - below, in [0, 1)
};
QuantilePoint quantile_point(int64_t count, double p);
// The value t of the way from lo to hi, from the nearer end (numpy's lerp: exact at t = 1, monotone in t).
double quantile_between(double lo, double hi, double t);

// The host reduction of metrics [kMetricCount][n] and status [n] (VehicleStatus), any precision:
// the mean summed in long double in vehicle order.
template <class T>
BatchSummary summarize_host(const T* metrics, const int* status, const SummaryPlan& plan);

// The parts every backend fills alike from the plan (names, levels, vehicle count).
BatchSummary summary_frame(const SummaryPlan& plan);

}  // namespace fleetdyn
