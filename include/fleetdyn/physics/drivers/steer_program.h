// Programmed (open-loop) steering maneuvers whose timing may depend on the vehicle's response:
// the NHTSA fishhook with roll-rate feedback, FMVSS 126 sine with dwell, and ramp-and-hold
// (J-turn, step steer). Definitions and sources: docs/design/drivers.md. Host and device.
//
// Steer amounts are normalized driver inputs (physics/core/driveline.h: [-1, 1], + = left), rates
// in input units per second. The standards give handwheel angles and rates; a handwheel angle
// H maps to H / (steering ratio x road-wheel angle at full input) in these units.
#pragma once

#include "fleetdyn/physics/core/config.h"
#include "fleetdyn/physics/core/driveline.h"
#include "fleetdyn/physics/core/math.h"

namespace fleetdyn {

enum SteerProgramType : int {
  kProgramRampHold = 0,       // ramp to the amplitude at `rate`, hold (J-turn, step steer)
  kProgramFishhook = 1,       // NHTSA fishhook, roll-rate-timed countersteer
  kProgramSineWithDwell = 2,  // FMVSS 126 sine with dwell
};

template <class T>
struct SteerProgramParams {
  int kind;               // SteerProgramType
  T start_time;           // [s] start of the first steer
  T amplitude;            // [-] first steer, + = left (sine with dwell: its first half-wave)
  T rate;                 // [1/s] ramp rate (ramp-hold, fishhook)
  T hold;                 // [s] ramp-hold: hold before returning to 0 (<= 0: to the end);
                          //     fishhook: countersteer hold (NHTSA: 3 s)
  T frequency;            // [Hz] sine with dwell (FMVSS 126: 0.7)
  T dwell;                // [s] sine with dwell: hold at the second peak (FMVSS 126: 0.5)
  T roll_rate_threshold;  // [rad/s] fishhook: countersteer once |roll rate| <= this (NHTSA: 1.5 deg/s)
  T throttle_before;      // [0, 1] before start_time
  T throttle;             // [0, 1] from start_time on (NHTSA, FMVSS 126: released, 0)
  T brake;                // [0, 1] from start_time on
};

// Steer that leaves `from` towards `to` at `rate` and stops there, `elapsed` [s] after leaving.
template <class T>
FLEETDYN_FN T steer_ramp(T from, T to, T rate, T elapsed) {
  const T span = fabs(to - from);
  const T moved = clamp(rate * elapsed, T(0), span);
  return from + select(to < from, -moved, moved);
}

// A program's command at time t. roll_rate [rad/s] is the vehicle's (body x) at t;
// *event_time is the fishhook's countersteer start (-1 until it begins; the program sets it).
// *done becomes true once the last scripted steer motion has ended (ramp-hold held to the end:
// once the amplitude is reached).
template <class T>
FLEETDYN_FN DriverInput<T> steer_program_input(const SteerProgramParams<T>& c, T t, T roll_rate, T* event_time, bool* done) {
  const T tau = t - c.start_time;
  *done = false;
  if (tau < T(0)) return {T(0), c.throttle_before, T(0)};
  DriverInput<T> in{T(0), c.throttle, c.brake};
  const T ramp_time = fabs(c.amplitude) / c.rate;  // [s] 0 -> amplitude
  if (c.kind == kProgramSineWithDwell) {
    // FMVSS 126 S7.9: A sin(2 pi f tau), held at the second peak (-A, at 3/4 period) for the
    // dwell, then the last quarter period back to zero.
    const T period = T(1) / c.frequency;
    const T peak2 = T(0.75) * period;
    const T two_pi_f = T(6.283185307179586) * c.frequency;
    if (tau < peak2) {
      in.steer = c.amplitude * sin(two_pi_f * tau);
    } else if (tau < peak2 + c.dwell) {
      in.steer = -c.amplitude;
    } else if (tau < period + c.dwell) {
      in.steer = c.amplitude * sin(two_pi_f * (tau - c.dwell));
    } else {
      *done = true;
    }
    return in;
  }
  if (c.kind == kProgramFishhook) {
    // NHTSA fishhook (NCAP Fishhook Maneuver Test Procedure, 2013, sec. 3.2): steer to A at the
    // rate, dwell at A until the roll rate has fallen to the threshold, countersteer to -A at
    // the rate, hold, return to 0 at the rate.
    if (*event_time < T(0)) {
      if (tau < ramp_time || fabs(roll_rate) > c.roll_rate_threshold) {
        in.steer = steer_ramp(T(0), c.amplitude, c.rate, tau);
        return in;
      }
      *event_time = t;  // the countersteer starts now
    }
    const T since = t - *event_time;
    const T hold_end = T(2) * ramp_time + c.hold;
    if (since < hold_end) {
      in.steer = steer_ramp(c.amplitude, -c.amplitude, c.rate, since);
    } else {
      in.steer = steer_ramp(-c.amplitude, T(0), c.rate, since - hold_end);
      *done = since >= hold_end + ramp_time;
    }
    return in;
  }
  // Ramp and hold (J-turn, step steer); with a hold time, then back to zero at the rate.
  if (c.hold <= T(0) || tau < ramp_time + c.hold) {
    in.steer = steer_ramp(T(0), c.amplitude, c.rate, tau);
    *done = c.hold <= T(0) && tau >= ramp_time;
  } else {
    in.steer = steer_ramp(c.amplitude, T(0), c.rate, tau - ramp_time - c.hold);
    *done = tau >= T(2) * ramp_time + c.hold;
  }
  return in;
}

}  // namespace fleetdyn
