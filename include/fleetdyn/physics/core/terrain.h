// Analytic terrain for tire contact: flat ground, inclined plane, Gaussian hill, bilinear
// heightfield and a helical loop. One query gives the signed distance of a point to the surface
// and the surface normal, so a tire of radius r penetrates by r - distance.
// Single-source (host and device), no allocation; the descriptor is a POD that is copied to the GPU
// as is (a heightfield's samples stay where the caller put them and are only pointed to).
// Frames: ISO world frame, x forward, y left, z up; SI units.
#pragma once

#include <cmath>

#include "fleetdyn/physics/core/config.h"
#include "fleetdyn/physics/core/math.h"
#include "fleetdyn/physics/core/soil_bekker.h"
#include "fleetdyn/physics/core/terrain_curb.h"

namespace fleetdyn {

enum class TerrainKind : int { Flat = 0, Plane = 1, Hill = 2, Heightfield = 3, Loop = 4 };

// Default soil slip reference speed [m/s] (TerrainDesc::soil_slip_speed; physics/core/terrain_soil.h).
constexpr double kSoilSlipSpeed = 0.5;
// Default width [m] over which a soil region's share of a tire's ground contact rises from 0 at
// its boundary to 1 inside (TerrainDesc::soil_edge_width; physics/core/terrain_soil.h): about the
// length of a sunk HMMWV tire's contact arc, 2 sqrt(2 r0 z) at 5 cm of sinkage.
constexpr double kSoilEdgeWidth = 0.4;

// Description of one terrain. POD and non-owning so it can be copied to the device by value.
// Every kind except Plane sits on a flat base ground at z = base_height.
template <class T>
struct TerrainDesc {
  TerrainKind kind;  // which surface the query evaluates
  T base_height;     // [m] z of the flat base ground, or of the plane at x = y = 0
  T slope;           // [rad] Plane: grade, surface rises along +x: z = base + tan(slope) x + tan(bank) y
  T bank;            // [rad] Plane: bank, surface rises along +y
  T hill_x, hill_y;  // [m] Hill: world position of the centre
  T hill_height;     // [m] Hill: peak height above the base ground (negative = dip)
  T hill_radius;     // [m] Hill: Gaussian width sigma, h = H exp(-r^2 / (2 sigma^2)); <= 0 = no hill
  // Heightfield: surface z = base_height + hf_height_scale * (bilinear interpolation of
  // heights[iy*nx + ix]), sample (ix, iy) lying at (hf_x0 + ix*hf_dx, hf_y0 + iy*hf_dy). Outside
  // the grid the edge value is held, unless hf_periodic: then the grid is one tile of a surface
  // that repeats with periods (nx - 1) dx and (ny - 1) dy (its last column and row repeat the
  // first), so it has no edge. A null pointer, nx or ny < 1 (periodic: < 2), or dx or dy <= 0
  // leaves only the base ground.
  T hf_x0, hf_y0;       // [m] world position of sample (0, 0)
  T hf_dx, hf_dy;       // [m] sample spacing along x and y (> 0)
  int hf_nx, hf_ny;     // [-] number of samples along x and y
  const T* hf_heights;  // [m] nx*ny samples, row-major in y; host or device pointer matching the caller
  T hf_height_scale;    // [-] multiplies the heights (1 = as stored; a vehicle's own roughness, TerrainVariation)
  int hf_periodic;      // [-] nonzero: the grid tiles the plane (see above)
  int hf_envelope;      // [-] nonzero: tires meet it through their envelope along their path (tire_contact.h)
  // Loop: inside of a cylinder of radius loop_radius, axis parallel to y, bottom tangent to the base
  // ground at x = loop_x. The track is a helix: its centreline sits at y = loop_lateral_shift * theta/(2 pi)
  // at lap angle theta in [0, 2 pi], so a car entering along +x at y ~ 0 exits at y ~ loop_lateral_shift.
  T loop_x;              // [m] world x of the loop bottom (entry and exit point)
  T loop_radius;         // [m] radius of the running surface; <= 0 = no loop
  T loop_lateral_shift;  // [m] lateral (y) offset of the exit lane relative to the entry lane
  T loop_track_width;    // [m] width of the running surface across the helix centreline
  T mu_scale;            // [-] friction multiplier of this surface (1 = nominal)
  // CPU SIMD lanes only (host/strut/strut_lanes.h): when the vehicles of one lane group each have their
  // own variation of the batch's terrain, the W descriptors of the lanes; the lane query reads
  // lane i's from here. Null everywhere else (the scalar path and the GPU get one vehicle's
  // descriptor).
  const TerrainDesc* per_lane;
  // Soft soil (physics/core/terrain_soil.h): a tire whose wheel centre is over the rectangle
  // [soil_x_min, soil_x_max) x [soil_y_min, soil_y_max) (world; infinite bounds leave a side open)
  // meets the soil as a rigid wheel (soil_bekker.h) instead of TMeasy's tire on firm ground.
  int soil_region;           // [-] nonzero: the rectangle is soil; 0: no soil anywhere
  T soil_x_min, soil_x_max;  // [m]
  T soil_y_min, soil_y_max;  // [m]
  T soil_slip_speed;         // [m/s] slip reference floor and rolling fade at low speed (terrain_soil.h)
  T soil_edge_width;         // [m] the soil's share rises from 0 at the boundary to 1 this far inside
  SoilParams<T> soil;        // the soil's parameters
  // Curb (cross-section in physics/core/terrain_curb.h): a straight line obstacle standing on the
  // base ground of flat, hill and heightfield terrain (the curb's heights are above that ground
  // where it stands); ignored on plane and loop.
  T curb_height;       // [m] height of its top above the base ground; <= 0 = no curb
  T curb_x, curb_y;    // [m] world point on the foot of its face
  T curb_heading;      // [rad] direction of its line about world z; the raised side is to its left
  T curb_offset;       // [m] the foot's shift along the line's left normal from (curb_x, curb_y)
  T curb_face_angle;   // [rad] face angle from the ground, (0, pi/2]; pi/2 = a vertical (barrier) face
  T curb_edge_radius;  // [m] radius rounding its top edge(s)
  T curb_width;        // [m] top width: 0 = a step that stays up; > 0 = a ridge that comes back down
};

// TerrainDesc's value fields, written once: everything but the two pointers (hf_heights,
// per_lane), which point at storage of the descriptor's owner. host/batch/convert_scalars.h's
// precision conversion is generated from it.
#define FLEETDYN_TERRAIN_FIELDS(X) \
  X(kind)                          \
  X(base_height)                   \
  X(slope)                         \
  X(bank)                          \
  X(hill_x)                        \
  X(hill_y)                        \
  X(hill_height)                   \
  X(hill_radius)                   \
  X(hf_x0)                         \
  X(hf_y0)                         \
  X(hf_dx)                         \
  X(hf_dy)                         \
  X(hf_nx)                         \
  X(hf_ny)                         \
  X(hf_height_scale)               \
  X(hf_periodic)                   \
  X(hf_envelope)                   \
  X(loop_x)                        \
  X(loop_radius)                   \
  X(loop_lateral_shift)            \
  X(loop_track_width)              \
  X(mu_scale)                      \
  X(curb_height)                   \
  X(curb_x)                        \
  X(curb_y)                        \
  X(curb_heading)                  \
  X(curb_offset)                   \
  X(curb_face_angle)               \
  X(curb_edge_radius)              \
  X(curb_width)                    \
  X(soil_region)                   \
  X(soil_x_min)                    \
  X(soil_x_max)                    \
  X(soil_y_min)                    \
  X(soil_y_max)                    \
  X(soil_slip_speed)               \
  X(soil_edge_width)               \
  FLEETDYN_SOIL_FIELDS(FLEETDYN_TERRAIN_SOIL_FIELD, X)
#define FLEETDYN_TERRAIN_SOIL_FIELD(X, name) X(soil.name)

// A vehicle's own version of the batch's terrain, for Monte Carlo studies that give each sample
// its own road: the relief is moved so that the vehicle at world point p meets the batch's
// surface at p + shift, and its heights are multiplied by relief_scale (a rougher or smoother
// road; negative turns bumps into dips). Heightfields and hills have relief; the other kinds
// are unchanged. A curb stays where it is unless moved by its own terms: its height raised by
// curb_rise and its foot moved across its line by curb_offset.
// A sample may also have its own soil (soil_varied nonzero: `soil` replaces the batch's soil
// parameters; the soil region stays the batch's).
template <class T>
struct TerrainVariation {
  T shift_x, shift_y;  // [m]
  T relief_scale;      // [-]
  int soil_varied;     // [-] nonzero: `soil` is this vehicle's
  SoilParams<T> soil;
  T curb_rise;    // [m] added to the curb's height
  T curb_offset;  // [m] added to the curb's offset along its left normal
};

// Result of a terrain query.
template <class T>
struct TerrainContact {
  T distance;      // [m] signed distance from the query point to the surface along `normal`: positive on
                   //     the free side (above ground / inside the loop), negative inside the solid
  Vec3<T> normal;  // [-] unit surface normal pointing to the free side
  T mu_scale;      // [-] friction multiplier of the surface at the contact
};

namespace terrain_detail {

template <class T>
FLEETDYN_FN T two_pi() {
  return T(6.283185307179586476925);
}

// Contact with a height surface z = h(x, y) from (z - h) and the gradient (hx, hy).
// distance = (z - h) n_z is exact for a plane and the first-order signed distance for a curved
// surface (good while the penetration is small against the curvature radius).
template <class T>
FLEETDYN_FN TerrainContact<T> height_contact(T z_minus_h, T hx, T hy, T mu_scale) {
  const T inv = T(1) / sqrt(T(1) + hx * hx + hy * hy);
  return TerrainContact<T>{z_minus_h * inv, Vec3<T>{-hx * inv, -hy * inv, inv}, mu_scale};
}

// One heightfield axis: grid coordinate g (in samples) -> cell index i0 (i1 = i0 + 1, or i0 for a
// single sample), fraction f in [0, 1] and whether the point is inside (outside, the clamped edge
// value is constant, so the slope along this axis is zero). g is clamped before the integer
// conversion so far-away points cannot overflow it. A point exactly on an interior cell edge
// belongs to the cell above it (floor), the last edge to the last cell.
template <class T>
FLEETDYN_FN void grid_axis(T g, int n, int& i0, int& i1, T& f, bool& inside) {
  const T last = T(n - 1);
  inside = g >= T(0) && g <= last;
  const T gc = clamp(g, T(0), last);
  if (n < 2) {
    i0 = 0;
    i1 = 0;
    f = T(0);
    return;
  }
  int i = static_cast<int>(floor(gc));
  if (i > n - 2) i = n - 2;
  i0 = i;
  i1 = i + 1;
  f = gc - T(i);
}

template <class T>
FLEETDYN_FN TerrainContact<T> flat_contact(const TerrainDesc<T>& t, T z) {
  return TerrainContact<T>{z - t.base_height, Vec3<T>{T(0), T(0), T(1)}, t.mu_scale};
}

template <class T>
FLEETDYN_FN TerrainContact<T> plane_contact(const TerrainDesc<T>& t, Vec3<T> local, T origin_x, T origin_y) {
  const T gx = tan(t.slope), gy = tan(t.bank);
  // Large origin terms and small local terms are summed separately so fp32 never rounds
  // origin + local before the multiplication.
  const T z_minus_h = ((local.z - t.base_height) - (gx * origin_x + gy * origin_y)) - (gx * local.x + gy * local.y);
  return height_contact(z_minus_h, gx, gy, t.mu_scale);
}

template <class T>
FLEETDYN_FN TerrainContact<T> hill_contact(const TerrainDesc<T>& t, Vec3<T> local, T origin_x, T origin_y) {
  if (!(t.hill_radius > T(0))) return flat_contact(t, local.z);
  const T dx = (origin_x - t.hill_x) + local.x;  // relative to the centre first: fp32 stays precise
  const T dy = (origin_y - t.hill_y) + local.y;
  const T inv_s2 = T(1) / (t.hill_radius * t.hill_radius);
  const T h = t.hill_height * exp(T(-0.5) * (dx * dx + dy * dy) * inv_s2);
  return height_contact((local.z - t.base_height) - h, -h * dx * inv_s2, -h * dy * inv_s2, t.mu_scale);
}

// A grid coordinate g of a periodic heightfield brought into its first tile [0, period].
template <class T>
FLEETDYN_FN T wrap_grid(T g, int period) {
  const T p = T(period);
  return g - p * floor(g / p);
}

template <class T>
FLEETDYN_FN TerrainContact<T> heightfield_contact(const TerrainDesc<T>& t, Vec3<T> local, T origin_x, T origin_y) {
  const int min_samples = t.hf_periodic ? 2 : 1;
  if (t.hf_heights == nullptr || t.hf_nx < min_samples || t.hf_ny < min_samples || !(t.hf_dx > T(0)) || !(t.hf_dy > T(0)))
    return flat_contact(t, local.z);
  T gx = ((origin_x - t.hf_x0) + local.x) / t.hf_dx;  // grid coordinates, relative to the grid first
  T gy = ((origin_y - t.hf_y0) + local.y) / t.hf_dy;
  if (t.hf_periodic) {  // the tile's last column and row repeat the first: no seam to bridge
    gx = wrap_grid(gx, t.hf_nx - 1);
    gy = wrap_grid(gy, t.hf_ny - 1);
  }
  int ix0, ix1, iy0, iy1;
  T fx, fy;
  bool in_x, in_y;
  grid_axis(gx, t.hf_nx, ix0, ix1, fx, in_x);
  grid_axis(gy, t.hf_ny, iy0, iy1, fy, in_y);
  const long long row0 = static_cast<long long>(iy0) * t.hf_nx, row1 = static_cast<long long>(iy1) * t.hf_nx;
  const T h00 = t.hf_heights[row0 + ix0], h10 = t.hf_heights[row0 + ix1];
  const T h01 = t.hf_heights[row1 + ix0], h11 = t.hf_heights[row1 + ix1];
  const T h_y0 = h00 + fx * (h10 - h00);  // along x on the lower and upper row
  const T h_y1 = h01 + fx * (h11 - h01);
  const T scale = t.hf_height_scale;
  const T h = scale * (h_y0 + fy * (h_y1 - h_y0));
  // Gradient of the same bilinear interpolant, so normals agree with heights.
  const T hx = in_x ? scale * ((h10 - h00) + fy * ((h11 - h01) - (h10 - h00))) / t.hf_dx : T(0);
  const T hy = in_y ? scale * (h_y1 - h_y0) / t.hf_dy : T(0);
  return height_contact((local.z - t.base_height) - h, hx, hy, t.mu_scale);
}

// Thickness of the loop's solid shell behind its running surface [m].
template <class T>
FLEETDYN_FN T loop_shell_thickness(T radius) {
  return radius < T(4) ? T(0.25) * radius : T(1);
}

template <class T>
FLEETDYN_FN TerrainContact<T> loop_contact(const TerrainDesc<T>& t, Vec3<T> local, T origin_x, T origin_y) {
  const TerrainContact<T> ground = flat_contact(t, local.z);
  const T radius = t.loop_radius;
  if (!(radius > T(0)) || !(t.loop_track_width > T(0))) return ground;
  // Position in the loop's cross-section, relative to the axis (x = loop_x, z = base + R).
  const T dx = (origin_x - t.loop_x) + local.x;
  const T dz = (local.z - t.base_height) - radius;
  const T rho = sqrt(dx * dx + dz * dz);
  // The loop is a ribbon: only the shell just behind its running surface is solid (thick enough
  // to hold any tire penetration), so points farther out, e.g. a car on the runway passing under
  // the descending back wall, see the ground; the inner bound keeps the axis (rho = 0) out too.
  if (!(rho > T(0.5) * radius && rho < radius + loop_shell_thickness(radius))) return ground;
  // Angle around the axis from the bottom in the direction of travel: bottom 0, front wall pi/2,
  // top pi, back wall 3 pi/2.
  T phi = atan2(dx, -dz);
  if (phi < T(0)) phi += two_pi<T>();
  // Lap k whose helix centreline y_c(phi + 2 pi k) is nearest to the point's y; only lap 0 is track.
  // This keeps the entry runway (y ~ 0, phi just below 2 pi) off the back wall, which lies one
  // lateral shift further along y.
  const T y = origin_y + local.y;
  const T shift = t.loop_lateral_shift;
  const T lap_fraction = phi / two_pi<T>();
  const T k = fabs(shift) > T(1e-6) ? floor(y / shift - lap_fraction + T(0.5)) : T(0);
  const T theta = phi + two_pi<T>() * k;
  const T lateral = y - shift * (lap_fraction + k);
  if (!(theta >= T(0) && theta <= two_pi<T>() && fabs(lateral) <= T(0.5) * t.loop_track_width)) return ground;
  const T inv_rho = T(1) / rho;
  const TerrainContact<T> wall{radius - rho, Vec3<T>{-dx * inv_rho, T(0), -dz * inv_rho}, t.mu_scale};
  // Near the bottom the wall and the base ground are tangent; the deeper penetration wins. (Within
  // the band R - rho <= R - rho cos(phi) = ground distance, so this is the wall; kept as the rule.)
  return wall.distance < ground.distance ? wall : ground;
}

// Out of line: the curb is rare, and inlined it would grow every caller of the query (on the
// device, reserve its registers in every kernel that queries the terrain), curb or not.
#if defined(__CUDACC__)
#define FLEETDYN_CURB_FN __host__ __device__ __noinline__
#else
#define FLEETDYN_CURB_FN __attribute__((noinline))
#endif

// A point in the curb's section: u across its line (+ towards the raised side), w its height above
// the base ground (`base`, the base ground's contact there), and the section's across direction
// e_u = (-sin heading, cos heading, 0) (world).
template <class T>
struct CurbSectionPoint {
  T u, w;
  T across_x, across_y;
};

template <class T>
FLEETDYN_FN CurbSectionPoint<T> curb_section_point(const TerrainDesc<T>& t, const TerrainContact<T>& base,
                                                   Vec3<T> local, T origin_x, T origin_y) {
  const T ch = cos(t.curb_heading), sh = sin(t.curb_heading);
  const T dx = (origin_x - t.curb_x) + local.x;  // relative to the curb first: fp32 stays precise
  const T dy = (origin_y - t.curb_y) + local.y;
  return {(ch * dy - sh * dx) - t.curb_offset, base.distance / base.normal.z, -sh, ch};
}

// The union of the base ground (contact `base`, from a height surface) and the curb: the
// exact signed distance in the curb's cross-section (terrain_curb.h), on a flat base exactly the
// 3-D distance. On a curved base the section's w is the height above the base ground where the
// point stands, and before the face the base contact itself is kept.
template <class T>
FLEETDYN_CURB_FN TerrainContact<T> curb_contact(const TerrainDesc<T>& t, const TerrainContact<T>& base, Vec3<T> local,
                                                T origin_x, T origin_y) {
  const CurbSectionPoint<T> q = curb_section_point(t, base, local, origin_x, origin_y);
  const CurbSection<T> s = curb_section(t.curb_height, t.curb_face_angle, t.curb_edge_radius, t.curb_width, q.u, q.w);
  if (s.ground) return base;
  return TerrainContact<T>{s.distance, Vec3<T>{q.across_x * s.nu, q.across_y * s.nu, s.nw}, base.mu_scale};
}

}  // namespace terrain_detail

// The base ground alone, without a curb: the surface a vehicle's attitude is measured against
// (roll and pitch relative to the ground, the capsize test), which a curb beside or under the
// body must not tilt.
template <class T>
FLEETDYN_FN TerrainContact<T> terrain_ground_query(const TerrainDesc<T>& t, Vec3<T> local, T origin_x, T origin_y) {
  switch (t.kind) {
    case TerrainKind::Plane: return terrain_detail::plane_contact(t, local, origin_x, origin_y);
    case TerrainKind::Hill: return terrain_detail::hill_contact(t, local, origin_x, origin_y);
    case TerrainKind::Heightfield: return terrain_detail::heightfield_contact(t, local, origin_x, origin_y);
    case TerrainKind::Loop: return terrain_detail::loop_contact(t, local, origin_x, origin_y);
    case TerrainKind::Flat:
    default: return terrain_detail::flat_contact(t, local.z);
  }
}

// Whether terrain of this kind has base ground a curb stands on: every kind but plane and loop.
FLEETDYN_FN constexpr bool curb_stands_on(TerrainKind kind) {
  return kind != TerrainKind::Plane && kind != TerrainKind::Loop;
}

// Contact query at world point (origin_x + local.x, origin_y + local.y, local.z). The per-vehicle
// origin keeps local offsets small so fp32 stays precise far from the world origin. A curb stands
// on the base ground where curb_stands_on.
template <class T>
FLEETDYN_FN TerrainContact<T> terrain_query(const TerrainDesc<T>& t, Vec3<T> local, T origin_x, T origin_y) {
  const TerrainContact<T> base = terrain_ground_query(t, local, origin_x, origin_y);
  if (!(t.curb_height > T(0)) || !curb_stands_on(t.kind)) return base;
  return terrain_detail::curb_contact(t, base, local, origin_x, origin_y);
}

// A tire of unloaded radius r penetrates by (r - distance); <= 0 means off the surface.
template <class T>
FLEETDYN_FN T penetration(const TerrainContact<T>& c, T radius) {
  return radius - c.distance;
}

// Default descriptor (fill, then override the fields of the kind you want): flat ground at z = 0,
// mu_scale 1, loop radius 8 m, lateral shift 3.5 m, track width 6 m, no heightfield (height
// scale 1, not periodic, no tire envelope), no soil region (its bounds open, dry sand, kSoilSlipSpeed), no curb
// (height 0; a vertical face if one is given a height), other fields 0.
template <class T>
FLEETDYN_FN TerrainDesc<T> default_terrain_desc() {
  TerrainDesc<T> t{};
  t.kind = TerrainKind::Flat;
  t.base_height = T(0);
  t.hf_heights = nullptr;
  t.hf_height_scale = T(1);
  t.hf_periodic = 0;
  t.hf_envelope = 0;
  t.loop_radius = T(8);
  t.loop_lateral_shift = T(3.5);
  t.loop_track_width = T(6);
  t.mu_scale = T(1);
  t.soil_region = 0;
  t.soil_x_min = T(-HUGE_VAL);
  t.soil_x_max = T(HUGE_VAL);
  t.soil_y_min = T(-HUGE_VAL);
  t.soil_y_max = T(HUGE_VAL);
  t.soil_slip_speed = T(kSoilSlipSpeed);
  t.soil_edge_width = T(kSoilEdgeWidth);
  t.soil = soil_preset<T>(SoilPreset::DrySand);
  t.curb_face_angle = T(1.5707963267948966192);
  return t;
}

// The batch's terrain t as vehicle v meets it (TerrainVariation). A hill or heightfield sample
// that sat at world p sits at p - shift; heights above the base ground scale by relief_scale.
template <class T>
FLEETDYN_FN TerrainDesc<T> varied_terrain(TerrainDesc<T> t, const TerrainVariation<T>& v) {
  t.hf_x0 -= v.shift_x;
  t.hf_y0 -= v.shift_y;
  t.hf_height_scale *= v.relief_scale;
  t.hill_x -= v.shift_x;
  t.hill_y -= v.shift_y;
  t.hill_height *= v.relief_scale;
  if (v.soil_varied) t.soil = v.soil;
  t.curb_height += v.curb_rise;
  t.curb_offset += v.curb_offset;
  return t;
}

// Where a vehicle placed at local (x, y) stands: the ground point below (height from the signed
// distance at z = 0: exact for flat and plane, first order for the smooth kinds), the surface
// normal there, and the attitude heading `yaw` about world z and then tilted onto the normal.
template <class T>
struct GroundPlacement {
  Vec3<T> point;
  Vec3<T> normal;
  Quat<T> attitude;
};

template <class T>
FLEETDYN_FN GroundPlacement<T> ground_placement(const TerrainDesc<T>& terrain, T local_x, T local_y, T origin_x,
                                                T origin_y, T yaw) {
  const TerrainContact<T> ground = terrain_query(terrain, Vec3<T>{local_x, local_y, T(0)}, origin_x, origin_y);
  const Vec3<T> up{T(0), T(0), T(1)};
  const Vec3<T> tilt_axis = cross(up, ground.normal);
  const T tilt_sin = norm(tilt_axis);
  const Quat<T> tilt = tilt_sin > T(1e-9)
                           ? quat_from_axis_angle(tilt_axis * (T(1) / tilt_sin), atan2(tilt_sin, ground.normal.z))
                           : quat_identity<T>();
  return {Vec3<T>{local_x, local_y, -ground.distance / ground.normal.z}, ground.normal,
          normalized(tilt * quat_from_axis_angle(up, yaw))};
}

}  // namespace fleetdyn
