// The pgs model's vehicle: the HMMWV of the ce model as 17 rigid bodies in
// maximal coordinates with joints as constraint rows (physics/pgs/vehicle.h). It runs in the
// ordinary batch (fleetdyn/batch.h) like strut and ce:
//
//   fleetdyn::PgsVehicleDef def;                            // hmmwv_ce_params(), tire forces, 30 sweeps
//   fleetdyn::Batch batch({def}, 1000, fleetdyn::TerrainSpec{}, options);
//
// docs/models/pgs.md ("The maximal-coordinate vehicle") has the topology, the forces and what
// the tests compare.
#pragma once

#include <vector>

#include "fleetdyn/ce.h"
#include "fleetdyn/pgs.h"
#include "fleetdyn/physics/pgs/vehicle.h"

namespace fleetdyn {

struct PgsVehicleDef {
  CeParams<double> vehicle = hmmwv_ce_params();  // geometry, masses, force laws, tire, driveline
  // Tire: the shared TMeasy tire as forces on the wheel bodies. Rows: each wheel a rigid sphere
  // of the tire's unloaded radius with a contact row and two Coulomb friction rows (mu = tire.mu
  // times the surface's mu_scale); flat terrain only.
  pgsv::WheelContact wheel_contact = pgsv::WheelContact::Tire;
  int iterations = 30;  // PGS sweeps per step, fixed (no tolerance: a deterministic cost)
  // Fraction of a joint error removed per step. 0.1, not the usual 0.2: with 0.2, full warm start
  // and 30 sweeps, the unconverged part of the joint impulses and the Baumgarte correction fed each
  // other in severe step steers with lifted wheels (chassis COM at 0.6-1.7 m) until the linkage
  // broke within 2-3 s; 0.1 holds it in all of them (docs/models/pgs.md).
  double baumgarte = 0.1;
  double warm_start = 1.0;                               // factor on last step's impulses
  pgs::FrictionCone cone = pgs::FrictionCone::Circular;  // rigid-wheel mode
};

// The vehicle's bodies and joints at the design pose as a PgsModelDef in the ce chassis frame
// (world = chassis frame), e.g. to inspect it or to run it in a PgsBatch. Body order:
// chassis, then per corner LCA, UCA, upright (+ tierod mass), wheel; joints per corner as in
// physics/pgs/vehicle.h. Throws fleetdyn::Error on a bad definition.
PgsModelDef pgs_vehicle_model_def(const PgsVehicleDef& def);

// The kernel's parameters in precision T for steps of `step` seconds (the batch's step over its
// substeps); `terrain` must be flat in the rigid-wheel mode.
template <class T>
PgsVehicleParams<T> build_pgs_vehicle_params(const PgsVehicleDef& def, double step, const TerrainDesc<double>& terrain);

// The ce vehicle whose rest state (ce_rest_state) is this vehicle's: def.vehicle, or in the
// rigid-wheel mode def.vehicle with a tire 100 times stiffer vertically, so the wheels start
// touching the ground (0.3 mm penetration instead of 3 cm) with almost nothing for the contact
// rows to push out (which would scrub the wheels sideways and lock friction preloads in). A pgs batch's ce_params() returns these.
CeParams<double> pgs_vehicle_rest_params(const PgsVehicleDef& def);

// The same parameters in another precision (e.g. fp32 for a batch).
template <class T>
PgsVehicleParams<T> convert_pgs_vehicle_params(const PgsVehicleParams<double>& p);

// A pgs vehicle state (physics/pgs/vehicle.h layout) with the same configuration and motion as
// a ce state (ce_model.h layout: chassis pose and velocity, LCA angles and rates, wheel spins,
// tire deflections, steering), e.g. ce_rest_state placed by ce_place_on_terrain.
std::vector<double> pgs_vehicle_state_from_ce(const PgsVehicleParams<double>& p, const std::vector<double>& ce_state);

// Mechanical energy [J] of a pgs vehicle state: kinetic energy of every body, gravity, springs
// and the tires' vertical springs (as ce_energy), positions relative to the local origin.
double pgs_vehicle_energy(const PgsVehicleParams<double>& p, const TerrainDesc<double>& terrain, double origin_x,
                          double origin_y, const std::vector<double>& state);

// The chassis frame's attitude and motion in a pgs vehicle state, as the batch's snapshots give
// them for every model: COM position (local) and world velocity, chassis -> world rotation,
// angular velocity in chassis axes, and each wheel's spin relative to its upright [rad/s].
struct PgsChassisMotion {
  Vec3<double> com, velocity, omega_body;
  Mat3<double> rotation;
  double wheel_spin[kCorners];
};
PgsChassisMotion pgs_vehicle_chassis_motion(const PgsVehicleParams<double>& p, const double* state);

// Camber and toe-in [rad] of a corner's wheel in a pgs vehicle state (the conventions of
// `fleetdyn kinematics`: camber + = top of the wheel outward, toe + = toe-in), and the LCA angle
// [rad] of the corner relative to the chassis (0 at design, + = bump), as ce's coordinate.
struct PgsCornerAngles {
  double camber, toe_in, lca_angle;
};
PgsCornerAngles pgs_vehicle_corner_angles(const PgsVehicleParams<double>& p, const std::vector<double>& state, int corner);

}  // namespace fleetdyn
