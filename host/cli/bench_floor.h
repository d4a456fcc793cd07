// `fleetdyn bench` (host/cli/bench_job.cpp): the scenario every configuration steps, the operation
// counts of one vehicle-step on the counting scalar (host/cli/bench_ops.h), and the CUDA kernel's
// floor derived from them (bench/floor.md).
#pragma once

#include "host/cli/bench_ops.h"  // first: before the physics headers

#include <algorithm>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fleetdyn/batch.h"
#include "fleetdyn/physics/core/batch_view.h"

namespace fleetdyn {
namespace bench_job {

using bench_ops::Counted;
using bench_ops::OpCounts;
using nlohmann::json;

// ---- the scenario ------------------------------------------------------------------------------
constexpr double kSpeed = 15.0;     // [m/s] initial forward speed
constexpr double kSteer = 0.1;      // steady steering input (strut: road-wheel angle 0.1 * max_steer;
                                    // ce: Pitman arm angle 0.1 * max_steer)
constexpr double kThrottle = 0.15;  // holds ~15 m/s in the turn
constexpr double kBrake = 0.0;

// ---- the floor's assumptions (bench/floor.md) -----------------------------------------------------
constexpr double kPeakFp32 = 67.0e12;  // [FLOP/s] H100 SXM, fp32 non-tensor (FMA = 2 FLOP)
constexpr double kPeakFp64 = 34.0e12;  // [FLOP/s] H100 SXM, fp64 non-tensor
constexpr double kHbmH100 = 3.35e12;   // [B/s] H100 SXM HBM3
constexpr double kHbmH200 = 4.8e12;    // [B/s] H200 HBM3e (same SM array, so same FLOP/s)
constexpr int kFloorSteps = 1000;      // steps per launch of the reference floor
// Rough FLOP-equivalents of the expensive operations on the GPU (IEEE-accurate, no fast math):
// division and square root expand to a reciprocal estimate plus Newton/FMA refinement; sin, cos,
// atan2, asin to range reduction plus a polynomial.
constexpr double kWeightDiv = 8.0, kWeightSqrt = 8.0, kWeightTranscendental = 30.0;

inline double flops(const OpCounts& c) { return double(c.add + c.mul + c.div + c.sqrt + c.transcendental); }
inline double weighted_flops(const OpCounts& c) {
  return double(c.add + c.mul) + kWeightDiv * double(c.div) + kWeightSqrt * double(c.sqrt) +
         kWeightTranscendental * double(c.transcendental);
}
inline OpCounts operator-(const OpCounts& a, const OpCounts& b) {
  OpCounts d;
  d.add = a.add - b.add;
  d.mul = a.mul - b.mul;
  d.div = a.div - b.div;
  d.sqrt = a.sqrt - b.sqrt;
  d.transcendental = a.transcendental - b.transcendental;
  d.compare = a.compare - b.compare;
  d.other = a.other - b.other;
  return d;
}
inline json to_json(const OpCounts& c) {
  return json{{"add", c.add},
              {"mul", c.mul},
              {"div", c.div},
              {"sqrt", c.sqrt},
              {"transcendental", c.transcendental},
              {"compare", c.compare},
              {"other", c.other},
              {"flop", flops(c)},
              {"flop_weighted", weighted_flops(c)}};
}

// Operation counts of a model at a representative state (after 2 s of the maneuver).
struct OpProfile {
  OpCounts derivative;  // one derivative (no diagnostics)
  OpCounts step;        // one outer step inside run_vehicle (4 derivatives + RK4 + checks + metrics)
  OpCounts launch;      // per call of run_vehicle, independent of the step count
};

template <class M>
OpProfile count_ops(const typename M::Def& p, double step) {
  using Model = typename M::Model;
  constexpr int kSize = Model::kStateSize;
  BatchOptions options;
  options.backend = BackendKind::Cpu;
  options.precision = Precision::Fp64;
  options.step = step;
  options.cpu_threads = 1;
  Batch batch({p}, 1, TerrainSpec{}, options);
  InitialCondition ic;
  ic.speed = kSpeed;
  batch.set_initial_conditions({ic});
  batch.set_inputs({DriverInput<double>{kSteer, kThrottle, kBrake}});
  batch.step(static_cast<int>(std::lround(2.0 / options.step)));
  const std::vector<double> state = batch.state();
  const std::vector<double> origin = batch.origins();

  using ParamsC = typename M::template Params<Counted>;
  using ParamsD = typename M::template Params<double>;
  static_assert(sizeof(Counted) == sizeof(double) && std::is_trivially_copyable<Counted>::value, "Counted");
  static_assert(sizeof(ParamsC) == sizeof(ParamsD) && std::is_trivially_copyable<ParamsC>::value, "layout");
  const ParamsD pd = M::kernel_params(p, step);
  ParamsC pc;
  std::memcpy(static_cast<void*>(&pc), static_cast<const void*>(&pd), sizeof(pc));
  const TerrainDesc<Counted> terrain = default_terrain_desc<Counted>();

  OpProfile profile;
  {
    Counted s[kSize], ds[kSize];
    for (int j = 0; j < kSize; ++j) s[j] = state[j];
    const DriverInput<Counted> input = clamped(DriverInput<Counted>{kSteer, kThrottle, kBrake});
    profile.derivative = M::count_derivative(pc, terrain, origin[0], origin[1], input, s, ds);
  }
  // run_vehicle with 1 and with 2 steps: the difference is one step, the rest per launch.
  OpCounts runs[2];
  for (int steps = 1; steps <= 2; ++steps) {
    std::vector<Counted> st(state.begin(), state.end()), org(origin.begin(), origin.end());
    std::vector<Counted> inputs{kSteer, kThrottle, kBrake}, metrics(kMetricCount, Counted(0.0));
    metrics[metric::first_liftoff_time] = metrics[metric::diverged_time] = Counted(-1.0);
    int step_count = 0, status = kStatusRunning;
    BatchView<Model, Counted> view{};
    view.vehicle_count = 1;
    view.params = &pc;
    view.param_count = 1;
    view.terrain = terrain;
    view.integrator = IntegratorSettings<Counted>{options.step, 1, true};
    view.maneuver.table_count = 0;
    view.state = st.data();
    view.origin = org.data();
    view.step_count = &step_count;
    view.status = &status;
    view.inputs = inputs.data();
    view.metrics = metrics.data();
    runs[steps - 1] = bench_ops::count_ops([&] { run_vehicle(view, 0, steps); });
  }
  profile.step = runs[1] - runs[0];
  profile.launch = runs[0] - profile.step;
  return profile;
}

// Bytes one thread of the CUDA kernel moves to and from global memory per launch (run_vehicle):
// state and metrics in and out, origin in and out, the three inputs, step count and status in and out.
// The parameter struct is read too, from L1/L2 when all vehicles share it (reported separately).
template <class T>
double kernel_bytes_per_launch(int state_size) {
  return double((2 * state_size + 2 * kMetricCount + 2 * 2 + 3) * sizeof(T) + 2 * 2 * sizeof(int));
}

struct Floor {
  double compute;           // [vehicle-steps/s] peak FLOP/s / FLOP per vehicle-step
  double compute_weighted;  // same with the weighted count
  double memory;            // [vehicle-steps/s] HBM bandwidth / bytes per vehicle-step
  double floor() const { return std::min(compute, memory); }
  double floor_weighted() const { return std::min(compute_weighted, memory); }
};

inline Floor cuda_floor(const OpProfile& ops, int state_size, Precision precision, int steps_per_launch, double hbm) {
  const bool fp32 = precision == Precision::Fp32;
  const double peak = fp32 ? kPeakFp32 : kPeakFp64;
  const double bytes = fp32 ? kernel_bytes_per_launch<float>(state_size) : kernel_bytes_per_launch<double>(state_size);
  const double s = std::max(1, steps_per_launch);
  Floor f;
  f.compute = peak / (flops(ops.step) + flops(ops.launch) / s);
  f.compute_weighted = peak / (weighted_flops(ops.step) + weighted_flops(ops.launch) / s);
  f.memory = hbm / (bytes / s);
  return f;
}

inline double hbm_for_device(const std::string& device) {
  return device.find("H200") != std::string::npos ? kHbmH200 : kHbmH100;
}

}  // namespace bench_job
}  // namespace fleetdyn
