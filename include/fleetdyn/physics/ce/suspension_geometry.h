// Geometry of the ce model's suspensions (seed 001 section 4): double-wishbone hardpoints per
// axle and the Pitman-arm steering mechanism, and their per-corner form in the chassis frame.
//
// Frames (ISO: x forward, y left, z up):
//   suspension frame: one per axle, origin midway between the two LCA chassis pivots, axes
//     parallel to the chassis frame; hardpoints are given for the LEFT side, the right side
//     mirrors y -> -y (shared/reference/hmmwv.md).
//   chassis frame: the suspension frames sit at x = axle_x on it (y = z = 0). Every per-corner
//     quantity below is in the chassis frame.
//   mechanism frame: the Pitman mechanism's plane is its x-y plane; it sits at `origin` on the
//     chassis, rotated by `pitch` about the chassis y axis.
#pragma once

#include "fleetdyn/physics/core/config.h"
#include "fleetdyn/physics/core/math.h"

namespace fleetdyn {

// Left-side hardpoints of one axle's double wishbone, suspension frame [m]. Letters in brackets
// are the points of seed 001 Fig. 5 where they exist.
template <class T>
struct DoubleWishboneHardpoints {
  Vec3<T> lca_front, lca_back;  // LCA chassis pivots (axis of A)
  Vec3<T> lca_ball;             // LCA ball joint on the upright [D]
  Vec3<T> lca_com;
  Vec3<T> uca_front, uca_back;  // UCA chassis pivots (axis of G)
  Vec3<T> uca_ball;             // UCA ball joint on the upright [F]
  Vec3<T> uca_com;
  Vec3<T> upright_com;
  Vec3<T> wheel_centre;                // spindle / wheel centre [E]
  Vec3<T> tierod_inner;                // on the steering link (front) or the chassis (rear) [L]
  Vec3<T> tierod_outer;                // on the upright's steering arm [K]
  Vec3<T> spring_chassis, spring_arm;  // spring between chassis and LCA
  Vec3<T> shock_chassis, shock_arm;    // shock between chassis [J] and LCA [B]
};

// Pitman-arm steering (seed 001 section 5.4, Fig. 6): a planar four-bar T-U-V-W in the
// mechanism frame. T and W are chassis pivots (axes along mechanism z), TU the Pitman arm
// (turned by the steering input), WV the idler arm, UV the steering link that carries the two
// front tierod inner points. Points in the mechanism frame [m]; z is ignored (planar).
template <class T>
struct PitmanSteeringGeometry {
  Vec3<T> origin;        // [m] mechanism frame origin in the chassis frame
  T pitch;               // [rad] mechanism frame rotation about chassis y
  Vec3<T> pitman_pivot;  // T
  Vec3<T> pitman_link;   // U (Pitman arm - steering link joint)
  Vec3<T> idler_pivot;   // W
  Vec3<T> idler_link;    // V (idler arm - steering link joint)
  T max_angle;           // [rad] Pitman arm angle at full steering input
};

// One corner's geometry in the chassis frame, with the constants of its loop closures
// precomputed by make_corner_geometry(). Corners: 0 FL, 1 FR, 2 RL, 3 RR.
template <class T>
struct CornerGeometry {
  T side;     // +1 left, -1 right
  T steered;  // 1: tierod inner point moves with the Pitman steering link; 0: fixed (rear)
  // Design positions (chassis frame) of the hardpoints, mirrored for the right side.
  DoubleWishboneHardpoints<T> design;
  // LCA: rotation axis (unit, oriented so a positive angle lifts the ball joint) through
  // `lca_axis_point`.
  Vec3<T> lca_axis, lca_axis_point;
  // UCA: its ball joint runs on a circle about uca_axis: centre, radius, and the in-plane basis
  // (e1 towards the design ball joint, e2 = axis x e1) so the UCA angle is 0 at design.
  Vec3<T> uca_axis, uca_circle_centre, uca_e1, uca_e2;
  T uca_radius;
  T kingpin_length;  // |uca_ball - lca_ball| (upright rigid)
  T uca_branch;      // +1 or -1: which of the two assembly solutions the design is
  // Upright points in the kingpin frame: along the kingpin from the LCA ball joint (axial) and
  // the distance from the kingpin axis (radial), for the tierod outer point.
  T tierod_axial, tierod_radial;
  T tierod_length;  // |tierod_outer - tierod_inner| at design
  T tierod_branch;  // +1 or -1, as uca_branch
  // Design kingpin frame (columns k, f1, f2) for the upright's rotation.
  Mat3<T> design_kingpin_frame;
};

// Rodrigues rotation of r by `angle` about the unit `axis`.
template <class T>
FLEETDYN_FN Vec3<T> rotate_about(Vec3<T> axis, T angle, Vec3<T> r) {
  const T c = cos(angle), s = sin(angle);
  return c * r + s * cross(axis, r) + ((T(1) - c) * dot(axis, r)) * axis;
}

// Mirror a left-side point to the right side and place it on the chassis.
template <class T>
FLEETDYN_FN Vec3<T> corner_point(Vec3<T> left_suspension_point, T axle_x, T side) {
  return {left_suspension_point.x + axle_x, side * left_suspension_point.y, left_suspension_point.z};
}

// Orthonormal frame with k first and f1 along the part of `towards` perpendicular to k.
// Columns (k, f1, f2 = k x f1).
template <class T>
FLEETDYN_FN Mat3<T> frame_from_axis_and_point(Vec3<T> k, Vec3<T> towards) {
  const Vec3<T> f1 = normalized_or(towards - dot(towards, k) * k, vec3(T(1), T(0), T(0)));
  const Vec3<T> f2 = cross(k, f1);
  Mat3<T> f;
  const Vec3<T> cols[3] = {k, f1, f2};
  for (int c = 0; c < 3; ++c) {
    f.m[0][c] = cols[c].x;
    f.m[1][c] = cols[c].y;
    f.m[2][c] = cols[c].z;
  }
  return f;
}

}  // namespace fleetdyn
