// Scenario files: what `fleetdyn run` simulates, as YAML.
//
// A scenario is one YAML mapping. Every key is optional except `duration`; unknown keys at any
// level are errors. Example (scenarios/default.yaml):
//
//   name: default               # label; default: the file name without extension
//   model: strut                # vehicle model: strut | ce | pgs (default strut); pgs takes ce's
//                               #   parameter names and preset
//   vehicle:
//     preset: hmmwv             # built-in parameter set (fleetdyn::vehicle_preset_names())
//     # file: my_truck.yaml     # instead of preset: a vehicle file (docs/vehicle-files.md; a
//                               #   Chrono::Vehicle .json too), relative to the scenario's folder
//     overrides:                # any name of the model's table, within its [min, max]:
//                               #   strut FLEETDYN_VEHICLE_PARAM_FIELDS, ce FLEETDYN_CE_PARAM_FIELDS
//       tire.mu: 0.9
//     sweep:                    # optional per-vehicle spread: vehicle v of N gets
//       name: cg_height         #   from + (to - from) * v / (N - 1)   (N = 1: from)
//       from: 0.6               # a list of such maps sweeps several parameters together;
//       to: 0.9                 # a swept parameter may not also be overridden
//   terrain:
//     type: flat                # flat | plane | hill | heightfield | loop | rough_road
//     # every type: mu_scale (default 1), base_height [m] (default 0)
//     # plane:       slope_deg, bank_deg (|angle| < 80)            surface rises along +x / +y
//     # hill:        x, y, height [m], radius [m] (> 0, Gaussian sigma; required)
//     # loop:        x, radius (8), lateral_shift (3.5), track_width (6)   [m]
//     # heightfield: file (CSV, required), dx, dy (> 0, required), x0, y0 (default 0)
//     #   The CSV path is relative to the scenario file. One row per y sample (row iy holds the
//     #   heights at y0 + iy*dy), one column per x sample; rows must all have the same length;
//     #   blank lines and lines starting with '#' are skipped. Heights are relative to base_height.
//     # rough_road:  ISO 8608 random road over x in [0, length], y in +-width/2 (fleetdyn/rough_road.h):
//     #   class (A..H, default C) or roughness (Gd(n0) [m^3], 1e-9..1), length (1200), width (12),
//     #   dx (0.1), dy (0.25) [m], seed (1): the road's shape.
//     #   per_sample (study only, default true): the road is a periodic tile (length x width) and
//     #   each study sample drives its own stretch of it, shifted by (u1 length, u2 width) and
//     #   with its sign flipped for u3 < 1/2, u from Philox keyed by (study seed, sample); false:
//     #   every sample on the same road at the same place (common random numbers). The sample's
//     #   terrain.class / terrain.roughness, when sampled, scales its heights
//     #   (host/study/study_spec.h).
//   initial: {speed: 15.0, x: 0, y: 0, yaw_deg: 0}   # [m/s], [m], [m], [deg]; default all 0
//            lateral_speed: 0                      # [m/s] sliding sideways, + left (body y)
//   maneuver:                   # open-loop table [t, steer, throttle, brake], linear between rows,
//     - [0.0, 0.0, 0.2, 0.0]    # held after the last row; times strictly increasing;
//     - [1.5, 0.4, 0.2, 0.0]    # steer in [-1, 1], throttle and brake in [0, 1]
//                               # default: one row of zeros (coasting)
//   driver: {type: fishhook, amplitude: 0.27, rate: 1.41}   # instead of `maneuver`: a path driver
//                               # or a programmed maneuver (host/scenario/scenario_driver.h)
//   vehicles: 64                # [1, 1e8]; default 1
//   duration: 6.0               # [s] simulated time, (0, 1e6]; REQUIRED
//   step: 0.001                 # [s] in (0, 0.1]; default: the model's default step for the
//                               #   vehicle (strut_default_step, ce_step_analysis)
//   substeps: 1                 # RK4 substeps per step, [1, 1000]
//   contact_requery: true       # terrain queried at every RK4 stage (false: strut only)
//   precision: fp64             # fp32 | fp64
//   backend: auto               # auto | cpu | cuda
//   cpu_threads: 0              # CPU backend threads, 0 = all hardware threads
//   capsize_roll_deg: 80        # [deg] a vehicle whose roll relative to the ground passes this is
//                               #   frozen as rolled over (status, capsize_time); 0 = never,
//                               #   else [30, 180]
//   output: out/default         # result folder, relative to the working directory;
//                               # default out/<name>
//   study: {...}                # a Monte Carlo study over sampled parameters (host/study/study_spec.h)
//   pgs:                        # model: pgs only (an error for the others): the solver settings,
//                               #   each defaulting to PgsVehicleDef's (fleetdyn/pgs_vehicle.h)
//     iterations: 30            #   PGS sweeps per step, fixed, [1, 10000]
//     baumgarte: 0.2            #   fraction of a joint error removed per step, [0, 1]
//     warm_start: 0.9           #   factor on last step's impulses, [0, 1]
//     wheel_contact: tire       #   tire (TMeasy forces) | rows (rigid wheels as contact rows;
//                               #   flat terrain only)
//     friction_cone: circular   #   circular | pyramid: the rigid wheels' friction (rows only)
//
// Integer keys accept integral numbers (1e6). Every error is one ScenarioError whose message
// reads "<file>:<line>: <field>: <what is wrong>", e.g.
//   scenarios/x.yaml:7: maneuver[2][0]: times must increase (0.5 after 1.0)
#pragma once

#include <string>
#include <vector>

#include "fleetdyn/batch.h"
#include "fleetdyn/error.h"
#include "fleetdyn/pgs_vehicle.h"
#include "fleetdyn/rough_road.h"
#include "host/batch/model_params.h"
#include "host/scenario/scenario_driver.h"
#include "host/study/study_spec.h"

namespace fleetdyn {

// A bad scenario: file, 1-based line (0 when the file could not be read) and dotted field.
class ScenarioError : public Error {
 public:
  ScenarioError(std::string file, int line, std::string field, const std::string& what);
  const std::string& file() const { return file_; }
  int line() const { return line_; }
  const std::string& field() const { return field_; }

 private:
  std::string file_;
  int line_;
  std::string field_;
};

struct ParamOverride {
  std::string name;  // FLEETDYN_VEHICLE_PARAM_FIELDS name, e.g. "tire.mu"
  double value;
};

struct ParamSweep {
  std::string name;
  double from, to;
};

struct Scenario {
  std::string path;  // as given (used in messages)
  std::string text;  // the file's original text (echoed into summary.json)

  std::string name;
  std::string model = "strut";  // as written; params.model() is the parsed value
  std::string preset = "hmmwv";
  std::string vehicle_file;              // `vehicle.file` as written ("" : the preset)
  std::string vehicle_path;              // resolved against the scenario's folder
  std::vector<ParamOverride> overrides;  // file order
  std::vector<ParamSweep> sweeps;
  ModelParams params{};  // preset + overrides, finalized (sweeps not applied)

  std::string terrain_type = "flat";
  std::string heightfield_file;    // as written in the scenario
  std::string heightfield_path;    // resolved against the scenario's folder
  TerrainSpec terrain;             // ready for the Batch (heightfield loaded)
  double terrain_slope_deg = 0.0;  // plane: as written (terrain.desc holds radians)
  double terrain_bank_deg = 0.0;
  RoughRoadSettings rough_road;     // rough_road: the ISO 8608 road's settings
  bool terrain_per_sample = false;  // rough_road in a study: each sample on its own stretch

  InitialCondition initial;  // yaw in radians
  double initial_yaw_deg = 0.0;
  Maneuver maneuver;
  DriverSpec driver;  // the `driver:` section (kind Table: the maneuver table)

  int vehicles = 1;
  double duration = 0.0;  // [s]
  double step = 0.0;      // [s] (filled with the default when not given)
  bool step_is_default = false;
  int substeps = 1;
  bool contact_requery = true;
  Precision precision = Precision::Fp64;
  BackendKind backend = BackendKind::Auto;
  int cpu_threads = 0;
  double capsize_roll_deg = 80.0;  // [deg] BatchOptions::capsize_roll; 0 = never
  std::string output;              // folder

  study::StudySpec study;  // the `study:` section (study.enabled: present)
  // The `pgs:` section (model pgs): the solver settings of every vehicle, PgsVehicleDef's defaults
  // where not given (its `vehicle` is unused: params and the sweeps give each vehicle's).
  PgsVehicleDef pgs;

  std::vector<std::string> warnings;  // e.g. a step beyond the RK4 stability limit
};

// Reads and validates a scenario file. Throws ScenarioError.
Scenario load_scenario(const std::string& path);
// Same from text; `path` is used in messages and to resolve the heightfield file.
Scenario parse_scenario(const std::string& text, const std::string& path);

// Per-vehicle parameters for `vehicles` vehicles of a strut (ce) scenario: {params} without
// sweeps, else one finalized set per vehicle with the swept values. Throws ScenarioError if a
// swept set is inconsistent, fleetdyn::Error if the scenario is of the other model.
std::vector<StrutParams<double>> scenario_vehicle_params(const Scenario& s, int vehicles);
std::vector<CeParams<double>> scenario_ce_params(const Scenario& s, int vehicles);
// The pgs model's vehicles: ce's parameter sets with the solver settings of `solver` (a
// scenario's `pgs`; every field but its vehicle).
std::vector<PgsVehicleDef> pgs_vehicle_defs(const std::vector<CeParams<double>>& vehicles, const PgsVehicleDef& solver);
// The scenario's batch (either model) with its options, initial condition and driver.
Batch scenario_batch(const Scenario& s);
// The batch options the scenario asks for (backend, precision, step, substeps, threads).
BatchOptions scenario_batch_options(const Scenario& s);
// Value of sweep `sw` for vehicle v of n.
double sweep_value(const ParamSweep& sw, int v, int n);

// Simulated steps: duration / step rounded to the nearest integer (at least 1).
long long scenario_step_count(const Scenario& s);

// Parsers shared with the command line (throw fleetdyn::Error naming the allowed values).
BackendKind parse_backend(const std::string& name);
Precision parse_precision(const std::string& name);

constexpr int kMaxVehicles = 100000000;

}  // namespace fleetdyn
