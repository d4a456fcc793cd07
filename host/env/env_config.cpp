// VectorEnv: its configuration's defaults and checks, per model through the models' env traits
// (host/strut/strut_env.h, host/ce/ce_env.h).
#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "fleetdyn/error.h"
#include "fleetdyn/physics/env/env_config.h"
#include "fleetdyn/rough_road.h"
#include "host/env/env_models.h"

namespace fleetdyn {
namespace env_checks {

int feature_index(const std::string& name) {
  const auto& features = observation_features();
  for (size_t i = 0; i < features.size(); ++i) {
    if (name == features[i].name) return static_cast<int>(i);
  }
  std::string known;
  for (const auto& f : features) known += (known.empty() ? "" : ", ") + std::string(f.name);
  throw Error("VectorEnv: observations: unknown feature '" + name + "' (known: " + known + ")");
}

namespace {

void require_range(double value, double lo, double hi, const std::string& field) {
  require(value >= lo && value <= hi, field, "must be in [" + num(lo) + ", " + num(hi) + "], got " + num(value));
}

}  // namespace

template <class Host>
VectorEnvConfig resolve_for(VectorEnvConfig c);

// The config with every default filled in, checked.
VectorEnvConfig resolve(VectorEnvConfig c) {
  const int most = max_envs(c.model);
  require(c.num_envs >= 1 && c.num_envs <= most, "num_envs",
          "must be in [1, " + std::to_string(most) + "] for the " + model_name(c.model) +
              " model (the engines index the env's arrays with 32-bit ints), got " + std::to_string(c.num_envs));
  return with_env_model(c.model, "model", [&](auto host) { return resolve_for<decltype(host)>(std::move(c)); });
}

// resolve() for the model's traits Host.
template <class Host>
VectorEnvConfig resolve_for(VectorEnvConfig c) {
  using Env = typename Host::Env;
  Env::default_base(c);
  try {
    Host::finalize(Env::base(c));
  } catch (const Error& e) {
    throw Error(std::string("VectorEnv: ") + Env::kConfigField + ": " + e.what());
  }
  // Default step: the model's own, from the base vehicle's stiffest mode (RK4 stability with
  // margin; HMMWV: strut 1 ms, ce 2 ms); default control rate 50 Hz.
  if (c.physics_step < 0.0) {
    try {
      c.physics_step = Host::step_analysis(Env::base(c)).default_step;
    } catch (const Error& e) {
      throw Error(std::string("VectorEnv: physics_step: the default comes from the base vehicle's step analysis, which "
                              "failed (give physics_step, or fix the vehicle): ") +
                  e.what());
    }
  }
  require(c.physics_step >= 1.0e-6 && c.physics_step <= 0.05, "physics_step",
          "must be in [1e-6, 0.05] s, got " + num(c.physics_step));
  if (c.decimation < 0) c.decimation = std::max(1, static_cast<int>(std::lround(0.02 / c.physics_step)));
  require(c.decimation >= 1 && c.decimation <= 100000, "decimation",
          "must be in [1, 100000], got " + std::to_string(c.decimation));
  // The episode's step count is an int.
  const double most_time = 1.0e9 * c.physics_step * c.decimation;
  require(c.time_limit > 0.0 && c.time_limit <= most_time, "time_limit",
          "must be in (0, " + num(most_time) + "] s (1e9 env steps), got " + num(c.time_limit));
  for (auto [value, field] :
       {std::pair{c.steer_rate, "steer_rate"}, {c.throttle_rate, "throttle_rate"}, {c.brake_rate, "brake_rate"}}) {
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
  require(c.track_points >= 2 && c.track_points <= 100000, "track_points",
          "must be in [2, 100000], got " + std::to_string(c.track_points));
  require(c.track_spacing > 0.0 && c.track_spacing <= 100.0, "track_spacing",
          "must be in (0, 100] m, got " + num(c.track_spacing));
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
  require(c.rollover_angle > 0.0 && c.rollover_angle <= 1.5707963267948966, "rollover_angle",
          "must be in (0, pi/2] rad");
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
    std::vector<ParamRandomization> all = Env::default_randomization(c);
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
  check_randomization<Host>(c.randomize, std::vector<typename Host::Params>{Env::base(c)});
  if (speed_task) {
    iso8608_reference_psd(c.road.road_class);  // throws on a bad class
    require(c.road.width > 2.0 * c.road_half_width + 3.0, "road.width", "must exceed 2 road_half_width + 3 m");
    require(c.road.length > track_length + 40.0, "road.length",
            "must exceed the track (" + num(track_length) + " m) + 40 m: each episode starts somewhere on the road");
  }
  return c;
}

// The resolved config in the device's form (physics/env/env_config.h): what every env routine reads.
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
    const int index = with_env_model(c.model, "model",
                                     [&](auto host) { return param_index<decltype(host)>(pr.name, "randomize"); });
    d.randomized[r] = {index, pr.relative ? 1 : 0, T(pr.lo), T(pr.hi)};
  }
  d.seed = c.seed;
  return d;
}

template env::EnvConfig<float> device_config<float>(const VectorEnvConfig&);
template env::EnvConfig<double> device_config<double>(const VectorEnvConfig&);

}  // namespace env_checks

// INT_MAX over the largest per-env row count of the int-indexed [row][env] arrays: the state
// (Model::kStateSize rows: strut 49, ce 34), the wheel loads (kCorners), actuator and command
// (3), the origin (2). So their largest index, rows * num_envs - 1, is an int, and so is the CUDA
// corner kernels' thread count kCorners * num_envs rounded up to whole blocks (the state has
// more rows than kCorners). The track, observation and action rows are indexed in size_t.
int max_envs(VehicleModel model) {
  const int state_rows = with_model(model, [](auto host) { return decltype(host)::kStateSize; });
  return std::numeric_limits<int>::max() / std::max({state_rows, kCorners, 3, 2});
}

}  // namespace fleetdyn
