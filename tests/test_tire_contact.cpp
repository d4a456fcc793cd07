// The tire's contacts (physics/core/tire_contact.h): its solid's support against a densely sampled
// solid, its contact with flat ground against the cambered wheel's geometry worked out here, its
// contact with a curb's block against the overlap of the sampled solid (and the minimum-translation
// property: moved by the penetration along the normal it just clears the block), and strut and ce
// HMMWVs sliding sideways into a wall-high curb: the sidewall strikes it, half the tire's width
// from the wheel centre, where the ball of radius r0 would have struck a third of a metre earlier,
// and the energy ledger never gains. Over a heightfield with the tire envelope, a step against the
// same step given as a curb, and a strut HMMWV climbing it early.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "fleetdyn/backend.h"
#include "fleetdyn/ce.h"
#include "fleetdyn/physics/ce/ce_model.h"
#include "fleetdyn/physics/core/tire_contact.h"
#include "fleetdyn/vehicle.h"
#include "tests/strut_test_util.h"

namespace fleetdyn {
namespace {

using test::cpu_options;

constexpr double kPiD = 3.14159265358979323846;
constexpr double kDeg = kPiD / 180.0;
constexpr double kRadius = 0.4699, kHalfWidth = 0.5 * 0.3175;  // the HMMWV's tire

Vec3<double> unit(Vec3<double> v) { return v * (1.0 / norm(v)); }

// Points densely covering the tire's surface about the origin with spin axis `axis`: the tread
// (the ball's zone between the sidewall planes) and the two sidewall discs.
std::vector<Vec3<double>> sampled_tire(Vec3<double> axis, int n) {
  const Vec3<double> e1 = unit(cross(axis, std::fabs(axis.z) < 0.9 ? Vec3<double>{0, 0, 1} : Vec3<double>{1, 0, 0}));
  const Vec3<double> e2 = cross(axis, e1);
  const double rim = std::sqrt(kRadius * kRadius - kHalfWidth * kHalfWidth);
  std::vector<Vec3<double>> points;
  for (int i = 0; i < n; ++i) {
    const double phi = 2.0 * kPiD * i / n;
    const Vec3<double> radial = std::cos(phi) * e1 + std::sin(phi) * e2;
    for (int j = 0; j <= n / 8; ++j) {
      const double s = -kHalfWidth + 2.0 * kHalfWidth * j / (n / 8);  // tread
      points.push_back(s * axis + std::sqrt(kRadius * kRadius - s * s) * radial);
    }
    for (int j = 0; j <= n / 8; ++j) {  // sidewalls, rim edge inwards
      const double r = rim * (1.0 - double(j) / (n / 8));
      points.push_back(kHalfWidth * axis + r * radial);
      points.push_back(-kHalfWidth * axis + r * radial);
    }
  }
  return points;
}

// The support against the sampled solid, for directions on and off the tread, and the point it
// names is on the solid and reaches it.
TEST(TireSupport, MatchesTheSampledSolid) {
  std::mt19937 rng(7);
  std::normal_distribution<double> g;
  for (int k = 0; k < 40; ++k) {
    const Vec3<double> axis = unit({g(rng), g(rng), g(rng)});
    const Vec3<double> m = unit({g(rng), g(rng), g(rng)});
    const TireSupport<double> s = tire_support(m, axis, kRadius, kHalfWidth);
    double sampled = -1.0;
    for (const Vec3<double>& q : sampled_tire(axis, 720)) sampled = std::max(sampled, dot(m, q));
    EXPECT_NEAR(s.extent, sampled, 2e-5) << k;
    EXPECT_GE(s.extent, sampled - 1e-12) << k;
    const Vec3<double> point = s.extent * m + s.lateral;
    EXPECT_NEAR(dot(point, m), s.extent, 1e-12) << k;
    const double lean = norm(m - dot(m, axis) * axis);  // sin of m's angle to the axis
    if (lean >= kTireFaceOnRadial) {                    // the point is on the solid
      EXPECT_LE(norm(point), kRadius + 1e-12) << k;
      EXPECT_LE(std::fabs(dot(point, axis)), kHalfWidth + 1e-12) << k;
    } else {  // face-on to a sidewall: moved along m, the point is on that sidewall's disc
      const double side = dot(point, axis) > 0.0 ? kHalfWidth : -kHalfWidth;
      const Vec3<double> on_plane = point + ((side - dot(point, axis)) / dot(m, axis)) * m;
      EXPECT_LE(norm(on_plane - side * axis), std::sqrt(kRadius * kRadius - kHalfWidth * kHalfWidth) + 1e-9) << k;
    }
  }
}

// On flat ground a wheel cambered by gamma penetrates as the ball (r0 - z) while the ground's
// normal is within asin(b / r0) (19.7 deg) of the wheel plane; beyond, the lower sidewall's edge
// circle touches: its centre b sin(gamma) below the wheel centre, its lowest point a further
// sqrt(r0^2 - b^2) cos(gamma) below, so pen = b sin(gamma) + sqrt(r0^2 - b^2) cos(gamma) - z.
TEST(TirePlaneContact, CamberedWheelOnFlatGround) {
  const double z = 0.44, rim = std::sqrt(kRadius * kRadius - kHalfWidth * kHalfWidth);
  const TerrainContact<double> ground{z, {0, 0, 1}, 1.0};
  for (double deg : {0.0, 5.0, 15.0, 19.0, 21.0, 30.0, 60.0, 89.0}) {
    const double gamma = deg * kDeg;
    const Vec3<double> axis{0.0, std::cos(gamma), std::sin(gamma)};
    const TireContact<double> c = tire_plane_contact(ground, axis, kRadius, kHalfWidth);
    const double expected = std::sin(gamma) <= kHalfWidth / kRadius
                                ? kRadius - z
                                : kHalfWidth * std::sin(gamma) + rim * std::cos(gamma) - z;
    EXPECT_NEAR(c.penetration, expected, 1e-12) << deg;
    // The contact point lies on the ground (z = 0 below the wheel centre at z).
    EXPECT_NEAR(contact_patch(c).z, -z, 1e-12) << deg;
  }
}

// --- curb ------------------------------------------------------------------------------------

TerrainDesc<double> curb(double height, double face_angle, double edge_radius, double width) {
  TerrainDesc<double> t = default_terrain_desc<double>();
  t.curb_height = height;
  t.curb_heading = 0.0;  // the line along +x through the origin, raised towards +y (u = y)
  t.curb_face_angle = face_angle;
  t.curb_edge_radius = edge_radius;
  t.curb_width = width;
  return t;
}

// How deep the deepest sampled tire point (wheel centre c, axis a) lies inside the curb's block,
// counting only points above the ground (the cases below keep the tire off the ground).
double sampled_depth(const TerrainDesc<double>& t, Vec3<double> c, const std::vector<Vec3<double>>& shape) {
  double depth = 0.0;
  for (const Vec3<double>& q : shape) {
    const Vec3<double> x = c + q;
    if (x.z <= 0.0) continue;
    const CurbSection<double> s = curb_section(t.curb_height, t.curb_face_angle, t.curb_edge_radius, t.curb_width, x.y, x.z);
    depth = std::max(depth, -s.distance);
  }
  return depth;
}

TireContact<double> curb_contact_at(const TerrainDesc<double>& t, Vec3<double> c, Vec3<double> axis) {
  const TerrainContact<double> base = terrain_ground_query(t, c, 0.0, 0.0);
  return tire_curb_contact(t, base, c, 0.0, 0.0, axis, kRadius, kHalfWidth);
}

// Random tires (any axis) touching random curbs (barrier, sloped, ridge; sharp and rounded edges)
// by up to 2 cm, the tire clear of the ground: the penetration is the sampled solid's deepest
// point in the block (they agree for a shallow overlap); moved out along the normal by it, the tire
// clears the block; moved out by 3 mm less, it still overlaps.
TEST(TireCurbContact, MatchesTheSampledOverlapAndSeparatesAlongItsNormal) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> uni(0.0, 1.0);
  std::normal_distribution<double> g;
  const TerrainDesc<double> curbs[] = {curb(0.3, 90.0 * kDeg, 0.02, 0.0), curb(0.15, 45.0 * kDeg, 0.0, 0.0),
                                       curb(0.25, 70.0 * kDeg, 0.05, 0.4)};
  int checked = 0;
  for (const TerrainDesc<double>& t : curbs) {
    for (int k = 0; k < 600; ++k) {
      const Vec3<double> axis = unit({g(rng), g(rng), 0.5 * g(rng)});
      const std::vector<Vec3<double>> shape = sampled_tire(axis, 480);
      // A wheel centre near the block (across its line from -0.6 to 0.6 m, up to 0.3 m above
      // the ground at its lowest).
      const Vec3<double> centre{0.0, -0.6 + 1.2 * uni(rng), kRadius + 0.01 + 0.3 * uni(rng)};
      const TireContact<double> c = curb_contact_at(t, centre, axis);
      const double sampled = sampled_depth(t, centre, shape);
      if (c.penetration <= 0.0 && sampled <= 0.0) continue;
      if (c.penetration > 0.02) continue;  // shallow overlaps only
      ++checked;
      // No sampled point lies deeper than the penetration (sampling misses at most ~1 mm).
      EXPECT_GE(c.penetration, sampled - 1e-3)
          << "curb " << t.curb_height << " centre y " << centre.y << " z " << centre.z;
      const Vec3<double> out = centre + (c.penetration + 1e-6) * c.normal;
      EXPECT_LT(sampled_depth(t, out, shape), 1e-3) << "moved out along the normal, it still overlaps";
      if (c.penetration > 4e-3) {
        const Vec3<double> part = centre + (c.penetration - 3e-3) * c.normal;
        EXPECT_GT(sampled_depth(t, part, shape), 0.0) << "moved out by less, it no longer overlaps";
      }
      // The force acts where the two meet: its point (the deepest tire point moved out by the
      // penetration) lies on the block's surface, to 1 mm.
      if (c.penetration > 0.0) {
        const Vec3<double> point = centre + contact_patch(c);
        const CurbSection<double> at = curb_section(t.curb_height, t.curb_face_angle, t.curb_edge_radius, t.curb_width,
                                                    point.y, point.z);
        EXPECT_LT(std::fabs(at.distance), 1e-3) << "the contact's point is off the block: " << centre.y << " " << centre.z;
      }
      // On rounded edges and faces (no sharp corner of the block inside the tire) the deepest
      // tire point is the overlap.
      if (t.curb_edge_radius > 0.0) {
        EXPECT_NEAR(c.penetration, sampled, 1e-3) << centre.y << " " << centre.z;
      }
    }
  }
  EXPECT_GT(checked, 60);
}

// A tire sliding sideways (axis across the curb) against a vertical face higher than its
// centre's height minus its sidewall's radius: the sidewall, flat against the face, is pushed
// straight back across (no climb), by how far its plane has passed the face, at the middle of
// the stretch where the two overlap: from the sidewall's lowest point (0.45 - sqrt(r0^2 - b^2)
// up) to where the face meets its 0.02 m edge arc (0.28 m up).
TEST(TireCurbContact, SidewallMeetsAVerticalFaceHalfTheWidthFromTheCentre) {
  const TerrainDesc<double> t = curb(0.3, 90.0 * kDeg, 0.02, 0.0);
  const Vec3<double> axis{0.0, 1.0, 0.0};
  const double z = 0.45, rim = std::sqrt(kRadius * kRadius - kHalfWidth * kHalfWidth);
  const double middle = 0.5 * (std::max(0.0, z - rim) + 0.28);
  for (double pen : {0.001, 0.01, 0.03}) {
    const TireContact<double> c = curb_contact_at(t, {0.0, -(kHalfWidth - pen), z}, axis);
    EXPECT_NEAR(c.penetration, pen, 1e-9);
    EXPECT_NEAR(c.normal.y, -1.0, 1e-9);
    EXPECT_NEAR(c.normal.z, 0.0, 1e-9);
    const Vec3<double> patch = contact_patch(c);
    EXPECT_NEAR(patch.y, kHalfWidth - pen, 1e-9) << "on the face";
    EXPECT_NEAR(patch.z, middle - z, 1e-9) << "in the middle of the overlap";
  }
  // Clear of the face by a millimetre: no contact, where the ball of radius r0 would be 0.25 m deep.
  EXPECT_LE(curb_contact_at(t, {0.0, -(kHalfWidth + 0.001), 0.45}, axis).penetration, 0.0);
}

// A sidewall leaning over a curb's edge (the wheel rolled by gamma towards the curb, as a vehicle
// tipping over it): the face below the edge falls away from the sidewall's plane, so the block
// meets the tire at its top edge E = (0, h) only. The contact is the sidewall's plane through E:
// normal -axis, penetration b - (E - c).axis, and the force acts at E (on a rounded edge, at the
// arc's point along the normal), not at the sidewall's centre 0.3 m above the curb, whose moment
// about the edge would oppose the trip.
TEST(TireCurbContact, SidewallLeaningOverTheEdgeMeetsItAtTheEdge) {
  const double h = 0.15, z = 0.45, gamma = 3.0 * kDeg, pen = 0.005;
  const Vec3<double> axis{0.0, std::cos(gamma), -std::sin(gamma)};
  for (double r : {0.0, 0.02}) {
    const TerrainDesc<double> t = curb(h, 90.0 * kDeg, r, 0.0);
    // The edge arc (centre (r, h - r): the face is vertical) at its point whose outward normal is
    // -axis = (-cos gamma, sin gamma) in (u, w); for r = 0, E itself.
    const Vec3<double> edge{0.0, r - r * std::cos(gamma), h - r + r * std::sin(gamma)};
    // The wheel centre across the line where (edge - c).axis = b - pen.
    const double y = edge.y - (kHalfWidth - pen + (edge.z - z) * std::sin(gamma)) / std::cos(gamma);
    const Vec3<double> c{0.0, y, z};
    ASSERT_NEAR(dot(edge - c, axis), kHalfWidth - pen, 1e-12);
    const TireContact<double> contact = curb_contact_at(t, c, axis);
    // (the clearance has a kink at the sidewall's normal: 12 golden-section steps find it to
    // ~1e-4 rad, which the sidewall's radius turns into ~6e-5 m)
    EXPECT_NEAR(contact.penetration, pen, 1e-4) << "edge radius " << r;
    EXPECT_NEAR(contact.normal.y, -axis.y, 1e-3);
    EXPECT_NEAR(contact.normal.z, -axis.z, 1e-3);
    const Vec3<double> point = c + contact_patch(contact);
    EXPECT_NEAR(point.x, 0.0, 1e-9) << "along the line: the wheel centre's";
    EXPECT_NEAR(point.y, edge.y, 1e-4) << "edge radius " << r;
    EXPECT_NEAR(point.z, edge.z, 1e-4) << "edge radius " << r << ": at the edge, not the sidewall's centre";
  }
}

// A tire rolling straight at the curb (axis along its line) is the ball there: its penetration is
// r0 minus the exact distance of its centre to the curb (terrain_query's).
TEST(TireCurbContact, WheelRollingAcrossTheCurbIsTheBall) {
  const TerrainDesc<double> t = curb(0.15, 90.0 * kDeg, 0.02, 0.0);
  const Vec3<double> axis{1.0, 0.0, 0.0};
  for (double y : {-0.4, -0.3, -0.2, -0.1, 0.0, 0.1}) {
    const Vec3<double> centre{0.0, y, 0.45};
    const TerrainContact<double> exact = terrain_query(t, centre, 0.0, 0.0);
    const TireContact<double> c = curb_contact_at(t, centre, axis);
    if (kRadius - exact.distance <= 0.0 || exact.normal.z > 0.999) continue;  // the ground's, not the block's
    EXPECT_NEAR(c.penetration, kRadius - exact.distance, 1e-9) << y;
    EXPECT_NEAR(dot(c.normal, exact.normal), 1.0, 1e-9) << y;
  }
}

// --- heightfield envelope --------------------------------------------------------------------

// A heightfield along x (2 rows 10 m apart in y) with a step: ground until x_step, rising to h over
// one 0.01 m cell, then level; the tires meet it through their envelope if `envelope`.
TerrainSpec step_heightfield(double x_step, double h, bool envelope) {
  TerrainSpec t;
  TerrainDesc<double>& d = t.desc;
  d.kind = TerrainKind::Heightfield;
  d.hf_dx = 0.01;
  d.hf_dy = 10.0;
  d.hf_x0 = x_step - 3.0;
  d.hf_y0 = -5.0;
  d.hf_nx = 601;
  d.hf_ny = 2;
  d.hf_envelope = envelope ? 1 : 0;
  for (int iy = 0; iy < d.hf_ny; ++iy) {
    for (int ix = 0; ix < d.hf_nx; ++ix) t.heightfield.push_back(ix > 300 ? h : 0.0);  // node 300 is x_step
  }
  d.hf_heights = t.heightfield.data();
  return t;
}

// The same step as a curb: its face the one-cell ramp (face angle atan(h / 0.01)), sharp-edged.
TerrainDesc<double> step_curb(double x_step, double h) {
  TerrainDesc<double> t = default_terrain_desc<double>();
  t.curb_height = h;
  t.curb_x = x_step;
  t.curb_heading = -90.0 * kDeg;  // the line along y, raised towards +x
  t.curb_face_angle = std::atan2(h, 0.01);
  return t;
}

// Rolling straight at a 0.1 m step, the tire with the envelope meets the heightfield's step as it
// meets the same profile given as a curb (the exact distance, a separate code path), to 1e-9 m,
// at every wheel-centre position from 0.4 m before the step to past it; without the envelope it
// meets the surface under its centre only, so 0.2 m before the step it is still on the ground.
TEST(TireHeightfieldEnvelope, MeetsAStepAsTheSameCurb) {
  const double x_step = 1.0, h = 0.1, z = 0.45;
  const TerrainSpec with = step_heightfield(x_step, h, true), without = step_heightfield(x_step, h, false);
  const TerrainDesc<double> curb_desc = step_curb(x_step, h);
  const Vec3<double> axis{0.0, 1.0, 0.0};
  for (double dx = -0.4; dx <= 0.1001; dx += 0.01) {
    const Vec3<double> wheel{x_step + dx, 0.0, z};
    const TireContacts<double> hf = tire_contacts(with.desc, wheel, 0.0, 0.0, axis, kRadius, kHalfWidth);
    const TireContacts<double> cb = tire_contacts(curb_desc, wheel, 0.0, 0.0, axis, kRadius, kHalfWidth);
    EXPECT_NEAR(hf.primary.penetration, cb.primary.penetration, 1e-9) << dx;
    if (cb.primary.penetration > 0.0) {
      EXPECT_NEAR(dot(hf.primary.normal, cb.primary.normal), 1.0, 1e-9) << dx;
    }
  }
  const Vec3<double> before{x_step - 0.2, 0.0, z};
  const double point = tire_contacts(without.desc, before, 0.0, 0.0, axis, kRadius, kHalfWidth).primary.penetration;
  const double edge = kRadius - std::hypot(0.2 + 0.01, z - h);  // the step's top corner is at x_step + 0.01
  EXPECT_NEAR(point, kRadius - z, 1e-12) << "without the envelope: the ground under the centre";
  EXPECT_NEAR(tire_contacts(with.desc, before, 0.0, 0.0, axis, kRadius, kHalfWidth).primary.penetration, edge, 1e-12);
  EXPECT_GT(edge - point, 0.04);
}

// A strut HMMWV coasting at 3 m/s onto a 0.1 m heightfield step: with the envelope its front
// wheels start up the step's edge before their centres reach it (a rigid wheel of radius r0 meets
// an edge h high sqrt(r0^2 - (r0 - h)^2) = 0.28 m ahead), it climbs the step, nothing diverges and
// the ledger (which reads the same contacts) never gains. Without the envelope the wheel stays down
// until its centre is over the step (that run stops there: the surface under the centre on the
// step's 84-degree cell is met through its tangent plane, which throws the wheel).
TEST(TireHeightfieldEnvelope, StrutHmmwvClimbsAHeightfieldStepEarlyWithTheEnvelope) {
  const StrutParams<double> p = hmmwv_params();
  const double x_step = 4.0, h = 0.1;
  double rise_before[2] = {0.0, 0.0};
  for (int envelope = 0; envelope < 2; ++envelope) {
    const TerrainSpec t = step_heightfield(x_step, h, envelope == 1);
    Batch batch({p}, 1, t, cpu_options());
    batch.set_initial_conditions({{0.0, 0.0, 0.0, 3.0}});
    batch.set_maneuvers({{{0.0, 0.0, 0.0, 0.0}}});
    const double z0 = batch.state()[strut::kPos + 2] + batch.state()[strut::kUnsprungPos + 2];
    test::LedgerWatch ledger(batch.energy(0).total());
    for (int k = 0; k < 400; ++k) {  // 4 s
      batch.step(10);
      ledger.sample(batch.energy(0).total());
      const std::vector<double> s = batch.state();
      const double wx = s[strut::kPos] + s[strut::kUnsprungPos], wz = s[strut::kPos + 2] + s[strut::kUnsprungPos + 2];
      if (wx < x_step - 0.1) rise_before[envelope] = std::max(rise_before[envelope], wz - z0);
      if (envelope == 0 && wx >= x_step - 0.1) break;
    }
    if (envelope == 0) continue;
    ASSERT_EQ(batch.status()[0], kStatusRunning);
    const std::vector<double> s = batch.state();
    EXPECT_GT(s[strut::kPos] + s[strut::kUnsprungPos], x_step + 0.5) << "front-left wheel over the step";
    EXPECT_EQ(ledger.run.increases, 0) << "the ledger rose; by up to " << ledger.run.largest_increase << " J";
  }
  std::printf("front-left wheel's rise 0.1 m before the step: %.4f m with the envelope, %.4f m without\n",
              rise_before[1], rise_before[0]);
  EXPECT_GT(rise_before[1], 0.01) << "with the envelope the wheel climbs the edge ahead of its centre";
  EXPECT_LT(rise_before[0], 0.002) << "without it the wheel stays down until its centre is over the step";
}

// --- vehicles --------------------------------------------------------------------------------

// A 0.6 m barrier along +x at y = y_face, raised towards +y.
TerrainSpec wall_at(double y_face) {
  TerrainSpec t;
  t.desc = curb(0.6, 90.0 * kDeg, 0.02, 0.0);
  t.desc.curb_y = y_face;
  return t;
}

// A strut HMMWV at rest slides sideways at 2 m/s, brakes on, into a 0.6 m barrier 0.3 m beyond its
// left wheel centres (the ball of radius r0 = 0.47 m about them would start 0.17 m inside it): the
// left wheel centres reach the face to half the tire's width less the sidewall's deflection
// (< 3 cm here); nothing diverges; the ledger, the secondary contact's spring in it, never gains.
TEST(TireCurbVehicle, StrutSidewallStrikesAWallSideways) {
  const StrutParams<double> p = hmmwv_params();
  Batch settle({p}, 1, TerrainSpec{}, cpu_options());
  settle.set_maneuvers({{{0.0, 0.0, 0.0, 1.0}}});
  settle.step(1000);
  std::vector<double> s = settle.state();
  const double wheel_y = std::max(s[strut::kPos + 1] + s[strut::kUnsprungPos + 1],
                                  s[strut::kPos + 1] + s[strut::kUnsprungPos + 7]);
  const double y_face = wheel_y + 0.3;
  Batch batch({p}, 1, wall_at(y_face), cpu_options());
  batch.set_maneuvers({{{0.0, 0.0, 0.0, 1.0}}});
  s[strut::kVel + 1] = 2.0;  // the wheels' velocities are relative to the body's: they move with it
  batch.set_vehicle_state(0, s);
  test::LedgerWatch ledger(batch.energy(0).total());
  double nearest = 1.0;
  for (int k = 0; k < 1500; ++k) {
    batch.step(1);
    ledger.sample(batch.energy(0).total());
    const std::vector<double> x = batch.state();
    for (int i : {0, 2})
      nearest = std::min(nearest, y_face - (x[strut::kPos + 1] + x[strut::kUnsprungPos + 3 * i + 1]));
  }
  std::printf("nearest left wheel centre to the face: %.4f m (half width %.4f m)\n", nearest, kHalfWidth);
  ASSERT_EQ(batch.status()[0], kStatusRunning);
  EXPECT_LT(nearest, kHalfWidth) << "the sidewall reached the face";
  EXPECT_GT(nearest, kHalfWidth - 0.03);
  EXPECT_EQ(ledger.run.increases, 0) << "the ledger rose; by up to " << ledger.run.largest_increase << " J";
  EXPECT_LT(std::fabs(batch.state()[strut::kVel + 1]), 0.05) << "stopped by the wall";
}

// The same with ce, its wheel centres from its corner kinematics at the state read back.
TEST(TireCurbVehicle, CeSidewallStrikesAWallSideways) {
  const CeParams<double> p = hmmwv_ce_params();
  const double wheel_y = p.corner[0].design.wheel_centre.y - p.chassis_com.y;  // from the chassis COM
  const double y_face = wheel_y + 0.3;
  const TerrainSpec wall = wall_at(y_face);
  Batch batch({p}, 1, wall, cpu_options());
  Batch rest({p}, 1, wall, cpu_options());
  InitialCondition ic{};
  ic.lateral_speed = 2.0;
  batch.set_initial_conditions({ic});
  batch.set_maneuvers({{{0.0, 0.0, 0.0, 1.0}}});
  ASSERT_GT(batch.mechanical_energy(0), rest.mechanical_energy(0));  // it slides
  test::LedgerWatch ledger(batch.mechanical_energy(0));
  double nearest = 10.0;
  for (int k = 0; k < 1500; ++k) {
    batch.step(1);
    ledger.sample(batch.mechanical_energy(0));
    const std::vector<double> s = batch.state(), o = batch.origins();
    const CeEnvironment<double> env{&wall.desc, o[0], o[1]};
    CeCornerBodies<double> corners[kCorners];
    double ds[kCeStateSize];
    ce_derivative(p, env, DriverInput<double>{0.0, 0.0, 1.0}, s.data(), ds, corners);
    const Mat3<double> rot = rotation_matrix(normalized(load_quat(s.data(), ce::kQuat)));
    for (int i : {0, 2}) {
      const double y = o[1] + s[ce::kPos + 1] + (rot * corners[i].pose.wheel_centre).y;
      nearest = std::min(nearest, y_face - y);
    }
  }
  std::printf("nearest left wheel centre to the face: %.4f m (half width %.4f m)\n", nearest, kHalfWidth);
  ASSERT_EQ(batch.status()[0], kStatusRunning);
  EXPECT_LT(nearest, kHalfWidth) << "the sidewall reached the face";
  EXPECT_GT(nearest, kHalfWidth - 0.03);
  EXPECT_EQ(ledger.run.increases, 0) << "the ledger rose; by up to " << ledger.run.largest_increase << " J";
  EXPECT_LT(std::fabs(batch.snapshots()[0].velocity[1]), 0.05) << "stopped by the wall";
}

}  // namespace
}  // namespace fleetdyn
