#include "host/cpu_engine.h"

#include <algorithm>
#include <type_traits>

#include "host/pgs/pgs_vehicle_lanes.h"
#include "host/strut_lanes.h"
#include "host/thread_pool.h"

namespace fleetdyn {
namespace {

// Whether a model has a SIMD lane form on the CPU (ce has none yet).
template <class Model>
constexpr bool kHasLanes = std::is_same_v<Model, StrutModel> || std::is_same_v<Model, PgsVehicleModel>;

template <class Model, class T>
class CpuEngine final : public Engine<Model, T> {
  static constexpr int kWidth = kLaneWidth<T>;

  // Worker w steps the w-th contiguous slice of the work units: groups of kWidth vehicles
  // (SIMD) or single vehicles (scalar). A unit's vehicles never depend on the slicing.
  struct Slices {
    const BatchView<Model, T>* view;
    int steps;
    int workers;
    bool simd;
  };
  static void run_units(const Slices& s, int begin, int end) {
    if constexpr (kHasLanes<Model>) {
      if (s.simd) {
        for (int g = begin; g < end; ++g) {
          if constexpr (std::is_same_v<Model, StrutModel>) {
            strut_run_lanes<T, kWidth>(*s.view, g * kWidth, s.steps);
          } else {
            pgs_run_lanes<T, kWidth>(*s.view, g * kWidth, s.steps);
          }
        }
        return;
      }
    }
    for (int v = begin; v < end; ++v) run_vehicle(*s.view, v, s.steps);
  }
  static int unit_count(const Slices& s) {
    const int n = s.view->vehicle_count;
    return s.simd ? (n + kWidth - 1) / kWidth : n;
  }
  static void run_slice(void* context, int worker) {
    const Slices& s = *static_cast<const Slices*>(context);
    const long long units = unit_count(s);
    run_units(s, static_cast<int>(units * worker / s.workers), static_cast<int>(units * (worker + 1) / s.workers));
  }

 public:
  CpuEngine(int threads, bool simd)
      : pool_(cpu_thread_count(threads)),
        simd_(simd && kHasLanes<Model>) {}

  void upload(const BatchStorage<Model, T>&, unsigned) override {}  // steps the host storage itself

  void step(BatchStorage<Model, T>& host, int steps) override {
    const BatchView<Model, T> view = host.view();
    Slices slices{&view, steps, 1, simd_};
    const int units = unit_count(slices);
    // Small batches are not worth waking the workers for.
    slices.workers = units < 4 * pool_.size() ? 1 : pool_.size();
    if (slices.workers == 1) {
      run_units(slices, 0, units);
      return;
    }
    pool_.run(&run_slice, &slices);
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
