// HMMWV preset, derived parameters, and access to parameters by name.
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>

#include "fleetdyn/error.h"
#include "fleetdyn/physics/core/math.h"
#include "fleetdyn/physics/strut/strut_derive.h"
#include "fleetdyn/suspension.h"
#include "fleetdyn/vehicle.h"
#include "fleetdyn/vehicle_definition.h"
#include "host/batch/convert_scalars.h"

namespace fleetdyn {
namespace {

// Motion ratios (spring or shock length change per unit vertical wheel travel at design),
// computed from the hardpoints by rotating the LCA about its pivot axis (first order, wheel
// travel taken at the lower ball joint): spring 0.4745 front and rear; shock 0.4769 front,
// 0.4798 rear. The strut model's rates are at the wheel: k_wheel = k_spring * MR^2.
constexpr double kSpringMotionRatio = 0.4745;
constexpr double kShockMotionRatioFront = 0.4769, kShockMotionRatioRear = 0.4798;

StrutParams<double> build_hmmwv_params() {
  // The HMMWV's definition, lumped by hand (strut_params_from_definition derives a vehicle file's
  // lumped parameters from its ce model instead; docs/models/strut.md compares the two).
  const VehicleDefinition v = hmmwv_vehicle();
  const AxleDefinition& a = v.front;  // front and rear links alike
  StrutParams<double> p{};
  // Tire, engine, driveline, brakes, gravity: the definition's.
  static_cast<VehicleCommon<double>&>(p) = v.common;
  // Unsprung corner: spindle, upright, rim, tire and half of each control arm (the other half
  // rides with the body). Total: chassis + 4 corners (arms whole) + Pitman steering.
  const double corner_all = v.spindle.mass + a.upright.mass + a.uca.mass + a.lca.mass + v.rim.mass + v.tire_body.mass;
  const double unsprung = v.spindle.mass + a.upright.mass + v.rim.mass + v.tire_body.mass + 0.5 * (a.uca.mass + a.lca.mass);
  p.total_mass = v.chassis_mass + 4.0 * corner_all + (v.steering_link_mass + v.pitman_arm_mass);  // 2573.1 kg
  p.unsprung_mass_front = unsprung;                                                               // 105.4 kg
  p.unsprung_mass_rear = unsprung;
  // Chrono's chassis inertia about its COM; the arm halves and steering (65 kg near the axles)
  // are left out of the inertia (they would add about 6 % to Iyy and Izz).
  p.body_inertia_xx = 1078.52;
  p.body_inertia_yy = 2955.66;
  p.body_inertia_zz = 3570.20;
  // Body COM: chassis COM at x = 0.056 in the chassis frame, shifted 1.4 mm forward by the
  // steering; wheel centres at x = +1.688965 - 0.040386 (front), -1.688965 + 0.035560 (rear).
  const double body_com_x = 0.0574;
  p.cg_to_front_axle = 1.688965 - 0.040386 - body_com_x;  // 1.5912 m
  p.cg_to_rear_axle = 1.688965 - 0.035560 + body_com_x;   // 1.7108 m
  p.track_front = 2.0 * 0.909701;
  p.track_rear = 2.0 * 0.909701;
  // Chassis frame origin sits 0.026289 m above the wheel centres, which stand at the loaded
  // tire radius (~0.4545 m): chassis COM (z = 0.213) at 0.694 m; the arm halves at wheel height
  // lower the body COM to 0.687 m (LFDM quotes 0.713 m for its HMMWV).
  p.cg_height = 0.687;
  p.wheel_spin_inertia = v.tire_body.spin_inertia + v.rim.spin_inertia + v.spindle.spin_inertia;
  // Linear spring rates (the preset whose static position is the design position).
  p.wheel_rate_front = 167062.0 * kSpringMotionRatio * kSpringMotionRatio;  // 37.6 kN/m
  p.wheel_rate_rear = 369149.0 * kSpringMotionRatio * kSpringMotionRatio;   // 83.1 kN/m
  // Midstroke shock rates at the wheel.
  const double mrf2 = kShockMotionRatioFront * kShockMotionRatioFront;
  const double mrr2 = kShockMotionRatioRear * kShockMotionRatioRear;
  p.damping_bump_front = 12521.56 * mrf2;
  p.damping_rebound_front = 22460.01 * mrf2;
  p.damping_bump_rear = 14535.52 * mrr2;
  p.damping_rebound_rear = 35025.35 * mrr2;
  // Stops on spring length (front 0.15/0.30 m, rear 0.15/0.35 m, design 0.24646/0.30602 m),
  // converted to wheel travel from design.
  p.bump_travel_front = (0.24646 - 0.15) / kSpringMotionRatio;
  p.rebound_travel_front = (0.30 - 0.24646) / kSpringMotionRatio;
  p.bump_travel_rear = (0.30602 - 0.15) / kSpringMotionRatio;
  p.rebound_travel_rear = (0.35 - 0.30602) / kSpringMotionRatio;
  p.stop_motion_ratio = kSpringMotionRatio;
  for (int i = 0; i < kStopTablePoints; ++i) {
    p.stop_table_pen[i] = v.stop_table_pen[i];
    p.stop_table_force[i] = v.stop_table_force[i];
  }
  p.link_stiffness = 1.0e8;  // seed 004: ~40 um compliance under cornering load
  p.link_damping_ratio = 1.0;
  p.max_steer = deg_to_rad(30.0);
  // Seed 004 complete: tire force at the contact patch, and the wheel path, camber, toe,
  // Ackermann and coil motion ratio of the HMMWV's double wishbones and Pitman steering
  // (the ce model's hardpoints), tabulated between the stops.
  p.tire_force_at_contact = 1.0;
  p.linkage_geometry = 1.0;
  p.progressive_spring = 1.0;
  tabulate_strut_linkage(make_ce_suspension(suspension_design(v)), p);
  finalize_vehicle_params(p);
  return p;
}

}  // namespace

// Derived once (the linkage tabulation fits curves to ce's kinematics: milliseconds), copied out.
StrutParams<double> hmmwv_params() {
  static const StrutParams<double> preset = build_hmmwv_params();
  return preset;
}

std::vector<std::string> vehicle_preset_names() { return {"hmmwv"}; }

StrutParams<double> vehicle_preset(const std::string& name) {
  if (name == "hmmwv") return hmmwv_params();
  std::string known;
  for (const auto& n : vehicle_preset_names()) known += (known.empty() ? "" : ", ") + n;
  throw Error("unknown vehicle preset '" + name + "' (known: " + known + ")");
}

namespace {

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

// The on/off parameters are 0 or 1; the linkage's parts need its curves, and every stop within
// the tabulated travel (beyond it the curves only continue along their end tangents).
void check_strut_options(const StrutParams<double>& p) {
  const std::pair<const char*, double> options[] = {{"tire_force_at_contact", p.tire_force_at_contact},
                                                    {"linkage_geometry", p.linkage_geometry},
                                                    {"progressive_spring", p.progressive_spring}};
  for (const auto& [name, value] : options) {
    if (!(value == 0.0 || value == 1.0)) {
      throw Error(std::string(name) + " = " + number(value) + ": must be 0 (off) or 1 (on)");
    }
  }
  if (p.linkage_geometry == 0.0 && p.progressive_spring == 0.0) return;
  const char* which = p.linkage_geometry != 0.0 ? "linkage_geometry" : "progressive_spring";
  if (p.linkage.tabulated != 1.0) {
    throw Error(std::string(which) +
                " = 1 needs the linkage curves of a suspension design (tabulate_strut_linkage); this vehicle has none: "
                "set it to 0");
  }
  for (int axle = 0; axle < 2; ++axle) {
    const AxleLinkage<double>& link = p.linkage.axle[axle];
    const double low = link.travel_mid - 1.0 / link.travel_inverse_half;
    const double high = link.travel_mid + 1.0 / link.travel_inverse_half;
    const bool front = axle == 0;
    const double bump = front ? p.bump_travel_front : p.bump_travel_rear;
    const double rebound = front ? p.rebound_travel_front : p.rebound_travel_rear;
    const std::string range = std::string(" the linkage of the ") + (front ? "front" : "rear") +
                              " axle is tabulated over [" + number(low) + ", " + number(high) + "] m of travel";
    if (!(bump <= high)) {
      throw Error(std::string(front ? "bump_travel_front" : "bump_travel_rear") + " = " + number(bump) +
                  " m: beyond the reach of the linkage;" + range);
    }
    if (!(-rebound >= low)) {
      throw Error(std::string(front ? "rebound_travel_front" : "rebound_travel_rear") + " = " + number(rebound) +
                  " m: beyond the reach of the linkage;" + range);
    }
  }
}

}  // namespace

void check_vehicle_params(const StrutParams<double>& p, const std::string& what) {
  try {
    // Every overridable field finite and in its range (the NaN test is in the negation), read by
    // member: a Batch checks every per-vehicle set, so no lookup by name.
    auto in_range = [](const char* name, double v, const char* unit, double lo, double hi) {
      if (v >= lo && v <= hi) return;
      const std::string u = std::string(unit) == "-" ? "" : std::string(" ") + unit;
      throw Error(std::string(name) + " = " + number(v) + u + " is outside [" + number(lo) + ", " + number(hi) + "]");
    };
#define FLEETDYN_FIELD_CHECK(name, member, unit, lo, hi, doc) in_range(name, p.member, unit, lo, hi);
    FLEETDYN_STRUT_OWN_FIELDS(FLEETDYN_FIELD_CHECK)
#undef FLEETDYN_FIELD_CHECK
    check_vehicle_common(p);
    const double unsprung_total = 2.0 * (p.unsprung_mass_front + p.unsprung_mass_rear);
    if (!(unsprung_total < p.total_mass * 0.9)) {
      throw Error("the unsprung masses (" + number(unsprung_total) + " kg) must be well below total_mass (" +
                  number(p.total_mass) + " kg)");
    }
    if (!(p.cg_height > p.tire.unloaded_radius * 0.5)) {
      throw Error("cg_height (" + number(p.cg_height) + " m) must exceed half the tire radius");
    }
    check_strut_options(p);
  } catch (const Error& e) {
    throw Error(what + ": " + e.what());
  }
}

void finalize_vehicle_params(StrutParams<double>& p) {
  check_vehicle_params(p, "vehicle parameters");
  derive_vehicle_params(p);
}

namespace {
#define FLEETDYN_FIELD_ROW(name, member, unit, lo, hi, doc) VehicleParamField{name, unit, lo, hi, doc},
const std::vector<VehicleParamField> kFields = {FLEETDYN_VEHICLE_PARAM_FIELDS(FLEETDYN_FIELD_ROW)};
#undef FLEETDYN_FIELD_ROW
}  // namespace

const std::vector<VehicleParamField>& vehicle_param_fields() { return kFields; }

double* vehicle_param_ptr(StrutParams<double>& p, const std::string& name) {
#define FLEETDYN_FIELD_PTR(field_name, member, unit, lo, hi, doc) \
  if (name == field_name) return &p.member;
  FLEETDYN_VEHICLE_PARAM_FIELDS(FLEETDYN_FIELD_PTR)
#undef FLEETDYN_FIELD_PTR
  return nullptr;
}

double vehicle_param(const StrutParams<double>& p, const std::string& name) {
  double* ptr = vehicle_param_ptr(const_cast<StrutParams<double>&>(p), name);
  if (!ptr) throw Error("unknown vehicle parameter '" + name + "'");
  return *ptr;
}

template <class T>
StrutParams<T> convert_params(const StrutParams<double>& p) {
  return convert_scalars<StrutParams, T>(p);
}

template StrutParams<float> convert_params<float>(const StrutParams<double>&);
template StrutParams<double> convert_params<double>(const StrutParams<double>&);

}  // namespace fleetdyn
