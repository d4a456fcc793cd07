// VectorEnv: configuration checks and defaults, and the backend-independent API over an env
// engine of the chosen precision and backend (host/env/env_storage.h).
#include "fleetdyn/vector_env.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

#include "fleetdyn/error.h"
#include "fleetdyn/vehicle.h"
#include "host/convert_scalars.h"
#include "host/cuda_engine.h"
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
    return {"body_velocity", "roll_pitch", "yaw_rate", "wheel_speeds", "steering", "pedals", "path_errors", "speed_error"};
  }
  return {"body_velocity", "roll_pitch", "yaw_rate", "steering", "pedals", "path_errors", "lookahead"};
}

namespace {

int feature_index(const std::string& name) {
  const auto& features = observation_features();
  for (size_t i = 0; i < features.size(); ++i) {
    if (name == features[i].name) return static_cast<int>(i);
  }
  std::string known;
  for (const auto& f : features) known += (known.empty() ? "" : ", ") + std::string(f.name);
  throw Error("VectorEnv: observations: unknown feature '" + name + "' (known: " + known + ")");
}

void require(bool ok, const std::string& field, const std::string& what) {
  if (!ok) throw Error("VectorEnv: " + field + ": " + what);
}

std::string num(double v) {
  std::string s = std::to_string(v);
  s.erase(s.find_last_not_of('0') + 1);
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s;
}

void require_range(double value, double lo, double hi, const std::string& field) {
  require(value >= lo && value <= hi, field, "must be in [" + num(lo) + ", " + num(hi) + "], got " + num(value));
}

// Index of a named parameter's scalar in VehicleParams (a struct of T only, so the same index
// in float and double).
int param_index(const std::string& name, const std::string& field) {
  VehicleParams<double> p{};
  const double* ptr = vehicle_param_ptr(p, name);
  if (!ptr) throw Error("VectorEnv: " + field + ": unknown vehicle parameter '" + name + "'");
  return static_cast<int>(ptr - reinterpret_cast<const double*>(&p));
}

const VehicleParamField& param_field(const std::string& name) {
  for (const VehicleParamField& f : vehicle_param_fields()) {
    if (name == f.name) return f;
  }
  throw Error("VectorEnv: unknown vehicle parameter '" + name + "'");
}

std::vector<ParamRandomization> default_randomization() {
  return {{"total_mass", 0.9, 1.15, true},
          {"cg_height", 0.95, 1.1, true},
          {"tire.mu", 0.7, 1.0, false},
          {"wheel_rate_front", 0.85, 1.15, true},
          {"wheel_rate_rear", 0.85, 1.15, true}};
}

// Checks a randomization set against every base parameter set: each drawn value inside the
// field's allowed range, and the worst corner (lightest vehicle with the heaviest wheels, lowest
// CG with the largest tire) still a valid vehicle.
void check_randomization(const std::vector<ParamRandomization>& set, const std::vector<VehicleParams<double>>& bases) {
  std::set<std::string> seen;
  for (size_t r = 0; r < set.size(); ++r) {
    const ParamRandomization& pr = set[r];
    const std::string field = "randomize[" + std::to_string(r) + "] (" + pr.name + ")";
    param_index(pr.name, field);
    require(seen.insert(pr.name).second, field, "randomized twice");
    require(std::isfinite(pr.lo) && std::isfinite(pr.hi) && pr.lo <= pr.hi, field,
            "needs finite lo <= hi, got [" + num(pr.lo) + ", " + num(pr.hi) + "]");
    if (pr.relative) require(pr.lo > 0.0, field, "a relative range needs lo > 0, got " + num(pr.lo));
  }
  require(set.size() <= static_cast<size_t>(env::kMaxRandomized), "randomize",
          "at most " + std::to_string(env::kMaxRandomized) + " parameters");
  for (size_t b = 0; b < bases.size(); ++b) {
    VehicleParams<double> worst = bases[b];
    for (size_t r = 0; r < set.size(); ++r) {
      const ParamRandomization& pr = set[r];
      const VehicleParamField& f = param_field(pr.name);
      const double base = vehicle_param(bases[b], pr.name);
      const double lo = pr.relative ? base * pr.lo : pr.lo, hi = pr.relative ? base * pr.hi : pr.hi;
      require(lo >= f.min && hi <= f.max, "randomize[" + std::to_string(r) + "] (" + pr.name + ")",
              "draws [" + num(lo) + ", " + num(hi) + "] " + f.unit + (bases.size() > 1 ? " for base set " + std::to_string(b) : "") +
                  ", outside the allowed [" + num(f.min) + ", " + num(f.max) + "]");
      const bool low_is_worse = pr.name == "total_mass" || pr.name == "cg_height";
      const bool high_is_worse = pr.name == "unsprung_mass_front" || pr.name == "unsprung_mass_rear" || pr.name == "tire.unloaded_radius";
      if (low_is_worse) *vehicle_param_ptr(worst, pr.name) = lo;
      if (high_is_worse) *vehicle_param_ptr(worst, pr.name) = hi;
    }
    try {
      finalize_vehicle_params(worst);
    } catch (const Error& e) {
      throw Error(std::string("VectorEnv: randomize: the extreme draws make an invalid vehicle: ") + e.what());
    }
  }
}

// The config with every default filled in, checked.
VectorEnvConfig resolve(VectorEnvConfig c) {
  require(c.num_envs >= 1, "num_envs", "must be at least 1, got " + std::to_string(c.num_envs));
  require(c.model == VehicleModel::Strut, "model",
          std::string("'") + model_name(c.model) + "' is not available in the vector env yet (strut is)");
  if (c.vehicle.total_mass == 0.0) c.vehicle = hmmwv_params();
  try {
    finalize_vehicle_params(c.vehicle);
  } catch (const Error& e) {
    throw Error(std::string("VectorEnv: vehicle: ") + e.what());
  }
  require(c.physics_step > 0.0 && c.physics_step <= 0.05, "physics_step", "must be in (0, 0.05] s, got " + num(c.physics_step));
  require(c.decimation >= 1 && c.decimation <= 100000, "decimation", "must be in [1, 100000], got " + std::to_string(c.decimation));
  require(c.time_limit > 0.0 && std::isfinite(c.time_limit), "time_limit", "must be positive, got " + num(c.time_limit));
  for (auto [value, field] : {std::pair{c.steer_rate, "steer_rate"}, {c.throttle_rate, "throttle_rate"}, {c.brake_rate, "brake_rate"}}) {
    require(value > 0.0 && std::isfinite(value), field, "must be positive, got " + num(value));
  }
  if (c.observations.empty()) c.observations = default_observations(c.task);
  require(c.observations.size() <= static_cast<size_t>(env::kMaxFeatures), "observations",
          "at most " + std::to_string(env::kMaxFeatures) + " features");
  std::set<std::string> seen;
  for (const std::string& f : c.observations) {
    feature_index(f);
    require(seen.insert(f).second, "observations", "feature '" + f + "' listed twice");
  }
  require(c.lookahead_points >= 1 && c.lookahead_points <= env::kMaxLookahead, "lookahead_points",
          "must be in [1, " + std::to_string(env::kMaxLookahead) + "], got " + std::to_string(c.lookahead_points));
  require(c.lookahead_spacing > 0.0, "lookahead_spacing", "must be positive, got " + num(c.lookahead_spacing));
  require(c.track_points >= 2 && c.track_points <= 100000, "track_points", "must be in [2, 100000], got " + std::to_string(c.track_points));
  require(c.track_spacing > 0.0, "track_spacing", "must be positive, got " + num(c.track_spacing));
  require(c.track_max_curvature >= 0.0 && c.track_max_curvature <= 0.5, "track_max_curvature",
          "must be in [0, 0.5] 1/m, got " + num(c.track_max_curvature));
  require(c.track_wavelength_min > 0.0 && c.track_wavelength_min <= c.track_wavelength_max, "track_wavelength_min",
          "needs 0 < track_wavelength_min <= track_wavelength_max");
  require(c.track_straight >= 0.0, "track_straight", "must not be negative");
  const double track_length = (c.track_points - 1) * c.track_spacing;
  require(track_length > (c.lookahead_points + 1) * c.lookahead_spacing + 10.0, "track_points",
          "the track (" + num(track_length) + " m) must be longer than the look-ahead span plus 10 m");
  require(c.road_half_width > 0.0, "road_half_width", "must be positive, got " + num(c.road_half_width));
  require(c.speed_min >= 0.0 && c.speed_min <= c.speed_max && c.speed_max <= 60.0, "speed_min",
          "needs 0 <= speed_min <= speed_max <= 60 m/s");
  require(c.target_speed_min >= 0.0 && c.target_speed_min <= c.target_speed_max && c.target_speed_max <= 60.0,
          "target_speed_min", "needs 0 <= target_speed_min <= target_speed_max <= 60 m/s");
  require(c.lateral_offset_max >= 0.0 && c.lateral_offset_max < c.road_half_width, "lateral_offset_max",
          "must be in [0, road_half_width)");
  require_range(c.heading_offset_max, 0.0, 1.5, "heading_offset_max");
  require(c.rollover_angle > 0.0 && c.rollover_angle <= 1.5707963267948966, "rollover_angle", "must be in (0, pi/2] rad");
  require(c.rollover_lift_time > 0.0, "rollover_lift_time", "must be positive");
  const bool speed_task = c.task == EnvTask::ReachSpeed;
  const auto weight = [](double& w, double fallback, const char* field) {
    if (w < 0.0) w = fallback;
    require(std::isfinite(w), field, "must be finite");
  };
  weight(c.w_progress, speed_task ? 0.0 : 1.0, "w_progress");
  weight(c.w_lateral, speed_task ? 0.2 : 1.0, "w_lateral");
  weight(c.w_heading, speed_task ? 0.0 : 1.0, "w_heading");
  weight(c.w_speed, speed_task ? 1.0 : 0.0, "w_speed");
  weight(c.w_steer_change, 0.1, "w_steer_change");
  weight(c.w_pedal_change, 0.05, "w_pedal_change");
  weight(c.w_crash, 50.0, "w_crash");
  if (c.use_default_randomization) {
    std::vector<ParamRandomization> all = default_randomization();
    for (const ParamRandomization& r : c.randomize) {
      auto same = std::find_if(all.begin(), all.end(), [&r](const ParamRandomization& d) { return d.name == r.name; });
      if (same != all.end()) {
        *same = r;  // the user's range replaces the default's
      } else {
        all.push_back(r);
      }
    }
    c.randomize = all;
    c.use_default_randomization = false;  // resolved: the list is now the whole set
  }
  check_randomization(c.randomize, {c.vehicle});
  if (speed_task) {
    iso8608_reference_psd(c.road.road_class);  // throws on a bad class
    require(c.road.width > 2.0 * c.road_half_width + 3.0, "road.width", "must exceed 2 road_half_width + 3 m");
    require(c.road.length > track_length + 40.0, "road.length",
            "must exceed the track (" + num(track_length) + " m) + 40 m: each episode starts somewhere on the road");
  }
  return c;
}

template <class T>
env::EnvConfig<T> device_config(const VectorEnvConfig& c) {
  env::EnvConfig<T> d{};
  const bool speed_task = c.task == EnvTask::ReachSpeed;
  d.task = speed_task ? env::kReachSpeed : env::kPathFollowing;
  d.decimation = c.decimation;
  d.env_dt = T(c.physics_step * c.decimation);
  d.max_episode_steps = std::max(1, static_cast<int>(std::ceil(c.time_limit / (c.physics_step * c.decimation) - 1e-9)));
  d.steer_rate = T(c.steer_rate);
  d.throttle_rate = T(c.throttle_rate);
  d.brake_rate = T(c.brake_rate);
  d.track_points = c.track_points;
  d.track_spacing = T(c.track_spacing);
  d.track_max_curvature = speed_task ? T(0) : T(c.track_max_curvature);
  d.track_wavelength_min = T(c.track_wavelength_min);
  d.track_wavelength_max = T(c.track_wavelength_max);
  d.track_straight = T(c.track_straight);
  d.road_half_width = T(c.road_half_width);
  if (speed_task) {  // somewhere along the rough road, the lane inside its width
    const double track_length = (c.track_points - 1) * c.track_spacing;
    const double lane = std::max(0.0, 0.5 * c.road.width - c.road_half_width - 1.5);
    d.start_x_min = T(20.0);
    d.start_x_max = T(std::max(20.0, c.road.length - track_length - 20.0));
    d.start_y_min = T(-lane);
    d.start_y_max = T(lane);
  }
  d.speed_min = T(c.speed_min);
  d.speed_max = T(c.speed_max);
  d.lateral_offset_max = T(c.lateral_offset_max);
  d.heading_offset_max = T(c.heading_offset_max);
  d.target_speed_min = T(c.target_speed_min);
  d.target_speed_max = T(c.target_speed_max);
  d.rollover_angle = T(c.rollover_angle);
  d.rollover_lift_time = T(c.rollover_lift_time);
  d.w_progress = T(c.w_progress);
  d.w_lateral = T(c.w_lateral);
  d.w_heading = T(c.w_heading);
  d.w_speed = T(c.w_speed);
  d.w_steer_change = T(c.w_steer_change);
  d.w_pedal_change = T(c.w_pedal_change);
  d.w_crash = T(c.w_crash);
  d.feature_count = static_cast<int>(c.observations.size());
  d.obs_dim = 0;
  for (int f = 0; f < d.feature_count; ++f) {
    d.features[f] = feature_index(c.observations[static_cast<size_t>(f)]);
    const int width = env::kFeatureWidth[d.features[f]];
    d.obs_dim += d.features[f] == env::kLookahead ? width * c.lookahead_points : width;
  }
  d.lookahead_count = c.lookahead_points;
  d.lookahead_spacing = T(c.lookahead_spacing);
  d.randomized_count = static_cast<int>(c.randomize.size());
  for (int r = 0; r < d.randomized_count; ++r) {
    const ParamRandomization& pr = c.randomize[static_cast<size_t>(r)];
    d.randomized[r] = {param_index(pr.name, "randomize"), pr.relative ? 1 : 0, T(pr.lo), T(pr.hi)};
  }
  d.seed = c.seed;
  return d;
}

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
  virtual void set_base_params(const std::vector<VehicleParams<double>>& params) = 0;
  virtual std::vector<double> episode_param(int index) = 0;  // after fetch()
  virtual std::vector<double> state() = 0;                   // after fetch()
  virtual std::vector<double> origins() = 0;                 // after fetch()
};

template <class Model, class T>
class TypedEnvImpl final : public TypedEnv {
 public:
  TypedEnvImpl(const VectorEnvConfig& c, const TerrainSpec& terrain, std::unique_ptr<EnvEngine<Model, T>> engine)
      : engine_(std::move(engine)) {
    host_.config = device_config<T>(c);
    host_.terrain = convert_terrain<T>(terrain.desc);
    for (double h : terrain.heightfield) host_.heightfield.push_back(T(h));
    host_.integrator = IntegratorSettings<T>{T(c.physics_step), 1, true};
    host_.base_params = {convert_params<T>(c.vehicle)};
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
  void set_base_params(const std::vector<VehicleParams<double>>& params) override {
    host_.base_params.clear();
    for (const auto& p : params) host_.base_params.push_back(convert_params<T>(p));
    engine_->upload_base_params(host_);
  }
  std::vector<double> episode_param(int index) override {
    std::vector<double> values;
    for (const auto& p : host_.params) values.push_back(double(reinterpret_cast<const T*>(&p)[index]));
    return values;
  }
  std::vector<double> state() override { return {host_.state.begin(), host_.state.end()}; }
  std::vector<double> origins() override { return {host_.origin.begin(), host_.origin.end()}; }

 private:
  static Outputs outputs_of(const EnvView<Model, T>& v) {
    return {v.obs, v.reward, v.final_obs, v.final_return, v.terminated, v.truncated, v.has_final, v.final_length, v.end_reason};
  }
  EnvStorage<Model, T> host_;
  std::unique_ptr<EnvEngine<Model, T>> engine_;
};

template <class T>
std::unique_ptr<TypedEnv> make_typed_env(const VectorEnvConfig& c, const TerrainSpec& terrain, BackendKind backend) {
  auto engine = backend == BackendKind::Cuda ? make_cuda_env_engine<StrutModel, T>()
                                             : make_cpu_env_engine<StrutModel, T>(c.cpu_threads, c.cpu_simd);
  return std::make_unique<TypedEnvImpl<StrutModel, T>>(c, terrain, std::move(engine));
}

}  // namespace

struct VectorEnv::Impl {
  VectorEnvConfig config;
  TerrainSpec terrain;
  BackendKind backend = BackendKind::Cpu;
  std::string device;
  std::unique_ptr<TypedEnv> typed;
  std::vector<VehicleParams<double>> base_params;

  template <class E>
  std::vector<E> read(const E* TypedEnv::Outputs::*member, size_t per_env) {
    typed->fetch();
    const E* data = typed->host_outputs().*member;
    return std::vector<E>(data, data + per_env * static_cast<size_t>(config.num_envs));
  }
  int obs_dim = 0;            // from the resolved config, once
  int max_episode_steps = 0;
};

VectorEnv::VectorEnv(VectorEnvConfig config) : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  m.config = resolve(std::move(config));
  m.base_params = {m.config.vehicle};
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

void VectorEnv::set_base_params(const std::vector<VehicleParams<double>>& params) {
  Impl& m = *impl_;
  if (params.size() != 1 && params.size() != static_cast<size_t>(num_envs())) {
    throw Error("VectorEnv::set_base_params: expected 1 or " + std::to_string(num_envs()) + " parameter sets, got " +
                std::to_string(params.size()));
  }
  std::vector<VehicleParams<double>> finalized = params;
  for (size_t e = 0; e < finalized.size(); ++e) {
    try {
      finalize_vehicle_params(finalized[e]);
    } catch (const Error& err) {
      throw Error("VectorEnv::set_base_params: set " + std::to_string(e) + ": " + err.what());
    }
  }
  check_randomization(m.config.randomize, finalized);
  m.base_params = finalized;
  m.typed->set_base_params(finalized);
}

void VectorEnv::set_base_param(const std::string& name, const std::vector<double>& values) {
  Impl& m = *impl_;
  const VehicleParamField& f = param_field(name);
  if (values.size() != 1 && values.size() != static_cast<size_t>(num_envs())) {
    throw Error("VectorEnv::set_base_param(" + name + "): expected 1 or " + std::to_string(num_envs()) + " values, got " +
                std::to_string(values.size()));
  }
  for (size_t e = 0; e < values.size(); ++e) {
    if (!(values[e] >= f.min && values[e] <= f.max)) {
      throw Error("VectorEnv::set_base_param(" + name + "): value " + num(values[e]) + (values.size() > 1 ? " of env " + std::to_string(e) : "") +
                  " is outside [" + num(f.min) + ", " + num(f.max) + "] " + f.unit);
    }
  }
  const size_t count = std::max(values.size(), m.base_params.size());
  std::vector<VehicleParams<double>> sets(count);
  for (size_t e = 0; e < count; ++e) {
    sets[e] = m.base_params[m.base_params.size() == 1 ? 0 : e];
    *vehicle_param_ptr(sets[e], name) = values[values.size() == 1 ? 0 : e];
  }
  set_base_params(sets);
}

std::vector<double> VectorEnv::episode_param(const std::string& name) {
  const int index = param_index(name, "episode_param");
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

}  // namespace fleetdyn
