// report.html: aggregates in C++ (so the page stays small for a million samples), static HTML for
// the header and tables (readable without script), one JSON block with the aggregates and an
// inline script that draws them as SVG. See report.h for what the page shows.
#include "host/study/report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "fleetdyn/error.h"
#include "host/output_files.h"
#include "host/svg_plot.h"
#include "host/study/statistics.h"

namespace fleetdyn::study {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr double kConfidence = 0.95;

// ---- input checks ---------------------------------------------------------------------------------

void check_length(const std::string& what, size_t actual, int64_t expected, const char* expected_name) {
  if (static_cast<int64_t>(actual) != expected)
    throw Error("report: " + what + " has " + std::to_string(actual) + " values, expected " + std::to_string(expected) +
                " (" + expected_name + ")");
}

void validate(const StudyReport& r, const ReportOptions& o) {
  if (r.sample_count < 0) throw Error("report: sample_count is negative (" + std::to_string(r.sample_count) + ")");
  if (!r.sample_ids.empty()) check_length("sample_ids", r.sample_ids.size(), r.sample_count, "sample_count");
  for (const ReportColumn& c : r.parameters) check_length("parameter '" + c.name + "'", c.values.size(), r.sample_count, "sample_count");
  for (const ReportColumn& c : r.metrics) check_length("metric '" + c.name + "'", c.values.size(), r.sample_count, "sample_count");
  for (const ReportEvent& e : r.events) check_length("event '" + e.name + "'", e.occurred.size(), r.sample_count, "sample_count");
  for (const ReportTrace& t : r.worst_cases)
    for (const ReportColumn& c : t.channels)
      check_length("worst-case trace of sample " + std::to_string(t.sample) + ", channel '" + c.name + "'", c.values.size(),
                   static_cast<int64_t>(t.time.size()), "its time points");
  struct Option {
    const char* name;
    int value, least;
  };
  const Option options[] = {{"histogram_max_bins", o.histogram_max_bins, 1}, {"cdf_points", o.cdf_points, 1},
                            {"probability_bins", o.probability_bins, 1}, {"min_samples_per_bin", o.min_samples_per_bin, 1},
                            {"trace_points", o.trace_points, 4}};  // a min and a max per bucket, two buckets at least
  for (const Option& opt : options)
    if (opt.value < opt.least)
      throw Error(std::string("report: option ") + opt.name + " must be at least " + std::to_string(opt.least) + ", got " +
                  std::to_string(opt.value));
}

// ---- text -----------------------------------------------------------------------------------------

// `sig` significant digits; an exponent only outside 1e-4 <= |x| < 1e7 ("0.000384", "1234.5",
// "2.9e-8"), as the page's script writes numbers.
std::string format_sig(double x, int sig = 4) {
  if (!std::isfinite(x)) return "&ndash;";
  if (x == 0) return "0";
  const double a = std::fabs(x);
  char buf[64];
  if (a < 1e-4 || a >= 1e7) {
    std::snprintf(buf, sizeof buf, "%.*e", sig - 1, x);
    const std::string s = buf;  // "2.900e-08" -> "2.900e-8"
    const size_t e = s.find('e');
    std::string exponent = s.substr(e + 1);
    const bool negative = exponent[0] == '-';
    exponent.erase(0, exponent.find_first_not_of("+-0"));
    return s.substr(0, e) + "e" + (negative ? "-" : "") + (exponent.empty() ? "0" : exponent);
  }
  const int decimals = std::max(0, sig - 1 - static_cast<int>(std::floor(std::log10(a))));
  std::snprintf(buf, sizeof buf, "%.*f", decimals, x);
  std::string s = buf;  // trailing zeros of the fraction go: "0.5000" -> "0.5"
  if (s.find('.') != std::string::npos) {
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
  }
  return s == "-0" ? "0" : s;
}

// 1234567 -> "1 234 567" (narrow no-break spaces), easier to read than a bare run of digits.
std::string format_count(int64_t n) {
  std::string digits = std::to_string(n < 0 ? -n : n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += "&#8239;";
    out += digits[i];
  }
  return n < 0 ? "-" + out : out;
}

std::string format_percent(double p) {
  if (!std::isfinite(p)) return "&ndash;";
  return format_sig(100.0 * p, 3) + "&nbsp;%";
}

std::string format_duration(double s) {
  if (!std::isfinite(s) || s < 0) return "&ndash;";
  char buf[64];
  if (s < 120) {
    std::snprintf(buf, sizeof buf, "%s s", format_sig(s, 3).c_str());
  } else if (s < 7200) {
    std::snprintf(buf, sizeof buf, "%d min %d s", static_cast<int>(s / 60), static_cast<int>(std::fmod(s, 60.0)));
  } else {
    std::snprintf(buf, sizeof buf, "%d h %d min", static_cast<int>(s / 3600), static_cast<int>(std::fmod(s, 3600.0) / 60));
  }
  return buf;
}

json num(double x) { return std::isfinite(x) ? json(x) : json(nullptr); }  // JSON has no NaN

// Plot coordinates rounded to about 1e-6 of the data's range, which a plot cannot tell apart but
// keeps the page small (17 digits per number otherwise). Relative to the range, not to each value:
// 1e9 + (0 .. 3e4) keeps its spread.
json plot_coordinates(const std::vector<double>& xs) {
  double lo = INFINITY, hi = -INFINITY;
  for (double x : xs) {
    if (std::isfinite(x)) {
      lo = std::min(lo, x);
      hi = std::max(hi, x);
    }
  }
  const double scale = hi > lo ? hi - lo : std::fabs(lo);
  const int quantum = std::isfinite(scale) && scale > 0 ? static_cast<int>(std::floor(std::log10(scale))) - 6 : 0;
  json a = json::array();
  for (double x : xs) {
    if (std::isfinite(x) && x != 0 && scale > 0) {
      const int sig = std::clamp(static_cast<int>(std::floor(std::log10(std::fabs(x)))) - quantum + 1, 1, 17);
      char buf[40];
      std::snprintf(buf, sizeof buf, "%.*e", sig - 1, x);
      x = std::strtod(buf, nullptr);
    }
    a.push_back(num(x));
  }
  return a;
}

// ---- aggregates -----------------------------------------------------------------------------------

struct ColumnStats {
  std::vector<double> sorted;  // the finite values, ascending
  int64_t missing = 0;
  double mean = NAN, stddev = NAN, min = NAN, max = NAN, q05 = NAN, q50 = NAN, q95 = NAN;
};

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

// The smallest of 1, 2, 2.5, 5 x 10^k that is >= raw (bin widths that read well on an axis).
double nice_width(double raw) {
  const double p = std::pow(10.0, std::floor(std::log10(raw)));
  for (double f : {1.0, 2.0, 2.5, 5.0, 10.0})
    if (f * p >= raw * (1 - 1e-12)) return f * p;
  return 10 * p;
}

struct Histogram {
  double lo = 0, width = 1;
  std::vector<int64_t> counts;
};

// Freedman-Diaconis bin count (robust to tails; sqrt(n) when the IQR is 0), at most max_bins,
// with a "nice" width and edges on multiples of it.
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

// The empirical CDF as a polyline: the exact step function for few samples, otherwise the
// type-7 quantile function at `points` + 1 equally spaced probabilities.
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

struct ProbabilityBin {
  double lo = 0, hi = 0, x = 0;  // the bin's parameter range and median
  int64_t n = 0, k = 0;          // samples, and those with the event
};

// Samples with a finite parameter value, in ascending order of it (ties by sample order).
std::vector<int64_t> order_by(const std::vector<double>& param) {
  std::vector<int64_t> idx;
  idx.reserve(param.size());
  for (size_t i = 0; i < param.size(); ++i)
    if (std::isfinite(param[i])) idx.push_back(static_cast<int64_t>(i));
  std::stable_sort(idx.begin(), idx.end(), [&](int64_t a, int64_t b) { return param[a] < param[b]; });
  return idx;
}

// Bin boundaries (positions in `order`) of about equal counts; a boundary never splits equal
// parameter values (it moves to the nearer end of the run of ties), so each bin is a disjoint
// value range [lo, hi] and a discrete parameter gets one bin per level at most.
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

// Min/max decimation to about `points` points: each bucket keeps its lowest and highest value in
// time order, so peaks (what a worst case is about) survive. Non-finite values break the line.
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

// ---- the page -------------------------------------------------------------------------------------

struct Aggregates {
  json data;
  std::vector<ColumnStats> metric_stats, parameter_stats;
  struct EventSummary {
    int64_t count = 0;
    double p = NAN;
    Interval ci{NAN, NAN};
  };
  std::vector<EventSummary> events;
};

Aggregates aggregate(const StudyReport& r, const ReportOptions& o) {
  Aggregates a;
  int64_t expected_plots = 0;
  json& d = a.data;

  // metrics: histogram + CDF each
  d["metrics"] = json::array();
  for (const ReportColumn& c : r.metrics) {
    ColumnStats s = column_stats(c.values);
    json m = {{"name", c.name}, {"unit", c.unit}, {"n", static_cast<int64_t>(s.sorted.size())}, {"missing", s.missing},
              {"mean", num(s.mean)}, {"std", num(s.stddev)}, {"min", num(s.min)}, {"max", num(s.max)},
              {"q05", num(s.q05)}, {"q50", num(s.q50)}, {"q95", num(s.q95)}};
    if (!s.sorted.empty()) {
      const Histogram h = make_histogram(s.sorted, o.histogram_max_bins);
      m["hist"] = {{"lo", h.lo}, {"width", h.width}, {"counts", h.counts}};
      std::vector<double> x, p;
      make_cdf(s.sorted, o.cdf_points, x, p);
      m["cdf"] = {{"x", plot_coordinates(x)}, {"p", plot_coordinates(p)}};
      expected_plots += 2;
    }
    d["metrics"].push_back(std::move(m));
    a.metric_stats.push_back(std::move(s));
  }
  for (const ReportColumn& c : r.parameters) a.parameter_stats.push_back(column_stats(c.values));

  // events: overall, then per parameter in equal-count bins (the orders and bins are the
  // parameter's, shared by every event)
  std::vector<std::vector<int64_t>> orders;
  std::vector<std::vector<size_t>> bounds;
  if (!r.events.empty()) {
    for (const ReportColumn& c : r.parameters) {
      orders.push_back(order_by(c.values));
      bounds.push_back(equal_count_boundaries(c.values, orders.back(), o.probability_bins, o.min_samples_per_bin));
    }
  }
  d["events"] = json::array();
  for (const ReportEvent& e : r.events) {
    Aggregates::EventSummary es;
    for (uint8_t v : e.occurred) es.count += v != 0;
    if (r.sample_count > 0) {
      es.p = static_cast<double>(es.count) / static_cast<double>(r.sample_count);
      es.ci = wilson_interval(es.count, r.sample_count, kConfidence);
    }
    json ev = {{"name", e.name}, {"description", e.description}, {"count", es.count}, {"n", r.sample_count},
               {"p", num(es.p)}, {"ci_lo", num(es.ci.lo)}, {"ci_hi", num(es.ci.hi)}, {"by_parameter", json::array()}};
    for (size_t j = 0; j < r.parameters.size(); ++j) {
      const ReportColumn& c = r.parameters[j];
      json bp = {{"parameter", c.name}, {"unit", c.unit}, {"n", static_cast<int64_t>(orders[j].size())}, {"bins", json::array()}};
      for (const ProbabilityBin& b : probability_bins(c.values, orders[j], bounds[j], e.occurred)) {
        const Interval ci = wilson_interval(b.k, b.n, kConfidence);
        bp["bins"].push_back({{"lo", b.lo}, {"hi", b.hi}, {"x", b.x}, {"n", b.n}, {"k", b.k},
                              {"p", static_cast<double>(b.k) / static_cast<double>(b.n)}, {"ci_lo", ci.lo}, {"ci_hi", ci.hi}});
      }
      if (!bp["bins"].empty()) ++expected_plots;
      ev["by_parameter"].push_back(std::move(bp));
    }
    d["events"].push_back(std::move(ev));
    a.events.push_back(es);
  }

  // sensitivities: one group per metric (in order of first appearance), rows most important first
  std::vector<std::string> group_names;
  std::map<std::string, std::vector<const ReportSensitivity*>> groups;
  for (const ReportSensitivity& s : r.sensitivities) {
    if (!groups.count(s.metric)) group_names.push_back(s.metric);
    groups[s.metric].push_back(&s);
  }
  d["sensitivity"] = json::array();
  for (const std::string& name : group_names) {
    std::vector<const ReportSensitivity*>& rows = groups[name];
    auto importance = [](const ReportSensitivity* s) {
      double v = -1;
      for (double x : {std::fabs(s->spearman), s->sobol_first, s->sobol_total})
        if (std::isfinite(x)) v = std::max(v, x);
      return v;
    };
    rows.erase(std::remove_if(rows.begin(), rows.end(), [&](const ReportSensitivity* s) { return importance(s) < 0; }),
               rows.end());
    if (rows.empty()) continue;  // nothing to draw for this metric
    std::stable_sort(rows.begin(), rows.end(),
                     [&](const ReportSensitivity* x, const ReportSensitivity* y) { return importance(x) > importance(y); });
    std::string unit;
    for (const ReportColumn& c : r.metrics)
      if (c.name == name) unit = c.unit;
    json g = {{"metric", name}, {"unit", unit}, {"rows", json::array()}};
    for (const ReportSensitivity* s : rows)
      g["rows"].push_back({{"parameter", s->parameter}, {"spearman", num(s->spearman)},
                           {"sobol_first", num(s->sobol_first)}, {"sobol_total", num(s->sobol_total)}});
    d["sensitivity"].push_back(std::move(g));
    ++expected_plots;
  }

  // worst cases: one plot per channel name (in order of first appearance), one line per trace
  json traces = json::array();
  for (const ReportTrace& t : r.worst_cases) traces.push_back({{"sample", t.sample}, {"label", t.label}});
  json channels = json::array();
  std::vector<std::string> channel_names;
  for (const ReportTrace& t : r.worst_cases)
    for (const ReportColumn& c : t.channels)
      if (std::find(channel_names.begin(), channel_names.end(), c.name) == channel_names.end()) channel_names.push_back(c.name);
  for (const std::string& name : channel_names) {
    json ch = {{"name", name}, {"unit", ""}, {"series", json::array()}};
    for (size_t i = 0; i < r.worst_cases.size(); ++i) {
      const ReportTrace& t = r.worst_cases[i];
      for (const ReportColumn& c : t.channels) {
        if (c.name != name) continue;
        if (ch["unit"].get<std::string>().empty()) ch["unit"] = c.unit;
        std::vector<double> tx, yx;
        decimate(t.time, c.values, o.trace_points, tx, yx);
        if (std::none_of(yx.begin(), yx.end(), [](double v) { return std::isfinite(v); })) continue;
        ch["series"].push_back({{"trace", i}, {"t", plot_coordinates(tx)}, {"y", plot_coordinates(yx)}});
      }
    }
    if (!ch["series"].empty()) ++expected_plots;
    channels.push_back(std::move(ch));
  }
  d["traces"] = {{"list", traces}, {"channels", channels}};
  d["trace_points"] = o.trace_points;
  d["expected_plots"] = expected_plots;
  return a;
}

// The JSON as the text of a <script> element: '<', '>' and '&' only occur inside JSON strings, so
// writing them as \u escapes keeps "</script>" and "<!--" out of the element without changing the
// data.
std::string embeddable_json(const json& d) {
  const std::string s = d.dump(-1, ' ', false, json::error_handler_t::replace);
  std::string out;
  out.reserve(s.size() + 64);
  for (char c : s) {
    switch (c) {
      case '<': out += "\\u003c"; break;
      case '>': out += "\\u003e"; break;
      case '&': out += "\\u0026"; break;
      default: out += c;
    }
  }
  return out;
}

const char* const kStyle = R"CSS(
:root { --fg: #1c2430; --muted: #5d6878; --line: #dde2ea; --bg: #f4f6f9; --card: #fff; --head: #1e2b3a; }
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; background: var(--bg); color: var(--fg);
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
header { background: var(--head); color: #fff; padding: 22px 32px 20px; }
header h1 { margin: 0; font-size: 22px; font-weight: 600; letter-spacing: .01em; }
header .sub { color: #b8c4d3; margin-top: 2px; }
dl.meta { display: grid; grid-template-columns: repeat(auto-fill, minmax(170px, 1fr)); gap: 10px 28px; margin: 16px 0 0; }
dl.meta dt { font-size: 11px; text-transform: uppercase; letter-spacing: .06em; color: #93a3b8; }
dl.meta dd { margin: 1px 0 0; font-weight: 500; overflow-wrap: anywhere; }
nav { background: #fff; border-bottom: 1px solid var(--line); padding: 0 32px; position: sticky; top: 0; z-index: 1; }
nav a { display: inline-block; padding: 9px 12px 8px; color: var(--muted); text-decoration: none; font-weight: 500;
  border-bottom: 2px solid transparent; }
nav a:hover { color: var(--fg); border-bottom-color: #4e79a7; }
main { max-width: 1400px; margin: 0 auto; padding: 4px 32px 40px; }
section { margin-top: 26px; }
h2 { font-size: 18px; font-weight: 600; margin: 0 0 4px; padding-bottom: 6px; border-bottom: 1px solid var(--line); }
h3 { font-size: 14px; font-weight: 600; margin: 0; }
h3 .unit, th .unit { color: var(--muted); font-weight: 400; }
p.note { color: var(--muted); margin: 6px 0 12px; max-width: 110ch; }
p.empty { background: #fff; border: 1px dashed #c4ccd8; border-radius: 6px; padding: 14px 16px; color: var(--muted); }
.tables { display: flex; flex-wrap: wrap; gap: 18px 28px; align-items: flex-start; }
.tables > div { min-width: 0; max-width: 100%; overflow-x: auto; }
.tables h3 { margin: 10px 0 6px; }
table.data { border-collapse: collapse; background: var(--card); border: 1px solid var(--line); border-radius: 6px;
  font-variant-numeric: tabular-nums; font-size: 13px; }
table.data th, table.data td { padding: 5px 10px; border-bottom: 1px solid #edf0f4; text-align: right; white-space: nowrap; }
table.data th { background: #f7f9fb; font-weight: 600; color: #3a4554; }
table.data th:first-child, table.data td:first-child { text-align: left; }
table.data th.desc { text-align: left; }
table.data td.desc { text-align: left; white-space: normal; color: var(--muted); min-width: 14ch; max-width: 40ch; }
table.data tr:last-child td { border-bottom: none; }
.cards { display: flex; flex-wrap: wrap; gap: 16px; margin-top: 10px; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 12px 14px 8px;
  box-shadow: 0 1px 2px rgba(20, 30, 50, .04); min-width: 0; max-width: 100%; }
.card.full { flex: 1 1 100%; }
.card .caption { color: var(--muted); font-size: 12.5px; margin: 2px 0 6px; }
.card .plots { display: flex; flex-wrap: wrap; gap: 4px 18px; }
.card .plots > div { min-width: 0; }
.card .missing { color: var(--muted); font-style: italic; margin: 8px 0; }
svg.plot { display: block; max-width: 100%; height: auto; overflow: visible;
  font: 11px system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
svg.plot text { fill: #3a4554; }
svg.plot .title { font-size: 12px; font-weight: 600; fill: var(--fg); }
svg.plot .axis-title { fill: var(--muted); }
svg.plot .grid { stroke: #edf0f4; }
svg.plot .axis { stroke: #8e98a8; }
svg.plot .zero { stroke: #8e98a8; }
svg.plot .guide { stroke: #c0392b; stroke-dasharray: 4 3; stroke-width: 1; }
svg.plot .guide-text { fill: #c0392b; font-size: 10.5px; paint-order: stroke; stroke: #fff; stroke-width: 3px; stroke-linejoin: round; }
svg.plot .overall { stroke: #7f8896; stroke-dasharray: 5 4; }
svg.plot .mark:hover { opacity: .75; }
.err { color: #b00020; }
footer { max-width: 1400px; margin: 0 auto; padding: 0 32px 30px; color: var(--muted); font-size: 12px; }
@media print { nav { display: none; } body { background: #fff; } .card { break-inside: avoid; box-shadow: none; } }
)CSS";

// Installed before the main script so that even a syntax error in it is recorded.
const char* const kErrorHook = R"JS(
window.onerror = function (message, source, line) {
  var b = document.body || document.documentElement;
  b.dataset.error = (b.dataset.error ? b.dataset.error + '; ' : '') + message + (line ? ' (line ' + line + ')' : '');
};
)JS";

const char* const kScript = R"JS(
(function () {
  'use strict';
  var body = document.body;
  var data = JSON.parse(document.getElementById('study-data').textContent);
  body.dataset.plotsExpected = String(data.expected_plots);
  var drawn = 0;
  var PALETTE = ['#4e79a7', '#f28e2b', '#e15759', '#59a14f', '#b07aa1', '#76b7b2', '#edc948', '#9c755f', '#ff9da7', '#bab0ac'];
  var BAR = '#4e79a7';

  function esc(s) {
    return String(s).replace(/[&<>"']/g, function (c) {
      return {'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;'}[c];
    });
  }
  function fin(v) { return typeof v === 'number' && isFinite(v); }
  function withUnit(name, unit) { return unit ? name + ' [' + unit + ']' : name; }
  function group(s) {  // thousands separators in the integer part: "12345.0005" -> "12 345.0005"
    var dot = s.indexOf('.'), whole = dot < 0 ? s : s.slice(0, dot);
    return whole.replace(/\B(?=(\d{3})+$)/g, '\u202f') + (dot < 0 ? '' : s.slice(dot));
  }
  // A value for a label or tooltip: 4 significant digits, exponent only when far from 1.
  function fmt(v, sig) {
    if (!fin(v)) return '\u2013';
    if (v === 0) return '0';
    var a = Math.abs(v);
    if (a < 1e-4 || a >= 1e7) return v.toExponential((sig || 4) - 1).replace('e+', 'e');
    var s = String(Number(v.toPrecision(sig || 4)));
    return a >= 1e4 ? group(s) : s;
  }
  function pct(p) { return fin(p) ? fmt(100 * p, 3) + '\u00a0%' : '\u2013'; }
  function count(n) { return group(String(n)); }

  // Axis ticks: a step of 1, 2 or 5 x 10^k, about n of them in [lo, hi]; expand: the domain grows
  // to whole steps (for axes starting at a round number), otherwise it stays [lo, hi].
  function axis(lo, hi, n, expand, integer) {
    if (!(hi > lo)) { var c = fin(lo) ? lo : 0, d = c !== 0 ? Math.abs(c) * 0.1 : 1; lo = c - d; hi = c + d; }
    var raw = (hi - lo) / (n || 5), p = Math.pow(10, Math.floor(Math.log10(raw))), f = raw / p;
    var step = (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * p;
    if (integer && step < 1) step = 1;
    if (expand) { lo = Math.floor(lo / step + 1e-9) * step; hi = Math.ceil(hi / step - 1e-9) * step; }
    var ticks = [], first = Math.ceil(lo / step - 1e-9);
    for (var i = first; i * step <= hi + step * 1e-9 && ticks.length < 50; ++i) ticks.push(Math.abs(i * step) < step * 1e-9 ? 0 : i * step);
    // very large or small values: labels in units of 10^exp (a power of 1000), "x10^exp" in the title
    var a = Math.max(Math.abs(lo), Math.abs(hi)), exp = 0;
    if (a >= 1e6 || (a > 0 && a < 1e-3)) exp = 3 * Math.floor(Math.log10(a) / 3);
    return {lo: lo, hi: hi, step: step, ticks: ticks, exp: exp};
  }
  function tickLabel(v, ax) {
    if (v === 0) return '0';
    var scale = Math.pow(10, ax.exp), x = v / scale;
    var s = x.toFixed(Math.min(15, Math.max(0, -Math.floor(Math.log10(ax.step / scale) + 1e-9))));
    return Math.abs(x) >= 1e4 ? group(s) : s;
  }
  function axisTitle(title, ax) {
    return esc(title) + (ax.exp ? ' (\u00d710<tspan dy="-4" font-size="8">' + ax.exp + '</tspan>)' : '');
  }

  // A plot: fixed pixel size (text stays 11 px), margins m, axes x and y from axis().
  function Plot(o) {
    this.w = o.w || 440; this.h = o.h || 270;
    this.m = o.m || {l: 62, r: 16, t: 30, b: 44};
    this.x = o.x; this.y = o.y; this.id = o.id; this.parts = [];
    if (o.title) this.parts.push('<text class="title" x="' + this.m.l + '" y="16">' + esc(o.title) + '</text>');
  }
  Plot.prototype.sx = function (v) { return this.m.l + (v - this.x.lo) / (this.x.hi - this.x.lo) * (this.w - this.m.l - this.m.r); };
  Plot.prototype.sy = function (v) { return this.h - this.m.b - (v - this.y.lo) / (this.y.hi - this.y.lo) * (this.h - this.m.t - this.m.b); };
  Plot.prototype.add = function (s) { this.parts.push(s); };
  Plot.prototype.axes = function (xTitle, yTitle, yFormat) {
    var x0 = this.m.l, x1 = this.w - this.m.r, y0 = this.h - this.m.b, y1 = this.m.t, self = this, s = [];
    // every tick gets a grid line; labels are thinned out where they would overlap
    var labels = this.x.ticks.map(function (t) { return tickLabel(t, self.x); });
    var widest = Math.max.apply(null, labels.map(function (l) { return l.length; }).concat([1])) * 6.3 + 10;
    var spacing = this.x.ticks.length > 1 ? Math.abs(this.sx(this.x.ticks[1]) - this.sx(this.x.ticks[0])) : Infinity;
    var every = Math.max(1, Math.ceil(widest / spacing));
    this.x.ticks.forEach(function (t, k) {
      var x = self.sx(t).toFixed(1);
      s.push('<line class="grid" x1="' + x + '" x2="' + x + '" y1="' + y1 + '" y2="' + y0 + '"/>');
      if (k % every) return;
      s.push('<line class="axis" x1="' + x + '" x2="' + x + '" y1="' + y0 + '" y2="' + (y0 + 4) + '"/>');
      s.push('<text x="' + x + '" y="' + (y0 + 16) + '" text-anchor="middle">' + labels[k] + '</text>');
    });
    this.y.ticks.forEach(function (t) {
      var y = self.sy(t).toFixed(1);
      s.push('<line class="grid" x1="' + x0 + '" x2="' + x1 + '" y1="' + y + '" y2="' + y + '"/>');
      s.push('<line class="axis" x1="' + (x0 - 4) + '" x2="' + x0 + '" y1="' + y + '" y2="' + y + '"/>');
      s.push('<text x="' + (x0 - 7) + '" y="' + y + '" dy="0.35em" text-anchor="end">' + (yFormat ? yFormat(t) : tickLabel(t, self.y)) + '</text>');
    });
    s.push('<line class="axis" x1="' + x0 + '" x2="' + x1 + '" y1="' + y0 + '" y2="' + y0 + '"/>');
    s.push('<line class="axis" x1="' + x0 + '" x2="' + x0 + '" y1="' + y1 + '" y2="' + y0 + '"/>');
    s.push('<text class="axis-title" x="' + ((x0 + x1) / 2) + '" y="' + (this.h - 8) + '" text-anchor="middle">' + axisTitle(xTitle, this.x) + '</text>');
    if (yTitle) s.push('<text class="axis-title" transform="translate(13 ' + ((y0 + y1) / 2) + ') rotate(-90)" text-anchor="middle">' + axisTitle(yTitle, this.y) + '</text>');
    this.parts.push(s.join(''));
  };
  Plot.prototype.svg = function () {
    return '<svg class="plot" width="' + this.w + '" height="' + this.h + '" viewBox="0 0 ' + this.w + ' ' + this.h +
      '" data-plot="' + esc(this.id) + '" role="img">' + this.parts.join('') + '</svg>';
  };
  // A path through the points (x, y); a null or non-finite point breaks the line.
  function linePath(plot, xs, ys) {
    var d = [], pen = false;
    for (var i = 0; i < xs.length; ++i) {
      if (!fin(xs[i]) || !fin(ys[i])) { pen = false; continue; }
      d.push((pen ? 'L' : 'M') + plot.sx(xs[i]).toFixed(1) + ' ' + plot.sy(ys[i]).toFixed(1));
      pen = true;
    }
    return d.join('');
  }
  function rect(x, y, w, h, fill, tip) {
    return '<rect class="mark" x="' + x.toFixed(1) + '" y="' + y.toFixed(1) + '" width="' + w.toFixed(1) + '" height="' + h.toFixed(1) +
      '" fill="' + fill + '"><title>' + esc(tip) + '</title></rect>';
  }
  // Legend entries [{label, colour, kind: 'line' | 'box'}] in rows of at most `width` px: the
  // layout first (a plot reserves its height), then the drawing at (x, y).
  var LEGEND_ROW = 16;
  function legendLayout(items, width) {
    var cx = 0, row = 0, at = [];
    items.forEach(function (it) {
      var w = 22 + Math.min(it.label.length, 40) * 6.2 + 14;
      if (cx > 0 && cx + w > width) { cx = 0; ++row; }
      at.push({x: cx, row: row});
      cx += w;
    });
    return {at: at, height: (row + 1) * LEGEND_ROW};
  }
  function legend(plot, items, layout, x, y) {
    items.forEach(function (it, k) {
      var cx = x + layout.at[k].x, cy = y + layout.at[k].row * LEGEND_ROW;
      plot.add(it.kind === 'box'
        ? '<rect x="' + cx + '" y="' + (cy - 5) + '" width="14" height="10" rx="1.5" fill="' + it.colour + '"/>'
        : '<line x1="' + cx + '" x2="' + (cx + 16) + '" y1="' + cy + '" y2="' + cy + '" stroke="' + it.colour + '" stroke-width="2.2"/>');
      var label = it.label.length > 40 ? it.label.slice(0, 39) + '\u2026' : it.label;
      plot.add('<text x="' + (cx + 21) + '" y="' + cy + '" dy="0.35em">' + esc(label) + '</text>');
    });
  }
  // Plot width so that `count` plots of at least minW share a row of the container `into`
  // (text stays 11 px whatever the window; the SVGs only shrink below minW on narrow screens).
  function fitWidth(into, count, minW, maxW) {
    var avail = into.clientWidth || 1200, gap = 18;
    var perRow = Math.max(1, Math.min(count, Math.floor((avail + gap) / (minW + gap))));
    return Math.max(Math.min(minW, avail), Math.min(maxW, Math.floor((avail - gap * (perRow - 1)) / perRow) - 1));
  }

  // Draws one plot into `into`: counted only when it was drawn without error.
  function draw(into, what, make) {
    try {
      into.insertAdjacentHTML('beforeend', '<div>' + make() + '</div>');
      ++drawn;
    } catch (e) {
      body.dataset.error = (body.dataset.error ? body.dataset.error + '; ' : '') + what + ': ' + (e && e.message ? e.message : e);
      into.insertAdjacentHTML('beforeend', '<p class="err">' + esc(what) + ': could not be drawn (' + esc(e && e.message ? e.message : e) + ')</p>');
    }
  }
  function card(container, full, title, caption) {
    var c = document.createElement('div');
    c.className = 'card' + (full ? ' full' : '');
    c.innerHTML = '<h3>' + title + '</h3>' + (caption ? '<div class="caption">' + caption + '</div>' : '') + '<div class="plots"></div>';
    container.appendChild(c);
    return c.querySelector('.plots');
  }
  function titleHtml(name, unit) { return esc(name) + (unit ? ' <span class="unit">[' + esc(unit) + ']</span>' : ''); }

  // ---- metrics: histogram and CDF ----
  function histogram(m, i, w) {
    var h = m.hist, k = h.counts.length, lo = h.lo, hi = h.lo + k * h.width;
    var maxc = Math.max.apply(null, h.counts);
    var p = new Plot({id: 'hist:' + i, w: w, h: plotHeight(w), title: 'Histogram',
      x: axis(lo, hi, Math.round(w / 75), false), y: axis(0, Math.max(maxc, 1) * 1.05, 5, false, true)});
    p.axes(withUnit(m.name, m.unit), 'samples');
    var base = p.sy(0);
    h.counts.forEach(function (c, j) {
      if (c <= 0) return;
      var a = p.sx(lo + j * h.width), b = p.sx(lo + (j + 1) * h.width), gap = b - a > 4 ? 0.5 : 0, top = Math.min(p.sy(c), base - 1);
      p.add(rect(a + gap, top, Math.max(b - a - 2 * gap, 0.8), base - top, BAR,
        '[' + fmt(lo + j * h.width) + ', ' + fmt(lo + (j + 1) * h.width) + '): ' + count(c) + ' samples (' + pct(c / m.n) + ')'));
    });
    [['q05', '5 %'], ['q50', 'median'], ['q95', '95 %']].forEach(function (q) {
      var x = p.sx(m[q[0]]).toFixed(1);
      p.add('<line class="guide" x1="' + x + '" x2="' + x + '" y1="' + p.m.t + '" y2="' + base + '"><title>' + q[1] + ': ' + fmt(m[q[0]]) + '</title></line>');
    });
    return p.svg();
  }
  function plotHeight(w) { return Math.round(Math.max(250, Math.min(320, 0.55 * w))); }
  function cdf(m, i, w) {
    var h = m.hist, lo = h.lo, hi = h.lo + h.counts.length * h.width;
    var p = new Plot({id: 'cdf:' + i, w: w, h: plotHeight(w), title: 'Empirical CDF',
      x: axis(lo, hi, Math.round(w / 75), false), y: axis(0, 1, 4, false)});
    p.axes(withUnit(m.name, m.unit), 'fraction of samples \u2264 x');
    p.add('<path class="mark" d="' + linePath(p, m.cdf.x, m.cdf.p) + '" fill="none" stroke="' + BAR + '" stroke-width="1.8" stroke-linejoin="round"/>');
    var x0 = p.m.l, y0 = p.sy(0);
    [[0.05, 'q05', '5 %'], [0.5, 'q50', 'median'], [0.95, 'q95', '95 %']].forEach(function (q) {
      var x = p.sx(m[q[1]]), y = p.sy(q[0]);
      p.add('<path class="guide" d="M' + x0 + ' ' + y.toFixed(1) + 'H' + x.toFixed(1) + 'V' + y0.toFixed(1) + '" fill="none"/>');
      p.add('<circle cx="' + x.toFixed(1) + '" cy="' + y.toFixed(1) + '" r="3" fill="#c0392b"/>');
      var right = x < p.w - p.m.r - 110;
      p.add('<text class="guide-text" x="' + (right ? x + 6 : x - 6).toFixed(1) + '" y="' + (y + (q[0] > 0.9 ? 12 : -5)).toFixed(1) +
        '" text-anchor="' + (right ? 'start' : 'end') + '">' + q[2] + ': ' + fmt(m[q[1]]) + '</text>');
    });
    return p.svg();
  }
  var mp = document.getElementById('metric-plots');
  if (mp) data.metrics.forEach(function (m, i) {
    var caption = m.n > 0
      ? 'n = ' + count(m.n) + (m.missing ? ', ' + count(m.missing) + ' missing' : '') + ' \u00b7 mean ' + fmt(m.mean) + ' \u00b7 std ' + fmt(m.std) +
        ' \u00b7 min ' + fmt(m.min) + ' \u00b7 5 % ' + fmt(m.q05) + ' \u00b7 median ' + fmt(m.q50) + ' \u00b7 95 % ' + fmt(m.q95) + ' \u00b7 max ' + fmt(m.max)
      : '';
    var into = card(mp, true, titleHtml(m.name, m.unit), caption);
    if (!(m.n > 0)) { into.insertAdjacentHTML('beforeend', '<p class="missing">No finite values: all ' + count(m.missing) + ' samples missing.</p>'); return; }
    var w = fitWidth(into, 2, 380, 660);
    draw(into, 'histogram of ' + m.name, function () { return histogram(m, i, w); });
    draw(into, 'CDF of ' + m.name, function () { return cdf(m, i, w); });
  });

  // ---- events: probability against each parameter ----
  function eventPlot(ev, bp, i, j, yAxis, w) {
    var b = bp.bins, lo = b[0].lo, hi = b[b.length - 1].hi;
    var p = new Plot({id: 'event:' + i + ':' + j, w: w, h: 240, m: {l: 52, r: 14, t: 12, b: 42}, x: axis(lo, hi, Math.round(w / 70), true), y: yAxis});
    p.axes(withUnit(bp.parameter, bp.unit), 'P(' + ev.name + ') [%]');
    if (fin(ev.p)) {
      var yo = p.sy(100 * ev.p).toFixed(1);
      p.add('<line class="overall" x1="' + p.m.l + '" x2="' + (p.w - p.m.r) + '" y1="' + yo + '" y2="' + yo + '"><title>overall ' + pct(ev.p) + '</title></line>');
    }
    var colour = PALETTE[i % PALETTE.length];
    b.forEach(function (bin) {
      var x = p.sx(bin.x), y = p.sy(100 * bin.p), ylo = p.sy(100 * bin.ci_lo), yhi = p.sy(100 * bin.ci_hi);
      var d = 'M' + x.toFixed(1) + ' ' + ylo.toFixed(1) + 'V' + yhi.toFixed(1) +
        'M' + (x - 3.5).toFixed(1) + ' ' + ylo.toFixed(1) + 'h7M' + (x - 3.5).toFixed(1) + ' ' + yhi.toFixed(1) + 'h7' +
        'M' + p.sx(bin.lo).toFixed(1) + ' ' + y.toFixed(1) + 'H' + p.sx(bin.hi).toFixed(1);
      var tip = bp.parameter + ' in [' + fmt(bin.lo) + ', ' + fmt(bin.hi) + ']: ' + count(bin.k) + ' / ' + count(bin.n) + ' = ' + pct(bin.p) +
        ', 95 % CI [' + pct(bin.ci_lo) + ', ' + pct(bin.ci_hi) + ']';
      p.add('<path class="mark" d="' + d + '" fill="none" stroke="' + colour + '" stroke-width="1.4" stroke-opacity="0.85"><title>' + esc(tip) + '</title></path>');
      p.add('<circle cx="' + x.toFixed(1) + '" cy="' + y.toFixed(1) + '" r="3.2" fill="' + colour + '"><title>' + esc(tip) + '</title></circle>');
    });
    return p.svg();
  }
  var ep = document.getElementById('event-plots');
  if (ep) data.events.forEach(function (ev, i) {
    var top = 0;
    ev.by_parameter.forEach(function (bp) { bp.bins.forEach(function (b) { top = Math.max(top, b.ci_hi); }); });
    var yAxis = axis(0, Math.max(100 * top, 1e-9), 5, true);  // shared by the event's plots: comparable at a glance
    var caption = (ev.description ? esc(ev.description) + ' \u00b7 ' : '') + 'overall ' + count(ev.count) + ' / ' + count(ev.n) + ' = ' + pct(ev.p) +
      ' (95 % CI ' + pct(ev.ci_lo) + ' \u2013 ' + pct(ev.ci_hi) + '; dashed line)';
    var into = card(ep, true, 'P(' + esc(ev.name) + ')', caption);
    var w = fitWidth(into, ev.by_parameter.length, 320, 440);
    ev.by_parameter.forEach(function (bp, j) {
      if (!bp.bins.length) { into.insertAdjacentHTML('beforeend', '<p class="missing">' + esc(bp.parameter) + ': no finite values.</p>'); return; }
      draw(into, 'P(' + ev.name + ') by ' + bp.parameter, function () { return eventPlot(ev, bp, i, j, yAxis, w); });
    });
  });

  // ---- sensitivity bars ----
  var SERIES = [['spearman', 'Spearman \u03c1', '#4e79a7'], ['sobol_first', 'Sobol first-order S1', '#f28e2b'], ['sobol_total', 'Sobol total ST', '#59a14f']];
  function sensitivityPlot(g, i, w) {
    var series = SERIES.filter(function (s) { return g.rows.some(function (r) { return fin(r[s[0]]); }); });
    var longest = Math.max.apply(null, g.rows.map(function (r) { return Math.min(r.parameter.length, 24); }));
    var left = Math.max(70, Math.min(180, 14 + 6.4 * longest)), band = 8 + 11 * series.length;
    var items = series.map(function (s) { return {label: s[1], colour: s[2], kind: 'box'}; });
    var layout = legendLayout(items, w - left - 40);
    var top = 30 + layout.height + 6, h = top + band * g.rows.length + 44;
    var p = new Plot({id: 'sens:' + i, w: w, h: h, m: {l: left, r: 40, t: top, b: 44}, x: axis(-1, 1, 4, false), y: {lo: 0, hi: g.rows.length, step: 1, ticks: [], exp: 0}});
    p.add('<text class="title" x="' + left + '" y="16">' + esc(withUnit(g.metric, g.unit)) + '</text>');
    legend(p, items, layout, left, 34);
    p.axes(series.length > 1 ? 'index (\u03c1 from \u22121 to 1, Sobol from 0 to 1)' : 'Spearman rank correlation \u03c1', '');
    var zero = p.sx(0);
    g.rows.forEach(function (r, k) {
      var y0 = top + k * band;
      var name = r.parameter.length > 24 ? r.parameter.slice(0, 23) + '\u2026' : r.parameter;
      p.add('<text x="' + (left - 8) + '" y="' + (y0 + band / 2).toFixed(1) + '" dy="0.35em" text-anchor="end">' + esc(name) + '<title>' + esc(r.parameter) + '</title></text>');
      if (k > 0) p.add('<line class="grid" x1="' + (left - 4) + '" x2="' + (p.w - p.m.r) + '" y1="' + y0 + '" y2="' + y0 + '"/>');
      series.forEach(function (s, q) {
        var v = r[s[0]];
        if (!fin(v)) return;
        var x = p.sx(Math.max(-1, Math.min(1, v))), y = y0 + 4 + 11 * q, a = Math.min(x, zero), w = Math.max(Math.abs(x - zero), 1);
        p.add(rect(a, y, w, 9, s[2], s[1] + ' of ' + g.metric + ' and ' + r.parameter + ': ' + fmt(v, 3)));
        // the value at the bar's end: inside a long bar (outside it would run into the names or the edge)
        var inside = Math.abs(v) > 0.7, lx = inside ? (v < 0 ? a + 4 : a + w - 4) : (v < 0 ? a - 4 : a + w + 4);
        p.add('<text x="' + lx.toFixed(1) + '" y="' + (y + 4.5) + '" dy="0.35em" font-size="10"' + (inside ? ' style="fill:#fff"' : '') +
          ' text-anchor="' + ((v < 0) === inside ? 'start' : 'end') + '">' + fmt(v, 2) + '</text>');
      });
    });
    p.add('<line class="zero" x1="' + zero.toFixed(1) + '" x2="' + zero.toFixed(1) + '" y1="' + top + '" y2="' + (h - p.m.b) + '"/>');
    return p.svg();
  }
  var sp = document.getElementById('sensitivity-plots');
  if (sp) {
    var into = card(sp, true, 'Sensitivity of each metric to the parameters', 'Most influential parameter first. Spearman \u03c1: rank correlation (sign = direction). Sobol indices: share of the metric\u2019s variance due to the parameter alone (S1) and with its interactions (ST).');
    var sw = fitWidth(into, data.sensitivity.length, 400, 560);
    data.sensitivity.forEach(function (g, i) { draw(into, 'sensitivity of ' + g.metric, function () { return sensitivityPlot(g, i, sw); }); });
  }

  // ---- worst-case time series ----
  function tracePlot(ch, i, w) {
    var tlo = Infinity, thi = -Infinity, ylo = Infinity, yhi = -Infinity;
    ch.series.forEach(function (s) {
      s.t.forEach(function (t, k) { if (fin(t) && fin(s.y[k])) { tlo = Math.min(tlo, t); thi = Math.max(thi, t); ylo = Math.min(ylo, s.y[k]); yhi = Math.max(yhi, s.y[k]); } });
    });
    var pad = (yhi - ylo) * 0.04;
    var items = ch.series.map(function (s) {
      var t = data.traces.list[s.trace];
      return {label: 'sample ' + t.sample + (t.label ? ' \u2013 ' + t.label : ''), colour: PALETTE[s.trace % PALETTE.length], kind: 'line'};
    });
    var layout = legendLayout(items, w - 62 - 16), legendH = layout.height + 6;
    var p = new Plot({id: 'trace:' + i, w: w, h: plotHeight(w) + legendH, m: {l: 62, r: 16, t: 30 + legendH, b: 44},
      title: withUnit(ch.name, ch.unit), x: axis(tlo, thi, Math.round(w / 75), false), y: axis(ylo - pad, yhi + pad, 5, true)});
    legend(p, items, layout, 62, 36);
    p.axes('time [s]', withUnit(ch.name, ch.unit));
    ch.series.forEach(function (s) {
      p.add('<path class="mark" d="' + linePath(p, s.t, s.y) + '" fill="none" stroke="' + PALETTE[s.trace % PALETTE.length] +
        '" stroke-width="1.5" stroke-linejoin="round" stroke-linecap="round"><title>sample ' + data.traces.list[s.trace].sample + '</title></path>');
    });
    return p.svg();
  }
  var tp = document.getElementById('trace-plots');
  if (tp) {
    var tinto = card(tp, true, 'Worst cases', 'One line per sample; series longer than ' + data.trace_points + ' points are thinned to each stretch\u2019s minimum and maximum.');
    var tw = fitWidth(tinto, data.traces.channels.length, 480, 900);
    data.traces.channels.forEach(function (ch, i) {
      if (!ch.series.length) { tinto.insertAdjacentHTML('beforeend', '<p class="missing">' + esc(ch.name) + ': no finite values.</p>'); return; }
      draw(tinto, 'worst cases: ' + ch.name, function () { return tracePlot(ch, i, tw); });
    });
  }

  body.dataset.plotsDrawn = String(drawn);
})();
)JS";

void meta_item(std::string& h, const char* label, const std::string& value_html) {
  h += "<div><dt>";
  h += label;
  h += "</dt><dd>" + (value_html.empty() ? std::string("&ndash;") : value_html) + "</dd></div>";
}

std::string stats_row(const std::string& name, const std::string& unit, const ColumnStats& s, bool mean_std) {
  std::string h = "<tr><td>" + escape_xml(name) + (unit.empty() ? "" : " <span class=\"unit\">[" + escape_xml(unit) + "]</span>") + "</td>";
  h += "<td>" + format_count(static_cast<int64_t>(s.sorted.size())) + "</td><td>" + format_count(s.missing) + "</td>";
  if (mean_std) h += "<td>" + format_sig(s.mean) + "</td><td>" + format_sig(s.stddev) + "</td>";
  for (double v : {s.min, s.q05, s.q50, s.q95, s.max}) h += "<td>" + format_sig(v) + "</td>";
  return h + "</tr>";
}

std::string build_page(const StudyReport& r, const ReportOptions& o) {
  Aggregates a = aggregate(r, o);
  const std::string title = r.title.empty() ? "Monte Carlo study" + (r.scenario_name.empty() ? "" : ": " + r.scenario_name) : r.title;

  std::string h;
  h.reserve(64 * 1024);
  h += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
       "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  h += "<meta name=\"generator\" content=\"fleetdyn" + (r.version.empty() ? "" : " " + escape_xml(r.version)) + "\">\n";
  h += "<title>" + escape_xml(title) + "</title>\n<style>" + std::string(kStyle) + "</style>\n";
  h += "<script>" + std::string(kErrorHook) + "</script>\n</head>\n<body>\n";

  // header
  h += "<header>\n<h1>" + escape_xml(title) + "</h1>\n<div class=\"sub\">Monte Carlo robustness study";
  if (!r.scenario_name.empty()) h += " &middot; scenario " + escape_xml(r.scenario_name);
  h += "</div>\n<dl class=\"meta\">";
  meta_item(h, "Scenario", escape_xml(r.scenario_name));
  meta_item(h, "Model", escape_xml(r.model));
  std::string backend = escape_xml(r.backend);
  if (!r.device.empty()) backend += (backend.empty() ? "" : " &middot; ") + escape_xml(r.device);
  meta_item(h, "Backend / device", backend);
  meta_item(h, "Sampling", escape_xml(r.sampling));
  meta_item(h, "Seed", std::to_string(r.seed));
  meta_item(h, "Samples", format_count(r.sample_count));
  meta_item(h, "Parameters / metrics", std::to_string(r.parameters.size()) + " / " + std::to_string(r.metrics.size()));
  meta_item(h, "Wall time", format_duration(r.wall_time_s));
  meta_item(h, "fleetdyn version", escape_xml(r.version));
  h += "</dl>\n</header>\n";
  h += "<nav><a href=\"#summary\">Summary</a><a href=\"#distributions\">Distributions</a><a href=\"#events\">Events</a>"
       "<a href=\"#sensitivity\">Sensitivity</a><a href=\"#traces\">Worst cases</a></nav>\n<main>\n";

  // summary tables
  h += "<section id=\"summary\">\n<h2>Summary</h2>\n<div class=\"tables\">\n<div>\n<h3>Events</h3>\n";
  if (r.events.empty()) {
    h += "<p class=\"empty\">No events were recorded in this study.</p>\n";
  } else {
    h += "<table class=\"data\"><thead><tr><th>event</th><th class=\"desc\">description</th><th>count</th><th>samples</th><th>probability</th>"
         "<th>95&nbsp;% interval (Wilson)</th></tr></thead><tbody>\n";
    for (size_t i = 0; i < r.events.size(); ++i) {
      const auto& es = a.events[i];
      h += "<tr><td>" + escape_xml(r.events[i].name) + "</td><td class=\"desc\">" + escape_xml(r.events[i].description) + "</td><td>" +
           format_count(es.count) + "</td><td>" + format_count(r.sample_count) + "</td><td>" + format_percent(es.p) + "</td><td>" +
           (std::isfinite(es.ci.lo) ? format_percent(es.ci.lo) + " &ndash; " + format_percent(es.ci.hi) : "&ndash;") + "</td></tr>\n";
    }
    h += "</tbody></table>\n";
  }
  h += "</div>\n<div>\n<h3>Metrics</h3>\n";
  if (r.metrics.empty()) {
    h += "<p class=\"empty\">No metrics were recorded in this study.</p>\n";
  } else {
    h += "<table class=\"data\"><thead><tr><th>metric</th><th>n</th><th>missing</th><th>mean</th><th>std</th><th>min</th><th>5&nbsp;%</th>"
         "<th>median</th><th>95&nbsp;%</th><th>max</th></tr></thead><tbody>\n";
    for (size_t i = 0; i < r.metrics.size(); ++i) h += stats_row(r.metrics[i].name, r.metrics[i].unit, a.metric_stats[i], true) + "\n";
    h += "</tbody></table>\n";
  }
  h += "</div>\n<div>\n<h3>Sampled parameters</h3>\n";
  if (r.parameters.empty()) {
    h += "<p class=\"empty\">No parameters were sampled in this study.</p>\n";
  } else {
    h += "<table class=\"data\"><thead><tr><th>parameter</th><th>n</th><th>missing</th><th>min</th><th>5&nbsp;%</th><th>median</th>"
         "<th>95&nbsp;%</th><th>max</th></tr></thead><tbody>\n";
    for (size_t i = 0; i < r.parameters.size(); ++i)
      h += stats_row(r.parameters[i].name, r.parameters[i].unit, a.parameter_stats[i], false) + "\n";
    h += "</tbody></table>\n";
  }
  h += "</div>\n</div>\n</section>\n";

  // plot sections: the script fills the containers; a note stands in for an empty section
  const bool any_metric = std::any_of(a.metric_stats.begin(), a.metric_stats.end(), [](const ColumnStats& s) { return !s.sorted.empty(); });
  h += "<section id=\"distributions\">\n<h2>Metric distributions</h2>\n";
  if (r.metrics.empty()) {
    h += "<p class=\"empty\">No metrics to show.</p>\n";
  } else {
    h += "<p class=\"note\">Per metric over the samples with a finite value (missing ones, e.g. diverged, are counted apart). "
         "Dashed red lines: the 5&nbsp;% quantile, the median and the 95&nbsp;% quantile.</p>\n";
    if (!any_metric) h += "<p class=\"empty\">No metric has a finite value.</p>\n";
    h += "<div class=\"cards\" id=\"metric-plots\"></div>\n";
  }
  h += "</section>\n";

  h += "<section id=\"events\">\n<h2>Event probability by parameter</h2>\n";
  if (r.events.empty() || r.parameters.empty()) {
    h += std::string("<p class=\"empty\">") + (r.events.empty() ? "No events were recorded" : "No parameters were sampled") +
         ", so there is nothing to show here.</p>\n";
  } else {
    h += "<p class=\"note\">Each parameter's samples are split into bins of about equal count (at most " +
         std::to_string(o.probability_bins) + ", at least " + std::to_string(o.min_samples_per_bin) +
         " samples each where possible). Dot: the fraction of the bin's samples with the event, at the bin's median; "
         "horizontal line: the bin's range; vertical bar: Wilson 95&nbsp;% interval. Hover for the counts.</p>\n"
         "<div class=\"cards\" id=\"event-plots\"></div>\n";
  }
  h += "</section>\n";

  h += "<section id=\"sensitivity\">\n<h2>Sensitivity</h2>\n";
  if (a.data["sensitivity"].empty()) {
    h += "<p class=\"empty\">No sensitivity indices were computed for this study.</p>\n";
  } else {
    h += "<div class=\"cards\" id=\"sensitivity-plots\"></div>\n";
  }
  h += "</section>\n";

  h += "<section id=\"traces\">\n<h2>Worst-case time series</h2>\n";
  if (a.data["traces"]["channels"].empty()) {
    h += "<p class=\"empty\">No worst-case time series were recorded for this study.</p>\n";
  } else {
    h += "<div class=\"cards\" id=\"trace-plots\"></div>\n";
  }
  h += "</section>\n</main>\n";
  h += "<footer>Generated by fleetdyn" + (r.version.empty() ? "" : " " + escape_xml(r.version)) +
       ". Self-contained: the data are embedded in this file; no network access is needed.</footer>\n";

  h += "<script type=\"application/json\" id=\"study-data\">" + embeddable_json(a.data) + "</script>\n";
  h += "<script>" + std::string(kScript) + "</script>\n</body>\n</html>\n";
  return h;
}

}  // namespace

std::string report_html(const StudyReport& r, const ReportOptions& options) {
  validate(r, options);
  return build_page(r, options);
}

void write_report_html(const StudyReport& r, const std::string& path, const ReportOptions& options) {
  const std::string text = report_html(r, options);  // bad input throws before anything is written
  try {
    const fs::path target(path);
    if (!target.parent_path().empty()) fs::create_directories(target.parent_path());
    write_text_file(target, text);  // temporary name, fsync, rename
  } catch (const std::exception& e) {  // the writer names its temporary file: name the report
    throw Error("cannot write '" + path + "': " + e.what());
  }
}

}  // namespace fleetdyn::study
