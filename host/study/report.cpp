// report.html: aggregates in C++ (so the page stays small for a million samples), static HTML for
// the header and tables (readable without script), one JSON block with the aggregates and an
// inline script that draws them as SVG. See report.h for what the page shows.
#include "host/study/report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "fleetdyn/error.h"
#include "host/output/output_files.h"
#include "host/output/svg_plot.h"
#include "host/study/report_aggregates.h"
#include "host/study/report_assets.h"  // generated from host/study/report_assets/
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
  for (const ReportColumn& c : r.parameters)
    check_length("parameter '" + c.name + "'", c.values.size(), r.sample_count, "sample_count");
  for (const ReportColumn& c : r.metrics)
    check_length("metric '" + c.name + "'", c.values.size(), r.sample_count, "sample_count");
  for (const ReportEvent& e : r.events)
    check_length("event '" + e.name + "'", e.occurred.size(), r.sample_count, "sample_count");
  for (const ReportTrace& t : r.worst_cases)
    for (const ReportColumn& c : t.channels)
      check_length("worst-case trace of sample " + std::to_string(t.sample) + ", channel '" + c.name + "'",
                   c.values.size(), static_cast<int64_t>(t.time.size()), "its time points");
  struct Option {
    const char* name;
    int value, least;
  };
  const Option options[] = {{"histogram_max_bins", o.histogram_max_bins, 1},
                            {"cdf_points", o.cdf_points, 1},
                            {"probability_bins", o.probability_bins, 1},
                            {"min_samples_per_bin", o.min_samples_per_bin, 1},
                            {"trace_points", o.trace_points, 4}};  // a min and a max per bucket, two buckets at least
  for (const Option& opt : options)
    if (opt.value < opt.least)
      throw Error(std::string("report: option ") + opt.name + " must be at least " + std::to_string(opt.least) +
                  ", got " + std::to_string(opt.value));
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
    json m = {{"name", c.name},       {"unit", c.unit},      {"n", static_cast<int64_t>(s.sorted.size())},
              {"missing", s.missing}, {"mean", num(s.mean)}, {"std", num(s.stddev)},
              {"min", num(s.min)},    {"max", num(s.max)},   {"q05", num(s.q05)},
              {"q50", num(s.q50)},    {"q95", num(s.q95)}};
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
    json ev = {{"name", e.name},         {"description", e.description},
               {"count", es.count},      {"n", r.sample_count},
               {"p", num(es.p)},         {"ci_lo", num(es.ci.lo)},
               {"ci_hi", num(es.ci.hi)}, {"by_parameter", json::array()}};
    for (size_t j = 0; j < r.parameters.size(); ++j) {
      const ReportColumn& c = r.parameters[j];
      json bp = {{"parameter", c.name}, {"unit", c.unit}, {"n", static_cast<int64_t>(orders[j].size())}, {"bins", json::array()}};
      for (const ProbabilityBin& b : probability_bins(c.values, orders[j], bounds[j], e.occurred)) {
        const Interval ci = wilson_interval(b.k, b.n, kConfidence);
        bp["bins"].push_back({{"lo", b.lo},
                              {"hi", b.hi},
                              {"x", b.x},
                              {"n", b.n},
                              {"k", b.k},
                              {"p", static_cast<double>(b.k) / static_cast<double>(b.n)},
                              {"ci_lo", ci.lo},
                              {"ci_hi", ci.hi}});
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
    std::stable_sort(rows.begin(), rows.end(), [&](const ReportSensitivity* x, const ReportSensitivity* y) {
      return importance(x) > importance(y);
    });
    std::string unit;
    for (const ReportColumn& c : r.metrics)
      if (c.name == name) unit = c.unit;
    json g = {{"metric", name}, {"unit", unit}, {"rows", json::array()}};
    for (const ReportSensitivity* s : rows)
      g["rows"].push_back({{"parameter", s->parameter},
                           {"spearman", num(s->spearman)},
                           {"sobol_first", num(s->sobol_first)},
                           {"sobol_total", num(s->sobol_total)}});
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
      if (std::find(channel_names.begin(), channel_names.end(), c.name) == channel_names.end())
        channel_names.push_back(c.name);
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

void meta_item(std::string& h, const char* label, const std::string& value_html) {
  h += "<div><dt>";
  h += label;
  h += "</dt><dd>" + (value_html.empty() ? std::string("&ndash;") : value_html) + "</dd></div>";
}

std::string stats_row(const std::string& name, const std::string& unit, const ColumnStats& s, bool mean_std) {
  std::string h = "<tr><td>" + escape_xml(name) +
                  (unit.empty() ? "" : " <span class=\"unit\">[" + escape_xml(unit) + "]</span>") + "</td>";
  h += "<td>" + format_count(static_cast<int64_t>(s.sorted.size())) + "</td><td>" + format_count(s.missing) + "</td>";
  if (mean_std) h += "<td>" + format_sig(s.mean) + "</td><td>" + format_sig(s.stddev) + "</td>";
  for (double v : {s.min, s.q05, s.q50, s.q95, s.max}) h += "<td>" + format_sig(v) + "</td>";
  return h + "</tr>";
}

// A table of the columns' statistics (one stats_row each), or `empty_message` where there are none.
template <class Column>
void stats_table(std::string& h, const std::vector<Column>& columns, const std::vector<ColumnStats>& stats,
                 const char* kind, const char* empty_message, bool mean_std) {
  if (columns.empty()) {
    h += std::string("<p class=\"empty\">") + empty_message + "</p>\n";
    return;
  }
  h += std::string("<table class=\"data\"><thead><tr><th>") + kind + "</th><th>n</th><th>missing</th>" +
       (mean_std ? "<th>mean</th><th>std</th>" : "") +
       "<th>min</th><th>5&nbsp;%</th><th>median</th><th>95&nbsp;%</th><th>max</th></tr></thead><tbody>\n";
  for (size_t i = 0; i < columns.size(); ++i)
    h += stats_row(columns[i].name, columns[i].unit, stats[i], mean_std) + "\n";
  h += "</tbody></table>\n";
}

std::string build_page(const StudyReport& r, const ReportOptions& o) {
  Aggregates a = aggregate(r, o);
  const std::string title = r.title.empty() ? "Monte Carlo study" + (r.scenario_name.empty() ? "" : ": " + r.scenario_name)
                                            : r.title;

  std::string h;
  h.reserve(64 * 1024);
  h += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
       "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  h += "<meta name=\"generator\" content=\"fleetdyn" + (r.version.empty() ? "" : " " + escape_xml(r.version)) + "\">\n";
  h += "<title>" + escape_xml(title) + "</title>\n<style>" + std::string(kStyle) + "</style>\n";
  // The error hook is installed before the main script so that even a syntax error in it is recorded.
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
    h += "<table class=\"data\"><thead><tr><th>event</th><th "
         "class=\"desc\">description</th><th>count</th><th>samples</th><th>probability</th>"
         "<th>95&nbsp;% interval (Wilson)</th></tr></thead><tbody>\n";
    for (size_t i = 0; i < r.events.size(); ++i) {
      const auto& es = a.events[i];
      h += "<tr><td>" + escape_xml(r.events[i].name) + "</td><td class=\"desc\">" +
           escape_xml(r.events[i].description) + "</td><td>" + format_count(es.count) + "</td><td>" +
           format_count(r.sample_count) + "</td><td>" + format_percent(es.p) + "</td><td>" +
           (std::isfinite(es.ci.lo) ? format_percent(es.ci.lo) + " &ndash; " + format_percent(es.ci.hi) : "&ndash;") +
           "</td></tr>\n";
    }
    h += "</tbody></table>\n";
  }
  h += "</div>\n<div>\n<h3>Metrics</h3>\n";
  stats_table(h, r.metrics, a.metric_stats, "metric", "No metrics were recorded in this study.", true);
  h += "</div>\n<div>\n<h3>Sampled parameters</h3>\n";
  stats_table(h, r.parameters, a.parameter_stats, "parameter", "No parameters were sampled in this study.", false);
  h += "</div>\n</div>\n</section>\n";

  // plot sections: the script fills the containers; a note stands in for an empty section
  const bool any_metric = std::any_of(a.metric_stats.begin(), a.metric_stats.end(),
                                      [](const ColumnStats& s) { return !s.sorted.empty(); });
  h += "<section id=\"distributions\">\n<h2>Metric distributions</h2>\n";
  if (r.metrics.empty()) {
    h += "<p class=\"empty\">No metrics to show.</p>\n";
  } else {
    h += "<p class=\"note\">Per metric over the samples with a finite value (missing ones, e.g. diverged, are counted "
         "apart). "
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
    write_text_file(target, text);     // temporary name, fsync, rename
  } catch (const std::exception& e) {  // the writer names its temporary file: name the report
    throw Error("cannot write '" + path + "': " + e.what());
  }
}

}  // namespace fleetdyn::study
