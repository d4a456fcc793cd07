// fleetdyn_bench_env: Google Benchmark throughput of the vector environment (issue 6 section 4).
//
//   vector_env/<backend>/<precision>/envs:<N>/decimation:<k>   VectorEnv::step with host actions
//
// Path following, strut HMMWV, 1 ms physics, default observations and randomization; actions are
// a fixed weave (steer) with light throttle, so episodes run, end and auto-reset as in training.
// Items are env-steps (each `decimation` physics steps); the counter physics_steps_per_s counts
// vehicle physics steps. On CUDA every iteration enqueues one step and the timing loop
// synchronizes once at its end (UseRealTime), as a training loop that reads nothing back would.
#include <benchmark/benchmark.h>

#include <cmath>
#include <string>
#include <vector>

#include "fleetdyn/vector_env.h"

namespace {

using namespace fleetdyn;

void bm_env(benchmark::State& state, BackendKind backend, Precision precision, int envs, int decimation) {
  VectorEnvConfig c;
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
  state.SetLabel(env.device_name());
}

}  // namespace

int main(int argc, char** argv) {
  std::string why;
  const bool cuda = cuda_available(&why);
  for (Precision precision : {Precision::Fp32, Precision::Fp64}) {
    for (int envs : {1024, 4096}) {
      const std::string suffix = std::string("/") + precision_name(precision) + "/envs:" + std::to_string(envs) + "/decimation:10";
      benchmark::RegisterBenchmark(("vector_env/cpu" + suffix).c_str(), bm_env, BackendKind::Cpu, precision, envs, 10)
          ->UseRealTime()
          ->Unit(benchmark::kMillisecond);
      if (cuda) {
        benchmark::RegisterBenchmark(("vector_env/cuda" + suffix).c_str(), bm_env, BackendKind::Cuda, precision, envs, 10)
            ->UseRealTime()
            ->Unit(benchmark::kMicrosecond);
      }
    }
  }
  if (cuda) {
    for (int envs : {16384, 65536}) {
      benchmark::RegisterBenchmark(("vector_env/cuda/fp32/envs:" + std::to_string(envs) + "/decimation:10").c_str(), bm_env,
                                   BackendKind::Cuda, Precision::Fp32, envs, 10)
          ->UseRealTime()
          ->Unit(benchmark::kMicrosecond);
    }
  } else {
    benchmark::RegisterBenchmark("vector_env/cuda", [why](benchmark::State& state) { state.SkipWithError(why.c_str()); });
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
