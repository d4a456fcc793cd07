// The curb terrain element (physics/core/terrain_curb.h, terrain.h): its query against geometry
// derived here (hand-worked points, a brute-force distance to a densely sampled profile, the
// 1-Lipschitz property of a distance), the wheel centre over a step against the rigid circle's
// closed form, HMMWVs (strut, ce) driving over a curb, the curb trip of a sideways-sliding strut
// HMMWV against the rigid-body estimate, and the CUDA backend against the CPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "fleetdyn/backend.h"
#include "fleetdyn/ce.h"
#include "fleetdyn/pgs_vehicle.h"
#include "fleetdyn/physics/core/soil_bekker.h"
#include "fleetdyn/physics/core/terrain.h"
#include "fleetdyn/vehicle.h"
#include "tests/cuda_test_util.h"
#include "tests/strut_test_util.h"
#ifdef FLEETDYN_TEST_HAS_SCENARIO
#include "host/scenario/scenario.h"
#include "host/study/sample_setup.h"
#include "tests/scenario_test_util.h"
#endif

namespace fleetdyn {
namespace {

using test::cpu_options;

constexpr double kPiD = 3.14159265358979323846;
constexpr double kDeg = kPiD / 180.0;

// Flat ground with a curb whose line runs along `heading` through (x, y), raised to its left.
TerrainDesc<double> curb_terrain(double height, double x, double y, double heading, double face_angle,
                                 double edge_radius, double width) {
  TerrainDesc<double> t = default_terrain_desc<double>();
  t.curb_height = height;
  t.curb_x = x;
  t.curb_y = y;
  t.curb_heading = heading;
  t.curb_face_angle = face_angle;
  t.curb_edge_radius = edge_radius;
  t.curb_width = width;
  return t;
}

TerrainContact<double> query(const TerrainDesc<double>& t, double x, double y, double z) {
  return terrain_query(t, Vec3<double>{x, y, z}, 0.0, 0.0);
}

void expect_contact(const TerrainContact<double>& c, double distance, Vec3<double> normal, const char* where) {
  EXPECT_NEAR(c.distance, distance, 1e-12) << where;
  EXPECT_NEAR(c.normal.x, normal.x, 1e-12) << where;
  EXPECT_NEAR(c.normal.y, normal.y, 1e-12) << where;
  EXPECT_NEAR(c.normal.z, normal.z, 1e-12) << where;
}

// A barrier curb (vertical face, 0.15 m, top edge rounded with 0.02 m) along +x through y = 2:
// the raised side is y > 2. Each point's nearest boundary piece worked out by hand.
TEST(CurbQuery, BarrierCurbDistanceAndNormalByHand) {
  const double h = 0.15, r = 0.02;
  const TerrainDesc<double> t = curb_terrain(h, 10.0, 2.0, 0.0, 90.0 * kDeg, r, 0.0);
  expect_contact(query(t, 0.0, 3.0, 0.5), 0.5 - h, {0, 0, 1}, "above the top");
  expect_contact(query(t, 0.0, 1.9, 0.12), 0.1, {0, -1, 0}, "before the face, below the top");
  expect_contact(query(t, 0.0, 0.0, 0.2), 0.2, {0, 0, 1}, "above the ground, far before the face");
  // Above and before the edge: nearest the arc about (y, z) = (2 + r, h - r).
  {
    const double du = -0.1 - r, dw = 0.3 - (h - r), rho = std::hypot(du, dw);
    expect_contact(query(t, 5.0, 1.9, 0.3), rho - r, {0, du / rho, dw / rho}, "above the rounded edge");
  }
  // On the arc at 45 degrees: distance 0.
  {
    const double c = std::sqrt(0.5);
    expect_contact(query(t, 0.0, 2.0 + r - r * c, h - r + r * c), 0.0, {0, -c, c}, "on the edge");
  }
  expect_contact(query(t, 0.0, 2.1, 0.12), -0.03, {0, 0, 1}, "inside, under the top");
  expect_contact(query(t, 0.0, 2.01, 0.05), -0.01, {0, -1, 0}, "inside, behind the face");
  // Inside the ground under the foot: nearest the concave corner, normal from the point to it.
  {
    const double c = std::sqrt(0.5);
    expect_contact(query(t, 0.0, 2.01, -0.01), -0.01 * std::sqrt(2.0), {0, -c, c}, "inside, at the foot");
  }
  // The curb's own friction is the surface's.
  EXPECT_EQ(query(t, 0.0, 1.9, 0.05).mu_scale, 1.0);
}

// A mountable 45-degree curb with a sharp edge, and a ridge that comes back down.
TEST(CurbQuery, SlopedFaceAndRidgeByHand) {
  const double c = std::sqrt(0.5);
  {
    // Line along +y through the origin (heading 90 deg): its left, the raised side, is -x.
    const TerrainDesc<double> t = curb_terrain(0.15, 0.0, 0.0, 90.0 * kDeg, 45.0 * kDeg, 0.0, 0.0);
    // 0.05 m out from the face's point 0.1 m up its slope (u, w) = (0.1 c, 0.1 c).
    const double u = 0.1 * c - 0.05 * c, w = 0.1 * c + 0.05 * c;
    expect_contact(query(t, -u, 3.0, w), 0.05, {c, 0, c}, "off the sloped face");
    // Off the sharp top corner (u, w) = (0.15, 0.15), in its normal cone (between the face's
    // normal and up), 0.05 m away at 22.5 degrees from up: distance to the corner.
    const double su = std::sin(22.5 * kDeg), cw = std::cos(22.5 * kDeg);
    expect_contact(query(t, -(0.15 - 0.05 * su), 0.0, 0.15 + 0.05 * cw), 0.05, {su, 0, cw}, "off the sharp corner");
  }
  {
    // Vertical ridge 0.1 m high, 0.3 m wide, along +x through y = 0.
    const TerrainDesc<double> t = curb_terrain(0.1, 0.0, 0.0, 0.0, 90.0 * kDeg, 0.0, 0.3);
    expect_contact(query(t, 0.0, 0.15, 0.2), 0.1, {0, 0, 1}, "above the ridge's middle");
    expect_contact(query(t, 0.0, 0.35, 0.05), 0.05, {0, 1, 0}, "beyond the far face");
    expect_contact(query(t, 0.0, 1.0, 0.05), 0.05, {0, 0, 1}, "on the ground beyond the ridge");
    expect_contact(query(t, 0.0, 0.28, 0.05), -0.02, {0, 1, 0}, "inside, behind the far face");
  }
}

// The profile of a curb in its section (u across, w up), sampled densely along its boundary,
// built here from the geometry: ground, face, edge arc (tangent to face and top), top and, for a
// ridge, the same mirrored. And the height of the profile at u, to tell inside from outside.
struct Profile {
  double h, alpha, r, width;
  std::vector<std::pair<double, double>> points;
  double corner() const { return h / std::tan(alpha); }
  double tangent() const { return r * std::tan(0.5 * alpha); }
  double height_at(double u) const {
    if (width > 0.0 && u > corner() + 0.5 * width) u = 2.0 * (corner() + 0.5 * width) - u;
    const double cu = corner() + tangent(), cw = h - r;
    if (u <= 0.0) return 0.0;
    if (u <= cu - r * std::sin(alpha)) return u * std::tan(alpha);
    if (u <= cu) return cw + std::sqrt(std::max(0.0, r * r - (u - cu) * (u - cu)));
    return h;
  }
  Profile(double h_, double alpha_, double r_, double width_) : h(h_), alpha(alpha_), r(r_), width(width_) {
    const double step = 2e-5;
    const double end = width > 0.0 ? corner() + 0.5 * width : 2.0;
    for (double u = -2.0; u <= 0.0; u += step) points.push_back({u, 0.0});
    const double face = h / std::sin(alpha) - tangent();
    for (double s = 0.0; s <= face; s += step) points.push_back({s * std::cos(alpha), s * std::sin(alpha)});
    const double cu = corner() + tangent(), cw = h - r;
    for (double a = 0.0; a <= alpha; a += step / std::max(r, 1e-3)) {
      points.push_back({cu - r * std::sin(a), cw + r * std::cos(a)});
    }
    for (double u = cu; u <= end; u += step) points.push_back({u, h});
    if (width > 0.0) {  // the mirror image about the middle of the top
      const size_t half = points.size();
      for (size_t i = 0; i < half; ++i) points.push_back({2.0 * end - points[i].first, points[i].second});
    }
  }
  double brute_distance(double u, double w) const {
    double best = std::numeric_limits<double>::infinity();
    for (const auto& p : points) best = std::min(best, std::hypot(u - p.first, w - p.second));
    return w < height_at(u) ? -best : best;
  }
};

// The query against the brute-force distance to the sampled profile (its error is at most half a
// sample spacing), at points scattered around the curb in its section, for a barrier, a sloped
// and a ridge profile; the curb turned 30 degrees and moved, so the 3-D frame is exercised too;
// and the normal is the distance's gradient (central differences).
TEST(CurbQuery, MatchesBruteForceDistanceAndItsGradient) {
  const double heading = 30.0 * kDeg, x0 = 3.0, y0 = -1.0;
  const double ch = std::cos(heading), sh = std::sin(heading);
  const Profile profiles[] = {{0.15, 90.0 * kDeg, 0.03, 0.0}, {0.12, 35.0 * kDeg, 0.05, 0.0}, {0.1, 60.0 * kDeg, 0.02, 0.25}};
  for (const Profile& pr : profiles) {
    const TerrainDesc<double> t = curb_terrain(pr.h, x0, y0, heading, pr.alpha, pr.r, pr.width);
    uint32_t seed = 12345;
    const auto uniform = [&seed]() {
      seed = seed * 1664525u + 1013904223u;
      return (seed >> 8) * (1.0 / 16777216.0);
    };
    for (int k = 0; k < 300; ++k) {
      const double u = -0.3 + 0.9 * uniform(), w = -0.1 + 0.4 * uniform(), along = 20.0 * uniform() - 10.0;
      // World point: along the line, u across it to the left, w up.
      const double x = x0 + along * ch - u * sh, y = y0 + along * sh + u * ch;
      const TerrainContact<double> c = query(t, x, y, w);
      EXPECT_NEAR(c.distance, pr.brute_distance(u, w), 2e-5) << "u " << u << " w " << w << " alpha " << pr.alpha;
      EXPECT_NEAR(norm(c.normal), 1.0, 1e-12);
      const double e = 1e-6;
      const Vec3<double> grad{(query(t, x + e, y, w).distance - query(t, x - e, y, w).distance) / (2 * e),
                              (query(t, x, y + e, w).distance - query(t, x, y - e, w).distance) / (2 * e),
                              (query(t, x, y, w + e).distance - query(t, x, y, w - e).distance) / (2 * e)};
      // Off the medial axis (where the nearest piece switches) the gradient is the normal.
      if (norm(grad) > 1.0 - 1e-6) {
        EXPECT_LT(norm(grad - c.normal), 1e-5) << "u " << u << " w " << w;
      }
    }
  }
}

// Continuity: along lines crossing the curb (level below and above the top, and climbing), the
// distance never changes faster than the point moves (a distance function is 1-Lipschitz).
TEST(CurbQuery, DistanceIsContinuousAcrossTheCurb) {
  const TerrainDesc<double> steps[] = {curb_terrain(0.15, 0.0, 0.0, 0.0, 90.0 * kDeg, 0.02, 0.0),
                                       curb_terrain(0.15, 0.0, 0.0, 0.0, 40.0 * kDeg, 0.05, 0.0),
                                       curb_terrain(0.1, 0.0, 0.0, 0.0, 90.0 * kDeg, 0.0, 0.2)};
  for (const TerrainDesc<double>& t : steps) {
    for (double z0 : {0.05, 0.14, 0.3}) {
      const double dy = 1e-4;
      double prev = query(t, 0.0, -1.0, z0).distance;
      double largest = 0.0;
      for (double y = -1.0 + dy; y <= 1.0; y += dy) {
        const double z = z0 + 0.05 * (y + 1.0);  // climbing slightly
        const double d = query(t, 0.0, y, z).distance;
        largest = std::max(largest, std::fabs(d - prev) / std::hypot(dy, 0.05 * dy));
        prev = d;
      }
      EXPECT_LE(largest, 1.0 + 1e-9) << "z0 " << z0;
    }
  }
}

// In fp32 (the GPU's usual precision) the query agrees with fp64 to float rounding, a vertical face
// included (cos(pi/2) rounds to -4e-8 in fp32).
TEST(CurbQuery, Fp32AgreesWithFp64) {
  const TerrainDesc<double> d = curb_terrain(0.15, 10.0, 2.0, -90.0 * kDeg, 90.0 * kDeg, 0.02, 0.0);
  TerrainDesc<float> f = default_terrain_desc<float>();
  f.curb_height = float(d.curb_height);
  f.curb_x = float(d.curb_x);
  f.curb_y = float(d.curb_y);
  f.curb_heading = float(d.curb_heading);
  f.curb_face_angle = float(d.curb_face_angle);
  f.curb_edge_radius = float(d.curb_edge_radius);
  f.curb_width = float(d.curb_width);
  for (double x = 9.0; x <= 11.0; x += 0.0137) {
    for (double z : {-0.01, 0.05, 0.14, 0.16, 0.45}) {
      const TerrainContact<double> c = query(d, x, 0.3, z);
      const TerrainContact<float> cf = terrain_query(f, Vec3<float>{float(x), 0.3f, float(z)}, 0.0f, 0.0f);
      EXPECT_NEAR(cf.distance, c.distance, 2e-6) << "x " << x << " z " << z;
    }
  }
}

// No curb: every kind's query is the one without the curb fields, bit for bit, whatever they hold.
TEST(CurbQuery, AbsentCurbChangesNothing) {
  TerrainDesc<double> plain = default_terrain_desc<double>();
  plain.kind = TerrainKind::Hill;
  plain.hill_height = 0.5;
  plain.hill_radius = 3.0;
  TerrainDesc<double> with = plain;
  with.curb_height = 0.0;
  with.curb_edge_radius = 0.1;
  with.curb_width = 1.0;
  with.curb_x = 0.3;
  for (double x = -5.0; x <= 5.0; x += 0.37) {
    const TerrainContact<double> a = query(plain, x, 0.2 * x, 0.1), b = query(with, x, 0.2 * x, 0.1);
    EXPECT_EQ(a.distance, b.distance);
    EXPECT_EQ(a.normal.z, b.normal.z);
  }
}

// A curb on a hill's base ground stands on that ground: far from the face, the query is the hill's.
TEST(CurbQuery, StandsOnACurvedBase) {
  TerrainDesc<double> hill = default_terrain_desc<double>();
  hill.kind = TerrainKind::Hill;
  hill.hill_height = 0.5;
  hill.hill_radius = 5.0;
  TerrainDesc<double> t = hill;
  t.curb_height = 0.15;
  t.curb_y = 1.0;
  const TerrainContact<double> ground = query(hill, 0.5, -1.0, 0.7), before = query(t, 0.5, -1.0, 0.7);
  EXPECT_EQ(before.distance, ground.distance);
  // On the raised side the top is 0.15 above the hill where the point stands.
  const double h = 0.5 * std::exp(-0.5 * (0.25 + 4.0) / 25.0);
  EXPECT_NEAR(query(t, 0.5, 2.0, h + 0.4).distance, 0.4 - 0.15, 1e-12);
}

// The centre height of a rigid circle of radius R resting on the curb at lateral place u: where
// the query's distance equals R (bisection on z).
double resting_centre(const TerrainDesc<double>& t, double u, double radius) {
  double lo = -1.0, hi = 3.0;
  for (int k = 0; k < 200; ++k) {
    const double mid = 0.5 * (lo + hi);
    (query(t, 0.0, u, mid).distance < radius ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

// A rigid wheel of radius R placed over a step of height h < R at its edge: before the edge it
// rests on the ground (centre R up) until it touches the edge corner; then its centre is on the
// circle of radius R about the corner, z = h + sqrt(R^2 - (u - u_edge)^2); past the edge it is on
// the top, h + R. With the edge rounded by r the corner is replaced by the arc's centre
// (u_edge + r, h - r), and the circle about it has radius R + r.
TEST(CurbEnvelope, RigidWheelCentreFollowsTheStepsOffsetCurve) {
  const double R = 0.47, h = 0.15;
  for (double r : {0.0, 0.04}) {
    const TerrainDesc<double> t = curb_terrain(h, 0.0, 0.0, 0.0, 90.0 * kDeg, r, 0.0);
    for (double u = -0.6; u <= 0.3; u += 0.01) {
      double expected;
      if (u >= r) {
        expected = h + R;
      } else {
        const double du = u - r;
        const double on_edge = (h - r) + std::sqrt(std::max(0.0, (R + r) * (R + r) - du * du));
        expected = std::max(R, on_edge);
      }
      EXPECT_NEAR(resting_centre(t, u, R), expected, 1e-10) << "u " << u << " r " << r;
    }
  }
}

// --- vehicles ------------------------------------------------------------------------------------

// A straight barrier curb of height h across the road at x = x_face, raised towards +x.
TerrainSpec curb_across(double h, double x_face, double edge_radius = 0.02) {
  TerrainSpec t;
  t.desc = curb_terrain(h, x_face, 0.0, -90.0 * kDeg, 90.0 * kDeg, edge_radius, 0.0);
  return t;
}

// A strut HMMWV coasting at 3 m/s onto a 0.1 m barrier curb: it climbs it, every wheel ends up on
// top (wheel centre a loaded radius above the top, past the face), nothing diverges, and with the
// engine off the energy ledger (which reads the same query) never rises.
TEST(CurbVehicle, StrutHmmwvClimbsACurbAtWalkingSpeed) {
  const StrutParams<double> p = hmmwv_params();
  const double h = 0.1, x_face = 4.0;
  Batch batch({p}, 1, curb_across(h, x_face), cpu_options());
  batch.set_initial_conditions({{0.0, 0.0, 0.0, 3.0}});
  batch.set_maneuvers({{{0.0, 0.0, 0.0, 0.0}}});
  test::LedgerWatch ledger(batch.energy(0).total());
  for (int k = 0; k < 800; ++k) {  // 8 s
    batch.step(10);
    ledger.sample(batch.energy(0).total());
  }
  ASSERT_EQ(batch.status()[0], kStatusRunning);
  const std::vector<double> s = batch.state();
  for (int i = 0; i < kCorners; ++i) {
    // The state holds each wheel relative to the body COM.
    const double wx = s[strut::kPos] + s[strut::kUnsprungPos + 3 * i];
    const double wz = s[strut::kPos + 2] + s[strut::kUnsprungPos + 3 * i + 2];
    EXPECT_GT(wx, x_face + p.tire.unloaded_radius) << "corner " << i;
    EXPECT_GT(wz, h + 0.8 * p.tire.unloaded_radius) << "corner " << i;
    EXPECT_LT(wz, h + p.tire.unloaded_radius) << "corner " << i;
  }
  EXPECT_GT(s[strut::kVel], 0.1) << "still rolling forward";
  EXPECT_EQ(ledger.run.increases, 0) << "the ledger rose; by up to " << ledger.run.largest_increase << " J";
  // Pitch is measured against the base ground, not the curb's face under the body: a 0.1 m step
  // under a 3.3 m wheelbase tilts it by about 0.03 rad, not by the face's slope.
  EXPECT_LT(batch.metrics()[metric::max_abs_pitch], 0.1);
  EXPECT_LT(batch.energy(0).total(), ledger.run.initial) << "the dampers and the tires dissipate";
}

// The same with the ce model: its chassis ends up h higher than it started, level again.
TEST(CurbVehicle, CeHmmwvClimbsACurbAtWalkingSpeed) {
  const CeParams<double> p = hmmwv_ce_params();
  const double h = 0.1, x_face = 4.0;
  BatchOptions options = cpu_options();
  options.step = 2e-3;
  Batch batch({p}, 1, curb_across(h, x_face), options);
  batch.set_initial_conditions({{0.0, 0.0, 0.0, 3.0}});
  batch.set_maneuvers({{{0.0, 0.0, 0.0, 0.0}}});
  const double z0 = batch.state()[ce::kPos + 2];
  batch.step(4000);  // 8 s
  ASSERT_EQ(batch.status()[0], kStatusRunning);
  const std::vector<double> s = batch.state();
  EXPECT_GT(s[ce::kPos], x_face + 2.0 + p.tire.unloaded_radius) << "the rear axle is past the face";
  EXPECT_NEAR(s[ce::kPos + 2] - z0, h, 0.02);
  EXPECT_GT(s[ce::kVel], 0.1) << "still rolling forward";
}

// The curb trip. A rigid vehicle sliding sideways at v (no rotation) hits a curb edge E that stops
// it. The impact is short: angular momentum about E is conserved, m v b = I_E w, with b the COM's
// height above E and I_E the roll inertia about E (parallel axes: I_com + m (a^2 + b^2), a the
// COM's lateral distance from E). After it, the vehicle tips over E iff its rotational energy
// lifts the COM over E: (1/2) I_E w^2 >= m g (sqrt(a^2 + b^2) - b). So the critical speed is
//   v_c = sqrt(2 g (sqrt(a^2 + b^2) - b) I_E / m) / b.
// For the vehicle, E is where its leading tires' sidewalls meet the curb's top edge, and the
// masses are the body and the four wheels where they stand.
struct TripEstimate {
  double v_c;       // [m/s] critical speed of the rigid vehicle
  double v_energy;  // [m/s] below it not even all the kinetic energy lifts the COM over E
};

// World coordinate `axis` of wheel i's centre (the state holds it relative to the body COM).
double wheel_world(const std::vector<double>& s, int i, int axis) {
  return s[strut::kPos + axis] + s[strut::kUnsprungPos + 3 * i + axis];
}

TripEstimate rigid_trip_estimate(const StrutParams<double>& p, const std::vector<double>& s, double y_edge, double z_edge) {
  const double m_body = p.total_mass - 2.0 * (p.unsprung_mass_front + p.unsprung_mass_rear);
  double m = m_body, my = m_body * s[strut::kPos + 1], mz = m_body * s[strut::kPos + 2];
  for (int i = 0; i < kCorners; ++i) {
    const double mu = i < 2 ? p.unsprung_mass_front : p.unsprung_mass_rear;
    m += mu;
    my += mu * wheel_world(s, i, 1);
    mz += mu * wheel_world(s, i, 2);
  }
  const double y_com = my / m, z_com = mz / m;
  // Roll inertia about E: the body's own plus every mass's parallel-axis part.
  const auto about_edge = [&](double mass, double y, double z) {
    return mass * ((y - y_edge) * (y - y_edge) + (z - z_edge) * (z - z_edge));
  };
  double inertia = p.body_inertia_xx + about_edge(m_body, s[strut::kPos + 1], s[strut::kPos + 2]);
  for (int i = 0; i < kCorners; ++i) {
    inertia += about_edge(i < 2 ? p.unsprung_mass_front : p.unsprung_mass_rear, wheel_world(s, i, 1), wheel_world(s, i, 2));
  }
  const double a = y_edge - y_com, b = z_com - z_edge;
  const double lift = std::hypot(a, b) - b;
  return {std::sqrt(2.0 * p.gravity * lift * inertia / m) / b, std::sqrt(2.0 * p.gravity * lift)};
}

// A strut HMMWV at rest, brakes on, its left tires `gap` from a barrier curb of height h (sharp
// edge) along +x; the surface's friction scaled by mu_scale. Returns the batch and fills the
// rigid estimate for that geometry.
struct TripRig {
  Batch batch;
  TripEstimate estimate;
};

// `vehicles` copies of the settled vehicle, in `precision`.
TripRig trip_rig(const StrutParams<double>& p, double h, double gap, double mu_scale, BackendKind backend,
                 int vehicles = 1, Precision precision = Precision::Fp64) {
  BatchOptions options = cpu_options(precision);
  options.backend = backend;
  // Where the settled vehicle's left wheels stand: from a first batch on flat ground.
  Batch settle({p}, 1, TerrainSpec{}, cpu_options());
  settle.set_maneuvers({{{0.0, 0.0, 0.0, 1.0}}});
  settle.step(1000);
  const std::vector<double> rest = settle.state();
  const double wheel_y = std::max(wheel_world(rest, 0, 1), wheel_world(rest, 2, 1));  // the left wheels
  const double wheel_z = wheel_world(rest, 0, 2);
  const double R = p.tire.unloaded_radius, b = 0.5 * p.tire.width;
  // The tire (the ball of radius R cut by its sidewalls b either side of the wheel plane; its axis
  // across the curb) meets the edge (y_edge, h) below its centre with its sidewall, or with its
  // tread if the edge is so low that the ball's circle there is narrower than b.
  const double y_edge = wheel_y + std::min(b, std::sqrt(R * R - (wheel_z - h) * (wheel_z - h))) + gap;
  TerrainSpec t;
  t.desc = curb_terrain(h, 0.0, y_edge, 0.0, 90.0 * kDeg, 0.0, 0.0);
  t.desc.mu_scale = mu_scale;
  TripRig rig{Batch({p}, vehicles, t, options), rigid_trip_estimate(p, rest, y_edge, h)};
  rig.batch.set_maneuvers({{{0.0, 0.0, 0.0, 1.0}}});
  for (int v = 0; v < vehicles; ++v) rig.batch.set_vehicle_state(v, rest);
  return rig;
}

// Sets a settled strut state sliding sideways (+y) at v, wheels locked: the body's velocity; the
// wheels' velocities are relative to the body's (strut_model.h), so they move with it at zero.
void slide_sideways(std::vector<double>& s, double v) {
  s[strut::kVel + 1] = v;
  for (int i = 0; i < kCorners; ++i) {
    for (int axis = 0; axis < 3; ++axis) s[strut::kUnsprungVel + 3 * i + axis] = 0.0;
    s[strut::kWheelSpin + i] = 0.0;
  }
}

// Slides the rig's vehicle sideways (+y, into the curb) at v, wheels locked; whether it rolled
// over within 3 s.
bool trips(const StrutParams<double>& p, double h, double v, TripEstimate* estimate = nullptr, double mu = 3.0) {
  TripRig rig = trip_rig(p, h, 0.01, mu, BackendKind::Cpu);
  std::vector<double> s = rig.batch.state();
  slide_sideways(s, v);
  rig.batch.set_vehicle_state(0, s);
  rig.batch.step(3000);
  if (estimate) *estimate = rig.estimate;
  const int status = rig.batch.status()[0];
  EXPECT_NE(status, kStatusDiverged) << "v " << v;
  return status == kStatusRolledOver;
}

// The HMMWV against the rigid estimate on a 0.2 m barrier curb (sharp edge), tires three times as
// grippy as nominal so the leading tires hold at the edge instead of sliding up over it.
//  - Below v_energy it cannot trip, whatever its compliance: the engine is off, no energy comes in,
//    and lifting the COM over the edge takes m g (sqrt(a^2 + b^2) - b) of its (1/2) m v^2.
//  - It trips below the rigid v_c. The rigid impact is perfectly plastic at the edge: of the
//    kinetic energy it keeps only the share m b^2 / I_E as roll (8 % for the HMMWV, whose COM is
//    low and far inboard of the edge), the rest is lost at once. The compliant vehicle's impact
//    lasts tens of milliseconds: the tires' and the suspension's springs take up the body's sideways
//    momentum and give part of it back as roll, the sprung body rolls on its springs towards the
//    curb before the whole vehicle turns about the edge, and the trailing tires' friction acts
//    below the COM all the while, a tripping moment of its own. So v_energy < v_trip < v_c is the
//    bracket asserted; where in it the vehicle lies is its compliance's doing (docs/models/curb.md).
TEST(CurbTrip, StrutHmmwvTripsBetweenTheEnergyBoundAndTheRigidEstimate) {
  const StrutParams<double> p = hmmwv_params();
  const double h = 0.2;
  TripEstimate e{};
  EXPECT_FALSE(trips(p, h, 1.0, &e));
  std::printf("rigid trip estimate: v_c %.3f m/s, energy bound %.3f m/s\n", e.v_c, e.v_energy);
  ASSERT_GT(e.v_c, e.v_energy);
  EXPECT_FALSE(trips(p, h, e.v_energy)) << "tripped at the energy bound";
  // The vehicle's own critical speed, bisected between the energy bound and 1.5 v_c.
  double lo = e.v_energy, hi = 1.5 * e.v_c;
  ASSERT_TRUE(trips(p, h, hi)) << "no trip at 1.5 times the rigid estimate";
  for (int k = 0; k < 6; ++k) {
    const double mid = 0.5 * (lo + hi);
    (trips(p, h, mid) ? hi : lo) = mid;
  }
  std::printf("the HMMWV trips between %.3f and %.3f m/s\n", lo, hi);
  EXPECT_LT(hi, e.v_c) << "the compliant vehicle needed more than the rigid, perfectly plastic impact";
  EXPECT_GT(lo, e.v_energy);
}

// A randomized physics check of the tire-curb-soil contact: 16 slides of strut and ce HMMWVs,
// brakes locked, engine off, into curbs of random height (0.05 to 0.35 m), face angle (30 to 90
// deg) and edge radius (0 to 3 cm), at 1 to 14 m/s, headed up to 30 deg off square to the curb,
// the COM raised by up to 0.4 m, on firm ground or (every other slide) on a random soil preset
// everywhere. None diverges, a second run repeats the first to the bit, and strut's energy ledger
// never rises between 10 ms samples (nothing feeds energy in: every force is a spring, a damper or
// friction). ce's ledger rises by at most 0.015 J (of 3e4, in 2 of its 8 slides, the same at
// 0.5 ms steps), an open finding asserted below 0.1 J (docs/models/curb.md). Seeded; raise
// `slides` for a larger sweep.
TEST(CurbRandomized, SlidesNeverDivergeNeverGainEnergyAndRepeat) {
  std::mt19937 rng(20261129);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  const int slides = 16;
  const SoilPreset soils[] = {SoilPreset::DrySand, SoilPreset::SandyLoam, SoilPreset::ClayeySoil};
  for (int k = 0; k < slides; ++k) {
    const bool ce_model = k % 2 == 1;
    const double h = 0.05 + 0.3 * u(rng), face = (30.0 + 60.0 * u(rng)) * kDeg, edge = 0.03 * u(rng);
    const double speed = 1.0 + 13.0 * u(rng), yaw = (u(rng) - 0.5) * 60.0 * kDeg, lift = 0.4 * u(rng);
    const bool on_soil = (k / 2) % 2 == 1;
    TerrainSpec t;
    t.desc = curb_terrain(h, 0.0, 1.6, 0.0, face, std::min(edge, 0.5 * h), 0.0);
    if (on_soil) {
      t.desc.soil_region = 1;
      t.desc.soil = soil_preset<double>(soils[k % 3]);
      t.desc.soil_x_min = t.desc.soil_y_min = -HUGE_VAL;
      t.desc.soil_x_max = t.desc.soil_y_max = HUGE_VAL;
    }
    InitialCondition ic{};
    ic.yaw = yaw;
    ic.lateral_speed = speed;
    const auto run = [&](std::vector<double>* final_state) {
      BatchOptions options = cpu_options();
      std::unique_ptr<Batch> batch;
      if (ce_model) {
        CeParams<double> p = hmmwv_ce_params();
        p.chassis_com.z += lift;
        ce_balance_springs_at_design(p);
        options.step = 2e-3;
        batch = std::make_unique<Batch>(std::vector<CeParams<double>>{p}, 1, t, options);
      } else {
        StrutParams<double> p = hmmwv_params();
        p.cg_height += lift;
        finalize_vehicle_params(p);
        batch = std::make_unique<Batch>(std::vector<StrutParams<double>>{p}, 1, t, options);
      }
      batch->set_initial_conditions({ic});
      batch->set_maneuvers({{{0.0, 0.0, 0.0, 1.0}}});
      test::LedgerWatch ledger(batch->mechanical_energy(0));
      const int per_sample = ce_model ? 5 : 10;  // 10 ms
      for (int j = 0; j < 300; ++j) {            // 3 s
        batch->step(per_sample);
        ledger.sample(batch->mechanical_energy(0));
      }
      *final_state = batch->state();
      return std::make_pair(batch->status()[0], ledger.run);
    };
    std::vector<double> first, second;
    const auto [status, ledger] = run(&first);
    run(&second);
    const std::string what = std::string(ce_model ? "ce" : "strut") + " slide " + std::to_string(k) + ": curb " +
                             std::to_string(h) + " m, face " + std::to_string(face / kDeg) + " deg, " + std::to_string(speed) +
                             " m/s, yaw " + std::to_string(yaw / kDeg) + " deg, COM +" + std::to_string(lift) + " m" +
                             (on_soil ? std::string(", ") + soil_preset_name(soils[k % 3]) : "");
    std::printf("%s: status %d, ledger %.0f -> %.0f J, %d rises (largest %.2e J)\n", what.c_str(), status,
                ledger.initial, ledger.final, ledger.increases, ledger.largest_increase);
    EXPECT_NE(status, kStatusDiverged) << what;
    if (ce_model) {
      EXPECT_LT(ledger.largest_increase, 0.1) << what << ": the ledger rose by " << ledger.largest_increase << " J";
    } else {
      EXPECT_EQ(ledger.increases, 0) << what << ": the ledger rose by up to " << ledger.largest_increase << " J";
    }
    EXPECT_EQ(first, second) << what << ": the rerun differs";
  }
}

// The CUDA backend against the CPU for a strut HMMWV sliding into a curb at 1.2 v_c (1 s: the
// impact, the climb of the roll), copied to 1, 13 and 1001 vehicles on the device, each against
// the one CPU run: positions and every metric within the batch contract's tolerances.
class CurbTripCuda : public ::testing::TestWithParam<test::CudaCase> {};

TEST_P(CurbTripCuda, CudaMatchesCpu) {
  std::string why;
  if (!cuda_available(&why)) GTEST_SKIP() << why;
  const int n = GetParam().vehicles;
  const Precision precision = GetParam().precision;
  const StrutParams<double> p = hmmwv_params();
  std::vector<std::vector<double>> metrics, states;
  for (BackendKind backend : {BackendKind::Cpu, BackendKind::Cuda}) {
    const int count = backend == BackendKind::Cpu ? 1 : n;
    TripRig rig = trip_rig(p, 0.2, 0.01, 3.0, backend, count, precision);
    std::vector<double> s = test::vehicle_state(rig.batch, 0);
    const double v = 1.2 * rig.estimate.v_c;
    slide_sideways(s, v);
    for (int k = 0; k < count; ++k) rig.batch.set_vehicle_state(k, s);
    rig.batch.step(1000);
    metrics.push_back(rig.batch.metrics());
    states.push_back(rig.batch.state());
  }
  for (int v = 0; v < n; ++v) {
    for (int a = 0; a < 3; ++a) {
      const size_t pos = static_cast<size_t>(strut::kPos + a);
      EXPECT_NEAR(states[1][pos * n + v], states[0][pos], test::cuda_position_tolerance(precision, states[0][pos]))
          << "vehicle " << v;
    }
    for (int m = 0; m < kMetricCount; ++m) {
      const double c = metrics[0][static_cast<size_t>(m)], g = metrics[1][static_cast<size_t>(m) * n + v];
      EXPECT_LE(std::fabs(g - c), test::cuda_metric_tolerance(precision, c)) << "vehicle " << v << ", metric " << m;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Sizes, CurbTripCuda, ::testing::ValuesIn(test::cuda_copied_cases()), test::cuda_case_name);

// A vehicle of any model sliding sideways at 6 m/s, brakes on, into a 0.15 m barrier curb (edge
// rounded 2 cm) about 0.33 m beyond its tires' sidewalls: the sidewalls' strike, the edge, the
// tip. `count` copies on `backend`.
template <class Params>
Batch curb_slide_batch(const Params& p, int count, BackendKind backend, Precision precision, double step) {
  BatchOptions options = cpu_options(precision);
  options.backend = backend;
  options.step = step;
  TerrainSpec t;
  t.desc = curb_terrain(0.15, 0.0, 1.4, 0.0, 90.0 * kDeg, 0.02, 0.0);
  Batch batch(std::vector<Params>{p}, count, t, options);
  InitialCondition ic{};
  ic.lateral_speed = 6.0;
  batch.set_initial_conditions({ic});
  batch.set_maneuvers({{{0.0, 0.0, 0.0, 1.0}}});
  return batch;
}

// Its snapshots after `steps` steps.
template <class Params>
std::vector<VehicleSnapshot> curb_slide(const Params& p, int count, BackendKind backend, Precision precision,
                                        double step, int steps) {
  Batch batch = curb_slide_batch(p, count, backend, precision, step);
  batch.step(steps);
  return batch.snapshots();
}

// The three models in the same curb strike (curb_slide_batch, 6 m/s into 0.15 m, 0.8 s sampled every
// 10 ms): the tires strike the face with their sidewalls, the vehicles tip towards the curb, fall
// back and move off it. strut (its own suspension, wheels as particles) against ce: the peak roll
// and the speed off the curb at 0.2 s within 5 % (measured 2.3 % and 1.4 %; the two share the tire
// and its contact, not the suspension); pgs (the same vehicle as ce, its joints solved as
// constraints) against ce within 1 % and 2 % (measured 0.14 % and 1.2 %).
struct CurbStrike {
  double peak_roll;  // [rad]
  double speed_off;  // [m/s] lateral velocity at 0.2 s (negative: away from the curb)
};

template <class Params>
CurbStrike curb_strike(const Params& p, double step) {
  Batch batch = curb_slide_batch(p, 1, BackendKind::Cpu, Precision::Fp64, step);
  CurbStrike out{0.0, 0.0};
  for (int k = 0; k < 80; ++k) {
    batch.step(static_cast<int>(std::lround(0.01 / step)));
    const VehicleSnapshot s = batch.snapshots()[0];
    out.peak_roll = std::max(out.peak_roll, std::fabs(s.euler[0]));
    if (k == 19) out.speed_off = s.velocity[1];
  }
  EXPECT_EQ(batch.status()[0], kStatusRunning);
  return out;
}

TEST(CurbStrike, StrutCeAndPgsAgree) {
  const CurbStrike strut = curb_strike(hmmwv_params(), 1e-3);
  const CurbStrike ce = curb_strike(hmmwv_ce_params(), 2e-3);
  const CurbStrike pgs = curb_strike(PgsVehicleDef{}, 1e-3);
  std::printf("peak roll: strut %.4f, ce %.4f, pgs %.4f rad; speed off the curb at 0.2 s: %.3f, %.3f, %.3f m/s\n",
              strut.peak_roll, ce.peak_roll, pgs.peak_roll, strut.speed_off, ce.speed_off, pgs.speed_off);
  ASSERT_GT(ce.peak_roll, 0.3) << "the strike tips the vehicle";
  ASSERT_LT(ce.speed_off, -0.5) << "and it comes off the curb";
  EXPECT_NEAR(strut.peak_roll / ce.peak_roll, 1.0, 0.05);
  EXPECT_NEAR(strut.speed_off / ce.speed_off, 1.0, 0.05);
  EXPECT_NEAR(pgs.peak_roll / ce.peak_roll, 1.0, 0.01);
  EXPECT_NEAR(pgs.speed_off / ce.speed_off, 1.0, 0.02);
}

// The curb's contact on the CUDA backend against the CPU for all three models (curb_slide, 1 s),
// copied to 1, 13 and 1001 vehicles on the device, each against the one CPU run: fp64 positions
// within 1e-6 relative (the contact's trigonometry differs by ulps between the two libraries, as
// the soil's does, SoilVehicleCuda), fp32 within the batch contract's 1 cm.
class CurbSlideCuda : public ::testing::TestWithParam<test::CudaCase> {};

TEST_P(CurbSlideCuda, CudaMatchesCpuForEveryModel) {
  std::string why;
  if (!cuda_available(&why)) GTEST_SKIP() << why;
  const int n = GetParam().vehicles;
  const Precision precision = GetParam().precision;
  const auto compare = [&](const char* model, const std::vector<VehicleSnapshot>& cpu, const std::vector<VehicleSnapshot>& cuda) {
    ASSERT_EQ(static_cast<int>(cuda.size()), n) << model;
    for (int v = 0; v < n; ++v) {
      EXPECT_EQ(cuda[static_cast<size_t>(v)].status, cpu[0].status) << model << ", vehicle " << v;
      for (int a = 0; a < 3; ++a) {
        const double c = cpu[0].position[a];
        EXPECT_NEAR(cuda[static_cast<size_t>(v)].position[a], c,
                    precision == Precision::Fp64 ? 1e-6 * std::max(1.0, std::fabs(c)) : 0.01)
            << model << ", vehicle " << v << ", axis " << a;
      }
    }
  };
  const StrutParams<double> strut = hmmwv_params();
  compare("strut", curb_slide(strut, 1, BackendKind::Cpu, precision, 1e-3, 1000),
          curb_slide(strut, n, BackendKind::Cuda, precision, 1e-3, 1000));
  const CeParams<double> ce = hmmwv_ce_params();
  compare("ce", curb_slide(ce, 1, BackendKind::Cpu, precision, 2e-3, 500),
          curb_slide(ce, n, BackendKind::Cuda, precision, 2e-3, 500));
  const PgsVehicleDef pgs{};
  compare("pgs", curb_slide(pgs, 1, BackendKind::Cpu, precision, 1e-3, 1000),
          curb_slide(pgs, n, BackendKind::Cuda, precision, 1e-3, 1000));
}

INSTANTIATE_TEST_SUITE_P(Sizes, CurbSlideCuda, ::testing::ValuesIn(test::cuda_copied_cases()), test::cuda_case_name);

#ifdef FLEETDYN_TEST_HAS_SCENARIO
// --- scenario files and studies ------------------------------------------------------------------

TEST(CurbScenario, ParsesTheCurbInDegrees) {
  const Scenario s = parse_scenario(
      "terrain: {type: flat, curb: {height: 0.15, x: 10, y: 1, heading_deg: 90, face_angle_deg: 45, "
      "edge_radius: 0.02, width: 0.5}}\nduration: 1\n",
      "inline.yaml");
  const TerrainDesc<double>& d = s.terrain.desc;
  EXPECT_EQ(d.curb_height, 0.15);
  EXPECT_EQ(d.curb_x, 10.0);
  EXPECT_EQ(d.curb_y, 1.0);
  EXPECT_NEAR(d.curb_heading, 0.5 * kPiD, 1e-15);
  EXPECT_NEAR(d.curb_face_angle, 0.25 * kPiD, 1e-15);
  EXPECT_EQ(d.curb_edge_radius, 0.02);
  EXPECT_EQ(d.curb_width, 0.5);
  // On a rough road the curb survives the road's generation.
  const Scenario road = parse_scenario("terrain: {type: rough_road, length: 50, curb: {height: 0.1}}\nduration: 1\n",
                                       "inline.yaml");
  EXPECT_EQ(road.terrain.desc.curb_height, 0.1);
}

TEST(CurbScenario, ErrorsNameTheField) {
  struct Case {
    const char* text;
    const char* field;
    const char* fragment;
  };
  const Case cases[] = {
      {"terrain: {type: flat, curb: {x: 1}}\nduration: 1\n", "terrain.curb.height", "required"},
      {"terrain: {type: flat, curb: {height: -0.1}}\nduration: 1\n", "terrain.curb.height", "-0.1"},
      {"terrain: {type: flat, curb: {height: 0.1, face_angle_deg: 120}}\nduration: 1\n", "terrain.curb.face_angle_deg",
       "120"},
      {"terrain: {type: flat, curb: {height: 0.1, edge_radius: 0.2}}\nduration: 1\n", "terrain.curb.edge_radius", "0.2"},
      {"terrain: {type: flat, curb: {height: 0.1, width: 0.02, edge_radius: 0.05}}\nduration: 1\n",
       "terrain.curb.edge_radius", "0.05"},
      {"terrain: {type: flat, curb: {height: 0.1, hieght: 2}}\nduration: 1\n", "terrain.curb.hieght", "unknown key"},
      {"terrain: {type: plane, slope_deg: 5, curb: {height: 0.1}}\nduration: 1\n", "terrain.curb", "not on plane"},
      {"terrain: {type: loop, curb: {height: 0.1}}\nduration: 1\n", "terrain.curb", "not on loop"},
  };
  for (const Case& c : cases) {
    const ScenarioError e = test::parse_error(c.text);
    EXPECT_EQ(e.field(), c.field) << c.text << "\n" << e.what();
    EXPECT_NE(std::string(e.what()).find(c.fragment), std::string::npos) << e.what();
  }
}

// terrain.curb_height and terrain.curb_offset sampled per study sample: each sample's own
// variation raises and moves the scenario's curb; a scenario without a curb refuses them.
TEST(CurbScenario, StudySamplesTheCurbsHeightAndOffset) {
  const Scenario s = parse_scenario(
      "terrain: {type: flat, curb: {height: 0.15, y: 2}}\nduration: 1\n"
      "study: {samples: 8, parameters: {terrain.curb_height: {dist: uniform, min: 0.05, max: 0.3}, "
      "terrain.curb_offset: {dist: uniform, min: -1, max: 1}}}\n",
      "inline.yaml");
  ASSERT_TRUE(study::sample_terrain_varies(s));
  const double values[2] = {0.25, -0.4};
  const study::SampleSetup su = study::sample_setup(s, values, 0);
  ASSERT_TRUE(su.valid) << su.invalid_reason;
  const TerrainDesc<double> own = varied_terrain(s.terrain.desc, su.terrain);
  EXPECT_NEAR(own.curb_height, 0.25, 1e-15);
  // The face moved 0.4 m towards -y (its line runs along +x, raised side +y).
  EXPECT_NEAR(query(own, 0.0, 1.5, 0.1).distance, 0.1, 1e-12);
  EXPECT_NEAR(query(own, 0.0, 1.5, 0.1).normal.y, -1.0, 1e-12);
  const ScenarioError e = test::parse_error(
      "terrain: {type: flat}\nduration: 1\nstudy: {samples: 8, parameters: {terrain.curb_height: "
      "{dist: uniform, min: 0.05, max: 0.3}}}\n");
  EXPECT_EQ(e.field(), "study.parameters.terrain.curb_height") << e.what();
  EXPECT_NE(std::string(e.what()).find("has none"), std::string::npos) << e.what();
}
#endif

}  // namespace
}  // namespace fleetdyn
