// The ce model's parameters by name (fleetdyn/ce_fields.h): the table, finalization and
// validation, and that an override reaches what the model computes.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "fleetdyn/ce.h"
#include "fleetdyn/ce_fields.h"
#include "fleetdyn/error.h"

namespace fleetdyn {
namespace {

using namespace ce;

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// The message of the Error that finalize_ce_params throws, or "" if it does not throw.
std::string finalize_error(CeParams<double> p) {
  try {
    finalize_ce_params(p);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

void set(CeParams<double>& p, const std::string& name, double value) {
  double* field = ce_param_ptr(p, name);
  ASSERT_NE(field, nullptr) << name;
  *field = value;
}

bool inside(const CeParams<double>& p, const double* ptr) {
  const char* c = reinterpret_cast<const char*>(ptr);
  const char* base = reinterpret_cast<const char*>(&p);
  return c >= base && c + sizeof(double) <= base + sizeof p;
}

TEST(CeParamFields, NamesAreUniqueAndRowsWellFormed) {
  std::set<std::string> names;
  for (const VehicleParamField& f : ce_param_fields()) {
    EXPECT_TRUE(names.insert(f.name).second) << "duplicate " << f.name;
    EXPECT_GT(std::strlen(f.unit), 0u) << f.name;
    EXPECT_GT(std::strlen(f.description), 0u) << f.name;
    EXPECT_LT(f.min, f.max) << f.name;
  }
  EXPECT_EQ(names.size(), 64u);  // 10 chassis and wheel + 2 x 12 axle + 2 steering + 28 shared
}

TEST(CeParamFields, EveryNameRoundTripsToItsOwnMember) {
  CeParams<double> p = hmmwv_ce_params();
  std::set<const double*> seen;
  double value = 1.0;
  for (const VehicleParamField& f : ce_param_fields()) {
    double* ptr = ce_param_ptr(p, f.name);
    ASSERT_NE(ptr, nullptr) << f.name;
    EXPECT_TRUE(inside(p, ptr)) << f.name;
    EXPECT_TRUE(seen.insert(ptr).second) << f.name << " aliases another field";
    value += 0.125;  // distinct per field, exact in binary
    *ptr = value;
    EXPECT_EQ(ce_param(p, f.name), value) << f.name;
  }
  // The table names the member it claims to (written through the table, read directly).
  set(p, "chassis_mass", 2345.0);
  set(p, "chassis_com_y", 0.0125);
  set(p, "chassis_inertia_zz", 3456.0);
  set(p, "spring_rate_rear", 3.0e5);
  set(p, "shock_out_rebound_front", 6.5e4);
  set(p, "bump_stop_length_rear", 0.1375);
  set(p, "max_steer", 0.5);
  set(p, "tire.mu", 0.7);
  set(p, "front_torque_split", 0.375);
  set(p, "wheel_lock_time", 0.02);
  EXPECT_EQ(p.chassis_mass, 2345.0);
  EXPECT_EQ(p.chassis_com.y, 0.0125);
  EXPECT_EQ(p.chassis_inertia.zz, 3456.0);
  EXPECT_EQ(p.axle[1].spring_rate, 3.0e5);
  EXPECT_EQ(p.axle[0].shock_out_rebound, 6.5e4);
  EXPECT_EQ(p.axle[1].bump_stop_length, 0.1375);
  EXPECT_EQ(p.steering.max_angle, 0.5);
  EXPECT_EQ(p.tire.mu, 0.7);
  EXPECT_EQ(p.front_torque_split, 0.375);
  EXPECT_EQ(p.wheel_lock_time, 0.02);
}

// Shared fields keep the strut table's meaning: same member of VehicleCommon, unit and range,
// so one override means the same thing for both models.
TEST(CeParamFields, SharedFieldsMatchTheStrutTable) {
  CeParams<double> p = hmmwv_ce_params();
  StrutParams<double> strut = hmmwv_params();
  const VehicleCommon<double>& common = p;
  const char* vehicle_begin = reinterpret_cast<const char*>(&common);
  const char* strut_common = reinterpret_cast<const char*>(&static_cast<const VehicleCommon<double>&>(strut));
  int shared = 0;
  for (const VehicleParamField& f : ce_param_fields()) {
    const double* ptr = ce_param_ptr(p, f.name);
    const char* c = reinterpret_cast<const char*>(ptr);
    if (c < vehicle_begin || c >= vehicle_begin + sizeof common) continue;
    ++shared;
    const double* strut_ptr = vehicle_param_ptr(strut, f.name);
    ASSERT_NE(strut_ptr, nullptr) << f.name;
    EXPECT_EQ(c - vehicle_begin, reinterpret_cast<const char*>(strut_ptr) - strut_common) << f.name;
    bool found = false;
    for (const VehicleParamField& g : vehicle_param_fields()) {
      if (std::string(g.name) != f.name) continue;
      found = true;
      EXPECT_STREQ(f.unit, g.unit) << f.name;
      EXPECT_EQ(f.min, g.min) << f.name;
      EXPECT_EQ(f.max, g.max) << f.name;
    }
    EXPECT_TRUE(found) << f.name;
  }
  EXPECT_EQ(shared, 28);  // 19 tire, driveline, brakes, gravity + 9 body contact
}

TEST(CeParamFields, UnknownNamesAreNullAndThrow) {
  CeParams<double> p = hmmwv_ce_params();
  EXPECT_EQ(ce_param_ptr(p, "no_such_field"), nullptr);
  EXPECT_EQ(ce_param_ptr(p, "total_mass"), nullptr);   // strut-only: ce does not read it
  EXPECT_EQ(ce_param_ptr(p, "spring_rate"), nullptr);  // per axle only
  try {
    ce_param(p, "cg_height");
    FAIL() << "no throw";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'cg_height'"), std::string::npos) << e.what();
  }
}

TEST(CeParamFields, PresetIsInsideEveryRange) {
  const CeParams<double> p = hmmwv_ce_params();
  for (const VehicleParamField& f : ce_param_fields()) {
    const double v = ce_param(p, f.name);
    EXPECT_GE(v, f.min) << f.name;
    EXPECT_LE(v, f.max) << f.name;
  }
}

TEST(CeParamFields, PresetIsAFixedPointOfFinalize) {
  const CeParams<double> preset = hmmwv_ce_params();
  CeParams<double> p = preset;
  finalize_ce_params(p);
  for (const VehicleParamField& f : ce_param_fields()) {
    EXPECT_TRUE(same_bits(ce_param(p, f.name), ce_param(preset, f.name))) << f.name;
  }
  // ... and so are the derived fields the ce model reads.
  for (int i = 0; i < kCorners; ++i) {
    EXPECT_TRUE(same_bits(p.drive_share[i], preset.drive_share[i])) << i;
    EXPECT_TRUE(same_bits(p.brake_torque[i], preset.brake_torque[i])) << i;
  }
  EXPECT_TRUE(same_bits(p.wheel_lock_rate, preset.wheel_lock_rate));
}

TEST(CeParamFields, OutOfRangeValuesThrowNamingTheField) {
  const CeParams<double> preset = hmmwv_ce_params();
  struct Case {
    const char* name;
    double value;
  };
  for (const Case& c : {Case{"tire.mu", 5.0}, Case{"chassis_mass", -100.0}, Case{"shock_mid_rebound_rear", -1.0},
                        Case{"max_steer", 0.0}, Case{"spring_rate_rear", std::numeric_limits<double>::quiet_NaN()}}) {
    CeParams<double> p = preset;
    set(p, c.name, c.value);
    const std::string message = finalize_error(p);
    EXPECT_NE(message.find(std::string(c.name) + " = "), std::string::npos) << c.name << ": '" << message << "'";
  }
}

TEST(CeParamFields, InconsistentStopsThrowNamingTheFields) {
  const CeParams<double> preset = hmmwv_ce_params();
  CeParams<double> p = preset;
  set(p, "bump_stop_length_front", ce_param(p, "rebound_stop_length_front"));  // in range, but no travel left
  std::string message = finalize_error(p);
  EXPECT_NE(message.find("bump_stop_length_front"), std::string::npos) << message;
  EXPECT_NE(message.find("rebound_stop_length_front"), std::string::npos) << message;

  p = preset;
  set(p, "spring_free_length_rear", ce_param(p, "bump_stop_length_rear") - 0.01);
  message = finalize_error(p);
  EXPECT_NE(message.find("spring_free_length_rear"), std::string::npos) << message;
}

TEST(CeParamFields, ImpossibleInertiasThrow) {
  const CeParams<double> preset = hmmwv_ce_params();
  CeParams<double> p = preset;
  // Yaw moment beyond roll + pitch: no mass distribution has it (each value alone is in range).
  set(p, "chassis_inertia_zz", ce_param(p, "chassis_inertia_xx") + ce_param(p, "chassis_inertia_yy") + 100.0);
  EXPECT_NE(finalize_error(p).find("chassis_inertia"), std::string::npos) << finalize_error(p);
  // A disc's spin moment is twice its diametral one; a wheel cannot exceed that.
  p = preset;
  set(p, "wheel_spin_inertia", 2.5 * ce_param(p, "wheel_transverse_inertia"));
  EXPECT_NE(finalize_error(p).find("wheel_spin_inertia"), std::string::npos) << finalize_error(p);
}

// front_torque_split is read by the model only through the derived drive_share: finalize must
// carry it over, and the front wheels then get the larger share of the drive torque.
TEST(CeParamFields, FrontTorqueSplitReachesTheModel) {
  CeParams<double> p = hmmwv_ce_params();
  set(p, "front_torque_split", 0.8);
  EXPECT_EQ(p.drive_share[0], 0.25);  // not yet: derived
  finalize_ce_params(p);
  for (int i = 0; i < kCorners; ++i) EXPECT_DOUBLE_EQ(p.drive_share[i], i < 2 ? 0.4 : 0.1) << i;
  // At rest with full throttle the tire patch has no deflection yet, so each wheel's spin
  // acceleration follows its drive torque: front/rear ~ 0.4 / 0.1.
  const TerrainDesc<double> flat = default_terrain_desc<double>();
  const CeEnvironment<double> env{&flat, 0.0, 0.0};
  const std::vector<double> s = ce_rest_state(p);
  double ds[kStateSize];
  ce_derivative(p, env, DriverInput<double>{0.0, 1.0, 0.0}, s.data(), ds);
  const double ratio = ds[kWheelSpin + 0] / ds[kWheelSpin + 2];
  EXPECT_GT(ratio, 3.0);
  EXPECT_LT(ratio, 6.0);  // ~4.45: the chassis reacts the drive torques and couples the wheels a little
}

// tire.mu is read directly by the tire: a vehicle sliding sideways feels less lateral force
// after lowering it through the table. In the transient TMeasy force f d v_s / (v* d + f) the
// secant stiffness f scales with mu, so halving mu cuts the force to ~53 % here.
TEST(CeParamFields, TireMuReachesTheModel) {
  const TerrainDesc<double> flat = default_terrain_desc<double>();
  const CeEnvironment<double> env{&flat, 0.0, 0.0};
  auto lateral_accel = [&](double mu) {
    CeParams<double> p = hmmwv_ce_params();
    set(p, "tire.mu", mu);
    finalize_ce_params(p);
    std::vector<double> s = ce_rest_state(p, 15.0);
    s[kVel + 1] = 4.0;  // sliding left at 4 m/s: well past the force peak
    double ds[kStateSize];
    ce_derivative(p, env, DriverInput<double>{0.0, 0.0, 0.0}, s.data(), ds);
    return ds[kVel + 1];
  };
  const double high = lateral_accel(0.8), low = lateral_accel(0.4);
  EXPECT_LT(high, -1.0);  // the tires push back against the slide
  EXPECT_LT(std::fabs(low), 0.75 * std::fabs(high)) << low << " vs " << high;
}

// A 10 % heavier chassis (springs not re-balanced) sits lower, and the front spring takes the
// extra load. By virtual work the spring force F = k (L0 - L) holds the wheel load W through the
// motion ratio MR = -dL/dz (spring length per wheel travel): W = F MR, so the change of F MR
// between the two rest states is the added weight on one front wheel, dW. The geometry's own
// progression matters: the preload (~12 kN) times the change of MR is ~10 % of dW, so both
// rest states are evaluated at their own MR. Loose (5 %): the chassis pitches, which moves the
// front share a little, and the arms' own weights shift with the geometry.
TEST(CeParamFields, HeavierChassisSitsLowerAndTheFrontSpringTakesItsShare) {
  const CeParams<double> preset = hmmwv_ce_params();
  CeParams<double> p = preset;
  set(p, "chassis_mass", 1.1 * preset.chassis_mass);
  finalize_ce_params(p);
  const std::vector<double> s0 = ce_rest_state(preset), s1 = ce_rest_state(p);
  EXPECT_LT(s1[kPos + 2], s0[kPos + 2] - 0.005) << "chassis height " << s1[kPos + 2] << " vs " << s0[kPos + 2];

  const CornerGeometry<double>& g = p.corner[0];
  const CeAxleForces<double>& front = p.axle[0];
  const TierodInner<double> inner = tierod_inner_point(g, p.steering, steering_link_state(p.steering, 0.0, 0.0));
  auto wheel_load = [&](double lca) {  // spring force referred to the wheel, F MR
    const double h = 1e-6;
    const CornerPose<double> up = corner_pose(g, lca + h, inner), down = corner_pose(g, lca - h, inner);
    const double motion_ratio = -(up.spring_length - down.spring_length) / (up.wheel_centre.z - down.wheel_centre.z);
    return front.spring_rate * (front.spring_free_length - corner_pose(g, lca, inner).spring_length) * motion_ratio;
  };
  const double a0 = s0[kLca + 0], a1 = s1[kLca + 0];
  EXPECT_GT(a1, a0);  // more bump
  const double x_front = g.design.wheel_centre.x, x_rear = p.corner[2].design.wheel_centre.x;
  const double front_share = (p.chassis_com.x - x_rear) / (x_front - x_rear);
  const double added_wheel_load = 0.5 * (p.chassis_mass - preset.chassis_mass) * p.gravity * front_share;
  const double spring_share = wheel_load(a1) - wheel_load(a0);
  EXPECT_NEAR(spring_share / added_wheel_load, 1.0, 0.05) << spring_share << " N vs " << added_wheel_load << " N";
  RecordProperty("front_spring_load_ratio", std::to_string(spring_share / added_wheel_load));
}

// Full steering must stay assembled: a Pitman angle past the linkage's reach is rejected.
TEST(CeParamFields, SteeringBeyondItsReachThrows) {
  CeParams<double> p = hmmwv_ce_params();
  set(p, "max_steer", 1.15);  // in range; the HMMWV linkage reaches about 1.05 rad
  EXPECT_NE(finalize_error(p).find("max_steer"), std::string::npos) << finalize_error(p);
}

}  // namespace
}  // namespace fleetdyn
