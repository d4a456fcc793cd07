// report.html: self-contained, bounded in size, its aggregates right (checked against direct
// counts), bad input named, and (in headless Chromium) every plot drawn without a script error.
#include "host/study/report.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fleetdyn/error.h"
#include "host/study/statistics.h"

namespace {

namespace fs = std::filesystem;
using fleetdyn::Error;
using nlohmann::json;
using namespace fleetdyn::study;

double logistic(double x) { return 1.0 / (1.0 + std::exp(-x)); }

// A fixed-seed study shaped like a rollover study: rollover and divergence become likelier with
// CG height; one metric is missing where a sample diverged, one where no wheel lifted.
StudyReport synthetic_study(int64_t n, bool with_traces = true) {
  std::mt19937_64 rng(20240605);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::normal_distribution<double> g(0.0, 1.0);
  StudyReport r;
  r.title = "Step steer: CG height, mass and friction scatter";
  r.scenario_name = "step_steer_mc";
  r.model = "strut";
  r.backend = "cpu";
  r.device = "2 threads, AMD EPYC";
  r.sampling = "latin hypercube";
  r.version = "0.1.0";
  r.seed = 42;
  r.wall_time_s = 12.5;
  r.sample_count = n;
  ReportColumn mass{"mass", "kg", {}}, cg{"cg_height", "m", {}}, mu{"tire_mu", "-", {}};
  ReportColumn roll{"max_abs_roll", "rad", {}}, lat{"max_abs_lat_accel", "m/s^2", {}}, lift{"wheel_liftoff_time", "s", {}};
  ReportEvent rollover{"rollover",
                       "|roll| > 1.2 rad at any time (wheels up & over; \"</script>\" <!-- in text is harmless)",
                       {}};
  ReportEvent diverged{"diverged", "state blew up; the sample's metrics are missing", {}};
  for (int64_t i = 0; i < n; ++i) {
    r.sample_ids.push_back(1000 + i);
    const double m = 2000 + 1000 * u(rng), h = 0.6 + 0.8 * u(rng), f = 0.5 + 0.5 * u(rng);
    mass.values.push_back(m);
    cg.values.push_back(h);
    mu.values.push_back(f);
    const bool div = u(rng) < 0.01 + 0.08 * (h - 0.6);
    const bool over = !div && u(rng) < logistic(12 * (h - 1.1) + 4 * (f - 0.75));
    rollover.occurred.push_back(over);
    diverged.occurred.push_back(div);
    const double roll_value = over ? 1.3 + 0.5 * u(rng) : 0.05 + 0.5 * (h - 0.6) * f + 0.02 * g(rng);
    roll.values.push_back(div ? NAN : roll_value);
    lat.values.push_back(div ? NAN : 9.81 * f * (0.9 + 0.03 * g(rng)) - 0.0005 * (m - 2500));
    lift.values.push_back(!div && roll_value > 0.3 ? 1.3 + 0.6 * u(rng) : NAN);
  }
  r.parameters = {mass, cg, mu};
  r.metrics = {roll, lat, lift};
  r.events = {rollover, diverged};
  for (const ReportColumn& metric : r.metrics)
    for (const ReportColumn& p : r.parameters) {
      ReportSensitivity s{metric.name, p.name};
      // ranks of a million samples take seconds: the size test makes do with a stand-in
      s.spearman = n <= 100000 ? spearman_correlation(p.values, metric.values)
                               : 0.1 * static_cast<double>(s.parameter.size() % 7);
      if (metric.name == "max_abs_roll") {  // Sobol indices for one metric only: the others show NaN = absent
        s.sobol_first = p.name == "cg_height" ? 0.61 : p.name == "tire_mu" ? 0.22 : 0.01;
        s.sobol_total = s.sobol_first + 0.07;
      }
      r.sensitivities.push_back(s);
    }
  if (with_traces) {
    for (int k = 0; k < 2; ++k) {
      ReportTrace t;
      t.sample = 1000 + 17 * (k + 1);
      t.label = k == 0 ? "largest roll" : "diverged";
      ReportColumn ch_roll{"roll", "rad", {}}, ch_lat{"lat_accel", "m/s^2", {}};
      for (int j = 0; j <= 1000; ++j) {
        const double time = 0.005 * j;
        t.time.push_back(time);
        const double ramp = time < 1.3 ? 0 : (time - 1.3) * (k == 0 ? 0.45 : 0.2);
        const bool blown = k == 1 && time > 4.2;  // diverged: the rest is missing
        ch_roll.values.push_back(blown ? NAN : ramp + 0.01 * std::sin(40 * time));
        ch_lat.values.push_back(
            blown ? NAN : (time < 1.3 ? 0 : 7.5 * (1 - std::exp(-(time - 1.3) * 3))) + 0.2 * std::sin(25 * time));
      }
      t.channels = {ch_roll, ch_lat};
      r.worst_cases.push_back(t);
    }
  }
  return r;
}

// Plots the page must draw for the synthetic study: histogram + CDF per metric, one per event and
// parameter, one sensitivity plot per metric, one per trace channel.
constexpr int64_t kSyntheticPlots = 3 * 2 + 2 * 3 + 3 + 2;

std::string embedded_json(const std::string& html) {
  const std::string open = "<script type=\"application/json\" id=\"study-data\">";
  const size_t a = html.find(open);
  if (a == std::string::npos) return "";
  const size_t b = html.find("</script>", a);
  return html.substr(a + open.size(), b - a - open.size());
}

json page_data(const std::string& html) { return json::parse(embedded_json(html)); }

size_t count_of(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

const json& find_by(const json& array, const char* key, const std::string& value) {
  for (const json& e : array)
    if (e.at(key) == value) return e;
  throw std::runtime_error(std::string("no ") + key + " = " + value);
}

// A fresh folder under the system's temporary folder, removed at the end of the test.
struct TempDir {
  fs::path path;
  explicit TempDir(const std::string& name) {
    path = fs::temp_directory_path() / ("fleetdyn_report_" + name + "_" + std::to_string(::getpid()));
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

// ---- the page as text ------------------------------------------------------------------------------

TEST(StudyReport, PageIsSelfContained) {
  const std::string html = report_html(synthetic_study(2000));
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(html.find("<script type=\"application/json\" id=\"study-data\">"), std::string::npos);
  // nothing to fetch: no remote (or any) src, no stylesheet links, no CSS imports or urls
  for (const char* banned : {"http://", "https://", "src=", "<link", "@import", "url(", "<iframe", "<img"})
    EXPECT_EQ(html.find(banned), std::string::npos) << banned;
  // header content, static (readable without script)
  for (const char* text : {"Step steer: CG height, mass and friction scatter", "step_steer_mc", "strut", "cpu",
                           "2 threads, AMD EPYC", "latin hypercube", "0.1.0", "12.5 s", "Wilson"})
    EXPECT_NE(html.find(text), std::string::npos) << text;
  EXPECT_NO_THROW(page_data(html));
  EXPECT_EQ(page_data(html).at("expected_plots").get<int64_t>(), kSyntheticPlots);
}

TEST(StudyReport, EmbeddedJsonIsEscapedAndHasNoNaN) {
  StudyReport r = synthetic_study(300, false);
  r.metrics[0].name = "roll</script><script>alert(1)</script>";
  for (ReportSensitivity& s : r.sensitivities)
    if (s.metric == "max_abs_roll") s.metric = r.metrics[0].name;
  const std::string html = report_html(r);
  // three scripts (error hook, data, drawing), and the name cannot close any of them early
  EXPECT_EQ(count_of(html, "</script>"), 3u) << "a user string closed a script element";
  EXPECT_EQ(count_of(html, "<!--"), 0u);
  EXPECT_NE(html.find("roll&lt;/script&gt;&lt;script&gt;"), std::string::npos);  // escaped in the tables
  const std::string text = embedded_json(html);
  EXPECT_EQ(text.find('<'), std::string::npos);
  EXPECT_EQ(text.find("NaN"), std::string::npos);
  const json d = json::parse(text);
  EXPECT_EQ(d["metrics"][0]["name"], r.metrics[0].name);  // the data survive unchanged
  // NaN -> null: the metrics without Sobol indices carry null, not a number
  const json& lat = find_by(d["sensitivity"], "metric", "max_abs_lat_accel");
  ASSERT_FALSE(lat["rows"].empty());
  EXPECT_TRUE(lat["rows"][0]["sobol_first"].is_null());
  EXPECT_TRUE(lat["rows"][0]["spearman"].is_number());
  const json& roll = find_by(d["sensitivity"], "metric", r.metrics[0].name);
  EXPECT_EQ(roll["rows"][0]["parameter"], "cg_height");  // most influential first
  EXPECT_DOUBLE_EQ(roll["rows"][0]["sobol_first"].get<double>(), 0.61);
}

TEST(StudyReport, SizeStaysBoundedForAMillionSamples) {
  const StudyReport million = synthetic_study(1000000);
  const auto t0 = std::chrono::steady_clock::now();
  const std::string big = report_html(million);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const std::string small = report_html(synthetic_study(10000));
  std::cout << "report of 1e4 samples: " << small.size() << " bytes; of 1e6 samples: " << big.size() << " bytes, in "
            << seconds << " s\n";
  EXPECT_LT(big.size(), 2000000u);
  EXPECT_LT(static_cast<double>(big.size()), 1.3 * static_cast<double>(small.size()))
      << "the page grows with the sample count";
  const json d = page_data(big);
  EXPECT_EQ(d["metrics"][0]["n"].get<int64_t>() + d["metrics"][0]["missing"].get<int64_t>(), 1000000);
  EXPECT_EQ(d["events"][0]["by_parameter"][1]["bins"].size(), 10u);
}

TEST(StudyReport, InconsistentLengthsThrowNamingTheColumn) {
  const StudyReport good = synthetic_study(100);
  auto message = [](const StudyReport& r) -> std::string {
    try {
      report_html(r);
    } catch (const Error& e) {
      return e.what();
    }
    return "(no error)";
  };
  StudyReport r = good;
  r.metrics[1].values.pop_back();
  EXPECT_NE(message(r).find("metric 'max_abs_lat_accel' has 99 values, expected 100"), std::string::npos) << message(r);
  r = good;
  r.parameters[2].values.push_back(1.0);
  EXPECT_NE(message(r).find("parameter 'tire_mu'"), std::string::npos) << message(r);
  r = good;
  r.events[1].occurred.clear();
  EXPECT_NE(message(r).find("event 'diverged'"), std::string::npos) << message(r);
  r = good;
  r.sample_ids.resize(3);
  EXPECT_NE(message(r).find("sample_ids"), std::string::npos) << message(r);
  r = good;
  r.worst_cases[1].channels[0].values.resize(10);
  EXPECT_NE(message(r).find("sample 1034, channel 'roll'"), std::string::npos) << message(r);
  r = good;
  r.sample_ids.clear();  // optional
  EXPECT_EQ(message(r), "(no error)");
  ReportOptions bad;
  bad.probability_bins = 0;
  EXPECT_THROW(report_html(good, bad), Error);
}

// ---- the aggregates ------------------------------------------------------------------------------

TEST(StudyReport, BinnedProbabilityAgreesWithADirectCount) {
  const StudyReport r = synthetic_study(2000);
  const json d = page_data(report_html(r));
  const std::vector<double>& cg = r.parameters[1].values;
  for (size_t e = 0; e < r.events.size(); ++e) {
    const json& bp = d["events"][e]["by_parameter"][1];
    ASSERT_EQ(bp["parameter"], "cg_height");
    const json& bins = bp["bins"];
    ASSERT_EQ(bins.size(), 10u);  // 2000 samples: the full 10 bins, 200 each
    int64_t total = 0;
    for (size_t j = 0; j < bins.size(); ++j) {
      EXPECT_EQ(bins[j]["n"].get<int64_t>(), 200);
      if (j > 0) {
        EXPECT_LT(bins[j - 1]["hi"].get<double>(), bins[j]["lo"].get<double>());  // disjoint ranges
      }
      total += bins[j]["n"].get<int64_t>();
    }
    EXPECT_EQ(total, 2000);
    // one bin against a direct count over the samples in its range
    const json& bin = bins[6];
    const double lo = bin["lo"], hi = bin["hi"];
    int64_t n = 0, k = 0;
    for (size_t i = 0; i < cg.size(); ++i) {
      if (cg[i] >= lo && cg[i] <= hi) {
        ++n;
        k += r.events[e].occurred[i] != 0;
      }
    }
    EXPECT_EQ(bin["n"].get<int64_t>(), n);
    EXPECT_EQ(bin["k"].get<int64_t>(), k);
    EXPECT_DOUBLE_EQ(bin["p"].get<double>(), static_cast<double>(k) / static_cast<double>(n));
    const Interval ci = wilson_interval(k, n, 0.95);
    EXPECT_DOUBLE_EQ(bin["ci_lo"].get<double>(), ci.lo);
    EXPECT_DOUBLE_EQ(bin["ci_hi"].get<double>(), ci.hi);
    EXPECT_GE(bin["x"].get<double>(), lo);
    EXPECT_LE(bin["x"].get<double>(), hi);
    // both events become likelier with CG height, and the bins show it
    EXPECT_GT(bins[9]["p"].get<double>(), bins[0]["p"].get<double>() + (e == 0 ? 0.5 : 0.03)) << r.events[e].name;
  }
  // the overall probability and its interval
  const json& ev = d["events"][0];
  const int64_t count = std::count(r.events[0].occurred.begin(), r.events[0].occurred.end(), 1);
  EXPECT_EQ(ev["count"].get<int64_t>(), count);
  EXPECT_DOUBLE_EQ(ev["ci_hi"].get<double>(), wilson_interval(count, 2000).hi);
}

TEST(StudyReport, FewSamplesGetFewerBinsAndTiesAreNotSplit) {
  StudyReport r = synthetic_study(50, false);
  const json d = page_data(report_html(r));
  const size_t bins = d["events"][0]["by_parameter"][0]["bins"].size();
  EXPECT_GE(bins, 1u);
  EXPECT_LT(bins, 10u);
  // a discrete parameter (3 levels): at most one bin per level, each level in one bin
  r = synthetic_study(3000, false);
  for (size_t i = 0; i < r.parameters[0].values.size(); ++i)
    r.parameters[0].values[i] = static_cast<double>(i % 3) + 1.0;
  const json levels = page_data(report_html(r))["events"][0]["by_parameter"][0]["bins"];
  ASSERT_EQ(levels.size(), 3u);
  for (size_t j = 0; j < 3; ++j) {
    EXPECT_EQ(levels[j]["lo"].get<double>(), static_cast<double>(j + 1));
    EXPECT_EQ(levels[j]["hi"].get<double>(), static_cast<double>(j + 1));
    EXPECT_EQ(levels[j]["n"].get<int64_t>(), 1000);
  }
}

TEST(StudyReport, MetricHistogramAndCdfMatchTheData) {
  const StudyReport r = synthetic_study(5000, false);
  const json d = page_data(report_html(r));
  for (size_t i = 0; i < r.metrics.size(); ++i) {
    const json& m = d["metrics"][i];
    std::vector<double> finite;
    for (double v : r.metrics[i].values)
      if (std::isfinite(v)) finite.push_back(v);
    std::sort(finite.begin(), finite.end());
    ASSERT_FALSE(finite.empty());
    EXPECT_EQ(m["n"].get<size_t>(), finite.size());
    EXPECT_EQ(m["missing"].get<size_t>(), 5000 - finite.size());
    EXPECT_DOUBLE_EQ(m["q50"].get<double>(), sorted_quantile(finite, 0.5));
    EXPECT_DOUBLE_EQ(m["q05"].get<double>(), sorted_quantile(finite, 0.05));
    EXPECT_DOUBLE_EQ(m["q95"].get<double>(), sorted_quantile(finite, 0.95));
    const json& h = m["hist"];
    const std::vector<int64_t> counts = h["counts"];
    const double lo = h["lo"], w = h["width"];
    EXPECT_LE(counts.size(), 50u);
    EXPECT_GE(counts.size(), 5u);
    EXPECT_LE(lo, finite.front());
    EXPECT_GE(lo + w * static_cast<double>(counts.size()), finite.back());
    int64_t sum = 0;
    for (int64_t c : counts) sum += c;
    EXPECT_EQ(sum, static_cast<int64_t>(finite.size()));
    // one bin against a direct count (values on an edge belong to the bin above it)
    const size_t j = counts.size() / 2;
    const int64_t direct = std::count_if(finite.begin(), finite.end(), [&](double v) {
      return v >= lo + w * static_cast<double>(j) && v < lo + w * static_cast<double>(j + 1);
    });
    EXPECT_EQ(counts[j], direct);
    const std::vector<double> x = m["cdf"]["x"], p = m["cdf"]["p"];
    EXPECT_EQ(x.size(), 201u);
    EXPECT_TRUE(std::is_sorted(x.begin(), x.end()));
    EXPECT_TRUE(std::is_sorted(p.begin(), p.end()));
    EXPECT_EQ(p.front(), 0.0);
    EXPECT_EQ(p.back(), 1.0);
  }
}

TEST(StudyReport, WritesAtomicallyAndNamesAPathItCannotWrite) {
  TempDir tmp("write");
  const StudyReport r = synthetic_study(200);
  const fs::path path = tmp.path / "out" / "study" / "report.html";
  write_report_html(r, path.string());
  std::ifstream f(path, std::ios::binary);
  std::stringstream text;
  text << f.rdbuf();
  EXPECT_EQ(text.str(), report_html(r));
  EXPECT_EQ(std::distance(fs::directory_iterator(path.parent_path()), fs::directory_iterator()), 1)
      << "a temporary file was left";
  std::ofstream(tmp.path / "plain_file") << "x";
  const std::string bad = (tmp.path / "plain_file" / "report.html").string();
  try {
    write_report_html(r, bad);
    FAIL() << "no error for a folder that is a file";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(bad), std::string::npos) << e.what();
  }
}

// ---- rendered in headless Chromium -------------------------------------------------------------------

std::optional<std::string> find_chromium() {
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "/usr/local/bin:/usr/bin:/bin");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    for (const char* name : {"chromium", "chromium-browser"}) {
      const fs::path p = fs::path(dir) / name;
      if (::access(p.c_str(), X_OK) == 0) return p.string();
    }
  }
  return std::nullopt;
}

// Runs chromium headless on `html` with `mode` ("--dump-dom" or "--screenshot=FILE") and returns
// its stdout. A time limit guards against a hung browser.
std::string run_chromium(const std::string& chromium, const fs::path& dir, const fs::path& html,
                         const std::string& mode, int* exit_code) {
  const std::string cmd = "timeout 120 '" + chromium +
                          "' --headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage" +
                          " --no-first-run --hide-scrollbars --user-data-dir='" + (dir / "profile").string() + "'" +
                          " --virtual-time-budget=5000 --window-size=1400,1000 " + mode + " 'file://" + html.string() +
                          "' 2>'" + (dir / "chromium.log").string() + "'";
  std::string out;
  FILE* pipe = ::popen(cmd.c_str(), "r");
  if (!pipe) return out;
  char buf[65536];
  size_t got = 0;
  while ((got = std::fread(buf, 1, sizeof buf, pipe)) > 0) out.append(buf, got);
  const int status = ::pclose(pipe);
  *exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return out;
}

std::map<std::string, std::string> attributes(const std::string& tag) {
  static const std::regex attr(R"re(([A-Za-z_:][-A-Za-z0-9_:.]*)="([^"]*)")re");
  std::map<std::string, std::string> a;
  for (std::sregex_iterator it(tag.begin(), tag.end(), attr), end; it != end; ++it) a[(*it)[1]] = (*it)[2];
  return a;
}

struct RenderedPage {
  std::map<std::string, std::string> body;  // <body>'s attributes
  std::map<std::string, int> marks;         // data-plot id -> its non-empty <path>/<rect> marks
  size_t svg_count = 0;
  std::string dom;  // without the scripts
};

// The DOM as Chromium serialised it, scripts removed (their text holds SVG markup as strings).
RenderedPage parse_dom(std::string dom) {
  RenderedPage page;
  for (size_t a = dom.find("<script"); a != std::string::npos; a = dom.find("<script", a)) {
    const size_t b = dom.find("</script>", a);
    dom.erase(a, b == std::string::npos ? std::string::npos : b + 9 - a);
  }
  const size_t body = dom.find("<body");
  if (body != std::string::npos) page.body = attributes(dom.substr(body, dom.find('>', body) - body));
  for (size_t a = dom.find("<svg"); a != std::string::npos; a = dom.find("<svg", a + 1)) {
    ++page.svg_count;
    const size_t end = dom.find("</svg>", a);
    const std::string svg = dom.substr(a, end - a);
    const std::string id = attributes(svg.substr(0, svg.find('>')))["data-plot"];
    int marks = 0;
    for (const char* kind : {"<path ", "<rect "}) {
      for (size_t t = svg.find(kind); t != std::string::npos; t = svg.find(kind, t + 1)) {
        std::map<std::string, std::string> at = attributes(svg.substr(t, svg.find('>', t) - t));
        if (at["class"] != "mark") continue;
        const bool non_empty = kind[1] == 'p' ? at["d"].find('M') != std::string::npos
                                              : std::atof(at["width"].c_str()) > 0 && std::atof(at["height"].c_str()) > 0;
        marks += non_empty;
      }
    }
    EXPECT_FALSE(page.marks.count(id)) << "two plots with id " << id;
    page.marks[id] = marks;
  }
  page.dom = dom;
  return page;
}

// The marks each plot should have, from the page's own data: a bar per non-empty histogram bin,
// one CDF line, an error bar per probability bin, a bar per finite index, a line per trace.
std::map<std::string, int> expected_marks(const json& d) {
  std::map<std::string, int> e;
  for (size_t i = 0; i < d["metrics"].size(); ++i) {
    const json& m = d["metrics"][i];
    if (!m.contains("hist")) continue;
    int bars = 0;
    for (const json& c : m["hist"]["counts"]) bars += c.get<int64_t>() > 0;
    e["hist:" + std::to_string(i)] = bars;
    e["cdf:" + std::to_string(i)] = 1;
  }
  for (size_t i = 0; i < d["events"].size(); ++i)
    for (size_t j = 0; j < d["events"][i]["by_parameter"].size(); ++j) {
      const size_t bins = d["events"][i]["by_parameter"][j]["bins"].size();
      if (bins > 0) e["event:" + std::to_string(i) + ":" + std::to_string(j)] = static_cast<int>(bins);
    }
  for (size_t i = 0; i < d["sensitivity"].size(); ++i) {
    int bars = 0;
    for (const json& row : d["sensitivity"][i]["rows"])
      for (const char* key : {"spearman", "sobol_first", "sobol_total"}) bars += row[key].is_number();
    e["sens:" + std::to_string(i)] = bars;
  }
  for (size_t i = 0; i < d["traces"]["channels"].size(); ++i) {
    const size_t lines = d["traces"]["channels"][i]["series"].size();
    if (lines > 0) e["trace:" + std::to_string(i)] = static_cast<int>(lines);
  }
  return e;
}

// Writes the page, renders it and checks: every plot drawn (as many as the C++ side expects), no
// script error, one <svg> per plot and each with the marks its data call for.
RenderedPage render_and_check(const StudyReport& r, const std::string& name, int64_t plots) {
  const std::optional<std::string> chromium = find_chromium();
  if (!chromium) {
    ADD_FAILURE() << "chromium not found: scripts/install-deps.sh installs it";
    return {};
  }
  TempDir tmp(name);
  const fs::path html = tmp.path / "report.html";
  write_report_html(r, html.string());
  const json d = page_data(report_html(r));
  EXPECT_EQ(d["expected_plots"].get<int64_t>(), plots);

  const auto t0 = std::chrono::steady_clock::now();
  int rc = -1;
  const std::string dom = run_chromium(*chromium, tmp.path, html, "--dump-dom", &rc);
  std::cout << name << ": chromium rendered the page in "
            << std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() << " s\n";
  std::ifstream log(tmp.path / "chromium.log");
  std::stringstream log_text;
  log_text << log.rdbuf();
  EXPECT_EQ(rc, 0) << "chromium failed; its stderr:\n" << log_text.str();
  const RenderedPage page = parse_dom(dom);
  EXPECT_TRUE(page.body.count("data-plots-drawn")) << "the script did not finish; DOM head:\n" << dom.substr(0, 2000);
  EXPECT_FALSE(page.body.count("data-error")) << "script error: " << page.body.at("data-error");
  EXPECT_EQ(page.body.count("data-plots-drawn") ? page.body.at("data-plots-drawn") : "", std::to_string(plots));
  EXPECT_EQ(page.body.count("data-plots-expected") ? page.body.at("data-plots-expected") : "", std::to_string(plots));
  EXPECT_EQ(page.svg_count, static_cast<size_t>(plots));
  EXPECT_EQ(page.marks, expected_marks(d));
  for (const auto& [id, marks] : page.marks) EXPECT_GT(marks, 0) << id << " has no marks";

  // FLEETDYN_REPORT_SCREENSHOT=DIR keeps the page and a PNG of it there, to look at
  if (const char* keep = std::getenv("FLEETDYN_REPORT_SCREENSHOT")) {
    fs::create_directories(keep);
    fs::copy_file(html, fs::path(keep) / (name + ".html"), fs::copy_options::overwrite_existing);
    const fs::path png = fs::absolute(fs::path(keep) / (name + ".png"));
    std::string cmd_mode = "--window-size=1400,9000 --screenshot='" + png.string() + "'";
    run_chromium(*chromium, tmp.path, html, cmd_mode, &rc);
  }
  return page;
}

TEST(StudyReportChromium, DrawsEveryPlotOfASyntheticStudy) {
  const RenderedPage page = render_and_check(synthetic_study(2000), "synthetic", kSyntheticPlots);
  EXPECT_EQ(page.marks.size(), static_cast<size_t>(kSyntheticPlots));
  // the event table is static HTML with the counts and Wilson intervals
  EXPECT_NE(page.dom.find("95&nbsp;% interval (Wilson)"), std::string::npos);
}

TEST(StudyReportChromium, EmptySectionsGetANoteAndNoPlots) {
  StudyReport r;
  r.title = "Sparse study";
  r.sample_count = 40;
  ReportColumn p{"cg_height", "m", {}}, all_missing{"diverged_time", "s", {}}, speed{"speed", "m/s", {}};
  for (int i = 0; i < 40; ++i) {
    p.values.push_back(0.7 + 0.01 * i);
    all_missing.values.push_back(NAN);
    speed.values.push_back(i == 3 ? NAN : 20.0 - 0.1 * i);
  }
  r.parameters = {p};
  r.metrics = {all_missing, speed};
  const RenderedPage page = render_and_check(r, "sparse", 2);  // histogram and CDF of speed only
  for (const char* note :
       {"No events were recorded", "No sensitivity indices", "No worst-case time series", "No finite values: all 40"})
    EXPECT_NE(page.dom.find(note), std::string::npos) << note;
}

TEST(StudyReportChromium, DegenerateDataDrawWithoutErrors) {
  StudyReport r;
  r.title = "Degenerate study";
  r.sample_count = 30;
  ReportColumn constant{"wheelbase", "m", {}}, levels{"tire_model", "-", {}}, unused{"unused", "-", {}};
  ReportColumn single{"single", "s", {}}, flat{"flat", "m", {}}, big{"big", "N", {}}, tiny{"tiny", "rad", {}};
  ReportEvent never{"never", "", {}}, always{"always", "", {}};
  for (int i = 0; i < 30; ++i) {
    constant.values.push_back(3.3);
    levels.values.push_back(i % 2);
    unused.values.push_back(NAN);
    single.values.push_back(i == 0 ? 2.5 : NAN);
    flat.values.push_back(1.0);
    big.values.push_back(1e9 + 1e3 * i);
    tiny.values.push_back(1e-9 * i);
    never.occurred.push_back(0);
    always.occurred.push_back(1);
  }
  r.parameters = {constant, levels, unused};
  r.metrics = {single, flat, big, tiny};
  r.events = {never, always};
  ReportSensitivity none{"flat", "wheelbase"}, negative{"big", "tire_model"}, zero{"big", "wheelbase"};
  negative.spearman = -1.0;
  zero.spearman = 0.0;
  r.sensitivities = {none, negative, zero};  // "flat" has no finite index: no plot
  ReportTrace t;
  t.sample = 7;
  t.time = {0.0, 0.5, 1.0};
  t.channels = {{"steady", "m/s", {20.0, 20.0, 20.0}}, {"lost", "m", {NAN, NAN, NAN}}};
  r.worst_cases = {t};
  // 4 metrics x 2 + 2 events x 2 parameters with values + 1 sensitivity plot + 1 trace channel
  const RenderedPage page = render_and_check(r, "degenerate", 4 * 2 + 2 * 2 + 1 + 1);
  EXPECT_NE(page.dom.find("unused: no finite values."), std::string::npos);
  EXPECT_NE(page.dom.find("lost: no finite values."), std::string::npos);
}

}  // namespace
