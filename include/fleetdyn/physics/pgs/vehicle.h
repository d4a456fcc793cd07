// The maximal-coordinate HMMWV of the pgs model: the ce model's vehicle
// (same hardpoints, masses, force laws, tire, driveline and Pitman steering; ce_params.h) written
// as 17 free rigid bodies held together by constraint rows and stepped by the pgs core
// (physics/pgs/step.h, seed 000's velocity-level step).
//
// Topology per corner (shared/reference/hmmwv.md, as Chrono builds its double wishbone):
//   LCA   -- revolute about the LCA pivot axis --  chassis        (5 rows)
//   UCA   -- revolute about the UCA pivot axis --  chassis        (5 rows)
//   LCA   -- ball at the lower ball joint D    --  upright        (3 rows)
//   UCA   -- ball at the upper ball joint F    --  upright        (3 rows)
//   wheel -- revolute about the spin axis      --  upright        (5 rows)
//   tierod: distance |K - L| between the upright's outer point K and the inner point L on the
//           chassis, L moved by the Pitman steering (a moving anchor, model.h)       (1 row)
//   LCA travel limits: ce's elastic stops on the LCA angle as a hinge limit         (1 row)
// 23 rows per corner, 92 in all; each corner keeps exactly one degree of freedom (the LCA angle
// of ce) plus the wheel spin. The tierod's mass rides on the upright.
//
// Forces, all evaluated at the start of a step and applied as external forces of the core:
// gravity; spring + stops and shock between chassis and LCA along their lines (ce's laws:
// ce_spring_force, ce_stop_force, ce_shock_force); the shared TMeasy tire on the wheel at its
// contact point (or, selectable, the wheel as a rigid sphere with contact and Coulomb friction
// rows); drive and inboard brake torques between chassis and wheel (as ce); the body box's contact
// with the terrain on the chassis (as ce, physics/core/body_contact.h). ce's LCA travel
// limits are rows (hinge limits), not forces. Tire deflections integrate by explicit Euler and
// the steering actuator's first-order lag exactly.
#pragma once

#include "fleetdyn/physics/ce/ce_model.h"
#include "fleetdyn/physics/core/batch_view.h"
#include "fleetdyn/physics/core/config.h"
#include "fleetdyn/physics/core/driveline.h"
#include "fleetdyn/physics/core/math.h"
#include "fleetdyn/physics/core/terrain.h"
#include "fleetdyn/physics/core/tire_contact.h"
#include "fleetdyn/physics/pgs/model.h"
#include "fleetdyn/physics/pgs/step.h"

namespace fleetdyn {
namespace pgsv {

enum CornerBody : int { kLcaBody = 0, kUcaBody, kUprightBody, kWheelBody, kBodiesPerCorner };
enum CornerJoint : int { kLcaPivot = 0, kUcaPivot, kLcaBall, kUcaBall, kSpindle, kTierod, kLcaLimit, kJointsPerCorner };
constexpr int kChassisBody = 0;
constexpr int kBodies = 1 + kBodiesPerCorner * kCorners;  // 17
constexpr int kJoints = kJointsPerCorner * kCorners;      // 24
constexpr int kJointRows = 23 * kCorners;                 // 92
constexpr int kMaxRows = kJointRows + 3 * kCorners;       // + the contact rows of the rigid-wheel mode

FLEETDYN_FN int corner_body(int corner, int kind) { return 1 + kBodiesPerCorner * corner + kind; }
FLEETDYN_FN int corner_joint(int corner, int kind) { return kJointsPerCorner * corner + kind; }

// Per-vehicle state. The first block is the pgs core's system state (layout.h: bodies, impulses,
// time), except that the positions of bodies 1.. are stored relative to the chassis COM, so fp32
// resolves the joints' sub-millimetre errors far from the origin and the batch rebases one point.
enum StateIndex : int {
  kCoreState = 0,
  kSteer = pgs::kBodyStateSize * kBodies + kMaxRows + 1,  // [rad] Pitman arm angle (ce's steering actuator)
  kDeflLong = kSteer + 1,                                 // [m] TMeasy deflections per corner
  kDeflLat = kDeflLong + kCorners,
  kDrift = kDeflLat + kCorners,  // [m, rad] max bilateral |C| at the start of the last step
  kResidual = kDrift + 1,        // [m/s, rad/s] last step's bilateral residual after the sweeps
  kStateSize = kResidual + 1
};

enum class WheelContact : int { Tire = 0, Rows = 1 };

}  // namespace pgsv

constexpr int kPgsVehicleStateSize = pgsv::kStateSize;

// Parameters of one maximal-coordinate vehicle: ce's description plus the core's model arrays,
// built on the host (host/pgs/pgs_vehicle.cpp) at the design pose. Bodies use their principal
// frames (the core takes principal inertias); the attachments below are in those frames.
template <class T>
struct PgsVehicleParams {
  CeParams<T> ce;
  int wheel_contact;  // pgsv::WheelContact
  int row_count, color_count;
  pgs::Body<T> bodies[pgsv::kBodies];
  pgs::Joint<T> joints[pgsv::kJoints];
  pgs::Contact<T> contacts[kCorners];  // rigid-wheel mode only
  pgs::RowInfo rows[pgsv::kMaxRows];
  int sweep_order[pgsv::kMaxRows];
  int color_begin[pgsv::kMaxRows + 1];
  pgs::Settings<T> settings;  // the step is the batch's (step / substeps)
  pgs::Ground<T> ground;      // rigid-wheel mode: the flat ground
  Mat3<T> chassis_axes;       // the chassis body's principal axes in the ce chassis frame (columns)
  Vec3<T> spring_on_chassis[kCorners], spring_on_lca[kCorners];  // [m] from each body's COM, body frame
  Vec3<T> shock_on_chassis[kCorners], shock_on_lca[kCorners];
  Vec3<T> lca_axis_on_chassis[kCorners];                           // unit, chassis body frame
  Vec3<T> lca_ref_on_chassis[kCorners], lca_ref_on_lca[kCorners];  // one unit vector normal to the axis at design
  Vec3<T> tierod_inner_design[kCorners];                           // [m] ce chassis frame
};

namespace pgsv {

// A body's motion at the start of a step (positions absolute in the core's work state).
template <class T>
struct BodyMotion {
  Vec3<T> x, v, w;  // [m], [m/s], [rad/s] world
  Mat3<T> R;        // body -> world
};
template <class T>
FLEETDYN_FN BodyMotion<T> body_motion(pgs::Strided<T> s, int i) {
  const pgs::Pose<T> p = pgs::load_pose(s, i);
  return {p.position, pgs::load_vec(s, pgs::body_field(i, pgs::kVx)), pgs::load_vec(s, pgs::body_field(i, pgs::kWx)), p.rotation};
}

// The ce chassis frame of the chassis body: R_world_chassis = R_world_body axes^T.
template <class T>
FLEETDYN_FN Mat3<T> chassis_rotation(const PgsVehicleParams<T>& p, const Mat3<T>& body_rotation) {
  return mat_mul_transpose_b(body_rotation, p.chassis_axes);
}

// Rotation of a body about a unit axis (world) relative to another, measured with a reference
// vector fixed in each: the angle from ref_a to ref_b about the axis.
template <class T>
FLEETDYN_FN T relative_angle(Vec3<T> axis, Vec3<T> ref_a, Vec3<T> ref_b) {
  return atan2(dot(axis, cross(ref_a, ref_b)), dot(ref_a, ref_b));
}

template <class T>
struct Loads {
  Vec3<T> force[kBodies], torque[kBodies];  // [N], [N m] world, torque about the COM
  T tire_normal_force[kCorners];            // [N]
  T defl_long_rate[kCorners], defl_lat_rate[kCorners];
  T roof_contact_speed;  // [m/s] BodyContactLoad::roof_speed
};

// A force F n on body b at lever rb and -F n on body a at lever ra (F > 0 pushes b away from a).
template <class T>
FLEETDYN_FN void add_pair(Loads<T>& l, int a, Vec3<T> ra, int b, Vec3<T> rb, Vec3<T> f) {
  l.force[b] += f;
  l.torque[b] += cross(rb, f);
  l.force[a] -= f;
  l.torque[a] -= cross(ra, f);
}

// A force element between a chassis point and an LCA point along their line (spring, shock):
// its length [m], length rate [m/s], unit direction chassis -> LCA and the levers.
template <class T>
struct LineElement {
  T length, rate;
  Vec3<T> direction, lever_chassis, lever_lca;
};
template <class T>
FLEETDYN_FN LineElement<T> line_element(const BodyMotion<T>& chassis, Vec3<T> on_chassis, const BodyMotion<T>& lca,
                                        Vec3<T> on_lca) {
  LineElement<T> e;
  e.lever_chassis = chassis.R * on_chassis;
  e.lever_lca = lca.R * on_lca;
  const Vec3<T> d = (lca.x + e.lever_lca) - (chassis.x + e.lever_chassis);
  e.length = norm(d);
  e.direction = d * (T(1) / e.length);
  e.rate = dot(e.direction, (lca.v + cross(lca.w, e.lever_lca)) - (chassis.v + cross(chassis.w, e.lever_chassis)));
  return e;
}
// The element's push-apart force [N] applied to both bodies.
template <class T>
FLEETDYN_FN void add_line_force(Loads<T>& l, int lca_body, const LineElement<T>& e, T push) {
  add_pair(l, kChassisBody, e.lever_chassis, lca_body, e.lever_lca, push * e.direction);
}

// Every external load of one vehicle at the start of a step (see the file comment).
// Rigid-wheel mode: the normal force is the last step's contact impulse over the step h.
template <class T>
FLEETDYN_FN void vehicle_loads(const PgsVehicleParams<T>& p, const TerrainDesc<T>& terrain, T origin_x, T origin_y,
                               DriverInput<T> input, T h, pgs::Strided<T> s, Loads<T>& l) {
  using namespace pgs;
  const CeParams<T>& ce = p.ce;
  const VehicleCommon<T>& vp = ce;
  for (int i = 0; i < kBodies; ++i) {
    l.force[i] = Vec3<T>{T(0), T(0), T(0)};
    l.torque[i] = Vec3<T>{T(0), T(0), T(0)};
  }
  const BodyMotion<T> chassis = body_motion(s, kChassisBody);
  const Mat3<T> chassis_rot = chassis_rotation(p, chassis.R);
  // Driveline: engine speed from the drive-weighted mean spin relative to the uprights.
  T spin[kCorners], mean_spin = T(0);
  BodyMotion<T> wheels[kCorners];
  for (int c = 0; c < kCorners; ++c) {
    wheels[c] = body_motion(s, corner_body(c, kWheelBody));
    const Vec3<T> upright_omega = load_vec(s, body_field(corner_body(c, kUprightBody), kWx));
    spin[c] = dot(wheels[c].R.col(1), wheels[c].w - upright_omega);
    mean_spin += vp.drive_share[c] * spin[c];
  }
  const T drive_total = drive_torque_at_wheels(vp, input.throttle, mean_spin);
  const bool tire_mode = p.wheel_contact == static_cast<int>(WheelContact::Tire);

  for (int c = 0; c < kCorners; ++c) {
    const CeAxleForces<T>& axle = ce.axle[c / 2];
    const int lca_body = corner_body(c, kLcaBody), wheel_body = corner_body(c, kWheelBody);
    const BodyMotion<T> lca = body_motion(s, lca_body);
    // Spring with its stops, and the shock: ce's laws on the lengths between the hardpoints.
    const LineElement<T> spring = line_element(chassis, p.spring_on_chassis[c], lca, p.spring_on_lca[c]);
    add_line_force(l, lca_body, spring, ce_spring_force(axle, spring.length) + ce_stop_force(ce, axle, spring.length));
    const LineElement<T> shock = line_element(chassis, p.shock_on_chassis[c], lca, p.shock_on_lca[c]);
    add_line_force(l, lca_body, shock, ce_shock_force(axle, shock.length, shock.rate));

    // Tire (TMeasy, as ce: contact below the wheel centre's terrain query) or the contact rows.
    const BodyMotion<T>& wheel = wheels[c];
    const Vec3<T> spin_axis = wheel.R.col(1);
    T tire_fx = T(0), contact_lever = vp.tire.unloaded_radius, rolling_resistance_max = T(0);
    l.tire_normal_force[c] = tire_mode ? T(0) : s[impulse_field(kBodies, p.contacts[c].row_begin)] / h;
    l.defl_long_rate[c] = T(0);
    l.defl_lat_rate[c] = T(0);
    if (tire_mode) {
      const TireContacts<T> contacts = tire_contacts(terrain, wheel.x, origin_x, origin_y, spin_axis,
                                                     vp.tire.unloaded_radius, tire_half_width(vp.tire));
      const TireContact<T>& contact = contacts.primary;
      const T pen = contact.penetration;
      const T fz = tire_normal_force(vp.tire, pen, -dot(wheel.v, contact.normal));
      const Vec3<T> t_long = normalized_or(cross(spin_axis, contact.normal), chassis_rot.col(0));
      const Vec3<T> t_lat = cross(contact.normal, t_long);
      TireInput<T> tin;
      tin.fz = fz;
      tin.v_long = dot(wheel.v, t_long);
      tin.v_lat = dot(wheel.v, t_lat);
      tin.omega = dot(spin_axis, wheel.w);  // absolute spin: the slip the patch sees
      tin.rolling_radius = tire_rolling_radius(vp.tire, fz);
      tin.defl_long = s[kDeflLong + c];
      tin.defl_lat = s[kDeflLat + c];
      const bool touching = pen > T(0);
      tin.contact_length = touching ? T(2) * sqrt(vp.tire.unloaded_radius * pen) : T(0);
      const TireOutput<T> tire = tmeasy_forces(vp.tire, tin, contact.mu_scale);
      l.tire_normal_force[c] = fz;
      l.defl_long_rate[c] = tire.defl_long_rate;
      l.defl_lat_rate[c] = tire.defl_lat_rate;
      contact_lever = contact.extent - pen;
      const Vec3<T> f = tire.fx * t_long + tire.fy * t_lat + fz * contact.normal;
      l.force[wheel_body] += f;
      l.torque[wheel_body] += cross(contact_patch(contact), f) + tire.mz * contact.normal;
      // A second surface the tire touches (a curb's face beside the ground): its force, without
      // its moment about the spin axis (tire_secondary_force).
      if (contacts.secondary.penetration > T(0)) {
        const Vec3<T> arm = contact_patch(contacts.secondary);
        const Vec3<T> turn = wheel.w - dot(wheel.w, spin_axis) * spin_axis;
        const Vec3<T> f2 = tire_secondary_force(vp.tire, contacts.secondary, wheel.v + cross(turn, arm));
        const Vec3<T> m2 = cross(arm, f2);
        l.force[wheel_body] += f2;
        l.torque[wheel_body] += m2 - dot(m2, spin_axis) * spin_axis;
      }
      tire_fx = tire.fx;
      rolling_resistance_max = tire.rolling_resistance_torque_max;
    }
    // Drive and inboard brakes between chassis and wheel (as ce): the resisting torque holds a
    // wheel at rest up to its limit; its brake share reacts on the chassis.
    const T drive = drive_total * vp.drive_share[c];
    const T external = drive - contact_lever * tire_fx;
    const T brake_max = vp.brake_torque[c] * input.brake;
    const T resist_max = brake_max + rolling_resistance_max;
    const T resist = clamp(-external - ce.wheel_spin_inertia * vp.wheel_lock_rate * spin[c], -resist_max, resist_max);
    const T brake = resist_max > T(0) ? resist * (brake_max / resist_max) : T(0);
    l.torque[wheel_body] += (drive + resist) * spin_axis;
    l.torque[kChassisBody] -= (drive + brake) * spin_axis;
  }
  // The body's own contact with the terrain (physics/core/body_contact.h): the box's corners are
  // in the chassis frame, whose origin sits at -chassis_com from the chassis body's COM.
  const Vec3<T> origin = chassis.x - chassis_rot * ce.chassis_com;
  const Vec3<T> origin_arm = origin - chassis.x;
  const BodyContactLoad<T> body = body_contact_load<T>(vp, terrain, origin_x, origin_y, origin, chassis_rot,
                                                       chassis.v + cross(chassis.w, origin_arm), chassis.w);
  l.force[kChassisBody] += body.force;
  l.torque[kChassisBody] += body.torque + cross(origin_arm, body.force);
  l.roof_contact_speed = body.roof_speed;
}

// The core's model view of one vehicle for steps of length h, with the per-step inputs.
template <class T>
FLEETDYN_FN pgs::ModelView<T> vehicle_model_view(const PgsVehicleParams<T>& p, T h) {
  pgs::ModelView<T> m{};
  m.bodies = p.bodies;
  m.joints = p.joints;
  m.contacts = p.contacts;
  m.springs = nullptr;
  m.rows = p.rows;
  m.sweep_order = p.sweep_order;
  m.color_begin = p.color_begin;
  m.color_count = p.color_count;
  m.body_count = kBodies;
  m.joint_count = kJoints;
  m.contact_count = p.wheel_contact == static_cast<int>(WheelContact::Rows) ? kCorners : 0;
  m.spring_count = 0;
  m.row_count = p.row_count;
  m.ground = p.ground;
  m.settings = p.settings;
  m.settings.step = h;
  return m;
}

// Body positions between the stored form (relative to the chassis) and the core's (absolute).
template <class T>
FLEETDYN_FN void offset_positions(T* s, T sign) {
  for (int i = 1; i < kBodies; ++i) {
    for (int k = 0; k < 3; ++k)
      s[pgs::body_field(i, pgs::kPx + k)] += sign * s[pgs::body_field(kChassisBody, pgs::kPx + k)];
  }
}

// Tierod inner point of a corner in the ce chassis frame at a Pitman angle.
template <class T>
FLEETDYN_FN Vec3<T> steered_tierod_inner(const CeParams<T>& ce, int corner, T steer) {
  const SteeringLinkState<T> link = steering_link_state(ce.steering, steer, T(0), T(0));
  return tierod_inner_point(ce.corner[corner], ce.steering, link).pos;
}

// Scratch size of one vehicle's core step (rows, then bodies; physics/pgs/layout.h).
constexpr int kScratchSize = pgs::kRowScratchSize * kMaxRows + pgs::kBodyScratchSize * kBodies;

// One vehicle's work of a step in phases, so that a runner may solve several vehicles' rows
// together between them (host/pgs/pgs_vehicle_lanes.h); vehicle_step below is the plain
// sequence. The model view points into this struct: it is set up in place and never copied.
template <class T>
struct StepWork {
  Vec3<T> shift[kJoints], shift_rate[kJoints];  // the tierods' moving inner anchors (ModelView)
  Loads<T> loads, first_loads;                  // this substep's loads; the first substep's
  pgs::ModelView<T> model;
  pgs::RowBuild<T> build;
  T report[pgs::kReportFieldCount];
  DriverInput<T> input;
  T h, lag, steer1, drift;
  int status;  // pgs::StatusBits of the step
};

// Starts a step of `substeps` core steps from s: next = s in the core's form.
template <class T>
FLEETDYN_FN void step_begin(const PgsVehicleParams<T>& p, T step, int substeps, DriverInput<T> input, const T* s,
                            T* next, StepWork<T>& w) {
  w.input = clamped(input);
  w.h = step / T(substeps);
  for (int j = 0; j < kStateSize; ++j) next[j] = s[j];
  offset_positions(next, T(1));
  for (int j = 0; j < kJoints; ++j) {
    w.shift[j] = Vec3<T>{T(0), T(0), T(0)};
    w.shift_rate[j] = w.shift[j];
  }
  w.model = vehicle_model_view(p, w.h);
  w.model.anchor_shift = w.shift;
  w.model.anchor_shift_rate = w.shift_rate;
  w.model.external_force = w.loads.force;
  w.model.external_torque = w.loads.torque;
  for (int k = 0; k < pgs::kReportFieldCount; ++k) w.report[k] = T(0);
  w.status = 0;
  w.drift = T(0);
  w.lag = exp(-w.h / p.ce.steer_time_constant);
}

// A substep up to the sweeps: the steering, the loads, then the core's V*, rows and warm start
// into `scratch`. Returns false when the vehicle is frozen (a non-finite step before).
template <class T>
FLEETDYN_FN bool substep_prepare(const PgsVehicleParams<T>& p, const TerrainDesc<T>& terrain, T origin_x, T origin_y,
                                 int sub, T* next, pgs::Strided<T> scratch, StepWork<T>& w) {
  const pgs::Strided<T> state{next, 1, 0};
  if (w.status & pgs::kStatusNonFinite) return false;
  // Steering actuator (ce: first-order lag, exact over the substep); the front tierod inner
  // points ride on the Pitman link, a moving anchor of the tierod rows.
  const T steer0 = next[kSteer];
  const T command = ce_steer_command(p.ce, w.input);
  w.steer1 = command + (steer0 - command) * w.lag;
  for (int c = 0; c < 2; ++c) {
    const Vec3<T> inner0 = steered_tierod_inner(p.ce, c, steer0), inner1 = steered_tierod_inner(p.ce, c, w.steer1);
    w.shift[corner_joint(c, kTierod)] = mul_transpose(p.chassis_axes, inner0 - p.tierod_inner_design[c]);
    w.shift_rate[corner_joint(c, kTierod)] = mul_transpose(p.chassis_axes, inner1 - inner0) * (T(1) / w.h);
  }
  vehicle_loads(p, terrain, origin_x, origin_y, w.input, w.h, state, w.loads);
  if (sub == 0) w.first_loads = w.loads;
  return pgs::pgs_step_prepare(w.model, state, scratch, w.status, &w.build);
}

// A substep after the sweeps (bilateral, complementarity: their residuals): the core's
// position update, the tire deflections and the steering.
template <class T>
FLEETDYN_FN void substep_finish(T* next, pgs::Strided<T> scratch, StepWork<T>& w, T bilateral, T complementarity) {
  const pgs::Strided<T> state{next, 1, 0}, report{w.report, 1, 0};
  pgs::pgs_step_finish(w.model, state, scratch, report, &w.status, w.build, bilateral, complementarity);
  if (w.status & pgs::kStatusNonFinite) return;
  for (int c = 0; c < kCorners; ++c) {
    next[kDeflLong + c] += w.h * w.loads.defl_long_rate[c];
    next[kDeflLat + c] += w.h * w.loads.defl_lat_rate[c];
  }
  next[kSteer] = w.steer1;
  w.drift = pgs::larger(w.drift, w.report[pgs::kReportDrift]);
}

// Ends the step: next back in the stored form, with the step's drift and residual. Returns the
// core's status bits of the step.
template <class T>
FLEETDYN_FN int step_end(T* next, const StepWork<T>& w) {
  offset_positions(next, T(-1));
  next[kDrift] = w.drift;
  next[kResidual] = w.report[pgs::kReportResidualBilateral];
  if (w.status & pgs::kStatusNonFinite) next[0] = T(1e30);  // the batch's sanity check flags it diverged
  return w.status;
}

// One step of `substeps` core steps from s into next (which may not alias s). `first_loads`, if
// given, receives the loads of the first substep (the state at step start). Returns the core's
// status bits (pgs::StatusBits) of the step.
template <class T>
FLEETDYN_FN int vehicle_step(const PgsVehicleParams<T>& p, const TerrainDesc<T>& terrain, T origin_x, T origin_y, T step,
                             int substeps, DriverInput<T> input, const T* s, T* next, Loads<T>* first_loads = nullptr) {
  StepWork<T> w;
  step_begin(p, step, substeps, input, s, next, w);
  T scratch_data[kScratchSize];
  const pgs::Strided<T> scratch{scratch_data, 1, 0};
  for (int sub = 0; sub < substeps; ++sub) {
    if (!substep_prepare(p, terrain, origin_x, origin_y, sub, next, scratch, w)) break;
    T bilateral = T(0), complementarity = T(0);
    pgs::pgs_solve(w.model, scratch, &bilateral, &complementarity);
    substep_finish(next, scratch, w, bilateral, complementarity);
  }
  if (first_loads) *first_loads = w.first_loads;
  return step_end(next, w);
}

}  // namespace pgsv
}  // namespace fleetdyn
