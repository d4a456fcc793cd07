// Stable explicit-RK4 steps from the eigenvalues of a model's linearization (computed, not
// guessed), shared by the models' step analyses.
#pragma once

#include <complex>
#include <functional>
#include <vector>

namespace fleetdyn {

// Eigenvalues of d(state_dot)/d(state) at `state` (size n), by central differences of
// `derivative(state, state_dot)` with relative step 1e-7.
std::vector<std::complex<double>> linearized_eigenvalues(int n, const std::function<void(const double*, double*)>& derivative,
                                                         const double* state);

// Largest step for which classic RK4 is stable for every eigenvalue (|R(lambda dt)| <= 1),
// ignoring the numerically neutral modes (|lambda dt| < 1e-3).
double rk4_stable_step(const std::vector<std::complex<double>>& eigenvalues);

// A default step: at most `fraction` of `limit`, rounded down to 1, 2 or 5 x 10^k s.
double round_down_step(double limit, double fraction = 0.75);

}  // namespace fleetdyn
