// fleetdyn_bench_ce: Google Benchmark throughput of the ce model's single-vehicle step on the CPU
// (the batch and GPU entries come with the ce batch backend; bench/README.md).
//
//   ce_derivative/<precision>   one ce_derivative call (kinematics of 4 corners + the recursion)
//   ce_step/<precision>         one ce_step at the default step (4 derivatives + RK4)
//
// Scenario as for strut (bench_strut.cpp): HMMWV on flat ground at 15 m/s in a steady turn
// (steer 0.1, throttle 0.15); step ce_step_analysis().default_step (2 ms). The counter
// sim_s_per_s is simulated vehicle-seconds per wall second on one core.
#include <benchmark/benchmark.h>

#include <vector>

#include "fleetdyn/ce.h"

namespace {

using namespace fleetdyn;

struct Setup {
  CeParams<double> params = hmmwv_ce_params();
  TerrainDesc<double> flat = default_terrain_desc<double>();
  double step = 0.0;
  std::vector<double> state;
  Setup() {
    step = ce_step_analysis(params).default_step;
    // Settle into the turn for 2 s so the benchmark runs the steady-state work.
    state = ce_rest_state(params, 15.0);
    const CeEnvironment<double> env{&flat, 0.0, 0.0};
    std::vector<double> next(kCeStateSize);
    for (int k = 0; k < static_cast<int>(2.0 / step); ++k) {
      ce_step(params, env, step, 1, DriverInput<double>{0.1, 0.15, 0.0}, state.data(), next.data());
      state.swap(next);
    }
  }
};

const Setup& setup() {
  static const Setup s;
  return s;
}

// The settled vehicle in precision T on flat ground, with the inputs both benchmarks drive.
template <class T>
struct SettledVehicle {
  const Setup& s = setup();
  const CeParams<T> p = convert_ce_params<T>(s.params);
  const TerrainDesc<T> flat = default_terrain_desc<T>();
  const CeEnvironment<T> env{&flat, T(0), T(0)};
  const DriverInput<T> input{T(0.1), T(0.15), T(0)};
  std::vector<T> state{s.state.begin(), s.state.end()};
};

template <class T>
void bm_ce_derivative(benchmark::State& st) {
  SettledVehicle<T> v;
  std::vector<T> rate(kCeStateSize);
  for (auto _ : st) {
    ce_derivative(v.p, v.env, v.input, v.state.data(), rate.data());
    benchmark::DoNotOptimize(rate.data());
    benchmark::ClobberMemory();
  }
  st.SetItemsProcessed(st.iterations());
}

template <class T>
void bm_ce_step(benchmark::State& st) {
  SettledVehicle<T> v;
  std::vector<T> next(kCeStateSize);
  for (auto _ : st) {
    ce_step(v.p, v.env, T(v.s.step), 1, v.input, v.state.data(), next.data());
    v.state.swap(next);
    benchmark::DoNotOptimize(v.state.data());
  }
  st.SetItemsProcessed(st.iterations());
  st.counters["sim_s_per_s"] = benchmark::Counter(static_cast<double>(st.iterations()) * v.s.step, benchmark::Counter::kIsRate);
}

BENCHMARK(bm_ce_derivative<float>)->Name("ce_derivative/fp32")->UseRealTime();
BENCHMARK(bm_ce_derivative<double>)->Name("ce_derivative/fp64")->UseRealTime();
BENCHMARK(bm_ce_step<float>)->Name("ce_step/fp32")->UseRealTime();
BENCHMARK(bm_ce_step<double>)->Name("ce_step/fp64")->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
