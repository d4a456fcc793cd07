// Initial state of a strut vehicle: at rest on the terrain (design ride height, static tire
// deflection), aligned with the surface normal under it, rolling freely at a given speed.
#pragma once

#include "fleetdyn/physics/core/batch_origin.h"
#include "fleetdyn/physics/strut/strut_model.h"

namespace fleetdyn {

// x, y: world position of the body's ground point [m]; yaw [rad]; speed [m/s] forward; lateral_speed
// [m/s] along the body's y axis (the wheels spin with the forward speed only, so they slide sideways).
// Writes the state, and the vehicle's local origin (quantized, see batch_origin.h).
template <class T>
FLEETDYN_FN void strut_initial_state(const StrutParams<T>& p, const TerrainDesc<T>& terrain, double x, double y, T yaw,
                                     T speed, T* s, T* origin_x, T* origin_y, T lateral_speed = T(0)) {
  using namespace strut;
  *origin_x = T(origin_quantize(x));
  *origin_y = T(origin_quantize(y));
  const T local_x = T(x - double(*origin_x)), local_y = T(y - double(*origin_y));
  const GroundPlacement<T> ground = ground_placement(terrain, local_x, local_y, *origin_x, *origin_y, yaw);
  const Quat<T> q = ground.attitude;
  const Mat3<T> rot = rotation_matrix(q);
  const Vec3<T> com = ground.point + p.cg_height * ground.normal;
  store3(s, kPos, com);
  store_quat(s, kQuat, q);
  store3(s, kVel, speed * rot.col(0) + lateral_speed * rot.col(1));
  store3(s, kOmega, Vec3<T>{T(0), T(0), T(0)});
  for (int i = 0; i < kCorners; ++i) {
    store3(s, kUnsprungPos + 3 * i, rot * p.wheel_attach[i]);
    store3(s, kUnsprungVel + 3 * i, Vec3<T>{T(0), T(0), T(0)});
    s[kWheelSpin + i] = speed / tire_rolling_radius(p.tire, p.static_tire_load[i]);
    s[kDeflLong + i] = T(0);
    s[kDeflLat + i] = T(0);
  }
}

}  // namespace fleetdyn
