#include "host/study/study_summary.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numeric>
#include <sstream>

#include "host/cli/run_job.h"
#include "host/output/output_files.h"
#include "host/output/progress.h"
#include "host/scenario/scenario_json.h"
#include "host/study/sample_setup.h"
#include "host/study/statistics.h"
#include "host/study/study_events.h"

namespace fleetdyn::study {

namespace {

using json = nlohmann::ordered_json;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kQuantiles[] = {0.01, 0.05, 0.25, 0.5, 0.75, 0.95, 0.99};
constexpr int kWorstCases = 20;
constexpr int kInvalidExamples = 10;

json number_or_null(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

json distribution_json(const Distribution& d) {
  json j = {{"dist", distribution_kind_name(d.kind)}};
  switch (d.kind) {
    case DistributionKind::Fixed: j["value"] = d.value; break;
    case DistributionKind::Uniform:
      j["min"] = d.min;
      j["max"] = d.max;
      break;
    case DistributionKind::Normal:
    case DistributionKind::TruncatedNormal:
      j["mean"] = d.mean;
      j["sd"] = d.sd;
      if (d.kind == DistributionKind::TruncatedNormal) {
        j["min"] = d.min;
        j["max"] = d.max;
      }
      break;
    case DistributionKind::LogNormal:
      j["mu"] = d.mu;
      j["sigma"] = d.sigma;
      break;
    case DistributionKind::Choice:
      j["values"] = d.values;
      j["weights"] = d.weights;
      break;
  }
  return j;
}

json interval_json(Interval i) { return json::array({i.lo, i.hi}); }

// Which rows a metric is summarized over: event times (-1 = no event) over the rows with the
// event, the divergence time over diverged rows, everything else over valid rows that did not
// diverge (a diverged vehicle's peaks stop at its last sane state).
struct Selection {
  std::vector<double> values;
  std::vector<int64_t> rows;
  std::string over;
};

Selection select_metric(const SamplesTable& t, int metric_index) {
  const MetricInfo& info = kMetricInfo[metric_index];
  const std::vector<double>& valid = t.values[static_cast<size_t>(t.column("valid"))];
  const std::vector<double>& diverged = t.values[static_cast<size_t>(t.column("diverged"))];
  const std::vector<double>& x = t.values[static_cast<size_t>(t.column(std::string(info.name) + unit_suffix(info.unit)))];
  const bool of_diverged = metric_index == metric::diverged_time;
  const bool event = is_event_time(info);
  Selection s;
  s.over = of_diverged ? "diverged samples"
           : event     ? "non-diverged samples with the event (value >= 0)"
                       : "non-diverged valid samples";
  for (int64_t r = 0; r < t.rows(); ++r) {
    const size_t i = static_cast<size_t>(r);
    if (valid[i] != 1.0 || (diverged[i] == 1.0) != of_diverged || !std::isfinite(x[i])) continue;
    if (event && x[i] < 0.0) continue;
    s.values.push_back(x[i]);
    s.rows.push_back(r);
  }
  return s;
}

json metric_json(const Selection& s, const MetricInfo& info) {
  json a = {{"unit", info.unit},
            {"description", info.description},
            {"over", s.over},
            {"count", static_cast<int64_t>(s.values.size())}};
  if (s.values.empty()) {
    for (const char* k : {"mean", "sd", "min", "max"}) a[k] = nullptr;
    a["quantiles"] = json::object();
    return a;
  }
  std::vector<double> sorted = s.values;
  std::sort(sorted.begin(), sorted.end());
  long double sum = 0.0L;
  for (double v : sorted) sum += v;
  const double mean = static_cast<double>(sum / static_cast<long double>(sorted.size()));
  long double ss = 0.0L;
  for (double v : sorted) ss += (v - mean) * (v - mean);
  a["mean"] = mean;
  a["sd"] = sorted.size() > 1 ? json(std::sqrt(static_cast<double>(ss / static_cast<long double>(sorted.size() - 1))))
                              : json(nullptr);
  a["min"] = sorted.front();
  a["max"] = sorted.back();
  json q = json::object();
  for (double p : kQuantiles) {
    char key[16];
    std::snprintf(key, sizeof key, "%g", p);
    q[key] = sorted_quantile(sorted, p);
  }
  a["quantiles"] = q;
  return a;
}

// Spearman correlation of `y` at the rows of `rows` with each sampled parameter.
json rank_sensitivity(const Scenario& s, const SamplesTable& t, const std::vector<int64_t>& rows,
                      const std::vector<double>& y) {
  json out = json::object();
  for (const auto& p : s.study.parameters) {
    const std::vector<double>& col = t.values[static_cast<size_t>(t.column(p.name + unit_suffix(p.unit)))];
    std::vector<double> x;
    x.reserve(rows.size());
    for (int64_t r : rows) x.push_back(col[static_cast<size_t>(r)]);
    out[p.name] = number_or_null(spearman_correlation(x, y));
  }
  return out;
}

// Sobol indices of one output over the Saltelli runs (invalid runs: NaN, their base sample dropped).
json sobol_json(const Scenario& s, const std::vector<double>& f) {
  const SobolIndices si = sobol_indices(f, s.study.dimensions());
  json out = json::object();
  for (int k = 0; k < s.study.dimensions(); ++k) {
    const size_t i = static_cast<size_t>(k);
    out[s.study.parameters[i].name] = {{"first", number_or_null(si.first[i])},
                                       {"first_ci95_half_width", number_or_null(i < si.first_ci.size() ? si.first_ci[i] : kNaN)},
                                       {"total", number_or_null(si.total[i])},
                                       {"total_ci95_half_width",
                                        number_or_null(i < si.total_ci.size() ? si.total_ci[i] : kNaN)}};
  }
  return out;
}

}  // namespace

json study_summary(const Scenario& s, const SamplesTable& t, const StudyTimings& timings) {
  const StudySpec& spec = s.study;
  const int64_t rows = t.rows();
  const std::vector<double>& valid = t.values[static_cast<size_t>(t.column("valid"))];
  json j;
  j["fleetdyn_version"] = fleetdyn_version();
  j["scenario"] = scenario_json(s);
  j["model"] = s.model;
  j["precision"] = precision_name(s.precision);
  j["step"] = s.step;
  j["duration"] = s.duration;
  j["steps_per_sample"] = scenario_step_count(s);

  json study;
  study["samples"] = spec.samples;
  study["runs"] = spec.run_count();
  study["seed"] = spec.seed;
  study["sampling"] = sampling_method_name(spec.sampling);
  study["sensitivity"] = spec.sobol_sensitivity ? "sobol" : "rank";
  json params = json::array();
  for (const auto& p : spec.parameters) {
    params.push_back({{"name", p.name},
                      {"unit", p.unit},
                      {"distribution", distribution_json(p.distribution)},
                      {"allowed_range", {p.min, p.max}}});
  }
  study["parameters"] = params;
  study["rollover"] = {{"roll_deg", spec.rollover.roll_deg},
                       {"two_wheel_lift_s", spec.rollover.two_wheel_lift_s},
                       {"definition",
                        "max |roll| relative to the ground > roll_deg, or both wheels of one side off "
                        "the ground for two_wheel_lift_s without a break, or capsized"}};
  study["capsize_roll_deg"] = s.capsize_roll_deg;
  if (s.driver.kind == DriverSpec::Kind::Path) {
    const PathEventCriteria& pe = spec.path_events;
    study["lane_departure"] = {{"lane_width", pe.lane_width},
                               {"vehicle_width", pe.vehicle_width},
                               {"max_path_deviation_m", pe.lane_departure_deviation()}};
    study["path_deviation"] = {{"max", pe.max_deviation}};
  }
  if (sample_terrain_varies(s)) {
    study["terrain_per_sample"] = {
        {"stretch", s.terrain_per_sample ? "each sample's own shift of the periodic road tile and sign, Philox stream "
                                           "kStreamRoad keyed by (seed, sample)"
                                         : "the scenario's"},
        {"tile_length_m",
         s.terrain_type == "rough_road" ? json((s.terrain.desc.hf_nx - 1) * s.terrain.desc.hf_dx) : json(nullptr)},
        {"tile_width_m",
         s.terrain_type == "rough_road" ? json((s.terrain.desc.hf_ny - 1) * s.terrain.desc.hf_dy) : json(nullptr)}};
  }
  json event_list = json::object();
  for (const StudyEvent& e : study_events(s)) event_list[e.name] = e.description;
  study["events"] = event_list;
  j["study"] = study;

  // ---- counts and invalid samples (their reasons recomputed: they depend on the index alone) ---
  int64_t n_valid = 0;
  for (double v : valid) n_valid += v == 1.0 ? 1 : 0;
  const std::vector<double>& div = t.values[static_cast<size_t>(t.column("diverged"))];
  const std::vector<double>& capsized = t.values[static_cast<size_t>(t.column("capsized"))];
  int64_t n_diverged = 0, n_capsized = 0;
  for (int64_t r = 0; r < rows; ++r) {
    const size_t i = static_cast<size_t>(r);
    n_diverged += valid[i] == 1.0 && div[i] == 1.0 ? 1 : 0;
    n_capsized += valid[i] == 1.0 && capsized[i] == 1.0 ? 1 : 0;
  }
  j["counts"] = {{"runs", rows}, {"valid", n_valid}, {"invalid", rows - n_valid}, {"diverged", n_diverged}, {"capsized", n_capsized}};
  json examples = json::array();
  if (n_valid < rows) {
    const StudyDesign design(spec);
    std::vector<double> v(static_cast<size_t>(spec.dimensions()));
    for (int64_t r = 0; r < rows && static_cast<int>(examples.size()) < kInvalidExamples; ++r) {
      if (valid[static_cast<size_t>(r)] == 1.0) continue;
      design.values(r, v.data());
      examples.push_back({{"sample", r}, {"reason", sample_setup(s, v.data(), design.base_sample(r)).invalid_reason}});
    }
  }
  j["invalid_examples"] = examples;

  // ---- events: probabilities over the valid samples -------------------------------------------
  json events = json::object();
  const std::vector<StudyEvent> event_defs = study_events(s);
  for (const StudyEvent& def : event_defs) {
    const std::string& name = def.name;
    const std::vector<double>& e = t.values[static_cast<size_t>(t.column(name))];
    int64_t k = 0;
    for (int64_t r = 0; r < rows; ++r)
      k += valid[static_cast<size_t>(r)] == 1.0 && e[static_cast<size_t>(r)] == 1.0 ? 1 : 0;
    events[name] = {{"count", k},
                    {"of", n_valid},
                    {"probability", n_valid > 0 ? json(static_cast<double>(k) / static_cast<double>(n_valid)) : json(nullptr)},
                    {"wilson_95", interval_json(wilson_interval(k, n_valid))},
                    {"clopper_pearson_95", interval_json(clopper_pearson_interval(k, n_valid))}};
  }
  j["events"] = events;

  // ---- metrics and their sensitivities ------------------------------------------------------------
  json metrics = json::object();
  json rank = json::object();
  for (int m = 0; m < kMetricCount; ++m) {
    const Selection sel = select_metric(t, m);
    metrics[kMetricInfo[m].name] = metric_json(sel, kMetricInfo[m]);
    if (!is_event_time(kMetricInfo[m]) && m != metric::diverged_time) {
      rank[kMetricInfo[m].name] = rank_sensitivity(s, t, sel.rows, sel.values);
    }
  }
  for (const StudyEvent& def : event_defs) {
    const std::string& name = def.name;
    const std::vector<double>& e = t.values[static_cast<size_t>(t.column(name))];
    std::vector<int64_t> rs;
    std::vector<double> ys;
    for (int64_t r = 0; r < rows; ++r) {
      if (valid[static_cast<size_t>(r)] != 1.0) continue;
      rs.push_back(r);
      ys.push_back(e[static_cast<size_t>(r)]);
    }
    rank[name] = rank_sensitivity(s, t, rs, ys);
  }
  j["metrics"] = metrics;
  json sens = {{"spearman", rank}};
  sens["spearman_note"] =
      "rank correlation of each output with each sampled parameter over the valid samples "
      "(metrics: the non-diverged ones); NaN (null) when an output or parameter is constant";
  if (spec.sobol_sensitivity && rows == spec.run_count()) {
    json sobol = json::object();
    for (int m = 0; m < kMetricCount; ++m) {
      if (is_event_time(kMetricInfo[m]) || m == metric::diverged_time) continue;
      const MetricInfo& info = kMetricInfo[m];
      std::vector<double> f = t.values[static_cast<size_t>(t.column(std::string(info.name) + unit_suffix(info.unit)))];
      for (int64_t r = 0; r < rows; ++r) {
        if (div[static_cast<size_t>(r)] == 1.0) f[static_cast<size_t>(r)] = kNaN;
      }
      sobol[info.name] = sobol_json(s, f);
    }
    for (const StudyEvent& def : event_defs) {
      std::vector<double> f = t.values[static_cast<size_t>(t.column(def.name))];
      sobol[def.name] = sobol_json(s, f);
    }
    sens["sobol"] = sobol;
    sens["sobol_note"] =
        "Saltelli (2010) first-order and Jansen (1999) total indices over samples * (d + 2) runs; "
        "a base sample with an invalid or (for metrics) diverged run is dropped";
  }
  j["sensitivity"] = sens;

  // ---- the worst cases: the largest values of the ranking metric ---------------------------------
  {
    int by = metric::max_abs_roll;
    for (int m = 0; m < kMetricCount; ++m) {
      if (spec.worst_by == kMetricInfo[m].name) by = m;
    }
    const Selection sel = select_metric(t, by);
    std::vector<size_t> order(sel.values.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return sel.values[a] > sel.values[b]; });
    const size_t count = static_cast<size_t>(std::max(kWorstCases, spec.trajectories_worst));
    const std::string key = std::string(kMetricInfo[by].name) + unit_suffix(kMetricInfo[by].unit);
    json worst = json::array();
    for (size_t i = 0; i < order.size() && i < count; ++i) {
      worst.push_back({{"sample", sel.rows[order[i]]}, {key, sel.values[order[i]]}});
    }
    j["worst_cases"] = {{"by", std::string(kMetricInfo[by].name) + " (" + sel.over + ")"}, {"samples", worst}};
  }

  const double rate = timings.wall_time_s > 0.0 ? static_cast<double>(timings.samples_this_run) / timings.wall_time_s : 0.0;
  j["timings"] = {{"setup_time_s", timings.setup_s},
                  {"wall_time_s", timings.wall_time_s},
                  {"samples_this_run", timings.samples_this_run},
                  {"simulated_this_run", timings.simulated_this_run},
                  {"samples_per_s", rate},
                  {"vehicle_steps_per_s",
                   timings.wall_time_s > 0.0 ? timings.vehicle_steps_this_run / timings.wall_time_s : 0.0}};
  j["files"] = {{"samples", "samples.csv"},
                {"summary", "summary.json"},
                {"report", "report.html"},
                {"manifest", "study.json"}};
  return j;
}

StudyReport study_report(const Scenario& s, const SamplesTable& t, const json& summary) {
  StudyReport r;
  r.title = s.name + ": Monte Carlo study";
  r.scenario_name = s.path;
  r.model = s.model;
  r.sampling = sampling_method_name(s.study.sampling);
  r.version = fleetdyn_version();
  r.seed = s.study.seed;
  const std::vector<double>& valid = t.values[static_cast<size_t>(t.column("valid"))];
  const std::vector<double>& div = t.values[static_cast<size_t>(t.column("diverged"))];
  std::vector<size_t> rows;
  for (int64_t i = 0; i < t.rows(); ++i) {
    if (valid[static_cast<size_t>(i)] == 1.0) rows.push_back(static_cast<size_t>(i));
  }
  r.sample_count = static_cast<int64_t>(rows.size());
  for (size_t i : rows) r.sample_ids.push_back(static_cast<int64_t>(i));
  const auto column = [&](const std::string& name, bool drop_diverged, bool event_time) {
    const std::vector<double>& x = t.values[static_cast<size_t>(t.column(name))];
    std::vector<double> out;
    out.reserve(rows.size());
    for (size_t i : rows) {
      const bool missing = (drop_diverged && div[i] == 1.0) || (event_time && x[i] < 0.0);
      out.push_back(missing ? kNaN : x[i]);
    }
    return out;
  };
  for (const auto& p : s.study.parameters)
    r.parameters.push_back({p.name, p.unit, column(p.name + unit_suffix(p.unit), false, false)});
  for (int m = 0; m < kMetricCount; ++m) {
    const MetricInfo& info = kMetricInfo[m];
    if (m == metric::diverged_time) continue;
    r.metrics.push_back(
        {info.name, info.unit, column(std::string(info.name) + unit_suffix(info.unit), true, is_event_time(info))});
  }
  for (const StudyEvent& def : study_events(s)) {
    const std::vector<double> x = column(def.name, false, false);
    ReportEvent ev{def.name, def.description, {}};
    for (double v : x) ev.occurred.push_back(v == 1.0 ? 1 : 0);
    r.events.push_back(std::move(ev));
  }
  const json& sens = summary["sensitivity"];
  for (const ReportColumn& m : r.metrics) {
    if (!sens["spearman"].contains(m.name)) continue;
    for (const auto& p : s.study.parameters) {
      ReportSensitivity x{m.name, p.name};
      const json& rho = sens["spearman"][m.name][p.name];
      if (rho.is_number()) x.spearman = rho.get<double>();
      if (sens.contains("sobol") && sens["sobol"].contains(m.name)) {
        const json& si = sens["sobol"][m.name][p.name];
        if (si["first"].is_number()) x.sobol_first = si["first"].get<double>();
        if (si["total"].is_number()) x.sobol_total = si["total"].get<double>();
      }
      r.sensitivities.push_back(x);
    }
  }
  return r;
}

std::string study_text_summary(const Scenario& s, const json& j, const std::string& folder) {
  std::ostringstream o;
  char line[320];
  const json& c = j["counts"];
  std::snprintf(line, sizeof line, "%s: %lld samples (%s, seed %llu) of %s, %g s each, on %s\n", s.name.c_str(),
                static_cast<long long>(c["runs"].get<int64_t>()), sampling_method_name(s.study.sampling),
                static_cast<unsigned long long>(s.study.seed), s.model.c_str(), s.duration,
                j.value("device", std::string("?")).c_str());
  o << line;
  const json& tm = j["timings"];
  std::snprintf(line, sizeof line, "  this run: %lld samples in %.3g s (%s samples/s)\n",
                static_cast<long long>(tm["samples_this_run"].get<int64_t>()), tm["wall_time_s"].get<double>(),
                format_rate(tm["samples_per_s"].get<double>()).c_str());
  o << line;
  o << "  valid: " << c["valid"].get<int64_t>() << ", invalid: " << c["invalid"].get<int64_t>()
    << ", capsized (frozen on their side): " << c["capsized"].get<int64_t>()
    << ", diverged: " << c["diverged"].get<int64_t>() << "\n";
  for (const StudyEvent& def : study_events(s)) {
    const char* name = def.name.c_str();
    const json& e = j["events"][def.name];
    const json& w = e["wilson_95"];
    if (e["probability"].is_null()) continue;
    std::snprintf(line, sizeof line, "  P(%s) = %.4g  (%lld of %lld; 95 %% Wilson %.4g .. %.4g)\n", name,
                  e["probability"].get<double>(), static_cast<long long>(e["count"].get<int64_t>()),
                  static_cast<long long>(e["of"].get<int64_t>()), w[0].get<double>(), w[1].get<double>());
    o << line;
  }
  // The strongest driver of rollover at a glance.
  const json& rr = j["sensitivity"]["spearman"]["rollover"];
  std::string best;
  double best_rho = 0.0;
  for (auto it = rr.begin(); it != rr.end(); ++it) {
    if (it.value().is_number() && std::fabs(it.value().get<double>()) > std::fabs(best_rho)) {
      best_rho = it.value().get<double>();
      best = it.key();
    }
  }
  if (!best.empty()) {
    std::snprintf(line, sizeof line, "  strongest rank correlation with rollover: %s (%+.3f)\n", best.c_str(), best_rho);
    o << line;
  }
  o << "  samples:  " << folder << "/samples.csv\n";
  o << "  summary:  " << folder << "/summary.json\n";
  o << "  report:   " << folder << "/report.html\n";
  return o.str();
}

}  // namespace fleetdyn::study
