// The CPU backend's SIMD runner for every model with a lane form: W consecutive vehicles, one
// VehicleRun each (physics/core/batch_view.h) for what is per vehicle and written once there (load,
// inputs and drivers, the sanity check, capsize, metrics, origin rebase, store), and the model's
// lane stepper for the step itself (host/strut/strut_lanes.h, host/pgs/pgs_vehicle_lanes.h).
//
// A lane stepper, constructed in place from (batch, first, runs, live) once the runs are loaded:
//   void step(batch, runs, live, inputs, samples): one outer step of the live lanes from each
//        run's s with its input, writing the run's `next` and the step's metric sample;
//   void stopped(lane): the lane's vehicle stopped (diverged or capsized) at this step.
// Lanes that are not live (padding past the batch's end, vehicles stopped before or during the
// call) are never written back; a stepper may still carry them through its arithmetic.
//
// Independence: a vehicle's lane depends only on its index (v / W, v % W), every vehicle of the
// batch goes through this path (a short last group is padded with copies of its first vehicle),
// and no operation mixes lanes, so a vehicle's result is the same whatever the batch size or
// thread count.
#pragma once

#include "fleetdyn/physics/core/batch_view.h"

namespace fleetdyn {

// The lanes' loop, written once for the batch and the vector env (host/env/strut_env_lanes.h):
// up to `steps` times, step() advances the live lanes, then accept(i) takes each live lane's
// result; a lane whose result is refused stops there (stopped(i)) and is not advanced again.
// Ends early when no lane is live.
template <int W, class Step, class Accept, class Stopped>
inline void step_live_lanes(bool* live, int steps, Step&& step, Accept&& accept, Stopped&& stopped) {
  for (int k = 0; k < steps; ++k) {
    step();
    bool any_live = false;
    for (int i = 0; i < W; ++i) {
      if (!live[i]) continue;
      live[i] = accept(i);
      if (!live[i]) stopped(i);
      any_live = any_live || live[i];
    }
    if (!any_live) break;
  }
}

template <bool kDrivers, class Model, class T, int W, class Stepper>
inline void run_vehicle_lanes_steps(const BatchView<Model, T>& b, int first, int steps) {
  using Run = VehicleRun<kDrivers, Model, T>;
  const int n = b.vehicle_count;
  Run run[W];
  bool live[W];    // loaded, running and still advancing
  bool loaded[W];  // written back at the end
  bool any_live = false;
  for (int i = 0; i < W; ++i) {
    live[i] = first + i < n && b.status[first + i] == kStatusRunning;
    loaded[i] = live[i];
    any_live = any_live || live[i];
  }
  if (!any_live) return;
  for (int i = 0; i < W; ++i) run[i].load(b, first + i < n ? first + i : first);  // padding: the first vehicle
  Stepper stepper(b, first, run, live);
  MetricSample<T> sample[W];
  step_live_lanes<W>(
      live, steps,
      [&] {
        DriverInput<T> input[W];
        for (int i = 0; i < W; ++i) {
          const int v = first + i;
          input[i] = live[i] ? run[i].input(b, b.params[v % b.param_count], v) : DriverInput<T>{T(0), T(0), T(0)};
        }
        stepper.step(b, run, live, input, sample);
      },
      [&](int i) { return run[i].accept(b, sample[i]); }, [&](int i) { stepper.stopped(i); });
  for (int i = 0; i < W; ++i) {
    if (loaded[i]) run[i].store(b, first + i);
  }
}

// Advance vehicles first .. first + W - 1 (those that exist and are running) by `steps` outer
// steps: the lane form of run_vehicle. Stepper<kDrivers, T, W> is the model's lane stepper.
template <template <bool, class, int> class Stepper, class Model, class T, int W>
inline void run_vehicle_lanes(const BatchView<Model, T>& b, int first, int steps) {
  if (b.driver.mode == kDriverOpenLoop) {
    run_vehicle_lanes_steps<false, Model, T, W, Stepper<false, T, W>>(b, first, steps);
  } else {
    run_vehicle_lanes_steps<true, Model, T, W, Stepper<true, T, W>>(b, first, steps);
  }
}

// A model's CPU runner of W vehicles in SIMD lanes, where it has one: its lane header specializes
// this with kAvailable = true and run<T, W>(view, first, steps) (the CPU engine's SIMD path).
template <class Model>
struct LaneRunner {
  static constexpr bool kAvailable = false;
};

}  // namespace fleetdyn
