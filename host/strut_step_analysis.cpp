// The strut model's stable step, from the eigenvalues of its linearization (computed, not
// guessed: the fastest mode is the overdamped lateral bushing mode of all four wheels together
// with body yaw, about twice what a one-wheel estimate gives).
#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <complex>
#include <vector>

#include "fleetdyn/physics/strut_initial.h"
#include "fleetdyn/vehicle.h"

namespace fleetdyn {
namespace {

// Eigenvalues of d(state_dot)/d(state) at a state, by central differences of the fp64 model.
std::vector<std::complex<double>> linearized_eigenvalues(const VehicleParams<double>& p, const TerrainDesc<double>& terrain,
                                                         const double* state, DriverInput<double> input) {
  constexpr int n = kStrutStateSize;
  const StrutEnvironment<double> env(p, &terrain, 0.0, 0.0, input);
  Eigen::MatrixXd jacobian(n, n);
  double plus[n], minus[n], f_plus[n], f_minus[n];
  for (int j = 0; j < n; ++j) {
    std::copy(state, state + n, plus);
    std::copy(state, state + n, minus);
    const double h = 1e-7 * std::max(1.0, std::fabs(state[j]));
    plus[j] += h;
    minus[j] -= h;
    strut_derivative(p, env, input, plus, f_plus, static_cast<StrutDiagnostics<double>*>(nullptr));
    strut_derivative(p, env, input, minus, f_minus, static_cast<StrutDiagnostics<double>*>(nullptr));
    for (int i = 0; i < n; ++i) jacobian(i, j) = (f_plus[i] - f_minus[i]) / (2.0 * h);
  }
  const Eigen::VectorXcd values = Eigen::EigenSolver<Eigen::MatrixXd>(jacobian, false).eigenvalues();
  return std::vector<std::complex<double>>(values.data(), values.data() + n);
}

// Classic RK4 amplification factor R(z) = 1 + z + z^2/2 + z^3/6 + z^4/24.
double rk4_amplification(std::complex<double> z) {
  return std::abs(1.0 + z * (1.0 + z * (0.5 + z * (1.0 / 6.0 + z / 24.0))));
}

bool rk4_stable(const std::vector<std::complex<double>>& eigenvalues, double step) {
  for (const auto& l : eigenvalues) {
    // Tolerate the (numerically) neutral modes, e.g. rigid-body translation and heading.
    if (std::abs(l) * step < 1e-3) continue;
    if (rk4_amplification(l * step) > 1.0 + 1e-9) return false;
  }
  return true;
}

}  // namespace

StepAnalysis strut_step_analysis(const VehicleParams<double>& p) {
  TerrainDesc<double> flat = default_terrain_desc<double>();
  StepAnalysis a{0.0, 1.0, 1.0};
  // At rest (the standstill tire is stiffest) and rolling; brakes off and on.
  for (double speed : {0.0, 15.0}) {
    for (double brake : {0.0, 1.0}) {
      double state[kStrutStateSize], ox, oy;
      strut_initial_state(p, flat, 0.0, 0.0, 0.0, speed, state, &ox, &oy);
      const auto eigenvalues = linearized_eigenvalues(p, flat, state, {0.0, 0.0, brake});
      for (const auto& l : eigenvalues) a.stiffest_rate = std::max(a.stiffest_rate, std::abs(l));
      // Largest stable step: scan down from the real-axis bound 2.785/|lambda|max, then bisect.
      double stable = 0.0, unstable = 4.0 / a.stiffest_rate;
      for (double step = unstable; step > 1e-7; step *= 0.9) {
        if (rk4_stable(eigenvalues, step)) {
          stable = step;
          break;
        }
        unstable = step;
      }
      for (int k = 0; k < 50; ++k) {
        const double mid = 0.5 * (stable + unstable);
        (rk4_stable(eigenvalues, mid) ? stable : unstable) = mid;
      }
      a.rk4_stable_step = std::min(a.rk4_stable_step, stable);
    }
  }
  // Default: at most 75 % of the stability limit. The fastest mode is the bushing mode, which
  // does not depend on load; the margin covers what does move (tire and stop stiffness),
  // rounded down to 1, 2 or 5 x 10^k s.
  const double limit = 0.75 * a.rk4_stable_step;
  const double decade = std::pow(10.0, std::floor(std::log10(limit)));
  a.default_step = decade;
  for (double m : {5.0, 2.0, 1.0}) {
    if (m * decade <= limit) {
      a.default_step = m * decade;
      break;
    }
  }
  return a;
}

double strut_default_step(const VehicleParams<double>& p) { return strut_step_analysis(p).default_step; }

}  // namespace fleetdyn
