// The HMMWV's definition: shared/reference/hmmwv.md (Project Chrono's HMMWV_DoubleWishbone,
// HMMWV_PitmanArm, wheel, chassis and TMeasy tire data). vehicles/hmmwv.yaml holds the same
// numbers as a vehicle file (a test reads it back to these bits).
#include "fleetdyn/physics/core/math.h"
#include "fleetdyn/vehicle_definition.h"

namespace fleetdyn {
namespace {

// One axle's links and force elements (front and rear differ in springs and shocks only).
void hmmwv_axle(AxleDefinition& a, bool front) {
  a.lca = {23.965, {0.4, 0.4, 0.8938}};
  a.uca = {5.813, {0.03, 0.03, 0.06276}};
  a.upright = {19.450, {0.1656, 0.1934, 0.04367}};
  a.tierod = {6.0, {0.05, 0.05, 0.5}};
  a.spring = {front ? 0.339 : 0.382, front ? 167062.0 : 369149.0, 0.0};  // linear (Chrono before Oct 2023)
  a.shock = {0.324104,
             0.418592,
             front ? 12521.56 : 14535.52,
             front ? 22460.01 : 35025.35,
             front ? 5896.52 : 8537.43,
             front ? 60068.48 : 63921.27};
  a.bump_stop_length = 0.15;
  a.rebound_stop_length = front ? 0.30 : 0.35;
}

}  // namespace

VehicleDefinition hmmwv_vehicle() {
  VehicleDefinition v{};
  v.name = "HMMWV";
  v.chassis_mass = 2086.52;
  v.chassis_com = {0.056, 0.0, 0.213};
  v.chassis_inertia = {1078.52, 2955.66, 3570.20, 0.0, 0.0, 0.0};
  // Left side, suspension frame [m].
  DoubleWishboneHardpoints<double>& f = v.front.hardpoints;
  f.wheel_centre = {-0.040386, 0.909701, -0.026289};
  f.upright_com = {-0.040386, 0.751014, -0.026289};
  f.uca_front = {-0.047915, 0.445960, 0.244622};
  f.uca_back = {-0.268214, 0.477736, 0.195560};
  f.uca_ball = {-0.053035, 0.715518, 0.215494};
  f.uca_com = {-0.105537, 0.588670, 0.217805};
  f.lca_front = {0.223266, 0.307086, 0.0};
  f.lca_back = {-0.223266, 0.307086, 0.0};
  f.lca_ball = {-0.035560, 0.786511, -0.118110};
  f.lca_com = {0.0, 0.546811, -0.059055};
  f.shock_chassis = {0.104013, 0.497789, 0.323139};
  f.shock_arm = {0.097206, 0.543179, -0.046609};
  f.spring_chassis = {0.104013, 0.509778, 0.197485};
  f.spring_arm = {0.097206, 0.543179, -0.046609};
  f.tierod_inner = {-0.250317, 0.448437, 0.054229};
  f.tierod_outer = {-0.175819, 0.821106, -0.016332};
  DoubleWishboneHardpoints<double>& r = v.rear.hardpoints;
  r.wheel_centre = {0.035560, 0.909701, -0.026289};
  r.upright_com = {0.035560, 0.751014, -0.026289};
  r.uca_front = {0.349110, 0.462257, 0.227594};
  r.uca_back = {0.077102, 0.462049, 0.223764};
  r.uca_ball = {0.035560, 0.715518, 0.215900};
  r.uca_com = {0.124333, 0.588848, 0.220777};
  r.lca_front = {0.223266, 0.307086, 0.0};
  r.lca_back = {-0.223266, 0.307086, 0.0};
  r.lca_ball = {0.035560, 0.786511, -0.118110};
  r.lca_com = {0.0, 0.546786, -0.059055};
  r.shock_chassis = {-0.104013, 0.497789, 0.323139};
  r.shock_arm = {-0.097206, 0.543941, -0.038379};
  r.spring_chassis = {-0.104013, 0.501574, 0.256489};
  r.spring_arm = {-0.097206, 0.543179, -0.046609};
  r.tierod_inner = {0.223266, 0.416052, 0.058674};
  r.tierod_outer = {0.170282, 0.821106, -0.009271};
  v.front.x = 1.688965;
  v.rear.x = -1.688965;
  hmmwv_axle(v.front, true);
  hmmwv_axle(v.rear, false);
  // Chrono's HMMWV_PitmanArm: mechanism frame at (1.24498, 0, 0.101322) on the chassis, rotated
  // 18.5 deg about y; a parallelogram (Pitman and idler arms 0.129 m, link 0.574 m), so the
  // link translates on a circle without turning. The tierod inner points ride on the link at
  // the suspension's TIEROD_C (as Chrono attaches them).
  v.steering.origin = {1.24498, 0.0, 0.101322};
  v.steering.pitch = deg_to_rad(18.5);
  v.steering.pitman_pivot = {0.0, 0.249, 0.0};
  v.steering.pitman_link = {0.129, 0.249, 0.0};
  v.steering.idler_pivot = {0.0, -0.325, 0.0};
  v.steering.idler_link = {0.129, -0.325, 0.0};
  v.steering.max_angle = deg_to_rad(30.0);
  v.steering_link_mass = 3.681;
  v.pitman_arm_mass = 1.605;
  v.steer_time_constant = 0.01;
  v.spindle = {14.705, 0.07352, 0.04117};
  v.rim = {18.8, 0.6243, 0.4634};
  v.tire_body = {37.6, 6.69, 3.84};
  const double stop_pen[kStopTablePoints] = {0.0, 0.01, 0.02, 0.03, 0.04, 0.05, 0.06};
  const double stop_force[kStopTablePoints] = {0.0, 1000.0, 2500.0, 4500.0, 7500.0, 12500.0, 125000.0};
  for (int i = 0; i < kStopTablePoints; ++i) {
    v.stop_table_pen[i] = stop_pen[i];
    v.stop_table_force[i] = stop_force[i];
  }
  VehicleCommon<double>& c = v.common;
  // 6.5 L turbo-diesel V8: 190 hp, 380 lb ft; one fixed reduction standing in for the gearbox,
  // chosen so the governed speed (3600 rpm) is reached at about 100 km/h.
  c.engine_peak_torque = 515.0;
  c.engine_peak_power = 142.0e3;
  c.engine_max_speed = 3600.0 * 2.0 * kPi / 60.0;
  c.driveline_ratio = 6.0;
  c.driveline_efficiency = 0.85;
  c.front_torque_split = 0.5;
  // Brakes sized for about 0.8 g with a front bias; inboard, so they react on the chassis.
  c.brake_torque_front = 3000.0;
  c.brake_torque_rear = 2000.0;
  c.wheel_lock_time = 0.01;
  c.gravity = 9.81;
  c.tire = hmmwv_tire_params<double>();
  // Body box from the public dimensions (M998: width 2.16 m, height 1.83 m, ground clearance
  // 0.41 m). It spans the wheelbase only: the bumpers' undersides sit far above the ground
  // (approach angle 72 deg, departure 37.5 deg), so a rollover lands on the body between the axles
  // and on the roof above them. The roof's half width (the cab narrows above the fenders) is
  // estimated. Contact: 5e5 N/m per corner sinks the 2.6 t vehicle on its side (two corners) by
  // ~2.5 cm; the damping is about critical for a corner's share of the body at that depth; painted
  // steel on asphalt or soil, mu 0.6.
  c.body_front_overhang = 0.0;
  c.body_rear_overhang = 0.0;
  c.body_half_width = 1.08;
  c.roof_half_width = 0.9;
  c.body_bottom_height = 0.41;
  c.body_roof_height = 1.83;
  c.body_contact_stiffness = 5.0e5;
  c.body_contact_damping = 2.0e6;
  c.body_mu = 0.6;
  // Chrono's free lengths leave the design position 5 cm (front) and 10 cm (rear) in droop.
  v.balance_springs_at_design = true;
  return v;
}

SuspensionDesign suspension_design(const VehicleDefinition& v) {
  return SuspensionDesign{v.front.hardpoints, v.rear.hardpoints, v.front.x, v.rear.x, v.steering};
}

}  // namespace fleetdyn
