// Strut model at rest and in free vertical motion.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "fleetdyn/physics/core/math.h"
#include "tests/strut_test_util.h"

namespace fleetdyn {
namespace {

using test::cpu_options;

// Test 1: settled on flat ground, the tires carry the whole weight and the chassis is at rest,
// at the design ride height the preloads were chosen for. With friction the linkage's wheels
// scrub sideways while they settle (the track changes with travel) and the tires' lateral
// deflection then holds part of the load through the path's slope, so the height is checked on a
// frictionless floor, where nothing but the springs can hold the body; and on the straight strut.
void expect_settles(const StrutParams<double>& p, double mu_scale, bool at_design_height) {
  TerrainSpec floor;
  floor.desc.mu_scale = mu_scale;
  Batch batch({p}, 1, floor, cpu_options());
  // Start 5 cm high so settling is a real transient, not the initial condition.
  std::vector<double> s = test::vehicle_state(batch, 0);
  s[strut::kPos + 2] += 0.05;
  batch.set_vehicle_state(0, s);
  batch.step(3000);  // 3 s
  const StrutDiagnostics<double> d = batch.diagnostics(0);
  const double weight = p.total_mass * p.gravity;
  EXPECT_NEAR(test::sum_normal_force(d), weight, 0.005 * weight);
  const VehicleSnapshot snap = batch.snapshots()[0];
  const double speed = std::sqrt(snap.velocity[0] * snap.velocity[0] + snap.velocity[1] * snap.velocity[1] +
                                 snap.velocity[2] * snap.velocity[2]);
  EXPECT_LT(speed, 1e-3);
  if (at_design_height) {
    EXPECT_NEAR(snap.position[2], p.cg_height, 1e-3);
  }
}

TEST(StrutStatic, SettlesOnFlatGroundWithWeightOnTires) {
  expect_settles(hmmwv_params(), 1.0, false);
  expect_settles(hmmwv_params(), 0.0, true);
  expect_settles(test::plain_strut(hmmwv_params()), 1.0, true);
}

// Test 2: heave. A vehicle with equal front/rear corners and the COM midway has a pure heave
// mode; undamped, each corner is the two-mass system
//   m_s x_s'' = -k_s (x_s - x_u),   m_u x_u'' = k_s (x_s - x_u) - k_t x_u,
// m_s = body_mass / 4, k_s = wheel rate, k_t = tire vertical stiffness, whose frequencies are
//   omega^2 = [b -+ sqrt(b^2 - 4 k_s k_t / (m_s m_u))] / 2,  b = k_s/m_s + (k_s + k_t)/m_u.
// The body mode is the lower root. Released in that mode's shape, the body must oscillate at it.
// (The plain strut: the model's straight path and linear coil; the linkage's own ride is checked
// against ce in CeCrossModel.)
TEST(StrutStatic, HeaveFrequencyMatchesTwoMassEstimate) {
  StrutParams<double> p = test::plain_strut(hmmwv_params());
  p.wheel_rate_rear = p.wheel_rate_front;
  const double half_base = 0.5 * (p.cg_to_front_axle + p.cg_to_rear_axle);
  p.cg_to_front_axle = p.cg_to_rear_axle = half_base;
  p.damping_bump_front = p.damping_rebound_front = p.damping_bump_rear = p.damping_rebound_rear = 0.0;
  p.tire.vertical_damping = 0.0;
  finalize_vehicle_params(p);

  const double ms = p.body_mass / 4.0, mu = p.unsprung_mass[0];
  const double ks = p.wheel_rate[0], kt = p.tire.vertical_stiffness;
  const double b = ks / ms + (ks + kt) / mu;
  const double omega2 = 0.5 * (b - std::sqrt(b * b - 4.0 * ks * kt / (ms * mu)));
  const double f_analytic = std::sqrt(omega2) / (2.0 * kPi);
  const double wheel_ratio = 1.0 - ms * omega2 / ks;  // x_u / x_s in the body mode

  Batch batch({p}, 1, TerrainSpec{}, cpu_options());
  std::vector<double> s = test::vehicle_state(batch, 0);
  const double z0 = s[strut::kPos + 2];
  const double amplitude = 0.02;
  s[strut::kPos + 2] += amplitude;
  for (int i = 0; i < kCorners; ++i) s[strut::kUnsprungPos + 3 * i + 2] += amplitude * (wheel_ratio - 1.0);
  batch.set_vehicle_state(0, s);

  // Upward zero crossings of z - z0, linearly interpolated.
  std::vector<double> crossings;
  double prev = amplitude;
  for (int k = 1; k <= 6000; ++k) {
    batch.step(1);
    const double z = test::vehicle_state(batch, 0)[strut::kPos + 2] - z0;
    if (prev < 0.0 && z >= 0.0) crossings.push_back((k - 1 + prev / (prev - z)) * 1e-3);
    prev = z;
  }
  ASSERT_GE(crossings.size(), 4u);
  const double period = (crossings.back() - crossings.front()) / (crossings.size() - 1);
  const double f_measured = 1.0 / period;
  RecordProperty("heave_frequency_hz", std::to_string(f_measured));
  RecordProperty("heave_frequency_analytic_hz", std::to_string(f_analytic));
  EXPECT_NEAR(f_measured, f_analytic, 0.03 * f_analytic);
}

// Test 5a: on a bank the tire forces hold the parked vehicle: normal forces along the surface
// normal sum to m g cos(bank), the in-plane forces to m g sin(bank) (the friction balance), and
// the vehicle does not creep.
TEST(StrutStatic, ParkedOnBankFrictionBalance) {
  const StrutParams<double> p = hmmwv_params();
  const double bank = 15.0 * kPi / 180.0;  // tan 15 deg = 0.27 < mu
  TerrainSpec terrain = test::terrain_of(TerrainKind::Plane);
  terrain.desc.bank = bank;
  Batch batch({p}, 1, terrain, cpu_options());
  batch.set_inputs({{0.0, 0.0, 1.0}});  // parked: full brake
  batch.step(3000);
  const VehicleSnapshot start = batch.snapshots()[0];
  batch.step(5000);
  const VehicleSnapshot end = batch.snapshots()[0];
  const StrutDiagnostics<double> d = batch.diagnostics(0);
  const Vec3<double> n{0.0, -std::sin(bank), std::cos(bank)};
  const double weight = p.total_mass * p.gravity;
  const Vec3<double> total = test::sum_tire_force(d);
  EXPECT_NEAR(dot(total, n), weight * std::cos(bank), 0.005 * weight);
  const Vec3<double> in_plane = total - dot(total, n) * n;
  EXPECT_NEAR(norm(in_plane), weight * std::sin(bank), 0.005 * weight);
  // Each tire's normal force lies along the surface normal: its force minus the normal part
  // is perpendicular to n.
  for (int i = 0; i < kCorners; ++i) {
    const Vec3<double> f = d.tire_force[i];
    EXPECT_NEAR(dot(f, n), d.tire_normal_force[i], 1e-6 * weight) << "corner " << i;
  }
  // Parked: it stays put (no creep) over 5 s.
  const double moved = std::hypot(end.position[0] - start.position[0], end.position[1] - start.position[1]);
  EXPECT_LT(moved, 1e-3);
}

// Low-speed tire treatment (section 2): parked with the brakes on a 20 % grade (11.3 deg), the
// vehicle holds: no creep (< 1 mm over 10 s) and no jitter (speed below 1e-4 m/s throughout the
// last 5 s), the tires carrying the downhill pull m g sin(grade).
TEST(StrutStatic, ParkedOnGradeStaysParked) {
  const StrutParams<double> p = hmmwv_params();
  const double grade = std::atan(0.20);
  TerrainSpec terrain = test::terrain_of(TerrainKind::Plane);
  terrain.desc.slope = grade;
  Batch batch({p}, 1, terrain, cpu_options());
  batch.set_inputs({{0.0, 0.0, 1.0}});
  batch.step(2000);
  const VehicleSnapshot start = batch.snapshots()[0];
  double max_speed = 0.0;
  for (int k = 0; k < 100; ++k) {
    batch.step(100);
    const VehicleSnapshot s = batch.snapshots()[0];
    if (k >= 50) max_speed = std::max(max_speed, std::sqrt(sq(s.velocity[0]) + sq(s.velocity[1]) + sq(s.velocity[2])));
  }
  const VehicleSnapshot end = batch.snapshots()[0];
  const double moved = std::sqrt(sq(end.position[0] - start.position[0]) + sq(end.position[1] - start.position[1]) +
                                 sq(end.position[2] - start.position[2]));
  RecordProperty("parked_creep_10s_m", std::to_string(moved));
  EXPECT_LT(moved, 1e-3);
  EXPECT_LT(max_speed, 1e-4);
  const Vec3<double> n{-std::sin(grade), 0.0, std::cos(grade)};
  const Vec3<double> total = test::sum_tire_force(batch.diagnostics(0));
  const double weight = p.total_mass * p.gravity;
  EXPECT_NEAR(norm(total - dot(total, n) * n), weight * std::sin(grade), 0.005 * weight);
}

// Test 5b: a bank steeper than friction allows: the vehicle slides down it.
TEST(StrutStatic, SlidesOffBankSteeperThanFriction) {
  StrutParams<double> p = hmmwv_params();
  p.tire.mu = 0.3;  // tan 25 deg = 0.47 > 0.3
  finalize_vehicle_params(p);
  TerrainSpec terrain = test::terrain_of(TerrainKind::Plane);
  terrain.desc.bank = 25.0 * kPi / 180.0;
  Batch batch({p}, 1, terrain, cpu_options());
  batch.set_inputs({{0.0, 0.0, 1.0}});
  batch.step(2000);
  const VehicleSnapshot s = batch.snapshots()[0];
  EXPECT_LT(s.position[1], -0.5);  // slid down the bank (towards -y)
}

// Test 5c: on a hill the tire normal force at each wheel lies along the terrain normal sampled
// independently at the wheel.
TEST(StrutStatic, HillNormalForcesAlongSurfaceNormal) {
  const StrutParams<double> p = hmmwv_params();
  TerrainSpec terrain = test::terrain_of(TerrainKind::Hill);
  terrain.desc.hill_x = 1.0;
  terrain.desc.hill_y = 0.5;
  terrain.desc.hill_height = 0.6;
  terrain.desc.hill_radius = 2.5;
  Batch batch({p}, 1, terrain, cpu_options());
  batch.set_inputs({{0.0, 0.0, 1.0}});
  batch.step(2000);
  const StrutDiagnostics<double> d = batch.diagnostics(0);
  const std::array<TerrainContact<double>, kCorners> contacts = test::wheel_contacts(batch, terrain.desc);
  for (int i = 0; i < kCorners; ++i) {
    const TerrainContact<double>& c = contacts[static_cast<size_t>(i)];
    ASSERT_GT(d.tire_normal_force[i], 0.0) << "corner " << i;
    EXPECT_NEAR(dot(d.tire_force[i], c.normal), d.tire_normal_force[i], 1e-9 * d.tire_normal_force[i]);
  }
  // The slope under each wheel differs, so the normals are not all vertical.
  const std::vector<double> s = test::vehicle_state(batch, 0);
  const std::vector<double> origin = batch.origins();
  EXPECT_GT(std::fabs(terrain_query(terrain.desc, test::vec_at(s, strut::kPos), origin[0], origin[1]).normal.x), 0.01);
}

}  // namespace
}  // namespace fleetdyn
