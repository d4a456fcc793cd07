// Host-side storage of a vector environment in its scalar type, and the backend interface that
// steps it. The CPU engine works on this storage in place; the CUDA engine mirrors it on the
// device and copies back only what a read asks for. Internal to the library.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "fleetdyn/physics/env/env_view.h"
#include "fleetdyn/vector_env.h"

namespace fleetdyn {

template <class Model, class T>
struct EnvStorage {
  using Params = typename Model::template Params<T>;
  int env_count = 0;
  env::EnvConfig<T> config{};
  TerrainDesc<T> terrain{};
  std::vector<T> heightfield;
  IntegratorSettings<T> integrator{};
  std::vector<Params> base_params, params;
  std::vector<T> state, origin, actuator, command, wheel_load, static_load, lift_time, progress, target_speed, episode_return;
  std::vector<T> track_x, track_y, track_s;
  std::vector<int> segment, episode_steps, final_length, end_reason;
  std::vector<uint32_t> episode_index;
  std::vector<float> obs, reward, final_obs, final_return;
  std::vector<uint8_t> terminated, truncated, has_final;

  void allocate(int n) {
    env_count = n;
    const size_t count = static_cast<size_t>(n);
    const size_t track = count * static_cast<size_t>(config.track_points);
    const size_t obs_size = count * static_cast<size_t>(config.obs_dim);
    params.assign(count, Params{});
    state.assign(Model::kStateSize * count, T(0));
    origin.assign(2 * count, T(0));
    actuator.assign(3 * count, T(0));
    command.assign(3 * count, T(0));
    wheel_load.assign(4 * count, T(0));
    static_load.assign(4 * count, T(1));
    for (auto* a : {&lift_time, &progress, &target_speed, &episode_return}) a->assign(count, T(0));
    for (auto* a : {&track_x, &track_y, &track_s}) a->assign(track, T(0));
    for (auto* a : {&segment, &episode_steps, &final_length, &end_reason}) a->assign(count, 0);
    episode_index.assign(count, 0u);
    obs.assign(obs_size, 0.0f);
    final_obs.assign(obs_size, 0.0f);
    reward.assign(count, 0.0f);
    final_return.assign(count, 0.0f);
    for (auto* a : {&terminated, &truncated, &has_final}) a->assign(count, 0);
  }

  // View over this storage (host pointers); `actions` set by the caller.
  EnvView<Model, T> view() {
    EnvView<Model, T> v{};
    v.env_count = env_count;
    v.config = config;
    v.terrain = terrain;
    v.terrain.hf_heights = heightfield.empty() ? nullptr : heightfield.data();
    v.integrator = integrator;
    v.base_params = base_params.data();
    v.base_param_count = static_cast<int>(base_params.size());
    v.params = params.data();
    v.state = state.data();
    v.origin = origin.data();
    v.actuator = actuator.data();
    v.command = command.data();
    v.wheel_load = wheel_load.data();
    v.static_load = static_load.data();
    v.lift_time = lift_time.data();
    v.progress = progress.data();
    v.segment = segment.data();
    v.target_speed = target_speed.data();
    v.episode_return = episode_return.data();
    v.episode_steps = episode_steps.data();
    v.episode_index = episode_index.data();
    v.track_x = track_x.data();
    v.track_y = track_y.data();
    v.track_s = track_s.data();
    v.actions = nullptr;
    v.obs = obs.data();
    v.reward = reward.data();
    v.terminated = terminated.data();
    v.truncated = truncated.data();
    v.final_obs = final_obs.data();
    v.has_final = has_final.data();
    v.final_return = final_return.data();
    v.final_length = final_length.data();
    v.end_reason = end_reason.data();
    return v;
  }
};

// Every (model, scalar type) a vector env can have.
#define FLEETDYN_ENV_KINDS(X) X(StrutModel, float) X(StrutModel, double) X(CeModel, float) X(CeModel, double)

// A backend of a vector env. Buffers (view()) live in the engine's memory space.
template <class Model, class T>
class EnvEngine {
 public:
  virtual ~EnvEngine() = default;
  // Everything (after construction), or only the base parameters.
  virtual void upload_all(EnvStorage<Model, T>& host) = 0;
  virtual void upload_base_params(EnvStorage<Model, T>& host) = 0;
  // Episode counters back to 0 (a new seed is in host.config).
  virtual void restart_streams(EnvStorage<Model, T>& host) = 0;
  // Reset the envs with mask[e] != 0 (host bytes), or all when mask is null.
  virtual void reset(EnvStorage<Model, T>& host, const uint8_t* mask) = 0;
  // The index of the first env with a non-finite action, or env_count; then the step, if all are finite.
  virtual int step(EnvStorage<Model, T>& host, const float* actions, MemorySpace space) = 0;
  // The engine's arrays back into the host storage (synchronizes).
  virtual void download(EnvStorage<Model, T>& host) = 0;
  virtual void synchronize() = 0;
  virtual EnvView<Model, T> buffers(EnvStorage<Model, T>& host) = 0;
  virtual MemorySpace space() const = 0;
  virtual void* stream() const = 0;
  virtual std::string device_name() const = 0;
};

template <class Model, class T>
std::unique_ptr<EnvEngine<Model, T>> make_cpu_env_engine(int threads, bool simd);
template <class Model, class T>
std::unique_ptr<EnvEngine<Model, T>> make_cuda_env_engine();  // throws without a usable device

// First env whose action row has a non-finite component, or n.
inline int first_bad_action(const float* actions, int n) {
  for (int e = 0; e < n; ++e) {
    for (int j = 0; j < 3; ++j) {
      const float a = actions[static_cast<size_t>(e) * 3 + j];
      if (!(a - a == 0.0f)) return e;  // NaN and +-inf fail
    }
  }
  return n;
}

}  // namespace fleetdyn
