// fleetdyn_bench_pgs: Google Benchmark throughput of the pgs batch on the CPU for the seed
// problems (host/pgs/pgs_seed_models.h), a fixed sweep count per step as on the GPU.
//
//   pgs/<problem>/<precision>/<systems>   10 steps of `systems` systems per iteration
//
// Counters: system_steps_per_s (systems x steps per wall second), rows_per_s (constraint rows
// solved per second: system steps x rows), row_updates_per_s (x sweeps: single-row PGS updates).
//   pgs_cuda_thread/..., pgs_cuda_warp/...  the same on the CUDA kernels (a thread or a warp per
//   system, PgsBatchOptions::cuda_warp_per_system), registered only where a device exists
//
// Threads: all hardware threads (the CPU backend's default).
#include <benchmark/benchmark.h>

#include <string>

#include "fleetdyn/pgs.h"
#include "host/pgs/pgs_seed_models.h"

namespace {

using namespace fleetdyn;

constexpr int kSweeps = 20;
constexpr int kStepsPerIteration = 10;

void bm_pgs(benchmark::State& st, PgsModelDef model, PgsBatchOptions options) {
  const int systems = static_cast<int>(st.range(0));
  PgsSolverSettings settings;
  settings.tolerance = 0.0;
  settings.max_iterations = kSweeps;
  PgsBatch batch(model, systems, settings, options);
  for (auto _ : st) {
    batch.step(kStepsPerIteration);
    batch.synchronize();
  }
  const double steps = static_cast<double>(st.iterations()) * kStepsPerIteration * systems;
  st.counters["system_steps_per_s"] = benchmark::Counter(steps, benchmark::Counter::kIsRate);
  st.counters["rows_per_s"] = benchmark::Counter(steps * batch.row_count(), benchmark::Counter::kIsRate);
  st.counters["row_updates_per_s"] = benchmark::Counter(steps * batch.row_count() * kSweeps, benchmark::Counter::kIsRate);
  st.SetLabel(batch.device_name() + ", " + std::to_string(batch.row_count()) + " rows");
}

void register_all() {
  struct Problem {
    const char* name;
    PgsModelDef model;
  };
  const Problem problems[] = {{"seed000_suspension", pgs_seed000_suspension()},
                              {"seed002_tethers", pgs_seed002_tethers()},
                              {"seed003_point_to_point", pgs_seed003_point_to_point()},
                              {"chain8", pgs_hanging_chain(8)}};
  const bool cuda = cuda_available();
  for (const Problem& p : problems) {
    for (Precision precision : {Precision::Fp32, Precision::Fp64}) {
      const std::string suffix = std::string(p.name) + "/" + precision_name(precision);
      benchmark::RegisterBenchmark(("pgs/" + suffix).c_str(), bm_pgs, p.model,
                                   PgsBatchOptions{BackendKind::Cpu, precision, 0, false})
          ->Arg(1)
          ->Arg(256)
          ->Arg(4096)
          ->Unit(benchmark::kMicrosecond)
          ->UseRealTime();
      if (!cuda) continue;
      for (bool warp : {false, true}) {
        benchmark::RegisterBenchmark(((warp ? "pgs_cuda_warp/" : "pgs_cuda_thread/") + suffix).c_str(), bm_pgs, p.model,
                                     PgsBatchOptions{BackendKind::Cuda, precision, 0, warp})
            ->Arg(1024)
            ->Arg(65536)
            ->Arg(1 << 20)
            ->Unit(benchmark::kMicrosecond)
            ->UseRealTime();
      }
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  register_all();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
