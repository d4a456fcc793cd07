// CPU backend of the pgs batch: the systems split into contiguous slices, one per worker of a
// thread pool; each worker steps its systems one after another through the same single-source
// step the CUDA kernel runs (physics/pgs/step.h). A worker gathers one system's state and
// report from the batch's component-major arrays into its own contiguous block (stride 1),
// runs all requested steps there, and scatters them back: the strided layout suits the GPU's
// coalescing, not a CPU core's cache lines.
#include "fleetdyn/physics/pgs/step.h"
#include "host/backend/thread_pool.h"
#include "host/pgs/pgs_engine.h"

namespace fleetdyn {
namespace {

template <class T>
class PgsCpuEngine final : public PgsEngine<T> {
 public:
  explicit PgsCpuEngine(int threads) : pool_(threads) {
    name_ = "cpu (" + std::to_string(pool_.size()) + (pool_.size() == 1 ? " thread)" : " threads)");
  }

  void init(const PgsModelData<T>& model, int n, const PgsHostArrays<T>& arrays) override {
    model_ = model;
    n_ = n;
    arrays_ = arrays;
    const auto view = model_.view();
    state_size_ = pgs::state_size(view.body_count, view.row_count);
    const size_t block = static_cast<size_t>(pgs::scratch_size(view.body_count, view.row_count) + state_size_ +
                                             pgs::kReportFieldCount);
    scratch_.assign(static_cast<size_t>(pool_.size()), std::vector<T>(block, T(0)));
  }

  void step(int steps) override {
    steps_ = steps;
    pool_.run_slices(n_, 0, [this](int begin, int end, int worker) { run_slice(begin, end, worker); });
  }
  void synchronize() override {}
  void read(PgsHostArrays<T>* arrays) override { *arrays = arrays_; }
  void write(const PgsHostArrays<T>& arrays) override { arrays_ = arrays; }
  const std::string& device_name() const override { return name_; }

 private:
  // Steps systems [begin, end) in worker `worker`'s scratch block.
  void run_slice(int begin, int end, int worker) {
    const int n = n_;
    const pgs::ModelView<T> view = model_.view();
    const int state_size = state_size_;
    T* block = scratch_[static_cast<size_t>(worker)].data();
    T* local_state = block;
    T* local_report = block + state_size;
    const pgs::Strided<T> scratch{block + state_size + pgs::kReportFieldCount, 1, 0};
    const pgs::Strided<T> state{local_state, 1, 0};
    const pgs::Strided<T> report{local_report, 1, 0};
    for (int s = begin; s < end; ++s) {
      const pgs::Strided<T> batch_state{arrays_.state.data(), n, s};
      const pgs::Strided<T> batch_report{arrays_.report.data(), n, s};
      for (int j = 0; j < state_size; ++j) local_state[j] = batch_state[j];
      for (int j = 0; j < pgs::kReportFieldCount; ++j) local_report[j] = batch_report[j];
      for (int k = 0; k < steps_; ++k) {
        pgs::pgs_step(view, state, scratch, report, &arrays_.status[static_cast<size_t>(s)],
                      &arrays_.iterations[static_cast<size_t>(s)]);
      }
      for (int j = 0; j < state_size; ++j) batch_state[j] = local_state[j];
      for (int j = 0; j < pgs::kReportFieldCount; ++j) batch_report[j] = local_report[j];
    }
  }

  ThreadPool pool_;
  std::string name_;
  PgsModelData<T> model_;
  int n_ = 0;
  int steps_ = 0;
  int state_size_ = 0;
  PgsHostArrays<T> arrays_;
  std::vector<std::vector<T>> scratch_;
};

}  // namespace

template <class T>
std::unique_ptr<PgsEngine<T>> make_pgs_cpu_engine(int threads) {
  return std::make_unique<PgsCpuEngine<T>>(cpu_thread_count(threads));
}

template std::unique_ptr<PgsEngine<float>> make_pgs_cpu_engine<float>(int);
template std::unique_ptr<PgsEngine<double>> make_pgs_cpu_engine<double>(int);

}  // namespace fleetdyn
