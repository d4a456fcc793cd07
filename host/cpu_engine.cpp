#include "host/cpu_engine.h"

#include <algorithm>
#include <thread>

#include "host/thread_pool.h"

namespace fleetdyn {
namespace {

template <class T>
class CpuEngine final : public Engine<T> {
  // Worker w steps the w-th contiguous slice of the vehicles.
  struct Slices {
    const StrutBatchView<T>* view;
    int steps;
    int workers;
  };
  static void run_slice(void* context, int worker) {
    const Slices& s = *static_cast<const Slices*>(context);
    const int n = s.view->vehicle_count;
    const int begin = static_cast<int>(static_cast<long long>(n) * worker / s.workers);
    const int end = static_cast<int>(static_cast<long long>(n) * (worker + 1) / s.workers);
    for (int v = begin; v < end; ++v) strut_run_vehicle(*s.view, v, s.steps);
  }

 public:
  explicit CpuEngine(int threads)
      : pool_(threads > 0 ? threads : std::max(1, static_cast<int>(std::thread::hardware_concurrency()))) {}

  void upload(const BatchStorage<T>&, unsigned) override {}  // steps the host storage itself

  void step(BatchStorage<T>& host, int steps) override {
    const StrutBatchView<T> view = host.view();
    const int n = view.vehicle_count;
    // Small batches are not worth waking the workers for.
    const int workers = n < 4 * pool_.size() ? 1 : pool_.size();
    if (workers == 1) {
      for (int v = 0; v < n; ++v) strut_run_vehicle(view, v, steps);
      return;
    }
    Slices slices{&view, steps, workers};
    pool_.run(&run_slice, &slices);
  }

  void download(BatchStorage<T>&) override {}
  void synchronize() override {}
  std::string device_name() const override {
    return "cpu (" + std::to_string(pool_.size()) + (pool_.size() == 1 ? " thread)" : " threads)");
  }

 private:
  ThreadPool pool_;
};

}  // namespace

template <class T>
std::unique_ptr<Engine<T>> make_cpu_engine(int threads) {
  return std::make_unique<CpuEngine<T>>(threads);
}

template std::unique_ptr<Engine<float>> make_cpu_engine<float>(int);
template std::unique_ptr<Engine<double>> make_cpu_engine<double>(int);

}  // namespace fleetdyn
