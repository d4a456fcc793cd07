// Ride modes of the unmodified HMMWV preset: with unequal axles heave and pitch couple. The
// linear bounce/pitch model (body heave z and pitch theta, front and rear unsprung pairs zf, zr)
// has the potential
//   U = k_f (z - a theta - zf)^2 + k_r (z + b theta - zr)^2 + k_t zf^2 + k_t zr^2
// (per axle two springs of rate k: 2 * k/2), pitch positive nose down (ISO, about +y), and the
// mass matrix diag(m_s, I_yy, 2 m_u, 2 m_u). Its two body modes, released in their exact shape
// (dampers off), must oscillate at the analytic frequencies.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <vector>

#include "fleetdyn/physics/core/math.h"
#include "tests/strut_test_util.h"

namespace fleetdyn {
namespace {

using test::cpu_options;

struct RideModel {
  Eigen::Vector4d frequencies_hz;  // ascending
  Eigen::Matrix4d shapes;          // columns: z, theta, zf, zr
};

RideModel ride_model(const StrutParams<double>& p) {
  const double a = p.cg_to_front_axle, b = p.cg_to_rear_axle;
  const double kf = p.wheel_rate_front, kr = p.wheel_rate_rear, kt = p.tire.vertical_stiffness;
  Eigen::Matrix4d k = Eigen::Matrix4d::Zero();
  // Hessian of U: each quadratic term c (g . x)^2 contributes 2 c g g^T.
  const Eigen::Vector4d front(1.0, -a, -1.0, 0.0), rear(1.0, b, 0.0, -1.0);
  k += 2.0 * kf * front * front.transpose() + 2.0 * kr * rear * rear.transpose();
  k(2, 2) += 2.0 * kt;
  k(3, 3) += 2.0 * kt;
  const Eigen::Vector4d mass(p.body_mass, p.body_inertia_yy, 2.0 * p.unsprung_mass_front, 2.0 * p.unsprung_mass_rear);
  Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::Matrix4d> solver(k, mass.asDiagonal().toDenseMatrix());
  RideModel m;
  m.frequencies_hz = solver.eigenvalues().cwiseSqrt() / (2.0 * kPi);
  m.shapes = solver.eigenvectors();
  return m;
}

// Frequency [Hz] of the body motion after releasing the vehicle in `shape` (z, theta, zf, zr).
double released_frequency(const StrutParams<double>& p, const Eigen::Vector4d& shape) {
  Batch batch({p}, 1, TerrainSpec{}, cpu_options());
  std::vector<double> s = batch.state();
  const double scale = 0.01 / shape.cwiseAbs().maxCoeff();  // 1 cm (or 10 mrad) at most
  const Eigen::Vector4d x = scale * shape;
  s[strut::kPos + 2] += x(0);
  const Quat<double> q = quat_from_axis_angle(Vec3<double>{0.0, 1.0, 0.0}, x(1));
  s[strut::kQuat] = q.w;
  s[strut::kQuat + 1] = q.x;
  s[strut::kQuat + 2] = q.y;
  s[strut::kQuat + 3] = q.z;
  // Each wheel exactly on its (tilted) strut line, at the stroke that puts its centre at the
  // mode's vertical displacement: rel = R r_i + c u with (R r_i).z + c u.z + z_body = r_i.z + z_wheel.
  const Mat3<double> rot = rotation_matrix(q);
  const Vec3<double> u = rot.col(2);
  for (int i = 0; i < kCorners; ++i) {
    const Vec3<double> mount = rot * p.wheel_attach[i];
    const double z_wheel = i < 2 ? x(2) : x(3);
    const double stroke = (p.wheel_attach[i].z + z_wheel - x(0) - mount.z) / u.z;
    const Vec3<double> rel = mount + stroke * u;
    s[strut::kUnsprungPos + 3 * i] = rel.x;
    s[strut::kUnsprungPos + 3 * i + 1] = rel.y;
    s[strut::kUnsprungPos + 3 * i + 2] = rel.z;
  }
  batch.set_vehicle_state(0, s);
  // Upward zero crossings of the body's projection on the mode: z / shape_z (or theta).
  const int probe = std::fabs(shape(0)) * 1.0 > std::fabs(shape(1)) * 1.5 ? 0 : 1;  // compare at ~1.5 m lever
  const double z0 = test::vehicle_state(batch, 0)[strut::kPos + 2] - x(0);
  std::vector<double> crossings;
  double prev = 1.0;
  for (int k = 1; k <= 6000; ++k) {
    batch.step(1);
    const std::vector<double> now = test::vehicle_state(batch, 0);
    const double value = probe == 0 ? (now[strut::kPos + 2] - z0) / x(0)
                                    : euler_zyx(Quat<double>{now[strut::kQuat], now[strut::kQuat + 1],
                                                             now[strut::kQuat + 2], now[strut::kQuat + 3]})
                                              .y /
                                          x(1);
    if (prev < 0.0 && value >= 0.0) crossings.push_back((k - 1 + prev / (prev - value)) * 1e-3);
    prev = value;
  }
  EXPECT_GE(crossings.size(), 4u);
  if (crossings.size() < 2) return 0.0;
  return (crossings.size() - 1) / (crossings.back() - crossings.front());
}

// The plain strut (straight paths, linear coil: what the linear model describes); the linkage's
// ride is compared with ce in CeCrossModel.
TEST(StrutRide, HmmwvBounceAndPitchFrequencies) {
  StrutParams<double> p = test::plain_strut(hmmwv_params());
  p.damping_bump_front = p.damping_rebound_front = p.damping_bump_rear = p.damping_rebound_rear = 0.0;
  p.tire.vertical_damping = 0.0;
  finalize_vehicle_params(p);
  const RideModel model = ride_model(p);
  for (int mode = 0; mode < 2; ++mode) {  // the two body modes (the wheel-hop modes are ~10 Hz)
    const double analytic = model.frequencies_hz(mode);
    const double measured = released_frequency(p, model.shapes.col(mode));
    RecordProperty("body_mode_" + std::to_string(mode) + "_hz", std::to_string(measured));
    RecordProperty("body_mode_" + std::to_string(mode) + "_analytic_hz", std::to_string(analytic));
    EXPECT_NEAR(measured, analytic, 0.03 * analytic) << "mode " << mode;
  }
  EXPECT_GT(model.frequencies_hz(2), 5.0);  // wheel hop well separated from the body modes
}

}  // namespace
}  // namespace fleetdyn
