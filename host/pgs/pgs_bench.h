// `fleetdyn bench` for the pgs model (PgsHost::Bench); as host/strut/strut_bench.h.
#pragma once

#include "host/cli/bench_ops.h"  // first: before the physics headers

#include <vector>

#include "host/ce/ce_bench.h"
#include "host/pgs/pgs_host.h"

namespace fleetdyn {

// The pgs model's vehicle: ce's HMMWV as 17 bodies (fleetdyn/pgs_vehicle.h), 30 fixed sweeps.
struct PgsBench : bench_ops::BenchTraits<PgsVehicleModel, PgsVehicleParams> {
  using Def = PgsVehicleDef;
  static Params<double> kernel_params(const Def& d, double step) {
    return build_pgs_vehicle_params<double>(d, step, default_terrain_desc<double>());
  }
  static constexpr VehicleModel kModel = PgsHost::kModel;
  static constexpr bool kHasSimd = true;  // CPU: the sweeps in SIMD lanes (host/pgs/pgs_vehicle_lanes.h)
  static constexpr const char* kScatter = CeBench::kScatter;
  static constexpr const char* kSteerMeaning = CeBench::kSteerMeaning;
  static constexpr const char* kSteerShort = CeBench::kSteerShort;

  static Def preset() { return PgsVehicleDef{}; }
  // 1 ms: the step the vehicle is validated at (semi-implicit; its stiffest force
  // elements, the tires on the wheel bodies, are resolved well below it).
  static double default_step(const Def&) { return 1.0e-3; }
  template <class Draw>
  static void scatter(Def& d, const Draw& draw) {
    CeBench::scatter(d.vehicle, draw);
  }
  // Operations of one evaluation of the vehicle's external loads (tires, springs, dampers,
  // driveline): the part of a pgs step that plays a derivative's role; the sweeps are in "step".
  static OpCounts count_derivative(const Params<Counted>& p, const TerrainDesc<Counted>& terrain, Counted origin_x,
                                   Counted origin_y, DriverInput<Counted> input, const Counted* s, Counted*) {
    std::vector<Counted> work(s, s + pgsv::kStateSize);
    pgsv::offset_positions(work.data(), Counted(1.0));
    pgsv::Loads<Counted> loads;
    return bench_ops::count_ops([&] {
      pgsv::vehicle_loads(p, terrain, origin_x, origin_y, input, Counted(1e-3), pgs::Strided<Counted>{work.data(), 1, 0}, loads);
    });
  }
};

}  // namespace fleetdyn
