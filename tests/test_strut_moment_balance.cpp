// The strut vehicle in steady cornering obeys the whole vehicle's moment balance about the
// ground: the tires' normal forces carry the roll moment of every mass's weight and inertia force
// at its actual height and lateral position, plus the gyroscopic moment of the spinning wheels and
// the turning body. With the tire force acting at the wheel centre instead of the contact patch
// (tire_force_at_contact = 0, the plain seed-004 strut) the lateral force's lever (the loaded
// radius, 70 % of the HMMWV's centre-of-mass height) is lost, and so is most of the load
// transfer: the same check fails there.
// On soft soil the same balance holds with the soil's lateral force acting where it acts: on the
// contact arc and the immersed side face, between the soil surface and the wheel's lowest point.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "fleetdyn/physics/core/math.h"
#include "fleetdyn/physics/core/soil_bekker.h"
#include "fleetdyn/physics/strut/strut_initial.h"
#include "tests/handling_test_util.h"

namespace fleetdyn {
namespace {

using test::Sample;

constexpr double kDeg = kPi / 180.0;

struct Balance {
  double measured;   // [N m] roll moment of the normal forces about the ground axis below the COM
  double predicted;  // [N m] what the masses' weights, inertia forces and gyroscopic terms demand
  double simple;     // [N m] m a_y h with h the whole vehicle's COM height at rest
};

// Moments about the horizontal heading axis through the ground point O below the body COM, for
// the state `s` in steady circular motion (every point accelerates as Omega x v, Omega the yaw
// rate about world z; every angular momentum turns at Omega):
//   sum_i (c_i - O) x F_i + sum_k (r_k - O) x m_k (g - Omega x v_k) - Omega x H = 0,
// c_i the contact points (below the wheel centres on flat ground), F_i the tire forces, k over the
// body and the four wheel particles, H the body's and the wheels' spin angular momentum. The
// tangential tire forces act in the ground plane through O and have no moment about the heading
// axis, so the normal forces alone must carry the rest.
Balance balance_at(const StrutParams<double>& p, const double* s, const StrutDiagnostics<double>& d) {
  using namespace strut;
  const Mat3<double> rot = rotation_matrix(normalized(load_quat(s, kQuat)));
  const Vec3<double> body = load3(s, kPos), body_vel = load3(s, kVel);
  const Vec3<double> omega_world = rot * load3(s, kOmega);
  const Vec3<double> yaw{0.0, 0.0, omega_world.z};
  const Vec3<double> origin{body.x, body.y, 0.0};
  const double heading_norm = std::hypot(rot.m[0][0], rot.m[1][0]);
  const Vec3<double> heading{rot.m[0][0] / heading_norm, rot.m[1][0] / heading_norm, 0.0};
  const Vec3<double> g{0.0, 0.0, -p.gravity};
  auto mass_moment = [&](double m, Vec3<double> r, Vec3<double> v) { return cross(r - origin, m * (g - cross(yaw, v))); };
  Vec3<double> masses = mass_moment(p.body_mass, body, body_vel);
  Vec3<double> normal{0.0, 0.0, 0.0};
  const Vec3<double> w = load3(s, kOmega);
  Vec3<double> momentum = rot * Vec3<double>{p.body_inertia_xx * w.x, p.body_inertia_yy * w.y, p.body_inertia_zz * w.z};
  double height_moment = p.body_mass * p.cg_height;
  for (int i = 0; i < kCorners; ++i) {
    const Vec3<double> wheel = body + load3(s, kUnsprungPos + 3 * i);
    masses += mass_moment(p.unsprung_mass[i], wheel, body_vel + load3(s, kUnsprungVel + 3 * i));
    normal += cross(Vec3<double>{wheel.x, wheel.y, 0.0} - origin, Vec3<double>{0.0, 0.0, d.tire_force[i].z});
    momentum += (p.wheel_spin_inertia * s[kWheelSpin + i]) * rot.col(1);
    height_moment += p.unsprung_mass[i] * (p.cg_height + p.wheel_attach[i].z);
  }
  const double speed = std::hypot(body_vel.x, body_vel.y);
  return {dot(normal, heading), -dot(masses - cross(yaw, momentum), heading), height_moment * speed * omega_world.z};
}

Balance steady_balance(const StrutParams<double>& p, double speed, double angle) {
  const test::Driver driver = [&](double t, double v) {
    return test::DriverCommand{angle * std::fmin(1.0, t / 0.5), test::hold_speed(speed, v), 0.0};
  };
  Balance sum{0.0, 0.0, 0.0};
  int n = 0;
  test::run_strut(p, speed, 10.0, driver, 1, nullptr, [&](const Sample& x, const double* s, const StrutDiagnostics<double>& d) {
    if (x.t < 8.0) return;
    const Balance b = balance_at(p, s, d);
    sum.measured += b.measured;
    sum.predicted += b.predicted;
    sum.simple += b.simple;
    ++n;
  });
  return {sum.measured / n, sum.predicted / n, sum.simple / n};
}

// The same balance at any instant of any motion (d'Alembert): each mass's acceleration and the
// angular momenta's rate from central differences of the states one step before and after.
Balance dynamic_balance_at(const StrutParams<double>& p, const double* before, const double* s, const double* after,
                           double step, const StrutDiagnostics<double>& d) {
  using namespace strut;
  const auto rate = [&](Vec3<double> a, Vec3<double> b) { return (b - a) * (1.0 / (2.0 * step)); };
  const auto momentum = [&](const double* x) {
    const Mat3<double> r = rotation_matrix(normalized(load_quat(x, kQuat)));
    const Vec3<double> w = load3(x, kOmega);
    Vec3<double> h = r * Vec3<double>{p.body_inertia_xx * w.x, p.body_inertia_yy * w.y, p.body_inertia_zz * w.z};
    for (int i = 0; i < kCorners; ++i) h += (p.wheel_spin_inertia * x[kWheelSpin + i]) * r.col(1);
    return h;
  };
  const Mat3<double> rot = rotation_matrix(normalized(load_quat(s, kQuat)));
  const Vec3<double> body = load3(s, kPos);
  const Vec3<double> origin{body.x, body.y, 0.0};
  const double heading_norm = std::hypot(rot.m[0][0], rot.m[1][0]);
  const Vec3<double> heading{rot.m[0][0] / heading_norm, rot.m[1][0] / heading_norm, 0.0};
  const Vec3<double> lateral{-heading.y, heading.x, 0.0};
  const Vec3<double> g{0.0, 0.0, -p.gravity};
  const Vec3<double> body_accel = rate(load3(before, kVel), load3(after, kVel));
  Vec3<double> masses = cross(body - origin, p.body_mass * (g - body_accel));
  Vec3<double> normal{0.0, 0.0, 0.0};
  double height_moment = p.body_mass * p.cg_height;
  for (int i = 0; i < kCorners; ++i) {
    const Vec3<double> wheel = body + load3(s, kUnsprungPos + 3 * i);
    const Vec3<double> accel = body_accel + rate(load3(before, kUnsprungVel + 3 * i), load3(after, kUnsprungVel + 3 * i));
    masses += cross(wheel - origin, p.unsprung_mass[i] * (g - accel));
    normal += cross(Vec3<double>{wheel.x, wheel.y, 0.0} - origin, Vec3<double>{0.0, 0.0, d.tire_force[i].z});
    height_moment += p.unsprung_mass[i] * (p.cg_height + p.wheel_attach[i].z);
  }
  const Vec3<double> momentum_rate = rate(momentum(before), momentum(after));
  return {dot(normal, heading), -dot(masses - momentum_rate, heading), std::fabs(height_moment * dot(body_accel, lateral))};
}

// Flat ground that is soil everywhere.
TerrainDesc<double> soil_everywhere(SoilPreset preset) {
  TerrainDesc<double> t = test::flat_ground();
  t.soil_region = 1;
  t.soil = soil_preset<double>(preset);
  t.soil_x_min = t.soil_y_min = -HUGE_VAL;
  t.soil_x_max = t.soil_y_max = HUGE_VAL;
  t.soil_slip_speed = 0.5;
  return t;
}

// A sideways slide on soil, brakes locked, wheels straight: the vehicle starts to the left at
// `speed` and the soil's lateral forces (shear and bulldozing) stop it. The balance above holds
// except for the lateral forces' moment about the ground: each acts somewhere between the soil
// surface and its wheel's lowest point, so by at most sum |F_y,i| z_i (z_i the sinkage, R0 less
// the wheel centre's height). At the wheel centres the forces would miss sum |F_y,i| (R0 - z_i)
// more. Means over the slide, while it still slides faster than 0.3 m/s.
struct SlideBalance {
  Balance b;
  double depth_bound;  // [N m] sum |F_y,i| z_i
  double centre_arm;   // [N m] sum |F_y,i| (R0 - z_i)
  int samples;
};

SlideBalance slide_balance_on_soil(const StrutParams<double>& p, double speed, SoilPreset preset) {
  using namespace strut;
  const TerrainDesc<double> ground = soil_everywhere(preset);
  const IntegratorSettings<double> integ{strut_default_step(p), 1, true};
  std::vector<double> s(kStrutStateSize), next(kStrutStateSize);
  double ox = 0.0, oy = 0.0;
  strut_initial_state(p, ground, 0.0, 0.0, 0.0, 0.0, s.data(), &ox, &oy);
  s[kVel + 1] = speed;  // to the left
  const DriverInput<double> locked{0.0, 0.0, 1.0};
  std::vector<std::vector<double>> states;
  std::vector<StrutDiagnostics<double>> diags;
  while (states.size() < 2 || load3(states.back().data(), kVel).y > 0.3) {
    StrutDiagnostics<double> diag{};
    strut_step(p, ground, 0.0, 0.0, integ, locked, s.data(), next.data(), &diag);
    states.push_back(s);
    diags.push_back(diag);
    s.swap(next);
    if (states.size() > 20000) break;  // 20 s: it does not stop
  }
  SlideBalance sum{{0.0, 0.0, 0.0}, 0.0, 0.0, 0};
  for (size_t k = 1; k + 1 < states.size(); ++k) {
    const double* x = states[k].data();
    const Balance b = dynamic_balance_at(p, states[k - 1].data(), x, states[k + 1].data(), integ.step, diags[k]);
    sum.b.measured += b.measured;
    sum.b.predicted += b.predicted;
    sum.b.simple += b.simple;
    for (int i = 0; i < kCorners; ++i) {
      const double centre_z = load3(x, kPos).z + load3(x, kUnsprungPos + 3 * i).z;
      const double sinkage = std::fmax(0.0, p.tire.unloaded_radius - centre_z);
      const double fy = std::fabs(diags[k].tire_force[i].y);
      sum.depth_bound += fy * sinkage;
      sum.centre_arm += fy * (p.tire.unloaded_radius - sinkage);
    }
    ++sum.samples;
  }
  const double n = std::max(1, sum.samples);
  return {{sum.b.measured / n, sum.b.predicted / n, sum.b.simple / n}, sum.depth_bound / n, sum.centre_arm / n, sum.samples};
}

// HMMWV preset, 2, 4 and 6 deg of road-wheel angle at 10 and 20 m/s (0.1 to 0.65 g): the normal
// forces' moment within 3 % of m a_y h of what the balance demands.
TEST(StrutMomentBalance, SteadyCorneringLoadTransferBalancesTheMomentAboutTheGround) {
  const StrutParams<double> p = hmmwv_params();
  for (double speed : {10.0, 20.0}) {
    for (double angle_deg : {2.0, 4.0, 6.0}) {
      const Balance b = steady_balance(p, speed, angle_deg * kDeg);
      const double track = 0.5 * (p.track_front + p.track_rear);
      std::printf(
          "%4.1f m/s %3.1f deg: load transfer (dFz_front + dFz_rear)/2 measured %.1f N, from the moment balance "
          "%.1f N (%+.2f %% of m a_y h / t = %.1f N)\n",
          speed, angle_deg, -0.5 * b.measured / track, -0.5 * b.predicted / track,
          100.0 * (b.measured - b.predicted) / b.simple, 0.5 * b.simple / track);
      EXPECT_GT(b.simple, 1000.0);  // a real turn
      EXPECT_NEAR(b.measured, b.predicted, 0.03 * b.simple) << speed << " m/s, " << angle_deg << " deg";
    }
  }
}

// The check can fail: the plain seed-004 strut (tire force at the wheel centre) carries only the
// part of the moment above the wheel centres.
TEST(StrutMomentBalance, TireForceAtTheWheelCentreMissesTheLoadTransfer) {
  StrutParams<double> p = hmmwv_params();
  p.tire_force_at_contact = 0.0;
  finalize_vehicle_params(p);
  const Balance b = steady_balance(p, 20.0, 4.0 * kDeg);
  std::printf("tire force at the wheel centre: measured %.0f N m, balance %.0f N m\n", b.measured, b.predicted);
  EXPECT_GT(std::fabs(b.measured - b.predicted), 0.3 * b.simple);
}

// Sliding sideways at 3 m/s on dry sand and on clayey soil: the normal forces carry the balance's
// moment to within the lateral forces' depth in the soil (plus 3 % of m a_y h, the firm-ground
// check's allowance for what is not quite steady), and the check can tell that from forces at the
// wheel centres.
TEST(StrutMomentBalance, SlidingOnSoilTheLateralForcesActBelowTheSurface) {
  const StrutParams<double> p = hmmwv_params();
  for (SoilPreset preset : {SoilPreset::DrySand, SoilPreset::ClayeySoil}) {
    const SlideBalance sb = slide_balance_on_soil(p, 3.0, preset);
    const Balance& b = sb.b;
    std::printf(
        "%s slide: %d samples; normal forces' moment %.0f N m, balance %.0f N m (m a_y h %.0f N m); lateral "
        "forces' depth bound %.0f N m, at the wheel centres they would miss %.0f N m\n",
        soil_preset_name(preset), sb.samples, b.measured, b.predicted, b.simple, sb.depth_bound, sb.centre_arm);
    ASSERT_GT(sb.samples, 200) << soil_preset_name(preset);
    EXPECT_GT(b.simple, 1000.0);  // a real deceleration
    EXPECT_NEAR(b.measured, b.predicted, sb.depth_bound + 0.03 * b.simple) << soil_preset_name(preset);
    // the check can fail: lateral forces at the wheel centres would miss half as much again as it allows
    EXPECT_GT(sb.centre_arm, 1.5 * (sb.depth_bound + 0.03 * b.simple));
  }
}

// ... and fails with the soil's lateral force at the wheel centre (its moments about the centre
// dropped with tire_force_at_contact = 0, as on firm ground).
TEST(StrutMomentBalance, SoilForceAtTheWheelCentreMissesTheLoadTransfer) {
  StrutParams<double> p = hmmwv_params();
  p.tire_force_at_contact = 0.0;
  finalize_vehicle_params(p);
  const SlideBalance sb = slide_balance_on_soil(p, 3.0, SoilPreset::ClayeySoil);
  std::printf("soil force at the wheel centre: measured %.0f N m, balance %.0f N m, depth bound %.0f N m\n",
              sb.b.measured, sb.b.predicted, sb.depth_bound);
  ASSERT_GT(sb.samples, 200);
  EXPECT_GT(std::fabs(sb.b.measured - sb.b.predicted), 2.0 * (sb.depth_bound + 0.03 * sb.b.simple));
}

}  // namespace
}  // namespace fleetdyn
