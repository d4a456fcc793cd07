// Polyline paths for the path-following driver (physics/drivers/driver.h): storage as concatenated
// arrays, the nearest point of a query point with a segment hint (O(1) amortized as a vehicle
// moves along), and the point at a given arclength. Host and device; no allocation.
//
// A path is a polyline of points (x, y) in world coordinates with a target speed at each point
// and the arclength s of each point from the first. An open path has count - 1 segments; a
// closed one has count, the last joining the last point to the first. A position along a path
// is a PathIndex (segment, lap): on a closed path arclength keeps growing lap after lap,
// s = s[segment] + lap * length (open paths: lap 0). Walking it costs no integer division.
#pragma once

#include "fleetdyn/physics/core/config.h"
#include "fleetdyn/physics/core/math.h"

namespace fleetdyn {

// Every path of a batch, concatenated like the maneuver tables.
template <class T>
struct PathSet {
  int path_count;
  const int* offset;        // [path_count] first point of each path
  const int* count;         // [path_count] points
  const int* closed;        // [path_count] 1: closed (last point joins the first), 0: open
  const T* length;          // [path_count] [m] total arclength (closed: with the closing segment)
  const T* x;               // [m] world x of every point
  const T* y;               // [m] world y
  const T* speed;           // [m/s] target speed at every point
  const T* s;               // [m] arclength of every point from its path's first point
  const int* vehicle_path;  // [vehicle_count] path of each vehicle, or null: path 0 for all
};

// One path: pointers to its first point.
template <class T>
struct PathView {
  const T* x;
  const T* y;
  const T* speed;
  const T* s;
  int count;
  bool closed;
  T length;
};

template <class T>
FLEETDYN_FN PathView<T> path_of(const PathSet<T>& set, int path) {
  const int first = set.offset[path];
  return {set.x + first,   set.y + first,         set.speed + first, set.s + first,
          set.count[path], set.closed[path] != 0, set.length[path]};
}

template <class T>
FLEETDYN_FN int segment_count(const PathView<T>& p) {
  return p.closed ? p.count : p.count - 1;
}

// A query point, kept as its vehicle keeps it: a local position and the local origin (both
// exact to fp32 round-off near the vehicle), so differences to path points lose no precision.
template <class T>
struct PathQuery {
  T origin_x, origin_y;  // [m] the vehicle's local origin (world)
  T x, y;                // [m] relative to it
  // The query point relative to world point (px, py).
  FLEETDYN_FN T dx(T px) const { return (origin_x - px) + x; }
  FLEETDYN_FN T dy(T py) const { return (origin_y - py) + y; }
};

// A segment of a path, lap counted (closed paths; negative when driven backwards past the start).
struct PathIndex {
  int segment;
  int lap;
};

// The next and previous segment (on an open path the caller stays within [0, segments)).
template <class T>
FLEETDYN_FN PathIndex path_next(const PathView<T>& p, PathIndex i) {
  return i.segment + 1 == segment_count(p) ? PathIndex{0, i.lap + 1} : PathIndex{i.segment + 1, i.lap};
}
template <class T>
FLEETDYN_FN PathIndex path_previous(const PathView<T>& p, PathIndex i) {
  return i.segment == 0 ? PathIndex{segment_count(p) - 1, i.lap - 1} : PathIndex{i.segment - 1, i.lap};
}
// Segments from a to b (b - a), and a moved by that many (a division only when it wraps; an
// open path's ends stop it).
template <class T>
FLEETDYN_FN int path_offset(const PathView<T>& p, PathIndex a, PathIndex b) {
  return (b.lap - a.lap) * segment_count(p) + (b.segment - a.segment);
}
template <class T>
FLEETDYN_FN PathIndex path_advance(const PathView<T>& p, PathIndex i, int by) {
  const int n = segment_count(p);
  int k = i.segment + by, lap = i.lap;
  if (!p.closed) return {k < 0 ? 0 : (k > n - 1 ? n - 1 : k), 0};
  if (k >= n || k < 0) {
    const int wraps = k >= 0 ? k / n : -((n - 1 - k) / n);  // floor(k / n)
    k -= wraps * n;
    lap += wraps;
  }
  return {k, lap};
}
FLEETDYN_FN bool path_before(PathIndex a, PathIndex b) {
  return a.lap < b.lap || (a.lap == b.lap && a.segment < b.segment);
}

// A segment of a path: its start point, direction (end - start) and arclengths.
template <class T>
struct PathSegment {
  int first;  // index of the start point
  T ax, ay;   // [m] start point, world
  T dx, dy;   // [m] end - start
  T length;   // [m]
  T s0;       // [m] unwrapped arclength of the start point
};

template <class T>
FLEETDYN_FN PathSegment<T> path_segment(const PathView<T>& p, PathIndex i) {
  const int k = i.segment;
  const int next = k + 1 == p.count ? 0 : k + 1;
  PathSegment<T> g;
  g.first = k;
  g.ax = p.x[k];
  g.ay = p.y[k];
  g.dx = p.x[next] - g.ax;
  g.dy = p.y[next] - g.ay;
  g.length = (next == 0 ? p.length : p.s[next]) - p.s[k];
  g.s0 = p.s[k] + T(i.lap) * p.length;
  return g;
}

// Where a query point lies relative to a segment.
template <class T>
struct SegmentHit {
  T fraction;  // [-] of the segment to the foot of the perpendicular (not clamped)
  T lateral;   // [m] signed distance from the segment's line, + = left of its direction
  T dist_sq;   // [m^2] squared distance to the nearest point of the segment (clamped)
};

template <class T>
FLEETDYN_FN SegmentHit<T> segment_hit(const PathSegment<T>& g, const PathQuery<T>& q) {
  const T qx = q.dx(g.ax), qy = q.dy(g.ay);
  const T len_sq = g.dx * g.dx + g.dy * g.dy;
  SegmentHit<T> h;
  h.fraction = (qx * g.dx + qy * g.dy) / len_sq;
  const T c = clamp(h.fraction, T(0), T(1));
  h.dist_sq = sq(qx - c * g.dx) + sq(qy - c * g.dy);
  h.lateral = (g.dx * qy - g.dy * qx) / sqrt(len_sq);
  return h;
}

// Squared distance from the query point to segment i (what the searches compare).
template <class T>
FLEETDYN_FN T segment_dist_sq(const PathView<T>& p, const PathQuery<T>& q, PathIndex i) {
  const PathSegment<T> g = path_segment(p, i);
  const T qx = q.dx(g.ax), qy = q.dy(g.ay);
  const T c = clamp((qx * g.dx + qy * g.dy) / (g.dx * g.dx + g.dy * g.dy), T(0), T(1));
  return sq(qx - c * g.dx) + sq(qy - c * g.dy);
}

// The segment nearest to the query point over the whole path (a vehicle's first location);
// the first of equally near ones.
template <class T>
FLEETDYN_FN PathIndex path_nearest_segment_global(const PathView<T>& p, const PathQuery<T>& q) {
  PathIndex best{0, 0};
  T best_d = segment_dist_sq(p, q, best);
  for (int k = 1; k < segment_count(p); ++k) {
    const T d = segment_dist_sq(p, q, PathIndex{k, 0});
    if (d < best_d) {
      best = {k, 0};
      best_d = d;
    }
  }
  return best;
}

// The segment nearest to the query point, walking from the segment `hint` to the nearest local
// minimum of the distance, forward first (ties go forward, the way vehicles drive): a vehicle
// that moves a few segments per step costs a few segment tests. The walk is bounded by the
// segment count. The hint keeps a vehicle on its own branch of a path that comes back near
// itself.
template <class T>
FLEETDYN_FN PathIndex path_nearest_segment(const PathView<T>& p, const PathQuery<T>& q, PathIndex hint) {
  const int n = segment_count(p);
  PathIndex u = hint;
  T d = segment_dist_sq(p, q, u);
  bool moved = false;
  for (int i = 0; i < n && (p.closed || u.segment + 1 < n); ++i) {
    const PathIndex next = path_next(p, u);
    const T dn = segment_dist_sq(p, q, next);
    if (!(dn <= d)) break;
    u = next;
    d = dn;
    moved = true;
  }
  for (int i = 0; !moved && i < n && (p.closed || u.segment > 0); ++i) {
    const PathIndex previous = path_previous(p, u);
    const T dp = segment_dist_sq(p, q, previous);
    if (!(dp < d)) break;
    u = previous;
    d = dp;
  }
  return u;
}

// The segment holding arclength `s` (laps counted), walking from `start` but never before
// `floor`; on an open path, the last segment when s is beyond its end (the point is then
// extrapolated along it).
template <class T>
FLEETDYN_FN PathIndex path_segment_at(const PathView<T>& p, PathIndex start, PathIndex floor, T s) {
  const int n = segment_count(p);
  PathIndex u = start;
  if (!p.closed && u.segment > n - 1) u = {n - 1, 0};
  if (path_before(u, floor)) u = floor;
  // Forward while the next segment starts at or before s (bounded for a finite s: a lap's worth
  // of segments per lap of s).
  for (int i = 0; (p.closed || u.segment + 1 < n) && i < 64 * n; ++i) {
    const PathIndex next = path_next(p, u);
    if (!(path_segment(p, next).s0 <= s)) break;
    u = next;
  }
  while (path_before(floor, u) && path_segment(p, u).s0 > s) u = path_previous(p, u);
  return u;
}

// Point [m, relative to the origin (origin_x, origin_y)] at unwrapped arclength s of segment g
// (beyond its ends on the line through it).
template <class T>
struct PathTarget {
  T x, y;
};

template <class T>
FLEETDYN_FN PathTarget<T> path_point_on(const PathSegment<T>& g, T s, T origin_x, T origin_y) {
  const T f = (s - g.s0) / g.length;
  return {(g.ax - origin_x) + f * g.dx, (g.ay - origin_y) + f * g.dy};
}

// Unit tangent of a path at `fraction` of segment i, continuous along the path: blended
// linearly from the vertex tangents (the mean direction of the two segments meeting there; an
// open path's end segments keep their own direction at the ends). On a polygon inscribed in a
// circle it is the circle's tangent to second order in the vertex angle, where the segment's
// own direction would jump by the vertex angle at every vertex.
template <class T>
FLEETDYN_FN void path_tangent(const PathView<T>& p, PathIndex i, T fraction, T* tx, T* ty) {
  const int n = segment_count(p);
  const auto unit = [](T x, T y, T fallback_x, T fallback_y, T* ux, T* uy) {
    const T norm = sqrt(x * x + y * y);
    const bool defined = norm > T(1e-12);
    *ux = defined ? x / norm : fallback_x;
    *uy = defined ? y / norm : fallback_y;
  };
  const PathSegment<T> g = path_segment(p, i);
  T dx, dy, px, py, nx, ny;
  unit(g.dx, g.dy, T(1), T(0), &dx, &dy);
  px = dx, py = dy, nx = dx, ny = dy;
  if (p.closed || i.segment > 0) {
    const PathSegment<T> before = path_segment(p, path_previous(p, i));
    unit(before.dx, before.dy, dx, dy, &px, &py);
  }
  if (p.closed || i.segment + 1 < n) {
    const PathSegment<T> after = path_segment(p, path_next(p, i));
    unit(after.dx, after.dy, dx, dy, &nx, &ny);
  }
  T ax, ay, bx, by;  // tangents at the segment's start and end vertices (a U-turn keeps the segment's)
  unit(px + dx, py + dy, dx, dy, &ax, &ay);
  unit(dx + nx, dy + ny, dx, dy, &bx, &by);
  const T f = clamp(fraction, T(0), T(1));
  unit((T(1) - f) * ax + f * bx, (T(1) - f) * ay + f * by, dx, dy, tx, ty);
}

// Target speed [m/s] at a fraction of segment g (clamped to the segment).
template <class T>
FLEETDYN_FN T path_speed_on(const PathView<T>& p, const PathSegment<T>& g, T fraction) {
  const int next = g.first + 1 == p.count ? 0 : g.first + 1;
  const T f = clamp(fraction, T(0), T(1));
  return p.speed[g.first] + f * (p.speed[next] - p.speed[g.first]);
}

}  // namespace fleetdyn
