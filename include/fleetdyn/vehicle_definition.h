// A vehicle as its designer describes it (host API): masses and inertias, the double-wishbone
// hardpoints of each axle, springs, shocks, stops, the Pitman steering, the wheel, the tire and
// the driveline. Every model builds from it: ce and pgs directly (make_ce_params), strut through
// its lumped equivalent (strut_params_from_definition). Vehicle files (vehicles/*.yaml,
// docs/vehicle-files.md) are read into it by load_vehicle_file (host/vehicle/vehicle_file.h);
// the built-in HMMWV is hmmwv_vehicle(), which vehicles/hmmwv.yaml reproduces exactly.
//
// Frames: the chassis frame (ISO: x forward, y left, z up; origin as the designer chooses), and
// per axle the suspension frame, the chassis frame shifted to x = axle.x. Hardpoints are given for
// the left side of each axle in its suspension frame and mirrored for the right.
#pragma once

#include <string>

#include "fleetdyn/physics/ce/suspension_geometry.h"
#include "fleetdyn/physics/core/math.h"
#include "fleetdyn/physics/core/spatial.h"
#include "fleetdyn/physics/core/tire_tmeasy.h"
#include "fleetdyn/physics/core/vehicle_common.h"
#include "fleetdyn/physics/strut/strut_params.h"
#include "fleetdyn/suspension.h"

namespace fleetdyn {

// A suspension link: mass and the principal moments of inertia about its COM in its own frame
// (Chrono's convention; the COM is a hardpoint): the control arms' frame has x along the pivot
// axis (front - back) and z normal to the arm's plane; the tierod's has z along the rod; the
// upright's is the chassis frame.
struct LinkData {
  double mass;           // [kg]
  Vec3<double> inertia;  // [kg m^2] principal moments
};

// A rotating part of the wheel (spindle, rim, tire): mass and moments about the spin axis and a
// diameter.
struct WheelPartData {
  double mass;                // [kg]
  double spin_inertia;        // [kg m^2]
  double transverse_inertia;  // [kg m^2]
};

// A coil spring between chassis and LCA: F = rate x + cubic x^3, x = free_length - length.
struct SpringData {
  double free_length;  // [m]
  double rate;         // [N/m]
  double cubic;        // [N/m^3] (0: linear)
};

// The shock between chassis and LCA: piecewise-linear damping, one rate pair inside the
// midstroke band of shock lengths and one outside it (Chrono's HMMWV shock).
struct ShockData {
  double midstroke_min, midstroke_max;  // [m] shock lengths
  double mid_compression, mid_rebound;  // [N s/m]
  double out_compression, out_rebound;  // [N s/m]
};

// One axle's double wishbones: where, what, and its force elements.
struct AxleDefinition {
  double x;                                     // [m] suspension frame origin on the chassis x axis
  DoubleWishboneHardpoints<double> hardpoints;  // left side, suspension frame
  LinkData lca, uca, upright, tierod;
  SpringData spring;
  ShockData shock;
  double bump_stop_length;     // [m] spring length below which the bump stop engages
  double rebound_stop_length;  // [m] spring length above which the rebound stop engages
};

struct VehicleDefinition {
  std::string name;  // e.g. "HMMWV"
  // Chassis alone (without the steering mechanism): mass, COM, inertia about the COM.
  double chassis_mass;  // [kg]
  Vec3<double> chassis_com;
  Sym3<double> chassis_inertia;
  // Pitman-arm steering (geometry in suspension_geometry.h); its two moving parts are
  // kinematic, lumped as point masses at the mechanism origin.
  PitmanSteeringGeometry<double> steering;
  double steering_link_mass, pitman_arm_mass;  // [kg]
  double steer_time_constant;                  // [s] steering actuator lag
  AxleDefinition front, rear;
  WheelPartData spindle, rim, tire_body;  // the wheel turns as one body: their sums
  // Suspension stop force against penetration (the same table for bump and rebound stops).
  double stop_table_pen[kStopTablePoints];    // [m], increasing from 0
  double stop_table_force[kStopTablePoints];  // [N]
  // Tire (TMeasy), driveline, brakes, gravity: the part every model shares. Its derived fields
  // are ignored here (each model's finalize computes them).
  VehicleCommon<double> common;
  // Replace the springs' free lengths by those that make the design position the static one at
  // rest on flat ground (ce_balance_springs_at_design): for data whose free lengths are nominal.
  bool balance_springs_at_design;
};

// The HMMWV (shared/reference/hmmwv.md: Project Chrono's HMMWV data, TMeasy tire).
VehicleDefinition hmmwv_vehicle();

// The suspension design (hardpoints, axle positions, steering) of a definition.
SuspensionDesign suspension_design(const VehicleDefinition& v);

// The strut model's parameters for a vehicle definition: strut_equivalent_params of its ce
// parameters (same total mass and centre of mass, wheel rates and damping through the motion
// ratios at design, the linkage curves tabulated from its hardpoints), with the maximum
// road-wheel angle the mean of the two front wheels' at full steering input. Throws
// fleetdyn::Error as make_ce_params does.
StrutParams<double> strut_params_from_definition(const VehicleDefinition& v);

}  // namespace fleetdyn
