// Ground contact rows: a sphere (circle in 2-D) on a body against the ground profile. A normal
// row, 0 <= lambda_n perp gap rate (seed 000 c2, with the penetration bias -beta d), and
// friction rows along the tangent(s), bounded by mu lambda_n (the seed skips the bound).
#pragma once

#include "fleetdyn/physics/core/config.h"
#include "fleetdyn/physics/core/math.h"
#include "fleetdyn/physics/pgs/joints.h"
#include "fleetdyn/physics/pgs/model.h"
#include "fleetdyn/physics/pgs/rows.h"

namespace fleetdyn {
namespace pgs {

// Height [m], slope dh/dx and curvature d2h/dx2 [1/m] of the ground at x.
template <class T>
FLEETDYN_FN void ground_height(const Ground<T>& g, T x, T* height, T* slope, T* curvature) {
  *height = g.height;
  *slope = T(0);
  *curvature = T(0);
  if (g.bump_length > T(0) && x > g.bump_start && x < g.bump_start + g.bump_length) {
    const T k = T(2) * T(kPi) / g.bump_length;
    const T phase = k * (x - g.bump_start);
    *height += g.bump_height * (T(1) - cos(phase)) / T(2);
    *slope = g.bump_height * k * sin(phase) / T(2);
    *curvature = g.bump_height * k * k * cos(phase) / T(2);
  }
}

// Ground normal (unit, out of the ground) and signed gap of a sphere centred at c: the distance
// from c to its closest ground point minus the radius. The closest point comes from Newton on
// d/dx |c - (x, h(x))|^2 = 0, started below the centre; a distance has gradient n, so the
// contact row J = n is the exact rate of this gap (a gap taken vertically below the centre is
// not: its x-derivative carries an extra R h' h'' that shows up as penetration on a bump).
// Valid while the ground's concave radius of curvature exceeds the sphere's radius.
template <class T>
FLEETDYN_FN void ground_gap(const Ground<T>& g, int dimension, Vec3<T> c, T radius, Vec3<T>* normal, T* gap) {
  const T up = dimension == 2 ? c.y : c.z;
  T x = c.x, h, s, k;
  for (int it = 0; it < 4; ++it) {
    ground_height(g, x, &h, &s, &k);
    const T f = (x - c.x) + (h - up) * s;
    const T df = T(1) + s * s + (h - up) * k;
    x -= f / (df > T(0.1) ? df : T(0.1));
  }
  ground_height(g, x, &h, &s, &k);
  const T inv = T(1) / sqrt(T(1) + s * s);
  const T nx = -s * inv, nu = inv;
  *gap = (c.x - x) * nx + (up - h) * nu - radius;
  *normal = dimension == 2 ? Vec3<T>{nx, nu, T(0)} : Vec3<T>{nx, T(0), nu};
}

template <class T>
FLEETDYN_FN void build_contact_rows(RowBuild<T>& b, int c) {
  const ModelView<T>& m = *b.model;
  const Contact<T>& contact = m.contacts[c];
  const bool planar = m.settings.dimension == 2;
  const Pose<T> p = load_pose(b.state, contact.body);
  const Vec3<T> centre = p.position + p.rotation * contact.offset;
  Vec3<T> n;
  T gap;
  ground_gap(m.ground, m.settings.dimension, centre, contact.radius, &n, &gap);
  // The contact point and its lever from the COM; the body is b of its rows, the ground a.
  const Vec3<T> lever = centre - contact.radius * n - p.position;
  const Vec3<T> origin{T(0), T(0), T(0)};
  int r = contact.row_begin;
  {
    const Row<T> row = point_row(n, origin, lever, gap);
    // Restitution: a sphere that reaches the ground within this step (gap + dt v_n <= 0) at a
    // speed above the threshold leaves at -e v_n, v_n taken before this step's forces. Deciding
    // at the step of arrival, not the next one, keeps the impact speed: the speculative row
    // (gap / dt) would otherwise have slowed the sphere to the gap's closing speed first.
    const Vec3<T> v = load_vec(b.scratch, body_scratch(m.row_count, contact.body, kSv));
    const Vec3<T> w = load_vec(b.scratch, body_scratch(m.row_count, contact.body, kSw));
    const T approach = dot(n, v + cross(w, lever));
    const bool bounce = contact.restitution > T(0) && gap + m.settings.step * approach <= T(0) &&
                        approach < -m.settings.restitution_threshold;
    emit_row(b, r++, row, bounce, bounce ? -contact.restitution * approach : T(0));
  }
  // Tangents: in 2-D the in-plane one; in 3-D any orthonormal pair normal to n.
  Vec3<T> t1, t2;
  if (planar) {
    t1 = Vec3<T>{n.y, -n.x, T(0)};
    t2 = t1;
  } else {
    const Vec3<T> seed_axis = fabs(n.x) < T(0.9) ? Vec3<T>{T(1), T(0), T(0)} : Vec3<T>{T(0), T(1), T(0)};
    t1 = normalized_or(cross(seed_axis, n), seed_axis);
    t2 = cross(n, t1);
  }
  const int tangents = planar ? 1 : 2;
  for (int k = 0; k < tangents; ++k) {
    const Row<T> row = point_row(k == 0 ? t1 : t2, origin, lever, T(0));
    const RowInfo& info = m.rows[r];
    // Friction rows keep mu in their bounds; the solver scales them by lambda_n each sweep.
    if (!store_row(b.scratch, m.row_count, r, info, row, -contact.friction, contact.friction)) {
      b.status |= kStatusSingularRow;
    }
    ++r;
  }
}

}  // namespace pgs
}  // namespace fleetdyn
