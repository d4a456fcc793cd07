// The pgs model's per-system description as the solver core reads it (host and device): bodies,
// joints, ground contacts, springs, the ground profile, solver settings and the constraint-row
// table. One model is shared by every system of a batch; each system has its own state.
// Built from the public definitions (fleetdyn/pgs.h) by host/pgs/pgs_model.cpp.
//
// Frames: 3-D systems use the project's ISO frame (z up); 2-D systems live in the x-y plane,
// rotate about z and take y as up (seed 000's (u, v, omega) layout).
#pragma once

#include "fleetdyn/physics/core/config.h"
#include "fleetdyn/physics/core/math.h"

namespace fleetdyn {
namespace pgs {

enum class JointKind : int {
  Ball = 0,    // point-to-point (seed 003): 3 rows (2 in 2-D)
  Revolute,    // ball + hinge axis: 5 rows (2 in 2-D, where it equals the ball)
  Prismatic,   // slider along axis_a, rotation locked (seed 000 bar/socket): 5 rows (2 in 2-D)
  Universal,   // ball + axis_a kept perpendicular to axis_b: 4 rows (3-D only)
  Distance,    // |p_b - p_a| = length: 1 row
  Weld,        // position and relative rotation locked: 6 rows (3 in 2-D)
  Tether,      // unilateral distance (seed 002): 0 <= lambda perp psi = length - |p_b - p_a| >= 0
  HingeLimit,  // stops on b's rotation relative to a about axis_a: lower <= angle <= upper, rigid or
               // elastic (an implicit spring-damper row); 1 unilateral row (3-D only), beside a revolute
};
enum class FrictionCone : int { Pyramid = 0, Circular = 1 };

// What bounds a row's impulse.
enum RowKind : int {
  kRowBilateral = 0,   // lambda free
  kRowUnilateral = 1,  // lambda >= 0 (contact normal, tether)
  kRowFriction = 2,    // |lambda| <= mu lambda_normal (pyramid) or |(lambda_t1, lambda_t2)| <= mu lambda_n
};

// Per-system status bits.
enum StatusBits : int {
  kStatusOk = 0,
  kStatusNotConverged = 1,  // residual above tolerance after the iteration cap (also: inconsistent rows)
  kStatusSingularRow = 2,   // a row with J M^-1 J^T = 0 (no direction, or only kinematic bodies): dropped
  kStatusNonFinite = 4,     // a non-finite result: the step was discarded and the system is frozen
};

template <class T>
struct Body {
  T mass;               // [kg] (0 for kinematic bodies)
  Vec3<T> inertia;      // [kg m^2] principal moments, body frame
  Vec3<T> inv_inertia;  // [1/(kg m^2)]
  int kinematic;        // 1: the body follows its motion law, unaffected by forces and impulses
  // Motion law of a kinematic body: x(t) = origin + velocity t + amplitude sin(frequency t + phase),
  // orientation fixed (seed 000 socket x_s(t)).
  Vec3<T> motion_origin, motion_velocity, motion_amplitude;
  T motion_frequency;  // [rad/s]
  T motion_phase;      // [rad]
};

template <class T>
struct Joint {
  JointKind kind;
  int body_a, body_b;          // body indices; -1 = the world (fixed)
  Vec3<T> anchor_a, anchor_b;  // [m] joint point in each body's frame (world frame for -1)
  Vec3<T> axis_a, axis_b;      // unit axes in each body's frame (hinge, slider, universal)
  Vec3<T> perp1_a, perp2_a;    // unit vectors completing axis_a to an orthonormal frame (body a)
  Quat<T> reference;           // relative rotation q_a^-1 q_b kept by weld / prismatic
  T length;                    // [m] distance / tether length
  int row_begin;               // first row in the row table
  // Hinge limit: the angle is from perp1_a (body a) to perp1_b (body b; perp1_a's image at the
  // start, so the start is angle 0) about axis_a. Elastic stops: compliance = 1 / stiffness
  // [rad/(N m)] (0: rigid, Baumgarte-stabilized like a contact), damping [N m s/rad].
  Vec3<T> perp1_b;
  T lower, upper;  // [rad]
  T compliance, damping;
};

// A sphere (circle in 2-D) on a body against the ground profile.
template <class T>
struct Contact {
  int body;
  Vec3<T> offset;  // [m] sphere centre in the body frame
  T radius;        // [m]
  T friction;      // Coulomb mu [-]
  T restitution;   // [-]
  int row_begin;   // normal row, then the tangent row(s)
};

// A linear spring-damper between two body points (either may be the world, -1, or kinematic).
template <class T>
struct Spring {
  int body_a, body_b;
  Vec3<T> anchor_a, anchor_b;  // [m] body frames
  T stiffness;                 // [N/m]
  T damping;                   // [N s/m]
  T rest_length;               // [m]
};

// Ground height along the up axis as a function of x: flat plus an optional cosine bump
// h = height + bump_height (1 - cos(2 pi (x - bump_start) / bump_length)) / 2 on the bump.
template <class T>
struct Ground {
  int enabled;
  T height, bump_start, bump_length, bump_height;  // [m]
};

template <class T>
struct Settings {
  int dimension;       // 2 or 3
  T step;              // [s]
  Vec3<T> gravity;     // [m/s^2]
  int max_iterations;  // PGS sweep cap
  T tolerance;         // [m/s] residual at which the sweeps stop (0: always max_iterations)
  T baumgarte;         // [-] fraction of the position error removed per step (seed 000: beta_seed = baumgarte / step)
  T warm_start;        // [-] factor on last step's impulses used as the starting guess (0: cold)
  FrictionCone cone;
  int velocity_product_term;  // 1: ball rows target -dt (dJ/dt) v so one step equals seed 003's acceleration solve
  T restitution_threshold;    // [m/s] approach speed below which restitution is ignored
  int colored_sweeps;         // 1: sweep rows color by color (the warp kernel's order) also with one lane
};

// The row table: the same for every system of a model.
struct RowInfo {
  int body_a, body_b;  // -1: world
  int kind;            // RowKind
  int normal_row;      // friction rows: the contact's normal row
  int partner;         // circular-cone friction: the other tangent row of the pair, else -1
  int source;          // joint index, or joint_count + contact index
};

// Read-only model view passed to the core (pointers to host or device arrays).
template <class T>
struct ModelView {
  const Body<T>* bodies;
  const Joint<T>* joints;
  const Contact<T>* contacts;
  const Spring<T>* springs;
  const RowInfo* rows;
  // Rows grouped in colors, no two rows of a color sharing a body (kinematic bodies included):
  // color c is sweep_order[color_begin[c] .. color_begin[c + 1]).
  const int* sweep_order;
  const int* color_begin;  // color_count + 1 entries
  int color_count;
  int body_count, joint_count, contact_count, spring_count, row_count;
  Ground<T> ground;
  Settings<T> settings;
  // Optional per-step inputs of a system (null: none), set by a model built on the core such as
  // the maximal-coordinate vehicle (physics/pgs/vehicle.h):
  //   anchor_shift[j], anchor_shift_rate[j]: joint j's anchor_a moved by this much [m] at this
  //     rate [m/s] (body a frame), e.g. a tierod inner point carried by the steering;
  //   external_force[i], external_torque[i]: applied to body i over the step [N, N m] (world,
  //     torque about the COM), e.g. tire, spring and damper forces.
  const Vec3<T>* anchor_shift = nullptr;
  const Vec3<T>* anchor_shift_rate = nullptr;
  const Vec3<T>* external_force = nullptr;
  const Vec3<T>* external_torque = nullptr;
};

// Rows a joint kind contributes in a given dimension (0: not available in that dimension).
FLEETDYN_FN int joint_row_count(JointKind kind, int dimension) {
  const bool planar = dimension == 2;
  switch (kind) {
    case JointKind::Ball: return planar ? 2 : 3;
    case JointKind::Revolute: return planar ? 2 : 5;
    case JointKind::Prismatic: return planar ? 2 : 5;
    case JointKind::Universal: return planar ? 0 : 4;
    case JointKind::Distance: return 1;
    case JointKind::Weld: return planar ? 3 : 6;
    case JointKind::Tether: return 1;
    case JointKind::HingeLimit: return planar ? 0 : 1;
  }
  return 0;
}
FLEETDYN_FN int contact_row_count(int dimension) { return dimension == 2 ? 2 : 3; }

}  // namespace pgs
}  // namespace fleetdyn
