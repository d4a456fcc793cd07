// The tire's contacts with the terrain, shared by strut, ce and pgs (its tire mode).
//
// The tire's solid is the ball of its unloaded radius r0 about the wheel centre cut by the two
// sidewall planes at +-b = +-width/2 along the spin axis. Its tread is a zone of that ball, so
// where the surface normal lies within asin(b / r0) of the wheel plane (20 deg on the HMMWV: every
// road, slope and camber a vehicle drives on) the tire meets a surface exactly as the ball of radius
// r0 does. Its sidewalls are flat discs of radius sqrt(r0^2 - b^2): a curb's face struck sideways
// meets the sidewall b from the wheel centre, and pushes the tire across (a lateral impulse),
// where the ball would have met the face r0 away and ridden up its edge.
//
// A tire touches at most two surfaces: the base ground (terrain_ground_query) and a curb's block
// (the curb's profile above the ground, terrain_curb.h), whose contact is the exact minimum
// translation between the tire's solid and the block (both convex; the block is extruded along
// the curb's line, so the problem is the 2-D one in the curb's section). The deeper contact is
// the tire's `primary`, through the tire model; the other, when it touches too (a tire on the
// ground pressed against the face), is `secondary`: the same radial spring and damper and Coulomb
// friction (tire_secondary_force). Both are potentials (tire_contacts_potential). Over a
// heightfield with hf_envelope the ground's contact is the tire's envelope along its path
// (heightfield_envelope) instead of the surface under the wheel centre.
// Single-source (host and device), no allocation. SI units, ISO frames.
#pragma once

#include "fleetdyn/physics/core/terrain.h"
#include "fleetdyn/physics/core/terrain_soil.h"
#include "fleetdyn/physics/core/tire_tmeasy.h"

namespace fleetdyn {

// [m/s] regularization of the secondary contact's Coulomb friction: at a 1 ms RK4 step the
// friction's damping mu F / v_s on a wheel of ~100 kg stays stable up to F ~ 1e5 N.
constexpr double kTireSecondarySlipVelocity = 0.5;

// |m - (m . axis) axis| below which a direction m counts as face-on to a sidewall (11.5 deg off
// the axis), for where tire_support puts the farthest point.
constexpr double kTireFaceOnRadial = 0.2;

// How far the tire reaches from its wheel centre along a unit direction m: the support
// h(m) = max over the solid of m . x, and the point that reaches it, extent * m + lateral
// (lateral perpendicular to m). Near face-on to a sidewall, where the whole sidewall reaches
// almost as far, the point is moved towards the sidewall's centre and stays on the support plane.
template <class T>
struct TireSupport {
  T extent;         // [m]
  Vec3<T> lateral;  // [m] 0 on the tread (the ball's point); on a sidewall's edge otherwise
};

// `axis` the unit spin axis, r0 = radius, b = half_width (<= r0).
template <class T>
FLEETDYN_FN TireSupport<T> tire_support(Vec3<T> m, Vec3<T> axis, T radius, T half_width) {
  const T s = dot(m, axis);
  const T abs_s = select(s < T(0), -s, s);
  const auto tread = abs_s * radius <= half_width;
  const Vec3<T> zero{T(0), T(0), T(0)};
  if (all_lanes(tread)) return {radius, zero};
  // Beyond the tread the farthest point is on a sidewall's edge circle (radius sqrt(r0^2 - b^2)):
  // h = b |s| + sqrt(r0^2 - b^2) |m - s axis| (the two agree where |s| = b / r0).
  const Vec3<T> radial = m - s * axis;
  const T radial_length = norm(radial);
  const T rim_sq = radius * radius - half_width * half_width;
  const T rim = sqrt(select(rim_sq > T(0), rim_sq, T(0)));
  const T edge_extent = half_width * abs_s + rim * radial_length;
  // The point: on the edge circle where m leans off the axis by more than ~11 deg; nearer to
  // face-on the whole sidewall is (almost) the support, and the point moves continuously to the
  // sidewall's centre (its pressure centre on a plane) instead of jumping around the rim.
  const T to_edge = rim / select(radial_length > T(kTireFaceOnRadial), radial_length, T(kTireFaceOnRadial));
  const Vec3<T> inner = select(s < T(0), -half_width, half_width) * axis + to_edge * radial;
  // (moved along m onto the support plane: the force along m has the same moment there)
  const Vec3<T> lateral = inner - dot(inner, m) * m;
  return {select(tread, radius, edge_extent),
          {select(tread, T(0), lateral.x), select(tread, T(0), lateral.y), select(tread, T(0), lateral.z)}};
}

// One contact of the tire with a surface.
template <class T>
struct TireContact {
  T penetration;    // [m] depth of the tire's deepest point (> 0: in contact)
  Vec3<T> normal;   // [-] the surface's unit normal there, to the free side (the force's direction)
  T mu_scale;       // [-] the surface's friction multiplier
  T extent;         // [m] the tire's reach towards the surface (tire_support along -normal)
  Vec3<T> lateral;  // [m] with it: the deepest point is wheel centre - extent normal + lateral
};

// The contact point on the surface, from the wheel centre.
template <class T>
FLEETDYN_FN Vec3<T> contact_patch(const TireContact<T>& c) {
  return (c.penetration - c.extent) * c.normal + c.lateral;
}

template <class T>
FLEETDYN_FN TireContact<T> no_tire_contact(T radius) {
  return {T(-1), Vec3<T>{T(0), T(0), T(1)}, T(1), radius, Vec3<T>{T(0), T(0), T(0)}};
}

// The tire against a surface seen from its wheel centre as the plane `surface` (a terrain query
// at the wheel centre: exact for flat ground and planes, the tangent plane otherwise).
template <class T>
FLEETDYN_FN TireContact<T> tire_plane_contact(const TerrainContact<T>& surface, Vec3<T> axis, T radius, T half_width) {
  const TireSupport<T> reach = tire_support(-surface.normal, axis, radius, half_width);
  return {reach.extent - surface.distance, surface.normal, surface.mu_scale, reach.extent, reach.lateral};
}

namespace tire_contact_detail {

// The tire's clearance from the curb's block along the block's outward normal at angle psi in
// the section (m = cos psi e_u + sin psi up): m . (wheel - arc centre) - arc radius - h_tire(m).
// Negative: overlapping by at least that much along m. (u, w): the wheel centre in the section.
template <class T>
FLEETDYN_FN T curb_clearance(const CurbProfile<T>& g, T psi, T u, T w, Vec3<T> e_u, Vec3<T> axis, T radius, T half) {
  const T mu = cos(psi), mw = sin(psi);
  // Outward normals towards -u end on the near arc, towards +u on a ridge's far (mirrored) arc.
  const T arc_u = mu > T(0) ? T(2) * g.middle - g.arc_u : g.arc_u;
  const Vec3<T> m{mu * e_u.x, mu * e_u.y, mw};
  return mu * (u - arc_u) + mw * (w - g.arc_w) - g.edge_radius - tire_support(m, axis, radius, half).extent;
}

// Where the contact's normal m (angle psi) is one of an edge arc's own, strictly between a face's
// and the top's, the block meets the tire along the arc's line at e + r m: the force acts there
// (across the line; along it, where the tire's farthest point `reach` is). A sidewall's farthest
// point may stand far from it: nearly face-on the whole disc reaches almost as far, and
// tire_support moves the point towards the disc's centre, above the curb. On the tread the two
// points are one. Returns the TireContact::lateral that puts contact_patch there.
template <class T>
FLEETDYN_CURB_FN Vec3<T> curb_arc_point(const CurbProfile<T>& g, T psi, T u, T w, Vec3<T> e_u, Vec3<T> normal,
                                        const TireSupport<T>& reach, T penetration) {
  const T arc_u = cos(psi) > T(0) ? T(2) * g.middle - g.arc_u : g.arc_u;
  const T du = arc_u + g.edge_radius * cos(psi) - u, dw = g.arc_w + g.edge_radius * sin(psi) - w;
  const Vec3<T> line{-e_u.y, e_u.x, T(0)};
  const T along_line = dot(reach.lateral - reach.extent * normal, line);
  const Vec3<T> point{along_line * line.x + du * e_u.x, along_line * line.y + du * e_u.y, dw};
  return point - (penetration - reach.extent) * normal;
}

}  // namespace tire_contact_detail

// The tire against the curb's block (the profile above the base ground, `base` the base ground's
// query at the wheel centre): the penetration is the minimum translation that separates them, in
// the curb's section (the block is extruded along its line), over the block's outward normals
// from the face's through up (and on to the far face's on a ridge); the normal, that
// translation's direction. The clearance is maximized over the normal's angle by sampling and
// golden-section refinement (a 1-D function, smooth but where a sidewall takes over from the
// tread), and the ball's exact optimum against each edge arc.
template <class T>
FLEETDYN_CURB_FN TireContact<T> tire_curb_contact(const TerrainDesc<T>& t, const TerrainContact<T>& base, Vec3<T> wheel,
                                                  T origin_x, T origin_y, Vec3<T> axis, T radius, T half_width) {
  using tire_contact_detail::curb_clearance;
  const auto q = terrain_detail::curb_section_point(t, base, wheel, origin_x, origin_y);
  const T u = q.u, w = q.w;
  const CurbProfile<T> g = curb_profile(t.curb_height, t.curb_face_angle, t.curb_edge_radius, t.curb_width);
  // The block lies within u in [0, 2 middle] (a step: u >= 0) and w <= H: a tire farther than r0
  // from that box cannot touch it.
  const T far_u = g.ridge ? T(2) * g.middle + radius : T(HUGE_VAL);
  if (!(u > -radius && u < far_u && w < t.curb_height + radius)) return no_tire_contact(radius);
  // On a step's top, the whole tire past where the edge arc starts: there the block is the
  // half-space below the top, so the tire's deepest point in it is as deep as in the half-space,
  // which bounds the minimum translation from both sides: the contact is the top plane's.
  if (!g.ridge && u - g.arc_u >= radius) {
    const TerrainContact<T> top{w - t.curb_height, Vec3<T>{T(0), T(0), T(1)}, base.mu_scale};
    const TireContact<T> c = tire_plane_contact(top, axis, radius, half_width);
    return c.penetration > T(0) ? c : no_tire_contact(radius);
  }
  const Vec3<T> e_u{q.across_x, q.across_y, T(0)};
  const T half_pi = T(1.5707963267948966192);
  const T face_psi = half_pi + atan2(g.sa, g.ca);  // the face's outward normal (-sin a, cos a)
  const T lo = g.ridge ? T(2) * half_pi - face_psi : half_pi, hi = face_psi;
  // Sample, then refine the best sample's bracket by golden section.
  constexpr int kSamples = 8, kRefinements = 12;
  const T span = (hi - lo) / T(kSamples - 1);
  int best = 0;
  T best_value = curb_clearance(g, lo, u, w, e_u, axis, radius, half_width);
  for (int k = 1; k < kSamples; ++k) {
    const T value = curb_clearance(g, lo + T(k) * span, u, w, e_u, axis, radius, half_width);
    if (value > best_value) {
      best_value = value;
      best = k;
    }
  }
  T a = lo + T(best > 0 ? best - 1 : 0) * span, b = lo + T(best < kSamples - 1 ? best + 1 : kSamples - 1) * span;
  const T golden = T(0.6180339887498949);
  T x1 = b - golden * (b - a), x2 = a + golden * (b - a);
  T f1 = curb_clearance(g, x1, u, w, e_u, axis, radius, half_width);
  T f2 = curb_clearance(g, x2, u, w, e_u, axis, radius, half_width);
  for (int k = 0; k < kRefinements; ++k) {
    if (f1 > f2) {
      b = x2;
      x2 = x1;
      f2 = f1;
      x1 = b - golden * (b - a);
      f1 = curb_clearance(g, x1, u, w, e_u, axis, radius, half_width);
    } else {
      a = x1;
      x1 = x2;
      f1 = f2;
      x2 = a + golden * (b - a);
      f2 = curb_clearance(g, x2, u, w, e_u, axis, radius, half_width);
    }
  }
  T psi = f1 > f2 ? x1 : x2;
  T clearance = f1 > f2 ? f1 : f2;
  if (best_value > clearance) {  // a sampled end of the range beats the refined interior
    psi = lo + T(best) * span;
    clearance = best_value;
  }
  // Where the tread (the ball) meets an edge arc the optimum is exact: along the line from the
  // arc's centre to the wheel centre (kept if it is in range and better).
  for (int side = 0; side < (g.ridge ? 2 : 1); ++side) {
    const T arc_u = side == 0 ? g.arc_u : T(2) * g.middle - g.arc_u;
    const T ball_psi = atan2(w - g.arc_w, u - arc_u);
    if (!(ball_psi >= lo && ball_psi <= hi)) continue;
    const T value = curb_clearance(g, ball_psi, u, w, e_u, axis, radius, half_width);
    if (value > clearance) {
      psi = ball_psi;
      clearance = value;
    }
  }
  if (!(clearance < T(0))) return no_tire_contact(radius);
  const Vec3<T> normal{cos(psi) * e_u.x, cos(psi) * e_u.y, sin(psi)};
  TireSupport<T> reach = tire_support(-normal, axis, radius, half_width);
  // A sidewall (near) face-on to the curb's face presses on the face where the two overlap: put the
  // point in the middle of that stretch (from the foot to the edge arc along the face), on the
  // sidewall's plane, rather than at the sidewall's centre, which may stand above the curb.
  const T s = -dot(normal, axis);
  const T radial_sq = T(1) - s * s;
  const T tolerance = T(1e-3) * (hi - lo);
  const bool on_arc = psi < hi - tolerance && psi > lo + tolerance && fabs(psi - half_pi) > tolerance;
  if (on_arc && fabs(s) * radius > half_width) {
    reach.lateral = tire_contact_detail::curb_arc_point(g, psi, u, w, e_u, normal, reach, -clearance);
  } else if (psi > hi - tolerance && radial_sq < T(kTireFaceOnRadial * kTireFaceOnRadial)) {
    const Vec3<T> along{g.ca * e_u.x, g.ca * e_u.y, g.sa};  // up the face (world)
    const Vec3<T> sidewall = (s < T(0) ? -half_width : half_width) * axis;
    const T rim = sqrt(radius * radius - half_width * half_width);
    const T reach_along = rim * sqrt(T(1) - sq(dot(along, axis)));  // the sidewall's half extent along the face
    const T at = (u + dot(sidewall, e_u)) * g.ca + (w + sidewall.z) * g.sa;  // its centre, along the face from the foot
    const T low = at - reach_along > T(0) ? at - reach_along : T(0);
    const T high = at + reach_along < g.face_length - g.tangent ? at + reach_along : g.face_length - g.tangent;
    if (high > low) {
      const Vec3<T> point = sidewall + (T(0.5) * (low + high) - at) * along;
      reach.lateral = point + reach.extent * normal;
    }
  }
  return {-clearance, normal, base.mu_scale, reach.extent, reach.lateral};
}

// Over a heightfield with hf_envelope, the tire (the ball's circle in its wheel plane) meets the
// profile of the surface along its path within r0 of the wheel centre: the polyline through the
// heights where the path crosses the grid's lines (the bilinear surface's kinks: a step's edge is
// one) and at +-r0. The contact is the profile's nearest point to the wheel centre, along the line
// from it to the centre. So a step shorter than the tire is met at its edge, as a rigid wheel
// meets it, and a steep cell is met at its true distance, not the tangent plane's under the centre
// (`under`, kept where the path is too short or the grid too fine to resolve).
template <class T>
FLEETDYN_CURB_FN TerrainContact<T> heightfield_envelope(const TerrainDesc<T>& t, const TerrainContact<T>& under,
                                                        Vec3<T> wheel, T origin_x, T origin_y, Vec3<T> axis, T radius) {
  const T ahead_x = axis.y, ahead_y = -axis.x;  // axis x up: the wheel plane's horizontal direction
  const T ahead = sqrt(ahead_x * ahead_x + ahead_y * ahead_y);
  if (!(ahead > T(1e-6)) || !(t.hf_dx > T(0)) || !(t.hf_dy > T(0))) return under;
  const T fx = ahead_x / ahead, fy = ahead_y / ahead;
  // Grid-line crossings of the two families, each in increasing s: s = (i - grid) / rate.
  constexpr int kMaxCrossings = 128;  // per family; a finer grid than that within 2 r0: `under`
  const T grid[2] = {((origin_x - t.hf_x0) + wheel.x) / t.hf_dx, ((origin_y - t.hf_y0) + wheel.y) / t.hf_dy};
  const T rate[2] = {fx / t.hf_dx, fy / t.hf_dy};  // grid lines per metre of path
  T next_line[2], step[2], last_line[2];
  for (int k = 0; k < 2; ++k) {
    const T reach = fabs(rate[k]) * radius;
    if (!(reach - T(0) < T(kMaxCrossings))) return under;
    const bool up = rate[k] > T(0);  // increasing s runs the lines up or down
    next_line[k] = up ? ceil(grid[k] - reach) : floor(grid[k] + reach);
    last_line[k] = up ? floor(grid[k] + reach) : ceil(grid[k] - reach);
    step[k] = up ? T(1) : T(-1);
    if (!(fabs(rate[k]) > T(1e-12))) {  // parallel to this family: no crossings
      next_line[k] = T(1);
      last_line[k] = T(0);
      step[k] = T(1);
    }
  }
  const auto height_at = [&](T s) {  // the surface's height below the wheel centre at s
    const TerrainContact<T> c = terrain_ground_query(t, Vec3<T>{wheel.x + s * fx, wheel.y + s * fy, wheel.z}, origin_x, origin_y);
    return c.distance / c.normal.z;
  };
  TerrainContact<T> best{T(HUGE_VAL), under.normal, under.mu_scale};
  T s0 = -radius, b0 = height_at(s0);  // the polyline's previous vertex: s and depth below the centre
  for (;;) {
    // The nearer of the two families' next crossings, or the end of the path.
    T s1 = radius;
    int family = -1;
    for (int k = 0; k < 2; ++k) {
      if (step[k] * (last_line[k] - next_line[k]) < T(0)) continue;  // this family is done
      const T s = (next_line[k] - grid[k]) / rate[k];
      if (s < s1) {
        s1 = s;
        family = k;
      }
    }
    if (family >= 0) next_line[family] += step[family];
    if (s1 < s0) continue;  // a crossing at the path's start
    const T b1 = height_at(s1);
    // The segment (s0, -b0) - (s1, -b1) from the wheel centre at (0, 0) in the wheel plane.
    const T ds = s1 - s0, db = b0 - b1;  // the segment's run and rise
    const T length_sq = ds * ds + db * db;
    const T along = length_sq > T(0) ? clamp((-s0 * ds + b0 * db) / length_sq, T(0), T(1)) : T(0);
    const T ps = s0 + along * ds, pb = b0 - along * db;  // its nearest point: s, depth below the centre
    const T distance = sqrt(ps * ps + pb * pb);
    if (distance < best.distance && distance > T(0)) {
      const T inv = T(1) / distance;
      best = TerrainContact<T>{distance, Vec3<T>{-ps * fx * inv, -ps * fy * inv, pb * inv}, under.mu_scale};
    }
    if (family < 0) break;
    s0 = s1;
    b0 = b1;
  }
  return best.distance < T(HUGE_VAL) ? best : under;
}

// A tire's contacts (see the top of this file).
template <class T>
struct TireContacts {
  TireContact<T> primary;    // the deeper: through the tire model
  TireContact<T> secondary;  // the other surface, if it touches too (penetration > 0)
  // [-] 1 where the primary is the base ground, 0 where it is a curb's block: a soil region covers
  // the ground only, so the curb's contact keeps precedence while the tire bears on it
  // (physics/core/terrain_soil.h)
  T primary_on_ground = T(1);
};

// The tire of the wheel centred at `wheel` (local to the origin) with spin axis `axis` (world).
// The SIMD lanes have their own overload (host/strut/strut_lanes.h).
template <class T>
FLEETDYN_FN TireContacts<T> tire_contacts(const TerrainDesc<T>& t, Vec3<T> wheel, T origin_x, T origin_y, Vec3<T> axis,
                                          T radius, T half_width) {
  const TerrainContact<T> ground = terrain_ground_query(t, wheel, origin_x, origin_y);
  const TerrainContact<T> surface = t.kind == TerrainKind::Heightfield && t.hf_envelope
                                        ? heightfield_envelope(t, ground, wheel, origin_x, origin_y, axis, radius)
                                        : ground;
  TireContacts<T> out{tire_plane_contact(surface, axis, radius, half_width), no_tire_contact(radius)};
  if (!(t.curb_height > T(0)) || !curb_stands_on(t.kind)) return out;
  const TireContact<T> curb = tire_curb_contact(t, ground, wheel, origin_x, origin_y, axis, radius, half_width);
  if (curb.penetration > out.primary.penetration) {
    out.secondary = out.primary;
    out.primary = curb;
    out.primary_on_ground = T(0);
  } else {
    out.secondary = curb;
  }
  return out;
}

// The tire's half width for its contacts: half the section width, at most the radius.
template <class T>
FLEETDYN_FN T tire_half_width(const TireParams<T>& p) {
  const T half = T(0.5) * p.width;
  return select(half < p.unloaded_radius, half, p.unloaded_radius);
}

// The secondary contact's force on the tire (world): the tire's radial spring and damper
// (tire_normal_force) along the normal and Coulomb friction, the tire's mu times the surface's,
// regularized over kTireSecondarySlipVelocity, against `point_velocity`: the velocity of the
// contact point as the wheel carrier moves it, the spin aside (the callers leave the force's
// moment about the spin axis out too, so the friction only dissipates and does not stiffen the
// wheel's spin).
template <class T>
FLEETDYN_FN Vec3<T> tire_secondary_force(const TireParams<T>& tire, const TireContact<T>& c, Vec3<T> point_velocity) {
  const T v_n = dot(point_velocity, c.normal);
  const T f_n = tire_normal_force(tire, c.penetration, -v_n);
  const Vec3<T> v_t = point_velocity - v_n * c.normal;
  const T slip_sq = T(kTireSecondarySlipVelocity * kTireSecondarySlipVelocity);
  const T friction = tire.mu * c.mu_scale * f_n / sqrt(dot(v_t, v_t) + slip_sq);
  return f_n * c.normal - friction * v_t;
}

// The contacts' elastic energy [J], as the corners apply them: the ground's (on a soil region the
// soil's, tire_ground_potential; (x, y) the wheel centre, world), primary or secondary, and a
// curb's block's, the tire's radial spring. For the energy ledgers.
template <class T>
FLEETDYN_FN T tire_contacts_potential(const TerrainDesc<T>& t, const TireParams<T>& tire, const TireContacts<T>& c, T x, T y) {
  const bool ground_first = c.primary_on_ground > T(0);
  const TireContact<T>& ground = ground_first ? c.primary : c.secondary;
  const TireContact<T>& block = ground_first ? c.secondary : c.primary;
  return tire_ground_potential(t, tire, x, y, ground.penetration) + tire_potential(tire, block.penetration);
}

}  // namespace fleetdyn
