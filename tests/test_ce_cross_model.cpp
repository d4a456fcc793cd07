// ce against strut on the same vehicle: the strut model with the lumped
// parameters and linkage of the ce HMMWV (strut_equivalent_params) must give the same static
// wheel loads (1 %), ride frequencies (1 to 5 %) and steady cornering (lateral acceleration 5 %,
// roll 10 %, load transfer per axle 5 %).
// docs/models/ce-cross-model.md explains where and why the two models differ.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "fleetdyn/ce.h"
#include "fleetdyn/physics/core/math.h"
#include "fleetdyn/physics/strut/strut_initial.h"
#include "fleetdyn/vehicle.h"

namespace fleetdyn {
namespace {

TerrainDesc<double> flat_ground() {
  TerrainDesc<double> t{};
  t.kind = TerrainKind::Flat;
  t.mu_scale = 1.0;
  return t;
}

double relative_difference(double ce_value, double strut_value) {
  return std::fabs(strut_value - ce_value) / std::fabs(ce_value);
}

class CeCrossModel : public ::testing::Test {
 protected:
  CeParams<double> ce = hmmwv_ce_params();
  StrutParams<double> strut = strut_equivalent_params(ce);
  TerrainDesc<double> ground = flat_ground();
  CeEnvironment<double> ce_env{&ground, 0.0, 0.0};
};

// The strut vehicle at rest on flat ground (design ride height, static tire deflection).
std::vector<double> strut_rest_state(const StrutParams<double>& p, const TerrainDesc<double>& ground, double speed) {
  std::vector<double> s(kStrutStateSize);
  double ox = 0.0, oy = 0.0;
  strut_initial_state(p, ground, 0.0, 0.0, 0.0, speed, s.data(), &ox, &oy);
  return s;
}

// ---- static wheel loads ------------------------------------------------------------------------

TEST_F(CeCrossModel, StaticWheelLoadsAgreeWithinOnePercent) {
  const double weight = ce_total_mass(ce) * ce.gravity;
  EXPECT_NEAR(strut.total_mass, ce_total_mass(ce), 1e-9);
  // ce: the Newton rest state; strut: its initial state, which is static (checked: no acceleration).
  const std::vector<double> cs = ce_rest_state(ce);
  CeCornerBodies<double> corners[kCorners];
  double cds[kCeStateSize];
  ce_derivative(ce, ce_env, DriverInput<double>{0, 0, 0}, cs.data(), cds, corners);
  const std::vector<double> ss = strut_rest_state(strut, ground, 0.0);
  StrutEnvironment<double> senv(strut, &ground, 0.0, 0.0, DriverInput<double>{0, 0, 0});
  StrutDiagnostics<double> diag{};
  double sds[kStrutStateSize];
  strut_derivative(strut, senv, DriverInput<double>{0, 0, 0}, ss.data(), sds, &diag);
  for (int k = 0; k < 3; ++k) {
    EXPECT_NEAR(sds[strut::kVel + k], 0.0, 1e-6);
    EXPECT_NEAR(sds[strut::kOmega + k], 0.0, 1e-6);
  }
  double ce_sum = 0.0, strut_sum = 0.0;
  for (int i = 0; i < kCorners; ++i) {
    const double fc = corners[i].tire_normal_force, fs = diag.tire_normal_force[i];
    ce_sum += fc;
    strut_sum += fs;
    EXPECT_LT(relative_difference(fc, fs), 0.01) << corner_name(i) << ": ce " << fc << " N, strut " << fs << " N";
    EXPECT_NEAR(fs, strut.static_tire_load[i], 1e-6 * fs);
    RecordProperty(std::string("load_") + corner_name(i), std::to_string(fc) + " / " + std::to_string(fs));
    std::printf("static load %s: ce %.2f N, strut %.2f N (%.4f %%)\n", corner_name(i), fc, fs, 100.0 * (fs - fc) / fc);
  }
  EXPECT_NEAR(ce_sum, weight, 1e-6 * weight);
  EXPECT_NEAR(strut_sum, weight, 1e-6 * weight);
}

// ---- ride frequencies --------------------------------------------------------------------------

struct Mode {
  double frequency;                        // [Hz] |Im lambda| / 2 pi
  double damping_ratio;                    // [-] -Re lambda / |lambda|
  double heave, pitch, roll, surge, sway;  // shares of the body motion (sum 1)
};

// The oscillatory modes between 0.5 and 4 Hz (the sprung-mass band: wheel hop is near 10 Hz) of
// the linearization d(state_dot)/d(state) by central differences, with the share of body heave
// |v_z|, pitch |omega_y| a, roll |omega_x| b, surge |v_x| and sway |v_y| (velocities of the body
// COM) in each eigenvector (a = half wheelbase, b = half track turn the rates into velocities at
// the wheels). `body` reads (v_x, v_y, v_z of the body COM, omega_x, omega_y) from a (complex)
// state vector.
std::vector<Mode> sprung_modes(int n, const std::function<void(const double*, double*)>& f,
                               const std::vector<double>& x0, double half_wheelbase, double half_track,
                               const std::function<Eigen::Matrix<std::complex<double>, 5, 1>(const Eigen::VectorXcd&)>& body) {
  Eigen::MatrixXd jac(n, n);
  std::vector<double> xp(x0), xm(x0), fp(n), fm(n);
  for (int j = 0; j < n; ++j) {
    const double h = 1e-7 * std::max(1.0, std::fabs(x0[j]));
    xp = x0;
    xm = x0;
    xp[j] += h;
    xm[j] -= h;
    f(xp.data(), fp.data());
    f(xm.data(), fm.data());
    for (int i = 0; i < n; ++i) jac(i, j) = (fp[i] - fm[i]) / (2.0 * h);
  }
  const Eigen::EigenSolver<Eigen::MatrixXd> eig(jac, true);
  std::vector<Mode> modes;
  for (int k = 0; k < n; ++k) {
    const std::complex<double> l = eig.eigenvalues()[k];
    const double freq = l.imag() / (2.0 * kPi);
    if (!(freq > 0.5 && freq < 4.0)) continue;  // one of each conjugate pair
    const Eigen::Matrix<std::complex<double>, 5, 1> b = body(eig.eigenvectors().col(k));
    const double surge = std::abs(b[0]), sway = std::abs(b[1]), heave = std::abs(b[2]);
    const double roll = std::abs(b[3]) * half_track, pitch = std::abs(b[4]) * half_wheelbase;
    const double total = heave + pitch + roll + surge + sway;
    if (!(total > 0.0)) continue;
    modes.push_back({freq, -l.real() / std::abs(l), heave / total, pitch / total, roll / total, surge / total, sway / total});
  }
  return modes;
}

const Mode& dominant(const std::vector<Mode>& modes, double Mode::*share) {
  return *std::max_element(modes.begin(), modes.end(), [&](const Mode& a, const Mode& b) { return a.*share < b.*share; });
}

// Undamped copies: shocks, strut dampers and tire vertical damping off (natural frequencies).
CeParams<double> undamped(CeParams<double> c) {
  for (int a = 0; a < 2; ++a) {
    c.axle[a].shock_mid_compression = c.axle[a].shock_mid_rebound = 0.0;
    c.axle[a].shock_out_compression = c.axle[a].shock_out_rebound = 0.0;
  }
  c.tire.vertical_damping = 0.0;
  return c;
}

struct RideModes {
  std::vector<Mode> ce, strut;
};

// Both models linearized at rest (or rolling at `speed`) on flat ground of friction `mu_scale`.
RideModes ride_modes(const CeParams<double>& c, const StrutParams<double>& s, double mu_scale, double speed) {
  TerrainDesc<double> ground = flat_ground();
  ground.mu_scale = mu_scale;
  const CeEnvironment<double> env{&ground, 0.0, 0.0};
  const double half_wheelbase = 0.5 * (s.cg_to_front_axle + s.cg_to_rear_axle);
  const double half_track = 0.25 * (s.track_front + s.track_rear);
  // ce: chassis-axis velocity of the chassis origin; the body COM sits at com in the chassis frame
  // (level chassis at rest), its velocity is v + omega x com.
  const std::vector<double> rest = ce_rest_state(c, speed);
  const double front_x = 0.5 * (c.corner[0].design.wheel_centre.x + c.corner[1].design.wheel_centre.x);
  const Vec3<double> com{front_x - s.cg_to_front_axle, 0.0, s.cg_height - rest[ce::kPos + 2]};
  const DriverInput<double> still{0.0, 0.0, 0.0};
  RideModes r;
  r.ce = sprung_modes(
      kCeStateSize, [&](const double* x, double* dx) { ce_derivative(c, env, still, x, dx); }, rest, half_wheelbase, half_track,
      [&](const Eigen::VectorXcd& v) {
        const std::complex<double> wx = v[ce::kOmega], wy = v[ce::kOmega + 1], wz = v[ce::kOmega + 2];
        Eigen::Matrix<std::complex<double>, 5, 1> b;
        b << v[ce::kVel] + wy * com.z - wz * com.y, v[ce::kVel + 1] + wz * com.x - wx * com.z,
            v[ce::kVel + 2] + wx * com.y - wy * com.x, wx, wy;
        return b;
      });
  // strut: world velocity of the body COM, body-axis rates.
  const StrutEnvironment<double> senv(s, &ground, 0.0, 0.0, still);
  r.strut = sprung_modes(
      kStrutStateSize,
      [&](const double* x, double* dx) {
        strut_derivative(s, senv, still, x, dx, static_cast<StrutDiagnostics<double>*>(nullptr));
      },
      strut_rest_state(s, ground, speed), half_wheelbase, half_track,
      [&](const Eigen::VectorXcd& v) {
        Eigen::Matrix<std::complex<double>, 5, 1> b;
        b << v[strut::kVel], v[strut::kVel + 1], v[strut::kVel + 2], v[strut::kOmega], v[strut::kOmega + 1];
        return b;
      });
  return r;
}

void print_modes(const char* what, const RideModes& r) {
  for (const auto* list : {&r.ce, &r.strut}) {
    for (const Mode& m : *list) {
      std::printf("%s %s mode %.4f Hz zeta %.3f: heave %.3f pitch %.3f roll %.3f surge %.3f sway %.3f\n", what,
                  list == &r.ce ? "ce   " : "strut", m.frequency, m.damping_ratio, m.heave, m.pitch, m.roll, m.surge, m.sway);
    }
  }
}

struct RideFrequencies {
  double heave, pitch, roll;  // [Hz] of the modes with the largest heave, pitch, roll shares
};
RideFrequencies ride_frequencies(const std::vector<Mode>& modes) {
  return {dominant(modes, &Mode::heave).frequency, dominant(modes, &Mode::pitch).frequency,
          dominant(modes, &Mode::roll).frequency};
}

void report(const char* what, const RideFrequencies& c, const RideFrequencies& s) {
  std::printf(
      "%s: heave ce %.4f strut %.4f Hz (%+.2f %%), pitch ce %.4f strut %.4f Hz (%+.2f %%), roll ce %.4f strut %.4f Hz "
      "(%+.2f %%)\n",
      what, c.heave, s.heave, 100.0 * (s.heave - c.heave) / c.heave, c.pitch, s.pitch,
      100.0 * (s.pitch - c.pitch) / c.pitch, c.roll, s.roll, 100.0 * (s.roll - c.roll) / c.roll);
}

// The HMMWV's front wheel rate is less than half the rear one on nearly equal axle loads, so
// bounce and pitch are strongly coupled (the mode called heave here, the one with the largest
// body-heave share, is about 60 % heave and 40 % pitch, mostly the front end bouncing; the
// other, "pitch", mostly the rear). Both coupled modes are compared, and roll.
//
// The ride is compared on a frictionless floor: standing on a floor with friction, the ce
// wheels, whose centres move outward by about 0.2 m per m of bump (track change of the
// linkage), scrub against the tires' lateral stiffness, which stiffens heave by about 15 %
// (TireScrubStiffensOnlyCeHeaveAtRest); strut's wheels move along the body's z axis and cannot
// scrub. Without tangential tire forces both models see only the suspension and the tire's
// vertical spring.
TEST_F(CeCrossModel, HeaveAndPitchFrequenciesAgreeWithinFivePercent) {
  const CeParams<double> c = undamped(ce);
  const StrutParams<double> s = strut_equivalent_params(c);
  ASSERT_EQ(s.damping_bump_front, 0.0);
  ASSERT_EQ(s.damping_rebound_rear, 0.0);
  const RideModes r = ride_modes(c, s, 0.0, 0.0);
  print_modes("frictionless, at rest:", r);
  ASSERT_GE(r.ce.size(), 3u);
  ASSERT_GE(r.strut.size(), 3u);
  EXPECT_GT(dominant(r.ce, &Mode::heave).heave, 0.5);
  EXPECT_GT(dominant(r.strut, &Mode::heave).heave, 0.5);
  const RideFrequencies fc = ride_frequencies(r.ce), fs = ride_frequencies(r.strut);
  report("frictionless, at rest", fc, fs);
  EXPECT_LT(relative_difference(fc.heave, fs.heave), 0.05) << "heave: ce " << fc.heave << " Hz, strut " << fs.heave << " Hz";
  EXPECT_LT(relative_difference(fc.pitch, fs.pitch), 0.05) << "pitch: ce " << fc.pitch << " Hz, strut " << fs.pitch << " Hz";
  EXPECT_LT(relative_difference(fc.roll, fs.roll), 0.05) << "roll: ce " << fc.roll << " Hz, strut " << fs.roll << " Hz";
  RecordProperty("heave_hz", std::to_string(fc.heave) + " / " + std::to_string(fs.heave));
  RecordProperty("pitch_hz", std::to_string(fc.pitch) + " / " + std::to_string(fs.pitch));
  RecordProperty("roll_hz", std::to_string(fc.roll) + " / " + std::to_string(fs.roll));
}

// The ce's wheel rate at design as the strut sees it: d(F_spring MR)/dz at the wheel centre,
// MR = -dL/dz, i.e. k MR^2 + F_spring dMR/dz (the preloaded spring's geometric term: the motion
// ratio falls with bump), by central differences on the kinematics.
double ce_effective_wheel_rate(const CeParams<double>& p, int axle) {
  const CeSuspension<double> susp{{p.corner[0], p.corner[1], p.corner[2], p.corner[3]}, p.steering};
  const int corner = 2 * axle;
  auto wheel_force = [&](double travel) {
    const CornerKinematics k = corner_kinematics(susp, corner, lca_angle_for_travel(susp, corner, travel, 0.0), 0.0);
    const double mr = -k.per_lca_rate.spring_rate / k.per_lca_rate.wheel_centre_vel.z;
    return ce_spring_force(p.axle[axle], k.pose.spring_length) * mr;
  };
  const double h = 1e-4;
  return (wheel_force(h) - wheel_force(-h)) / (2.0 * h);
}

// strut's coil follows the linkage's motion ratio (progressive_spring): its wheel force
// F = k_coil (l_free - l(z)) MR(z) carries the preloaded spring's geometric term F dMR/dz (MR
// falls in bump: -7 % front, -3 % rear on the rate), so its wheel rate at design is ce's effective
// one and the ride frequencies agree within 1 %. With the linear coil (progressive_spring = 0,
// rate k MR^2 at design) strut's heave is stiffer by that term.
TEST_F(CeCrossModel, ProgressiveCoilCarriesTheGeometricStiffnessOfThePreloadedSprings) {
  const CeParams<double> c = undamped(ce);
  const StrutParams<double> s = strut_equivalent_params(c);
  for (int axle = 0; axle < 2; ++axle) {
    const int i = 2 * axle;
    const double h = 1e-4;
    const double rate = (strut_spring_force(s, i, corner_travel(s, i, h)) - strut_spring_force(s, i, corner_travel(s, i, -h))) /
                        (2.0 * h);
    const double expected = ce_effective_wheel_rate(c, axle);
    std::printf("axle %d: strut wheel rate %.1f N/m, ce effective %.1f N/m, k MR^2 %.1f N/m\n", axle, rate, expected,
                s.wheel_rate[i]);
    EXPECT_NEAR(rate, expected, 0.01 * expected) << "axle " << axle;
    EXPECT_NEAR(strut_spring_force(s, i, corner_travel(s, i, 0.0)), s.strut_preload[i], 1e-9 * s.strut_preload[i]);
  }
  const RideFrequencies fc = ride_frequencies(ride_modes(c, s, 0.0, 0.0).ce);
  const RideFrequencies fs = ride_frequencies(ride_modes(c, s, 0.0, 0.0).strut);
  EXPECT_LT(relative_difference(fc.heave, fs.heave), 0.01);
  EXPECT_LT(relative_difference(fc.pitch, fs.pitch), 0.01);
  StrutParams<double> linear = s;
  linear.progressive_spring = 0.0;
  finalize_vehicle_params(linear);
  const RideFrequencies fl = ride_frequencies(ride_modes(c, linear, 0.0, 0.0).strut);
  report("frictionless, strut with the linear coil", fc, fl);
  EXPECT_GT(fl.heave / fc.heave, 1.02);
}

// Standing on a floor with friction the wheels scrub (track change of the linkage: the wheel
// centres move outward by about 0.2 m per m of bump) against the tires' lateral stiffness, which
// stiffens the heave of both models; rolling, the scrub meets the tires' slip instead (mostly
// damping) and the two agree again. strut's tires see the contact patch move (wheel centre plus
// the camber change times the loaded radius), ce's the wheel centre (its slip velocity), so
// strut stiffens more at rest.
TEST_F(CeCrossModel, TireScrubStiffensHeaveAtRest) {
  const CeParams<double> c = undamped(ce);
  const StrutParams<double> s = strut_equivalent_params(c);
  const RideModes ice = ride_modes(c, s, 0.0, 0.0), rest = ride_modes(c, s, 1.0, 0.0), rolling = ride_modes(c, s, 1.0, 15.0);
  const RideFrequencies ice_c = ride_frequencies(ice.ce), ice_s = ride_frequencies(ice.strut);
  const RideFrequencies rest_c = ride_frequencies(rest.ce), rest_s = ride_frequencies(rest.strut);
  const RideFrequencies roll_c = ride_frequencies(rolling.ce), roll_s = ride_frequencies(rolling.strut);
  report("friction, at rest", rest_c, rest_s);
  report("friction, rolling at 15 m/s", roll_c, roll_s);
  EXPECT_GT(rest_c.heave / ice_c.heave, 1.10);  // scrub stiffens heave
  EXPECT_GT(rest_s.heave / ice_s.heave, 1.10);
  EXPECT_LT(relative_difference(roll_c.heave, roll_s.heave), 0.02);
  EXPECT_LT(relative_difference(roll_c.pitch, roll_s.pitch), 0.02);
  EXPECT_LT(relative_difference(roll_c.roll, roll_s.roll), 0.03);
  RecordProperty("heave_hz_at_rest_with_friction", std::to_string(rest_c.heave) + " / " + std::to_string(rest_s.heave));
}

// ---- steady cornering ---------------------------------------------------------------------------

constexpr double kCornerSpeed = 15.0;                   // [m/s]
constexpr double kRoadWheelAngle = 3.0 * kPi / 180.0;   // mean front road-wheel angle [rad]
constexpr double kDuration = 10.0, kAverageFrom = 8.0;  // [s]

// The same P controller on throttle for both models (no brake: the turn's drag is small).
double speed_throttle(double speed) { return std::clamp(0.5 * (kCornerSpeed - speed), 0.0, 1.0); }
// The steering ramps to its final value over 0.5 s (same for both).
double steer_ramp(double t) { return std::fmin(1.0, t / 0.5); }

// The ce steering angle (Pitman arm rotation) whose mean front road-wheel angle at design
// height is `angle` (bisection on the kinematics).
double ce_pitman_for_road_wheel_angle(const CeParams<double>& p, double angle) {
  const CeSuspension<double> susp{{p.corner[0], p.corner[1], p.corner[2], p.corner[3]}, p.steering};
  auto mean_angle = [&](double pitman) {
    return 0.5 * (corner_kinematics(susp, 0, 0.0, pitman).pose.steer_angle +
                  corner_kinematics(susp, 1, 0.0, pitman).pose.steer_angle) -
           0.5 * (corner_kinematics(susp, 0, 0.0, 0.0).pose.steer_angle + corner_kinematics(susp, 1, 0.0, 0.0).pose.steer_angle);
  };
  double lo = 0.0, hi = p.steering.max_angle;
  EXPECT_GT(mean_angle(hi), angle);
  for (int it = 0; it < 60; ++it) {
    const double mid = 0.5 * (lo + hi);
    (mean_angle(mid) < angle ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

struct TurnResult {
  double lateral_accel;  // [m/s^2] speed * yaw rate, averaged over the last 2 s
  double speed;          // [m/s]
  double yaw_rate;       // [rad/s]
  double roll;           // [rad] chassis roll angle (+ = right side down)
  double road_wheel;     // [rad] mean front road-wheel angle (ce: from the poses, roll steer included)
  double transfer[2];    // [N] lateral load transfer (F_right - F_left) / 2, front and rear axle
};

TEST_F(CeCrossModel, SteadyCorneringLateralAccelerationAgreesWithinFivePercent) {
  // ce: 2 ms steps (its default, test_ce_dynamics); strut: its own default step.
  const double pitman = ce_pitman_for_road_wheel_angle(ce, kRoadWheelAngle);
  const double ce_input = pitman / ce.steering.max_angle;
  const double strut_input = kRoadWheelAngle / strut.max_steer;
  TurnResult ce_turn{}, strut_turn{};
  {
    const double dt = 2e-3;
    std::vector<double> s = ce_rest_state(ce, kCornerSpeed), next(kCeStateSize);
    const int steps = static_cast<int>(std::lround(kDuration / dt));
    int samples = 0;
    for (int k = 0; k < steps; ++k) {
      const double t = k * dt;
      const Mat3<double> rot = rotation_matrix(normalized(load_quat(s.data(), ce::kQuat)));
      const Vec3<double> vel = rot * load3(s.data(), ce::kVel);
      const double speed = std::hypot(vel.x, vel.y);
      const DriverInput<double> input{ce_input * steer_ramp(t), speed_throttle(speed), 0.0};
      if (t >= kAverageFrom) {
        const double yaw_rate = (rot * load3(s.data(), ce::kOmega)).z;
        CeCornerBodies<double> corners[kCorners];
        double ds[kCeStateSize];
        ce_derivative(ce, ce_env, input, s.data(), ds, corners);
        ce_turn.lateral_accel += speed * yaw_rate;
        ce_turn.speed += speed;
        ce_turn.yaw_rate += yaw_rate;
        ce_turn.roll += std::asin(rot.m[2][1]);
        ce_turn.road_wheel += 0.5 * (corners[0].pose.steer_angle + corners[1].pose.steer_angle);
        for (int a = 0; a < 2; ++a)
          ce_turn.transfer[a] += 0.5 * (corners[2 * a + 1].tire_normal_force - corners[2 * a].tire_normal_force);
        ++samples;
      }
      ce_step(ce, ce_env, dt, 1, input, s.data(), next.data());
      s.swap(next);
    }
    for (double* x : {&ce_turn.lateral_accel, &ce_turn.speed, &ce_turn.yaw_rate, &ce_turn.roll, &ce_turn.road_wheel,
                      &ce_turn.transfer[0], &ce_turn.transfer[1]})
      *x /= samples;
  }
  {
    IntegratorSettings<double> integ{strut_default_step(strut), 1, true};
    std::vector<double> s = strut_rest_state(strut, ground, kCornerSpeed), next(kStrutStateSize);
    const int steps = static_cast<int>(std::lround(kDuration / integ.step));
    int samples = 0;
    for (int k = 0; k < steps; ++k) {
      const double t = k * integ.step;
      const Vec3<double> vel = load3(s.data(), strut::kVel);
      const double speed = std::hypot(vel.x, vel.y);
      const DriverInput<double> input{strut_input * steer_ramp(t), speed_throttle(speed), 0.0};
      StrutDiagnostics<double> diag{};
      strut_step(strut, ground, 0.0, 0.0, integ, input, s.data(), next.data(), &diag);  // diag: at the step's start
      if (t >= kAverageFrom) {
        const Mat3<double> rot = rotation_matrix(normalized(load_quat(s.data(), strut::kQuat)));
        const double yaw_rate = (rot * load3(s.data(), strut::kOmega)).z;
        strut_turn.lateral_accel += speed * yaw_rate;
        strut_turn.speed += speed;
        strut_turn.yaw_rate += yaw_rate;
        strut_turn.roll += std::asin(rot.m[2][1]);
        strut_turn.road_wheel += road_wheel_angle(strut, input.steer, 0);
        for (int a = 0; a < 2; ++a)
          strut_turn.transfer[a] += 0.5 * (diag.tire_normal_force[2 * a + 1] - diag.tire_normal_force[2 * a]);
        ++samples;
      }
      s.swap(next);
    }
    for (double* x : {&strut_turn.lateral_accel, &strut_turn.speed, &strut_turn.yaw_rate, &strut_turn.roll,
                      &strut_turn.road_wheel, &strut_turn.transfer[0], &strut_turn.transfer[1]})
      *x /= samples;
  }
  for (const auto& [name, r] : {std::pair<const char*, TurnResult>{"ce   ", ce_turn}, {"strut", strut_turn}}) {
    std::printf(
        "%s turn: a_y %.4f m/s^2, speed %.4f m/s, yaw rate %.5f rad/s, roll %.3f deg, road wheel %.4f deg, "
        "load transfer front %.1f N rear %.1f N\n",
        name, r.lateral_accel, r.speed, r.yaw_rate, r.roll * 180.0 / kPi, r.road_wheel * 180.0 / kPi, r.transfer[0],
        r.transfer[1]);
  }
  std::printf("lateral acceleration: ce %.4f, strut %.4f m/s^2 (%.2f %%)\n", ce_turn.lateral_accel,
              strut_turn.lateral_accel, 100.0 * (strut_turn.lateral_accel - ce_turn.lateral_accel) / ce_turn.lateral_accel);
  EXPECT_GT(ce_turn.lateral_accel, 2.0);  // a real turn
  EXPECT_GT(strut_turn.lateral_accel, 2.0);
  EXPECT_NEAR(ce_turn.speed, kCornerSpeed, 0.5);
  EXPECT_NEAR(strut_turn.speed, kCornerSpeed, 0.5);
  EXPECT_LT(relative_difference(ce_turn.lateral_accel, strut_turn.lateral_accel), 0.05)
      << "ce " << ce_turn.lateral_accel << " m/s^2, strut " << strut_turn.lateral_accel << " m/s^2";
  // Roll and load transfer per axle (the full grid of speeds and angles: test_strut_vs_ce_handling).
  EXPECT_LT(relative_difference(ce_turn.roll, strut_turn.roll), 0.10);
  EXPECT_LT(relative_difference(ce_turn.transfer[0], strut_turn.transfer[0]), 0.05);
  EXPECT_LT(relative_difference(ce_turn.transfer[1], strut_turn.transfer[1]), 0.05);
  RecordProperty("lateral_accel", std::to_string(ce_turn.lateral_accel) + " / " + std::to_string(strut_turn.lateral_accel));
}

}  // namespace
}  // namespace fleetdyn
