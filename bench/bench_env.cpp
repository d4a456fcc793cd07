// fleetdyn_bench_env: Google Benchmark throughput of the vector environment.
//
//   vector_env/<backend>/<precision>/envs:<N>/decimation:<k>      strut: VectorEnv::step with host actions
//   vector_env_ce/<backend>/<precision>/envs:<N>/decimation:<k>   the same with the ce model
//
// Path following, HMMWV, the model's default step (strut 1 ms, ce 2 ms), default observations and
// randomization; actions are a fixed weave (steer) with light throttle, so episodes run, end and
// auto-reset as in training (ce: each reset solves the rest state of its fresh parameters).
// Items are env-steps (each `decimation` physics steps); the counter physics_steps_per_s counts
// vehicle physics steps, simulated_s_per_s the simulated vehicle-seconds per wall second (the
// figure that compares models with different steps). On CUDA every iteration enqueues one step
// and the timing loop synchronizes once at its end (UseRealTime), as a training loop that reads
// nothing back would.
#include <benchmark/benchmark.h>

#include <cmath>
#include <string>
#include <vector>

#include "fleetdyn/vector_env.h"

namespace {

using namespace fleetdyn;

void bm_env(benchmark::State& state, VehicleModel model, BackendKind backend, Precision precision, int envs, int decimation) {
  VectorEnvConfig c;
  c.model = model;
  c.num_envs = envs;
  c.backend = backend;
  c.precision = precision;
  c.decimation = decimation;
  c.seed = 1;
  VectorEnv env(c);
  std::vector<float> actions(static_cast<size_t>(envs) * 3);
  for (int e = 0; e < envs; ++e) {
    actions[static_cast<size_t>(e) * 3] = static_cast<float>(0.3 * std::sin(0.7 * e));
    actions[static_cast<size_t>(e) * 3 + 1] = 0.3f;
  }
  for (auto _ : state) env.step(actions.data());
  env.synchronize();
  const double items = double(state.iterations()) * envs;
  state.SetItemsProcessed(static_cast<int64_t>(items));
  state.counters["env_steps_per_s"] = benchmark::Counter(items, benchmark::Counter::kIsRate);
  state.counters["physics_steps_per_s"] = benchmark::Counter(items * decimation, benchmark::Counter::kIsRate);
  state.counters["simulated_s_per_s"] = benchmark::Counter(items * decimation * env.config().physics_step,
                                                           benchmark::Counter::kIsRate);
  state.SetLabel(env.device_name());
}

// One benchmark, <prefix>/<backend>/<precision>/envs:<N>/decimation:10; timed in ms on the
// CPU, in us on CUDA.
void add(const char* prefix, const char* model, BackendKind backend, Precision precision, int envs) {
  const bool cpu = backend == BackendKind::Cpu;
  const std::string name = std::string(prefix) + (cpu ? "/cpu/" : "/cuda/") + precision_name(precision) +
                           "/envs:" + std::to_string(envs) + "/decimation:10";
  benchmark::RegisterBenchmark(name.c_str(), bm_env, parse_model(model), backend, precision, envs, 10)
      ->UseRealTime()
      ->Unit(cpu ? benchmark::kMillisecond : benchmark::kMicrosecond);
}

}  // namespace

int main(int argc, char** argv) {
  std::string why;
  const bool cuda = cuda_available(&why);
  for (Precision precision : {Precision::Fp32, Precision::Fp64}) {
    for (int envs : {1024, 4096}) {
      add("vector_env", "strut", BackendKind::Cpu, precision, envs);
      if (cuda) add("vector_env", "strut", BackendKind::Cuda, precision, envs);
    }
    // ce: 10 x 2 ms per env step (50 Hz control); about 8x strut's cost per physics step on the
    // CPU (scalar path, no SIMD lanes), so smaller batches there.
    for (int envs : {256, 1024}) add("vector_env_ce", "ce", BackendKind::Cpu, precision, envs);
  }
  if (cuda) {
    for (int envs : {16384, 65536}) add("vector_env", "strut", BackendKind::Cuda, Precision::Fp32, envs);
    for (Precision precision : {Precision::Fp32, Precision::Fp64}) {
      for (int envs : {4096, 16384, 65536}) add("vector_env_ce", "ce", BackendKind::Cuda, precision, envs);
    }
  } else {
    benchmark::RegisterBenchmark("vector_env/cuda", [why](benchmark::State& state) { state.SkipWithError(why.c_str()); });
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
