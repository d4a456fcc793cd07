// Rest states of the ce model: static equilibrium on flat ground by Newton iteration.
#include <Eigen/Dense>
#include <cmath>
#include <string>
#include <vector>

#include "fleetdyn/ce.h"
#include "fleetdyn/error.h"
#include "fleetdyn/physics/batch_origin.h"

namespace fleetdyn {
namespace {

// Unknowns: chassis height, roll, pitch and the four LCA angles; residuals: the vertical, roll
// and pitch accelerations of the chassis and the four LCA accelerations.
constexpr int kUnknowns = 7;

std::vector<double> state_from(const Eigen::Matrix<double, kUnknowns, 1>& x) {
  using namespace ce;
  std::vector<double> s(kStateSize, 0.0);
  s[kPos + 2] = x[0];
  const Quat<double> q = quat_from_euler_zyx(x[1], x[2], 0.0);
  store_quat(s.data(), kQuat, q);
  for (int i = 0; i < kCorners; ++i) s[kLca + i] = x[3 + i];
  return s;
}

Eigen::Matrix<double, kUnknowns, 1> residual(const CeParams<double>& p, const CeEnvironment<double>& env,
                                             const Eigen::Matrix<double, kUnknowns, 1>& x) {
  using namespace ce;
  const std::vector<double> s = state_from(x);
  double ds[kStateSize];
  ce_derivative(p, env, DriverInput<double>{0.0, 0.0, 0.0}, s.data(), ds);
  Eigen::Matrix<double, kUnknowns, 1> r;
  r << ds[kVel + 2], ds[kOmega + 0], ds[kOmega + 1], ds[kLcaRate + 0], ds[kLcaRate + 1], ds[kLcaRate + 2],
      ds[kLcaRate + 3];
  return r;
}

// Newton with a central-difference Jacobian on a small square system; false if it stalls.
template <int N, class Residual>
bool newton_solve(Eigen::Matrix<double, N, 1>& x, Residual f, double tolerance, double& norm_r) {
  for (int it = 0; it < 40; ++it) {
    const Eigen::Matrix<double, N, 1> r = f(x);
    norm_r = r.norm();
    if (norm_r < tolerance) return true;
    Eigen::Matrix<double, N, N> jac;
    for (int k = 0; k < N; ++k) {
      const double h = 1e-7;
      Eigen::Matrix<double, N, 1> xp = x, xm = x;
      xp[k] += h;
      xm[k] -= h;
      jac.col(k) = (f(xp) - f(xm)) / (2.0 * h);
    }
    x -= jac.fullPivLu().solve(r);
  }
  return false;
}

double initial_height(const CeParams<double>& p) {
  const double load = ce_total_mass(p) * p.vehicle.gravity / kCorners;
  const double wheel_z = p.vehicle.tire.unloaded_radius - load / p.vehicle.tire.vertical_stiffness;
  return wheel_z - p.corner[0].design.wheel_centre.z;
}

}  // namespace

void ce_balance_springs_at_design(CeParams<double>& p) {
  // Unknowns: chassis height, pitch, front and rear free lengths; residuals: vertical and pitch
  // accelerations and the front and rear LCA accelerations with the suspension at design.
  const TerrainDesc<double> flat = default_terrain_desc<double>();
  const CeEnvironment<double> env{&flat, 0.0, 0.0};
  Eigen::Vector4d x(initial_height(p), 0.0, p.axle[0].spring_free_length, p.axle[1].spring_free_length);
  auto f = [&](const Eigen::Vector4d& v) {
    CeParams<double> q = p;
    q.axle[0].spring_free_length = v[2];
    q.axle[1].spring_free_length = v[3];
    Eigen::Matrix<double, kUnknowns, 1> full = Eigen::Matrix<double, kUnknowns, 1>::Zero();
    full[0] = v[0];
    full[2] = v[1];
    const Eigen::Matrix<double, kUnknowns, 1> r = residual(q, env, full);
    return Eigen::Vector4d(r[0], r[2], r[3], r[5]);
  };
  double norm_r = 0.0;
  if (!newton_solve<4>(x, f, 1e-9, norm_r)) {
    throw Error("ce parameters: no spring free lengths hold the vehicle at its design position (residual " +
                std::to_string(norm_r) + ")");
  }
  p.axle[0].spring_free_length = x[2];
  p.axle[1].spring_free_length = x[3];
}

std::vector<double> ce_rest_state(const CeParams<double>& p, double speed) {
  using namespace ce;
  const TerrainDesc<double> flat = default_terrain_desc<double>();
  const CeEnvironment<double> env{&flat, 0.0, 0.0};
  // Start with the wheels on the ground at the static tire deflection, suspension at design.
  Eigen::Matrix<double, kUnknowns, 1> x = Eigen::Matrix<double, kUnknowns, 1>::Zero();
  x[0] = initial_height(p);
  double norm_r = 0.0;
  if (!newton_solve<kUnknowns>(x, [&](const Eigen::Matrix<double, kUnknowns, 1>& v) { return residual(p, env, v); },
                               1e-9, norm_r)) {
    throw Error("ce_rest_state: static equilibrium not found (residual " + std::to_string(norm_r) + ")");
  }
  std::vector<double> s = state_from(x);
  s[kVel + 0] = speed;  // chassis axes: level chassis to first order
  const double load = ce_total_mass(p) * p.vehicle.gravity / kCorners;
  for (int i = 0; i < kCorners; ++i) s[kWheelSpin + i] = speed / tire_rolling_radius(p.vehicle.tire, load);
  return s;
}

std::vector<double> ce_place_on_terrain(const CeParams<double>& p, const std::vector<double>& rest,
                                        const TerrainDesc<double>& terrain, double x, double y, double yaw,
                                        double* origin_x, double* origin_y) {
  using namespace ce;
  if (rest.size() != static_cast<size_t>(kStateSize)) {
    throw Error("ce_place_on_terrain: rest state has " + std::to_string(rest.size()) + " values, expected " +
                std::to_string(kStateSize));
  }
  *origin_x = origin_quantize(x);
  *origin_y = origin_quantize(y);
  const GroundPlacement<double> ground = ground_placement(terrain, x - *origin_x, y - *origin_y, *origin_x, *origin_y, yaw);
  // The rest state stands on flat ground at height 0: the chassis origin relative to the ground
  // point below the chassis COM, carried rigidly onto the placement.
  const Quat<double> rest_attitude = normalized(load_quat(rest.data(), kQuat));
  const Vec3<double> rest_pos = load3(rest.data(), kPos);
  const Vec3<double> rest_com = rest_pos + rotation_matrix(rest_attitude) * p.chassis_com;
  const Vec3<double> origin_from_ground = rest_pos - Vec3<double>{rest_com.x, rest_com.y, 0.0};
  std::vector<double> s = rest;
  store3(s.data(), kPos, ground.point + rotation_matrix(ground.attitude) * origin_from_ground);
  store_quat(s.data(), kQuat, normalized(ground.attitude * rest_attitude));
  return s;
}

}  // namespace fleetdyn
