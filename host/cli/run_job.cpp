// `fleetdyn run`: scenario -> batch -> results.csv + summary.json (see run_job.h).
#include "host/cli/run_job.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "fleetdyn/batch.h"
#include "fleetdyn/physics/core/math.h"
#include "fleetdyn/vehicle.h"
#include "host/batch/vehicle_models.h"
#include "host/output/output_files.h"
#include "host/output/progress.h"
#include "host/scenario/scenario.h"
#include "host/scenario/scenario_json.h"
#include "host/study/study_job.h"

#ifndef FLEETDYN_VERSION
#define FLEETDYN_VERSION "unknown"
#endif

namespace fleetdyn {

const char* fleetdyn_version() { return FLEETDYN_VERSION; }

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using json = nlohmann::ordered_json;

std::string param_unit(VehicleModel model, const std::string& name) {
  for (const auto& f : model_param_fields(model)) {
    if (name == f.name) return f.unit;
  }
  return "";
}

struct Results {
  std::vector<VehicleSnapshot> snapshots;
  std::vector<double> metrics;  // [kMetricCount][N]
  std::vector<int> status;
};

void write_results_csv(const fs::path& path, Batch& batch, const Scenario& s, const Results& r) {
  const int n = batch.vehicle_count();
  std::vector<std::string> params;  // overridden, then swept
  for (const auto& o : s.overrides) params.push_back(o.name);
  for (const auto& sw : s.sweeps) params.push_back(sw.name);

  AtomicFile f(path);
  std::string line = "id,x_m,y_m,z_m,roll_rad,pitch_rad,yaw_rad,speed_m_per_s";
  line += "," + metric_columns();
  line += ",diverged,capsized";
  for (const auto& p : params) line += "," + p + unit_suffix(param_unit(batch.model(), p));
  line += '\n';
  f.write(line);
  for (int v = 0; v < n; ++v) {
    const VehicleSnapshot& snap = r.snapshots[static_cast<size_t>(v)];
    line = std::to_string(v);
    for (double x : snap.position) append_double(line += ',', x);
    for (double x : snap.euler) append_double(line += ',', x);
    const auto& vel = snap.velocity;
    append_double(line += ',', std::sqrt(vel[0] * vel[0] + vel[1] * vel[1] + vel[2] * vel[2]));
    for (int m = 0; m < kMetricCount; ++m) append_double(line += ',', r.metrics[static_cast<size_t>(m) * n + v]);
    line += r.status[static_cast<size_t>(v)] == kStatusDiverged ? ",1" : ",0";
    line += r.status[static_cast<size_t>(v)] == kStatusRolledOver ? ",1" : ",0";
    for (const auto& p : params) {
      append_double(line += ',', with_model(batch.model(), [&](auto host) {
                      using Host = decltype(host);
                      return Host::field(Host::batch_params(batch, v), p);
                    }));
    }
    line += '\n';
    f.write(line);
  }
  f.commit();
}

json metric_aggregates(const Results& r, int n) {
  json out = json::object();
  for (int m = 0; m < kMetricCount; ++m) {
    const MetricInfo& info = kMetricInfo[m];
    const bool event = is_event_time(info);
    // The divergence time exists only for diverged vehicles: aggregated over them instead.
    const bool of_diverged = m == metric::diverged_time;
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    long double sum = 0.0L;
    long long count = 0;
    for (int v = 0; v < n; ++v) {
      if ((r.status[static_cast<size_t>(v)] == kStatusDiverged) != of_diverged) continue;
      const double x = r.metrics[static_cast<size_t>(m) * n + v];
      if (event && x < 0.0) continue;
      lo = std::min(lo, x);
      hi = std::max(hi, x);
      sum += x;
      ++count;
    }
    json a = {{"unit", info.unit}, {"description", info.description}, {"count", count}};
    a["over"] = of_diverged ? "diverged vehicles"
                : event     ? "non-diverged vehicles with the event (value >= 0)"
                            : "non-diverged vehicles";
    if (count > 0) {
      a["min"] = lo;
      a["mean"] = static_cast<double>(sum / count);
      a["max"] = hi;
    } else {
      a["min"] = nullptr;
      a["mean"] = nullptr;
      a["max"] = nullptr;
    }
    out[info.name] = a;
  }
  return out;
}

std::string format_seconds(double s) {
  char buf[32];
  if (s >= 1.0) {
    std::snprintf(buf, sizeof buf, "%.3g s", s);
  } else {
    std::snprintf(buf, sizeof buf, "%.3g ms", s * 1000.0);
  }
  return buf;
}

// --resume DIR: the options the study was started with, from its manifest, plus this call's
// threads and output settings (which do not change results).
RunOptions resumed_options(const RunOptions& given, const study::StudyManifest& m) {
  RunOptions o = given;
  o.scenario = m.scenario_path;
  o.out = *given.resume;
  if (m.cli.contains("samples")) o.samples = m.cli["samples"].get<long long>();
  if (m.cli.contains("backend")) o.backend = m.cli["backend"].get<std::string>();
  if (m.cli.contains("precision")) o.precision = m.cli["precision"].get<std::string>();
  if (!given.cpu_threads && m.cli.contains("cpu_threads")) o.cpu_threads = m.cli["cpu_threads"].get<int>();
  return o;
}

int run_impl(const RunOptions& given, std::ostream& out, std::ostream& err) {
  const Clock::time_point t_start = Clock::now();
  // ---- input: everything is validated before anything is created ----------------------------
  Scenario s;
  json cli = json::object();
  RunOptions opt = given;
  try {
    if (given.resume) {
      const study::StudyManifest m = study::read_manifest(*given.resume);
      opt = resumed_options(given, m);
      s = parse_scenario(m.scenario_text, m.scenario_path);
      if (!s.study.enabled) throw Error(*given.resume + "/study.json: its scenario has no study section");
    } else {
      s = opt.scenario_text ? parse_scenario(*opt.scenario_text, opt.scenario) : load_scenario(opt.scenario);
    }
  } catch (const Error& e) {
    err << "fleetdyn run: " << e.what() << "\n";
    return kExitBadInput;
  }
  if (opt.samples) {
    if (!s.study.enabled) {
      err << "fleetdyn run: --samples: " << s.path << " has no study section (use --vehicles for a plain run)\n";
      return kExitBadInput;
    }
    if (*opt.samples < 1 || *opt.samples > study::kMaxStudySamples) {
      err << "fleetdyn run: --samples: " << *opt.samples << " is outside [1, " << study::kMaxStudySamples << "]\n";
      return kExitBadInput;
    }
    s.study.samples = *opt.samples;
    cli["samples"] = s.study.samples;
  }
  if (opt.vehicles) {
    if (s.study.enabled) {
      err << "fleetdyn run: --vehicles: " << s.path << " is a study: it simulates one vehicle per sample (use --samples)\n";
      return kExitBadInput;
    }
    if (*opt.vehicles < 1 || *opt.vehicles > kMaxVehicles) {
      err << "fleetdyn run: --vehicles: " << *opt.vehicles << " is outside [1, " << kMaxVehicles << "]\n";
      return kExitBadInput;
    }
    s.vehicles = *opt.vehicles;
    cli["vehicles"] = s.vehicles;
  }
  // --backend and --precision: parse the value into the scenario, or report the bad value.
  const auto apply_choice = [&](const std::optional<std::string>& value, const char* flag, auto parse, auto& target) {
    if (!value) return true;
    try {
      target = parse(*value);
    } catch (const Error& e) {
      err << "fleetdyn run: " << flag << ": " << e.what() << "\n";
      return false;
    }
    cli[flag + 2] = *value;  // the JSON key is the flag without its dashes
    return true;
  };
  if (!apply_choice(opt.backend, "--backend", parse_backend, s.backend) ||
      !apply_choice(opt.precision, "--precision", parse_precision, s.precision)) {
    return kExitBadInput;
  }
  if (opt.cpu_threads) {
    if (*opt.cpu_threads < 0 || *opt.cpu_threads > 4096) {
      err << "fleetdyn run: --threads: " << *opt.cpu_threads << " is outside [0, 4096]\n";
      return kExitBadInput;
    }
    s.cpu_threads = *opt.cpu_threads;
    cli["cpu_threads"] = s.cpu_threads;
  }
  if (opt.out) {
    if (opt.out->empty()) {
      err << "fleetdyn run: --out: empty folder name\n";
      return kExitBadInput;
    }
    s.output = *opt.out;
    cli["output"] = s.output;
  }
  if (const std::string why = check_output_folder(s.output); !why.empty()) {
    err << "fleetdyn run: " << (opt.out ? "--out" + why.substr(why.find(':')) : s.path + ": " + why) << "\n";
    return kExitBadInput;
  }
  if (s.study.enabled) {
    study::StudyRunOptions so;
    so.resume = given.resume.has_value();
    so.quiet = opt.quiet;
    so.progress = opt.progress;
    so.cli = cli;
    so.on_progress = opt.on_progress;
    return study::run_study(s, so, out, err);
  }
  // The batch: per-vehicle parameters (a swept set may be inconsistent: bad input), the
  // engine (no CUDA device: a runtime failure), the vehicles placed at rest.
  std::optional<Batch> made;
  try {
    made.emplace(scenario_batch(s));
  } catch (const ScenarioError& e) {
    err << "fleetdyn run: " << e.what() << "\n";
    return kExitBadInput;
  }
  Batch& batch = *made;
  for (const auto& w : s.warnings) err << "fleetdyn run: warning: " << w << "\n";

  // ---- the run ----------------------------------------------------------------------------------
  const double setup_s = std::chrono::duration<double>(Clock::now() - t_start).count();

  const long long total = scenario_step_count(s);
  ProgressBar bar(err, opt.progress && !opt.quiet, total, s.step, s.vehicles);
  const Clock::time_point t_run = Clock::now();
  bar.update(0);
  step_in_slices(batch, total, s.step, [&](long long done) { bar.update(done); });
  const double run_s = std::chrono::duration<double>(Clock::now() - t_run).count();
  bar.finish();

  Results r;
  r.snapshots = batch.snapshots();
  r.metrics = batch.metrics();
  r.status = batch.status();
  const int nveh = batch.vehicle_count();
  const long long diverged = std::count(r.status.begin(), r.status.end(), static_cast<int>(kStatusDiverged));
  const long long capsized = std::count(r.status.begin(), r.status.end(), static_cast<int>(kStatusRolledOver));
  const double vehicle_steps = static_cast<double>(nveh) * static_cast<double>(total);
  const double sim_time = static_cast<double>(total) * s.step;
  const double steps_per_s = run_s > 0.0 ? vehicle_steps / run_s : 0.0;
  const double sim_per_s = run_s > 0.0 ? static_cast<double>(nveh) * sim_time / run_s : 0.0;

  // ---- output --------------------------------------------------------------------------------
  const fs::path folder(s.output);
  std::error_code ec;
  fs::create_directories(folder, ec);
  if (ec) throw Error("cannot create output folder '" + s.output + "': " + ec.message());
  write_results_csv(folder / "results.csv", batch, s, r);

  json j;
  j["fleetdyn_version"] = fleetdyn_version();
  j["scenario"] = scenario_json(s);
  j["cli_overrides"] = cli;
  j["model"] = s.model;
  j["backend"] = backend_name(batch.backend());
  j["device"] = batch.device_name();
  j["precision"] = precision_name(batch.precision());
  j["step"] = s.step;
  j["substeps"] = s.substeps;
  j["contact_requery"] = s.contact_requery;
  j["vehicles"] = nveh;
  j["duration"] = s.duration;
  j["steps"] = total;
  j["simulated_time"] = sim_time;
  j["setup_time_s"] = setup_s;
  j["wall_time_s"] = run_s;
  j["vehicle_steps_per_s"] = steps_per_s;
  j["sim_vehicle_seconds_per_s"] = sim_per_s;
  // completed: stepped to the end (diverged and capsized vehicles were frozen before it).
  j["counts"] = {{"vehicles", nveh}, {"diverged", diverged}, {"capsized", capsized}, {"completed", nveh - diverged - capsized}};
  j["metrics"] = metric_aggregates(r, nveh);
  j["files"] = {{"results", "results.csv"}, {"summary", "summary.json"}};
  write_text_file(folder / "summary.json", j.dump(2) + "\n");

  if (!opt.quiet) {
    char line[256];
    std::snprintf(line, sizeof line, "%s: %d vehicles x %g s (%lld steps of %s, %s) on %s\n", s.name.c_str(), nveh, sim_time,
                  total, format_seconds(s.step).c_str(), precision_name(batch.precision()), batch.device_name().c_str());
    out << line;
    std::snprintf(line, sizeof line, "  %s wall: %s vehicle-steps/s, %s simulated vehicle-seconds per second\n",
                  format_seconds(run_s).c_str(), format_rate(steps_per_s).c_str(), format_rate(sim_per_s).c_str());
    out << line;
    out << "  diverged: " << diverged << " of " << nveh << ", capsized (frozen on their side): " << capsized << "\n";
    // The answers at a glance: how many lifted a wheel or two, and the spread of the peaks.
    const auto count_positive = [&](int m) {
      long long k = 0;
      for (int v = 0; v < nveh; ++v) k += r.metrics[static_cast<size_t>(m) * nveh + v] > 0.0 ? 1 : 0;
      return k;
    };
    const auto range = [&](int m, double scale, const char* unit) {
      double lo = 0.0, hi = 0.0;
      for (int v = 0; v < nveh; ++v) {
        const double x = r.metrics[static_cast<size_t>(m) * nveh + v] * scale;
        lo = v == 0 ? x : std::min(lo, x);
        hi = v == 0 ? x : std::max(hi, x);
      }
      char text[96];
      std::snprintf(text, sizeof text, "%.3g .. %.3g %s", lo, hi, unit);
      return std::string(text);
    };
    out << "  wheel lift-off: " << count_positive(metric::wheel_liftoff_time) << " of " << nveh
        << " vehicles (both wheels of a side: " << count_positive(metric::two_wheel_liftoff_time) << ")\n";
    out << "  max roll: " << range(metric::max_abs_roll, 180.0 / kPi, "deg")
        << ", max lateral acceleration: " << range(metric::max_abs_lat_accel, 1.0 / 9.80665, "g") << "\n";
    out << "  results:  " << (folder / "results.csv").string() << "\n";
    out << "  summary:  " << (folder / "summary.json").string() << "\n";
  }
  return kExitOk;
}

}  // namespace

int run_command(const RunOptions& options, std::ostream& out, std::ostream& err) {
  try {
    return run_impl(options, out, err);
  } catch (const std::bad_alloc&) {
    err << "fleetdyn run: out of memory\n";
  } catch (const std::exception& e) {
    err << "fleetdyn run: " << e.what() << "\n";
  }
  return kExitFailure;
}

}  // namespace fleetdyn
