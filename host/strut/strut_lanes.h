// The CPU backend's vectorized runner: W consecutive vehicles stepped together, one per SIMD lane
// (host/backend/lanes.h), through the same templated physics the GPU and the scalar path run.
//
// What is vectorized: the whole RK4 step (strut kinematics, TMeasy tire, driveline, Newton-Euler).
// What runs per lane through the scalar code: terrain queries other than flat ground (a few
// percent of the time; the loop and the heightfield index per lane), the soil's forces on soil
// terrain, and, once per step through
// each lane's VehicleRun (host/backend/vehicle_lanes.h), the inputs and drivers, the sanity check, the
// metrics and the origin rebase.
//
// Independence: a vehicle's lane depends only on its index (v / W, v % W), every vehicle of the
// batch goes through this path (a short last group is padded with copies of its first vehicle,
// never written back), and no operation mixes lanes, so a vehicle's result is the same whatever
// the batch size or thread count. It equals the scalar path to round-off, not bitwise: the
// compiler contracts multiply-adds differently in the two.
#pragma once

#include "fleetdyn/physics/strut/strut_batch.h"
#include "host/backend/lanes.h"
#include "host/backend/vehicle_lanes.h"

namespace fleetdyn {

// Terrain contact for W query points: flat ground without a curb vectorized (the same arithmetic
// as terrain_detail::flat_contact), other kinds and curbs through the scalar query per lane, on
// the lane's own descriptor when the vehicles vary the terrain (TerrainDesc::per_lane; a
// variation never changes the kind; on flat ground it can only move or raise a curb).
template <class T, int W>
inline TerrainContact<Lanes<T, W>> terrain_query(const TerrainDesc<T>& t, Vec3<Lanes<T, W>> local, Lanes<T, W> origin_x,
                                                 Lanes<T, W> origin_y) {
  using L = Lanes<T, W>;
  if (t.kind == TerrainKind::Flat && t.per_lane == nullptr && !(t.curb_height > T(0))) {
    return TerrainContact<L>{local.z - L(t.base_height), Vec3<L>{L(T(0)), L(T(0)), L(T(1))}, L(t.mu_scale)};
  }
  TerrainContact<L> c;
  for (int i = 0; i < W; ++i) {
    const TerrainContact<T> one = terrain_query(t.per_lane ? t.per_lane[i] : t,
                                                Vec3<T>{local.x[i], local.y[i], local.z[i]}, origin_x[i], origin_y[i]);
    c.distance.set(i, one.distance);
    c.normal.x.set(i, one.normal.x);
    c.normal.y.set(i, one.normal.y);
    c.normal.z.set(i, one.normal.z);
    c.mu_scale.set(i, one.mu_scale);
  }
  return c;
}

// A tire's contacts for W wheels (physics/core/tire_contact.h): on flat ground without a curb
// vectorized, otherwise per lane through the scalar code on the lane's own descriptor.
template <class T, int W>
inline TireContacts<Lanes<T, W>> tire_contacts(const TerrainDesc<T>& t, Vec3<Lanes<T, W>> wheel, Lanes<T, W> origin_x,
                                               Lanes<T, W> origin_y, Vec3<Lanes<T, W>> axis, Lanes<T, W> radius,
                                               Lanes<T, W> half_width) {
  using L = Lanes<T, W>;
  if (t.kind == TerrainKind::Flat && t.per_lane == nullptr && !(t.curb_height > T(0))) {
    const TerrainContact<L> ground{wheel.z - L(t.base_height), Vec3<L>{L(T(0)), L(T(0)), L(T(1))}, L(t.mu_scale)};
    return {tire_plane_contact(ground, axis, radius, half_width), no_tire_contact(radius)};
  }
  TireContacts<L> out;
  const auto set = [](TireContact<L>& to, int i, const TireContact<T>& from) {
    to.penetration.set(i, from.penetration);
    to.normal.x.set(i, from.normal.x);
    to.normal.y.set(i, from.normal.y);
    to.normal.z.set(i, from.normal.z);
    to.mu_scale.set(i, from.mu_scale);
    to.extent.set(i, from.extent);
    to.lateral.x.set(i, from.lateral.x);
    to.lateral.y.set(i, from.lateral.y);
    to.lateral.z.set(i, from.lateral.z);
  };
  for (int i = 0; i < W; ++i) {
    const TireContacts<T> one = tire_contacts(t.per_lane ? t.per_lane[i] : t,
                                              Vec3<T>{wheel.x[i], wheel.y[i], wheel.z[i]}, origin_x[i], origin_y[i],
                                              Vec3<T>{axis.x[i], axis.y[i], axis.z[i]}, radius[i], half_width[i]);
    set(out.primary, i, one.primary);
    set(out.secondary, i, one.secondary);
    out.primary_on_ground.set(i, one.primary_on_ground);
  }
  return out;
}

// The soil's load on W wheels (physics/core/terrain_soil.h): per lane through the scalar code, on
// the lane's own descriptor when the vehicles vary the terrain (a sample's own soil).
template <class T, int W>
inline SoilTireLoad<Lanes<T, W>> soil_tire_load(const TerrainDesc<T>& t, Vec3<Lanes<T, W>> wheel_local,
                                                Lanes<T, W> origin_x, Lanes<T, W> origin_y, Lanes<T, W> radius,
                                                Lanes<T, W> width, Lanes<T, W> tire_stiffness, Lanes<T, W> tire_damping,
                                                Lanes<T, W> pen, Lanes<T, W> pen_rate, Lanes<T, W> v_long, Lanes<T, W> v_lat,
                                                Lanes<T, W> spin, Lanes<T, W> firm_force, Lanes<T, W> firm_potential) {
  SoilTireLoad<Lanes<T, W>> out;
  for (int i = 0; i < W; ++i) {
    const SoilTireLoad<T> one = soil_tire_load(t.per_lane ? t.per_lane[i] : t,
                                               Vec3<T>{wheel_local.x[i], wheel_local.y[i], wheel_local.z[i]},
                                               origin_x[i], origin_y[i], radius[i], width[i], tire_stiffness[i],
                                               tire_damping[i], pen[i], pen_rate[i], v_long[i], v_lat[i], spin[i],
                                               firm_force[i], firm_potential[i]);
    out.on_soil.set(i, one.on_soil);
    out.fx.set(i, one.fx);
    out.fy.set(i, one.fy);
    out.fz.set(i, one.fz);
    out.my.set(i, one.my);
    out.mx.set(i, one.mx);
    out.mz.set(i, one.mz);
    out.edge_x.set(i, one.edge_x);
    out.edge_y.set(i, one.edge_y);
  }
  return out;
}

// The origin rebase (physics/core/batch_origin.h) of the running lanes' positions.
template <class T, int W>
inline void rebase_lanes(const LaneMask<T, W>& running, Lanes<T, W>* s, Lanes<T, W>& origin_x, Lanes<T, W>& origin_y) {
  for (int i = 0; i < W; ++i) {
    if (!lane_is_set(running, i)) continue;
    T x = s[strut::kPos][i], y = s[strut::kPos + 1][i], ox = origin_x[i], oy = origin_y[i];
    rebase_coordinate(x, ox);
    rebase_coordinate(y, oy);
    s[strut::kPos].set(i, x);
    s[strut::kPos + 1].set(i, y);
    origin_x.set(i, ox);
    origin_y.set(i, oy);
  }
}

// Strut's lane stepper (host/backend/vehicle_lanes.h): the RK4 step of W vehicles in lanes. The lanes'
// parameters are set once per call; every lane's state and origin are gathered from its run at
// each step, so lanes that stopped or pad the group carry their last state along unwritten.
template <bool kDrivers, class T, int W>
class StrutLaneStepper {
 public:
  using L = Lanes<T, W>;
  using Run = VehicleRun<kDrivers, StrutModel, T>;

  // The lanes' parameters, and their terrain: the batch's, or each lane's own descriptor when
  // the vehicles vary it.
  StrutLaneStepper(const StrutBatchView<T>& b, int first, const Run* run, const bool*) : terrain_(b.terrain) {
    for (int i = 0; i < W; ++i) {
      const int v = first + i < b.vehicle_count ? first + i : first;
      set_lane(params_, i, b.params[v % b.param_count]);
    }
    if (b.terrain_variation) {
      for (int i = 0; i < W; ++i) lane_terrain_[i] = run[i].terrain;
      terrain_.per_lane = lane_terrain_;
    }
  }
  StrutLaneStepper(const StrutLaneStepper&) = delete;  // terrain_ may point into this object
  StrutLaneStepper& operator=(const StrutLaneStepper&) = delete;

  void step(const StrutBatchView<T>& b, Run* run, const bool* live, const DriverInput<T>* input, MetricSample<T>* sample) {
    L s[kStrutStateSize], next[kStrutStateSize], origin_x, origin_y;
    DriverInput<L> lanes_input;
    for (int i = 0; i < W; ++i) {
      for (int j = 0; j < kStrutStateSize; ++j) s[j].set(i, run[i].s[j]);
      origin_x.set(i, run[i].origin_x);
      origin_y.set(i, run[i].origin_y);
      lanes_input.steer.set(i, input[i].steer);
      lanes_input.throttle.set(i, input[i].throttle);
      lanes_input.brake.set(i, input[i].brake);
    }
    StrutDiagnostics<L> diag;
    strut_step(params_, terrain_, origin_x, origin_y, b.integrator, lanes_input, s, next, &diag);
    for (int i = 0; i < W; ++i) {
      if (!live[i]) continue;
      for (int j = 0; j < kStrutStateSize; ++j) run[i].next[j] = next[j][i];
      sample[i] = strut_metric_sample(run[i].s, get_lane(diag, i));
    }
  }
  void stopped(int) {}

 private:
  StrutParams<L> params_;
  TerrainDesc<T> terrain_;
  TerrainDesc<T> lane_terrain_[W];
};

// Advance vehicles first .. first + W - 1 (those that exist and are running) by `steps` outer
// steps; the lane form of run_vehicle (physics/core/batch_view.h).
template <class T, int W>
inline void strut_run_lanes(const StrutBatchView<T>& b, int first, int steps) {
  run_vehicle_lanes<StrutLaneStepper, StrutModel, T, W>(b, first, steps);
}

template <>
struct LaneRunner<StrutModel> {
  static constexpr bool kAvailable = true;
  template <class T, int W>
  static void run(const StrutBatchView<T>& b, int first, int steps) {
    strut_run_lanes<T, W>(b, first, steps);
  }
};

}  // namespace fleetdyn
