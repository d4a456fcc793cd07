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
#include "host/batch/batch_storage.h"

namespace fleetdyn {

// Every array of a vector env, written once. X(name, element, view, rows, fill): the storage's
// std::vector<element> `name`, the EnvView member `view` that points at it, and its allocation
// by allocate(): rows * env_count elements of value `fill`. FLEETDYN_ENV_SHARED_ARRAYS(X) lists
// those not per env (rows 0: set by the caller, not by allocate), sent to an engine by its
// upload_all and never brought back. The CUDA engine's device mirror, uploads, device view and
// download are generated from these lists (kernels/env_engine.cuh). `Params` is the model's
// parameter struct in the env's scalar type.
#define FLEETDYN_ENV_SHARED_ARRAYS(X)            \
  X(heightfield, T, terrain.hf_heights, 0, T(0)) \
  X(base_params, Params, base_params, 0, Params{})

#define FLEETDYN_ENV_ARRAYS(X)                         \
  X(params, Params, params, 1, Params{})               \
  X(state, T, state, Model::kStateSize, T(0))          \
  X(origin, T, origin, 2, T(0))                        \
  X(actuator, T, actuator, 3, T(0))                    \
  X(command, T, command, 3, T(0))                      \
  X(wheel_load, T, wheel_load, kCorners, T(0))         \
  X(static_load, T, static_load, kCorners, T(1))       \
  X(lift_time, T, lift_time, 1, T(0))                  \
  X(progress, T, progress, 1, T(0))                    \
  X(target_speed, T, target_speed, 1, T(0))            \
  X(episode_return, T, episode_return, 1, T(0))        \
  X(track_x, T, track_x, config.track_points, T(0))    \
  X(track_y, T, track_y, config.track_points, T(0))    \
  X(track_s, T, track_s, config.track_points, T(0))    \
  X(segment, int, segment, 1, 0)                       \
  X(episode_steps, int, episode_steps, 1, 0)           \
  X(final_length, int, final_length, 1, 0)             \
  X(end_reason, int, end_reason, 1, 0)                 \
  X(episode_index, uint32_t, episode_index, 1, 0u)     \
  X(obs, float, obs, config.obs_dim, 0.0f)             \
  X(reward, float, reward, 1, 0.0f)                    \
  X(final_obs, float, final_obs, config.obs_dim, 0.0f) \
  X(final_return, float, final_return, 1, 0.0f)        \
  X(terminated, uint8_t, terminated, 1, 0)             \
  X(truncated, uint8_t, truncated, 1, 0)               \
  X(has_final, uint8_t, has_final, 1, 0)

template <class Model, class T>
struct EnvStorage {
  using Params = typename Model::template Params<T>;
  int env_count = 0;
  env::EnvConfig<T> config{};
  TerrainDesc<T> terrain{};  // hf_heights: set by view() to `heightfield`
  IntegratorSettings<T> integrator{};
#define FLEETDYN_ENV_MEMBER(name, E, view, rows, fill) std::vector<E> name;
  FLEETDYN_ENV_SHARED_ARRAYS(FLEETDYN_ENV_MEMBER)
  FLEETDYN_ENV_ARRAYS(FLEETDYN_ENV_MEMBER)
#undef FLEETDYN_ENV_MEMBER

  void allocate(int n) {
    env_count = n;
    const size_t count = static_cast<size_t>(n);
#define FLEETDYN_ENV_ALLOCATE(name, E, view, rows, fill) name.assign(static_cast<size_t>(rows) * count, E(fill));
    FLEETDYN_ENV_ARRAYS(FLEETDYN_ENV_ALLOCATE)
#undef FLEETDYN_ENV_ALLOCATE
  }

  // View over this storage (host pointers); `actions` set by the caller.
  EnvView<Model, T> view() {
    EnvView<Model, T> v{};
    v.env_count = env_count;
    v.config = config;
    v.terrain = terrain;
    v.integrator = integrator;
#define FLEETDYN_ENV_VIEW(name, E, view, rows, fill) v.view = data_or_null(name);
    FLEETDYN_ENV_SHARED_ARRAYS(FLEETDYN_ENV_VIEW)
    FLEETDYN_ENV_ARRAYS(FLEETDYN_ENV_VIEW)
#undef FLEETDYN_ENV_VIEW
    v.base_param_count = static_cast<int>(base_params.size());
    v.actions = nullptr;
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
