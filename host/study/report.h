// report.html for a Monte Carlo study: one self-contained page (no external scripts, fonts or
// URLs; it works offline and can be mailed) with what an engineer looks at after a study:
//
//   - a header (scenario, model, backend/device, sampling, seed, samples, wall time, version),
//     tables of the events (count, probability, Wilson 95 % interval), metrics and parameters;
//   - per metric: a histogram and the empirical CDF, median and 5 / 95 % quantiles marked;
//   - per event and sampled parameter: the event's probability in equal-count bins of the
//     parameter, with Wilson 95 % error bars;
//   - per metric: sensitivity bars (Spearman rank correlation, Sobol first/total indices if given);
//   - the worst cases' time series, one plot per channel, one line per trace.
//
// The page's size does not grow with the sample count: the C++ side aggregates (histogram bins,
// ~200 CDF points, binned probabilities, decimated traces) and embeds only the aggregates as JSON
// in a <script type="application/json" id="study-data"> block; a small inline script draws them
// as SVG. After drawing it sets document.body.dataset.plotsDrawn / plotsExpected, and any script
// error lands in document.body.dataset.error, so a headless browser can check the page.
//
//   StudyReport r;
//   r.title = "Step steer, CG height scatter"; r.sample_count = n; ...
//   r.parameters.push_back({"cg_height", "m", cg});       // one value per sample
//   r.metrics.push_back({"max_abs_roll", "rad", roll});    // NaN = missing (e.g. diverged)
//   r.events.push_back({"rollover", "|roll| > 90 deg", occurred});
//   write_report_html(r, "out/study/report.html");
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace fleetdyn::study {

struct ReportColumn {
  std::string name;
  std::string unit;            // e.g. "m", "rad", "-"; shown in axis titles as "name [unit]"
  std::vector<double> values;  // one value per sample; NaN (or +-inf) = missing, e.g. diverged
};

// A yes/no outcome per sample, e.g. "rollover", "diverged", "lane_departure".
struct ReportEvent {
  std::string name, description;
  std::vector<uint8_t> occurred;  // per sample, same order as the columns; nonzero = yes
};

// One metric-parameter pair; NaN = not computed (Sobol indices are optional).
struct ReportSensitivity {
  std::string metric, parameter;
  double spearman = std::numeric_limits<double>::quiet_NaN();
  double sobol_first = std::numeric_limits<double>::quiet_NaN();
  double sobol_total = std::numeric_limits<double>::quiet_NaN();
};

// A worst-case time series: channels[i].values has one value per time point.
struct ReportTrace {
  int64_t sample = 0;  // the sample's id (legend)
  std::string label;   // why it is here, e.g. "max roll"
  std::vector<double> time;
  std::vector<ReportColumn> channels;  // matched across traces by name: one plot per name
  std::vector<double> metrics;         // the rerun's metrics at the end (kMetricInfo order): its samples.csv row
};

struct StudyReport {
  std::string title, scenario_name, model, backend, device, sampling, version;
  uint64_t seed = 0;
  double wall_time_s = 0;
  int64_t sample_count = 0;              // every column and event has this many values
  std::vector<int64_t> sample_ids;       // empty, or one per sample
  std::vector<ReportColumn> parameters;  // the sampled parameters
  std::vector<ReportColumn> metrics;
  std::vector<ReportEvent> events;
  std::vector<ReportSensitivity> sensitivities;
  std::vector<ReportTrace> worst_cases;  // may be empty
};

// How finely to aggregate; the defaults suit a page of plots ~400 px wide.
struct ReportOptions {
  int histogram_max_bins = 50;   // Freedman-Diaconis bins, at most this many
  int cdf_points = 200;          // CDF curve points; fewer samples: the exact step function
  int probability_bins = 10;     // equal-count bins of a parameter per event plot ...
  int min_samples_per_bin = 20;  // ... fewer when there would be fewer samples than this per bin
  int trace_points = 500;        // per trace and channel, min/max decimated (peaks kept)
};

// The whole page (UTF-8). Throws fleetdyn::Error when lengths are inconsistent, naming the column
// (or event, trace channel, sample_ids) and both lengths, or when an option is not positive.
std::string report_html(const StudyReport& r, const ReportOptions& options = {});

// report_html written atomically (temporary file in the same folder, then renamed), creating the
// parent folders. Throws fleetdyn::Error naming the path.
void write_report_html(const StudyReport& r, const std::string& path, const ReportOptions& options = {});

}  // namespace fleetdyn::study
