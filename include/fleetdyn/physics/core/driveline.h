// Driveline: normalized driver inputs -> wheel torques, from the parameters every model shares
// (VehicleCommon). Deliberately simple: an engine torque map (peak torque, power limit,
// governor), one fixed reduction, AWD with a fixed front/rear split and open differentials
// (equal torque left and right, VehicleCommon::drive_share); brakes are a maximum holding torque
// per wheel (VehicleCommon::brake_torque). Steering is each model's (strut: road_wheel_angle in
// physics/strut/strut_model.h; ce: the Pitman linkage).
#pragma once

#include "fleetdyn/physics/core/config.h"
#include "fleetdyn/physics/core/math.h"
#include "fleetdyn/physics/core/vehicle_common.h"

namespace fleetdyn {

// Driver inputs, normalized: steer in [-1, 1] (positive turns left, ISO), throttle and brake in [0, 1].
template <class T>
struct DriverInput {
  T steer;
  T throttle;
  T brake;
};

template <class T>
FLEETDYN_FN DriverInput<T> clamped(DriverInput<T> in) {
  return {clamp(in.steer, T(-1), T(1)), clamp(in.throttle, T(0), T(1)), clamp(in.brake, T(0), T(1))};
}

// Engine torque [N m] at full throttle for an engine speed [rad/s]: flat peak torque, then the
// power limit P/omega, tapering linearly to zero over the top 10 % (governor). Below zero
// speed (vehicle rolling back) the peak torque is available, as through a torque converter.
template <class T>
FLEETDYN_FN T engine_full_load_torque(const VehicleCommon<T>& p, T engine_speed) {
  const auto stalled = engine_speed <= T(0);  // full torque from standstill, no taper
  T torque = p.engine_peak_power / select(stalled, T(1), engine_speed);
  torque = select(torque > p.engine_peak_torque, p.engine_peak_torque, torque);
  const T taper = clamp((p.engine_max_speed - engine_speed) / (T(0.1) * p.engine_max_speed), T(0), T(1));
  return select(stalled, p.engine_peak_torque, torque * taper);
}

// Total drive torque at the wheels [N m] (sum over the four) for a throttle and the mean driven
// wheel spin rate [rad/s].
template <class T>
FLEETDYN_FN T drive_torque_at_wheels(const VehicleCommon<T>& p, T throttle, T mean_wheel_spin) {
  const T engine_speed = p.driveline_ratio * mean_wheel_spin;
  return throttle * engine_full_load_torque(p, engine_speed) * p.driveline_ratio * p.driveline_efficiency;
}

}  // namespace fleetdyn
