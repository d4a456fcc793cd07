// Tests of the terrain queries (fleetdyn/physics/core/terrain.h), run for float and double.
// References are computed in fp64 from the same (already rounded) inputs; tolerances scale with
// the scalar's epsilon and the magnitude of the numbers involved.
#include "fleetdyn/physics/core/math.h"
#include "fleetdyn/physics/core/terrain.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace fleetdyn {
namespace {

template <class T>
class TerrainTest : public ::testing::Test {
 protected:
  // Absolute tolerance for results of size `scale` after a handful of operations.
  static double tol(double scale) { return 64.0 * std::numeric_limits<T>::epsilon() * (scale < 1.0 ? 1.0 : scale); }
  static TerrainContact<T> query(const TerrainDesc<T>& t, double x, double y, double z, double ox = 0, double oy = 0) {
    return terrain_query<T>(t, Vec3<T>{T(x), T(y), T(z)}, T(ox), T(oy));
  }
  static void expect_unit(const TerrainContact<T>& c) {
    const double n = std::sqrt(double(c.normal.x) * c.normal.x + double(c.normal.y) * c.normal.y +
                               double(c.normal.z) * c.normal.z);
    EXPECT_NEAR(n, 1.0, tol(1.0));
  }
  std::mt19937 rng{12345u};
  double uniform(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); }
};

using Scalars = ::testing::Types<float, double>;
TYPED_TEST_SUITE(TerrainTest, Scalars);

// Converts a descriptor to fp64 with the same (rounded) parameter values, for reference queries.
template <class T>
TerrainDesc<double> to_double(const TerrainDesc<T>& t, const double* heights) {
  TerrainDesc<double> d = default_terrain_desc<double>();
  d.kind = t.kind;
  d.base_height = t.base_height;
  d.slope = t.slope;
  d.bank = t.bank;
  d.hill_x = t.hill_x;
  d.hill_y = t.hill_y;
  d.hill_height = t.hill_height;
  d.hill_radius = t.hill_radius;
  d.hf_x0 = t.hf_x0;
  d.hf_y0 = t.hf_y0;
  d.hf_dx = t.hf_dx;
  d.hf_dy = t.hf_dy;
  d.hf_nx = t.hf_nx;
  d.hf_ny = t.hf_ny;
  d.hf_heights = heights;
  d.loop_x = t.loop_x;
  d.loop_radius = t.loop_radius;
  d.loop_lateral_shift = t.loop_lateral_shift;
  d.loop_track_width = t.loop_track_width;
  d.mu_scale = t.mu_scale;
  return d;
}

// Surface height recovered from an fp64 query of a height-type surface: distance = (z - h) n_z.
double height_at(const TerrainDesc<double>& t, double x, double y) {
  const TerrainContact<double> c = terrain_query<double>(t, Vec3<double>{x, y, 0.0}, 0.0, 0.0);
  return -c.distance / c.normal.z;
}

// Normal from central differences of the fp64 height.
Vec3<double> fd_normal(const TerrainDesc<double>& t, double x, double y, double h) {
  const double hx = (height_at(t, x + h, y) - height_at(t, x - h, y)) / (2 * h);
  const double hy = (height_at(t, x, y + h) - height_at(t, x, y - h)) / (2 * h);
  const double inv = 1.0 / std::sqrt(1 + hx * hx + hy * hy);
  return {-hx * inv, -hy * inv, inv};
}

TYPED_TEST(TerrainTest, DefaultDescriptor) {
  using T = TypeParam;
  const TerrainDesc<T> t = default_terrain_desc<T>();
  EXPECT_EQ(t.kind, TerrainKind::Flat);
  EXPECT_EQ(t.base_height, T(0));
  EXPECT_EQ(t.mu_scale, T(1));
  EXPECT_EQ(t.loop_radius, T(8));
  EXPECT_EQ(t.loop_lateral_shift, T(3.5));
  EXPECT_EQ(t.loop_track_width, T(6));
  EXPECT_EQ(t.hf_heights, nullptr);
}

TYPED_TEST(TerrainTest, FlatDistanceAndNormal) {
  using T = TypeParam;
  TerrainDesc<T> t = default_terrain_desc<T>();
  t.base_height = T(1.25);
  t.mu_scale = T(0.7);
  for (int i = 0; i < 200; ++i) {
    const double x = this->uniform(-50, 50), y = this->uniform(-50, 50), z = this->uniform(-3, 5);
    const TerrainContact<T> c = this->query(t, x, y, z, this->uniform(-100, 100), this->uniform(-100, 100));
    EXPECT_NEAR(c.distance, double(T(z)) - 1.25, this->tol(5.0));
    EXPECT_EQ(c.normal.x, T(0));
    EXPECT_EQ(c.normal.y, T(0));
    EXPECT_EQ(c.normal.z, T(1));
    EXPECT_EQ(c.mu_scale, T(0.7));
    EXPECT_NEAR(penetration(c, T(0.3)), 0.3 - double(c.distance), this->tol(5.0));
  }
}

TYPED_TEST(TerrainTest, PlaneDistanceIsExactProjection) {
  using T = TypeParam;
  TerrainDesc<T> t = default_terrain_desc<T>();
  t.kind = TerrainKind::Plane;
  t.base_height = T(0.5);
  t.slope = T(0.2);
  t.bank = T(-0.1);
  const double gx = std::tan(double(t.slope)), gy = std::tan(double(t.bank));
  const double nn = std::sqrt(1 + gx * gx + gy * gy);
  const Vec3<double> n{-gx / nn, -gy / nn, 1 / nn};
  for (int i = 0; i < 200; ++i) {
    const double ox = this->uniform(-20, 20), oy = this->uniform(-20, 20);
    const T lx = T(this->uniform(-5, 5)), ly = T(this->uniform(-5, 5)), lz = T(this->uniform(-8, 8));
    const TerrainContact<T> c = terrain_query<T>(t, Vec3<T>{lx, ly, lz}, T(ox), T(oy));
    // Analytic: distance = (p - p0) . n with p0 = (0, 0, base) on the plane.
    const Vec3<double> p{double(T(ox)) + lx, double(T(oy)) + ly, double(lz)};
    const double d_ref = p.x * n.x + p.y * n.y + (p.z - double(t.base_height)) * n.z;
    EXPECT_NEAR(c.distance, d_ref, this->tol(10.0));
    // The foot point p - d n lies on the plane.
    const Vec3<double> q{p.x - c.distance * n.x, p.y - c.distance * n.y, p.z - c.distance * n.z};
    EXPECT_NEAR(q.z, double(t.base_height) + gx * q.x + gy * q.y, this->tol(10.0));
    EXPECT_NEAR(c.normal.x, n.x, this->tol(1.0));
    EXPECT_NEAR(c.normal.y, n.y, this->tol(1.0));
    EXPECT_NEAR(c.normal.z, n.z, this->tol(1.0));
    this->expect_unit(c);
  }
}

TYPED_TEST(TerrainTest, HillHeightAndNormalMatchFiniteDifferences) {
  using T = TypeParam;
  TerrainDesc<T> t = default_terrain_desc<T>();
  t.kind = TerrainKind::Hill;
  t.base_height = T(0.3);
  t.hill_x = T(10);
  t.hill_y = T(-4);
  t.hill_height = T(2.5);
  t.hill_radius = T(6);
  const TerrainDesc<double> d = to_double(t, nullptr);
  // Peak: distance above the top is exact there (flat tangent plane).
  EXPECT_NEAR(this->query(t, 0, 0, 0.3 + 2.5 + 0.4, 10, -4).distance, 0.4, this->tol(4.0));
  for (int i = 0; i < 200; ++i) {
    const double x = double(T(this->uniform(-10, 30))), y = double(T(this->uniform(-20, 12)));
    const TerrainContact<T> c = this->query(t, x, y, 1.0);
    const Vec3<double> n = fd_normal(d, x, y, 1e-5);
    EXPECT_NEAR(c.normal.x, n.x, this->tol(1.0) + 1e-8);
    EXPECT_NEAR(c.normal.y, n.y, this->tol(1.0) + 1e-8);
    EXPECT_NEAR(c.normal.z, n.z, this->tol(1.0) + 1e-8);
    this->expect_unit(c);
    const double r2 = sq(x - 10) + sq(y + 4);
    const double h = 0.3 + 2.5 * std::exp(-r2 / 72.0);
    EXPECT_NEAR(c.distance, (1.0 - h) * n.z, this->tol(3.0) + 1e-8);
  }
}

// 5 x 4 grid with hand-picked heights and non-unit spacing.
template <class T>
struct Grid {
  static constexpr int nx = 5, ny = 4;
  T h[nx * ny];
  double hd[nx * ny];
  TerrainDesc<T> desc;
  Grid() {
    const double v[nx * ny] = {0.0,  0.5,  1.2, 0.7, -0.3,  //
                               0.2,  0.9,  1.8, 1.1, 0.0,   //
                               -0.4, 0.1,  2.3, 0.6, 0.4,   //
                               0.3,  -0.2, 0.8, 1.5, 1.0};
    for (int i = 0; i < nx * ny; ++i) {
      h[i] = T(v[i]);
      hd[i] = double(h[i]);
    }
    desc = default_terrain_desc<T>();
    desc.kind = TerrainKind::Heightfield;
    desc.base_height = T(0.25);
    desc.hf_x0 = T(-3);
    desc.hf_y0 = T(2);
    desc.hf_dx = T(1.5);
    desc.hf_dy = T(2.5);
    desc.hf_nx = nx;
    desc.hf_ny = ny;
    desc.hf_heights = h;
  }
  double node_x(int ix) const { return -3.0 + 1.5 * ix; }
  double node_y(int iy) const { return 2.0 + 2.5 * iy; }
};

TYPED_TEST(TerrainTest, HeightfieldExactAtNodes) {
  using T = TypeParam;
  const Grid<T> g;
  for (int iy = 0; iy < g.ny; ++iy)
    for (int ix = 0; ix < g.nx; ++ix) {
      // Query straight above the node, via a non-zero origin to exercise the offset split.
      const TerrainContact<T> c = this->query(g.desc, 0.5, -1.0, 5.0, g.node_x(ix) - 0.5, g.node_y(iy) + 1.0);
      const double h = 5.0 - c.distance / c.normal.z;
      EXPECT_NEAR(h, 0.25 + g.hd[iy * g.nx + ix], this->tol(5.0)) << ix << "," << iy;
    }
}

TYPED_TEST(TerrainTest, HeightfieldNormalMatchesFiniteDifferences) {
  using T = TypeParam;
  const Grid<T> g;
  const TerrainDesc<double> d = to_double(g.desc, g.hd);
  for (int i = 0; i < 300; ++i) {
    // Random point strictly inside a cell so the central difference stays in that cell.
    const int ix = int(this->uniform(0, g.nx - 1)), iy = int(this->uniform(0, g.ny - 1));
    const double x = double(T(g.node_x(ix) + 1.5 * this->uniform(0.05, 0.95)));
    const double y = double(T(g.node_y(iy) + 2.5 * this->uniform(0.05, 0.95)));
    const TerrainContact<T> c = this->query(g.desc, x, y, 3.0);
    const Vec3<double> n = fd_normal(d, x, y, 1e-4);
    EXPECT_NEAR(c.normal.x, n.x, this->tol(1.0) + 1e-9);
    EXPECT_NEAR(c.normal.y, n.y, this->tol(1.0) + 1e-9);
    EXPECT_NEAR(c.normal.z, n.z, this->tol(1.0) + 1e-9);
    this->expect_unit(c);
  }
}

TYPED_TEST(TerrainTest, HeightfieldContinuousAcrossCellEdges) {
  using T = TypeParam;
  const Grid<T> g;
  const double eps = std::is_same<T, float>::value ? 1e-3 : 1e-7;
  const double slope_max = 2.0;  // |dh/dx|, |dh/dy| bound of this grid (max step 1.6 m over 1.5 m)
  for (int i = 0; i < 100; ++i) {
    // Interior vertical edge x = node_x(ix), random y.
    const int ix = 1 + int(this->uniform(0, g.nx - 2));
    const double y = this->uniform(g.node_y(0), g.node_y(g.ny - 1));
    const auto a = this->query(g.desc, g.node_x(ix) - eps, y, 3.0), b = this->query(g.desc, g.node_x(ix) + eps, y, 3.0);
    EXPECT_NEAR(3.0 - a.distance / a.normal.z, 3.0 - b.distance / b.normal.z, 2 * eps * slope_max + this->tol(3.0));
    // Interior horizontal edge y = node_y(iy), random x.
    const int iy = 1 + int(this->uniform(0, g.ny - 2));
    const double x = this->uniform(g.node_x(0), g.node_x(g.nx - 1));
    const auto e = this->query(g.desc, x, g.node_y(iy) - eps, 3.0), f = this->query(g.desc, x, g.node_y(iy) + eps, 3.0);
    EXPECT_NEAR(3.0 - e.distance / e.normal.z, 3.0 - f.distance / f.normal.z, 2 * eps * slope_max + this->tol(3.0));
  }
  // Exactly on an edge the x slope is that of one adjacent cell (the one above, by floor): compare
  // with a one-sided difference into that cell (exact, the interpolant is linear in x there).
  const TerrainDesc<double> d = to_double(g.desc, g.hd);
  const double xe = g.node_x(2), ye = g.node_y(1) + 1.0;
  const auto on = this->query(g.desc, xe, ye, 3.0);
  const double hx_right = (height_at(d, xe + 0.1, ye) - height_at(d, xe, ye)) / 0.1;
  const double hx_left = (height_at(d, xe, ye) - height_at(d, xe - 0.1, ye)) / 0.1;
  ASSERT_GT(std::fabs(hx_right - hx_left), 0.1);  // the edge is a genuine kink here
  EXPECT_NEAR(-on.normal.x / on.normal.z, hx_right, this->tol(2.0) + 1e-9);
}

TYPED_TEST(TerrainTest, HeightfieldClampsOutside) {
  using T = TypeParam;
  const Grid<T> g;
  const double x_last = g.node_x(g.nx - 1), y_last = g.node_y(g.ny - 1);
  // Beyond a corner: the corner value, flat.
  auto c = this->query(g.desc, x_last + 40.0, y_last + 7.0, 4.0);
  EXPECT_NEAR(c.distance, 4.0 - (0.25 + g.hd[g.nx * g.ny - 1]), this->tol(4.0));
  EXPECT_EQ(c.normal.x, T(0));
  EXPECT_EQ(c.normal.y, T(0));
  EXPECT_EQ(c.normal.z, T(1));
  c = this->query(g.desc, g.node_x(0) - 1e6, g.node_y(0) - 1e6, 4.0);
  EXPECT_NEAR(c.distance, 4.0 - (0.25 + g.hd[0]), this->tol(4.0));
  // Outside in x only (x < x0): the edge column is held, varying linearly along y; no x slope.
  const double y = g.node_y(1) + 0.4 * 2.5;
  c = this->query(g.desc, g.node_x(0) - 3.0, y, 4.0);
  const double h_edge = 0.25 + g.hd[1 * g.nx] + 0.4 * (g.hd[2 * g.nx] - g.hd[1 * g.nx]);
  EXPECT_NEAR(4.0 - c.distance / c.normal.z, h_edge, this->tol(4.0));
  EXPECT_EQ(c.normal.x, T(0));
  const double hy = (g.hd[2 * g.nx] - g.hd[1 * g.nx]) / 2.5;
  EXPECT_NEAR(c.normal.y, -hy / std::sqrt(1 + hy * hy), this->tol(1.0));
}

TYPED_TEST(TerrainTest, DegenerateInputsGiveBaseGroundWithoutNaN) {
  using T = TypeParam;
  TerrainDesc<T> t = default_terrain_desc<T>();
  t.base_height = T(0.1);
  t.kind = TerrainKind::Heightfield;  // null heights
  auto c = this->query(t, 1, 2, 3);
  EXPECT_NEAR(c.distance, 2.9, this->tol(3.0));
  EXPECT_EQ(c.normal.z, T(1));
  t.kind = TerrainKind::Hill;  // zero radius
  t.hill_height = T(3);
  c = this->query(t, 0, 0, 3);
  EXPECT_NEAR(c.distance, 2.9, this->tol(3.0));
  t.kind = TerrainKind::Loop;  // zero lateral shift still defined
  t.loop_lateral_shift = T(0);
  for (double z : {0.1 + 8.0, 0.1 + 1.0, 0.1 + 15.0}) {
    c = this->query(t, 0.0, 0.0, z);
    EXPECT_TRUE(std::isfinite(double(c.distance)));
    EXPECT_TRUE(std::isfinite(double(c.normal.x)) && std::isfinite(double(c.normal.z)));
  }
}

// ---- Loop: radius 8, shift 3.5, width 6 (defaults), loop_x = 30, base 0.2 ----
template <class T>
TerrainDesc<T> loop_desc() {
  TerrainDesc<T> t = default_terrain_desc<T>();
  t.kind = TerrainKind::Loop;
  t.base_height = T(0.2);
  t.loop_x = T(30);
  return t;
}
// World point at lap angle theta, radial distance rho from the axis, lateral y.
inline Vec3<double> loop_point(double theta, double rho, double y) {
  return {30.0 + rho * std::sin(theta), y, 0.2 + 8.0 - rho * std::cos(theta)};
}

TYPED_TEST(TerrainTest, LoopWallDistanceAndNormal) {
  using T = TypeParam;
  const TerrainDesc<T> t = loop_desc<T>();
  for (double theta : {0.3, 1.0, kPi / 2, 2.2, 3.0, 3.5, 4.4, 5.2, 6.0}) {
    const double y = 3.5 * theta / (2 * kPi) + 0.7;  // off the centreline, within the track
    for (double depth : {0.0, 0.5, 2.0, -0.3}) {     // on, inside (free side), outside (in the wall)
      const Vec3<double> p = loop_point(theta, 8.0 - depth, y);
      const TerrainContact<T> c = this->query(t, p.x, p.y, p.z);
      EXPECT_NEAR(c.distance, depth, this->tol(20.0)) << theta << " " << depth;
      // Normal points from the wall to the axis.
      EXPECT_NEAR(c.normal.x, -std::sin(theta), this->tol(1.0)) << theta;
      EXPECT_NEAR(c.normal.y, 0.0, this->tol(1.0));
      EXPECT_NEAR(c.normal.z, std::cos(theta), this->tol(1.0)) << theta;
      this->expect_unit(c);
    }
  }
}

TYPED_TEST(TerrainTest, LoopWholeHelixIsTrack) {
  using T = TypeParam;
  const TerrainDesc<T> t = loop_desc<T>();
  // Walking the centreline, 0.2 m off the wall, the loop is seen all the way round (rear wall too).
  for (int i = 1; i < 100; ++i) {
    const double theta = 2 * kPi * i / 100.0;
    const Vec3<double> p = loop_point(theta, 7.8, 3.5 * theta / (2 * kPi));
    const TerrainContact<T> c = this->query(t, p.x, p.y, p.z);
    EXPECT_NEAR(c.distance, 0.2, this->tol(20.0)) << theta;
    EXPECT_NEAR(c.normal.z, std::cos(theta), this->tol(1.0)) << theta;
  }
}

TYPED_TEST(TerrainTest, LoopRunwayBeforeEntryIsFlat) {
  using T = TypeParam;
  const TerrainDesc<T> t = loop_desc<T>();
  // Car standing on the entry runway (y ~ 0) right up to the loop: only the base ground, even where
  // the descending rear wall passes overhead one lateral shift further along y.
  for (double x : {0.0, 20.0, 25.0, 27.0, 29.0, 29.9}) {
    for (double y : {-0.9, 0.0, 0.9}) {
      for (double z : {0.2 + 0.3, 0.2 + 0.05, 0.2 + 1.5}) {
        const TerrainContact<T> c = this->query(t, x, y, z);
        EXPECT_NEAR(c.distance, z - 0.2, this->tol(2.0)) << x << " " << y << " " << z;
        EXPECT_EQ(c.normal.z, T(1));
      }
    }
  }
  // The rear wall itself at y = 0 is not track either (it is reached only along the helix).
  const Vec3<double> p = loop_point(4.0, 7.8, 0.0);
  const TerrainContact<T> c = this->query(t, p.x, p.y, p.z);
  EXPECT_NEAR(c.distance, p.z - 0.2, this->tol(20.0));
  EXPECT_EQ(c.normal.z, T(1));
}

TYPED_TEST(TerrainTest, LoopTopIsTrack) {
  using T = TypeParam;
  const TerrainDesc<T> t = loop_desc<T>();
  const TerrainContact<T> c = this->query(t, 30.0, 3.5 / 2, 0.2 + 16.0 - 0.4);
  EXPECT_NEAR(c.distance, 0.4, this->tol(20.0));
  EXPECT_NEAR(c.normal.x, 0.0, this->tol(1.0));
  EXPECT_NEAR(c.normal.z, -1.0, this->tol(1.0));
}

TYPED_TEST(TerrainTest, LoopExitRunwayIsFlat) {
  using T = TypeParam;
  const TerrainDesc<T> t = loop_desc<T>();
  for (double x : {30.1, 31.0, 33.0, 36.0, 45.0, 80.0}) {
    for (double dy : {-0.9, 0.0, 0.9}) {
      const TerrainContact<T> c = this->query(t, x, 3.5 + dy, 0.2 + 0.3);
      EXPECT_NEAR(c.distance, 0.3, this->tol(2.0)) << x << " " << dy;
      EXPECT_EQ(c.normal.z, T(1));
    }
  }
}

TYPED_TEST(TerrainTest, LoopFrontWallAfterEntryIsTrack) {
  using T = TypeParam;
  const TerrainDesc<T> t = loop_desc<T>();
  // Wheel centre 0.3 m above the base ground, 3 m past the entry, on the entry lane: the front wall
  // is already higher than the runway there, so the loop is the deeper contact.
  const double dx = 3.0, dz = 0.3 - 8.0;
  const double rho = std::sqrt(dx * dx + dz * dz);
  const TerrainContact<T> c = this->query(t, 33.0, 0.0, 0.2 + 0.3);
  EXPECT_NEAR(c.distance, 8.0 - rho, this->tol(20.0));
  EXPECT_LT(c.distance, 0.3);
  EXPECT_NEAR(c.normal.x, -dx / rho, this->tol(1.0));
  EXPECT_NEAR(c.normal.z, -dz / rho, this->tol(1.0));
}

TYPED_TEST(TerrainTest, LoopAxisHasNoNaN) {
  using T = TypeParam;
  const TerrainDesc<T> t = loop_desc<T>();
  for (double y : {0.0, 1.75, 3.5, -10.0}) {
    const TerrainContact<T> c = this->query(t, 30.0, y, 0.2 + 8.0);
    EXPECT_TRUE(std::isfinite(double(c.distance)));
    EXPECT_TRUE(std::isfinite(double(c.normal.x)) && std::isfinite(double(c.normal.y)) && std::isfinite(double(c.normal.z)));
    EXPECT_NEAR(c.distance, 8.0, this->tol(8.0));  // the base ground is the only surface there
  }
}

TYPED_TEST(TerrainTest, LoopOnlyNearItsWall) {
  using T = TypeParam;
  const TerrainDesc<T> t = loop_desc<T>();
  // The loop is a ribbon: well inside (rho < R/2) or behind its 1 m shell (rho > R + 1) only the
  // base ground applies, even at the lap angle and lateral position of the track.
  for (double theta : {0.8, 2.0, kPi}) {
    const double y = 3.5 * theta / (2 * kPi);
    for (double rho : {0.3 * 8.0, 8.0 + 1.2, 1.7 * 8.0}) {
      const Vec3<double> p = loop_point(theta, rho, y);
      const TerrainContact<T> c = this->query(t, p.x, p.y, p.z);
      EXPECT_NEAR(c.distance, p.z - 0.2, this->tol(20.0)) << theta << " " << rho;
      EXPECT_EQ(c.normal.z, T(1));
    }
  }
  // Far past the loop on the entry lane's y: runway, not the outside of the front wall.
  const TerrainContact<T> c = this->query(t, 30.0 + 20.0, 0.0, 0.2 + 0.3);
  EXPECT_NEAR(c.distance, 0.3, this->tol(2.0));
  // On the runway 9 m before the loop, laterally under the descending back wall (rho ~ 11.9 m,
  // nearest lap = the back wall): ground, not 4 m deep inside the wall (a regression: a car
  // drifting along the helix heading hit this).
  const TerrainContact<T> under = this->query(t, 30.0 - 9.0, 1.4, 0.2 + 0.45);
  EXPECT_NEAR(under.distance, 0.45, this->tol(2.0));
  EXPECT_EQ(under.normal.z, T(1));
}

// ---- fp32 precision far from the world origin: compare to the fp64 query of the same inputs ----
TYPED_TEST(TerrainTest, FarFromOriginMatchesDouble) {
  using T = TypeParam;
  const double ox = 20000.0, oy = 0.5;  // y near the loop's entry lane so the wall is exercised
  std::vector<TerrainDesc<T>> descs;
  TerrainDesc<T> t = default_terrain_desc<T>();
  t.base_height = T(0.15);
  descs.push_back(t);  // flat
  t.kind = TerrainKind::Plane;
  t.slope = T(0.0015);  // plane height at the origin ~ 30 m, which fp32 still resolves to ~2e-6 m
  t.bank = T(0.02);
  descs.push_back(t);
  t = default_terrain_desc<T>();
  t.kind = TerrainKind::Hill;
  t.hill_x = T(20003.5);
  t.hill_y = T(1.0);
  t.hill_height = T(1.2);
  t.hill_radius = T(4);
  descs.push_back(t);
  t = loop_desc<T>();
  t.loop_x = T(20002);
  descs.push_back(t);
  for (const TerrainDesc<T>& desc : descs) {
    const TerrainDesc<double> d = to_double(desc, nullptr);
    for (int i = 0; i < 200; ++i) {
      const T lx = T(this->uniform(-4, 4)), ly = T(this->uniform(-2, 2)), lz = T(this->uniform(0.0, 1.0));
      const TerrainContact<T> c = terrain_query<T>(desc, Vec3<T>{lx, ly, lz}, T(ox), T(oy));
      const TerrainContact<double> r = terrain_query<double>(d, Vec3<double>{lx, ly, lz}, ox, oy);
      EXPECT_NEAR(c.distance, r.distance, 1e-5) << int(desc.kind) << " " << lx << " " << ly << " " << lz;
      EXPECT_NEAR(c.normal.x, r.normal.x, 1e-5);
      EXPECT_NEAR(c.normal.z, r.normal.z, 1e-5);
    }
  }
}

TYPED_TEST(TerrainTest, FarFromOriginHeightfieldMatchesDouble) {
  using T = TypeParam;
  Grid<T> g;
  g.desc.hf_x0 = T(20000);
  g.desc.hf_y0 = T(-4000);
  const TerrainDesc<double> d = to_double(g.desc, g.hd);
  for (int i = 0; i < 200; ++i) {
    const T lx = T(this->uniform(-2, 8)), ly = T(this->uniform(-2, 9)), lz = T(this->uniform(0.0, 3.0));
    const TerrainContact<T> c = terrain_query<T>(g.desc, Vec3<T>{lx, ly, lz}, T(20000), T(-4000));
    const TerrainContact<double> r = terrain_query<double>(d, Vec3<double>{lx, ly, lz}, 20000.0, -4000.0);
    EXPECT_NEAR(c.distance, r.distance, 1e-5);
    EXPECT_NEAR(c.normal.x, r.normal.x, 1e-5);
  }
}

}  // namespace
}  // namespace fleetdyn
