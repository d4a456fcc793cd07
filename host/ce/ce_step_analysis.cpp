// The ce model's RK4 step, from the eigenvalues of its linearization at rest and rolling, brakes
// off and on (as for strut). Without strut's stiff bushing, stability is far from binding (the
// fastest HMMWV mode, ~130 1/s, allows ~20 ms); accuracy binds: the default keeps the fastest
// mode resolved, |lambda|max dt <= 0.3 (RK4's relative error per step on it ~ (0.3)^5/120 =
// 2e-5), which test_ce_dynamics checks against a fine-step run of a bump-and-steer maneuver.
#include <algorithm>
#include <cmath>
#include <vector>

#include "fleetdyn/ce.h"
#include "host/batch/rk4_stability.h"

namespace fleetdyn {

StepAnalysis ce_step_analysis(const CeParams<double>& p) {
  const TerrainDesc<double> flat = default_terrain_desc<double>();
  const CeEnvironment<double> env{&flat, 0.0, 0.0};
  StepAnalysis a{0.0, 1.0, 1.0};
  for (double speed : {0.0, 15.0}) {
    const std::vector<double> state = ce_rest_state(p, speed);
    for (double brake : {0.0, 1.0}) {
      const DriverInput<double> input{0.0, 0.0, brake};
      const auto eigenvalues = linearized_eigenvalues(
          kCeStateSize, [&](const double* s, double* ds) { ce_derivative(p, env, input, s, ds); }, state.data());
      for (const auto& l : eigenvalues) a.stiffest_rate = std::max(a.stiffest_rate, std::abs(l));
      a.rk4_stable_step = std::min(a.rk4_stable_step, rk4_stable_step(eigenvalues));
    }
  }
  constexpr double kResolvedFastestMode = 0.3;
  a.default_step = round_down_step(std::min(a.rk4_stable_step, kResolvedFastestMode / a.stiffest_rate / 0.75));
  return a;
}

}  // namespace fleetdyn
