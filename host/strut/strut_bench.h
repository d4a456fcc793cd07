// `fleetdyn bench` for the strut model (StrutHost::Bench): its batch traits, parameter struct,
// HMMWV preset and default step, the Monte Carlo scatter of per-vehicle parameter sets, and one
// derivative evaluation on the counting scalar. `draw(salt)` gives a deterministic value in
// [-1, 1) per vehicle and salt.
#pragma once

#include "host/cli/bench_ops.h"  // first: before the physics headers

#include <vector>

#include "host/strut/strut_host.h"

namespace fleetdyn {

struct StrutBench : bench_ops::BenchTraits<StrutModel, StrutParams> {
  using Def = Params<double>;  // what a Batch is built from
  static const Params<double>& kernel_params(const Def& d, double) { return d; }
  static constexpr VehicleModel kModel = StrutHost::kModel;
  static constexpr bool kHasSimd = true;  // CPU: SIMD lanes (host/strut/strut_lanes.h) and the scalar path
  static constexpr const char* kScatter = "mass +-5 %, CG height +-5 %, wheel rates +-10 %, friction +-10 %";
  static constexpr const char* kSteerMeaning = "road-wheel angle = steer x max_steer";
  static constexpr const char* kSteerShort = "";  // the log's headline: the usual meaning

  static Params<double> preset() { return hmmwv_params(); }
  static double default_step(const Params<double>& p) { return strut_default_step(p); }
  template <class Draw>
  static void scatter(Params<double>& p, const Draw& draw) {
    p.total_mass *= 1.0 + 0.05 * draw(1);
    p.cg_height *= 1.0 + 0.05 * draw(2);
    p.wheel_rate_front *= 1.0 + 0.1 * draw(3);
    p.wheel_rate_rear *= 1.0 + 0.1 * draw(4);
    p.tire.mu *= 1.0 + 0.1 * draw(5);
    finalize_vehicle_params(p);
  }
  // Operations of one strut_derivative (no diagnostics); the environment's setup is not counted.
  static OpCounts count_derivative(const Params<Counted>& p, const TerrainDesc<Counted>& terrain, Counted origin_x,
                                   Counted origin_y, DriverInput<Counted> input, const Counted* s, Counted* ds) {
    const StrutEnvironment<Counted> env(p, &terrain, origin_x, origin_y, input);
    return bench_ops::count_ops(
        [&] { strut_derivative(p, env, input, s, ds, static_cast<StrutDiagnostics<Counted>*>(nullptr)); });
  }
};

}  // namespace fleetdyn
