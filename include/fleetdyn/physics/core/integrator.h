// Integration settings of a batch (the same for every vehicle, every model), and the classic RK4
// step every model takes.
#pragma once

#include "fleetdyn/physics/core/config.h"

namespace fleetdyn {

template <class T>
struct IntegratorSettings {
  T step;                // [s] outer step (one call of the model's step function)
  int substeps;          // classic RK4 substeps per outer step
  bool requery_contact;  // strut: true queries the terrain at every RK4 stage (default), false
                         // once per step (ce always queries at every stage)
};

// `substeps` classic RK4 steps of h each from `next` (in place) for N scalars:
//   f.derivative(x, dx, first)  the ODE's right-hand side; `first` marks the first stage of the
//                               first substep (the state at step start, whose diagnostics count)
//   f.project(x)                after each substep (a quaternion renormalized).
// Low-storage form: each stage's derivative is folded into an accumulator at once, so only four
// state-sized arrays are live (next, stage, derivative, accumulator), which keeps GPU registers
// in reach.
template <int N, class T, class Ode>
FLEETDYN_FN void rk4_substeps(Ode& f, T h, int substeps, T* next) {
  T rate[N], sum[N], stage[N];
  for (int sub = 0; sub < substeps; ++sub) {
    // k1 at the start, then k2, k3 at half steps along k1, k2, and k4 at the full step along k3;
    // sum = k1 + 2 k2 + 2 k3 + k4.
    f.derivative(next, rate, sub == 0);
    for (int j = 0; j < N; ++j) {
      sum[j] = rate[j];
      stage[j] = next[j] + T(0.5) * h * rate[j];
    }
    f.derivative(stage, rate, false);
    for (int j = 0; j < N; ++j) {
      sum[j] += T(2) * rate[j];
      stage[j] = next[j] + T(0.5) * h * rate[j];
    }
    f.derivative(stage, rate, false);
    for (int j = 0; j < N; ++j) {
      sum[j] += T(2) * rate[j];
      stage[j] = next[j] + h * rate[j];
    }
    f.derivative(stage, rate, false);
    for (int j = 0; j < N; ++j) next[j] += (h / T(6)) * (sum[j] + rate[j]);
    f.project(next);
  }
}

}  // namespace fleetdyn
