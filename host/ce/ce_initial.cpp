// Rest states of the ce model: static equilibrium on flat ground by Newton iteration (the
// single-source solver of physics/ce/ce_rest.h, which the vector environment runs on the device),
// and the spring free lengths that make the design position the rest position.
#include <Eigen/Dense>
#include <cmath>
#include <string>
#include <vector>

#include "fleetdyn/ce.h"
#include "fleetdyn/error.h"
#include "fleetdyn/physics/ce/ce_rest.h"

namespace fleetdyn {
namespace {

constexpr int kUnknowns = ce_rest::kUnknowns;

Eigen::Matrix<double, kUnknowns, 1> residual(const CeParams<double>& p, const CeEnvironment<double>& env,
                                             const Eigen::Matrix<double, kUnknowns, 1>& x) {
  double xs[kUnknowns], rs[kUnknowns];
  for (int k = 0; k < kUnknowns; ++k) xs[k] = x[k];
  ce_rest_residual(p, env, xs, rs);
  Eigen::Matrix<double, kUnknowns, 1> r;
  for (int k = 0; k < kUnknowns; ++k) r[k] = rs[k];
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

}  // namespace

void ce_balance_springs_at_design(CeParams<double>& p) {
  // Unknowns: chassis height, pitch, front and rear free lengths; residuals: vertical and pitch
  // accelerations and the front and rear LCA accelerations with the suspension at design.
  const TerrainDesc<double> flat = default_terrain_desc<double>();
  const CeEnvironment<double> env{&flat, 0.0, 0.0};
  Eigen::Vector4d x(ce_rest_initial_height(p), 0.0, p.axle[0].spring_free_length, p.axle[1].spring_free_length);
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
  std::vector<double> s(kCeStateSize);
  const CeRestSolution<double> rest = ce_rest_solve(p, speed, s.data());
  if (!rest.converged) {
    throw Error("ce_rest_state: static equilibrium not found (residual " + std::to_string(rest.residual) + ")");
  }
  return s;
}

std::vector<double> ce_place_on_terrain(const CeParams<double>& p, const std::vector<double>& rest,
                                        const TerrainDesc<double>& terrain, double x, double y, double yaw,
                                        double* origin_x, double* origin_y) {
  if (rest.size() != static_cast<size_t>(kCeStateSize)) {
    throw Error("ce_place_on_terrain: rest state has " + std::to_string(rest.size()) + " values, expected " +
                std::to_string(kCeStateSize));
  }
  std::vector<double> s(kCeStateSize);
  ce_place_on_terrain(p, rest.data(), terrain, x, y, yaw, s.data(), origin_x, origin_y);
  return s;
}

}  // namespace fleetdyn
