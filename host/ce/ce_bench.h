// `fleetdyn bench` for the ce model (CeHost::Bench); as host/strut/strut_bench.h.
#pragma once

#include "host/cli/bench_ops.h"  // first: before the physics headers

#include <vector>

#include "host/ce/ce_host.h"

namespace fleetdyn {

struct CeBench : bench_ops::BenchTraits<CeModel, CeParams> {
  using Def = Params<double>;
  static const Params<double>& kernel_params(const Def& d, double) { return d; }
  static constexpr VehicleModel kModel = CeHost::kModel;
  static constexpr bool kHasSimd = false;  // ce runs the scalar code on the CPU (cpu_simd is ignored)
  static constexpr const char* kScatter =
      "chassis mass +-5 %, chassis COM height (chassis_com.z) +-5 %, front/rear spring rates +-10 %, friction +-10 %";
  static constexpr const char* kSteerMeaning =
      "Pitman arm angle = steer x max_steer (ce's max_steer is the Pitman angle, not the road-wheel angle)";
  static constexpr const char* kSteerShort = " (Pitman arm)";

  static Params<double> preset() { return hmmwv_ce_params(); }
  static double default_step(const Params<double>& p) { return ce_step_analysis(p).default_step; }
  template <class Draw>
  static void scatter(Params<double>& p, const Draw& draw) {
    p.chassis_mass *= 1.0 + 0.05 * draw(1);
    p.chassis_com.z *= 1.0 + 0.05 * draw(2);
    p.axle[0].spring_rate *= 1.0 + 0.1 * draw(3);
    p.axle[1].spring_rate *= 1.0 + 0.1 * draw(4);
    p.tire.mu *= 1.0 + 0.1 * draw(5);
    finalize_ce_params(p);
  }
  // Operations of one ce_derivative (no diagnostics, no corner bodies out).
  static OpCounts count_derivative(const Params<Counted>& p, const TerrainDesc<Counted>& terrain, Counted origin_x,
                                   Counted origin_y, DriverInput<Counted> input, const Counted* s, Counted* ds) {
    const CeEnvironment<Counted> env{&terrain, origin_x, origin_y};
    return bench_ops::count_ops([&] { ce_derivative(p, env, input, s, ds); });
  }
};

}  // namespace fleetdyn
