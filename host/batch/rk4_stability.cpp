// Stable explicit-RK4 steps from linearized eigenvalues (see the header).
#include "host/batch/rk4_stability.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>

namespace fleetdyn {
namespace {

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

std::vector<std::complex<double>> linearized_eigenvalues(int n, const std::function<void(const double*, double*)>& derivative,
                                                         const double* state) {
  Eigen::MatrixXd jacobian(n, n);
  std::vector<double> plus(n), minus(n), f_plus(n), f_minus(n);
  for (int j = 0; j < n; ++j) {
    std::copy(state, state + n, plus.begin());
    std::copy(state, state + n, minus.begin());
    const double h = 1e-7 * std::max(1.0, std::fabs(state[j]));
    plus[j] += h;
    minus[j] -= h;
    derivative(plus.data(), f_plus.data());
    derivative(minus.data(), f_minus.data());
    for (int i = 0; i < n; ++i) jacobian(i, j) = (f_plus[i] - f_minus[i]) / (2.0 * h);
  }
  const Eigen::VectorXcd values = Eigen::EigenSolver<Eigen::MatrixXd>(jacobian, false).eigenvalues();
  return std::vector<std::complex<double>>(values.data(), values.data() + n);
}

double rk4_stable_step(const std::vector<std::complex<double>>& eigenvalues) {
  double fastest = 0.0;
  for (const auto& l : eigenvalues) fastest = std::max(fastest, std::abs(l));
  if (fastest == 0.0) return 1.0;
  // Scan down from beyond the real-axis bound 2.785/|lambda|max, then bisect.
  double stable = 0.0, unstable = 4.0 / fastest;
  for (double step = unstable; step > 1e-9; step *= 0.9) {
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
  return stable;
}

double round_down_step(double limit, double fraction) {
  const double target = fraction * limit;
  const double decade = std::pow(10.0, std::floor(std::log10(target)));
  for (double m : {5.0, 2.0, 1.0}) {
    if (m * decade <= target) return m * decade;
  }
  return decade;
}

}  // namespace fleetdyn
