// Cross-section of a curb: a straight obstacle standing on the base ground, extruded along its
// line. In the section, u runs across the line (0 at the foot of the face, + towards the raised
// side) and w up from the base ground. The solid is everything below the profile
//   ground w = 0 (u <= 0) -> face rising at the face angle alpha -> top edge rounded with radius r
//   -> top w = H (a step: the top goes on for ever; a ridge of top width W: the mirror image
//   comes back down, the top's sharp corners W apart).
// curb_section gives the exact signed distance of a section point to that boundary and its
// gradient (the unit normal to the free side). The profile is C1 except at the concave foot(s)
// (and the top corner when r = 0), where the distance is still exact (nearest point = the corner).
// Single-source (host and device), no allocation. SI units.
#pragma once

#include "fleetdyn/physics/core/config.h"
#include "fleetdyn/physics/core/math.h"

namespace fleetdyn {

template <class T>
struct CurbSection {
  T distance;   // [m] signed distance to the profile: + above (free side), - inside the solid
  T nu, nw;     // [-] unit gradient of the distance in the section (u, w)
  bool ground;  // the nearest boundary piece is the base ground before the face (u <= 0)
};

namespace curb_detail {

// One candidate boundary piece: the offset from its nearest point to the query point and the
// distance's gradient there: the piece's own normal where the nearest point lies inside the
// piece (exact however near the point is), or, where it is an end of the piece (a corner), the
// offset's direction (signed by the caller).
template <class T>
struct CurbPiece {
  T du, dw;
  T nu, nw;
  bool corner;
};

// Keeps candidate p if it is nearer than the best so far.
template <class T>
FLEETDYN_FN void take_nearer(const CurbPiece<T>& p, CurbPiece<T>& best, T& best_length, bool& ground) {
  const T l = sqrt(p.du * p.du + p.dw * p.dw);
  if (l < best_length) {
    best = p;
    best_length = l;
    ground = false;
  }
}

}  // namespace curb_detail

// The profile's geometry, from the curb's height H > 0, face angle alpha in (0, pi/2] from the
// ground, top edge radius r >= 0 and top width W (0 = a step). The edge radius is limited to what
// the profile holds: the arc's tangent length r tan(alpha/2) at most the face length H / sin(alpha)
// and, on a ridge, half the top width.
template <class T>
struct CurbProfile {
  T sa, ca;        // [-] sin and cos of the face angle (ca >= 0)
  T face_length;   // [m] from the foot to the top's sharp corner
  T tangent;       // [m] tangent length of the edge arc along the face and the top
  T edge_radius;   // [m] the arc's radius (as limited)
  T arc_u, arc_w;  // [m] the near arc's centre
  T middle;        // [m] u of the middle of a ridge's top (about which it is symmetric)
  bool ridge;      // W > 0
};

template <class T>
FLEETDYN_FN CurbProfile<T> curb_profile(T height, T face_angle, T edge_radius, T width) {
  CurbProfile<T> c;
  c.sa = sin(face_angle);
  const T cos_face = cos(face_angle);
  c.ca = cos_face > T(0) ? cos_face : T(0);  // a vertical face stays vertical in fp32
  const T half_tan = (T(1) - c.ca) / c.sa;   // tan(alpha / 2)
  c.face_length = height / c.sa;
  const T corner_u = height * c.ca / c.sa;  // the top's sharp corner: (H cot alpha, H)
  c.tangent = (edge_radius > T(0) ? edge_radius : T(0)) * half_tan;
  if (c.tangent > c.face_length) c.tangent = c.face_length;
  c.ridge = width > T(0);
  if (c.ridge && c.tangent > T(0.5) * width) c.tangent = T(0.5) * width;
  c.edge_radius = c.tangent / half_tan;
  c.arc_u = corner_u + c.tangent;
  c.arc_w = height - c.edge_radius;
  c.middle = corner_u + T(0.5) * width;
  return c;
}

// Signed distance of section point (u, w) to a curb of height H > 0, face angle alpha, top edge
// radius r and top width W (curb_profile).
template <class T>
FLEETDYN_FN CurbSection<T> curb_section(T height, T face_angle, T edge_radius, T width, T u, T w) {
  using curb_detail::CurbPiece;
  using curb_detail::take_nearer;
  const CurbProfile<T> g = curb_profile(height, face_angle, edge_radius, width);
  const T sa = g.sa, ca = g.ca, face_length = g.face_length, tangent = g.tangent, r = g.edge_radius;
  const bool ridge = g.ridge;
  // A ridge is symmetric about the middle of its top: a point past it sees the mirror image of the
  // near half, whose nearest point is the nearest point of the whole profile.
  const T middle = g.middle;
  const bool mirrored = ridge && u > middle;
  if (mirrored) u = T(2) * middle - u;

  // Base ground up to the foot of the face.
  CurbPiece<T> best{u > T(0) ? u : T(0), w, T(0), T(1), u > T(0)};
  T best_length = sqrt(best.du * best.du + best.dw * best.dw);
  bool ground = u <= T(0);
  // Face: from the foot along e = (cos alpha, sin alpha) up to the arc; outward normal (-sin, cos).
  const T face_end = face_length - tangent;
  const T s = clamp(u * ca + w * sa, T(0), face_end);
  const bool face_corner = !(s > T(0) && s < face_end);
  take_nearer(CurbPiece<T>{u - s * ca, w - s * sa, -sa, ca, face_corner}, best, best_length, ground);
  // Edge arc about (corner_u + tangent, H - r), spanning the directions from the face normal to up.
  const T cu = g.arc_u, cw = g.arc_w;
  const T ru = u - cu, rw = w - cw;
  const T rho = sqrt(ru * ru + rw * rw);
  if (ru <= T(0) && ru * ca + rw * sa >= T(0)) {
    const T inv = rho > T(0) ? T(1) / rho : T(0);
    const T nu = rho > T(0) ? ru * inv : -sa, nw = rho > T(0) ? rw * inv : ca;
    take_nearer(CurbPiece<T>{ru - r * nu, rw - r * nw, nu, nw, false}, best, best_length, ground);
  }
  // Top, from the arc on (up to the middle of a ridge's top, which the mirroring keeps u below).
  take_nearer(CurbPiece<T>{u < cu ? u - cu : T(0), w - height, T(0), T(1), u < cu}, best, best_length, ground);

  // Inside: below the profile height at u.
  bool inside;
  if (u <= T(0)) {
    inside = w < T(0);
  } else if (u < cu - r * sa) {
    inside = u * sa - w * ca > T(0);  // below the face line
  } else if (u < cu) {
    const T q = r * r - ru * ru;
    inside = w < cw + sqrt(q > T(0) ? q : T(0));
  } else {
    inside = w < height;
  }
  const T sign = inside ? T(-1) : T(1);
  CurbSection<T> out;
  out.distance = sign * best_length;
  if (best.corner && best_length > T(0)) {
    const T inv = sign / best_length;
    out.nu = best.du * inv;
    out.nw = best.dw * inv;
  } else {
    out.nu = best.nu;
    out.nw = best.nw;
  }
  if (mirrored) out.nu = -out.nu;
  out.ground = ground;
  return out;
}

}  // namespace fleetdyn
