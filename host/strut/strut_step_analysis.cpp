// The strut model's stable step, from the eigenvalues of its linearization (computed, not
// guessed: the fastest mode is the overdamped lateral bushing mode of all four wheels together
// with body yaw, about twice what a one-wheel estimate gives).
#include <algorithm>
#include <cmath>

#include "fleetdyn/physics/strut/strut_initial.h"
#include "fleetdyn/vehicle.h"
#include "host/batch/rk4_stability.h"

namespace fleetdyn {

StepAnalysis strut_step_analysis(const StrutParams<double>& p) {
  TerrainDesc<double> flat = default_terrain_desc<double>();
  StepAnalysis a{0.0, 1.0, 1.0};
  // At rest (the standstill tire is stiffest) and rolling; brakes off and on.
  for (double speed : {0.0, 15.0}) {
    for (double brake : {0.0, 1.0}) {
      double state[kStrutStateSize], ox, oy;
      strut_initial_state(p, flat, 0.0, 0.0, 0.0, speed, state, &ox, &oy);
      const DriverInput<double> input{0.0, 0.0, brake};
      const StrutEnvironment<double> env(p, &flat, 0.0, 0.0, input);
      const auto eigenvalues = linearized_eigenvalues(
          kStrutStateSize,
          [&](const double* s, double* ds) {
            strut_derivative(p, env, input, s, ds, static_cast<StrutDiagnostics<double>*>(nullptr));
          },
          state);
      for (const auto& l : eigenvalues) a.stiffest_rate = std::max(a.stiffest_rate, std::abs(l));
      a.rk4_stable_step = std::min(a.rk4_stable_step, rk4_stable_step(eigenvalues));
    }
  }
  // Default: at most 75 % of the stability limit. The fastest mode is the bushing mode, which
  // does not depend on load; the margin covers what does move (tire and stop stiffness),
  // rounded down to 1, 2 or 5 x 10^k s.
  a.default_step = round_down_step(a.rk4_stable_step);
  return a;
}

double strut_default_step(const StrutParams<double>& p) { return strut_step_analysis(p).default_step; }

}  // namespace fleetdyn
