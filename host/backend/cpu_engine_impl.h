// The CPU engine (threads over vehicles or groups of SIMD lanes), instantiated per model in its
// own translation unit (cpu_engine_<model>.cpp): each model's physics then gets the compiler's
// whole inlining budget, as it would in a file of its own. A model with a SIMD lane form includes
// its lane header (the LaneRunner specialization) in its file.
#pragma once

#include <algorithm>
#include <memory>

#include "host/backend/cpu_engine.h"
#include "host/backend/lanes.h"
#include "host/backend/thread_pool.h"
#include "host/backend/vehicle_lanes.h"

namespace fleetdyn {
namespace cpu_engine_detail {

template <class Model, class T>
class CpuEngine final : public Engine<Model, T> {
  static constexpr int kWidth = kLaneWidth<T>;

  // Runs work units [begin, end): groups of kWidth vehicles (SIMD) or single vehicles (scalar).
  // A unit's vehicles never depend on the slicing.
  static void run_units(const BatchView<Model, T>& view, int steps, bool simd, int begin, int end) {
    if constexpr (LaneRunner<Model>::kAvailable) {
      if (simd) {
        for (int g = begin; g < end; ++g) LaneRunner<Model>::template run<T, kWidth>(view, g * kWidth, steps);
        return;
      }
    }
    for (int v = begin; v < end; ++v) run_vehicle(view, v, steps);
  }

 public:
  CpuEngine(int threads, bool simd) : pool_(cpu_thread_count(threads)), simd_(simd && LaneRunner<Model>::kAvailable) {}

  void upload(const BatchStorage<Model, T>&, unsigned) override {}  // steps the host storage itself

  void step(BatchStorage<Model, T>& host, int steps) override {
    const BatchView<Model, T> view = host.view();
    const int n = view.vehicle_count;
    const int units = simd_ ? (n + kWidth - 1) / kWidth : n;
    pool_.run_slices(units, 4, [&](int begin, int end, int) { run_units(view, steps, simd_, begin, end); });
  }

  void download(BatchStorage<Model, T>&) override {}
  void synchronize() override {}
  std::string device_name() const override { return cpu_device_name(pool_.size(), simd_ ? kWidth : 0); }

 private:
  ThreadPool pool_;
  bool simd_;
};

}  // namespace cpu_engine_detail

template <class Model, class T>
std::unique_ptr<Engine<Model, T>> make_cpu_engine(int threads, bool simd) {
  return std::make_unique<cpu_engine_detail::CpuEngine<Model, T>>(threads, simd);
}

}  // namespace fleetdyn
