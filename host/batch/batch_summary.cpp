// Batch::summary: the request's checks and the host reduction (std algorithms), the reference
// for the CUDA one in kernels/batch_reduce.cu.
#include "host/batch/batch_summary.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numeric>
#include <string>

#include "fleetdyn/error.h"
#include "host/batch/typed_batch.h"

namespace fleetdyn {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

const char* const kMetricNames[kMetricCount] = {
#define FLEETDYN_METRIC_NAME(name, unit, doc) #name,
    FLEETDYN_METRIC_FIELDS(FLEETDYN_METRIC_NAME)
#undef FLEETDYN_METRIC_NAME
};

std::string known_metrics() {
  std::string s;
  for (const char* n : kMetricNames) s += (s.empty() ? "" : ", ") + std::string(n);
  return s;
}

int metric_index(const std::string& name, const std::string& field) {
  for (int m = 0; m < kMetricCount; ++m) {
    if (name == kMetricNames[m]) return m;
  }
  throw Error("summary: " + field + ": unknown metric '" + name + "' (known: " + known_metrics() + ")");
}

std::string number_text(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}

}  // namespace

SummaryPlan plan_summary(const SummaryRequest& request, int vehicle_count) {
  SummaryPlan plan;
  plan.vehicle_count = vehicle_count;
  if (request.metrics.empty()) {
    for (int m = 0; m < kMetricCount; ++m) plan.metrics.push_back(m);
  }
  for (size_t i = 0; i < request.metrics.size(); ++i) {
    const std::string field = "metrics[" + std::to_string(i) + "]";
    const int m = metric_index(request.metrics[i], field);
    if (std::find(plan.metrics.begin(), plan.metrics.end(), m) != plan.metrics.end()) {
      throw Error("summary: " + field + ": metric '" + request.metrics[i] + "' is already listed");
    }
    plan.metrics.push_back(m);
  }
  for (size_t i = 0; i < request.quantiles.size(); ++i) {
    const double p = request.quantiles[i];
    if (!(p >= 0.0 && p <= 1.0)) {
      throw Error("summary: quantiles[" + std::to_string(i) + "] = " + number_text(p) + " is outside [0, 1]");
    }
  }
  plan.quantiles = request.quantiles;
  plan.worst_by = metric_index(request.worst_by, "worst_by");
  if (request.worst_count < 0 || request.worst_count > vehicle_count) {
    throw Error("summary: worst_count = " + std::to_string(request.worst_count) + " is outside [0, " +
                std::to_string(vehicle_count) + "] (the batch's vehicle count)");
  }
  plan.worst_count = request.worst_count;
  return plan;
}

MetricSelection metric_selection(int m) {
  MetricSelection s;
  s.of_diverged = m == metric::diverged_time;
  s.event_time = !s.of_diverged && typed_batch::starts_at_minus_one(m);
  return s;
}

QuantilePoint quantile_point(int64_t count, double p) {
  QuantilePoint q;
  const double h = static_cast<double>(count - 1) * p;
  q.below = static_cast<int64_t>(std::floor(h));
  if (q.below + 1 >= count) {  // p = 1 (or a single value): the last value
    q.below = q.above = count - 1;
    return q;
  }
  q.above = q.below + 1;
  q.t = h - static_cast<double>(q.below);
  return q;
}

double quantile_between(double lo, double hi, double t) {
  return t < 0.5 ? lo + (hi - lo) * t : hi - (hi - lo) * (1.0 - t);
}

BatchSummary summary_frame(const SummaryPlan& plan) {
  BatchSummary s;
  s.vehicle_count = plan.vehicle_count;
  s.quantile_levels = plan.quantiles;
  s.worst_metric = plan.worst_by;
  for (int m : plan.metrics) {
    MetricSummary ms;
    ms.metric = m;
    ms.name = kMetricNames[m];
    ms.min = ms.mean = ms.max = kNaN;
    ms.quantiles.assign(plan.quantiles.size(), kNaN);
    s.metrics.push_back(ms);
  }
  return s;
}

template <class T>
BatchSummary summarize_host(const T* metrics, const int* status, const SummaryPlan& plan) {
  const int n = plan.vehicle_count;
  BatchSummary s = summary_frame(plan);
  for (int v = 0; v < n; ++v) {
    s.running += status[v] == kStatusRunning ? 1 : 0;
    s.diverged += status[v] == kStatusDiverged ? 1 : 0;
    s.rolled_over += status[v] == kStatusRolledOver ? 1 : 0;
  }
  // The values of metric m that count, in vehicle order, and their vehicles.
  const auto select = [&](int m, std::vector<double>* values, std::vector<int>* vehicles) {
    const MetricSelection counts = metric_selection(m);
    const T* row = metrics + static_cast<size_t>(m) * static_cast<size_t>(n);
    for (int v = 0; v < n; ++v) {
      if (!counts(row[v], status[v])) continue;
      values->push_back(static_cast<double>(row[v]));
      if (vehicles) vehicles->push_back(v);
    }
  };
  std::vector<double> values;
  for (MetricSummary& ms : s.metrics) {
    values.clear();
    select(ms.metric, &values, nullptr);
    ms.count = static_cast<int64_t>(values.size());
    if (values.empty()) continue;
    long double sum = 0.0L;
    for (double x : values) sum += x;
    ms.mean = static_cast<double>(sum / static_cast<long double>(values.size()));
    std::sort(values.begin(), values.end());
    ms.min = values.front();
    ms.max = values.back();
    for (size_t k = 0; k < plan.quantiles.size(); ++k) {
      const QuantilePoint q = quantile_point(ms.count, plan.quantiles[k]);
      ms.quantiles[k] = quantile_between(values[static_cast<size_t>(q.below)], values[static_cast<size_t>(q.above)], q.t);
    }
  }
  if (plan.worst_count > 0) {
    std::vector<int> vehicles;
    values.clear();
    select(plan.worst_by, &values, &vehicles);
    std::vector<size_t> order(values.size());
    std::iota(order.begin(), order.end(), size_t{0});
    // Stable over vehicle order: equal values stay by vehicle index.
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return values[a] > values[b]; });
    const size_t count = std::min(order.size(), static_cast<size_t>(plan.worst_count));
    for (size_t i = 0; i < count; ++i) {
      s.worst_vehicles.push_back(vehicles[order[i]]);
      s.worst_values.push_back(values[order[i]]);
    }
  }
  return s;
}

template BatchSummary summarize_host<float>(const float*, const int*, const SummaryPlan&);
template BatchSummary summarize_host<double>(const double*, const int*, const SummaryPlan&);

}  // namespace fleetdyn
