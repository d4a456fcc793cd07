// VectorEnv: configuration checks and defaults, and the backend-independent API over an env
// engine of the chosen model, precision and backend (host/env/env_storage.h).
#include "fleetdyn/vector_env.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <type_traits>
#include <variant>

#include "fleetdyn/ce.h"
#include "fleetdyn/ce_fields.h"
#include "fleetdyn/error.h"
#include "fleetdyn/physics/ce/ce_rest.h"
#include "fleetdyn/vehicle.h"
#include "host/backend/cuda_engine.h"
#include "host/batch/convert_scalars.h"
#include "host/env/env_models.h"
#include "host/env/env_storage.h"

namespace fleetdyn {

const char* env_task_name(EnvTask task) { return task == EnvTask::ReachSpeed ? "reach_speed" : "path_following"; }

EnvTask env_task_from_name(const std::string& name) {
  if (name == "path_following") return EnvTask::PathFollowing;
  if (name == "reach_speed") return EnvTask::ReachSpeed;
  throw Error("VectorEnv: unknown task '" + name + "' (known: path_following, reach_speed)");
}

const std::vector<ObservationFeature>& observation_features() {
  static const std::vector<ObservationFeature> features = {
      {"body_velocity", 3, "body COM velocity in body axes (x forward, y left, z up) / 10 m/s"},
      {"roll_pitch", 2, "roll and pitch relative to the ground under the body [rad]"},
      {"yaw_rate", 1, "body z angular velocity [rad/s]"},
      {"wheel_speeds", 4, "wheel spin x unloaded radius / 10 m/s, FL FR RL RR"},
      {"wheel_loads", 4, "tire normal force / its static value, FL FR RL RR"},
      {"steering", 1, "steering actuator position [-1, 1]"},
      {"pedals", 2, "throttle and brake actuator positions [0, 1]"},
      {"path_errors", 2, "lateral offset from the track (+ left) / road half-width, heading error [rad]"},
      {"lookahead", 2, "per look-ahead point: the track point ahead in body x, y / 10 m"},
      {"speed_error", 1, "(forward speed - target speed) / 10 m/s (reach_speed; 0 otherwise)"},
  };
  return features;
}

std::vector<std::string> default_observations(EnvTask task) {
  if (task == EnvTask::ReachSpeed) {
    return {"body_velocity", "roll_pitch", "yaw_rate",    "wheel_speeds",
            "steering",      "pedals",     "path_errors", "speed_error"};
  }
  return {"body_velocity", "roll_pitch", "yaw_rate", "steering", "pedals", "path_errors", "lookahead"};
}

namespace {

using env_checks::check_randomization;
using env_checks::device_config;
using env_checks::feature_index;
using env_checks::num;
using env_checks::param_index;
using env_checks::randomize_field;
using env_checks::require;
using env_checks::resolve;
using env_checks::with_env_model;

// Model- and precision-independent face of the typed storage + engine.
class TypedEnv {
 public:
  virtual ~TypedEnv() = default;
  virtual void reset(const uint8_t* mask, const uint64_t* seed) = 0;
  virtual int step(const float* actions, MemorySpace space) = 0;
  virtual void fetch() = 0;  // engine arrays -> host storage
  virtual MemorySpace space() const = 0;
  virtual void* stream() const = 0;
  virtual void synchronize() = 0;
  virtual std::string device_name() const = 0;
  // Output buffers in the engine's memory.
  struct Outputs {
    const float *obs, *reward, *final_obs, *final_return;
    const uint8_t *terminated, *truncated, *has_final;
    const int32_t *final_length, *end_reason;
  };
  virtual Outputs outputs() = 0;
  virtual Outputs host_outputs() = 0;  // after fetch()
  // The base parameters of the env's model (the VectorEnv checked which it is).
  virtual void set_base_params(const std::vector<StrutParams<double>>& params) = 0;
  virtual void set_base_params(const std::vector<CeParams<double>>& params) = 0;
  virtual std::vector<double> episode_param(int index) = 0;  // after fetch()
  virtual std::vector<double> state() = 0;                   // after fetch()
  virtual std::vector<double> origins() = 0;                 // after fetch()
  virtual std::vector<double> static_loads() = 0;            // after fetch()
};

template <class Host, class T>
class TypedEnvImpl final : public TypedEnv {
  using Model = typename Host::Model;

 public:
  TypedEnvImpl(const VectorEnvConfig& c, const TerrainSpec& terrain, std::unique_ptr<EnvEngine<Model, T>> engine)
      : engine_(std::move(engine)) {
    host_.config = device_config<T>(c);
    host_.terrain = convert_terrain<T>(terrain.desc);
    for (double h : terrain.heightfield) host_.heightfield.push_back(T(h));
    host_.integrator = IntegratorSettings<T>{T(c.physics_step), 1, true};
    host_.base_params = {Host::template to_precision<T>(Host::Env::base(c))};
    host_.allocate(c.num_envs);
    engine_->upload_all(host_);
    engine_->reset(host_, nullptr);
  }

  void reset(const uint8_t* mask, const uint64_t* seed) override {
    if (seed) {
      host_.config.seed = *seed;
      engine_->restart_streams(host_);
    }
    engine_->reset(host_, mask);
  }
  int step(const float* actions, MemorySpace space) override { return engine_->step(host_, actions, space); }
  void fetch() override { engine_->download(host_); }
  MemorySpace space() const override { return engine_->space(); }
  void* stream() const override { return engine_->stream(); }
  void synchronize() override { engine_->synchronize(); }
  std::string device_name() const override { return engine_->device_name(); }
  Outputs outputs() override { return outputs_of(engine_->buffers(host_)); }
  Outputs host_outputs() override { return outputs_of(host_.view()); }
  void set_base_params(const std::vector<StrutParams<double>>& params) override { set_base(params); }
  void set_base_params(const std::vector<CeParams<double>>& params) override { set_base(params); }
  std::vector<double> episode_param(int index) override {
    std::vector<double> values;
    for (const auto& p : host_.params) values.push_back(double(reinterpret_cast<const T*>(&p)[index]));
    return values;
  }
  std::vector<double> state() override { return {host_.state.begin(), host_.state.end()}; }
  std::vector<double> origins() override { return {host_.origin.begin(), host_.origin.end()}; }
  std::vector<double> static_loads() override { return {host_.static_load.begin(), host_.static_load.end()}; }

 private:
  template <class P>
  void set_base(const std::vector<P>& params) {
    if constexpr (std::is_same_v<P, typename Host::Params>) {
      host_.base_params.clear();
      for (const auto& p : params) host_.base_params.push_back(Host::template to_precision<T>(p));
      engine_->upload_base_params(host_);
    } else {
      throw Error("VectorEnv: internal error: parameters of another model");
    }
  }
  static Outputs outputs_of(const EnvView<Model, T>& v) {
    return {v.obs,       v.reward,    v.final_obs,    v.final_return, v.terminated,
            v.truncated, v.has_final, v.final_length, v.end_reason};
  }
  EnvStorage<Model, T> host_;
  std::unique_ptr<EnvEngine<Model, T>> engine_;
};

template <class Host, class T>
std::unique_ptr<TypedEnv> make_typed_env(const VectorEnvConfig& c, const TerrainSpec& terrain, BackendKind backend) {
  using Model = typename Host::Model;
  auto engine = backend == BackendKind::Cuda ? make_cuda_env_engine<Model, T>()
                                             : make_cpu_env_engine<Model, T>(c.cpu_threads, c.cpu_simd);
  return std::make_unique<TypedEnvImpl<Host, T>>(c, terrain, std::move(engine));
}

template <class T>
std::unique_ptr<TypedEnv> make_typed_env(const VectorEnvConfig& c, const TerrainSpec& terrain, BackendKind backend) {
  return with_env_model(c.model, "model",
                        [&](auto host) { return make_typed_env<decltype(host), T>(c, terrain, backend); });
}

}  // namespace

struct VectorEnv::Impl {
  VectorEnvConfig config;
  TerrainSpec terrain;
  BackendKind backend = BackendKind::Cpu;
  std::string device;
  std::unique_ptr<TypedEnv> typed;
  // The base parameter sets, finalized: one or one per env, of the model's Params type.
  std::variant<
#define FLEETDYN_MODEL_BASES(id, name, host) std::vector<host::Params>,
      FLEETDYN_VEHICLE_MODELS(FLEETDYN_MODEL_BASES)
#undef FLEETDYN_MODEL_BASES
          std::monostate>
      bases;
  template <class Host>
  std::vector<typename Host::Params>& bases_of() {
    return std::get<static_cast<size_t>(Host::kModel)>(bases);
  }

  template <class E>
  std::vector<E> read(const E* TypedEnv::Outputs::*member, size_t per_env) {
    typed->fetch();
    const E* data = typed->host_outputs().*member;
    return std::vector<E>(data, data + per_env * static_cast<size_t>(config.num_envs));
  }
  int obs_dim = 0;  // from the resolved config, once
  int max_episode_steps = 0;
};

VectorEnv::VectorEnv(VectorEnvConfig config) : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  m.config = resolve(std::move(config));
  with_env_model(m.config.model, "model", [&m](auto host) {
    using Host = decltype(host);
    m.bases.emplace<static_cast<size_t>(Host::kModel)>(std::vector<typename Host::Params>{Host::Env::base(m.config)});
  });
  const env::EnvConfig<double> resolved = device_config<double>(m.config);
  m.obs_dim = resolved.obs_dim;
  m.max_episode_steps = resolved.max_episode_steps;
  if (m.config.task == EnvTask::ReachSpeed) {
    m.terrain = iso8608_road(m.config.road);
  }
  std::string why;
  const bool cuda = cuda_device_usable(&why);
  if (m.config.backend == BackendKind::Cuda && !cuda) throw Error("VectorEnv: backend 'cuda' requested but " + why);
  m.backend = (m.config.backend == BackendKind::Cpu || !cuda) ? BackendKind::Cpu : BackendKind::Cuda;
  m.typed = m.config.precision == Precision::Fp32 ? make_typed_env<float>(m.config, m.terrain, m.backend)
                                                  : make_typed_env<double>(m.config, m.terrain, m.backend);
  m.device = m.typed->device_name();
  if (m.backend == BackendKind::Cpu && m.config.backend == BackendKind::Auto) m.device += ", " + why;
}

VectorEnv::~VectorEnv() = default;
VectorEnv::VectorEnv(VectorEnv&&) noexcept = default;
VectorEnv& VectorEnv::operator=(VectorEnv&&) noexcept = default;

const VectorEnvConfig& VectorEnv::config() const { return impl_->config; }
int VectorEnv::num_envs() const { return impl_->config.num_envs; }
int VectorEnv::observation_size() const { return impl_->obs_dim; }
BackendKind VectorEnv::backend() const { return impl_->backend; }
const std::string& VectorEnv::device_name() const { return impl_->device; }
int VectorEnv::max_episode_steps() const { return impl_->max_episode_steps; }

std::vector<std::string> VectorEnv::observation_names() const {
  static const char* const kAxes[] = {"x", "y", "z"};
  static const char* const kCornerNames[] = {"fl", "fr", "rl", "rr"};
  std::vector<std::string> names;
  for (const std::string& f : impl_->config.observations) {
    if (f == "body_velocity") {
      for (const char* a : kAxes) names.push_back(f + "." + a);
    } else if (f == "roll_pitch") {
      names.push_back("roll");
      names.push_back("pitch");
    } else if (f == "wheel_speeds" || f == "wheel_loads") {
      for (const char* c : kCornerNames) names.push_back(f + "." + c);
    } else if (f == "pedals") {
      names.push_back("throttle");
      names.push_back("brake");
    } else if (f == "path_errors") {
      names.push_back("lateral_error");
      names.push_back("heading_error");
    } else if (f == "lookahead") {
      for (int k = 1; k <= impl_->config.lookahead_points; ++k) {
        names.push_back("lookahead" + std::to_string(k) + ".x");
        names.push_back("lookahead" + std::to_string(k) + ".y");
      }
    } else {
      names.push_back(f);
    }
  }
  return names;
}

void VectorEnv::reset(const uint8_t* mask) { impl_->typed->reset(mask, nullptr); }
void VectorEnv::reset_with_seed(uint64_t seed, const uint8_t* mask) {
  impl_->config.seed = seed;
  impl_->typed->reset(mask, &seed);
}

void VectorEnv::step(const float* actions, MemorySpace space) {
  if (!actions) throw Error("VectorEnv::step: null actions");
  if (space == MemorySpace::Device && impl_->backend != BackendKind::Cuda) {
    throw Error("VectorEnv::step: device actions given to a cpu env (pass host memory)");
  }
  const int bad = impl_->typed->step(actions, space);
  if (bad < num_envs()) {
    std::string values;
    if (space == MemorySpace::Host) {
      for (int j = 0; j < 3; ++j) values += (j ? ", " : "") + std::to_string(actions[static_cast<size_t>(bad) * 3 + j]);
      values = " (" + values + ")";
    }
    throw Error("VectorEnv::step: env " + std::to_string(bad) + " has a non-finite action" + values +
                "; actions are steer, throttle, brake; no env was stepped");
  }
}

MemorySpace VectorEnv::buffer_space() const { return impl_->typed->space(); }
const float* VectorEnv::observations() const { return impl_->typed->outputs().obs; }
const float* VectorEnv::rewards() const { return impl_->typed->outputs().reward; }
const uint8_t* VectorEnv::terminated() const { return impl_->typed->outputs().terminated; }
const uint8_t* VectorEnv::truncated() const { return impl_->typed->outputs().truncated; }
const float* VectorEnv::final_observations() const { return impl_->typed->outputs().final_obs; }
const uint8_t* VectorEnv::has_final() const { return impl_->typed->outputs().has_final; }
const float* VectorEnv::final_returns() const { return impl_->typed->outputs().final_return; }
const int32_t* VectorEnv::final_lengths() const { return impl_->typed->outputs().final_length; }
const int32_t* VectorEnv::end_reasons() const { return impl_->typed->outputs().end_reason; }
void VectorEnv::synchronize() { impl_->typed->synchronize(); }
void* VectorEnv::stream() const { return impl_->typed->stream(); }

std::vector<float> VectorEnv::read_observations() {
  return impl_->read(&TypedEnv::Outputs::obs, static_cast<size_t>(impl_->obs_dim));
}
std::vector<float> VectorEnv::read_rewards() { return impl_->read(&TypedEnv::Outputs::reward, 1); }
std::vector<uint8_t> VectorEnv::read_terminated() { return impl_->read(&TypedEnv::Outputs::terminated, 1); }
std::vector<uint8_t> VectorEnv::read_truncated() { return impl_->read(&TypedEnv::Outputs::truncated, 1); }
std::vector<float> VectorEnv::read_final_observations() {
  return impl_->read(&TypedEnv::Outputs::final_obs, static_cast<size_t>(impl_->obs_dim));
}
std::vector<uint8_t> VectorEnv::read_has_final() { return impl_->read(&TypedEnv::Outputs::has_final, 1); }
std::vector<float> VectorEnv::read_final_returns() { return impl_->read(&TypedEnv::Outputs::final_return, 1); }
std::vector<int32_t> VectorEnv::read_final_lengths() { return impl_->read(&TypedEnv::Outputs::final_length, 1); }
std::vector<int32_t> VectorEnv::read_end_reasons() { return impl_->read(&TypedEnv::Outputs::end_reason, 1); }

namespace {

// The base sets of a model, finalized and checked against the randomization, into the env.
template <class Host>
void set_model_base_params(VectorEnv::Impl& m, int num_envs, const std::vector<typename Host::Params>& params,
                           std::vector<typename Host::Params>& current) {
  if (params.size() != 1 && params.size() != static_cast<size_t>(num_envs)) {
    throw Error("VectorEnv::set_base_params: expected 1 or " + std::to_string(num_envs) + " parameter sets, got " +
                std::to_string(params.size()));
  }
  std::vector<typename Host::Params> finalized = params;
  for (size_t e = 0; e < finalized.size(); ++e) {
    try {
      Host::finalize(finalized[e]);
    } catch (const Error& err) {
      throw Error("VectorEnv::set_base_params: set " + std::to_string(e) + ": " + err.what());
    }
  }
  check_randomization<Host>(m.config.randomize, finalized);
  current = finalized;
  m.typed->set_base_params(finalized);
}

// One named parameter of every base set (values: 1 or num_envs, each in the field's range).
template <class Host>
void set_model_base_param(VectorEnv::Impl& m, int num_envs, const std::string& name, const std::vector<double>& values,
                          std::vector<typename Host::Params>& current) {
  const VehicleParamField& f = env_checks::param_field<Host>(name);
  if (values.size() != 1 && values.size() != static_cast<size_t>(num_envs)) {
    throw Error("VectorEnv::set_base_param(" + name + "): expected 1 or " + std::to_string(num_envs) + " values, got " +
                std::to_string(values.size()));
  }
  for (size_t e = 0; e < values.size(); ++e) {
    if (!(values[e] >= f.min && values[e] <= f.max)) {
      throw Error("VectorEnv::set_base_param(" + name + "): value " + num(values[e]) +
                  (values.size() > 1 ? " of env " + std::to_string(e) : "") + " is outside [" + num(f.min) + ", " +
                  num(f.max) + "] " + f.unit);
    }
  }
  const size_t count = std::max(values.size(), current.size());
  std::vector<typename Host::Params> sets(count);
  for (size_t e = 0; e < count; ++e) {
    sets[e] = current[current.size() == 1 ? 0 : e];
    *Host::field_ptr(sets[e], name) = values[values.size() == 1 ? 0 : e];
  }
  set_model_base_params<Host>(m, num_envs, sets, current);
}

}  // namespace

std::vector<std::string> env_randomizable_params(VehicleModel model) {
  return with_env_model(model, "model", [](auto host) {
    using Host = decltype(host);
    std::vector<std::string> names;
    for (const VehicleParamField& f : Host::fields()) {
      if (!Host::Env::fixed_reason(f.name)) names.push_back(f.name);
    }
    return names;
  });
}

namespace {
// The base sets P given to an env: its model's own type, or an error naming the type to pass.
template <class P>
void set_base_params_of(VectorEnv::Impl& m, int num_envs, const std::vector<P>& params) {
  with_env_model(m.config.model, "model", [&](auto host) {
    using Host = decltype(host);
    if constexpr (std::is_same_v<typename Host::Params, P>) {
      set_model_base_params<Host>(m, num_envs, params, m.bases_of<Host>());
    } else {
      throw Error(std::string("VectorEnv::set_base_params: this env runs the ") + model_name(Host::kModel) +
                  " model: pass " + Host::Env::kParamsHint);
    }
  });
}
}  // namespace

void VectorEnv::set_base_params(const std::vector<StrutParams<double>>& params) {
  set_base_params_of(*impl_, num_envs(), params);
}

void VectorEnv::set_base_params(const std::vector<CeParams<double>>& params) {
  set_base_params_of(*impl_, num_envs(), params);
}

void VectorEnv::set_base_param(const std::string& name, const std::vector<double>& values) {
  Impl& m = *impl_;
  with_env_model(m.config.model, "model", [&](auto host) {
    using Host = decltype(host);
    set_model_base_param<Host>(m, num_envs(), name, values, m.bases_of<Host>());
  });
}

std::vector<double> VectorEnv::episode_param(const std::string& name) {
  const int index = with_env_model(impl_->config.model, "model",
                                   [&](auto host) { return param_index<decltype(host)>(name, "episode_param"); });
  impl_->typed->fetch();
  return impl_->typed->episode_param(index);
}

std::vector<double> VectorEnv::read_state() {
  impl_->typed->fetch();
  return impl_->typed->state();
}
std::vector<double> VectorEnv::read_origins() {
  impl_->typed->fetch();
  return impl_->typed->origins();
}
std::vector<double> VectorEnv::read_static_loads() {
  impl_->typed->fetch();
  return impl_->typed->static_loads();
}

}  // namespace fleetdyn
