// The pgs batch API: many independent rigid-body systems in maximal coordinates (the same
// model, each with its own state), stepped together by the velocity-level projected
// Gauss-Seidel solver of seed 000 on one backend.
//
//   fleetdyn::PgsModelDef model;                       // bodies, joints, contacts, springs, ground
//   model.bodies.push_back({...});
//   fleetdyn::PgsBatch batch(model, 1000, settings, {fleetdyn::BackendKind::Auto});
//   batch.step(500);                                   // asynchronous on CUDA
//   auto reports = batch.reports();                    // status, sweeps, residuals per system
//
// docs/models/pgs.md has the formulation, the projection rules, stabilization and what
// converges. Values cross the API in double precision whatever the batch's precision. Every
// bad input throws fleetdyn::Error naming the body, joint, contact, spring or setting.
#pragma once

#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "fleetdyn/backend.h"  // BackendKind, Precision, cuda_available
#include "fleetdyn/physics/core/math.h"
#include "fleetdyn/physics/pgs/model.h"

namespace fleetdyn {

// ---- model definition --------------------------------------------------------------------------
// 3-D: world frame x forward, y left, z up. 2-D (dimension = 2): the x-y plane, y up, rotation
// about z; out-of-plane inputs must be zero.

struct PgsBodyDef {
  double mass = 1.0;                     // [kg] > 0 (ignored for kinematic bodies)
  Vec3<double> inertia{1.0, 1.0, 1.0};   // [kg m^2] principal moments, body frame (2-D: z used)
  Vec3<double> position{0.0, 0.0, 0.0};  // [m] COM, world, at t = 0
  Quat<double> orientation{1.0, 0.0, 0.0, 0.0};
  Vec3<double> velocity{0.0, 0.0, 0.0};  // [m/s] world
  Vec3<double> omega{0.0, 0.0, 0.0};     // [rad/s] world
  // Kinematic bodies follow x(t) = position + motion_velocity t + motion_amplitude
  // sin(motion_frequency t + motion_phase) with fixed orientation (seed 000's socket).
  bool kinematic = false;
  Vec3<double> motion_velocity{0.0, 0.0, 0.0};   // [m/s]
  Vec3<double> motion_amplitude{0.0, 0.0, 0.0};  // [m]
  double motion_frequency = 0.0;                 // [rad/s]
  double motion_phase = 0.0;                     // [rad]
};

struct PgsJointDef {
  pgs::JointKind kind = pgs::JointKind::Ball;
  int body_a = -1, body_b = -1;          // body indices; -1 = the world
  Vec3<double> anchor_a{0.0, 0.0, 0.0};  // [m] joint point, body a frame (world for -1)
  Vec3<double> anchor_b{0.0, 0.0, 0.0};  // [m] joint point, body b frame
  Vec3<double> axis_a{0.0, 0.0, 1.0};    // hinge / slider / universal axis, body a frame
  Vec3<double> axis_b{0.0, 0.0, 1.0};    // hinge / universal axis, body b frame
  double length = -1.0;                  // [m] distance / tether; < 0: the initial distance
  // Hinge limit (JointKind::HingeLimit, 3-D): stops on b's rotation relative to a about axis_a,
  // the angle measured from the bodies' initial poses (0 there). Pair it with a revolute joint
  // on the same bodies and axis. stiffness: infinity = a rigid stop, else an elastic one (an
  // implicit spring-damper row; physics/pgs/joints.h emit_elastic_stop).
  double lower = -1.0, upper = 1.0;                            // [rad], -pi < lower < upper < pi
  double stiffness = std::numeric_limits<double>::infinity();  // [N m/rad] > 0
  double damping = 0.0;                                        // [N m s/rad] >= 0
};

struct PgsContactDef {
  int body = 0;
  Vec3<double> offset{0.0, 0.0, 0.0};  // [m] sphere centre, body frame
  double radius = 0.0;                 // [m] >= 0 (0: a point)
  double friction = 0.0;               // Coulomb mu >= 0
  double restitution = 0.0;            // [0, 1]
};

struct PgsSpringDef {
  int body_a = -1, body_b = -1;
  Vec3<double> anchor_a{0.0, 0.0, 0.0}, anchor_b{0.0, 0.0, 0.0};  // [m] body frames
  double stiffness = 0.0;                                         // [N/m]
  double damping = 0.0;                                           // [N s/m]
  double rest_length = -1.0;                                      // [m]; < 0: the initial length
};

struct PgsGroundDef {
  bool enabled = true;
  double height = 0.0;       // [m] along the up axis
  double bump_start = 0.0;   // [m] x where a cosine bump starts
  double bump_length = 0.0;  // [m] 0: no bump
  double bump_height = 0.0;  // [m]
};

struct PgsModelDef {
  int dimension = 3;                      // 2 or 3
  Vec3<double> gravity{0.0, 0.0, -9.81};  // [m/s^2]
  std::vector<PgsBodyDef> bodies;
  std::vector<PgsJointDef> joints;
  std::vector<PgsContactDef> contacts;  // only with ground.enabled
  std::vector<PgsSpringDef> springs;
  PgsGroundDef ground;
};

struct PgsSolverSettings {
  double step = 1.0e-3;       // [s]
  int max_iterations = 100;   // PGS sweeps per step (the cap)
  double tolerance = 1.0e-6;  // [m/s] stop when the residual is below; 0: always max_iterations
  double baumgarte = 0.2;     // [-] fraction of a position error removed per step
  double warm_start = 1.0;    // [-] factor on last step's impulses; 0: cold start
  pgs::FrictionCone cone = pgs::FrictionCone::Circular;
  bool velocity_product_term = false;  // ball rows target -dt (dJ/dt) v (seed 003's acceleration form)
  double restitution_threshold = 0.1;  // [m/s]
  // Sweep the rows color by color (no two rows of a color share a body), the order the CUDA
  // kernels' lanes share (physics/pgs/solve.h); round-off differs from the table order, the
  // solution not.
  bool colored_sweeps = false;
};

struct PgsBatchOptions {
  BackendKind backend = BackendKind::Auto;
  Precision precision = Precision::Fp64;
  int cpu_threads = 0;  // 0: all hardware threads
  // CUDA: a warp (32 lanes splitting each row color) per system instead of a thread per system.
  // Always sweeps color by color. Not yet measured on a device (docs/models/pgs.md).
  bool cuda_warp_per_system = false;
};

// ---- results -------------------------------------------------------------------------------------

struct PgsBodyState {
  Vec3<double> position;  // [m]
  Quat<double> orientation;
  Vec3<double> velocity;  // [m/s]
  Vec3<double> omega;     // [rad/s] world
};

struct PgsReport {
  int status = 0;                         // pgs::StatusBits, sticky since the last set_state
  int iterations = 0;                     // sweeps of the last step
  double residual_bilateral = 0.0;        // [m/s | rad/s] last step, max |J v1 - target|
  double residual_complementarity = 0.0;  // [m/s | rad/s] last step, natural-map residual
  double drift = 0.0;                     // [m | rad] max bilateral |C| at the start of the last step
  double penetration = 0.0;               // [m] max contact penetration / tether over-stretch, same time
};

// One constraint row of the model (the same for every system).
struct PgsRowDesc {
  int body_a, body_b;  // -1: world
  int kind;            // pgs::RowKind
  int joint;           // the joint it belongs to, or -1
  int contact;         // the contact it belongs to, or -1
};

class PgsBatch {
 public:
  // Throws fleetdyn::Error on a bad model or settings, or when CUDA is requested but unavailable.
  PgsBatch(const PgsModelDef& model, int system_count, const PgsSolverSettings& settings = {},
           const PgsBatchOptions& options = {});
  ~PgsBatch();
  PgsBatch(PgsBatch&&) noexcept;
  PgsBatch& operator=(PgsBatch&&) noexcept;

  int system_count() const;
  int body_count() const;
  int row_count() const;
  const std::vector<PgsRowDesc>& rows() const;
  BackendKind backend() const;  // Cpu or Cuda
  Precision precision() const;
  const std::string& device_name() const;

  // Advance every system by n steps (asynchronous on CUDA).
  void step(int n);
  void synchronize();

  // Read-back (synchronizes).
  std::vector<PgsBodyState> bodies(int system);
  std::vector<double> impulses(int system);  // [N s] last step's lambda per row
  double time(int system);                   // [s]
  std::vector<PgsReport> reports();
  // Replace one system's body states (length body_count), resetting its time to `time`, its
  // impulses and its status. Kinematic bodies are placed on their motion law at that time.
  void set_state(int system, const std::vector<PgsBodyState>& bodies, double time = 0.0);

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace fleetdyn
