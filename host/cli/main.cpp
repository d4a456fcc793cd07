// The fleetdyn command-line tool:
//   fleetdyn run [SCENARIO] [--out DIR] [--vehicles N | --samples N] [--backend auto|cpu|cuda]
//                [--precision fp32|fp64] [--threads N] [--quiet]
//   fleetdyn run --resume DIR [--threads N] [--quiet]      # continue a study
//   fleetdyn bench [--model strut|ce|pgs] [--sizes 1,100,...] [--backends cpu,cuda] [--precisions fp32,fp64]
//                  [--threads 1,2] [--min-time S] [--out DIR] [--machine NAME] [--quiet]
//   fleetdyn params [--model strut|ce|pgs] [--preset NAME | --vehicle FILE]
//   fleetdyn kinematics [--preset hmmwv | --vehicle FILE] [--from M --to M --step M] [--steer RAD] [--out FILE] [--plot]
//   fleetdyn validate --model ce|pgs [--vehicles N] [--backend cpu|cuda] [--precision fp32|fp64]
//   fleetdyn --version
// Exit codes: 0 ok, 1 runtime failure, 2 bad input (scenario or command line).
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <iostream>
#include <string>

#include "host/cli/bench_job.h"
#include "host/cli/kinematics_job.h"
#include "host/cli/params_job.h"
#include "host/cli/run_job.h"
#include "host/cli/validate_job.h"

int main(int argc, char** argv) {
  using namespace fleetdyn;
  CLI::App app{"fleetdyn: batched ground-vehicle dynamics on CPU and GPU", "fleetdyn"};
  app.set_version_flag("--version", std::string("fleetdyn ") + fleetdyn_version());
  app.require_subcommand(1);
  app.footer("Exit codes: 0 ok, 1 runtime failure, 2 bad input (scenario or command line).\n");

  // ---- run ----------------------------------------------------------------------------------
  RunOptions run;
  std::string run_out, run_backend, run_precision, run_resume;
  int run_vehicles = 0, run_threads = 0;
  long long run_samples = 0;
  CLI::App* run_cmd = app.add_subcommand("run", "Simulate a scenario and write results.csv and summary.json");
  CLI::Option* scenario_opt = run_cmd->add_option("scenario", run.scenario, "Scenario YAML file")->capture_default_str();
  CLI::Option* out_opt = run_cmd->add_option("--out", run_out, "Result folder (default: the scenario's `output`)");
  CLI::Option* veh_opt = run_cmd->add_option("--vehicles", run_vehicles, "Number of vehicles (default: the scenario's)");
  CLI::Option* backend_opt = run_cmd->add_option("--backend", run_backend, "Backend (default: the scenario's)")
                                 ->check(CLI::IsMember({"auto", "cpu", "cuda"}));
  CLI::Option* prec_opt = run_cmd->add_option("--precision", run_precision, "Precision (default: the scenario's)")
                              ->check(CLI::IsMember({"fp32", "fp64"}));
  CLI::Option* threads_opt = run_cmd->add_option("--threads", run_threads,
                                                 "CPU backend threads, 0 = all (default: the scenario's)");
  CLI::Option* samples_opt = run_cmd->add_option("--samples", run_samples,
                                                 "Samples of a study (default: the scenario's study.samples)");
  CLI::Option* resume_opt = run_cmd->add_option(
      "--resume", run_resume, "Continue the study in this folder, with the scenario and settings it was started with");
  resume_opt->excludes(scenario_opt)->excludes(out_opt)->excludes(veh_opt)->excludes(backend_opt)->excludes(prec_opt)->excludes(samples_opt);
  run_cmd->add_flag("--quiet,-q", run.quiet, "No progress bar and no summary; errors and warnings only");

  // ---- bench --------------------------------------------------------------------------------
  BenchConfig bench;
  CLI::App* bench_cmd = app.add_subcommand("bench", "Measure throughput over batch sizes, backends and precisions");
  bench_cmd
      ->add_option("--model", bench.model,
                   "Vehicle model: strut, ce or pgs (ce: scalar CPU path only; pgs: the maximal-coordinate "
                   "vehicle, 30 sweeps)")
      ->check(CLI::IsMember({"strut", "ce", "pgs"}))
      ->capture_default_str();
  bench_cmd->add_option("--sizes", bench.sizes, "Vehicles per batch, comma separated")->delimiter(',')->capture_default_str();
  // A comma-separated list of choices.
  const auto add_choices = [bench_cmd](const char* name, std::vector<std::string>& values, const char* help,
                                       const std::vector<std::string>& choices) {
    bench_cmd->add_option(name, values, help)->delimiter(',')->check(CLI::IsMember(choices))->capture_default_str();
  };
  add_choices("--backends", bench.backends, "Backends, comma separated", {"cpu", "cuda"});
  add_choices("--precisions", bench.precisions, "Precisions, comma separated", {"fp32", "fp64"});
  bench_cmd->add_option("--threads", bench.cpu_threads, "CPU thread counts, comma separated")->delimiter(',')->capture_default_str();
  add_choices("--params", bench.param_sets,
              "Parameter sets: shared (one for the batch) and/or per-vehicle (Monte Carlo scatter)",
              {"shared", "per-vehicle"});
  add_choices("--cpu-paths", bench.cpu_paths,
              "CPU code paths: simd (vehicles in SIMD lanes, the default) and/or scalar", {"simd", "scalar"});
  bench_cmd->add_option("--min-time", bench.min_wall_seconds, "Minimum wall time per measurement [s]")->capture_default_str();
  bench_cmd->add_option("--out", bench.out_dir, "Result folder")->capture_default_str();
  bench_cmd->add_option("--machine", bench.machine, "Machine label for the result file (default: the host name)");
  bench_cmd->add_flag("--quiet,-q", bench.quiet, "Print less");

  // ---- params --------------------------------------------------------------------------------
  std::string params_preset = "hmmwv", params_model = "strut", params_vehicle;
  CLI::App* params_cmd = app.add_subcommand(
      "params", "List the vehicle parameters a scenario can override or sweep, with units and ranges");
  params_cmd->add_option("--model", params_model, "Vehicle model whose parameters to list (strut, ce)")->capture_default_str();
  CLI::Option* params_preset_opt = params_cmd->add_option("--preset", params_preset, "Preset whose values to show")->capture_default_str();
  params_cmd->add_option("--vehicle", params_vehicle, "Vehicle file whose values to show (docs/vehicle-files.md)")->excludes(params_preset_opt);

  // ---- kinematics ----------------------------------------------------------------------------
  KinematicsOptions kin;
  std::string kin_out;
  CLI::App* kin_cmd = app.add_subcommand(
      "kinematics", "Suspension kinematics per corner over wheel travel (camber, toe, wheel centre, spring): CSV");
  CLI::Option* kin_preset_opt = kin_cmd->add_option("--preset", kin.preset, "Suspension design (known: hmmwv)")->capture_default_str();
  kin_cmd->add_option("--vehicle", kin.vehicle, "Vehicle file whose suspension to use (docs/vehicle-files.md)")->excludes(kin_preset_opt);
  kin_cmd->add_option("--from", kin.from, "First wheel travel [m], + = bump")->capture_default_str();
  kin_cmd->add_option("--to", kin.to, "Last wheel travel [m], included")->capture_default_str();
  kin_cmd->add_option("--step", kin.step, "Wheel travel step [m]")->capture_default_str();
  kin_cmd->add_option("--steer", kin.steer, "Steering angle: Pitman arm rotation from centre [rad], + = turn left")->capture_default_str();
  CLI::Option* kin_out_opt = kin_cmd->add_option("--out", kin_out, "CSV file (default: stdout); folders are created");
  kin_cmd->add_flag("--plot", kin.plot, "Also write an SVG plot beside the CSV (FILE with extension .svg); needs --out");
  kin_cmd->footer(kinematics_help());

  // ---- validate ------------------------------------------------------------------------------
  ValidateOptions val;
  CLI::App* val_cmd = app.add_subcommand(
      "validate",
      "Check a model's solver against a dense direct solve of the same equations, per vehicle (cuBLAS on cuda)");
  val_cmd
      ->add_option("--model", val.model,
                   "ce (recursion vs dense M) or pgs (sweeps vs direct solve of the bilateral rows)")
      ->check(CLI::IsMember({"ce", "pgs"}))
      ->capture_default_str();
  val_cmd->add_option("--vehicles", val.vehicles, "Vehicles (scattered parameters and inputs)")->capture_default_str();
  val_cmd->add_option("--backend", val.backend, "Where the batch steps and the dense solves run")
      ->check(CLI::IsMember({"cpu", "cuda"}))
      ->capture_default_str();
  val_cmd->add_option("--precision", val.precision, "Precision of the batch and of the check")
      ->check(CLI::IsMember({"fp32", "fp64"}))
      ->capture_default_str();

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);  // help and version print to stdout and return 0
    return code == 0 ? kExitOk : kExitBadInput;
  }

  if (*run_cmd) {
    if (out_opt->count() > 0) run.out = run_out;
    if (veh_opt->count() > 0) run.vehicles = run_vehicles;
    if (backend_opt->count() > 0) run.backend = run_backend;
    if (prec_opt->count() > 0) run.precision = run_precision;
    if (threads_opt->count() > 0) run.cpu_threads = run_threads;
    if (samples_opt->count() > 0) run.samples = run_samples;
    if (resume_opt->count() > 0) run.resume = run_resume;
    run.progress = ::isatty(STDERR_FILENO) != 0;
    return run_command(run, std::cout, std::cerr);
  }
  if (*params_cmd) return params_command(params_model, params_preset, params_vehicle, std::cout, std::cerr);
  if (*kin_cmd) {
    if (kin_out_opt->count() > 0) kin.out = kin_out;
    return kinematics_command(kin, std::cout, std::cerr);
  }
  if (*bench_cmd) return run_bench_job(bench, std::cout);
  if (*val_cmd) return validate_command(val, std::cout, std::cerr);
  return kExitBadInput;  // unreachable: a subcommand is required
}
