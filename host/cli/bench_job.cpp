// `fleetdyn bench`: throughput of the strut or the ce model (see host/cli/bench_job.h and
// bench/README.md).
//
// Every configuration (backend, precision, CPU threads, vehicles) steps the same scenario: the
// HMMWV preset of the model on flat ground at 15 m/s in a steady turn (steer 0.1, throttle 0.15:
// ~3.3 m/s^2 lateral for strut, speed held at ~15 m/s, so all tire forces are nonzero), at the
// model's default step (strut_default_step(): 1 ms; ce_step_analysis().default_step: 2 ms) with
// one RK4 substep and the contact queried at every stage. The normalized steer input is the same
// for both models; strut maps it to the road-wheel angle, ce to the Pitman arm angle. A warm-up
// doubles the chunk length until one chunk takes min_wall_seconds / 8; then timed chunks
// (step(k) + synchronize()) repeat until min_wall_seconds have passed (at least 3), and the
// median chunk rate is reported.
//
// The floor of the CUDA kernel (bench/floor.md) is derived here from an instrumented count of
// the arithmetic of one vehicle-step: the physics is templated on its scalar, so it is run once
// on a scalar type that counts every operation it performs.
//
// What differs between the models (preset, step, scatter, derivative, state and parameter
// sizes) lives in one small traits type per model (host/<model>/<model>_bench.h, the model's
// Host::Bench), collected into a BenchModel; the plan, the measurement, the floor and the JSON are shared.
#include "host/cli/bench_ops.h"  // first: before the physics headers

#include "host/backend/machine_info.h"
#include "host/cli/bench_job.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <exception>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iomanip>
#include <sstream>
#include <thread>
#include <type_traits>

#include <nlohmann/json.hpp>

#include "fleetdyn/batch.h"
#include "fleetdyn/ce.h"
#include "fleetdyn/ce_fields.h"
#include "fleetdyn/error.h"
#include "fleetdyn/pgs_vehicle.h"
#include "fleetdyn/physics/ce/ce_batch.h"
#include "fleetdyn/physics/pgs/pgs_vehicle_batch.h"
#include "fleetdyn/physics/strut/strut_batch.h"
#include "fleetdyn/vehicle.h"
#include "host/batch/vehicle_models.h"
#include "host/ce/ce_bench.h"
#include "host/cli/bench_floor.h"
#include "host/pgs/pgs_bench.h"
#include "host/strut/strut_bench.h"

#if defined(__unix__)
#include <unistd.h>
#endif

namespace fleetdyn {
namespace {

using bench_ops::Counted;
using bench_ops::OpCounts;
using nlohmann::json;

using namespace bench_job;  // the scenario, the operation counts and the floor (host/cli/bench_floor.h)

// ---- machine description ------------------------------------------------------------------------
std::string host_name() {
#if defined(__unix__)
  char buf[256] = {};
  if (gethostname(buf, sizeof(buf) - 1) == 0 && buf[0] != '\0') return buf;
#endif
  return "unknown-host";
}

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
#if defined(__unix__)
  gmtime_r(&t, &tm);
#else
  tm = *std::gmtime(&t);
#endif
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

// A label usable as a file name: letters, digits, '.', '_' and '-'; anything else becomes '-'.
std::string file_label(const std::string& s) {
  std::string out;
  for (char c : s) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                    c == '_' || c == '-';
    out += ok ? c : '-';
  }
  return out;
}

// ---- one measurement ----------------------------------------------------------------------------
struct RunSpec {
  BackendKind backend;
  Precision precision;
  int threads;  // CPU threads (requested); 0 for CUDA
  int vehicles;
  bool per_vehicle_params;
  bool simd;  // CPU: SIMD lanes (else the scalar path); CUDA: unused
};

std::string backend_label(const RunSpec& spec) {
  if (spec.backend != BackendKind::Cpu) return backend_name(spec.backend);
  return spec.simd ? "cpu/simd" : "cpu/scalar";
}

struct RunResult {
  RunSpec spec;
  std::string device;
  double step = 0.0;
  int steps_per_chunk = 0;
  int chunks = 0;
  long long steps_timed = 0;                                 // outer steps per vehicle over all timed chunks
  double wall_seconds = 0.0;                                 // timed chunks only
  double rate_median = 0.0, rate_min = 0.0, rate_max = 0.0;  // [vehicle-steps/s]
  int diverged = 0;
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// One parameter set per vehicle, scattered around the preset like a Monte Carlo study's draws
// (deterministic, so every run measures the same batch; which fields and how far: M::kScatter).
template <class M>
std::vector<typename M::Def> scattered_params(const typename M::Def& preset, int vehicles) {
  std::vector<typename M::Def> sets(static_cast<size_t>(vehicles), preset);
  for (int v = 0; v < vehicles; ++v) {
    const auto draw = [v](double salt) {  // in [-1, 1)
      const double x = std::sin(12.9898 * (v + 1) + 78.233 * salt) * 43758.5453;
      return 2.0 * (x - std::floor(x)) - 1.0;
    };
    M::scatter(sets[static_cast<size_t>(v)], draw);
  }
  return sets;
}

// Times batch.step(k) + synchronize() chunks of a fresh batch (see the file comment).
RunResult time_batch(Batch& batch, const RunSpec& spec, double min_wall_seconds) {
  InitialCondition ic;
  ic.speed = kSpeed;
  batch.set_initial_conditions({ic});
  batch.set_inputs({DriverInput<double>{kSteer, kThrottle, kBrake}});

  using clock = std::chrono::steady_clock;
  const auto chunk = [&batch](int steps) {
    const auto t0 = clock::now();
    batch.step(steps);
    batch.synchronize();
    return std::chrono::duration<double>(clock::now() - t0).count();
  };

  // Warm-up and calibration: grow the chunk until it takes at least an eighth of the budget.
  const double target = min_wall_seconds / 8.0;
  constexpr int kMaxChunk = 1 << 24;
  int k = 1;
  for (;;) {
    const double t = chunk(k);
    if (t >= target || k >= kMaxChunk) break;
    const double grow = t > 0.0 ? std::clamp(1.25 * target / t, 2.0, 16.0) : 16.0;
    k = static_cast<int>(std::min<double>(kMaxChunk, std::ceil(k * grow)));
  }

  RunResult r;
  r.spec = spec;
  r.device = batch.device_name();
  r.step = batch.options().step;
  r.steps_per_chunk = k;
  std::vector<double> rates;
  while (r.wall_seconds < min_wall_seconds || rates.size() < 3) {
    const double t = chunk(k);
    r.wall_seconds += t;
    r.steps_timed += k;
    rates.push_back(double(spec.vehicles) * k / t);
    if (rates.size() >= 100000) break;
  }
  r.chunks = static_cast<int>(rates.size());
  r.rate_median = median(rates);
  r.rate_min = *std::min_element(rates.begin(), rates.end());
  r.rate_max = *std::max_element(rates.begin(), rates.end());
  for (int s : batch.status()) r.diverged += s == kStatusDiverged;
  return r;
}

template <class M>
RunResult measure(const RunSpec& spec, const typename M::Def& p, double step, double min_wall_seconds) {
  BatchOptions options;
  options.backend = spec.backend;
  options.precision = spec.precision;
  options.step = step;
  options.substeps = 1;
  options.requery_contact = true;
  options.cpu_threads = spec.backend == BackendKind::Cpu ? spec.threads : 0;
  options.cpu_simd = spec.simd;
  Batch batch(spec.per_vehicle_params ? scattered_params<M>(p, spec.vehicles) : std::vector<typename M::Def>{p},
              spec.vehicles, TerrainSpec{}, options);
  return time_batch(batch, spec, min_wall_seconds);
}

// Everything the shared plan/measure/JSON code needs to know of a model, with its preset bound.
struct BenchModel {
  std::string name;       // "strut", "ce"
  bool has_simd = false;  // CPU SIMD lane path
  int state_size = 0;     // scalars per vehicle
  size_t params_bytes_fp32 = 0, params_bytes_fp64 = 0;
  double step = 0.0;                                         // [s] the preset's default step
  std::string scatter;                                       // the per-vehicle parameter scatter, in words
  std::string steer_meaning;                                 // what the normalized steer input sets (JSON)
  std::string steer_short;                                   // the same for the log's headline
  std::function<RunResult(const RunSpec&, double)> measure;  // (spec, min_wall_seconds)
  std::function<OpProfile()> count_ops;
};

template <class M>
BenchModel bench_model() {
  using Params = typename M::template Params<double>;
  const typename M::Def params = M::preset();
  BenchModel m;
  m.name = model_name(M::kModel);
  m.has_simd = M::kHasSimd;
  m.state_size = M::Model::kStateSize;
  m.params_bytes_fp32 = sizeof(typename M::template Params<float>);
  m.params_bytes_fp64 = sizeof(Params);
  m.step = M::default_step(params);
  m.scatter = M::kScatter;
  m.steer_meaning = M::kSteerMeaning;
  m.steer_short = M::kSteerShort;
  const double step = m.step;
  m.measure = [params, step](const RunSpec& spec, double min_wall) { return measure<M>(spec, params, step, min_wall); };
  m.count_ops = [params, step] { return count_ops<M>(params, step); };
  return m;
}

std::string fmt(double v, int precision = 3) {
  std::ostringstream os;
  os << std::setprecision(precision) << v;
  return os.str();
}

std::string fmt_rate(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.3e", v);
  return buf;
}

// Maps a list of names, each one of two choices, to their values; on any other name says which
// are known and returns false.
template <class V>
bool parse_two_way(const std::vector<std::string>& names, const char* what, std::pair<const char*, V> first,
                   std::pair<const char*, V> second, std::vector<V>& out, std::ostream& log) {
  for (const std::string& name : names) {
    if (name == first.first) out.push_back(first.second);
    else if (name == second.first) out.push_back(second.second);
    else {
      log << "fleetdyn bench: unknown " << what << " '" << name << "' (known: " << first.first << ", " << second.first << ")\n";
      return false;
    }
  }
  return true;
}

}  // namespace

int run_bench_job(const BenchConfig& config, std::ostream& log) {
  // ---- validate -----------------------------------------------------------------------------
  VehicleModel kind;
  try {
    kind = parse_model(config.model);
  } catch (const Error& e) {
    log << "fleetdyn bench: " << e.what() << "\n";
    return 2;
  }
  bool want_cpu = false, want_cuda = false;
  for (const std::string& b : config.backends) {
    if (b == "cpu") want_cpu = true;
    else if (b == "cuda") want_cuda = true;
    else {
      log << "fleetdyn bench: unknown backend '" << b << "' (known: cpu, cuda)\n";
      return 2;
    }
  }
  std::vector<Precision> precisions;
  std::vector<bool> param_modes, cpu_paths;
  if (!parse_two_way(config.precisions, "precision", {"fp32", Precision::Fp32}, {"fp64", Precision::Fp64}, precisions, log) ||
      !parse_two_way(config.param_sets, "parameter mode", {"shared", false}, {"per-vehicle", true}, param_modes, log) ||
      !parse_two_way(config.cpu_paths, "CPU path", {"simd", true}, {"scalar", false}, cpu_paths, log)) {
    return 2;
  }
  if (want_cpu && cpu_paths.empty()) {
    log << "fleetdyn bench: backend 'cpu' needs at least one CPU path (simd, scalar)\n";
    return 2;
  }
  if (config.backends.empty() || precisions.empty() || config.sizes.empty() || param_modes.empty()) {
    log << "fleetdyn bench: nothing to measure (empty list of backends, precisions, sizes or parameter modes)\n";
    return 2;
  }
  for (int n : config.sizes) {
    if (n < 1) {
      log << "fleetdyn bench: vehicle count must be at least 1, got " << n << "\n";
      return 2;
    }
  }
  const int hardware = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  std::vector<int> threads;
  for (int t : config.cpu_threads) {
    if (t < 0) {
      log << "fleetdyn bench: CPU thread count must be >= 0 (0 = all hardware threads), got " << t << "\n";
      return 2;
    }
    threads.push_back(t == 0 ? hardware : t);
  }
  if (want_cpu && threads.empty()) {
    log << "fleetdyn bench: backend 'cpu' needs at least one CPU thread count\n";
    return 2;
  }
  if (!(config.min_wall_seconds > 0.0) || !std::isfinite(config.min_wall_seconds)) {
    log << "fleetdyn bench: min_wall_seconds must be positive, got " << config.min_wall_seconds << "\n";
    return 2;
  }
  const std::string host = host_name();
  const std::string machine = file_label(config.machine.empty() ? host : config.machine);
  if (machine.empty()) {
    log << "fleetdyn bench: empty machine label\n";
    return 2;
  }

  BenchModel model;
  try {
    model = with_model(kind, [](auto traits) { return bench_model<typename decltype(traits)::Bench>(); });
  } catch (const std::exception& e) {
    log << "fleetdyn bench: " << model_name(kind) << " preset failed: " << e.what() << "\n";
    return 1;
  }
  // A model without a SIMD lane path (ce) runs its scalar path once, whichever paths were asked.
  std::string cpu_paths_note;
  if (!model.has_simd && want_cpu) {
    const bool asked_scalar = std::find(cpu_paths.begin(), cpu_paths.end(), false) != cpu_paths.end();
    cpu_paths_note = "the " + model.name +
                     " model has no SIMD lane path on the CPU (BatchOptions::cpu_simd is ignored): only its scalar "
                     "path is measured" +
                     (asked_scalar ? std::string() : std::string(", although only simd was asked for"));
    if (!asked_scalar) log << "fleetdyn bench: " << cpu_paths_note << "\n";
    cpu_paths.assign(1, false);
  }

  // ---- plan -----------------------------------------------------------------------------------
  std::string cuda_why;
  const bool cuda = cuda_available(&cuda_why);
  std::vector<RunSpec> plan;
  if (want_cpu) {
    for (bool simd : cpu_paths)
      for (bool per_vehicle : param_modes)
        for (Precision prec : precisions)
          for (int t : threads)
            for (int n : config.sizes) plan.push_back({BackendKind::Cpu, prec, t, n, per_vehicle, simd});
  }
  std::vector<int> cuda_sizes = config.sizes;
  if (config.sizes == BenchConfig{}.sizes) cuda_sizes.push_back(1000000);
  if (want_cuda && cuda) {
    for (bool per_vehicle : param_modes)
      for (Precision prec : precisions)
        for (int n : cuda_sizes) plan.push_back({BackendKind::Cuda, prec, 0, n, per_vehicle, false});
  }

  const double step = model.step;
  const std::string cpu = cpu_model();

  json doc;
  doc["schema"] = "fleetdyn-bench-" + model.name + "/1";
  doc["machine"] = machine;
  doc["host"] = host;
  doc["cpu_model"] = cpu;
  doc["cpu_logical_cores"] = hardware;
  doc["date"] = utc_now();
#if defined(FLEETDYN_VERSION)
  doc["fleetdyn"]["version"] = FLEETDYN_VERSION;
#endif
#if defined(FLEETDYN_HAS_CUDA)
  doc["fleetdyn"]["cuda_built"] = true;
#else
  doc["fleetdyn"]["cuda_built"] = false;
#endif
#if defined(NDEBUG)
  doc["fleetdyn"]["optimized"] = true;
#else
  doc["fleetdyn"]["optimized"] = false;
#endif
#if defined(__VERSION__)
  doc["fleetdyn"]["compiler"] = __VERSION__;
#endif
  doc["cuda"] = {{"available", cuda}, {cuda ? "device" : "reason", cuda_why}};
  doc["scenario"] = {{"model", model.name},
                     {"vehicle", "hmmwv"},
                     {"terrain", "flat"},
                     {"initial_speed_mps", kSpeed},
                     {"steer", kSteer},
                     {"throttle", kThrottle},
                     {"brake", kBrake},
                     {"step_s", step},
                     {"substeps", 1},
                     {"requery_contact", true},
                     {"per_vehicle_params", model.scatter}};
  // A model whose steer input is the usual road-wheel angle (strut) keeps its file as it was; the
  // others say what the steer input means.
  if (!model.steer_short.empty()) doc["scenario"]["steer_input"] = model.steer_meaning;
  doc["method"] = {{"min_wall_seconds", config.min_wall_seconds},
                   {"warmup", "chunk length doubled until one chunk (step(k) + synchronize) takes min_wall_seconds/8"},
                   {"statistic", "median over timed chunks (at least 3, until min_wall_seconds)"}};
  if (!cpu_paths_note.empty()) doc["method"]["cpu_paths"] = cpu_paths_note;

  // ---- floor ----------------------------------------------------------------------------------
  OpProfile ops;
  try {
    ops = model.count_ops();
  } catch (const std::exception& e) {
    log << "fleetdyn bench: operation count failed: " << e.what() << "\n";
    return 1;
  }
  const double bytes_fp32 = kernel_bytes_per_launch<float>(model.state_size);
  const double bytes_fp64 = kernel_bytes_per_launch<double>(model.state_size);
  {
    json f;
    f["method"] =
        "instrumented: the templated physics run on a counting scalar (source-level operations, "
        "one step of run_vehicle at the state after 2 s of the scenario)";
    f["ops_per_derivative"] = to_json(ops.derivative);
    f["ops_per_vehicle_step"] = to_json(ops.step);
    f["ops_per_launch"] = to_json(ops.launch);
    f["flop_weights"] = {{"add", 1}, {"mul", 1}, {"div", kWeightDiv}, {"sqrt", kWeightSqrt}, {"transcendental", kWeightTranscendental}};
    f["assumed_device"] = "NVIDIA H100 SXM (H200: same FLOP/s, 4.8 TB/s)";
    f["peak_flop_per_s"] = {{"fp32", kPeakFp32}, {"fp64", kPeakFp64}};
    f["hbm_bytes_per_s"] = kHbmH100;
    f["kernel_bytes_per_vehicle_per_launch"] = {{"fp32", bytes_fp32}, {"fp64", bytes_fp64}};
    f["params_bytes"] = {{"fp32", model.params_bytes_fp32}, {"fp64", model.params_bytes_fp64}};
    f["steps_per_launch"] = kFloorSteps;
    for (Precision prec : {Precision::Fp32, Precision::Fp64}) {
      const Floor fl = cuda_floor(ops, model.state_size, prec, kFloorSteps, kHbmH100);
      f[precision_name(prec)] = {{"compute_floor_vehicle_steps_per_s", fl.compute},
                                 {"compute_floor_weighted_vehicle_steps_per_s", fl.compute_weighted},
                                 {"memory_floor_vehicle_steps_per_s", fl.memory},
                                 {"floor_vehicle_steps_per_s", fl.floor()},
                                 {"floor_sim_vehicle_seconds_per_wall_s", fl.floor() * step},
                                 {"floor_weighted_vehicle_steps_per_s", fl.floor_weighted()},
                                 {"floor_weighted_sim_vehicle_seconds_per_wall_s", fl.floor_weighted() * step}};
    }
    doc["floor"] = f;
  }

  // ---- run ------------------------------------------------------------------------------------
  if (!config.quiet) {
    log << "fleetdyn bench: " << model.name << " model, HMMWV, flat ground, " << kSpeed << " m/s, steer " << kSteer
        << model.steer_short << ", throttle " << kThrottle << ", step " << step * 1e3 << " ms, 1 substep, contact re-query on\n"
        << "machine " << machine << " (host " << host << "), " << cpu << ", " << hardware
        << " logical CPUs; CUDA: " << cuda_why << "\n"
        << "floor (H100 SXM: " << kPeakFp32 / 1e12 << "/" << kPeakFp64 / 1e12 << " TFLOP/s fp32/fp64, "
        << kHbmH100 / 1e12 << " TB/s): " << flops(ops.step) << " FLOP per vehicle-step (" << flops(ops.derivative)
        << " per derivative; weighted " << weighted_flops(ops.step) << "), " << bytes_fp32 << "/" << bytes_fp64
        << " B per vehicle per launch (fp32/fp64)\n";
  }
  if (want_cuda && !cuda) log << "fleetdyn bench: cuda skipped: " << cuda_why << "\n";
  log << std::left << std::setw(11) << "backend" << std::setw(6) << "prec" << std::setw(12) << "params" << std::right
      << std::setw(4) << "thr" << std::setw(9) << "vehicles" << std::setw(9) << "steps/ch" << std::setw(7) << "chunks"
      << std::setw(13) << "veh-steps/s" << std::setw(12) << "sim-s/s" << std::setw(14) << "sim-s/s/core"
      << std::setw(10) << "/floor"
      << "\n";

  json results = json::array();
  json failures = json::array();
  for (const RunSpec& spec : plan) {
    RunResult r;
    try {
      r = model.measure(spec, config.min_wall_seconds);
    } catch (const std::exception& e) {
      log << "fleetdyn bench: " << backend_name(spec.backend) << " " << precision_name(spec.precision) << " "
          << spec.vehicles << " vehicles failed: " << e.what() << "\n";
      failures.push_back(json{{"backend", backend_label(spec)},
                              {"precision", precision_name(spec.precision)},
                              {"threads", spec.threads},
                              {"vehicles", spec.vehicles},
                              {"params", spec.per_vehicle_params ? "per-vehicle" : "shared"},
                              {"error", e.what()}});
      continue;
    }
    const bool is_cpu = spec.backend == BackendKind::Cpu;
    const double sim = r.rate_median * r.step;
    json e = {{"model", model.name},
              {"backend", backend_name(spec.backend)},
              {"precision", precision_name(spec.precision)},
              {"device", r.device},
              {"vehicles", spec.vehicles},
              {"params", spec.per_vehicle_params ? "per-vehicle" : "shared"},
              {"step_s", r.step},
              {"substeps", 1},
              {"steps_per_chunk", r.steps_per_chunk},
              {"chunks", r.chunks},
              {"steps_timed", r.steps_timed},
              {"wall_seconds", r.wall_seconds},
              {"vehicle_steps_per_s", r.rate_median},
              {"vehicle_steps_per_s_min", r.rate_min},
              {"vehicle_steps_per_s_max", r.rate_max},
              {"sim_vehicle_seconds_per_wall_s", sim},
              {"gflop_per_s", r.rate_median * flops(ops.step) * 1e-9},
              {"diverged_vehicles", r.diverged}};
    std::string per_core = "", ratio = "";
    if (is_cpu) {
      e["cpu_path"] = spec.simd ? "simd" : "scalar";
      e["threads"] = spec.threads;
      e["vehicle_steps_per_s_per_core"] = r.rate_median / spec.threads;
      e["sim_vehicle_seconds_per_wall_s_per_core"] = sim / spec.threads;
      per_core = fmt_rate(sim / spec.threads);
    } else {
      const double hbm = hbm_for_device(r.device);
      const Floor fl = cuda_floor(ops, model.state_size, spec.precision, r.steps_per_chunk, hbm);
      e["floor"] = {{"steps_per_launch", r.steps_per_chunk},
                    {"hbm_bytes_per_s", hbm},
                    {"compute_floor_vehicle_steps_per_s", fl.compute},
                    {"memory_floor_vehicle_steps_per_s", fl.memory},
                    {"floor_vehicle_steps_per_s", fl.floor()},
                    {"floor_weighted_vehicle_steps_per_s", fl.floor_weighted()}};
      e["ratio_to_floor"] = r.rate_median / fl.floor();
      e["ratio_to_floor_weighted"] = r.rate_median / fl.floor_weighted();
      ratio = fmt(r.rate_median / fl.floor());
    }
    results.push_back(e);
    log << std::left << std::setw(11) << backend_label(spec) << std::setw(6) << precision_name(spec.precision)
        << std::setw(12) << (spec.per_vehicle_params ? "per-vehicle" : "shared") << std::right << std::setw(4)
        << (is_cpu ? std::to_string(spec.threads) : std::string("-")) << std::setw(9) << spec.vehicles << std::setw(9)
        << r.steps_per_chunk << std::setw(7) << r.chunks << std::setw(13) << fmt_rate(r.rate_median) << std::setw(12)
        << fmt_rate(sim) << std::setw(14) << per_core << std::setw(10) << ratio << "\n";
    if (r.diverged > 0) {
      log << "  warning: " << r.diverged << " vehicle(s) diverged and stopped stepping; the rate above is inflated\n";
    }
    log.flush();
  }
  doc["results"] = results;
  if (!failures.empty()) doc["failures"] = failures;
  if (want_cuda && !cuda) doc["skipped"] = json::array({json{{"backend", "cuda"}, {"reason", cuda_why}}});

  // ---- write ----------------------------------------------------------------------------------
  const std::filesystem::path dir(config.out_dir.empty() ? std::string(".") : config.out_dir);
  const std::filesystem::path path = dir / (machine + "-" + model.name + ".json");
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  std::ofstream out(path);
  if (!out) {
    log << "fleetdyn bench: cannot write " << path.string() << "\n";
    return 1;
  }
  out << doc.dump(2) << "\n";
  out.close();
  if (!out) {
    log << "fleetdyn bench: error writing " << path.string() << "\n";
    return 1;
  }
  log << "wrote " << path.string() << "\n";
  return failures.empty() ? 0 : 1;
}

}  // namespace fleetdyn
