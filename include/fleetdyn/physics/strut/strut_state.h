// The strut model's state (strut_model.h describes it) in its two layouts, and what one step
// knows of its surroundings: the terrain, the origin and the driver's steering.
#pragma once

#include "fleetdyn/physics/core/config.h"
#include "fleetdyn/physics/core/driveline.h"
#include "fleetdyn/physics/core/math.h"
#include "fleetdyn/physics/core/terrain.h"
#include "fleetdyn/physics/strut/strut_params.h"

namespace fleetdyn {

namespace strut {
// The full state of one vehicle, as the batch stores it.
enum StateIndex : int {
  kPos = 0,
  kQuat = 3,
  kVel = 7,
  kOmega = 10,
  kUnsprungPos = 13,  // + 3 * corner
  kUnsprungVel = 25,  // + 3 * corner
  kWheelSpin = 37,    // + corner
  kDeflLong = 41,     // + corner
  kDeflLat = 45,      // + corner
  kStateSize = 49
};

// The split layout a corner group steps (physics/core/corner_group.h): the chassis' kChassisSize
// scalars at their full-state indices, then kCornerSize scalars per held corner.
constexpr int kChassisSize = 13;
enum CornerIndex : int {
  kCornerPos = 0,   // x_u - chassis_pos
  kCornerVel = 3,   // v_u - chassis_vel
  kCornerSpin = 6,  // wheel spin
  kCornerDeflLong = 7,
  kCornerDeflLat = 8,
  kCornerSize = 9
};

// Index in the full state of corner scalar j (CornerIndex) of a corner.
FLEETDYN_HD constexpr int state_index(int corner, int j) {
  return j < kCornerVel         ? kUnsprungPos + 3 * corner + j
         : j < kCornerSpin      ? kUnsprungVel + 3 * corner + (j - kCornerVel)
         : j == kCornerSpin     ? kWheelSpin + corner
         : j == kCornerDeflLong ? kDeflLong + corner
                                : kDeflLat + corner;
}
}  // namespace strut

constexpr int kStrutStateSize = strut::kStateSize;

// A corner's contact for one step when it is NOT re-queried at every stage: the tangent plane
// sampled at the wheel at the start of the step (seed 004's once-per-step query with the
// within-step correction pen = pen_rigid - (x_u - x_query).n, which the tangent plane gives exactly).
template <class T>
struct FrozenCorner {
  Vec3<T> surface_point;  // [m] local coordinates (relative to the vehicle origin)
  Vec3<T> normal;
  T mu_scale;
};

// Road-wheel steer angle [rad] of a corner: front wheels steer, rear wheels don't (parallel
// steering; the linkage's Ackermann offset is added by StrutEnvironment).
template <class T>
FLEETDYN_FN T road_wheel_angle(const StrutParams<T>& p, T steer_input, int corner) {
  return corner < 2 ? steer_input * p.max_steer : T(0);
}

// What the model knows, for one step, about where it is and what the driver does that does not
// change within the step: the terrain, the vehicle's origin, and the front
// wheels' road-wheel angles for the step's steering input (the mean angle steer * max_steer plus
// the linkage's Ackermann offset; one sin/cos per wheel and step, not per evaluation).
template <class T>
struct StrutEnvironment {
  const TerrainDesc<scalar_of<T>>* terrain;  // one terrain for the batch, even when T holds lanes
  T origin_x, origin_y;                      // [m] the vehicle's local origin
  T steer_cos[2], steer_sin[2];              // [-] front corners' road-wheel angle

  FLEETDYN_HD StrutEnvironment(const StrutParams<T>& p, const TerrainDesc<scalar_of<T>>* terrain_, T origin_x_,
                               T origin_y_, DriverInput<T> input)
      : terrain(terrain_), origin_x(origin_x_), origin_y(origin_y_) {
    const T mean = road_wheel_angle(p, clamped(input).steer, 0);
    const T mean_cos = cos(mean), mean_sin = sin(mean);
    const AxleLinkage<T>& link = p.linkage.axle[0];
    for (int i = 0; i < 2; ++i) {
      // The Ackermann offset is a few degrees: its rotation by the series, not a library call.
      // The right wheel mirrors the left: its offset at mean angle d is minus the left's at -d.
      const T side = i == 0 ? T(1) : T(-1);
      const ScaledArgument<T> x = scaled_argument(side * mean * link.steer_inverse_half);
      const T offset = side * p.linkage_geometry *
                       linkage_curve(link.steer_offset, x.clamped, x.beyond, link.steer_inverse_half).value;
      T s, c;
      small_angle_sin_cos(offset, s, c);
      steer_cos[i] = mean_cos * c - mean_sin * s;
      steer_sin[i] = mean_sin * c + mean_cos * s;
    }
  }
};

// The road-wheel angle's cosine and sine of a corner (rear corners: 0).
template <class T>
FLEETDYN_FN void steer_cos_sin(const StrutEnvironment<T>& env, int corner, T& c, T& s) {
  c = corner == 0 ? env.steer_cos[0] : corner == 1 ? env.steer_cos[1] : T(1);
  s = corner == 0 ? env.steer_sin[0] : corner == 1 ? env.steer_sin[1] : T(0);
}

// By-products of one derivative evaluation, for metrics and tests: the per-corner arrays are
// indexed by the group's slot (by corner for AllCorners; the tire loads by corner once shared).
template <class T>
struct StrutDiagnostics {
  T tire_normal_force[kCorners];   // [N]
  Vec3<T> tire_force[kCorners];    // [N] world, on the wheel
  T strut_compression[kCorners];   // [m] (x_u - mount).u, positive in bump
  T bushing_deflection[kCorners];  // [m] |perpendicular offset|
  Vec3<T> chassis_accel;           // [m/s^2] world, kinematic (gravity included in the dynamics)
  T roof_contact_speed;            // [m/s] BodyContactLoad::roof_speed
};

}  // namespace fleetdyn
