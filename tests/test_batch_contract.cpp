// The batch contract every model keeps, written once over strut, ce and pgs: a vehicle's result
// does not depend on the batch around it nor on the thread count (bitwise); a vehicle whose state
// blows up is flagged, frozen and reported while the others go on exactly as without it (SIMD
// lanes, scalar path, CUDA); fp32 tracks fp64 to a centimetre, near and far from the world
// origin; CUDA matches the CPU. Each model's traits below give how to build its batch, its
// maneuver, its tolerances and its diverging-vehicle recipe.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "fleetdyn/batch.h"
#include "fleetdyn/ce.h"
#include "fleetdyn/pgs_vehicle.h"
#include "fleetdyn/physics/core/math.h"
#include "fleetdyn/vehicle.h"
#include "tests/ce_test_util.h"
#include "tests/cuda_test_util.h"
#include "tests/strut_test_util.h"

namespace fleetdyn {
namespace {

double distance(const std::array<double, 3>& a, const std::array<double, 3>& b) {
  return std::sqrt(sq(a[0] - b[0]) + sq(a[1] - b[1]) + sq(a[2] - b[2]));
}

// A diverging vehicle's batch (vehicles good, unstable, good) and a clean one (three good), both
// set up; `steps` make vehicle 1 diverge, `more` steps then show it frozen. Its state is frozen
// at its last finite state, when it had one (`starts_finite`).
struct DivergingSetup {
  Batch mixed, clean;
  int steps, more;
  bool starts_finite;
};

// One unstable vehicle between two good ones (and the good one alone), all from rest at 10 m/s
// on `maneuver`.
template <class Params>
DivergingSetup unstable_between_good(const Params& good, const Params& unstable, const BatchOptions& options,
                                     const Maneuver& maneuver, int steps, int more) {
  DivergingSetup d{Batch({good, unstable, good}, 3, TerrainSpec{}, options), Batch({good}, 3, TerrainSpec{}, options),
                   steps, more, true};
  for (Batch* b : {&d.mixed, &d.clean}) {
    b->set_initial_conditions({{0.0, 0.0, 0.0, 10.0}});
    b->set_maneuvers({maneuver});
  }
  return d;
}

// ---- strut ----------------------------------------------------------------------------------------

struct Strut {
  using Params = StrutParams<double>;

  static BatchOptions options(Precision precision = Precision::Fp64) { return test::cpu_options(precision); }
  static Params standard() { return hmmwv_params(); }
  static TireParams<double> tire() { return standard().tire; }

  // 10 s with everything in it: accelerate, a step steer, a reversal, braking.
  static Maneuver maneuver() { return test::strut_test_maneuver(); }

  static std::vector<Params> varied(int count) { return test::varied_strut_params(count); }

  // Independence: 1001 vehicles sharing one parameter set, different speeds (so their work
  // differs); vehicle 537 against itself alone, 500 steps.
  static constexpr int kCrowd = 1001, kProbe = 537, kCrowdSteps = 500;
  static std::vector<Params> crowd() { return {hmmwv_params()}; }
  static double crowd_speed(int v) { return 5.0 + 0.02 * v; }

  // Section 4 of the design: a bushing of 1e9 N/m makes the stiffest mode ~3300 1/s, beyond
  // RK4's stability limit at a 1 ms step (|lambda| dt = 3.3 > 2.785).
  static DivergingSetup diverging(const BatchOptions& options) {
    Params unstable = hmmwv_params();
    unstable.link_stiffness = 1.0e9;
    finalize_vehicle_params(unstable);
    EXPECT_LT(strut_step_analysis(unstable).rk4_stable_step, 1e-3);
    return unstable_between_good(hmmwv_params(), unstable, options, maneuver(), 3000, 100);
  }

  // fp32 against fp64 over the 10 s maneuver (~150 m travelled), at the world origin and 20 km
  // out (fp32 world coordinates would lose millimetres there): what keeps fp32 this close is
  // positions relative to a per-vehicle origin, the unsprung positions relative to the chassis.
  static std::vector<InitialCondition> far_and_near() {
    return {{0.0, 0.0, 0.0, 15.0}, {20000.0, -15000.0, 0.0, 15.0}};
  }
  static constexpr int kPrecisionSteps = 10000;
  static constexpr double kMinTravel = 50.0, kFp32Tolerance = 0.01;

  // CUDA against the CPU: 64 different vehicles and initial speeds over the 10 s maneuver.
  static constexpr int kCudaVehicles = 64, kCudaSteps = 10000;
  // Awkward sizes: 13 probe vehicles (CPU ~2.5 us a vehicle-step on a core).
  static constexpr int kCudaProbeEach = 4;
  static double cuda_speed(int v, int n) { return 10.0 + 10.0 * v / std::max(1, n - 1); }
};

// ---- ce -------------------------------------------------------------------------------------------

struct Ce {
  using Params = CeParams<double>;
  static constexpr double kStep = test::kCeStep;

  static BatchOptions options(Precision precision = Precision::Fp64) { return test::ce_options(precision); }
  static Params standard() { return hmmwv_ce_params(); }
  static TireParams<double> tire() { return standard().tire; }
  static Maneuver maneuver() { return test::ce_maneuver(); }
  static std::vector<Params> varied(int count) { return test::varied_ce_params(count); }

  static constexpr int kCrowd = 9, kProbe = 5, kCrowdSteps = 400;
  static std::vector<Params> crowd() { return varied(kCrowd); }
  static double crowd_speed(int v) { return 8.0 + v; }

  // Front shocks of 1e8 N s/m make a suspension mode (|lambda| ~ c MR^2 / m, ~1e5 1/s) far
  // beyond RK4's stability limit at 2 ms. (A stiff tire alone no longer does: its wheel hop
  // chatters off the ground, bounded by the travel limits.)
  static DivergingSetup diverging(const BatchOptions& options) {
    Params unstable = hmmwv_ce_params();
    CeAxleForces<double>& front = unstable.axle[0];
    front.shock_mid_compression = front.shock_mid_rebound = front.shock_out_compression = front.shock_out_rebound = 1.0e8;
    EXPECT_LT(ce_step_analysis(unstable).rk4_stable_step, kStep);
    return unstable_between_good(hmmwv_ce_params(), unstable, options, maneuver(), 1500, 50);
  }

  // fp32 follows fp64 over 6 s and ~100 m (origins rebased on the way), also 20 km out.
  static std::vector<InitialCondition> far_and_near() {
    return {{0.0, 0.0, 0.0, 15.0}, {20000.0, -10000.0, 0.0, 15.0}};
  }
  static constexpr int kPrecisionSteps = 3000;
  static constexpr double kMinTravel = 60.0, kFp32Tolerance = 0.01;

  static constexpr int kCudaVehicles = 32, kCudaSteps = 3000;
  // Awkward sizes: 7 probe vehicles (CPU ~40 us a vehicle-step on a core).
  static constexpr int kCudaProbeEach = 2;
  static double cuda_speed(int v, int n) { return 15.0 + 5.0 * v / std::max(1, n - 1); }
};

// ---- pgs ------------------------------------------------------------------------------------------

struct Pgs {
  using Params = PgsVehicleDef;

  static BatchOptions options(Precision precision = Precision::Fp64) { return test::cpu_options(precision); }
  static Params standard() { return PgsVehicleDef{}; }
  static TireParams<double> tire() { return standard().vehicle.tire; }

  // A step steer at 0.15 throttle: 1 s straight, then 0.1 to the left.
  static Maneuver maneuver() { return {{0.0, 0.0, 0.15, 0.0}, {1.0, 0.0, 0.15, 0.0}, {1.2, 0.1, 0.15, 0.0}}; }

  // Vehicles that differ in tire friction (eight values, repeating).
  static std::vector<Params> varied(int count) {
    std::vector<Params> defs(static_cast<size_t>(count));
    for (int k = 0; k < count; ++k) defs[static_cast<size_t>(k)].vehicle.tire.mu *= 0.8 + 0.05 * (k % 8);
    return defs;
  }

  // Six vehicles: a full group of fp64 SIMD lanes and a partial one.
  static constexpr int kCrowd = 6, kProbe = 5, kCrowdSteps = 500;
  static std::vector<Params> crowd() { return varied(kCrowd); }
  static double crowd_speed(int v) { return 12.0 + 0.5 * v; }

  // Vehicle 1 starts from a state with a NaN wheel velocity (so it has no finite state to keep).
  static DivergingSetup diverging(const BatchOptions& options) {
    DivergingSetup d{Batch({PgsVehicleDef{}}, 3, TerrainSpec{}, options),
                     Batch({PgsVehicleDef{}}, 3, TerrainSpec{}, options), 100, 100, false};
    std::vector<double> poisoned(static_cast<size_t>(d.mixed.state_size()));
    const std::vector<double> all = d.mixed.state();
    for (int j = 0; j < d.mixed.state_size(); ++j)
      poisoned[static_cast<size_t>(j)] = all[static_cast<size_t>(j) * 3 + 1];
    poisoned[pgs::body_field(pgsv::corner_body(0, pgsv::kWheelBody), pgs::kVz)] = std::nan("");
    d.mixed.set_vehicle_state(1, poisoned);
    return d;
  }

  // fp32 against fp64 over a 4 s step steer, at the origin and 20 km out: within 2 cm (measured
  // 0.2 mm and 1 mm: the joint errors are micrometres, and fp32 resolves the chassis-relative
  // positions).
  static std::vector<InitialCondition> far_and_near() {
    return {{0.0, 0.0, 0.0, 15.0}, {20000.0, -15000.0, 0.0, 15.0}};
  }
  static constexpr int kPrecisionSteps = 4000;
  static constexpr double kMinTravel = 14.0, kFp32Tolerance = 0.02;

  static constexpr int kCudaVehicles = 8, kCudaSteps = 2000;
  // Awkward sizes: 7 probe vehicles (CPU ~70 us a vehicle-step on a core).
  static constexpr int kCudaProbeEach = 2;
  static double cuda_speed(int, int) { return 12.0; }
};

// ---- the contract ---------------------------------------------------------------------------------

template <class Model>
class BatchContract : public ::testing::Test {};
struct ModelNames {
  template <class Model>
  static std::string GetName(int) {
    if (std::is_same_v<Model, Strut>) return "Strut";
    if (std::is_same_v<Model, Ce>) return "Ce";
    return "Pgs";
  }
};
using Models = ::testing::Types<Strut, Ce, Pgs>;
TYPED_TEST_SUITE(BatchContract, Models, ModelNames);

// A vehicle's result is bit-identical whether it runs alone or among the others (different
// speeds, so their work differs), on the CPU with all threads, and with 1 thread.
TYPED_TEST(BatchContract, VehicleResultIndependentOfBatchAndThreads) {
  using M = TypeParam;
  const int n = M::kCrowd, probe = M::kProbe;
  const std::vector<typename M::Params> params = M::crowd();
  BatchOptions options = M::options();
  Batch alone({params[params.size() == 1 ? 0 : static_cast<size_t>(probe)]}, 1, TerrainSpec{}, options);
  Batch crowd(params, n, TerrainSpec{}, options);
  options.cpu_threads = 1;
  Batch serial(params, n, TerrainSpec{}, options);
  std::vector<InitialCondition> ics(n);
  for (int v = 0; v < n; ++v) ics[v].speed = M::crowd_speed(v);
  alone.set_initial_conditions({ics[probe]});
  crowd.set_initial_conditions(ics);
  serial.set_initial_conditions(ics);
  for (Batch* b : {&alone, &crowd, &serial}) {
    b->set_maneuvers({M::maneuver()});
    b->step(M::kCrowdSteps);
  }
  const std::vector<double> a = test::vehicle_state(alone, 0);
  const std::vector<double> c = test::vehicle_state(crowd, probe);
  const std::vector<double> s = test::vehicle_state(serial, probe);
  EXPECT_EQ(std::memcmp(a.data(), c.data(), a.size() * sizeof(double)), 0);
  EXPECT_EQ(std::memcmp(a.data(), s.data(), a.size() * sizeof(double)), 0);
  const std::vector<double> ma = alone.metrics(), mc = crowd.metrics();
  for (int m = 0; m < kMetricCount; ++m) EXPECT_EQ(ma[m], mc[static_cast<size_t>(m) * n + probe]) << "metric " << m;
}

// A vehicle whose state blows up is flagged and reported; the others go on exactly as without it.
template <class M>
void expect_diverging_vehicle_isolated(const BatchOptions& options) {
  DivergingSetup d = M::diverging(options);
  d.mixed.step(d.steps);
  d.clean.step(d.steps);
  const std::vector<int> status = d.mixed.status();
  EXPECT_EQ(status[0], kStatusRunning);
  EXPECT_EQ(status[1], kStatusDiverged);
  EXPECT_EQ(status[2], kStatusRunning);
  EXPECT_GE(d.mixed.metrics()[static_cast<size_t>(metric::diverged_time) * 3 + 1], 0.0);
  const std::vector<VehicleSnapshot> snaps = d.mixed.snapshots(), clean_snaps = d.clean.snapshots();
  EXPECT_EQ(snaps[0].position, clean_snaps[0].position);
  EXPECT_EQ(snaps[2].position, clean_snaps[2].position);
  // Frozen: finite, and stepping further changes nothing.
  const std::vector<double> frozen = test::vehicle_state(d.mixed, 1);
  if (d.starts_finite) {
    for (double x : frozen) EXPECT_TRUE(std::isfinite(x));
  }
  d.mixed.step(d.more);
  const std::vector<double> later = test::vehicle_state(d.mixed, 1);
  EXPECT_EQ(std::memcmp(later.data(), frozen.data(), frozen.size() * sizeof(double)), 0);
  d.clean.step(d.more);
  for (int v : {0, 2}) EXPECT_EQ(test::vehicle_state(d.mixed, v), test::vehicle_state(d.clean, v)) << "vehicle " << v;
}

TYPED_TEST(BatchContract, DivergingVehicleIsIsolated) {
  expect_diverging_vehicle_isolated<TypeParam>(TypeParam::options());
}

TYPED_TEST(BatchContract, DivergingVehicleIsIsolatedOnScalarPath) {
  BatchOptions options = TypeParam::options();
  options.cpu_simd = false;
  expect_diverging_vehicle_isolated<TypeParam>(options);
}

TYPED_TEST(BatchContract, DivergingVehicleIsIsolatedOnCuda) {
  std::string why;
  if (!cuda_available(&why)) GTEST_SKIP() << why;
  BatchOptions options = TypeParam::options();
  options.backend = BackendKind::Cuda;
  expect_diverging_vehicle_isolated<TypeParam>(options);
}

// A vehicle placed sliding sideways (initial lateral_speed) starts with the chassis velocity asked
// for, in world axes, and its tires stop the slide no sooner than friction allows: the lateral
// impulse is at most mu_max m g per second, so the slide covers at least v^2 / (2 mu_max g), with
// mu_max the tire's largest force per load (TMeasy's degressive peak, highest as the load goes to
// zero: (2 fym(pn) - fym(2 pn) / 2) / pn, scaled by mu / mu_ref). It does stop within 3 s.
TYPED_TEST(BatchContract, SidewaysSlideStartsAtItsVelocityAndStops) {
  using M = TypeParam;
  const double yaw = 0.5, forward = 2.0, lateral = 4.0;
  Batch batch({M::standard()}, 1, TerrainSpec{}, M::options());
  InitialCondition ic;
  ic.x = 3.0;
  ic.y = -2.0;
  ic.yaw = yaw;
  ic.speed = forward;
  ic.lateral_speed = lateral;
  batch.set_initial_conditions({ic});
  const VehicleSnapshot start = batch.snapshots()[0];
  // Both speeds are along the body's axes; ce and pgs rest with the chassis a fraction of a
  // milliradian off level (their static ride), strut level: 1e-3 of the speed.
  EXPECT_NEAR(start.velocity[0], forward * std::cos(yaw) - lateral * std::sin(yaw), 1e-3 * lateral);
  EXPECT_NEAR(start.velocity[1], forward * std::sin(yaw) + lateral * std::cos(yaw), 1e-3 * lateral);
  EXPECT_NEAR(start.velocity[2], 0.0, 1e-3 * lateral);

  const TireParams<double> t = M::tire();
  const double mu_max = (2.0 * t.fym_pn - 0.5 * t.fym_2pn) / t.nominal_load * t.mu / t.mu_ref;
  const double g = 9.81, min_slide = lateral * lateral / (2.0 * mu_max * g);
  const int steps = static_cast<int>(std::lround(3.0 / M::options().step));
  batch.set_maneuvers({Maneuver{{0.0, 0.0, 0.0, 1.0}}});  // brakes on: the forward roll stops too
  batch.step(steps);
  const VehicleSnapshot end = batch.snapshots()[0];
  ASSERT_EQ(end.status, kStatusRunning);
  const double slide = (end.position[0] - start.position[0]) * -std::sin(yaw) +
                       (end.position[1] - start.position[1]) * std::cos(yaw);
  std::printf("slide %.3f m, friction-limited minimum %.3f m (mu_max %.3f)\n", slide, min_slide, mu_max);
  EXPECT_GT(slide, 0.99 * min_slide);
  EXPECT_LT(std::hypot(end.velocity[0], end.velocity[1]), 0.05) << "the slide stopped";
}

// fp32 against fp64 on the model's maneuver, near the world origin and far from it: the chassis
// positions differ by less than the model's bound (1 cm; pgs 2 cm).
TYPED_TEST(BatchContract, Fp32TracksFp64) {
  using M = TypeParam;
  for (const InitialCondition& ic : M::far_and_near()) {
    VehicleSnapshot snap[2];
    for (Precision precision : {Precision::Fp64, Precision::Fp32}) {
      Batch batch({M::standard()}, 1, TerrainSpec{}, M::options(precision));
      batch.set_initial_conditions({ic});
      batch.set_maneuvers({M::maneuver()});
      batch.step(M::kPrecisionSteps);
      snap[precision == Precision::Fp32] = batch.snapshots()[0];
    }
    ASSERT_EQ(snap[0].status, kStatusRunning);
    ASSERT_EQ(snap[1].status, kStatusRunning);
    EXPECT_GT(snap[0].position[0] - ic.x, M::kMinTravel) << "it went somewhere";
    const double diff = distance(snap[0].position, snap[1].position);
    std::printf("fp32 vs fp64 at (%.0f, %.0f) m: %.3e m\n", ic.x, ic.y, diff);
    EXPECT_LT(diff, M::kFp32Tolerance) << "x0 " << ic.x;
  }
}

// CUDA against the CPU, when a device exists: fp64 within 1e-9 relative, fp32 within 1 cm. The
// vehicles differ, so a kernel that read another vehicle's parameters or state would fail; the
// per-vehicle metrics are compared too (fp64 1e-6, fp32 5e-2 relative). The CPU reference runs
// the probe vehicles alone (test::cuda_probe_vehicles(n, each); each = n: all of them).
template <class M>
void expect_cuda_matches_cpu(int n, int steps, int each) {
  std::string why;
  if (!cuda_available(&why)) GTEST_SKIP() << why;
  const std::vector<typename M::Params> params = M::varied(n);
  std::vector<InitialCondition> initial(n);
  for (int v = 0; v < n; ++v) initial[v].speed = M::cuda_speed(v, n);
  const std::vector<int> ids = test::cuda_probe_vehicles(n, each);
  const int probes = static_cast<int>(ids.size());
  for (Precision precision : {Precision::Fp64, Precision::Fp32}) {
    BatchOptions cpu = M::options(precision);
    BatchOptions gpu = cpu;
    gpu.backend = BackendKind::Cuda;
    Batch c_batch(test::pick(params, ids), probes, TerrainSpec{}, cpu);
    Batch g_batch(params, n, TerrainSpec{}, gpu);
    c_batch.set_initial_conditions(test::pick(initial, ids));
    g_batch.set_initial_conditions(initial);
    for (Batch* b : {&c_batch, &g_batch}) {
      b->set_maneuvers({M::maneuver()});
      b->step(steps);
    }
    const std::vector<VehicleSnapshot> c = c_batch.snapshots(), g = g_batch.snapshots();
    const std::vector<double> mc = c_batch.metrics(), mg = g_batch.metrics();
    const double metric_tolerance = precision == Precision::Fp64 ? 1e-6 : 5e-2;
    double worst = 0.0;
    for (int k = 0; k < probes; ++k) {
      const int v = ids[static_cast<size_t>(k)];
      ASSERT_EQ(c[k].status, kStatusRunning) << "vehicle " << v;
      ASSERT_EQ(g[v].status, kStatusRunning) << "vehicle " << v;
      const double diff = distance(c[k].position, g[v].position);
      const double scale = std::sqrt(sq(c[k].position[0]) + sq(c[k].position[1]) + sq(c[k].position[2]));
      worst = std::max(worst, diff);
      EXPECT_LT(diff, precision == Precision::Fp64 ? 1e-9 * scale : 0.01) << "vehicle " << v;
      for (int m = 0; m < kMetricCount; ++m) {
        const double a = mc[static_cast<size_t>(m) * probes + k], b = mg[static_cast<size_t>(m) * n + v];
        EXPECT_LE(std::fabs(a - b), metric_tolerance * std::max(1.0, std::fabs(a))) << "vehicle " << v << ", metric " << m;
      }
    }
    std::printf("CUDA vs CPU %s, %d vehicles: worst position difference %.3e m\n", precision_name(precision), n, worst);
  }
}

TYPED_TEST(BatchContract, CudaMatchesCpu) {
  expect_cuda_matches_cpu<TypeParam>(TypeParam::kCudaVehicles, TypeParam::kCudaSteps, TypeParam::kCudaVehicles);
}

// Awkward batch sizes: a partial warp (13) and many warps with a last one of one vehicle (1001),
// the CPU reference on a few of them.
TYPED_TEST(BatchContract, CudaMatchesCpuAt13Vehicles) {
  expect_cuda_matches_cpu<TypeParam>(13, TypeParam::kCudaSteps, TypeParam::kCudaProbeEach);
}
TYPED_TEST(BatchContract, CudaMatchesCpuAt1001Vehicles) {
  expect_cuda_matches_cpu<TypeParam>(1001, TypeParam::kCudaSteps, TypeParam::kCudaProbeEach);
}

}  // namespace
}  // namespace fleetdyn
