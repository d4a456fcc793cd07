// Closed-loop and programmed drivers in the batch: strut and ce HMMWVs on the CPU, bad arguments,
// and CUDA against the CPU when a device exists.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "fleetdyn/ce.h"
#include "fleetdyn/driver.h"
#include "fleetdyn/error.h"
#include "fleetdyn/physics/ce/ce_batch.h"
#include "fleetdyn/physics/core/batch_view.h"
#include "fleetdyn/physics/core/math.h"
#include "fleetdyn/physics/drivers/driver.h"
#include "tests/cuda_test_util.h"
#include "tests/driver_test_util.h"
#include "tests/strut_test_util.h"

namespace fleetdyn {
namespace {

using namespace test;

// ---- in the batch: strut HMMWV on the CPU -----------------------------------------------------

Batch strut_batch(int vehicles = 1, BatchOptions options = test::cpu_options()) {
  return Batch({hmmwv_params()}, vehicles, TerrainSpec{}, options);
}

double metric(Batch& b, int m, int v = 0) { return b.metrics()[static_cast<size_t>(m) * b.vehicle_count() + v]; }
double driver_value(Batch& b, int j, int v = 0) {
  return b.driver_state()[static_cast<size_t>(j) * b.vehicle_count() + v];
}
double speed_of(const VehicleSnapshot& s) { return std::hypot(s.velocity[0], s.velocity[1]); }

// Steady state on a circle: run `settle` s, then `measure` s sampling the COM's lateral error
// and the speed every 50 ms.
struct CircleRun {
  double worst_lateral = 0.0, mean_lateral = 0.0, worst_speed_error = 0.0, steer = 0.0;
};

CircleRun run_circle(Batch& batch, double radius, double speed, double settle, double measure) {
  InitialCondition ic;
  ic.speed = speed;
  batch.set_initial_conditions({ic});
  batch.set_path_driver({circle_path(radius, speed)});
  const double dt = batch.options().step;
  batch.step(static_cast<int>(std::lround(settle / dt)));
  CircleRun r;
  const int samples = static_cast<int>(measure / 0.05);
  for (int k = 0; k < samples; ++k) {
    batch.step(static_cast<int>(std::lround(0.05 / dt)));
    const double lateral = driver_value(batch, driver::kLateralError);
    r.worst_lateral = std::max(r.worst_lateral, std::fabs(lateral));
    r.mean_lateral += lateral / samples;
    r.worst_speed_error = std::max(r.worst_speed_error, std::fabs(speed_of(batch.snapshots()[0]) - speed));
    r.steer = driver_value(batch, driver::kSteer);
  }
  EXPECT_EQ(batch.status()[0], kStatusRunning);
  return r;
}

// ISO 4138-style constant radius: 30 m at 8 m/s (0.22 g). Started on the path; after 10 s the
// body COM stays within 0.3 m of the path and the speed within 0.3 m/s of the target.
TEST(BatchDriver, StrutFollowsCircleWithPurePursuit) {
  Batch batch = strut_batch();
  const auto t0 = std::chrono::steady_clock::now();
  const CircleRun r = run_circle(batch, 30.0, 8.0, 10.0, 10.0);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(r.worst_lateral, 0.3);
  EXPECT_LT(r.worst_speed_error, 0.3);
  const double wheelbase = hmmwv_params().cg_to_front_axle + hmmwv_params().cg_to_rear_axle;
  std::printf(
      "strut, pure pursuit, R 30 m at 8 m/s: |lateral| <= %.4f m (mean %.4f), |speed error| <= %.4f m/s, "
      "road-wheel angle %.4f rad (kinematic atan(L/R) %.4f); %.2f s wall for 20 s\n",
      r.worst_lateral, r.mean_lateral, r.worst_speed_error, r.steer * hmmwv_params().max_steer,
      std::atan(wheelbase / 30.0), wall);
  EXPECT_NEAR(metric(batch, metric::path_progress), 8.0 * 20.0, 2.0);  // started at arclength 0
  EXPECT_EQ(metric(batch, metric::maneuver_end_time), -1.0);           // not yet once around (188 m)
  batch.step(5000);
  EXPECT_NEAR(metric(batch, metric::maneuver_end_time), 2.0 * kPi * 30.0 / 8.0, 0.3);
  RecordProperty("pure_pursuit_circle_worst_lateral_m", std::to_string(r.worst_lateral));
}

TEST(BatchDriver, StrutFollowsCircleWithStanley) {
  Batch batch = strut_batch();
  InitialCondition ic;
  ic.speed = 8.0;
  batch.set_initial_conditions({ic});
  PathDriverSettings settings;
  settings.tracker = PathTracker::Stanley;
  batch.set_path_driver({circle_path(30.0, 8.0)}, {}, {settings});
  const double dt = batch.options().step;
  batch.step(static_cast<int>(10.0 / dt));
  double worst = 0.0;
  for (int k = 0; k < 200; ++k) {
    batch.step(static_cast<int>(0.05 / dt));
    worst = std::max(worst, std::fabs(driver_value(batch, driver::kLateralError)));
  }
  EXPECT_LT(worst, 0.3);
  std::printf("strut, Stanley, R 30 m at 8 m/s: |lateral| <= %.4f m\n", worst);
}

// Double lane changes driven to their end (progress = the path's length, maneuver_end_time
// set) with the COM within 1 m of the lane centres: ISO 3888-1 at 15 m/s (54 km/h) with both
// trackers, and ISO 3888-2 (HMMWV width 2.16 m) at 12 m/s. (ISO 3888-2 at 15 m/s asks the
// HMMWV for more lateral acceleration than its tires give: it completes, 2-4 m off the centres.)
void expect_lane_change_completed(const Path& path, double speed, PathTracker tracker, const char* name) {
  Batch batch = strut_batch();
  InitialCondition ic;
  ic.speed = speed;
  batch.set_initial_conditions({ic});
  PathDriverSettings settings;
  settings.tracker = tracker;
  batch.set_path_driver({path}, {}, {settings});
  batch.step(static_cast<int>((path_length(path) / speed + 1.5) / batch.options().step));
  EXPECT_EQ(batch.status()[0], kStatusRunning);
  EXPECT_EQ(metric(batch, metric::path_progress), path_length(path));
  const double end = metric(batch, metric::maneuver_end_time);
  EXPECT_GT(end, path_length(path) / speed - 0.5);
  EXPECT_LT(end, path_length(path) / speed + 0.5);
  const double deviation = metric(batch, metric::max_path_deviation);
  EXPECT_LT(deviation, 1.0);
  EXPECT_EQ(metric(batch, metric::longest_two_wheel_liftoff), 0.0);
  std::printf(
      "strut, %s at %.0f m/s, %s: max deviation %.3f m, end at %.3f s, max |a_y| %.2f m/s^2, max roll "
      "%.2f deg\n",
      name, speed, tracker == PathTracker::Stanley ? "Stanley" : "pure pursuit", deviation, end,
      metric(batch, metric::max_abs_lat_accel), metric(batch, metric::max_abs_roll) / kDeg);
}

TEST(BatchDriver, StrutCompletesDoubleLaneChanges) {
  expect_lane_change_completed(iso3888_1_path(15.0), 15.0, PathTracker::PurePursuit, "ISO 3888-1");
  expect_lane_change_completed(iso3888_1_path(15.0), 15.0, PathTracker::Stanley, "ISO 3888-1");
  expect_lane_change_completed(iso3888_2_path(2.16, 12.0), 12.0, PathTracker::PurePursuit, "ISO 3888-2");
}

// The NHTSA fishhook on the strut HMMWV at 45 mph: stepping one step at a time and reading the
// roll rate the driver reads, the countersteer begins at the first step after the first ramp
// where |roll rate| <= 1.5 deg/s.
TEST(BatchDriver, FishhookCountersteerFollowsRollRate) {
  Batch batch = strut_batch();
  InitialCondition ic;
  ic.speed = 45.0 * 0.44704;
  batch.set_initial_conditions({ic});
  const double rate = 4.0 * kPi * steer_per_handwheel(17.0, hmmwv_params().max_steer);  // 720 deg/s handwheel
  const SteerProgram program = nhtsa_fishhook(0.45, rate, 0.5);
  batch.set_steer_program({program});
  const double dt = batch.options().step;
  double expected = -1.0, peak_rate = 0.0;
  for (int k = 0; k < 7000; ++k) {
    const double t = k * dt, p = batch.snapshots()[0].omega_body[0];
    peak_rate = std::max(peak_rate, std::fabs(p));
    if (expected < 0.0 && t - program.start_time >= program.amplitude / program.rate &&
        std::fabs(p) <= program.roll_rate_threshold) {
      expected = t;
    }
    batch.step(1);
  }
  const double event = driver_value(batch, driver::kEventTime);
  ASSERT_GT(expected, 0.0);
  EXPECT_NEAR(event, expected, 1.01 * dt);
  EXPECT_GT(event, program.start_time + program.amplitude / program.rate + 0.05);  // a real dwell
  EXPECT_GT(peak_rate, 3.0 * program.roll_rate_threshold);
  EXPECT_NEAR(metric(batch, metric::maneuver_end_time), event + 3.0 * program.amplitude / program.rate + 3.0, 1.01 * dt);
  EXPECT_EQ(driver_value(batch, driver::kSteer), 0.0);
  std::printf(
      "fishhook at 45 mph: countersteer at %.3f s (roll rate first <= 1.5 deg/s after the ramp: %.3f s), "
      "peak roll rate %.1f deg/s, max roll %.2f deg\n",
      event, expected, peak_rate / kDeg, metric(batch, metric::max_abs_roll) / kDeg);
}

// Straight-line braking is a table with a brake step: from 20 m/s the HMMWV stops, no shorter
// than friction allows (v^2 / (2 mu g)) and within twice that.
TEST(BatchDriver, StraightLineBrakingWithABrakeStep) {
  Batch batch = strut_batch();
  InitialCondition ic;
  ic.speed = 20.0;
  batch.set_initial_conditions({ic});
  batch.set_maneuvers({{{0.0, 0.0, 0.0, 0.0}, {1.0, 0.0, 0.0, 0.0}, {1.02, 0.0, 0.0, 1.0}}});
  batch.step(1000);
  const double x_brake = batch.snapshots()[0].position[0], v_brake = speed_of(batch.snapshots()[0]);
  batch.step(6000);
  const VehicleSnapshot end = batch.snapshots()[0];
  const double distance = end.position[0] - x_brake;
  const StrutParams<double> p = hmmwv_params();
  const double ideal = v_brake * v_brake / (2.0 * (p.tire.mu + p.tire.rolling_resistance) * p.gravity);
  EXPECT_LT(speed_of(end), 0.05);
  EXPECT_GT(distance, ideal);
  EXPECT_LT(distance, 2.0 * ideal);
  EXPECT_NEAR(end.position[1], 0.0, 0.05);  // straight
  std::printf("braking from %.2f m/s: %.2f m (friction limit %.2f m)\n", v_brake, distance, ideal);
}

// Vehicles that differ (mass, CG height, friction), each with its own path and settings.
std::vector<StrutParams<double>> varied_params(int count) {
  std::vector<StrutParams<double>> params;
  for (int v = 0; v < count; ++v) {
    StrutParams<double> p = hmmwv_params();
    const double u = static_cast<double>(v) / (count - 1);
    p.total_mass *= 0.9 + 0.2 * u;
    p.cg_height *= 0.85 + 0.3 * std::fmod(7.0 * u, 1.0);
    p.tire.mu *= 0.8 + 0.3 * std::fmod(3.0 * u, 1.0);
    finalize_vehicle_params(p);
    params.push_back(p);
  }
  return params;
}

// Vehicle k of the batch gets the drivers of vehicle ids[k] of the varied set (all of them when
// ids is empty); the settings repeat every 13 vehicles.
void set_varied_drivers(Batch& batch, bool program, std::vector<int> ids = {}) {
  const int n = batch.vehicle_count();
  if (ids.empty()) {
    for (int v = 0; v < n; ++v) ids.push_back(v);
  }
  std::vector<InitialCondition> initial(n);
  for (int k = 0; k < n; ++k) initial[k].speed = 12.0 + 0.5 * (ids[k] % 13);
  batch.set_initial_conditions(initial);
  if (program) {
    std::vector<SteerProgram> programs;
    for (int k = 0; k < n; ++k) {
      const int v = ids[k] % 13;
      programs.push_back(v % 3 == 0   ? nhtsa_fishhook(0.2 + 0.02 * v, 1.5, 0.3)
                         : v % 3 == 1 ? sine_with_dwell(0.2 + 0.01 * v, 0.3)
                                      : step_steer(0.1 + 0.02 * v, 1.0, 0.3, 0.2));
    }
    batch.set_steer_program(programs);
  } else {
    std::vector<Path> paths = {circle_path(25.0, 10.0), iso3888_1_path(13.0), iso3888_2_path(2.16, 12.0)};
    std::vector<int> which(n);
    std::vector<PathDriverSettings> settings(n);
    for (int k = 0; k < n; ++k) {
      const int v = ids[k] % 13;
      which[k] = v % 3;
      settings[k].tracker = v % 2 ? PathTracker::Stanley : PathTracker::PurePursuit;
      settings[k].lookahead_base = 3.0 + 0.2 * v;
      settings[k].max_steer_rate = v % 4 == 0 ? 2.0 : 0.0;
    }
    batch.set_path_driver(paths, which, settings);
  }
}

struct RunResult {
  std::vector<double> state, metrics, driver;
};

RunResult run_varied(int vehicles, bool program, bool simd, int threads, Precision precision = Precision::Fp64) {
  BatchOptions options = test::cpu_options(precision);
  options.cpu_simd = simd;
  options.cpu_threads = threads;
  std::vector<StrutParams<double>> params = varied_params(13);
  params.resize(static_cast<size_t>(vehicles));
  Batch batch(params, vehicles, TerrainSpec{}, options);
  set_varied_drivers(batch, program);
  batch.step(6000);
  return {batch.state(), batch.metrics(), batch.driver_state()};
}

// One vehicle's column of a [fields][n] array.
std::vector<double> column(const std::vector<double>& soa, int n, int v) {
  std::vector<double> c;
  for (size_t j = 0; j < soa.size() / n; ++j) c.push_back(soa[j * n + v]);
  return c;
}

// A vehicle's result depends only on itself: bitwise the same in a batch of 13 (SIMD lanes, the
// last group padded) as in the first 5 (a different padding), and with 1 or 2 threads; and the
// lanes agree with the scalar path (the GPU's code) to round-off: the drivers run the same
// scalar code in both, on states that differ only by multiply-add contraction.
TEST(BatchDriver, SimdLanesAndBatchSizeAndThreads) {
  for (bool program : {false, true}) {
    const RunResult lanes = run_varied(13, program, true, 1);
    const RunResult lanes_threads = run_varied(13, program, true, 2);
    const RunResult lanes_small = run_varied(5, program, true, 1);
    const RunResult scalar = run_varied(13, program, false, 1);
    const RunResult scalar_small = run_varied(5, program, false, 2);
    EXPECT_EQ(lanes.state, lanes_threads.state);
    EXPECT_EQ(lanes.metrics, lanes_threads.metrics);
    EXPECT_EQ(lanes.driver, lanes_threads.driver);
    double worst = 0.0, worst_metric = 0.0;
    bool bitwise = true;
    for (int v = 0; v < 13; ++v) {
      if (v < 5) {
        EXPECT_EQ(column(lanes.state, 13, v), column(lanes_small.state, 5, v)) << "vehicle " << v;
        EXPECT_EQ(column(lanes.driver, 13, v), column(lanes_small.driver, 5, v)) << "vehicle " << v;
        EXPECT_EQ(column(scalar.state, 13, v), column(scalar_small.state, 5, v)) << "vehicle " << v;
      }
      const std::vector<double> a = column(lanes.state, 13, v), b = column(scalar.state, 13, v);
      for (int j = 0; j < 3; ++j) worst = std::max(worst, std::fabs(a[j] - b[j]));
      const std::vector<double> ma = column(lanes.metrics, 13, v), mb = column(scalar.metrics, 13, v);
      for (size_t j = 0; j < ma.size(); ++j) worst_metric = std::max(worst_metric, std::fabs(ma[j] - mb[j]));
      bitwise = bitwise && a == b && ma == mb;
    }
    EXPECT_LT(worst, 1e-6);
    EXPECT_LT(worst_metric, 1e-6);
    std::printf("%s, 13 vehicles x 6 s: lanes vs scalar worst position difference %.3e m, metric %.3e (%s)\n",
                program ? "steer programs" : "path drivers", worst, worst_metric, bitwise ? "bitwise equal" : "round-off");
  }
}

// Resetting with set_initial_conditions replays a driven run bit for bit (driver state reset:
// the hint searches afresh, the integrator and the countersteer time start over).
TEST(BatchDriver, ResetReplaysBitwise) {
  for (bool program : {false, true}) {
    Batch batch(varied_params(13), 13, TerrainSpec{}, test::cpu_options());
    set_varied_drivers(batch, program);
    batch.step(3000);
    const std::vector<double> first = batch.state(), first_metrics = batch.metrics();
    const std::vector<double> first_driver = batch.driver_state();
    set_varied_drivers(batch, program);
    batch.step(3000);
    EXPECT_EQ(batch.state(), first);
    EXPECT_EQ(batch.metrics(), first_metrics);
    EXPECT_EQ(batch.driver_state(), first_driver);
  }
}

// Open loop does no driver work: no driver state exists, the driver metrics keep their -1,
// and going back to tables after a driver gives the open-loop result exactly.
TEST(BatchDriver, OpenLoopModesAreUntouched) {
  const Maneuver table = {{0.0, 0.0, 0.3, 0.0}, {1.0, 0.3, 0.3, 0.0}, {3.0, 0.3, 0.0, 0.0}};
  Batch plain = strut_batch(3);
  InitialCondition ic;
  ic.speed = 12.0;
  plain.set_initial_conditions({ic});
  plain.set_maneuvers({table});
  plain.step(3000);
  EXPECT_TRUE(plain.driver_state().empty());
  for (int m : {metric::max_path_deviation, metric::path_progress, metric::maneuver_end_time}) {
    EXPECT_EQ(metric(plain, m), -1.0);
  }
  Batch switched = strut_batch(3);
  switched.set_path_driver({circle_path(20.0, 5.0)});
  switched.step(500);
  switched.set_initial_conditions({ic});
  switched.set_maneuvers({table});
  switched.step(3000);
  EXPECT_EQ(switched.state(), plain.state());
  EXPECT_EQ(switched.metrics(), plain.metrics());
  switched.set_inputs({{0.1, 0.2, 0.0}});
  plain.set_inputs({{0.1, 0.2, 0.0}});
  switched.step(100);
  plain.step(100);
  EXPECT_EQ(switched.state(), plain.state());
}

// fp32 follows the same circle (the path and the positions relative to per-vehicle origins
// keep fp32 differences small) within 1 cm of fp64's lateral error.
TEST(BatchDriver, Fp32TracksFp64OnTheCircle) {
  Batch fp64 = strut_batch(1, test::cpu_options(Precision::Fp64));
  Batch fp32 = strut_batch(1, test::cpu_options(Precision::Fp32));
  const CircleRun a = run_circle(fp64, 30.0, 8.0, 10.0, 2.0), b = run_circle(fp32, 30.0, 8.0, 10.0, 2.0);
  EXPECT_NEAR(a.mean_lateral, b.mean_lateral, 0.01);
  EXPECT_LT(b.worst_lateral, 0.3);
}

// ---- the ce model -----------------------------------------------------------------------------

// The ce HMMWV (Pitman steering: the normalized steer turns the Pitman arm) follows the same
// circle: its steering geometry is the linkage's slope at centre.
TEST(BatchDriver, CeFollowsCircle) {
  BatchOptions options = test::cpu_options();
  options.step = 2.0e-3;
  const CeParams<double> p = hmmwv_ce_params();
  const DriverGeometry<double> g = CeModel::driver_geometry(p);
  const double full = 0.5 * (28.1 + 24.8) * kDeg;  // docs/models/ce.md: road wheels at full input
  EXPECT_GT(g.steer_gain, 0.8 * full);
  EXPECT_LT(g.steer_gain, 1.2 * full);
  EXPECT_NEAR(g.front_axle_x - g.rear_axle_x, 3.302, 0.05);  // the strut HMMWV's wheelbase
  Batch batch({p}, 1, TerrainSpec{}, options);
  const CircleRun r = run_circle(batch, 30.0, 8.0, 10.0, 10.0);
  EXPECT_LT(r.worst_lateral, 0.3);
  EXPECT_LT(r.worst_speed_error, 0.3);
  std::printf(
      "ce, pure pursuit, R 30 m at 8 m/s: |lateral| <= %.4f m (mean %.4f), |speed error| <= %.4f m/s; "
      "steer gain %.4f rad per unit input, wheelbase %.4f m\n",
      r.worst_lateral, r.mean_lateral, r.worst_speed_error, g.steer_gain, g.front_axle_x - g.rear_axle_x);
}

// ---- bad arguments ----------------------------------------------------------------------------

using test::error_of;

TEST(BatchDriver, BadArgumentsNameTheField) {
  Batch batch = strut_batch(4);
  const Path good = polyline({{0, 0}, {10, 0}});
  EXPECT_EQ(error_of([&] { batch.set_path_driver({}); }), "path driver: at least one path is required");
  EXPECT_EQ(error_of([&] {
              batch.set_path_driver({polyline({{0, 0}})});
            }),
            "path 0: an open path needs at least 2 points, got 1");
  EXPECT_EQ(error_of([&] {
              batch.set_path_driver({good, polyline({{0, 0}, {1, 0}}, true)});
            }),
            "path 1: a closed path needs at least 3 points, got 2");
  EXPECT_EQ(error_of([&] {
              batch.set_path_driver({polyline({{0, 0}, {5, 0}, {5, 0}})});
            }),
            "path 0 point 2: within 1 mm of point 1 (consecutive points must differ)");
  EXPECT_EQ(error_of([&] {
              batch.set_path_driver({polyline({{0, 0}, {5, 0}, {5, 5}, {0, 0}}, true)});
            }),
            "path 0 point 3: a closed path's last point must not repeat its first (the closing segment is implied)");
  Path bad_speed = good;
  bad_speed.points[1].speed = -1.0;
  EXPECT_EQ(error_of([&] { batch.set_path_driver({bad_speed}); }), "path 0 point 1: speed must be >= 0 m/s, got -1");
  Path nan_point = good;
  nan_point.points[0].y = NAN;
  EXPECT_EQ(error_of([&] { batch.set_path_driver({nan_point}); }), "path 0 point 0: x, y and speed must be finite");
  EXPECT_EQ(error_of([&] {
              batch.set_path_driver({good}, {0, 0});
            }),
            "path driver: vehicle_path must have one entry per vehicle (4), got 2");
  EXPECT_EQ(error_of([&] {
              batch.set_path_driver({good}, {0, 0, 1, 0});
            }),
            "path driver: vehicle 2 follows path 1, but there is 1 path");
  PathDriverSettings s;
  s.lookahead_base = 0.0;
  EXPECT_EQ(error_of([&] { batch.set_path_driver({good}, {}, {s}); }),
            "path driver settings (all vehicles): lookahead_base must be > 0 m, got 0");
  std::vector<PathDriverSettings> four(4);
  four[3].speed_ki = -0.1;
  EXPECT_EQ(error_of([&] { batch.set_path_driver({good}, {}, four); }),
            "path driver settings (vehicle 3): speed_ki must be >= 0 1/m, got -0.1");
  EXPECT_EQ(error_of([&] {
              batch.set_path_driver({good}, {}, {s, s});
            }),
            "path driver settings: expected 1 or 4 entries, got 2");
  std::vector<SteerProgram> programs(4, nhtsa_fishhook(0.3, 1.5));
  programs[1].amplitude = 1.5;
  EXPECT_EQ(error_of([&] { batch.set_steer_program(programs); }),
            "steer program (vehicle 1): amplitude must be >= -1 and <= 1, got 1.5");
  SteerProgram slow = sine_with_dwell(0.3);
  slow.frequency = 0.0;
  EXPECT_EQ(error_of([&] { batch.set_steer_program({slow}); }),
            "steer program (all vehicles): frequency must be > 0 Hz, got 0");
  SteerProgram ramp = j_turn(0.3, 0.0);
  EXPECT_EQ(error_of([&] { batch.set_steer_program({ramp}); }),
            "steer program (all vehicles): rate must be > 0 1/s, got 0");
  EXPECT_TRUE(batch.driver_state().empty());  // nothing was set
}

// ---- CUDA against the CPU ---------------------------------------------------------------------

// Path drivers and steer programs on CUDA against the CPU over 6 s, at 13 vehicles (a partial
// warp) and 1001 (a last warp of one vehicle): fp64 positions within 1e-6 m and metrics within
// 1e-6 relative; fp32 within the batch contract's bounds (1 cm, metrics 5e-2 relative). The CPU
// reference runs the probe vehicles alone (test::cuda_probe_vehicles).
class BatchDriverCuda : public ::testing::TestWithParam<test::CudaCase> {};

TEST_P(BatchDriverCuda, CudaMatchesCpu) {
  std::string why;
  if (!cuda_available(&why)) GTEST_SKIP() << why;
  const int n = GetParam().vehicles;
  const Precision precision = GetParam().precision;
  const std::vector<int> ids = test::cuda_probe_vehicles(n, 4);  // 13 vehicles: all of them
  const int probes = static_cast<int>(ids.size());
  const std::vector<StrutParams<double>> params = varied_params(n);
  const double position_tolerance = precision == Precision::Fp64 ? 1e-6 : 0.01;
  const double metric_tolerance = precision == Precision::Fp64 ? 1e-6 : 5e-2;
  for (bool program : {false, true}) {
    BatchOptions options = test::cpu_options(precision);
    Batch cpu(test::pick(params, ids), probes, TerrainSpec{}, options);
    options.backend = BackendKind::Cuda;
    Batch gpu(params, n, TerrainSpec{}, options);
    set_varied_drivers(cpu, program, ids);
    set_varied_drivers(gpu, program);
    cpu.step(6000);
    gpu.step(6000);
    const std::vector<double> sc = cpu.state(), sg = gpu.state(), mc = cpu.metrics(), mg = gpu.metrics();
    double worst = 0.0;
    for (int k = 0; k < probes; ++k) {
      const int v = ids[static_cast<size_t>(k)];
      for (int j = 0; j < 3; ++j) {
        worst = std::max(worst, std::fabs(sc[static_cast<size_t>(j) * probes + k] - sg[static_cast<size_t>(j) * n + v]));
      }
      for (int m = 0; m < kMetricCount; ++m) {
        const double a = mc[static_cast<size_t>(m) * probes + k], b = mg[static_cast<size_t>(m) * n + v];
        EXPECT_NEAR(a, b, metric_tolerance * std::max(1.0, std::fabs(a))) << "vehicle " << v << ", metric " << m;
      }
    }
    EXPECT_LT(worst, position_tolerance);
    std::printf("CUDA vs CPU, %s, %d vehicles, %s: worst position difference %.3e m\n", program ? "programs" : "paths",
                n, precision_name(precision), worst);
  }
}

INSTANTIATE_TEST_SUITE_P(Sizes, BatchDriverCuda,
                         ::testing::Values(test::CudaCase{13, Precision::Fp64}, test::CudaCase{13, Precision::Fp32},
                                           test::CudaCase{1001, Precision::Fp64}, test::CudaCase{1001, Precision::Fp32}),
                         test::cuda_case_name);

}  // namespace
}  // namespace fleetdyn
