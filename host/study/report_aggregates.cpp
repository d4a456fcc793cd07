// The report's aggregates (see report_aggregates.h).
#include "host/study/report_aggregates.h"

#include <algorithm>
#include <numeric>

#include "host/study/statistics.h"

namespace fleetdyn::study {

ColumnStats column_stats(const std::vector<double>& values) {
  ColumnStats s;
  s.sorted.reserve(values.size());
  for (double v : values) {
    if (std::isfinite(v)) s.sorted.push_back(v);
  }
  s.missing = static_cast<int64_t>(values.size() - s.sorted.size());
  if (s.sorted.empty()) return s;
  std::sort(s.sorted.begin(), s.sorted.end());
  const double n = static_cast<double>(s.sorted.size());
  s.mean = std::accumulate(s.sorted.begin(), s.sorted.end(), 0.0) / n;
  double ss = 0;
  for (double v : s.sorted) ss += (v - s.mean) * (v - s.mean);
  s.stddev = s.sorted.size() > 1 ? std::sqrt(ss / (n - 1)) : 0.0;
  s.min = s.sorted.front();
  s.max = s.sorted.back();
  s.q05 = sorted_quantile(s.sorted, 0.05);
  s.q50 = sorted_quantile(s.sorted, 0.50);
  s.q95 = sorted_quantile(s.sorted, 0.95);
  return s;
}

double nice_width(double raw) {
  const double p = std::pow(10.0, std::floor(std::log10(raw)));
  for (double f : {1.0, 2.0, 2.5, 5.0, 10.0})
    if (f * p >= raw * (1 - 1e-12)) return f * p;
  return 10 * p;
}

Histogram make_histogram(const std::vector<double>& sorted, int max_bins) {
  Histogram h;
  const double lo = sorted.front(), hi = sorted.back();
  const double n = static_cast<double>(sorted.size());
  if (!(hi > lo)) {  // one value: one bin around it
    h.width = lo != 0 ? nice_width(std::fabs(lo) * 0.1) : 1.0;
    h.lo = lo - h.width / 2;
    h.counts = {static_cast<int64_t>(sorted.size())};
    return h;
  }
  const double iqr = sorted_quantile(sorted, 0.75) - sorted_quantile(sorted, 0.25);
  double target = iqr > 0 ? std::ceil((hi - lo) / (2 * iqr / std::cbrt(n))) : std::ceil(std::sqrt(n));
  target = std::clamp(target, std::min(5.0, n), static_cast<double>(max_bins));
  double w = nice_width((hi - lo) / target);
  int64_t k = 0;
  for (;;) {
    h.lo = std::floor(lo / w) * w;
    k = std::max<int64_t>(1, static_cast<int64_t>(std::ceil((hi - h.lo) / w)));
    if (k <= max_bins) break;
    w = nice_width(w * 1.01);  // the rounding added a bin or two: next nice width
  }
  h.width = w;
  h.counts.assign(static_cast<size_t>(k), 0);
  for (double v : sorted) {
    const auto i = std::clamp<int64_t>(static_cast<int64_t>(std::floor((v - h.lo) / w)), 0, k - 1);
    ++h.counts[static_cast<size_t>(i)];
  }
  return h;
}

void make_cdf(const std::vector<double>& sorted, int points, std::vector<double>& x, std::vector<double>& p) {
  const size_t n = sorted.size();
  if (n <= static_cast<size_t>(points)) {
    for (size_t i = 0; i < n; ++i) {
      x.push_back(sorted[i]);
      p.push_back(static_cast<double>(i) / static_cast<double>(n));
      x.push_back(sorted[i]);
      p.push_back(static_cast<double>(i + 1) / static_cast<double>(n));
    }
    return;
  }
  for (int j = 0; j <= points; ++j) {
    const double q = static_cast<double>(j) / points;
    x.push_back(sorted_quantile(sorted, q));
    p.push_back(q);
  }
}

std::vector<int64_t> order_by(const std::vector<double>& param) {
  std::vector<int64_t> idx;
  idx.reserve(param.size());
  for (size_t i = 0; i < param.size(); ++i)
    if (std::isfinite(param[i])) idx.push_back(static_cast<int64_t>(i));
  std::stable_sort(idx.begin(), idx.end(), [&](int64_t a, int64_t b) { return param[a] < param[b]; });
  return idx;
}

std::vector<size_t> equal_count_boundaries(const std::vector<double>& param, const std::vector<int64_t>& order,
                                           int max_bins, int min_per_bin) {
  const size_t m = order.size();
  std::vector<size_t> b = {0};
  if (m == 0) return b;
  const size_t bins = std::clamp<size_t>(m / static_cast<size_t>(min_per_bin), 1, static_cast<size_t>(max_bins));
  auto value = [&](size_t pos) { return param[static_cast<size_t>(order[pos])]; };
  for (size_t j = 1; j < bins; ++j) {
    size_t t = (j * m + bins / 2) / bins;
    if (value(t - 1) == value(t)) {
      size_t s = t, e = t;
      while (s > 0 && value(s - 1) == value(t)) --s;
      while (e < m && value(e) == value(t)) ++e;
      t = (t - s <= e - t && s > b.back()) ? s : e;
    }
    if (t > b.back() && t < m) b.push_back(t);
  }
  b.push_back(m);
  return b;
}

std::vector<ProbabilityBin> probability_bins(const std::vector<double>& param, const std::vector<int64_t>& order,
                                             const std::vector<size_t>& bounds, const std::vector<uint8_t>& occurred) {
  std::vector<ProbabilityBin> bins;
  for (size_t j = 0; j + 1 < bounds.size(); ++j) {
    ProbabilityBin bin;
    std::vector<double> values;
    for (size_t pos = bounds[j]; pos < bounds[j + 1]; ++pos) {
      const auto i = static_cast<size_t>(order[pos]);
      values.push_back(param[i]);
      bin.k += occurred[i] != 0;
    }
    bin.n = static_cast<int64_t>(values.size());
    bin.lo = values.front();
    bin.hi = values.back();
    bin.x = sorted_quantile(values, 0.5);
    bins.push_back(bin);
  }
  return bins;
}

void decimate(const std::vector<double>& t, const std::vector<double>& y, int points, std::vector<double>& tx,
              std::vector<double>& yx) {
  const size_t n = t.size();
  auto keep = [&](size_t i) {
    const bool ok = std::isfinite(t[i]) && std::isfinite(y[i]);
    if (!ok && !yx.empty() && std::isnan(yx.back())) return;  // one break is enough
    tx.push_back(std::isfinite(t[i]) ? t[i] : NAN);
    yx.push_back(ok ? y[i] : NAN);
  };
  if (n <= static_cast<size_t>(points)) {
    for (size_t i = 0; i < n; ++i) keep(i);
    return;
  }
  const size_t buckets = static_cast<size_t>(points) / 2;
  for (size_t b = 0; b < buckets; ++b) {
    const size_t a = b * n / buckets, e = (b + 1) * n / buckets;
    size_t lo = n, hi = n, gap = n;
    for (size_t i = a; i < e; ++i) {
      if (!std::isfinite(y[i]) || !std::isfinite(t[i])) {
        if (gap == n) gap = i;
        continue;
      }
      if (lo == n || y[i] < y[lo]) lo = i;
      if (hi == n || y[i] > y[hi]) hi = i;
    }
    // the bucket's minimum, maximum and first gap, in time order
    std::vector<size_t> picks;
    for (size_t i : {lo, hi, gap})
      if (i != n && std::find(picks.begin(), picks.end(), i) == picks.end()) picks.push_back(i);
    std::sort(picks.begin(), picks.end());
    for (size_t i : picks) keep(i);
  }
}

}  // namespace fleetdyn::study
