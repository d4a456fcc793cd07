// `fleetdyn run`: scenario -> batch -> results.csv + summary.json (see run_job.h).
#include "host/run_job.h"

#include <fcntl.h>
#include <unistd.h>

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
#include "fleetdyn/vehicle.h"
#include "host/progress.h"
#include "host/scenario.h"

#ifndef FLEETDYN_VERSION
#define FLEETDYN_VERSION "unknown"
#endif

namespace fleetdyn {

const char* fleetdyn_version() { return FLEETDYN_VERSION; }

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using json = nlohmann::ordered_json;

struct MetricInfo {
  const char* name;
  const char* unit;
  const char* description;
};
#define FLEETDYN_METRIC_INFO(name, unit, doc) MetricInfo{#name, unit, doc},
const MetricInfo kMetrics[kMetricCount] = {FLEETDYN_METRIC_FIELDS(FLEETDYN_METRIC_INFO)};
#undef FLEETDYN_METRIC_INFO

// Unit as a column-name suffix: "rad/s" -> "_rad_per_s", "m/s^2" -> "_m_per_s2", "-" -> "".
std::string unit_suffix(const std::string& unit) {
  if (unit.empty() || unit == "-") return "";
  std::string s = "_";
  for (char c : unit) {
    if (c == '/') {
      s += "_per_";
    } else if (c == ' ') {
      s += '_';
    } else if (c != '^') {
      s += c;
    }
  }
  return s;
}

std::string param_unit(VehicleModel model, const std::string& name) {
  for (const auto& f : model_param_fields(model)) {
    if (name == f.name) return f.unit;
  }
  return "";
}

// Metrics whose "no event" value is -1 (their description says so) are aggregated over the
// vehicles that had the event; all others over the vehicles that did not diverge.
bool is_event_time(const MetricInfo& m) { return std::strstr(m.description, "-1 if") != nullptr; }

// A file written under a temporary name in its folder and renamed into place on commit();
// removed if never committed.
class AtomicFile {
 public:
  explicit AtomicFile(const fs::path& target)
      : target_(target), temp_(target.parent_path() / ("." + target.filename().string() + ".tmp." + std::to_string(::getpid()))) {
    file_ = std::fopen(temp_.c_str(), "wb");
    if (!file_) throw Error("cannot create '" + temp_.string() + "': " + std::strerror(errno));
    std::setvbuf(file_, nullptr, _IOFBF, 1 << 20);
  }
  ~AtomicFile() {
    if (file_) std::fclose(file_);
    if (!committed_) {
      std::error_code ec;
      fs::remove(temp_, ec);
    }
  }
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  FILE* get() { return file_; }
  void write(const std::string& s) { std::fwrite(s.data(), 1, s.size(), file_); }
  void commit() {
    const bool ok = std::fflush(file_) == 0 && !std::ferror(file_) && ::fsync(::fileno(file_)) == 0;
    const int err = errno;
    const bool closed = std::fclose(file_) == 0;
    file_ = nullptr;
    if (!ok || !closed) throw Error("cannot write '" + temp_.string() + "': " + std::strerror(err));
    std::error_code ec;
    fs::rename(temp_, target_, ec);
    if (ec) throw Error("cannot rename '" + temp_.string() + "' to '" + target_.string() + "': " + ec.message());
    committed_ = true;
  }

 private:
  fs::path target_, temp_;
  FILE* file_ = nullptr;
  bool committed_ = false;
};

// The output folder must be creatable: not an existing file, and its nearest existing ancestor a
// writable folder. Returns an error message, or "" if fine.
std::string check_output_folder(const std::string& folder) {
  std::error_code ec;
  fs::path p = fs::absolute(folder, ec);
  if (ec) return "output: invalid folder '" + folder + "'";
  if (fs::exists(p, ec) && !fs::is_directory(p, ec)) return "output: '" + folder + "' exists and is not a folder";
  while (!p.empty() && !fs::exists(p, ec)) {
    if (p == p.parent_path()) break;
    p = p.parent_path();
  }
  if (!fs::is_directory(p, ec)) return "output: '" + p.string() + "' (on the way to '" + folder + "') is not a folder";
  if (::access(p.c_str(), W_OK) != 0) return "output: cannot create '" + folder + "': '" + p.string() + "' is not writable";
  return "";
}

json scenario_json(const Scenario& s) {
  json j;
  j["file"] = s.path;
  j["name"] = s.name;
  j["model"] = s.model;
  json vehicle;
  vehicle["preset"] = s.preset;
  vehicle["overrides"] = json::object();
  for (const auto& o : s.overrides) vehicle["overrides"][o.name] = o.value;
  vehicle["sweep"] = json::array();
  for (const auto& sw : s.sweeps) vehicle["sweep"].push_back({{"name", sw.name}, {"from", sw.from}, {"to", sw.to}});
  j["vehicle"] = vehicle;
  const TerrainDesc<double>& d = s.terrain.desc;
  json terrain = {{"type", s.terrain_type}, {"mu_scale", d.mu_scale}, {"base_height", d.base_height}};
  if (s.terrain_type == "plane") {
    terrain["slope_deg"] = s.terrain_slope_deg;
    terrain["bank_deg"] = s.terrain_bank_deg;
  } else if (s.terrain_type == "hill") {
    terrain["x"] = d.hill_x;
    terrain["y"] = d.hill_y;
    terrain["height"] = d.hill_height;
    terrain["radius"] = d.hill_radius;
  } else if (s.terrain_type == "loop") {
    terrain["x"] = d.loop_x;
    terrain["radius"] = d.loop_radius;
    terrain["lateral_shift"] = d.loop_lateral_shift;
    terrain["track_width"] = d.loop_track_width;
  } else if (s.terrain_type == "heightfield") {
    terrain["file"] = s.heightfield_file;
    terrain["path"] = s.heightfield_path;
    terrain["nx"] = d.hf_nx;
    terrain["ny"] = d.hf_ny;
    terrain["x0"] = d.hf_x0;
    terrain["y0"] = d.hf_y0;
    terrain["dx"] = d.hf_dx;
    terrain["dy"] = d.hf_dy;
  }
  j["terrain"] = terrain;
  j["initial"] = {{"speed", s.initial.speed}, {"x", s.initial.x}, {"y", s.initial.y}, {"yaw_deg", s.initial_yaw_deg}};
  json maneuver = json::array();
  for (const auto& p : s.maneuver) maneuver.push_back({p.time, p.steer, p.throttle, p.brake});
  j["maneuver"] = maneuver;
  j["vehicles"] = s.vehicles;
  j["duration"] = s.duration;
  j["step"] = s.step;
  j["step_is_default"] = s.step_is_default;
  j["substeps"] = s.substeps;
  j["contact_requery"] = s.contact_requery;
  j["precision"] = precision_name(s.precision);
  j["backend"] = backend_name(s.backend);
  j["cpu_threads"] = s.cpu_threads;
  j["output"] = s.output;
  j["text"] = s.text;
  return j;
}

struct Results {
  std::vector<VehicleSnapshot> snapshots;
  std::vector<double> metrics;  // [kMetricCount][N]
  std::vector<int> status;
};

void append_double(std::string& line, double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  line += buf;
}

void write_results_csv(const fs::path& path, Batch& batch, const Scenario& s, const Results& r) {
  const int n = batch.vehicle_count();
  std::vector<std::string> params;  // overridden, then swept
  for (const auto& o : s.overrides) params.push_back(o.name);
  for (const auto& sw : s.sweeps) params.push_back(sw.name);

  AtomicFile f(path);
  std::string line = "id,x_m,y_m,z_m,roll_rad,pitch_rad,yaw_rad,speed_m_per_s";
  for (const MetricInfo& m : kMetrics) line += std::string(",") + m.name + unit_suffix(m.unit);
  line += ",diverged";
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
    for (const auto& p : params) {
      append_double(line += ',', batch.model() == VehicleModel::Ce ? ce_param(batch.ce_params(v), p)
                                                                    : vehicle_param(batch.params(v), p));
    }
    line += '\n';
    f.write(line);
  }
  f.commit();
}

void write_text_file(const fs::path& path, const std::string& text) {
  AtomicFile f(path);
  f.write(text);
  f.commit();
}

json metric_aggregates(const Results& r, int n) {
  json out = json::object();
  for (int m = 0; m < kMetricCount; ++m) {
    const MetricInfo& info = kMetrics[m];
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

int run_impl(const RunOptions& opt, std::ostream& out, std::ostream& err) {
  const Clock::time_point t_start = Clock::now();
  // ---- input: everything is validated before anything is created ----------------------------
  Scenario s;
  json cli = json::object();
  try {
    s = load_scenario(opt.scenario);
  } catch (const Error& e) {
    err << "fleetdyn run: " << e.what() << "\n";
    return kExitBadInput;
  }
  if (opt.vehicles) {
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
  // Chunks start at about 0.1 s of simulated time and adapt towards ~0.25 s of wall time each,
  // so the bar moves smoothly whether the batch is tiny or huge.
  long long chunk = std::max<long long>(1, std::llround(0.1 / s.step));
  long long done = 0;
  const Clock::time_point t_run = Clock::now();
  bar.update(0);
  while (done < total) {
    const long long n = std::min({chunk, total - done, static_cast<long long>(std::numeric_limits<int>::max())});
    const Clock::time_point t0 = Clock::now();
    batch.step(static_cast<int>(n));
    batch.synchronize();
    done += n;
    bar.update(done);
    const double dt = std::chrono::duration<double>(Clock::now() - t0).count();
    const double scale = dt > 0.0 ? 0.25 / dt : 4.0;
    chunk = std::max<long long>(1, static_cast<long long>(static_cast<double>(n) * std::clamp(scale, 0.25, 4.0)));
  }
  const double run_s = std::chrono::duration<double>(Clock::now() - t_run).count();
  bar.finish();

  Results r;
  r.snapshots = batch.snapshots();
  r.metrics = batch.metrics();
  r.status = batch.status();
  const int nveh = batch.vehicle_count();
  const long long diverged = std::count(r.status.begin(), r.status.end(), static_cast<int>(kStatusDiverged));
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
  j["counts"] = {{"vehicles", nveh}, {"diverged", diverged}, {"completed", nveh - diverged}};
  j["metrics"] = metric_aggregates(r, nveh);
  j["files"] = {{"results", "results.csv"}, {"summary", "summary.json"}};
  write_text_file(folder / "summary.json", j.dump(2) + "\n");

  if (!opt.quiet) {
    char line[256];
    std::snprintf(line, sizeof line, "%s: %d vehicles x %g s (%lld steps of %s, %s) on %s\n", s.name.c_str(), nveh,
                  sim_time, total, format_seconds(s.step).c_str(), precision_name(batch.precision()),
                  batch.device_name().c_str());
    out << line;
    std::snprintf(line, sizeof line, "  %s wall: %s vehicle-steps/s, %s simulated vehicle-seconds per second\n",
                  format_seconds(run_s).c_str(), format_rate(steps_per_s).c_str(), format_rate(sim_per_s).c_str());
    out << line;
    out << "  diverged: " << diverged << " of " << nveh << "\n";
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
    out << "  max roll: " << range(metric::max_abs_roll, 180.0 / M_PI, "deg")
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
