// CPU backend of the vector environment: a fixed pool of threads, each running the per-env
// routines (physics/env/env_episode.h, the source the CUDA kernels run) over a contiguous slice
// of the envs; strut's physics in SIMD lanes (host/env/strut_env_lanes.h). An env's arithmetic
// is its own, so results do not depend on the slicing.
#include <algorithm>
#include <type_traits>

#include "fleetdyn/error.h"
#include "fleetdyn/physics/env/env_episode.h"
#include "host/backend/thread_pool.h"
#include "host/env/env_storage.h"
#include "host/env/strut_env_lanes.h"

namespace fleetdyn {
namespace {

// Whether a model has a SIMD lane form of the env step on the CPU.
template <class Model>
constexpr bool kHasEnvLanes = std::is_same_v<Model, StrutModel>;

template <class Model, class T>
class CpuEnvEngine final : public EnvEngine<Model, T> {
  static constexpr int kWidth = kLaneWidth<T>;
  // Steps (or, with `reset`, resets those of `mask`, all when it is null) the envs of work
  // units [begin, end): groups of kWidth envs for a SIMD step, single envs otherwise.
  void run_units(const EnvView<Model, T>& view, const uint8_t* mask, bool reset, int begin, int end) const {
    if constexpr (kHasEnvLanes<Model>) {
      if (simd_ && !reset) {
        for (int g = begin; g < end; ++g) strut_env_step_lanes<T, kWidth>(view, g * kWidth);
        return;
      }
    }
    for (int e = begin; e < end; ++e) {
      if (!reset) {
        env::step_env(view, e);
      } else if (!mask || mask[e]) {
        view.has_final[e] = 0;
        env::reset_env(view, e);
      }
    }
  }
  void run(const EnvView<Model, T>& view, const uint8_t* mask, bool reset) {
    const int n = view.env_count;
    const int units = kHasEnvLanes<Model> && simd_ && !reset ? (n + kWidth - 1) / kWidth : n;
    pool_.run_slices(units, 4, [&](int begin, int end, int) { run_units(view, mask, reset, begin, end); });
  }

 public:
  CpuEnvEngine(int threads, bool simd) : pool_(cpu_thread_count(threads)), simd_(simd && kHasEnvLanes<Model>) {}

  void upload_all(EnvStorage<Model, T>&) override {}  // works on the host storage itself
  void upload_base_params(EnvStorage<Model, T>&) override {}
  void restart_streams(EnvStorage<Model, T>& host) override {
    std::fill(host.episode_index.begin(), host.episode_index.end(), 0u);
  }
  void reset(EnvStorage<Model, T>& host, const uint8_t* mask) override { run(host.view(), mask, true); }
  int step(EnvStorage<Model, T>& host, const float* actions, MemorySpace space) override {
    if (space != MemorySpace::Host) throw Error("VectorEnv::step: device actions given to a cpu env");
    const int bad = first_bad_action(actions, host.env_count);
    if (bad < host.env_count) return bad;
    EnvView<Model, T> view = host.view();
    view.actions = actions;
    run(view, nullptr, false);
    return host.env_count;
  }
  void download(EnvStorage<Model, T>&) override {}
  void synchronize() override {}
  EnvView<Model, T> buffers(EnvStorage<Model, T>& host) override { return host.view(); }
  MemorySpace space() const override { return MemorySpace::Host; }
  void* stream() const override { return nullptr; }
  std::string device_name() const override { return cpu_device_name(pool_.size(), simd_ ? kWidth : 0); }

 private:
  ThreadPool pool_;
  bool simd_;
};

}  // namespace

template <class Model, class T>
std::unique_ptr<EnvEngine<Model, T>> make_cpu_env_engine(int threads, bool simd) {
  return std::make_unique<CpuEnvEngine<Model, T>>(threads, simd);
}

#define FLEETDYN_INSTANTIATE_CPU_ENV_ENGINE(Model, T) \
  template std::unique_ptr<EnvEngine<Model, T>> make_cpu_env_engine<Model, T>(int, bool);
FLEETDYN_ENV_KINDS(FLEETDYN_INSTANTIATE_CPU_ENV_ENGINE)
#undef FLEETDYN_INSTANTIATE_CPU_ENV_ENGINE

}  // namespace fleetdyn
