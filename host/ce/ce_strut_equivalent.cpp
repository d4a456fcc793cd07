// The strut model's lumped parameters for the vehicle a CeParams describes (the cross-model comparison,
// docs/models/ce-cross-model.md): every number is derived from the ce parameters, at the ce rest state on flat ground
// and the ce kinematics at design, so the two models can be compared on the same vehicle.
#include <cmath>
#include <vector>

#include "fleetdyn/ce.h"
#include "fleetdyn/error.h"
#include "fleetdyn/vehicle.h"

namespace fleetdyn {
namespace {

Sym3<double> scaled(const Sym3<double>& s, double k) {
  return {k * s.xx, k * s.yy, k * s.zz, k * s.xy, k * s.xz, k * s.yz};
}
Sym3<double> sum(const Sym3<double>& a, const Sym3<double>& b) {
  return {a.xx + b.xx, a.yy + b.yy, a.zz + b.zz, a.xy + b.xy, a.xz + b.xz, a.yz + b.yz};
}

}  // namespace

StrutParams<double> strut_equivalent_params(const CeParams<double>& p) {
  // Tire, driveline, brakes and gravity: the ce vehicle's. The strut's own fields the ce vehicle
  // does not describe (max_steer, a road-wheel angle; the bushing's link_stiffness and
  // link_damping_ratio): the strut preset's. Every other field is set below.
  StrutParams<double> v = hmmwv_params();
  static_cast<VehicleCommon<double>&>(v) = p;
  // The ce rest state on flat ground (design position, chassis pitched by the tires' different
  // static deflections, a few mrad) and its bodies: every mass at its rest position, world axes.
  const TerrainDesc<double> flat = default_terrain_desc<double>();
  const CeEnvironment<double> env{&flat, 0.0, 0.0};
  const std::vector<double> rest = ce_rest_state(p, 0.0);
  CeCornerBodies<double> corners[kCorners];
  double ds[kCeStateSize];
  ce_derivative(p, env, DriverInput<double>{0.0, 0.0, 0.0}, rest.data(), ds, corners);
  const Mat3<double> rot = rotation_matrix(normalized(load_quat(rest.data(), ce::kQuat)));
  const Vec3<double> origin = load3(rest.data(), ce::kPos);
  auto world = [&](Vec3<double> chassis_point) { return origin + rot * chassis_point; };

  // Masses. Unsprung per corner (as the strut preset does with the arms): wheel (spindle, rim,
  // tire), upright, and half of each link (LCA, UCA, tierod); the other halves ride with the body.
  // The Pitman steering is already part of the ce chassis mass.
  v.total_mass = ce_total_mass(p);
  double unsprung[kCorners];
  for (int i = 0; i < kCorners; ++i) {
    unsprung[i] = p.wheel_mass + p.body_mass[i][kCeUpright] +
                  0.5 * (p.body_mass[i][kCeLca] + p.body_mass[i][kCeUca] + p.body_mass[i][kCeTierod]);
  }
  v.unsprung_mass_front = 0.5 * (unsprung[0] + unsprung[1]);
  v.unsprung_mass_rear = 0.5 * (unsprung[2] + unsprung[3]);
  const double body_mass = v.total_mass - 2.0 * (v.unsprung_mass_front + v.unsprung_mass_rear);

  // Body COM: strut lumps each unsprung mass at its wheel centre, so the body COM is placed where
  // it keeps the WHOLE vehicle's COM (first moment of every ce body at rest) unchanged:
  //   m_body c_body = sum_k m_k r_k - sum_i m_u,i r_wheel,i.
  // This is the chassis plus the link halves at their own COMs, corrected for the unsprung parts
  // (upright, link halves) whose COMs are not at the wheel centre (HMMWV: 0.1 mm in x, 0.9 mm
  // in z against the chassis and link halves alone). Keeping the total COM is what makes the static loads and the
  // steady-state load transfer (m a_y h) the same in both models.
  Vec3<double> moment = p.chassis_mass * world(p.chassis_com);
  Vec3<double> wheel_centre[kCorners];
  for (int i = 0; i < kCorners; ++i) {
    const CeCornerBodies<double>& c = corners[i];
    for (int j = 0; j < kCeAggregateBodies; ++j)
      moment += c.inertia[j].mass * world(c.inertia[j].first_moment * (1.0 / c.inertia[j].mass));
    wheel_centre[i] = world(c.pose.wheel_centre);
    moment += p.wheel_mass * wheel_centre[i];
    moment -= unsprung[i] * wheel_centre[i];
  }
  const Vec3<double> body_com = moment * (1.0 / body_mass);
  // Geometry from the rest wheel centres: axle positions as the mean of left and right, tracks
  // as their lateral distance; height of the body COM above the ground (z = 0).
  v.cg_to_front_axle = 0.5 * (wheel_centre[0].x + wheel_centre[1].x) - body_com.x;
  v.cg_to_rear_axle = body_com.x - 0.5 * (wheel_centre[2].x + wheel_centre[3].x);
  v.track_front = wheel_centre[0].y - wheel_centre[1].y;
  v.track_rear = wheel_centre[2].y - wheel_centre[3].y;
  v.cg_height = body_com.z;

  // Body inertia about the body COM, world axes at rest (the strut body is level at rest): the
  // chassis' own inertia and its parallel-axis term, plus the sprung link halves (half their mass
  // at their COMs and half their own inertia). HMMWV: 1106.5, 3161.1, 3794.9 kg m^2, i.e. 3 %, 7 %
  // and 6 % above Chrono's chassis inertia, which the strut preset uses alone. Strut's body
  // inertia is diagonal: the products (I_xz from the steering mass and the arms) are dropped.
  Sym3<double> inertia = rotate_sym(rot, p.chassis_inertia);
  inertia = parallel_axis(inertia, p.chassis_mass, world(p.chassis_com) - body_com);
  for (int i = 0; i < kCorners; ++i) {
    const CeCornerBodies<double>& c = corners[i];
    for (int j : {kCeLca, kCeUca, kCeTierod}) {
      const double half = 0.5 * p.body_mass[i][j];
      const Vec3<double> com_chassis = c.inertia[j].first_moment * (1.0 / c.inertia[j].mass);
      // c.inertia[j] is about the chassis origin: its rotational part about the body COM is
      // inertia_o minus the point-mass term of its COM.
      Sym3<double> own = c.inertia[j].inertia_o;
      own = parallel_axis(own, -c.inertia[j].mass, com_chassis);
      inertia = sum(inertia, scaled(rotate_sym(rot, own), 0.5));
      inertia = parallel_axis(inertia, half, world(com_chassis) - body_com);
    }
  }
  v.body_inertia_xx = inertia.xx;
  v.body_inertia_yy = inertia.yy;
  v.body_inertia_zz = inertia.zz;
  v.wheel_spin_inertia = p.wheel_spin_inertia;

  // Wheel rates and damping at the wheel. Motion ratios MR = -dL/dz_wheel at design (spring and
  // shock length change per unit vertical wheel-centre travel relative to the chassis), from the
  // ce kinematics (per unit LCA rate, steering still), left corner of each axle (the right one is
  // its mirror image). Wheel rate k MR^2 at design, as specified for the equivalent. ce's actual
  // rate at the static load also has the preloaded spring's geometric term F dMR/dz (MR falls in
  // bump: -7.4 % front, -2.9 % rear for the HMMWV), which makes strut's heave 4 % higher
  // (docs/models/ce-cross-model.md). Damping: the midstroke shock rates
  // (the design shock length lies in the midstroke band) times MR_shock^2. HMMWV: spring MR 0.4517
  // front, 0.4391 rear at the wheel centre (the strut preset's 0.4745 is taken at the lower ball
  // joint); wheel rates 34.09 and 71.17 kN/m.
  CeSuspension<double> suspension;
  for (int i = 0; i < kCorners; ++i) suspension.corner[i] = p.corner[i];
  suspension.steering = p.steering;
  double spring_mr[2], shock_mr[2], spring_length[2];
  for (int axle = 0; axle < 2; ++axle) {
    const CornerKinematics k = corner_kinematics(suspension, 2 * axle, 0.0, 0.0);
    const double dz = k.per_lca_rate.wheel_centre_vel.z;
    if (!(std::fabs(dz) > 1e-9)) throw Error("strut_equivalent_params: the wheel centre does not move with the LCA");
    spring_mr[axle] = -k.per_lca_rate.spring_rate / dz;
    shock_mr[axle] = -k.per_lca_rate.shock_rate / dz;
    spring_length[axle] = k.pose.spring_length;
    const CeAxleForces<double>& a = p.axle[axle];
    if (!(k.pose.shock_length >= a.shock_midstroke_min && k.pose.shock_length <= a.shock_midstroke_max)) {
      throw Error("strut_equivalent_params: the design shock length is outside the midstroke band");
    }
  }
  const CeAxleForces<double>& front = p.axle[0];
  const CeAxleForces<double>& rear = p.axle[1];
  v.wheel_rate_front = front.spring_rate * spring_mr[0] * spring_mr[0];
  v.wheel_rate_rear = rear.spring_rate * spring_mr[1] * spring_mr[1];
  v.damping_bump_front = front.shock_mid_compression * shock_mr[0] * shock_mr[0];
  v.damping_rebound_front = front.shock_mid_rebound * shock_mr[0] * shock_mr[0];
  v.damping_bump_rear = rear.shock_mid_compression * shock_mr[1] * shock_mr[1];
  v.damping_rebound_rear = rear.shock_mid_rebound * shock_mr[1] * shock_mr[1];
  // Stops: the clearances on spring length at design converted to wheel travel by the spring
  // motion ratio (as host/strut/strut_params.cpp does); strut has one stop motion ratio for both
  // axles: the mean of front and rear (HMMWV: 0.4517 front, 0.4391 rear,
  // mean 0.4454). Same force table.
  v.bump_travel_front = (spring_length[0] - front.bump_stop_length) / spring_mr[0];
  v.rebound_travel_front = (front.rebound_stop_length - spring_length[0]) / spring_mr[0];
  v.bump_travel_rear = (spring_length[1] - rear.bump_stop_length) / spring_mr[1];
  v.rebound_travel_rear = (rear.rebound_stop_length - spring_length[1]) / spring_mr[1];
  v.stop_motion_ratio = 0.5 * (spring_mr[0] + spring_mr[1]);
  for (int k = 0; k < kStopTablePoints; ++k) {
    v.stop_table_pen[k] = p.stop_table_pen[k];
    v.stop_table_force[k] = p.stop_table_force[k];
  }
  // The linkage itself: wheel path, camber, toe, Ackermann and coil motion ratio against travel
  // from the same kinematics (seed 004 complete), and the tire force at the contact patch.
  v.tire_force_at_contact = 1.0;
  v.linkage_geometry = 1.0;
  v.progressive_spring = 1.0;
  tabulate_strut_linkage(suspension, v);
  // Tire, engine, driveline, brakes, wheel_lock_time, gravity: p's; max_steer, link stiffness and
  // damping ratio: the strut preset's (copied above).
  finalize_vehicle_params(v);
  return v;
}

}  // namespace fleetdyn
