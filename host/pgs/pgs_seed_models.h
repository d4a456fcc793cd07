// The seed problems as PgsModelDef builders, for the tests and the benchmarks.
//   seed 000: 2-D bar/wheel suspension, socket moving at 2 m/s over a 5 cm cosine bump (6 rows)
//   seed 002: three 3-D bodies on four tethers, two taut and two slack (4 rows)
//   seed 003: two 3-D bodies joined point-to-point, spinning (3 rows)
//   chain:    n links hanging from ball joints (3 n rows)
#pragma once

#include <cmath>

#include "fleetdyn/pgs.h"

namespace fleetdyn {

// Seed 000's numbers; the tests vary them.
struct PgsSeed000Params {
  double u = 2.0;              // [m/s] socket speed
  double socket_height = 1.0;  // [m]
  double bar_mass = 5.0, bar_length = 0.4;
  double wheel_mass = 10.0, wheel_radius = 0.3;
  double k = 20000.0, c = 500.0;  // spring [N/m], damper [N s/m]
  double rest_length = 0.55;      // [m] the static length is 0.5: 1000 N preload
  double mu = 0.8;
  double bump_start = 1.0, bump_length = 1.0, bump_height = 0.05;
  double g = 9.81;
};

inline PgsModelDef pgs_seed000_suspension(const PgsSeed000Params& p = {}) {
  PgsModelDef m;
  m.dimension = 2;
  m.gravity = {0.0, -p.g, 0.0};
  m.ground = {true, 0.0, p.bump_start, p.bump_length, p.bump_height};
  PgsBodyDef socket;
  socket.kinematic = true;
  socket.position = {0.0, p.socket_height, 0.0};
  socket.motion_velocity = {p.u, 0.0, 0.0};
  PgsBodyDef bar;
  bar.mass = p.bar_mass;
  bar.inertia = {1.0, 1.0, p.bar_mass * p.bar_length * p.bar_length / 12.0};
  bar.position = {0.0, p.wheel_radius + p.bar_length / 2.0, 0.0};
  bar.velocity = {p.u, 0.0, 0.0};
  PgsBodyDef wheel;
  wheel.mass = p.wheel_mass;
  wheel.inertia = {1.0, 1.0, p.wheel_mass * p.wheel_radius * p.wheel_radius / 2.0};
  wheel.position = {0.0, p.wheel_radius, 0.0};
  wheel.velocity = {p.u, 0.0, 0.0};
  wheel.omega = {0.0, 0.0, -p.u / p.wheel_radius};  // rolling
  m.bodies = {socket, bar, wheel};
  PgsJointDef slider;
  slider.kind = pgs::JointKind::Prismatic;
  slider.body_a = 0;
  slider.body_b = 1;
  slider.axis_a = {0.0, 1.0, 0.0};
  PgsJointDef pin;
  pin.kind = pgs::JointKind::Revolute;
  pin.body_a = 1;
  pin.body_b = 2;
  pin.anchor_a = {0.0, -p.bar_length / 2.0, 0.0};
  m.joints = {slider, pin};
  PgsSpringDef spring;
  spring.body_a = 0;
  spring.body_b = 1;
  spring.stiffness = p.k;
  spring.damping = p.c;
  spring.rest_length = p.rest_length;
  m.springs = {spring};
  PgsContactDef tire;
  tire.body = 2;
  tire.radius = p.wheel_radius;
  tire.friction = p.mu;
  m.contacts = {tire};
  return m;
}

inline PgsModelDef pgs_seed002_tethers() {
  PgsModelDef m;
  m.ground.enabled = false;
  auto body = [](double mass, Vec3<double> inertia, Vec3<double> position, Vec3<double> velocity) {
    PgsBodyDef b;
    b.mass = mass;
    b.inertia = inertia;
    b.position = position;
    b.velocity = velocity;
    return b;
  };
  m.bodies = {body(1.5, {0.08, 0.1, 0.12}, {0.0, 0.0, -1.0}, {0.0, 0.4, 0.0}),
              body(1.0, {0.05, 0.04, 0.06}, {0.6, 0.0, -1.2}, {0.5, 0.0, 0.5}),
              body(3.0, {0.2, 0.25, 0.15}, {0.3, 0.5, -1.9}, {-0.2, 0.3, -0.4})};
  auto tether = [](int a, int b, Vec3<double> pa, Vec3<double> pb, double slack_length) {
    PgsJointDef j;
    j.kind = pgs::JointKind::Tether;
    j.body_a = a;
    j.body_b = b;
    j.anchor_a = pa;
    j.anchor_b = pb;
    j.length = slack_length;
    return j;
  };
  m.joints = {tether(-1, 0, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.1}, -1.0), tether(-1, 1, {0.8, 0.0, 0.0}, {0.0, 0.0, 0.0}, 1.3),
              tether(0, 2, {0.0, 0.0, -0.1}, {0.0, 0.0, 0.2}, -1.0), tether(1, 2, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.2}, 1.0)};
  return m;
}

inline PgsModelDef pgs_seed003_point_to_point() {
  PgsModelDef m;
  m.ground.enabled = false;
  PgsBodyDef b1;
  b1.mass = 3.0;
  b1.inertia = {0.2, 0.35, 0.5};
  b1.omega = {1.5, -2.0, 3.0};
  PgsBodyDef b2;
  b2.mass = 1.2;
  b2.inertia = {0.05, 0.08, 0.03};
  b2.position = {0.45, -0.15, -0.05};
  b2.omega = {-2.5, 1.0, 4.0};
  b2.velocity = cross(b1.omega, Vec3<double>{0.3, -0.1, 0.2}) - cross(b2.omega, Vec3<double>{-0.15, 0.05, 0.25});
  m.bodies = {b1, b2};
  PgsJointDef j;
  j.kind = pgs::JointKind::Ball;
  j.body_a = 0;
  j.body_b = 1;
  j.anchor_a = {0.3, -0.1, 0.2};
  j.anchor_b = {-0.15, 0.05, 0.25};
  m.joints = {j};
  return m;
}

inline PgsModelDef pgs_hanging_chain(int links) {
  PgsModelDef m;
  m.ground.enabled = false;
  for (int i = 0; i < links; ++i) {
    PgsBodyDef b;
    b.inertia = {0.01 / 12.0, 0.01 / 12.0, 1.0e-4};
    b.position = {0.0, 0.0, -0.1 * i - 0.05};
    b.velocity = {0.1 * i, 0.0, 0.0};
    m.bodies.push_back(b);
    PgsJointDef j;
    j.kind = pgs::JointKind::Ball;
    j.body_a = i - 1;
    j.body_b = i;
    j.anchor_a = {0.0, 0.0, i == 0 ? 0.0 : -0.05};
    j.anchor_b = {0.0, 0.0, 0.05};
    m.joints.push_back(j);
  }
  return m;
}

}  // namespace fleetdyn
