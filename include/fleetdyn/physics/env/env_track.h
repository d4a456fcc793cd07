// Random smooth tracks for the path-following task, generated per env and episode on the device,
// and where a vehicle is relative to its track. A track is an open polyline (physics/drivers/path.h) whose
// curvature along the arclength is a weighted sum of three sines of random wavelength and phase,
// faded in over the first metres (so every episode starts on a straight) and bounded by
// track_max_curvature; heading and position follow by integrating it (midpoint rule). With
// track_max_curvature = 0 it is the straight lane of the reach-speed task.
#pragma once

#include <cstdint>

#include "fleetdyn/physics/core/philox.h"
#include "fleetdyn/physics/drivers/path.h"
#include "fleetdyn/physics/env/env_config.h"

namespace fleetdyn {
namespace env {

// Draw slots of an episode's random stream (Philox keyed by the seed, counter (env, slot,
// episode)): fixed, so adding a draw never shifts the others.
enum DrawSlot : uint32_t {
  kDrawCurvatureWeight = 0,  // + 0..2
  kDrawWavelength = 3,       // + 0..2
  kDrawPhase = 6,            // + 0..2
  kDrawStartX = 9,
  kDrawStartY = 10,
  kDrawLateralOffset = 11,
  kDrawHeadingOffset = 12,
  kDrawSpeed = 13,
  kDrawTargetSpeed = 14,
  kDrawParam = 32,  // + randomized parameter index
};

// Uniform in (0, 1) for (seed, env, slot, episode).
FLEETDYN_FN double episode_uniform(uint64_t seed, int env, uint32_t slot, uint32_t episode) {
  return bits_to_open_unit(counter_bits64(seed, static_cast<uint64_t>(env), slot, episode));
}

template <class T>
FLEETDYN_FN T lerp_draw(T lo, T hi, double u) {
  return lo + T(u) * (hi - lo);
}

// Fills x, y, s [track_points] of one env's track for an episode, starting at (x0, y0) heading +x.
template <class T>
FLEETDYN_FN void generate_track(const EnvConfig<T>& c, int env, uint32_t episode, T x0, T y0, T* x, T* y, T* s) {
  T weight[3], wavenumber[3], phase[3], weight_sum = T(0);
  for (int j = 0; j < 3; ++j) {
    const uint32_t k = static_cast<uint32_t>(j);
    weight[j] = lerp_draw(T(-1), T(1), episode_uniform(c.seed, env, kDrawCurvatureWeight + k, episode));
    const T wavelength = lerp_draw(c.track_wavelength_min, c.track_wavelength_max,
                                   episode_uniform(c.seed, env, kDrawWavelength + k, episode));
    wavenumber[j] = T(6.283185307179586) / wavelength;
    phase[j] = lerp_draw(T(0), T(6.283185307179586), episode_uniform(c.seed, env, kDrawPhase + k, episode));
    weight_sum += fabs(weight[j]);
  }
  const T scale = weight_sum > T(0) ? c.track_max_curvature / weight_sum : T(0);
  const auto curvature = [&](T arclength) {
    T sum = T(0);
    for (int j = 0; j < 3; ++j) sum += weight[j] * sin(wavenumber[j] * arclength + phase[j]);
    const T fade = c.track_straight > T(0) ? clamp(arclength / c.track_straight, T(0), T(1)) : T(1);
    return scale * fade * sum;
  };
  const T ds = c.track_spacing;
  T heading = T(0), px = x0, py = y0;
  for (int i = 0; i < c.track_points; ++i) {
    x[i] = px;
    y[i] = py;
    s[i] = T(i) * ds;
    const T next_heading = heading + curvature((T(i) + T(0.5)) * ds) * ds;
    const T mid = T(0.5) * (heading + next_heading);
    px += ds * cos(mid);
    py += ds * sin(mid);
    heading = next_heading;
  }
}

template <class T>
FLEETDYN_FN PathView<T> env_track(const EnvConfig<T>& c, const T* x, const T* y, const T* s) {
  return PathView<T>{x, y, nullptr, s, c.track_points, false, s[c.track_points - 1]};
}

// A vehicle relative to its track.
template <class T>
struct TrackPosition {
  int segment;             // nearest segment
  T progress;              // [m] arclength of the foot point (may run past the ends on the end segments)
  T lateral;               // [m] signed distance, + = left of the track
  T tangent_x, tangent_y;  // unit track direction at the foot point
};

template <class T>
FLEETDYN_FN TrackPosition<T> locate_on_track(const PathView<T>& track, int hint, T origin_x, T origin_y, T local_x, T local_y) {
  const PathQuery<T> q{origin_x, origin_y, local_x, local_y};
  const PathIndex i = path_nearest_segment(track, q, PathIndex{hint, 0});
  const PathSegment<T> g = path_segment(track, i);
  const SegmentHit<T> hit = segment_hit(g, q);
  TrackPosition<T> t;
  t.segment = i.segment;
  t.progress = g.s0 + hit.fraction * g.length;
  t.lateral = hit.lateral;
  path_tangent(track, i, hit.fraction, &t.tangent_x, &t.tangent_y);
  return t;
}

}  // namespace env
}  // namespace fleetdyn
