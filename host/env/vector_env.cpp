// VectorEnv: configuration checks and defaults, and the backend-independent API over an env
// engine of the chosen model, precision and backend (host/env/env_storage.h).
#include "fleetdyn/vector_env.h"

#include <algorithm>
#include <cstdio>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <type_traits>

#include "fleetdyn/ce.h"
#include "fleetdyn/ce_fields.h"
#include "fleetdyn/error.h"
#include "fleetdyn/physics/ce_rest.h"
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
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);  // 1e-300 stays 1e-300, not 0
  return buf;
}

void require_range(double value, double lo, double hi, const std::string& field) {
  require(value >= lo && value <= hi, field, "must be in [" + num(lo) + ", " + num(hi) + "], got " + num(value));
}

// The host side of each model in the env: its base parameter type, field table by name,
// finalization and precision conversion.
template <class Model>
struct HostModel;

template <>
struct HostModel<StrutModel> {
  using Params = VehicleParams<double>;
  static constexpr const char* kWhat = "vehicle parameter";
  static const std::vector<VehicleParamField>& fields() { return vehicle_param_fields(); }
  static double* ptr(Params& p, const std::string& name) { return vehicle_param_ptr(p, name); }
  static void finalize(Params& p) { finalize_vehicle_params(p); }
  template <class T>
  static VehicleParams<T> convert(const Params& p) { return convert_params<T>(p); }
};

template <>
struct HostModel<CeModel> {
  using Params = CeParams<double>;
  static constexpr const char* kWhat = "ce parameter";
  static const std::vector<VehicleParamField>& fields() { return ce_param_fields(); }
  static double* ptr(Params& p, const std::string& name) { return ce_param_ptr(p, name); }
  static void finalize(Params& p) { finalize_ce_params(p); }
  template <class T>
  static CeParams<T> convert(const Params& p) { return convert_ce_params<T>(p); }
};

// Index of a named parameter's scalar in the model's parameter struct (a struct of T only, so
// the same index in float and double).
template <class Model>
int param_index(const std::string& name, const std::string& field) {
  typename HostModel<Model>::Params p{};
  const double* ptr = HostModel<Model>::ptr(p, name);
  if (!ptr) throw Error("VectorEnv: " + field + ": unknown " + HostModel<Model>::kWhat + " '" + name + "'");
  return static_cast<int>(ptr - reinterpret_cast<const double*>(&p));
}

int param_index(VehicleModel model, const std::string& name, const std::string& field) {
  return model == VehicleModel::Ce ? param_index<CeModel>(name, field) : param_index<StrutModel>(name, field);
}

template <class Model>
const VehicleParamField& param_field(const std::string& name) {
  for (const VehicleParamField& f : HostModel<Model>::fields()) {
    if (name == f.name) return f;
  }
  throw Error(std::string("VectorEnv: unknown ") + HostModel<Model>::kWhat + " '" + name + "'");
}

template <class Model>
double param_value(const typename HostModel<Model>::Params& p, const std::string& name) {
  return *HostModel<Model>::ptr(const_cast<typename HostModel<Model>::Params&>(p), name);
}

// ce fields the env does not draw at reset, and why: each is tied at construction to values the
// device does not recompute.
const char* ce_fixed_reason(const std::string& name) {
  const auto starts = [&name](const char* prefix) { return name.rfind(prefix, 0) == 0; };
  if (starts("bump_stop_length") || starts("rebound_stop_length")) {
    return "make_ce_params derives the bump travel limit from the stop lengths, and their order is checked with the "
           "geometry";
  }
  if (starts("droop_limit_lca") || starts("bump_limit_lca")) {
    return "the travel limits are set from the linkage's geometry when the parameters are made";
  }
  if (starts("travel_limit_stiffness")) return "the travel limits' stiffness sets the fastest mode, hence the stable step";
  if (name == "max_steer") return "the steering's assembly at full lock is searched on the host";
  return nullptr;
}

// strut fields the env does not draw at reset, and why: the model's parts are switched, not scattered.
const char* strut_fixed_reason(const std::string& name) {
  if (name == "tire_force_at_contact" || name == "linkage_geometry" || name == "progressive_spring") {
    return "a part of the model, on (1) or off (0): set it on the base parameters (set_base_param)";
  }
  return nullptr;
}

const char* fixed_reason(VehicleModel model, const std::string& name) {
  return model == VehicleModel::Ce ? ce_fixed_reason(name) : strut_fixed_reason(name);
}

// ce fields that move the rest state or enter a validity check of finalize_ce_params (inertias,
// the spring's free length against the bump stop): the host solves the rest state at every
// corner of their randomized box. The others (tire slip, damping, driveline, brakes, steering
// lag) only need their range.
const std::vector<std::string>& ce_statics_fields() {
  static const std::vector<std::string> names = {
      "chassis_mass", "chassis_com_x", "chassis_com_y", "chassis_com_z", "chassis_inertia_xx", "chassis_inertia_yy",
      "chassis_inertia_zz", "wheel_mass", "wheel_spin_inertia", "wheel_transverse_inertia", "spring_free_length_front",
      "spring_free_length_rear", "spring_rate_front", "spring_rate_rear", "spring_cubic_front", "spring_cubic_rear",
      "gravity", "tire.unloaded_radius", "tire.vertical_stiffness"};
  return names;
}

constexpr int kMaxCeStaticsRandomized = 10;  // 2^10 rest-state solves at construction, ~1 s

std::vector<ParamRandomization> default_randomization(const VectorEnvConfig& c) {
  if (c.model == VehicleModel::Ce) {
    // The strut default's scatter on the same vehicle: the chassis carries the payload; the CG
    // height range of strut's x[0.95, 1.1] on its 0.687 m, as an offset of the chassis COM.
    const double com_z = c.ce_vehicle.chassis_com.z;
    return {{"chassis_mass", 0.9, 1.15, true},
            {"chassis_com_z", com_z - 0.035, com_z + 0.07, false},
            {"tire.mu", 0.7, 1.0, false},
            {"spring_rate_front", 0.85, 1.15, true},
            {"spring_rate_rear", 0.85, 1.15, true}};
  }
  return {{"total_mass", 0.9, 1.15, true},
          {"cg_height", 0.95, 1.1, true},
          {"tire.mu", 0.7, 1.0, false},
          {"wheel_rate_front", 0.85, 1.15, true},
          {"wheel_rate_rear", 0.85, 1.15, true}};
}

std::string randomize_field(size_t r, const ParamRandomization& pr) {
  return "randomize[" + std::to_string(r) + "] (" + pr.name + ")";
}

// The entries on their own: known and randomizable names, each once, finite ordered bounds.
void check_randomization_entries(VehicleModel model, const std::vector<ParamRandomization>& set) {
  std::set<std::string> seen;
  for (size_t r = 0; r < set.size(); ++r) {
    const ParamRandomization& pr = set[r];
    const std::string field = randomize_field(r, pr);
    param_index(model, pr.name, field);
    if (const char* why = fixed_reason(model, pr.name)) {
      std::string allowed;
      for (const std::string& n : env_randomizable_params(model)) allowed += (allowed.empty() ? "" : ", ") + n;
      require(false, field,
              std::string("not randomizable in the ") + (model == VehicleModel::Ce ? "ce" : "strut") + " env: " + why +
                  " (randomizable: " + allowed + ")");
    }
    require(seen.insert(pr.name).second, field, "randomized twice");
    require(std::isfinite(pr.lo) && std::isfinite(pr.hi) && pr.lo <= pr.hi, field,
            "needs finite lo <= hi, got [" + num(pr.lo) + ", " + num(pr.hi) + "]");
    if (pr.relative) require(pr.lo > 0.0, field, "a relative range needs lo > 0, got " + num(pr.lo));
  }
  require(set.size() <= static_cast<size_t>(env::kMaxRandomized), "randomize",
          "at most " + std::to_string(env::kMaxRandomized) + " parameters");
}

// Every value entry r can draw for base set b lies in the field's allowed range; returns [lo, hi].
template <class Model>
std::pair<double, double> checked_draw_range(const ParamRandomization& pr, size_t r,
                                             const typename HostModel<Model>::Params& base, size_t b, size_t bases) {
  const VehicleParamField& f = param_field<Model>(pr.name);
  const double value = param_value<Model>(base, pr.name);
  const double lo = pr.relative ? value * pr.lo : pr.lo, hi = pr.relative ? value * pr.hi : pr.hi;
  require(lo >= f.min && hi <= f.max, randomize_field(r, pr),
          "draws [" + num(lo) + ", " + num(hi) + "] " + f.unit + (bases > 1 ? " for base set " + std::to_string(b) : "") +
              ", outside the allowed [" + num(f.min) + ", " + num(f.max) + "]");
  return {lo, hi};
}

// strut: every draw inside the field's allowed range, and the worst corner (lightest vehicle
// with the heaviest wheels, lowest CG with the largest tire) still a valid vehicle.
void check_randomization(const std::vector<ParamRandomization>& set, const std::vector<VehicleParams<double>>& bases) {
  check_randomization_entries(VehicleModel::Strut, set);
  for (size_t b = 0; b < bases.size(); ++b) {
    VehicleParams<double> worst = bases[b];
    for (size_t r = 0; r < set.size(); ++r) {
      const ParamRandomization& pr = set[r];
      const auto [lo, hi] = checked_draw_range<StrutModel>(pr, r, bases[b], b, bases.size());
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

// ce: every draw inside the field's allowed range; and at every corner of the box the
// statics fields (ce_statics_fields) span, a valid vehicle (finalize_ce_params) whose rest state
// exists (the Newton solve the device runs converges), stands on all four tires and rests inside
// the suspension's travel limits. The validity checks are convex in the parameters (inertia
// tensors, linear inequalities) and the rest state is smooth in them, so the corners stand for
// the box. Base sets that differ only in statics values (e.g. a chassis mass per env) share one
// box, the envelope of their ranges, so per-env values cost no more than one set.
void check_randomization(const std::vector<ParamRandomization>& set, const std::vector<CeParams<double>>& bases) {
  check_randomization_entries(VehicleModel::Ce, set);
  const std::vector<std::string>& statics = ce_statics_fields();
  struct Box {
    CeParams<double> representative;
    std::vector<double> lo, hi;  // per statics field
    size_t first_base;
  };
  std::vector<Box> boxes;
  std::map<std::string, size_t> box_of;  // the base's bytes with the statics fields zeroed
  for (size_t b = 0; b < bases.size(); ++b) {
    std::vector<double> lo(statics.size()), hi(statics.size());
    for (size_t k = 0; k < statics.size(); ++k) lo[k] = hi[k] = ce_param(bases[b], statics[k]);
    for (size_t r = 0; r < set.size(); ++r) {
      const auto range = checked_draw_range<CeModel>(set[r], r, bases[b], b, bases.size());
      const auto it = std::find(statics.begin(), statics.end(), set[r].name);
      if (it != statics.end()) {
        lo[static_cast<size_t>(it - statics.begin())] = range.first;
        hi[static_cast<size_t>(it - statics.begin())] = range.second;
      }
    }
    CeParams<double> blank = bases[b];
    for (const std::string& name : statics) *ce_param_ptr(blank, name) = 0.0;
    const std::string key(reinterpret_cast<const char*>(&blank), sizeof blank);
    const auto found = box_of.find(key);
    if (found == box_of.end()) {
      box_of.emplace(key, boxes.size());
      boxes.push_back({bases[b], lo, hi, b});
    } else {
      Box& box = boxes[found->second];
      for (size_t k = 0; k < statics.size(); ++k) {
        box.lo[k] = std::min(box.lo[k], lo[k]);
        box.hi[k] = std::max(box.hi[k], hi[k]);
      }
    }
  }
  for (const Box& box : boxes) {
    std::vector<size_t> varying;
    for (size_t k = 0; k < statics.size(); ++k) {
      if (box.lo[k] != box.hi[k]) varying.push_back(k);
    }
    require(varying.size() <= static_cast<size_t>(kMaxCeStaticsRandomized), "randomize",
            "at most " + std::to_string(kMaxCeStaticsRandomized) +
                " of the ce parameters that move the rest state (masses, COM, inertias, springs, tire radius and "
                "stiffness, gravity) may vary at once (randomized or between base sets): the host checks the rest "
                "state at every corner of their range");
    const std::string of_set = boxes.size() > 1 ? " (base set " + std::to_string(box.first_base) + " and those like it)" : "";
    for (size_t corner = 0; corner < (size_t(1) << varying.size()); ++corner) {
      CeParams<double> p = box.representative;
      std::string at;
      for (size_t k = 0; k < statics.size(); ++k) *ce_param_ptr(p, statics[k]) = box.lo[k];
      for (size_t j = 0; j < varying.size(); ++j) {
        const size_t k = varying[j];
        const double value = (corner >> j) & 1u ? box.hi[k] : box.lo[k];
        *ce_param_ptr(p, statics[k]) = value;
        at += (at.empty() ? "" : ", ") + statics[k] + " = " + num(value);
      }
      const std::string where = (at.empty() ? std::string("the base vehicle") : "the draw " + at) + of_set;
      try {
        finalize_ce_params(p);
      } catch (const Error& e) {
        throw Error("VectorEnv: randomize: " + where + " makes an invalid vehicle: " + e.what());
      }
      std::vector<double> s(kCeStateSize);
      const CeRestSolution<double> rest = ce_rest_solve(p, 0.0, s.data());
      require(rest.converged, "randomize",
              where + ": no static equilibrium found (the rest-state Newton solve ends at residual " + num(rest.residual) +
                  ")");
      for (int i = 0; i < kCorners; ++i) {
        static const char* const kCornerNames[] = {"front left", "front right", "rear left", "rear right"};
        const CeAxleForces<double>& a = p.axle[i / 2];
        const double lca = s[ce::kLca + i];
        require(rest.tire_load[i] > 0.0, "randomize", where + ": the " + kCornerNames[i] + " tire carries no load at rest");
        require(lca > a.droop_limit_lca && lca < a.bump_limit_lca, "randomize",
                where + ": the " + kCornerNames[i] + " suspension rests on its travel limit (LCA angle " + num(lca) +
                    " rad, limits [" + num(a.droop_limit_lca) + ", " + num(a.bump_limit_lca) + "])");
      }
    }
  }
}

// The config with every default filled in, checked.
VectorEnvConfig resolve(VectorEnvConfig c) {
  require(c.num_envs >= 1, "num_envs", "must be at least 1, got " + std::to_string(c.num_envs));
  const bool ce = c.model == VehicleModel::Ce;
  require(ce || c.model == VehicleModel::Strut, "model", "unknown model (strut and ce have a vector env)");
  if (ce) {
    if (c.ce_vehicle.chassis_mass == 0.0) c.ce_vehicle = hmmwv_ce_params();
    try {
      finalize_ce_params(c.ce_vehicle);
    } catch (const Error& e) {
      throw Error(std::string("VectorEnv: ce_vehicle: ") + e.what());
    }
  } else {
    if (c.vehicle.total_mass == 0.0) c.vehicle = hmmwv_params();
    try {
      finalize_vehicle_params(c.vehicle);
    } catch (const Error& e) {
      throw Error(std::string("VectorEnv: vehicle: ") + e.what());
    }
  }
  // Default step: the model's own, from the base vehicle's stiffest mode (RK4 stability with
  // margin; HMMWV: strut 1 ms, ce 2 ms); default control rate 50 Hz.
  if (c.physics_step < 0.0) {
    try {
      c.physics_step = ce ? ce_step_analysis(c.ce_vehicle).default_step : strut_default_step(c.vehicle);
    } catch (const Error& e) {
      throw Error(std::string("VectorEnv: physics_step: the default comes from the base vehicle's step analysis, which "
                              "failed (give physics_step, or fix the vehicle): ") + e.what());
    }
  }
  require(c.physics_step >= 1.0e-6 && c.physics_step <= 0.05, "physics_step", "must be in [1e-6, 0.05] s, got " + num(c.physics_step));
  if (c.decimation < 0) c.decimation = std::max(1, static_cast<int>(std::lround(0.02 / c.physics_step)));
  require(c.decimation >= 1 && c.decimation <= 100000, "decimation", "must be in [1, 100000], got " + std::to_string(c.decimation));
  // The episode's step count is an int.
  const double most_time = 1.0e9 * c.physics_step * c.decimation;
  require(c.time_limit > 0.0 && c.time_limit <= most_time, "time_limit",
          "must be in (0, " + num(most_time) + "] s (1e9 env steps), got " + num(c.time_limit));
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
  require(c.track_spacing > 0.0 && c.track_spacing <= 100.0, "track_spacing", "must be in (0, 100] m, got " + num(c.track_spacing));
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
    std::vector<ParamRandomization> all = default_randomization(c);
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
  if (ce) {
    check_randomization(c.randomize, std::vector<CeParams<double>>{c.ce_vehicle});
  } else {
    check_randomization(c.randomize, std::vector<VehicleParams<double>>{c.vehicle});
  }
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
    d.randomized[r] = {param_index(c.model, pr.name, "randomize"), pr.relative ? 1 : 0, T(pr.lo), T(pr.hi)};
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
  // The base parameters of the env's model (the VectorEnv checked which it is).
  virtual void set_base_params(const std::vector<VehicleParams<double>>& params) = 0;
  virtual void set_base_params(const std::vector<CeParams<double>>& params) = 0;
  virtual std::vector<double> episode_param(int index) = 0;  // after fetch()
  virtual std::vector<double> state() = 0;                   // after fetch()
  virtual std::vector<double> origins() = 0;                 // after fetch()
  virtual std::vector<double> static_loads() = 0;            // after fetch()
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
    if constexpr (std::is_same_v<Model, CeModel>) {
      host_.base_params = {HostModel<Model>::template convert<T>(c.ce_vehicle)};
    } else {
      host_.base_params = {HostModel<Model>::template convert<T>(c.vehicle)};
    }
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
  void set_base_params(const std::vector<VehicleParams<double>>& params) override { set_base(params); }
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
    if constexpr (std::is_same_v<P, typename HostModel<Model>::Params>) {
      host_.base_params.clear();
      for (const auto& p : params) host_.base_params.push_back(HostModel<Model>::template convert<T>(p));
      engine_->upload_base_params(host_);
    } else {
      throw Error("VectorEnv: internal error: parameters of another model");
    }
  }
  static Outputs outputs_of(const EnvView<Model, T>& v) {
    return {v.obs, v.reward, v.final_obs, v.final_return, v.terminated, v.truncated, v.has_final, v.final_length, v.end_reason};
  }
  EnvStorage<Model, T> host_;
  std::unique_ptr<EnvEngine<Model, T>> engine_;
};

template <class Model, class T>
std::unique_ptr<TypedEnv> make_typed_env(const VectorEnvConfig& c, const TerrainSpec& terrain, BackendKind backend) {
  auto engine = backend == BackendKind::Cuda ? make_cuda_env_engine<Model, T>()
                                             : make_cpu_env_engine<Model, T>(c.cpu_threads, c.cpu_simd);
  return std::make_unique<TypedEnvImpl<Model, T>>(c, terrain, std::move(engine));
}

template <class T>
std::unique_ptr<TypedEnv> make_typed_env(const VectorEnvConfig& c, const TerrainSpec& terrain, BackendKind backend) {
  return c.model == VehicleModel::Ce ? make_typed_env<CeModel, T>(c, terrain, backend)
                                     : make_typed_env<StrutModel, T>(c, terrain, backend);
}

}  // namespace

struct VectorEnv::Impl {
  VectorEnvConfig config;
  TerrainSpec terrain;
  BackendKind backend = BackendKind::Cpu;
  std::string device;
  std::unique_ptr<TypedEnv> typed;
  std::vector<VehicleParams<double>> base_params;  // strut
  std::vector<CeParams<double>> ce_base_params;    // ce

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
  if (m.config.model == VehicleModel::Ce) {
    m.ce_base_params = {m.config.ce_vehicle};
  } else {
    m.base_params = {m.config.vehicle};
  }
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
template <class Model>
void set_model_base_params(VectorEnv::Impl& m, int num_envs, const std::vector<typename HostModel<Model>::Params>& params,
                           std::vector<typename HostModel<Model>::Params>& current) {
  if (params.size() != 1 && params.size() != static_cast<size_t>(num_envs)) {
    throw Error("VectorEnv::set_base_params: expected 1 or " + std::to_string(num_envs) + " parameter sets, got " +
                std::to_string(params.size()));
  }
  std::vector<typename HostModel<Model>::Params> finalized = params;
  for (size_t e = 0; e < finalized.size(); ++e) {
    try {
      HostModel<Model>::finalize(finalized[e]);
    } catch (const Error& err) {
      throw Error("VectorEnv::set_base_params: set " + std::to_string(e) + ": " + err.what());
    }
  }
  check_randomization(m.config.randomize, finalized);
  current = finalized;
  m.typed->set_base_params(finalized);
}

// One named parameter of every base set (values: 1 or num_envs, each in the field's range).
template <class Model>
void set_model_base_param(VectorEnv::Impl& m, int num_envs, const std::string& name, const std::vector<double>& values,
                          std::vector<typename HostModel<Model>::Params>& current) {
  const VehicleParamField& f = param_field<Model>(name);
  if (values.size() != 1 && values.size() != static_cast<size_t>(num_envs)) {
    throw Error("VectorEnv::set_base_param(" + name + "): expected 1 or " + std::to_string(num_envs) + " values, got " +
                std::to_string(values.size()));
  }
  for (size_t e = 0; e < values.size(); ++e) {
    if (!(values[e] >= f.min && values[e] <= f.max)) {
      throw Error("VectorEnv::set_base_param(" + name + "): value " + num(values[e]) + (values.size() > 1 ? " of env " + std::to_string(e) : "") +
                  " is outside [" + num(f.min) + ", " + num(f.max) + "] " + f.unit);
    }
  }
  const size_t count = std::max(values.size(), current.size());
  std::vector<typename HostModel<Model>::Params> sets(count);
  for (size_t e = 0; e < count; ++e) {
    sets[e] = current[current.size() == 1 ? 0 : e];
    *HostModel<Model>::ptr(sets[e], name) = values[values.size() == 1 ? 0 : e];
  }
  set_model_base_params<Model>(m, num_envs, sets, current);
}

}  // namespace

std::vector<std::string> env_randomizable_params(VehicleModel model) {
  std::vector<std::string> names;
  const auto& fields = model == VehicleModel::Ce ? ce_param_fields() : vehicle_param_fields();
  for (const VehicleParamField& f : fields) {
    if (!fixed_reason(model, f.name)) names.push_back(f.name);
  }
  return names;
}

void VectorEnv::set_base_params(const std::vector<VehicleParams<double>>& params) {
  Impl& m = *impl_;
  if (m.config.model != VehicleModel::Strut) {
    throw Error("VectorEnv::set_base_params: this env runs the ce model: pass CeParams (e.g. hmmwv_ce_params())");
  }
  set_model_base_params<StrutModel>(m, num_envs(), params, m.base_params);
}

void VectorEnv::set_base_params(const std::vector<CeParams<double>>& params) {
  Impl& m = *impl_;
  if (m.config.model != VehicleModel::Ce) {
    throw Error("VectorEnv::set_base_params: this env runs the strut model: pass VehicleParams (e.g. hmmwv_params())");
  }
  set_model_base_params<CeModel>(m, num_envs(), params, m.ce_base_params);
}

void VectorEnv::set_base_param(const std::string& name, const std::vector<double>& values) {
  Impl& m = *impl_;
  if (m.config.model == VehicleModel::Ce) {
    set_model_base_param<CeModel>(m, num_envs(), name, values, m.ce_base_params);
  } else {
    set_model_base_param<StrutModel>(m, num_envs(), name, values, m.base_params);
  }
}

std::vector<double> VectorEnv::episode_param(const std::string& name) {
  const int index = param_index(impl_->config.model, name, "episode_param");
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
