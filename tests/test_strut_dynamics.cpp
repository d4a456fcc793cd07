// Strut model in motion: ballistic flight, the loop, gyroscopic coupling, roll gradient.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <string>
#include <tuple>
#include <vector>

#include "fleetdyn/physics/core/math.h"
#include "fleetdyn/suspension.h"
#include "tests/strut_test_util.h"

namespace fleetdyn {
namespace {

using test::cpu_options;

// Test 3: ballistic. Launched upward, while all four wheels are off the ground the whole
// vehicle's momentum changes at exactly m g (internal forces cancel), and once the suspension
// has come to rest against its rebound stops the chassis itself falls at g within 1 %.
TEST(StrutDynamics, BallisticFlightAcceleratesAtG) {
  const StrutParams<double> p = hmmwv_params();
  Batch batch({p}, 1, TerrainSpec{}, cpu_options());
  std::vector<double> s = test::vehicle_state(batch, 0);
  s[strut::kPos + 2] += 0.5;
  s[strut::kVel + 2] = 4.0;
  batch.set_vehicle_state(0, s);
  const double dt = 1e-3;
  std::vector<double> chassis_vz;  // while airborne
  Vec3<double> momentum_prev = test::total_momentum(p, s);
  int airborne_steps = 0;
  for (int k = 0; k < 3000; ++k) {
    batch.step(1);
    const std::vector<double> now = test::vehicle_state(batch, 0);
    const StrutDiagnostics<double> d = batch.diagnostics(0);
    if (test::sum_normal_force(d) > 0.0) {
      if (airborne_steps > 0) break;  // landed
      continue;
    }
    // The diagnostics are for the state after the step; the step itself was airborne when
    // both ends are (the vehicle only rises then falls).
    const Vec3<double> momentum = test::total_momentum(p, now);
    if (airborne_steps > 0) {
      const double dpz_dt = (momentum.z - momentum_prev.z) / dt;
      EXPECT_NEAR(dpz_dt, -p.total_mass * p.gravity, 1e-6 * p.total_mass * p.gravity) << "step " << k;
    }
    momentum_prev = momentum;
    chassis_vz.push_back(now[strut::kVel + 2]);
    ++airborne_steps;
  }
  ASSERT_GT(airborne_steps, 700);  // ~0.9 s of flight
  // Chassis acceleration over the last 0.3 s of flight, by finite differences.
  const int m = static_cast<int>(chassis_vz.size());
  const double accel = (chassis_vz[m - 1] - chassis_vz[m - 301]) / (300 * dt);
  EXPECT_NEAR(accel, -p.gravity, 0.01 * p.gravity);
}

// Test 4: the loop. The critical speed at the loop's bottom for a point mass on a radius-R loop
// is sqrt(5 g R) (v_top^2 = g R at the top); the COM runs on a radius about cg_height smaller.
// Heading along the helix (a geodesic of the cylinder) the vehicle needs no steering.
struct LoopRun {
  double max_height;                 // [m] highest COM
  bool completed;                    // back on the runway past the loop, upright, moving +x
  bool left_surface_on_wall;         // all four wheels off while above the loop's axis height
  bool contact_without_penetration;  // a tire force with the wheel off the surface (must not happen)
  int status;
};

LoopRun run_loop(double speed_factor) {
  StrutParams<double> p = hmmwv_params();
  TerrainSpec terrain = test::terrain_of(TerrainKind::Loop);
  terrain.desc.loop_x = 30.0;
  terrain.desc.loop_radius = 8.0;
  const double r = terrain.desc.loop_radius;
  const double v_crit = std::sqrt(5.0 * p.gravity * r);
  const double yaw = std::atan2(terrain.desc.loop_lateral_shift, 2.0 * kPi * r);
  Batch batch({p}, 1, terrain, cpu_options());
  // Start on the entry lane so the vehicle crosses the loop bottom at y = 0 (the exit lane lies
  // beside it at y = lateral_shift and already rises there as the back wall).
  const double y0 = -terrain.desc.loop_x * std::tan(yaw);
  batch.set_initial_conditions({{0.0, y0, yaw, speed_factor * v_crit}});
  LoopRun run{0.0, false, false, false, 0};
  for (int k = 0; k < 8000; ++k) {
    batch.step(1);
    const VehicleSnapshot snap = batch.snapshots()[0];
    run.max_height = std::max(run.max_height, snap.position[2]);
    const StrutDiagnostics<double> d = batch.diagnostics(0);
    const std::array<TerrainContact<double>, kCorners> contacts = test::wheel_contacts(batch, terrain.desc);
    for (int i = 0; i < kCorners; ++i) {
      if (penetration(contacts[static_cast<size_t>(i)], p.tire.unloaded_radius) <= 0.0 && d.tire_normal_force[i] != 0.0)
        run.contact_without_penetration = true;
    }
    if (test::sum_normal_force(d) == 0.0 && snap.position[2] > r) run.left_surface_on_wall = true;
    if (snap.status != kStatusRunning) break;
    if (snap.position[0] > terrain.desc.loop_x + 15.0 && snap.position[2] < 1.5 && snap.velocity[0] > 0.0 &&
        std::fabs(snap.euler[0]) < 0.3 && std::fabs(snap.euler[1]) < 0.3 && run.max_height > 2.0 * r - 1.0) {
      run.completed = true;
      break;
    }
  }
  run.status = batch.snapshots()[0].status;
  return run;
}

TEST(StrutDynamics, FastVehicleCompletesLoop) {
  const LoopRun run = run_loop(1.25);
  EXPECT_EQ(run.status, kStatusRunning);
  EXPECT_TRUE(run.completed);
  EXPECT_GT(run.max_height, 2.0 * 8.0 - 1.0);  // went over the top (COM ~0.7 m below the track)
  EXPECT_FALSE(run.left_surface_on_wall);
  EXPECT_FALSE(run.contact_without_penetration);
}

// Below the critical speed but with v^2 > 2 g R (0.63 v_crit), the vehicle climbs past the
// axis height, where the wall overhangs, runs out of the speed that presses it on, leaves the
// surface and falls (slower, it would only swing back down like a pendulum).
TEST(StrutDynamics, SlowVehicleLeavesLoopSurfaceAndFalls) {
  const LoopRun run = run_loop(0.8);
  EXPECT_FALSE(run.completed);
  EXPECT_LT(run.max_height, 2.0 * 8.0 - 2.0);  // never reached the top
  EXPECT_TRUE(run.left_surface_on_wall);       // separated from the wall and fell
  EXPECT_FALSE(run.contact_without_penetration);
}

// Test 8: gyroscopic coupling. Airborne (no gravity, far above ground), a yaw rate with the
// wheels spinning rolls the body: the body supplies omega x H to turn the wheels' spin momentum
// H = 4 I_s w_s (lateral), so it feels a roll moment -omega x H = +4 I_s w_s Omega_z about x.
// With the wheels still, nothing couples yaw into roll.
double roll_rate_after_yaw(double wheel_spin, double* roll_accel_expected) {
  StrutParams<double> p = hmmwv_params();
  p.gravity = 0.0;
  // Without dampers the wheels follow the rolling body only laterally (stiff bushings), not
  // vertically (soft springs, negligible over 20 ms), which makes the prediction clean.
  p.damping_bump_front = p.damping_rebound_front = p.damping_bump_rear = p.damping_rebound_rear = 0.0;
  finalize_vehicle_params(p);
  Batch batch({p}, 1, TerrainSpec{}, cpu_options());
  std::vector<double> s = test::vehicle_state(batch, 0);
  const double yaw_rate = 1.0;
  s[strut::kPos + 2] += 10.0;
  s[strut::kOmega + 2] = yaw_rate;
  for (int i = 0; i < kCorners; ++i) {
    s[strut::kWheelSpin + i] = wheel_spin;
    // Wheels move with the rotating body: v_rel = omega x r.
    const Vec3<double> r = test::vec_at(s, strut::kUnsprungPos + 3 * i);
    const Vec3<double> v = cross(Vec3<double>{0.0, 0.0, yaw_rate}, r);
    s[strut::kUnsprungVel + 3 * i] = v.x;
    s[strut::kUnsprungVel + 3 * i + 1] = v.y;
    s[strut::kUnsprungVel + 3 * i + 2] = v.z;
  }
  batch.set_vehicle_state(0, s);
  // Roll inertia the moment sees at first: body + the wheel particles' lateral motion (lever z).
  double inertia = p.body_inertia_xx;
  for (int i = 0; i < kCorners; ++i) inertia += p.unsprung_mass[i] * sq(p.wheel_attach[i].z);
  *roll_accel_expected = 4.0 * p.wheel_spin_inertia * wheel_spin * yaw_rate / inertia;
  batch.step(20);  // 20 ms
  return test::vehicle_state(batch, 0)[strut::kOmega];
}

TEST(StrutDynamics, GyroscopicWheelSpinCouplesYawToRoll) {
  double expected_accel = 0.0;
  const double spinning = roll_rate_after_yaw(50.0, &expected_accel);
  const double expected_rate = expected_accel * 0.020;
  EXPECT_GT(spinning, 0.0);
  EXPECT_NEAR(spinning, expected_rate, 0.03 * expected_rate);
  // Still wheels: only the vehicle's small product of inertia (front and rear wheels sit at
  // different distances from the COM) couples yaw into roll, orders of magnitude less.
  const double still = roll_rate_after_yaw(0.0, &expected_accel);
  EXPECT_LT(std::fabs(still), 1e-4 * spinning);
}

// Test 7: roll gradient in steady cornering against an estimate from the suspension design
// itself (ce's closed-form kinematics of the HMMWV's double wishbones and spring, not strut's
// curves) and the vehicle's mass data. Per axle, from the kinematics at design:
//   - force roll centre h_rc = s_c t/2, s_c the outward motion per unit bump of the contact point
//     as a point of the wheel carrier (wheel-centre path plus loaded radius times camber gain):
//     the tire's lateral forces reach the body through the links as if applied there;
//   - kinematic roll axis h_k = h_u + s_w t/2, s_w the wheel centre's outward motion per bump: the
//     axis about which the body turns relative to the wheel centres (which the tires hold), so
//     the body COM shifts by (h_s - h_k) phi_s when the springs deflect by phi_s;
//   - wheel rate of the progressive coil at design, k = k_w + F_0 (dMR/dz) / MR_0 (MR = -dl/dz of
//     the spring's hardpoints; the coil is the one the preset's wheel rate and static load
//     define), K_s = sum k t^2/2; tires K_t = sum k_t t^2/2.
// Moment balances per unit a_y, H = sum m h over body and wheels, G = 4 I_s / r_w the wheels'
// gyroscopic roll moment: the body's moment about the ground, with each tire's moment about its
// wheel centre reaching the body and the links carrying the geometric part (the lateral force of
// the bushings, F_y - m_u a_y, on the wheel-centre path, and the whole F_y through the camber
// gain), leaves on the springs
//   K_s phi_s = H + G - h_rc m + (h_k - h_u) sum m_u + m_s g ((h_s - h_k) phi_s + h_s phi_t);
// the whole vehicle's moment about the ground puts on the tires
//   K_t phi_t = H + G + g (m_s (h_s - h_k) phi_s + H phi_t);
// phi = phi_s + phi_t. With straight paths (linkage_geometry = 0) s_c = s_w = 0. Left out: tire
// lateral compliance, the jacking of the two sides' different forces (about 1 %); band 3 %.
double roll_gradient_estimate(const StrutParams<double>& p, bool linkage) {
  const CeSuspension<double> susp = make_ce_suspension(hmmwv_suspension_design());
  double roll_centre[2], kinematic_axis[2], wheel_rate[2], unsprung_moment = 0.0;
  for (int axle = 0; axle < 2; ++axle) {
    const int i = 2 * axle;  // the left corner: outward is +y
    const double wheel_height = p.cg_height + p.wheel_attach[i].z;
    auto at = [&](double travel) { return corner_kinematics(susp, i, lca_angle_for_travel(susp, i, travel, 0.0), 0.0); };
    auto contact_y = [&](double travel) {  // the wheel disc's lowest point at the loaded radius
      const CornerPose<double> pose = at(travel).pose;
      const Vec3<double> a = pose.spin_axis;
      const Vec3<double> down = normalized_or(Vec3<double>{0.0, 0.0, -1.0} + a.z * a, Vec3<double>{0.0, 0.0, -1.0});
      return pose.wheel_centre.y + wheel_height * down.y;
    };
    auto motion_ratio = [&](double travel) {
      const CornerKinematics k = at(travel);
      return -k.per_lca_rate.spring_rate / k.per_lca_rate.wheel_centre_vel.z;
    };
    const double h = 1e-3, half_track = 0.5 * (axle == 0 ? p.track_front : p.track_rear);
    const double contact_slope = linkage ? (contact_y(h) - contact_y(-h)) / (2.0 * h) : 0.0;
    const double centre_slope = linkage ? (at(h).pose.wheel_centre.y - at(-h).pose.wheel_centre.y) / (2.0 * h) : 0.0;
    roll_centre[axle] = contact_slope * half_track;
    kinematic_axis[axle] = wheel_height + centre_slope * half_track;
    wheel_rate[axle] = p.wheel_rate[i] +
                       p.strut_preload[i] * (motion_ratio(h) - motion_ratio(-h)) / (2.0 * h) / motion_ratio(0.0);
    unsprung_moment += 2.0 * p.unsprung_mass[i] * (kinematic_axis[axle] - wheel_height);
  }
  const double wheelbase = p.cg_to_front_axle + p.cg_to_rear_axle;
  auto at_com = [&](const double* v) { return (v[0] * p.cg_to_rear_axle + v[1] * p.cg_to_front_axle) / wheelbase; };
  const double h_rc = at_com(roll_centre), h_k = at_com(kinematic_axis);
  double springs = 0.0, tires = 0.0, height_moment = p.body_mass * p.cg_height;
  for (int axle = 0; axle < 2; ++axle) {
    const double track = axle == 0 ? p.track_front : p.track_rear;
    springs += wheel_rate[axle] * track * track / 2.0;
    tires += p.tire.vertical_stiffness * track * track / 2.0;
  }
  for (int i = 0; i < kCorners; ++i) height_moment += p.unsprung_mass[i] * (p.cg_height + p.wheel_attach[i].z);
  const double gyro = 4.0 * p.wheel_spin_inertia / tire_rolling_radius(p.tire, p.static_tire_load[0]);
  const double g = p.gravity, ms = p.body_mass, hs = p.cg_height;
  // [a11 a12; a21 a22] (phi_s, phi_t) = (b1, b2)
  const double a11 = springs - ms * g * (hs - h_k), a12 = -ms * g * hs;
  const double a21 = -ms * g * (hs - h_k), a22 = tires - g * height_moment;
  const double b1 = height_moment + gyro - h_rc * p.total_mass + unsprung_moment, b2 = height_moment + gyro;
  const double det = a11 * a22 - a12 * a21;
  const double on_springs = (b1 * a22 - a12 * b2) / det, on_tires = (a11 * b2 - a21 * b1) / det;
  std::printf("roll centre %.4f m, kinematic axis %.4f m, K_s %.0f N m/rad, K_t %.0f N m/rad\n", h_rc, h_k, springs, tires);
  return (on_springs + on_tires) * g * 180.0 / kPi;
}

// Roll against lateral acceleration at 10 to 16 m/s with 1.5 deg of steer (coasting), slope
// through the origin [deg/g].
double measured_roll_gradient(const StrutParams<double>& p) {
  const std::vector<double> speeds = {10.0, 12.0, 14.0, 16.0};
  const int n = static_cast<int>(speeds.size());
  Batch batch({p}, n, TerrainSpec{}, cpu_options());
  std::vector<InitialCondition> ic;
  for (double v : speeds) ic.push_back({0.0, 0.0, 0.0, v});
  batch.set_initial_conditions(ic);
  batch.set_maneuvers({{{0.0, 0.0, 0.0, 0.0}, {0.5, 0.05, 0.0, 0.0}}});
  batch.step(6000);
  double sxy = 0.0, sxx = 0.0;
  const std::vector<VehicleSnapshot> snaps = batch.snapshots();
  for (int v = 0; v < n; ++v) {
    const StrutDiagnostics<double> d = batch.diagnostics(v);
    const Quat<double> q = quat_from_euler_zyx(snaps[v].euler[0], snaps[v].euler[1], snaps[v].euler[2]);
    const double ay = mul_transpose(rotation_matrix(q), d.chassis_accel).y;
    EXPECT_GT(ay, 0.3) << "vehicle " << v << " is not cornering";
    EXPECT_LT(ay, 0.3 * p.gravity) << "vehicle " << v << " is beyond the linear range";
    sxy += snaps[v].euler[0] * ay;  // roll positive right-down
    sxx += ay * ay;
  }
  return (sxy / sxx) * p.gravity * 180.0 / kPi;
}

TEST(StrutDynamics, RollGradientMatchesTheLinkageEstimate) {
  StrutParams<double> straight = hmmwv_params();
  straight.linkage_geometry = 0.0;
  finalize_vehicle_params(straight);
  for (const auto& [name, p, linkage] : {std::tuple<const char*, StrutParams<double>, bool>{"linkage", hmmwv_params(), true},
                                         {"straight paths", straight, false}}) {
    const double estimate = roll_gradient_estimate(p, linkage), measured = measured_roll_gradient(p);
    std::printf("%s: roll gradient measured %.4f deg/g, estimate %.4f deg/g (%+.2f %%)\n", name, measured, estimate,
                100.0 * (measured / estimate - 1.0));
    RecordProperty(std::string("roll_gradient_deg_per_g_") + (linkage ? "linkage" : "straight"),
                   std::to_string(measured) + " / " + std::to_string(estimate));
    EXPECT_NEAR(measured, estimate, 0.03 * estimate) << name;
  }
}

}  // namespace
}  // namespace fleetdyn
