// The batch API: many vehicles of one model stepped together on one backend.
//
//   fleetdyn::Batch batch({fleetdyn::hmmwv_params()}, 1000, fleetdyn::TerrainSpec{}, options);     // strut
//   fleetdyn::Batch batch({fleetdyn::hmmwv_ce_params()}, 1000, fleetdyn::TerrainSpec{}, options);  // ce
//   fleetdyn::Batch batch({fleetdyn::PgsVehicleDef{}}, 1000, fleetdyn::TerrainSpec{}, options);     // pgs
//   batch.set_initial_conditions({{.speed = 20.0}});
//   batch.set_maneuvers({maneuver});
//   batch.step(5000);                      // asynchronous on CUDA: no host synchronization inside
//   auto metrics = batch.metrics();        // reads back (synchronizes)
//
// Parameters, initial conditions and inputs are given per vehicle or once for all (a vector of
// length 1 or N). Values cross the API in double precision whatever the batch's precision.
//
// Where each step's steer, throttle and brake come from is the batch's driver mode, set by the
// last of these calls: set_maneuvers (open-loop time tables; also straight-line braking: a brake
// step in the table), set_inputs (held values, e.g. an RL agent's actions), set_path_driver
// (closed loop: pure pursuit or Stanley steering and a PI speed controller on a path), or
// set_steer_program (NHTSA fishhook with its roll-rate-timed countersteer, FMVSS 126 sine with
// dwell, J-turn, step steer). Drivers run per vehicle inside the step loop, on the device too
// (physics/drivers/driver.h); the open-loop modes do no driver work. fleetdyn/driver.h has the path and
// program builders; docs/design/drivers.md the definitions and their sources.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "fleetdyn/backend.h"
#include "fleetdyn/driver.h"
#include "fleetdyn/physics/core/driveline.h"
#include "fleetdyn/physics/core/terrain.h"
#include "fleetdyn/physics/drivers/driver.h"
#include "fleetdyn/vehicle_models.h"

namespace fleetdyn {

// The models' parameter types: fleetdyn/vehicle.h (strut, and the strut-only read-backs
// energy() and diagnostics()), fleetdyn/ce.h, fleetdyn/pgs_vehicle.h.
template <class T>
struct StrutParams;
template <class T>
struct CeParams;
template <class T>
struct PgsVehicleParams;
struct PgsVehicleDef;
template <class T>
struct EnergyLedger;
template <class T>
struct StrutDiagnostics;

// Terrain of a batch, host side (owns the heightfield data the device copy points into).
struct TerrainSpec {
  TerrainDesc<double> desc = default_terrain_desc<double>();
  std::vector<double> heightfield;  // row-major hf_ny x hf_nx heights when desc.kind == Heightfield
  // Empty (every vehicle meets desc), or one per vehicle: vehicle v meets desc moved and scaled by
  // variation[v] (physics/core/terrain.h; a Monte Carlo sample's own stretch and roughness of a road).
  std::vector<TerrainVariation<double>> variation;
};

struct InitialCondition {
  double x = 0.0, y = 0.0;     // [m] world position of the body COM's ground point (ce: the chassis COM)
  double yaw = 0.0;            // [rad] heading
  double speed = 0.0;          // [m/s] forward speed, wheels rolling freely
  double lateral_speed = 0.0;  // [m/s] sideways speed along the body's y axis (+ left), wheels not turning
                               //       with it: a vehicle sliding sideways, e.g. into a curb
};

struct ManeuverPoint {
  double time;      // [s]
  double steer;     // [-1, 1], positive left
  double throttle;  // [0, 1]
  double brake;     // [0, 1]
};
using Maneuver = std::vector<ManeuverPoint>;

constexpr int kMaxSubsteps = 1000;    // BatchOptions::substeps in [1, kMaxSubsteps]
constexpr int kMaxCpuThreads = 4096;  // BatchOptions::cpu_threads in [0, kMaxCpuThreads]

struct BatchOptions {
  BackendKind backend = BackendKind::Auto;
  Precision precision = Precision::Fp64;
  double step = 1.0e-3;         // [s] outer step; strut_default_step() / ce_step_analysis() derive
                                // it from the stiffest mode (HMMWV: strut 1 ms, ce 2 ms)
  int substeps = 1;             // RK4 substeps per step, 1 .. kMaxSubsteps
  bool requery_contact = true;  // terrain queried at every RK4 stage (false: once per step; strut only)
  int cpu_threads = 0;          // CPU backend threads, 0 .. kMaxCpuThreads; 0 = all hardware threads
  // CPU backend, strut and pgs: step 4 (fp64) or 8 (fp32) vehicles at once in SIMD lanes (true;
  // pgs: its Gauss-Seidel sweeps), or one at a time through the scalar code the GPU runs (false).
  // Results agree to round-off. The ce model always runs the scalar code.
  bool cpu_simd = true;
  // [rad] a vehicle whose roll relative to the ground (over its whole range: pi/2 on its side)
  // passes this at the start of a step is frozen there with status kStatusRolledOver and its
  // capsize_time; 0 = never: it rolls on, its body touching the terrain
  // (docs/models/body-contact.md). Default 80 deg: past its tip-over angle, about to lie on its
  // side (docs/models/strut.md).
  double capsize_roll = 1.3962634015954636;
};

// One vehicle's state in world coordinates, for reading back.
struct VehicleSnapshot {
  double time;                       // [s]
  int status;                        // VehicleStatus
  std::array<double, 3> position;    // [m] body COM, world (ce: the chassis COM)
  std::array<double, 3> euler;       // [rad] roll, pitch, yaw (ZYX)
  std::array<double, 3> velocity;    // [m/s] of the body COM, world
  std::array<double, 3> omega_body;  // [rad/s]
  std::array<double, 4> wheel_spin;  // [rad/s] (ce, pgs: relative to the upright)
};

// What Batch::summary reduces (docs/design/batch-summary.md). Each metric is summarized over the
// vehicles that have a value: finite, and for diverged_time the diverged vehicles only; for every
// other metric the vehicles that did not diverge (a diverged vehicle's peaks stop at its last
// sane state), and for the event metrics whose "no event" value is -1 (first_liftoff_time,
// capsize_time, ...) only values >= 0. As `fleetdyn run`'s summary.json and a study's summary.
struct SummaryRequest {
  std::vector<std::string> metrics;       // metric names (fleetdyn/physics/core/metrics.h); empty: all
  std::vector<double> quantiles;          // levels in [0, 1]: Hyndman-Fan type 7, as numpy's default
  std::string worst_by = "max_abs_roll";  // the metric ranking the worst vehicles, largest first
  int worst_count = 0;                    // how many worst vehicles, 0 .. vehicle_count()
};

struct MetricSummary {
  int metric = 0;     // metric::MetricIndex
  std::string name;   // e.g. "max_abs_roll"
  int64_t count = 0;  // vehicles with a value
  double min = 0.0;   // NaN (and mean, max, quantiles) when count is 0
  double mean = 0.0;  // summed in at least double precision; the order differs between backends
  double max = 0.0;
  std::vector<double> quantiles;  // one per SummaryRequest::quantiles, in its order
};

struct BatchSummary {
  int vehicle_count = 0;
  int running = 0, diverged = 0, rolled_over = 0;  // vehicles per VehicleStatus
  std::vector<MetricSummary> metrics;              // in the request's order
  std::vector<double> quantile_levels;             // SummaryRequest::quantiles
  int worst_metric = 0;                            // metric::MetricIndex of worst_by
  // The worst_count vehicles with the largest worst_by values (fewer if fewer have a value),
  // largest first, equal values by vehicle index.
  std::vector<int> worst_vehicles;
  std::vector<double> worst_values;
};

class Batch {
 public:
  // A strut batch. params: length 1 (shared) or vehicle_count (each finalized; see
  // finalize_vehicle_params). Throws fleetdyn::Error on bad arguments, or when CUDA is
  // requested but unavailable.
  Batch(std::vector<StrutParams<double>> params, int vehicle_count, TerrainSpec terrain, BatchOptions options = {});
  // A ce batch, the same otherwise (params from hmmwv_ce_params() / make_ce_params()).
  Batch(std::vector<CeParams<double>> params, int vehicle_count, TerrainSpec terrain, BatchOptions options = {});
  // A pgs batch: the ce vehicle in maximal coordinates (fleetdyn/pgs_vehicle.h). Its step is
  // BatchOptions::step / substeps per pgs step (semi-implicit, not RK4); requery_contact must
  // stay true.
  Batch(std::vector<PgsVehicleDef> params, int vehicle_count, TerrainSpec terrain, BatchOptions options = {});
  ~Batch();
  Batch(Batch&&) noexcept;
  Batch& operator=(Batch&&) noexcept;

  int vehicle_count() const;
  VehicleModel model() const;
  int state_size() const;       // scalars per vehicle in state(): kStrutStateSize, kCeStateSize or kPgsVehicleStateSize
  BackendKind backend() const;  // Cpu or Cuda (never Auto)
  Precision precision() const;
  const std::string& device_name() const;  // e.g. "cpu (2 threads)" or the GPU's name
  const BatchOptions& options() const;
  const StrutParams<double>& params(int vehicle) const;  // strut only; throws for ce and pgs
  // Any model: the tire, driveline, brakes and gravity every model shares (VehicleCommon).
  const VehicleCommon<double>& common_params(int vehicle) const;
  const CeParams<double>& ce_params(int vehicle) const;           // ce; pgs: pgs_vehicle_rest_params; throws for strut
  const PgsVehicleParams<double>& pgs_params(int vehicle) const;  // pgs only
  const TerrainSpec& terrain() const;

  // Place every vehicle at rest on the terrain at its initial condition (length 1 or N), reset
  // time, status and metrics. Called once by the constructor with a default condition.
  void set_initial_conditions(const std::vector<InitialCondition>& initial);
  // Open-loop time tables; vehicle v follows tables[vehicle_table[v]] (table 0 when empty).
  void set_maneuvers(const std::vector<Maneuver>& tables, const std::vector<int>& vehicle_table = {});
  // Direct inputs (length 1 or N), held until changed; switches off the maneuver tables.
  void set_inputs(const std::vector<DriverInput<double>>& inputs);
  // Path following: vehicle v follows paths[vehicle_path[v]] (path 0 when empty) with settings
  // of length 1 or N. Its first step locates it on its path (the nearest point); progress and
  // deviation are measured at the body COM (metrics max_path_deviation, path_progress,
  // maneuver_end_time). Resets every vehicle's driver state, not its motion or metrics (a fresh
  // run: set_initial_conditions afterwards). Throws fleetdyn::Error naming the bad path, point,
  // vehicle or field.
  void set_path_driver(const std::vector<Path>& paths, const std::vector<int>& vehicle_path = {},
                       const std::vector<PathDriverSettings>& settings = {PathDriverSettings{}});
  // Steer programs, length 1 or N (times from the vehicle's time 0). Resets the driver state
  // as set_path_driver does; maneuver_end_time records when each program finished.
  void set_steer_program(const std::vector<SteerProgram>& programs);

  // Advance every running vehicle by n steps. On CUDA this only enqueues work.
  void step(int n);
  void synchronize();

  // Read-back (synchronizes).
  std::vector<VehicleSnapshot> snapshots();
  std::vector<double> state();    // raw state, [state_size()][N], positions local to each origin
  std::vector<double> origins();  // [2][N]
  std::vector<double> metrics();  // [kMetricCount][N]
  std::vector<int> status();
  // Status counts, per-metric min / mean / max / quantiles and the worst vehicles, reduced where the
  // backend keeps the batch (on CUDA on the device: nothing per vehicle is downloaded).
  // Synchronizes. Throws fleetdyn::Error naming a bad request field.
  BatchSummary summary(const SummaryRequest& request = {});
  // [kDriverStateSize][N] (physics/drivers/driver.h, driver::StateIndex: e.g. the signed lateral error,
  // the last commands, the fishhook's countersteer time); empty before a driver was set.
  std::vector<double> driver_state();
  double time(int vehicle);
  // Total mechanical energy [J] of one vehicle (kinetic, gravity, springs, tire vertical), in
  // fp64 from its current state; either model.
  double mechanical_energy(int vehicle);
  // strut only (throw for ce and pgs): energy ledger and force diagnostics of one vehicle, in fp64
  // (with a driver, at its last command); fleetdyn/vehicle.h defines their types.
  EnergyLedger<double> energy(int vehicle);
  StrutDiagnostics<double> diagnostics(int vehicle);
  // Overwrite one vehicle's raw state (same layout as state()), e.g. for tests and resets.
  void set_vehicle_state(int vehicle, const std::vector<double>& state);

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace fleetdyn
