#include "host/backend/cpu_engine.h"

#include <algorithm>
#include <type_traits>

#include "host/backend/thread_pool.h"
#include "host/pgs/pgs_vehicle_lanes.h"
#include "host/strut/strut_lanes.h"

namespace fleetdyn {
namespace {

// Whether a model has a SIMD lane form on the CPU (ce has none yet).
template <class Model>
constexpr bool kHasLanes = std::is_same_v<Model, StrutModel> || std::is_same_v<Model, PgsVehicleModel>;

template <class Model, class T>
class CpuEngine final : public Engine<Model, T> {
  static constexpr int kWidth = kLaneWidth<T>;

  // Runs work units [begin, end): groups of kWidth vehicles (SIMD) or single vehicles (scalar).
  // A unit's vehicles never depend on the slicing.
  static void run_units(const BatchView<Model, T>& view, int steps, bool simd, int begin, int end) {
    if constexpr (kHasLanes<Model>) {
      if (simd) {
        for (int g = begin; g < end; ++g) {
          if constexpr (std::is_same_v<Model, StrutModel>) {
            strut_run_lanes<T, kWidth>(view, g * kWidth, steps);
          } else {
            pgs_run_lanes<T, kWidth>(view, g * kWidth, steps);
          }
        }
        return;
      }
    }
    for (int v = begin; v < end; ++v) run_vehicle(view, v, steps);
  }

 public:
  CpuEngine(int threads, bool simd) : pool_(cpu_thread_count(threads)), simd_(simd && kHasLanes<Model>) {}

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

}  // namespace

template <class Model, class T>
std::unique_ptr<Engine<Model, T>> make_cpu_engine(int threads, bool simd) {
  return std::make_unique<CpuEngine<Model, T>>(threads, simd);
}

#define FLEETDYN_INSTANTIATE_CPU_ENGINE(Model, T) \
  template std::unique_ptr<Engine<Model, T>> make_cpu_engine<Model, T>(int, bool);
FLEETDYN_BATCH_KINDS(FLEETDYN_INSTANTIATE_CPU_ENGINE)
#undef FLEETDYN_INSTANTIATE_CPU_ENGINE

}  // namespace fleetdyn
