// fleetdyn_bench: Google Benchmark throughput of the strut model (bench/README.md).
//
//   strut_batch/<backend>/<precision>/threads:<t>/vehicles:<N>   Batch::step over N vehicles
//   strut_derivative/<precision>                                 one strut_derivative call
//   strut_step/<precision>                                       one strut_step (4 derivatives + RK4)
//
// Scenario (same as `fleetdyn bench`, host/cli/bench_job.cpp): HMMWV, flat ground, 15 m/s in a steady
// turn (steer 0.1, throttle 0.15), step strut_default_step() = 1 ms, 1 substep, contact re-query on.
// Items are vehicle-steps; the counter sim_s_per_s = vehicle-steps/s * step is simulated
// vehicle-seconds per wall second (per_core: divided by the CPU threads). Times are wall-clock
// (UseRealTime) so that worker threads and the GPU count.
//
// With --fleetdyn_job the program instead runs run_bench_job (the `fleetdyn bench` matrix) and
// writes <out>/<machine>-strut.json; see usage() below.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "fleetdyn/batch.h"
#include "fleetdyn/physics/strut/strut_model.h"
#include "fleetdyn/vehicle.h"
#include "host/backend/machine_info.h"
#if defined(FLEETDYN_BENCH_HAS_JOB)
#include "host/cli/bench_job.h"
#endif

namespace {

using namespace fleetdyn;

constexpr double kSpeed = 15.0;
constexpr double kSteer = 0.1;
constexpr double kThrottle = 0.15;

// Fixed steps per iteration: long enough to amortize a step() call for small batches, short
// enough that 10^5 vehicles stay affordable (10 steps = 10^6 vehicle-steps per iteration).
int steps_per_iteration(int vehicles) { return std::clamp(100000 / vehicles, 10, 1000); }

std::unique_ptr<Batch> make_batch(BackendKind backend, Precision precision, int threads, int vehicles, bool simd) {
  const StrutParams<double> p = hmmwv_params();
  BatchOptions options;
  options.backend = backend;
  options.precision = precision;
  options.step = strut_default_step(p);
  options.substeps = 1;
  options.requery_contact = true;
  options.cpu_threads = threads;
  options.cpu_simd = simd;
  auto batch = std::make_unique<Batch>(std::vector<StrutParams<double>>{p}, vehicles, TerrainSpec{}, options);
  InitialCondition ic;
  ic.speed = kSpeed;
  batch->set_initial_conditions({ic});
  batch->set_inputs({DriverInput<double>{kSteer, kThrottle, 0.0}});
  return batch;
}

void bm_batch(benchmark::State& state, BackendKind backend, Precision precision, int threads, bool simd) {
  const int vehicles = static_cast<int>(state.range(0));
  const int steps = steps_per_iteration(vehicles);
  std::unique_ptr<Batch> batch;
  try {
    batch = make_batch(backend, precision, threads, vehicles, simd);
    batch->step(steps);  // warm-up: caches, pages, the GPU's first launch
    batch->synchronize();
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
    return;
  }
  for (auto _ : state) {
    batch->step(steps);
    batch->synchronize();  // step() only enqueues on CUDA; a no-op on the CPU
  }
  const double items = double(state.iterations()) * vehicles * steps;
  const double dt = batch->options().step;
  state.SetItemsProcessed(static_cast<int64_t>(items));
  state.counters["sim_s_per_s"] = benchmark::Counter(items * dt, benchmark::Counter::kIsRate);
  if (backend == BackendKind::Cpu) {
    state.counters["sim_s_per_s_per_core"] = benchmark::Counter(items * dt / threads, benchmark::Counter::kIsRate);
  }
  state.counters["steps_per_iter"] = steps;
  int diverged = 0;
  for (int s : batch->status()) diverged += s != kStatusRunning;
  if (diverged > 0) state.SetLabel(std::to_string(diverged) + " vehicle(s) DIVERGED: rate inflated");
  else state.SetLabel(batch->device_name());
}

// State of one vehicle after 2 s of the scenario, and its origin.
struct WarmState {
  std::vector<double> s;
  double origin_x, origin_y;
};

const WarmState& warm_state() {
  static const WarmState w = [] {
    auto batch = make_batch(BackendKind::Cpu, Precision::Fp64, 1, 1, true);
    batch->step(2000);
    const std::vector<double> o = batch->origins();
    return WarmState{batch->state(), o[0], o[1]};
  }();
  return w;
}

// The HMMWV in precision T on flat ground, in its warm state.
template <class T>
struct WarmVehicle {
  const StrutParams<T> p = convert_params<T>(hmmwv_params());
  const TerrainDesc<T> terrain = default_terrain_desc<T>();
  const WarmState& w = warm_state();
  T s[kStrutStateSize];
  WarmVehicle() {
    for (int j = 0; j < kStrutStateSize; ++j) s[j] = T(w.s[j]);
  }
};

template <class T>
void bm_derivative(benchmark::State& state) {
  WarmVehicle<T> v;
  const StrutParams<T>& p = v.p;
  const WarmState& w = v.w;
  T ds[kStrutStateSize];
  const DriverInput<T> input = clamped(DriverInput<T>{T(kSteer), T(kThrottle), T(0)});
  const StrutEnvironment<T> env(p, &v.terrain, T(w.origin_x), T(w.origin_y), input);
  T* sp = v.s;
  T* dsp = ds;
  for (auto _ : state) {
    benchmark::DoNotOptimize(sp);
    strut_derivative(p, env, input, sp, dsp, static_cast<StrutDiagnostics<T>*>(nullptr));
    benchmark::DoNotOptimize(dsp);
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations());
}

template <class T>
void bm_step(benchmark::State& state) {
  WarmVehicle<T> v;
  const WarmState& w = v.w;
  T b[kStrutStateSize];
  const IntegratorSettings<T> integ{T(strut_default_step(hmmwv_params())), 1, true};
  const DriverInput<T> input{T(kSteer), T(kThrottle), T(0)};
  T* from = v.s;
  T* to = b;
  for (auto _ : state) {
    benchmark::DoNotOptimize(from);
    strut_step(v.p, v.terrain, T(w.origin_x), T(w.origin_y), integ, input, from, to,
               static_cast<StrutDiagnostics<T>*>(nullptr));
    benchmark::DoNotOptimize(to);
    benchmark::ClobberMemory();
    std::swap(from, to);  // the vehicle keeps driving: the next step starts where this one ended
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["sim_s_per_s"] = benchmark::Counter(double(state.iterations()) * double(integ.step),
                                                     benchmark::Counter::kIsRate);
}

void register_benchmarks() {
  const std::vector<int> sizes{1, 100, 10000, 100000};
  for (bool simd : {true, false}) {
    for (Precision prec : {Precision::Fp32, Precision::Fp64}) {
      for (int threads : {1, 2}) {
        const std::string name = std::string(simd ? "strut_batch/cpu/" : "strut_batch/cpu-scalar/") +
                                 precision_name(prec) + "/threads:" + std::to_string(threads);
        auto* b = benchmark::RegisterBenchmark(name.c_str(), bm_batch, BackendKind::Cpu, prec, threads, simd);
        for (int n : sizes) b->Arg(n);
        b->ArgName("vehicles")->UseRealTime()->Unit(benchmark::kMillisecond);
      }
    }
  }
  std::string why;
  if (cuda_available(&why)) {
    for (Precision prec : {Precision::Fp32, Precision::Fp64}) {
      const std::string name = std::string("strut_batch/cuda/") + precision_name(prec);
      auto* b = benchmark::RegisterBenchmark(name.c_str(), bm_batch, BackendKind::Cuda, prec, 0, false);
      for (int n : sizes) b->Arg(n);
      b->Arg(1000000)->ArgName("vehicles")->UseRealTime()->Unit(benchmark::kMillisecond);
    }
  } else {
    std::fprintf(stderr, "fleetdyn_bench: CUDA benchmarks skipped: %s\n", why.c_str());
    benchmark::RegisterBenchmark("strut_batch/cuda", [why](benchmark::State& state) { state.SkipWithError(why.c_str()); });
  }
  benchmark::RegisterBenchmark("strut_derivative/fp32", bm_derivative<float>);
  benchmark::RegisterBenchmark("strut_derivative/fp64", bm_derivative<double>);
  benchmark::RegisterBenchmark("strut_step/fp32", bm_step<float>);
  benchmark::RegisterBenchmark("strut_step/fp64", bm_step<double>);
}

void usage() {
  std::fprintf(stderr,
               "fleetdyn_bench [--benchmark_* flags] [--fleetdyn_machine=LABEL]\n"
               "fleetdyn_bench --fleetdyn_job [--fleetdyn_out=DIR] [--fleetdyn_machine=LABEL]\n"
               "               [--fleetdyn_min_wall=SECONDS] [--fleetdyn_sizes=1,100,...]\n"
               "               [--fleetdyn_backends=cpu,cuda] [--fleetdyn_precisions=fp32,fp64]\n"
               "               [--fleetdyn_threads=1,2] [--fleetdyn_quiet]\n"
               "  --fleetdyn_job runs the `fleetdyn bench` matrix (no Google Benchmark) and writes\n"
               "  DIR/LABEL-strut.json (default bench/results/<host name>-strut.json).\n");
}

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ',')) {
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  // Take out our own flags; the rest go to Google Benchmark.
  bool job = false, quiet = false;
  std::string machine, out_dir = "bench/results", sizes, backends, precisions, threads, min_wall;
  std::vector<char*> rest{argv[0]};
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const auto value = [&a](const char* flag, std::string* dst) {
      const std::string prefix = std::string(flag) + "=";
      if (a.rfind(prefix, 0) != 0) return false;
      *dst = a.substr(prefix.size());
      return true;
    };
    if (a == "--fleetdyn_job") job = true;
    else if (a == "--fleetdyn_quiet") quiet = true;
    else if (a == "--fleetdyn_help" || a == "--help" || a == "-h") {
      usage();
      if (a == "--fleetdyn_help") return 0;
      rest.push_back(argv[i]);
    } else if (value("--fleetdyn_machine", &machine) || value("--fleetdyn_out", &out_dir) || value("--fleetdyn_sizes", &sizes) ||
               value("--fleetdyn_backends", &backends) || value("--fleetdyn_precisions", &precisions) ||
               value("--fleetdyn_threads", &threads) || value("--fleetdyn_min_wall", &min_wall)) {
    } else if (a.rfind("--fleetdyn_", 0) == 0) {
      std::fprintf(stderr, "fleetdyn_bench: unknown option %s\n", a.c_str());
      usage();
      return 2;
    } else {
      rest.push_back(argv[i]);
    }
  }

  if (job) {
#if defined(FLEETDYN_BENCH_HAS_JOB)
    BenchConfig config;
    try {
      if (!sizes.empty()) {
        config.sizes.clear();
        for (const std::string& s : split(sizes)) config.sizes.push_back(std::stoi(s));
      }
      if (!threads.empty()) {
        config.cpu_threads.clear();
        for (const std::string& s : split(threads)) config.cpu_threads.push_back(std::stoi(s));
      }
      if (!min_wall.empty()) config.min_wall_seconds = std::stod(min_wall);
    } catch (const std::exception&) {
      std::fprintf(stderr, "fleetdyn_bench: bad number in --fleetdyn_sizes/threads/min_wall\n");
      return 2;
    }
    if (!backends.empty()) config.backends = split(backends);
    if (!precisions.empty()) config.precisions = split(precisions);
    config.out_dir = out_dir;
    config.machine = machine;
    config.quiet = quiet;
    return run_bench_job(config, std::cout);
#else
    std::fprintf(stderr, "fleetdyn_bench: built without the bench job (nlohmann-json not found)\n");
    return 2;
#endif
  }

  int rest_argc = static_cast<int>(rest.size());
  benchmark::Initialize(&rest_argc, rest.data());
  if (benchmark::ReportUnrecognizedArguments(rest_argc, rest.data())) return 2;
  std::string why;
  const bool cuda = cuda_available(&why);
  if (!machine.empty()) benchmark::AddCustomContext("machine", machine);
  benchmark::AddCustomContext("cpu_model", cpu_model());
  benchmark::AddCustomContext("fleetdyn_cuda", cuda ? why : "unavailable: " + why);
  benchmark::AddCustomContext("scenario",
                              "strut, hmmwv, flat, 15 m/s, steer 0.1, throttle 0.15, step 1 ms, 1 substep, "
                              "contact re-query on; items = vehicle-steps");
  register_benchmarks();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
