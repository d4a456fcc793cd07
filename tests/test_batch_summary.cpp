// Batch::summary: the host reduction against values worked out by hand (ties, unset -1 event
// times, diverged and rolled-over vehicles, non-finite values) and against a reference written
// here from the stated rule; the request's errors; and on CUDA (skipped without a device) the
// device reduction of a stepped batch against the host one over the same downloaded arrays.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "fleetdyn/batch.h"
#include "fleetdyn/error.h"
#include "fleetdyn/vehicle.h"
#include "host/batch/batch_summary.h"
#include "tests/strut_test_util.h"

#if defined(FLEETDYN_TEST_HAS_STUDY)
#include "host/study/statistics.h"
#endif

namespace fleetdyn {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// ---- hand-made arrays ---------------------------------------------------------------------------

// Six vehicles: 1 diverged, 3 rolled over, the others running.
constexpr int kHandVehicles = 6;
const std::vector<int> kHandStatus = {kStatusRunning,    kStatusDiverged, kStatusRunning,
                                      kStatusRolledOver, kStatusRunning,  kStatusRunning};

std::vector<double> hand_metrics() {
  std::vector<double> m(static_cast<size_t>(kMetricCount) * kHandVehicles, 0.0);
  const auto set = [&](int metric, std::vector<double> row) {
    std::copy(row.begin(), row.end(), m.begin() + static_cast<long>(metric) * kHandVehicles);
  };
  // Vehicle 1 diverged: its 9.0 does not count; 0.5 twice (vehicles 0 and 4): a tie.
  set(metric::max_abs_roll, {0.5, 9.0, 0.25, 1.0, 0.5, 0.75});
  // -1 = no lift-off (vehicles 0, 4), vehicle 1 diverged, vehicle 5 NaN: only 2.0 and 1.0 count.
  set(metric::first_liftoff_time, {-1.0, 0.3, 2.0, 1.0, -1.0, kNaN});
  // Only the diverged vehicle has a divergence time.
  set(metric::diverged_time, {-1.0, 4.0, -1.0, -1.0, -1.0, -1.0});
  // No path driver: -1 everywhere, nothing counts.
  set(metric::path_progress, {-1.0, -1.0, -1.0, -1.0, -1.0, -1.0});
  // An infinite value does not count.
  set(metric::max_abs_lat_accel, {3.0, 1.0, kInf, 5.0, 4.0, 6.0});
  return m;
}

const MetricSummary& find(const BatchSummary& s, int metric) {
  for (const MetricSummary& m : s.metrics) {
    if (m.metric == metric) return m;
  }
  throw Error("metric not in summary");
}

SummaryRequest hand_request() {
  SummaryRequest r;
  r.quantiles = {0.0, 0.25, 0.5, 0.875, 1.0, 0.1};
  r.worst_by = "max_abs_roll";
  r.worst_count = 4;
  return r;
}

template <class T>
BatchSummary hand_summary() {
  const std::vector<double> m = hand_metrics();
  const std::vector<T> typed(m.begin(), m.end());
  return summarize_host(typed.data(), kHandStatus.data(), plan_summary(hand_request(), kHandVehicles));
}

template <class T>
void expect_hand_summary() {
  const BatchSummary s = hand_summary<T>();
  EXPECT_EQ(s.vehicle_count, kHandVehicles);
  EXPECT_EQ(s.running, 4);
  EXPECT_EQ(s.diverged, 1);
  EXPECT_EQ(s.rolled_over, 1);
  ASSERT_EQ(s.metrics.size(), static_cast<size_t>(kMetricCount)) << "an empty metric list means all";
  for (int m = 0; m < kMetricCount; ++m) EXPECT_EQ(s.metrics[static_cast<size_t>(m)].metric, m);

  // max_abs_roll: 0.5, 0.25, 1.0, 0.5, 0.75 -> sorted 0.25 0.5 0.5 0.75 1.0, sum 3.0.
  const MetricSummary& roll = find(s, metric::max_abs_roll);
  EXPECT_EQ(roll.name, "max_abs_roll");
  EXPECT_EQ(roll.count, 5);
  EXPECT_EQ(roll.min, 0.25);
  EXPECT_EQ(roll.max, 1.0);
  EXPECT_EQ(roll.mean, 0.6);  // 3.0 / 5, correctly rounded
  // Type 7: h = 4 p. p = 0 -> 0.25; 0.25 -> h 1 -> 0.5; 0.5 -> h 2 -> 0.5; 0.875 -> h 3.5 ->
  // 0.75 + 0.5 (1.0 - 0.75) = 0.875; 1 -> 1.0; all exact in binary.
  ASSERT_EQ(roll.quantiles.size(), 6u);
  EXPECT_EQ(roll.quantiles[0], 0.25);
  EXPECT_EQ(roll.quantiles[1], 0.5);
  EXPECT_EQ(roll.quantiles[2], 0.5);
  EXPECT_EQ(roll.quantiles[3], 0.875);
  EXPECT_EQ(roll.quantiles[4], 1.0);
  // p = 0.1 -> h = 0.4: 0.25 + 0.4 (0.5 - 0.25) = 0.35; 0.1 and 0.4 are not binary fractions, so
  // within 2 ulp of 0.35.
  EXPECT_NEAR(roll.quantiles[5], 0.35, 2.0 * std::numeric_limits<double>::epsilon() * 0.35);

  // Event time: only values >= 0 of vehicles that did not diverge, finite: 2.0 and 1.0.
  const MetricSummary& lift = find(s, metric::first_liftoff_time);
  EXPECT_EQ(lift.count, 2);
  EXPECT_EQ(lift.min, 1.0);
  EXPECT_EQ(lift.max, 2.0);
  EXPECT_EQ(lift.mean, 1.5);
  EXPECT_EQ(lift.quantiles[2], 1.5);  // h = 0.5 between 1.0 and 2.0

  const MetricSummary& div = find(s, metric::diverged_time);
  EXPECT_EQ(div.count, 1);
  EXPECT_EQ(div.min, 4.0);
  EXPECT_EQ(div.mean, 4.0);
  EXPECT_EQ(div.max, 4.0);
  for (double q : div.quantiles) EXPECT_EQ(q, 4.0) << "one value: every quantile is it";

  const MetricSummary& progress = find(s, metric::path_progress);
  EXPECT_EQ(progress.count, 0);
  EXPECT_TRUE(std::isnan(progress.min) && std::isnan(progress.mean) && std::isnan(progress.max));
  for (double q : progress.quantiles) EXPECT_TRUE(std::isnan(q));

  // Not an event time: every finite value of the non-diverged vehicles, 0 included (3, 5, 4, 6).
  const MetricSummary& lat = find(s, metric::max_abs_lat_accel);
  EXPECT_EQ(lat.count, 4);
  EXPECT_EQ(lat.min, 3.0);
  EXPECT_EQ(lat.max, 6.0);
  EXPECT_EQ(lat.mean, 4.5);

  // Worst 4 by max_abs_roll: 1.0 (3), 0.75 (5), then the tie 0.5 by index: 0 before 4.
  EXPECT_EQ(s.worst_metric, metric::max_abs_roll);
  EXPECT_EQ(s.worst_vehicles, (std::vector<int>{3, 5, 0, 4}));
  EXPECT_EQ(s.worst_values, (std::vector<double>{1.0, 0.75, 0.5, 0.5}));
  EXPECT_EQ(s.quantile_levels, hand_request().quantiles);
}

TEST(BatchSummaryHost, HandMadeFp64) { expect_hand_summary<double>(); }
TEST(BatchSummaryHost, HandMadeFp32) { expect_hand_summary<float>(); }  // every value exact in float

TEST(BatchSummaryHost, WorstCountAboveTheVehiclesWithAValue) {
  const std::vector<double> m = hand_metrics();
  SummaryRequest r;
  r.metrics = {"first_liftoff_time"};
  r.worst_by = "first_liftoff_time";
  r.worst_count = kHandVehicles;  // allowed, but only two vehicles have a lift-off time
  const BatchSummary s = summarize_host(m.data(), kHandStatus.data(), plan_summary(r, kHandVehicles));
  ASSERT_EQ(s.metrics.size(), 1u);
  EXPECT_EQ(s.metrics[0].metric, metric::first_liftoff_time);
  EXPECT_EQ(s.worst_vehicles, (std::vector<int>{2, 3}));
  EXPECT_EQ(s.worst_values, (std::vector<double>{2.0, 1.0}));
  EXPECT_TRUE(s.metrics[0].quantiles.empty());
}

// ---- an independent reference of the stated rule ----------------------------------------------------

// The metrics whose "no event" value is -1, listed here rather than taken from the library.
bool event_time(int m) {
  return m == metric::first_liftoff_time || m == metric::max_path_deviation || m == metric::path_progress ||
         m == metric::maneuver_end_time || m == metric::capsize_time;
}

// Vehicle indices with a value of metric m, in index order.
std::vector<int> with_value(const std::vector<double>& metrics, const std::vector<int>& status, int m) {
  const int n = static_cast<int>(status.size());
  std::vector<int> out;
  for (int v = 0; v < n; ++v) {
    const double x = metrics[static_cast<size_t>(m) * n + v];
    if (!std::isfinite(x)) continue;
    if (m == metric::diverged_time) {
      if (status[v] == kStatusDiverged) out.push_back(v);
    } else if (status[v] != kStatusDiverged && (!event_time(m) || x >= 0.0)) {
      out.push_back(v);
    }
  }
  return out;
}

// Checks a summary of (metrics, status) against the rule, recomputed here: counts, min, max and
// worst vehicles exactly; the mean within `mean_tolerance` relative; quantiles from a plain
// linear interpolation within 4 ulp of the larger neighbour in magnitude (the library interpolates from the
// nearer end, which rounds differently).
void expect_summary_matches(const BatchSummary& s, const std::vector<double>& metrics, const std::vector<int>& status,
                            const SummaryRequest& r, double mean_tolerance) {
  const int n = static_cast<int>(status.size());
  ASSERT_EQ(s.vehicle_count, n);
  EXPECT_EQ(s.running, std::count(status.begin(), status.end(), kStatusRunning));
  EXPECT_EQ(s.diverged, std::count(status.begin(), status.end(), kStatusDiverged));
  EXPECT_EQ(s.rolled_over, std::count(status.begin(), status.end(), kStatusRolledOver));
  for (const MetricSummary& ms : s.metrics) {
    const std::vector<int> vs = with_value(metrics, status, ms.metric);
    std::vector<double> x;
    for (int v : vs) x.push_back(metrics[static_cast<size_t>(ms.metric) * n + v]);
    ASSERT_EQ(ms.count, static_cast<int64_t>(x.size())) << ms.name;
    if (x.empty()) continue;
    std::sort(x.begin(), x.end());
    EXPECT_EQ(ms.min, x.front()) << ms.name;
    EXPECT_EQ(ms.max, x.back()) << ms.name;
    long double sum = 0.0L;
    for (double xi : x) sum += xi;
    const double mean = static_cast<double>(sum / x.size());
    EXPECT_NEAR(ms.mean, mean, mean_tolerance * std::fabs(mean)) << ms.name;
    for (size_t k = 0; k < r.quantiles.size(); ++k) {
      const double h = (x.size() - 1) * r.quantiles[k];
      const size_t lo = static_cast<size_t>(h), hi = std::min(lo + 1, x.size() - 1);
      const double expected = x[lo] + (x[hi] - x[lo]) * (h - lo);
      const double scale = std::max(std::fabs(x[lo]), std::fabs(x[hi]));
      EXPECT_NEAR(ms.quantiles[k], expected, 4.0 * std::numeric_limits<double>::epsilon() * scale)
          << ms.name << " q" << r.quantiles[k];
    }
  }
  // The worst: sorted by (value descending, index ascending), no stability relied on.
  std::vector<int> vs = with_value(metrics, status, s.worst_metric);
  const auto value = [&](int v) { return metrics[static_cast<size_t>(s.worst_metric) * n + v]; };
  std::sort(vs.begin(), vs.end(), [&](int a, int b) { return value(a) != value(b) ? value(a) > value(b) : a < b; });
  vs.resize(std::min(vs.size(), static_cast<size_t>(r.worst_count)));
  EXPECT_EQ(s.worst_vehicles, vs);
  std::vector<double> worst_values;
  for (int v : vs) worst_values.push_back(value(v));
  EXPECT_EQ(s.worst_values, worst_values);
}

// Random metrics with many ties (values on a grid of 1/8), -1 event times, every status.
TEST(BatchSummaryHost, RandomArraysMatchTheRule) {
  const int n = 1000;
  std::vector<double> metrics(static_cast<size_t>(kMetricCount) * n);
  std::vector<int> status(n);
  unsigned state = 12345u;
  const auto next = [&]() { return (state = state * 1664525u + 1013904223u) >> 8; };
  for (int v = 0; v < n; ++v) status[v] = next() % 10 == 0 ? kStatusDiverged : next() % 10 == 0 ? kStatusRolledOver : 0;
  for (double& x : metrics) x = next() % 5 == 0 ? -1.0 : (next() % 64) / 8.0;
  SummaryRequest r;
  r.quantiles = {0.0, 0.01, 0.05, 0.25, 0.5, 0.75, 0.95, 0.99, 1.0, 1.0 / 3.0};
  r.worst_by = "capsize_time";
  r.worst_count = 50;
  const BatchSummary s = summarize_host(metrics.data(), status.data(), plan_summary(r, n));
  // Same summation order (vehicle order, long double) as the reference: the mean is exact.
  expect_summary_matches(s, metrics, status, r, 0.0);
}

#if defined(FLEETDYN_TEST_HAS_STUDY)
// The quantile definition is the study's (study::sorted_quantile), to the bit: every count from 1
// to 40 values, every level on a grid of 1/200 and a few that are not binary fractions.
TEST(BatchSummaryHost, QuantilesAreTheStudysToTheBit) {
  std::vector<double> levels;
  for (int k = 0; k <= 200; ++k) levels.push_back(k / 200.0);
  for (double p : {1.0 / 3.0, 2.0 / 3.0, 1.0 / 7.0, 0.999999}) levels.push_back(p);
  SummaryRequest r;
  r.metrics = {"max_abs_roll"};
  r.quantiles = levels;
  for (int n = 1; n <= 40; ++n) {
    std::vector<double> metrics(static_cast<size_t>(kMetricCount) * n, 0.0);
    std::vector<double> sorted;
    for (int v = 0; v < n; ++v) {
      // Ties, values that are not binary fractions, over ten decades (where the two ways of
      // interpolating round differently).
      const double x = std::sqrt(2.0) * std::pow(10.0, (v * 37) % 11 - 5);
      metrics[static_cast<size_t>(metric::max_abs_roll) * n + v] = x;
      sorted.push_back(x);
    }
    std::sort(sorted.begin(), sorted.end());
    const std::vector<int> status(n, kStatusRunning);
    const BatchSummary s = summarize_host(metrics.data(), status.data(), plan_summary(r, n));
    for (size_t k = 0; k < levels.size(); ++k) {
      EXPECT_EQ(s.metrics[0].quantiles[k], study::sorted_quantile(sorted, levels[k])) << n << " values, p " << levels[k];
    }
  }
}
#endif

// ---- Batch::summary: the request's errors and a stepped batch -------------------------------------

std::string summary_error(Batch& b, const SummaryRequest& r) {
  return test::error_of([&] { b.summary(r); });
}

TEST(BatchSummaryApi, BadRequestsNameTheField) {
  Batch b({hmmwv_params()}, 4, TerrainSpec{}, test::cpu_options());
  const auto expect_error = [&](const SummaryRequest& r, const std::vector<std::string>& parts) {
    const std::string e = summary_error(b, r);
    for (const std::string& p : parts) EXPECT_NE(e.find(p), std::string::npos) << "'" << p << "' not in: " << e;
  };
  SummaryRequest r;
  r.metrics = {"max_abs_roll", "roll"};
  expect_error(r, {"metrics[1]", "unknown metric 'roll'", "max_abs_pitch"});
  r.metrics = {"max_abs_roll", "capsize_time", "max_abs_roll"};
  expect_error(r, {"metrics[2]", "'max_abs_roll' is already listed"});
  r = {};
  r.quantiles = {0.5, 1.5};
  expect_error(r, {"quantiles[1] = 1.5", "outside [0, 1]"});
  r.quantiles = {-0.25};
  expect_error(r, {"quantiles[0] = -0.25", "outside [0, 1]"});
  r.quantiles = {kNaN};
  expect_error(r, {"quantiles[0] = nan", "outside [0, 1]"});
  r = {};
  r.worst_by = "bogus";
  expect_error(r, {"worst_by", "unknown metric 'bogus'"});
  r = {};
  r.worst_count = -1;
  expect_error(r, {"worst_count = -1", "outside [0, 4]"});
  r.worst_count = 5;
  expect_error(r, {"worst_count = 5", "outside [0, 4]"});
  r.worst_count = 4;
  EXPECT_EQ(summary_error(b, r), "") << "the whole batch is allowed";
}

// A batch with something in every status: CG heights from 0.7 to 2.2 m through a hard step steer
// at 20 m/s (the tall ones lift wheels and capsize), and every 16th vehicle with a 1e9 N/m
// bushing, beyond RK4's stability at 1 ms, which diverges.
Batch eventful_batch(int n, const BatchOptions& options) {
  std::vector<StrutParams<double>> params;
  for (int v = 0; v < n; ++v) {
    StrutParams<double> p = hmmwv_params();
    p.cg_height = 0.7 + 1.5 * v / (n - 1);
    if (v % 16 == 5) p.link_stiffness = 1.0e9;
    finalize_vehicle_params(p);
    params.push_back(p);
  }
  Batch b(params, n, TerrainSpec{}, options);
  b.set_initial_conditions({{0.0, 0.0, 0.0, 20.0}});
  b.set_maneuvers({{{0.0, 0.0, 0.2, 0.0}, {0.3, 0.0, 0.2, 0.0}, {0.6, 0.9, 0.2, 0.0}, {5.0, 0.9, 0.2, 0.0}}});
  return b;
}

SummaryRequest full_request(int worst_count) {
  SummaryRequest r;
  r.quantiles = {0.0, 0.05, 0.5, 0.95, 1.0};
  r.worst_by = "max_abs_roll";
  r.worst_count = worst_count;
  return r;
}

TEST(BatchSummaryApi, SteppedCpuBatchMatchesTheRule) {
  const int n = 64;
  Batch b = eventful_batch(n, test::cpu_options());
  b.step(2500);
  const SummaryRequest r = full_request(10);
  const BatchSummary s = b.summary(r);
  EXPECT_GT(s.diverged, 0);
  EXPECT_GT(s.rolled_over, 0);
  EXPECT_GT(s.running, 0);
  EXPECT_GT(find(s, metric::first_liftoff_time).count, 0);
  expect_summary_matches(s, b.metrics(), b.status(), r, 0.0);
}

// The device reduction against the host one over the same arrays, downloaded after it: counts,
// min, max, quantiles and worst vehicles exactly (the same values selected and sorted); the mean
// within 1e-12 relative: every summed value is >= 0, so any summation order of n values in double
// is within (n - 1) u of the exact sum (u = 2^-53: 4.5e-13 for n = 4096; fp32 batches are summed in
// double too), and the host's long double sum far closer.
void expect_device_matches_host(Precision precision) {
  std::string why;
  if (!cuda_available(&why)) GTEST_SKIP() << why;
  const int n = 4096;
  BatchOptions o = test::cpu_options(precision);
  o.backend = BackendKind::Cuda;
  Batch b = eventful_batch(n, o);
  b.step(2500);
  // Everything; the default (no quantiles, no worst list: no scratch memory); two metrics ranked by
  // an event time fewer vehicles have than asked for.
  SummaryRequest chosen;
  chosen.metrics = {"capsize_time", "max_abs_lat_accel"};
  chosen.quantiles = {0.5};
  chosen.worst_by = "capsize_time";
  chosen.worst_count = n;
  const std::vector<SummaryRequest> requests = {full_request(100), SummaryRequest{}, chosen};
  std::vector<BatchSummary> device;
  for (const SummaryRequest& r : requests) device.push_back(b.summary(r));  // nothing downloaded yet
  const std::vector<double> metrics = b.metrics();
  const std::vector<int> status = b.status();
  EXPECT_GT(device[0].diverged, 0);
  EXPECT_GT(device[0].rolled_over, 0);
  for (size_t i = 0; i < requests.size(); ++i) {
    SCOPED_TRACE("request " + std::to_string(i));
    const BatchSummary& d = device[i];
    const BatchSummary host = summarize_host(metrics.data(), status.data(), plan_summary(requests[i], n));
    EXPECT_EQ(d.running, host.running);
    EXPECT_EQ(d.diverged, host.diverged);
    EXPECT_EQ(d.rolled_over, host.rolled_over);
    ASSERT_EQ(d.metrics.size(), host.metrics.size());
    for (size_t k = 0; k < host.metrics.size(); ++k) {
      const MetricSummary &dm = d.metrics[k], &hm = host.metrics[k];
      EXPECT_EQ(dm.count, hm.count) << hm.name;
      if (hm.count == 0) continue;
      EXPECT_EQ(dm.min, hm.min) << hm.name;
      EXPECT_EQ(dm.max, hm.max) << hm.name;
      EXPECT_EQ(dm.quantiles, hm.quantiles) << hm.name;
      EXPECT_NEAR(dm.mean, hm.mean, 1e-12 * std::fabs(hm.mean)) << hm.name;
    }
    EXPECT_EQ(d.worst_vehicles, host.worst_vehicles);
    EXPECT_EQ(d.worst_values, host.worst_values);
    expect_summary_matches(d, metrics, status, requests[i], 1e-12);
  }
}

TEST(BatchSummaryCuda, DeviceMatchesHostFp64) { expect_device_matches_host(Precision::Fp64); }
TEST(BatchSummaryCuda, DeviceMatchesHostFp32) { expect_device_matches_host(Precision::Fp32); }

}  // namespace
}  // namespace fleetdyn
