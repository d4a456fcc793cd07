// The pgs solve split over lanes, as the CUDA kernels run it (kernels/pgs_vehicle_kernel.cuh,
// kernels/pgs_cuda.cu): the row coloring of the maximal-coordinate vehicle, each color's rows
// split over lanes giving the serial colored order's numbers bit for bit, the residual likewise,
// the colored order solving the same step as the table order, the kernel's vehicles per block
// from a device's shared memory, and the vehicle's CUDA kernel against the CPU (skipped without a
// device).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "fleetdyn/batch.h"
#include "fleetdyn/ce.h"
#include "fleetdyn/pgs_vehicle.h"
#include "kernels/pgs_launch_shape.h"

namespace fleetdyn {
namespace {

using namespace pgsv;

// Lanes per vehicle of the CUDA kernel (kernels/pgs_vehicle_kernel.cuh kLanes).
constexpr int kKernelLanes = 8;

PgsVehicleDef rows_mode() {
  PgsVehicleDef def;
  def.wheel_contact = WheelContact::Rows;
  return def;
}

// One substep of a vehicle prepared on the host, up to the sweeps: the vehicle at rest, then
// driven for 0.3 s with steering and throttle, so rows, velocities and warm start are not trivial.
struct PreparedSubstep {
  PgsVehicleParams<double> params;
  TerrainDesc<double> terrain = default_terrain_desc<double>();
  std::vector<double> state, next;
  std::vector<double> scratch = std::vector<double>(kScratchSize, 0.0);
  StepWork<double> work;

  explicit PreparedSubstep(const PgsVehicleDef& def)
      : params(build_pgs_vehicle_params<double>(def, 1e-3, default_terrain_desc<double>())) {
    state = pgs_vehicle_state_from_ce(params, ce_rest_state(pgs_vehicle_rest_params(def)));
    next.resize(state.size());
    const DriverInput<double> input{0.3, 0.4, 0.0};
    for (int k = 0; k < 300; ++k) {
      vehicle_step(params, terrain, 0.0, 0.0, 1e-3, 1, input, state.data(), next.data());
      state.swap(next);
    }
    step_begin(params, 1e-3, 1, input, state.data(), next.data(), work);
    EXPECT_TRUE(substep_prepare(params, terrain, 0.0, 0.0, 0, next.data(), view(), work));
  }
  pgs::Strided<double> view() { return pgs::Strided<double>{scratch.data(), 1, 0}; }
};

TEST(PgsLanes, VehicleColorsShareNoBodyAndFitTheKernelLanes) {
  for (const PgsVehicleDef& def : {PgsVehicleDef{}, rows_mode()}) {
    const PgsVehicleParams<double> p = build_pgs_vehicle_params<double>(def, 1e-3, default_terrain_desc<double>());
    EXPECT_EQ(p.settings.colored_sweeps, 1) << "the CPU sweeps in the kernel's order";
    std::vector<int> seen(static_cast<size_t>(p.row_count), 0);
    int widest = 0;
    for (int c = 0; c < p.color_count; ++c) {
      std::vector<int> owner(kBodies, -1);
      widest = std::max(widest, p.color_begin[c + 1] - p.color_begin[c]);
      for (int i = p.color_begin[c]; i < p.color_begin[c + 1]; ++i) {
        const int r = p.sweep_order[i];
        ++seen[static_cast<size_t>(r)];
        for (int body : {p.rows[r].body_a, p.rows[r].body_b}) {
          if (body < 0) continue;
          EXPECT_EQ(owner[static_cast<size_t>(body)], -1)
              << "color " << c << " rows " << owner[static_cast<size_t>(body)] << " and " << r << " share body " << body;
          owner[static_cast<size_t>(body)] = r;
        }
      }
    }
    for (int count : seen) EXPECT_EQ(count, 1);  // a permutation of the rows
    std::printf("wheel contact %d: %d rows in %d colors, widest %d\n", p.wheel_contact, p.row_count, p.color_count, widest);
    // The tire mode (the default): any color in one pass of the kernel's lanes. The rigid-wheel
    // mode's ground rows (on the world and one wheel each) make a color of up to 9 rows: a lane
    // then takes two, which is right (the split test below), only slower.
    if (def.wheel_contact == WheelContact::Tire) {
      EXPECT_LE(widest, kKernelLanes);
    }
  }
}

// The kernel's lanes each take every lanes-th row of a color, all at once. The rows of a color
// share no body, so the lanes' shares done one after another must give the serial colored
// order's scratch bit for bit, after 30 sweeps; and the residual's maximum over the lanes' rows
// is the serial residual exactly.
TEST(PgsLanes, ColorSplitOverLanesIsTheSerialOrderBitForBit) {
  for (const PgsVehicleDef& def : {PgsVehicleDef{}, rows_mode()}) {
    PreparedSubstep serial(def);
    const pgs::ModelView<double>& m = serial.work.model;
    const std::vector<double> start = serial.scratch;
    for (int sweep = 0; sweep < 30; ++sweep) pgs::pgs_sweep_colored(m, serial.view(), 0, 1);
    double bilateral = 0.0, complementarity = 0.0;
    pgs::pgs_residual(m, serial.view(), &bilateral, &complementarity);
    EXPECT_GT(bilateral, 0.0) << "a nontrivial residual to compare";
    for (int lanes : {2, 3, kKernelLanes, 32}) {
      std::vector<double> split = start;
      const pgs::Strided<double> s{split.data(), 1, 0};
      for (int sweep = 0; sweep < 30; ++sweep)
        for (int c = 0; c < m.color_count; ++c)
          for (int lane = 0; lane < lanes; ++lane) pgs::sweep_color(m, s, c, lane, lanes);
      EXPECT_EQ(std::memcmp(split.data(), serial.scratch.data(), split.size() * sizeof(double)), 0) << lanes << " lanes";
      double lanes_bilateral = 0.0, lanes_complementarity = 0.0;
      for (int lane = 0; lane < lanes; ++lane) {
        double b = 0.0, c = 0.0;
        pgs::pgs_residual(m, s, &b, &c, lane, lanes);
        lanes_bilateral = std::max(lanes_bilateral, b);
        lanes_complementarity = std::max(lanes_complementarity, c);
      }
      EXPECT_EQ(lanes_bilateral, bilateral) << lanes << " lanes";
      EXPECT_EQ(lanes_complementarity, complementarity) << lanes << " lanes";
    }
  }
}

// The colored order is another Gauss-Seidel order of the same problem: solved to convergence
// from the same prepared substep, both orders give the same body velocities. The velocity
// solution of the box-constrained problem is unique (M positive definite), the impulses need
// not be; both stop at a residual of 1e-11 m/s, so the velocities agree to about that times the
// problem's conditioning: 1e-7 m/s, rad/s allows a conditioning of 1e4.
TEST(PgsLanes, ColoredAndTableOrderSolveTheSameStep) {
  for (const PgsVehicleDef& def : {PgsVehicleDef{}, rows_mode()}) {
    PreparedSubstep colored(def), table(def);
    pgs::ModelView<double>& mc = colored.work.model;
    pgs::ModelView<double>& mt = table.work.model;
    mc.settings.tolerance = mt.settings.tolerance = 1e-11;
    mc.settings.max_iterations = mt.settings.max_iterations = 200000;
    mt.settings.colored_sweeps = 0;
    double b = 0.0, c = 0.0;
    const int colored_sweeps = pgs::pgs_solve(mc, colored.view(), &b, &c);
    EXPECT_LE(std::max(b, c), 1e-11) << "colored order converged";
    const int table_sweeps = pgs::pgs_solve(mt, table.view(), &b, &c);
    EXPECT_LE(std::max(b, c), 1e-11) << "table order converged";
    double worst = 0.0;
    for (int i = 0; i < kBodies; ++i)
      for (int k = 0; k < 6; ++k) {
        const int j = pgs::body_scratch(mc.row_count, i, pgs::kSv + k);
        worst = std::max(worst, std::fabs(colored.scratch[static_cast<size_t>(j)] - table.scratch[static_cast<size_t>(j)]));
      }
    std::printf("wheel contact %d: colored %d sweeps, table %d sweeps, max velocity difference %.3e\n",
                static_cast<int>(def.wheel_contact), colored_sweeps, table_sweeps, worst);
    EXPECT_LT(worst, 1e-7);
  }
}

// The kernel's vehicles per block from the opt-in shared memory per block of the devices it runs
// on: sm_86, sm_89 and sm_120 99 KB (101 376 B), sm_80 163 KB (166 912 B), sm_90 227 KB
// (232 448 B). fp64's 4 vehicles (4 x 27 000 B) exceed 99 KB: 3 per block there.
TEST(PgsLanes, VehiclesPerBlockFitTheSharedMemory) {
  EXPECT_EQ(kPgsLanesPerVehicle, kKernelLanes);
  EXPECT_EQ(kPgsMaxVehiclesPerBlock * kPgsLanesPerVehicle, 32) << "a full block is one warp";
  struct Device {
    const char* arch;
    std::size_t optin;  // [B]
  };
  const Device devices[] = {{"sm_86", 101376}, {"sm_89", 101376}, {"sm_120", 101376}, {"sm_80", 166912}, {"sm_90", 232448}};
  for (const Device& d : devices) {
    for (std::size_t scalar : {sizeof(float), sizeof(double)}) {
      const std::size_t bytes = scalar * static_cast<std::size_t>(kScratchSize);
      // The most whole vehicles in the limit, at most a warp's 4.
      std::size_t expected = 0;
      while (expected < 4 && (expected + 1) * bytes <= d.optin) ++expected;
      const int got = pgs_vehicles_per_block(bytes, d.optin);
      EXPECT_EQ(static_cast<std::size_t>(got), expected) << d.arch << ", " << bytes << " B per vehicle";
      EXPECT_LE(static_cast<std::size_t>(got) * bytes, d.optin) << d.arch;
      const bool fp64_on_99k = scalar == sizeof(double) && d.optin == 101376;
      EXPECT_EQ(got, fp64_on_99k ? 3 : 4) << d.arch << ", " << bytes << " B per vehicle";
    }
  }
  // Not even one vehicle: an error naming the bytes needed and available.
  const std::size_t fp64_bytes = sizeof(double) * static_cast<std::size_t>(kScratchSize);
  EXPECT_EQ(pgs_vehicles_per_block(fp64_bytes, fp64_bytes), 1);
  const std::size_t too_small = fp64_bytes - 1;
  try {
    pgs_vehicles_per_block(fp64_bytes, too_small);
    ADD_FAILURE() << too_small << " B hold no fp64 vehicle";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("needs " + std::to_string(fp64_bytes) + " B"), std::string::npos) << what;
    EXPECT_NE(what.find("at most " + std::to_string(too_small) + " B"), std::string::npos) << what;
  }
}

// The vehicle's CUDA kernel (lanes per vehicle, scratch in shared memory) against the CPU's
// scalar path, which sweeps the same colors in the same order: a 1 s step steer at 15 m/s of
// vehicles that differ. They differ only by the compilers' libm (sin, cos, atan2, exp, sqrt
// within an ulp or two) and multiply-add contraction, grown by the dynamics: fp64 within 1e-6 m
// (round-off grown a billionfold would still pass; a wrong row, lane or color would not);
// fp32 within the 2 cm the batch allows fp32 against fp64.
TEST(PgsLanes, CudaKernelMatchesCpu) {
  std::string why;
  if (!cuda_available(&why)) GTEST_SKIP() << "no CUDA device: " << why;
  const Maneuver steer{{0.0, 0.0, 0.15, 0.0}, {0.3, 0.0, 0.15, 0.0}, {0.5, 0.1, 0.15, 0.0}};
  InitialCondition ic;
  ic.speed = 15.0;
  std::vector<PgsVehicleDef> defs(6);
  for (size_t k = 0; k < defs.size(); ++k) defs[k].vehicle.tire.mu *= 0.85 + 0.05 * static_cast<double>(k);
  defs[5].wheel_contact = WheelContact::Rows;
  for (Precision precision : {Precision::Fp64, Precision::Fp32}) {
    std::vector<std::vector<VehicleSnapshot>> results;
    for (BackendKind backend : {BackendKind::Cuda, BackendKind::Cpu}) {
      BatchOptions o;
      o.backend = backend;
      o.precision = precision;
      o.step = 1e-3;
      o.cpu_threads = 1;
      o.cpu_simd = false;
      Batch batch(defs, static_cast<int>(defs.size()), TerrainSpec{}, o);
      batch.set_initial_conditions({ic});
      batch.set_maneuvers({steer});
      batch.step(1000);
      for (int s : batch.status()) EXPECT_EQ(s, kStatusRunning);
      results.push_back(batch.snapshots());
    }
    double worst = 0.0;
    for (size_t v = 0; v < defs.size(); ++v)
      for (int a = 0; a < 3; ++a)
        worst = std::max(worst, std::fabs(results[0][v].position[a] - results[1][v].position[a]));
    std::printf("CUDA vs CPU after 1 s, %s: max position difference %.3e m\n",
                precision == Precision::Fp64 ? "fp64" : "fp32", worst);
    EXPECT_LT(worst, precision == Precision::Fp64 ? 1e-6 : 0.02);
  }
}

}  // namespace
}  // namespace fleetdyn
