// Helpers shared by the pgs solver tests.
#pragma once

#include "fleetdyn/pgs.h"

namespace fleetdyn {
namespace test {

// Solver settings of a test: step [s], residual tolerance [m/s] and sweep cap; the rest default.
inline PgsSolverSettings solver_settings(double step, double tolerance, int max_iterations) {
  PgsSolverSettings s;
  s.step = step;
  s.tolerance = tolerance;
  s.max_iterations = max_iterations;
  return s;
}

}  // namespace test
}  // namespace fleetdyn
