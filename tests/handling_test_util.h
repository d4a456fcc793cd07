// Handling maneuvers run on the ce and strut models of the same vehicle (strut through
// strut_equivalent_params), sampled the same way: steady cornering, braking, full throttle and a
// slow steer ramp to lift-off. The driver sets a mean front road-wheel angle [rad] (ce: the
// Pitman angle that gives it at design height; strut: angle / max_steer) and a speed held by the
// same proportional throttle, or a brake/throttle input.
#pragma once

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

#include "fleetdyn/ce.h"
#include "fleetdyn/physics/strut/strut_initial.h"
#include "fleetdyn/vehicle.h"

namespace fleetdyn {
namespace test {

inline TerrainDesc<double> flat_ground() {
  TerrainDesc<double> t{};
  t.kind = TerrainKind::Flat;
  t.mu_scale = 1.0;
  return t;
}

// What the driver does at time t [s] with the vehicle at horizontal speed v [m/s].
struct DriverCommand {
  double road_wheel_angle;  // [rad] mean front road-wheel angle (+ = left)
  double throttle, brake;   // [0, 1]
};
using Driver = std::function<DriverCommand(double t, double speed)>;

// Throttle that holds `target` [m/s] (proportional, no brake).
inline double hold_speed(double target, double speed) { return std::clamp(0.5 * (target - speed), 0.0, 1.0); }

// One sample of a vehicle's state, in the same terms for both models.
struct Sample {
  double t;
  double speed;            // [m/s] horizontal speed of the chassis
  double lateral_accel;    // [m/s^2] speed * yaw rate
  double yaw_rate;         // [rad/s]
  double roll, pitch;      // [rad] roll + = right side down; pitch + = nose down
  double normal_force[4];  // [N] tire loads, corners FL FR RL RR
};

// The sample of a chassis with rotation `rot` (body -> world), body-axis rates `omega_body` and
// horizontal speed `speed` at time t.
inline Sample sample_of(double t, double speed, const Mat3<double>& rot, Vec3<double> omega_body, const double* loads) {
  Sample x{};
  x.t = t;
  x.speed = speed;
  x.yaw_rate = (rot * omega_body).z;
  x.lateral_accel = speed * x.yaw_rate;
  x.roll = std::asin(rot.m[2][1]);
  x.pitch = -std::asin(rot.m[2][0]);
  for (int i = 0; i < kCorners; ++i) x.normal_force[i] = loads[i];
  return x;
}

// Mean of a quantity over the samples with t >= from.
inline double average(const std::vector<Sample>& s, double from, const std::function<double(const Sample&)>& f) {
  double sum = 0.0;
  int n = 0;
  for (const Sample& x : s) {
    if (x.t < from) continue;
    sum += f(x);
    ++n;
  }
  return n ? sum / n : NAN;
}

// Lateral load transfer of an axle (0 front, 1 rear): (F_right - F_left) / 2 [N].
inline double transfer(const Sample& s, int axle) {
  return 0.5 * (s.normal_force[2 * axle + 1] - s.normal_force[2 * axle]);
}

// ce: 2 ms RK4 steps (its default), starting at rest at `speed`; a sample every `every` steps.
// `stop` ends the run early when it returns true.
inline std::vector<Sample> run_ce(const CeParams<double>& p, double speed, double duration, const Driver& driver,
                                  int every = 1, const std::function<bool(const Sample&)>& stop = nullptr) {
  const TerrainDesc<double> ground = flat_ground();
  const CeEnvironment<double> env{&ground, 0.0, 0.0};
  const double dt = 2e-3;
  // Steering input per mean road-wheel angle: the kinematics is nearly linear, so a table of 41
  // points over the Pitman range, interpolated linearly, serves every step.
  std::vector<double> angles, inputs;
  const CeSuspension<double> susp{{p.corner[0], p.corner[1], p.corner[2], p.corner[3]}, p.steering};
  for (int k = -20; k <= 20; ++k) {
    const double pitman = p.steering.max_angle * k / 20.0;
    angles.push_back(0.5 * (corner_kinematics(susp, 0, 0.0, pitman).pose.steer_angle +
                            corner_kinematics(susp, 1, 0.0, pitman).pose.steer_angle -
                            corner_kinematics(susp, 0, 0.0, 0.0).pose.steer_angle -
                            corner_kinematics(susp, 1, 0.0, 0.0).pose.steer_angle));
    inputs.push_back(k / 20.0);
  }
  auto input_for = [&](double angle) {
    for (size_t k = 1; k < angles.size(); ++k) {
      if (angle <= angles[k])
        return inputs[k - 1] + (inputs[k] - inputs[k - 1]) * (angle - angles[k - 1]) / (angles[k] - angles[k - 1]);
    }
    return 1.0;
  };
  std::vector<double> s = ce_rest_state(p, speed), next(kCeStateSize);
  std::vector<Sample> out;
  const int steps = static_cast<int>(std::lround(duration / dt));
  for (int k = 0; k < steps; ++k) {
    const double t = k * dt;
    const Mat3<double> rot = rotation_matrix(normalized(load_quat(s.data(), ce::kQuat)));
    const Vec3<double> vel = rot * load3(s.data(), ce::kVel);
    const double v = std::hypot(vel.x, vel.y);
    const DriverCommand c = driver(t, v);
    const DriverInput<double> input{input_for(c.road_wheel_angle), c.throttle, c.brake};
    if (k % every == 0) {
      CeCornerBodies<double> corners[kCorners];
      double ds[kCeStateSize];
      ce_derivative(p, env, input, s.data(), ds, corners);
      double loads[kCorners];
      for (int i = 0; i < kCorners; ++i) loads[i] = corners[i].tire_normal_force;
      const Sample x = sample_of(t, v, rot, load3(s.data(), ce::kOmega), loads);
      out.push_back(x);
      if (stop && stop(x)) break;
    }
    ce_step(p, env, dt, 1, input, s.data(), next.data());
    s.swap(next);
  }
  return out;
}

// strut: its default step. `on_sample`, if given, sees each sample with the state and the
// diagnostics it was taken from.
inline std::vector<Sample> run_strut(
    const StrutParams<double>& p, double speed, double duration, const Driver& driver, int every = 1,
    const std::function<bool(const Sample&)>& stop = nullptr,
    const std::function<void(const Sample&, const double* state, const StrutDiagnostics<double>&)>& on_sample = nullptr) {
  const TerrainDesc<double> ground = flat_ground();
  const IntegratorSettings<double> integ{strut_default_step(p), 1, true};
  std::vector<double> s(kStrutStateSize), next(kStrutStateSize);
  double ox = 0.0, oy = 0.0;
  strut_initial_state(p, ground, 0.0, 0.0, 0.0, speed, s.data(), &ox, &oy);
  std::vector<Sample> out;
  const int steps = static_cast<int>(std::lround(duration / integ.step));
  const int stride = std::max(1, static_cast<int>(std::lround(every * 2e-3 / integ.step)));  // same sample times as ce
  for (int k = 0; k < steps; ++k) {
    const double t = k * integ.step;
    const Mat3<double> rot = rotation_matrix(normalized(load_quat(s.data(), strut::kQuat)));
    const Vec3<double> vel = load3(s.data(), strut::kVel);
    const double v = std::hypot(vel.x, vel.y);
    const DriverCommand c = driver(t, v);
    const DriverInput<double> input{c.road_wheel_angle / p.max_steer, c.throttle, c.brake};
    StrutDiagnostics<double> diag{};
    strut_step(p, ground, 0.0, 0.0, integ, input, s.data(), next.data(), &diag);  // diag: at the step's start
    if (k % stride == 0) {
      const Sample x = sample_of(t, v, rot, load3(s.data(), strut::kOmega), diag.tire_normal_force);
      out.push_back(x);
      if (on_sample) on_sample(x, s.data(), diag);
      if (stop && stop(x)) break;
    }
    s.swap(next);
  }
  return out;
}

}  // namespace test
}  // namespace fleetdyn
