// `fleetdyn bench`: throughput of the strut, ce or pgs model over batch sizes, backends,
// precisions and CPU thread counts, written as JSON under bench/results/. Implemented in
// host/cli/bench_job.cpp.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace fleetdyn {

struct BenchConfig {
  // The vehicle model: "strut" (hmmwv_params(), 1 ms step), "ce" (hmmwv_ce_params(), its
  // default step, 2 ms) or "pgs" (PgsVehicleDef{}: ce's HMMWV in maximal coordinates, 30 sweeps,
  // 1 ms). Anything else is a bad configuration.
  std::string model = "strut";
  std::vector<int> sizes{1, 100, 10000, 100000};     // vehicles per batch (10^6 added on a GPU by default)
  std::vector<std::string> backends{"cpu", "cuda"};  // "cuda" entries are skipped (and said so) without a device
  std::vector<std::string> precisions{"fp32", "fp64"};
  std::vector<int> cpu_threads{1, 2};
  // "shared": one parameter set for the whole batch; "per-vehicle": a set per vehicle (mass, CG
  // height, wheel (ce: spring) rates and friction scattered, as in a Monte Carlo study).
  std::vector<std::string> param_sets{"shared", "per-vehicle"};
  // CPU code paths: "simd" (vehicles in SIMD lanes, the default backend) and/or "scalar". The ce
  // model has no SIMD path: it measures its scalar path once, whichever are listed (saying so
  // when only "simd" is).
  std::vector<std::string> cpu_paths{"simd", "scalar"};
  double min_wall_seconds = 0.5;  // each measurement steps until at least this much wall time has passed
  std::string out_dir = "bench/results";
  std::string machine;  // label for the results file; default: the host name
  bool quiet = false;
};

// Runs the benchmark matrix, prints a table to `log`, writes <out_dir>/<machine>-<model>.json
// (schema "fleetdyn-bench-<model>/1"). Returns a process exit code (0 ok, 1 a configuration
// failed or the file could not be written, 2 bad configuration: nothing is written).
int run_bench_job(const BenchConfig& config, std::ostream& log);

}  // namespace fleetdyn
