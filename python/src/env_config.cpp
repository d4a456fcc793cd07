// fleetdyn.VectorEnv's configuration: each keyword's setter and getter on VectorEnvConfig, the
// vehicle per model through the model's env traits (host/<model>/<model>_env.h).
#include "env_config.h"

#include <climits>
#include <cmath>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "common.h"
#include "fleetdyn/error.h"
#include "fleetdyn/physics/env/env_config.h"
#include "fleetdyn/vehicle.h"
#include "host/ce/ce_env.h"
#include "host/strut/strut_env.h"

namespace fleetdyn {
namespace py_bindings {
namespace {

// ---- configuration from keywords ----------------------------------------------------------------

using Setter = std::function<void(VectorEnvConfig&, const py::handle&)>;
using Getter = std::function<py::object(const VectorEnvConfig&)>;
struct ConfigField {
  Setter set;
  Getter get;
};

std::string char_to_string(char c) { return std::string(1, c); }

// The `vehicle` keyword: the base parameters of the env's model (strut: StrutParams into
// VectorEnvConfig::vehicle; ce: CeParams into ::ce_vehicle), or a dict of overrides on that
// model's HMMWV. config_from sets `model` first, so the dict knows which model it overrides.
void set_vehicle(VectorEnvConfig& c, const py::handle& value) {
  bool set = false;
  with_env_model(c.model, [&](auto host) {
    using Host = decltype(host);
    using P = typename Host::Params;
    if (py::isinstance<P>(value)) {
      auto p = value.cast<P>();
      Host::finalize(p);
      Host::Env::base(c) = p;
      set = true;
    } else if (py::isinstance<py::dict>(value)) {
      P p = Host::preset("hmmwv");
      for (auto item : value.cast<py::dict>()) {
        const auto name = key_name(item.first, "vehicle");
        double* ptr = Host::field_ptr(p, name);
        if (!ptr) {
          throw py::key_error("vehicle: unknown " + std::string(Host::Env::kWhat) + " '" + name + "' (fleetdyn." +
                              Host::Env::kFieldsFunction + "() lists the names)");
        }
        *ptr = number_from(item.second, "vehicle['" + name + "']");
      }
      Host::finalize(p);
      Host::Env::base(c) = p;
      set = true;
    } else if (py::isinstance<StrutParams<double>>(value) || py::isinstance<CeParams<double>>(value)) {
      throw py::type_error(std::string("vehicle: this env runs the ") + model_name(Host::kModel) +
                           " model: pass a fleetdyn." + Host::Env::kParamsHint);
    }
  });
  if (set) return;
  throw py::type_error(
      "vehicle: expected a fleetdyn.StrutParams (strut), a fleetdyn.CeParams (ce) or a dict "
      "{name: value} of overrides on the model's HMMWV, got " +
      describe(value));
}

// A finite number; TypeError / ValueError naming `what` otherwise.
double finite_from(const py::handle& value, const std::string& what) {
  const double x = number_from(value, what);
  if (!std::isfinite(x))
    throw py::value_error(what + ": " + py::repr(py::float_(x)).cast<std::string>() + " is not finite");
  return x;
}

std::string string_from(const py::handle& value, const std::string& what) { return text_from(value, what); }

// Entry `index` of randomize: (name, lo, hi[, relative]) or {"name", "lo", "hi"[, "relative"]}.
ParamRandomization randomization_from(const py::handle& item, size_t index) {
  const std::string where = "randomize[" + std::to_string(index) + "]";
  ParamRandomization r;
  if (py::isinstance<py::dict>(item)) {
    auto d = item.cast<py::dict>();
    for (auto kv : d) {
      const auto key = key_name(kv.first, where);
      const std::string what = where + "['" + key + "']";
      if (key == "name") r.name = string_from(kv.second, what);
      else if (key == "lo") r.lo = number_from(kv.second, what);
      else if (key == "hi") r.hi = number_from(kv.second, what);
      else if (key == "relative") r.relative = bool_from(kv.second, what);
      else throw py::value_error(where + ": unknown key '" + key + "' (known: name, lo, hi, relative)");
    }
    if (!d.contains("name") || !d.contains("lo") || !d.contains("hi")) {
      throw py::value_error(where + ": each entry needs a 'name', 'lo' and 'hi' (and optionally 'relative')");
    }
    if (r.name.empty()) throw py::value_error(where + ": each entry needs a 'name'");
    return r;
  }
  if (!py::isinstance<py::tuple>(item) && !py::isinstance<py::list>(item)) {
    throw py::type_error(where + ": expected (name, lo, hi[, relative]) or a dict, got " + describe(item));
  }
  auto t = py::reinterpret_borrow<py::sequence>(item);
  if (t.size() < 3 || t.size() > 4) {
    throw py::value_error(where + ": expected (name, lo, hi[, relative]) or a dict, got " + std::to_string(t.size()) +
                          " values");
  }
  r.name = string_from(t[0], where + " name");
  r.lo = number_from(t[1], where + " lo");
  r.hi = number_from(t[2], where + " hi");
  if (t.size() == 4) r.relative = bool_from(t[3], where + " relative");
  return r;
}

const std::map<std::string, ConfigField>& config_fields() {
  static const std::map<std::string, ConfigField> fields = [] {
    std::map<std::string, ConfigField> f;
    // Numbers: ints as int, seeds as uint64, floats finite (negative values are the documented
    // "default" of physics_step, decimation and the weights; the library checks the ranges).
#define FLEETDYN_PY_FIELD(name, from)                                         \
  f[#name] = {[](VectorEnvConfig& c, const py::handle& v) { c.name = from; }, \
              [](const VectorEnvConfig& c) { return py::object(py::cast(c.name)); }};
#define FLEETDYN_PY_INT(name) \
  FLEETDYN_PY_FIELD(name, static_cast<int>(integer_in(v, "VectorEnv: " #name, INT32_MIN, INT32_MAX)))
#define FLEETDYN_PY_BOOL(name) FLEETDYN_PY_FIELD(name, bool_from(v, "VectorEnv: " #name))
#define FLEETDYN_PY_DOUBLE(name) FLEETDYN_PY_FIELD(name, finite_from(v, "VectorEnv: " #name))
    f["num_envs"] = {[](VectorEnvConfig& c, const py::handle& v) {
                       const long long n = integer_in(v, "VectorEnv: num_envs", INT32_MIN, INT32_MAX);
                       if (n > max_envs(c.model)) {  // the library's limit (fleetdyn/vector_env.h)
                         throw py::value_error("VectorEnv: num_envs: " + std::to_string(n) + " is above the " +
                                               model_name(c.model) + " env's maximum " + std::to_string(max_envs(c.model)) +
                                               " (the engines index their [field][env] arrays with 32-bit integers)");
                       }
                       c.num_envs = static_cast<int>(n);
                     },
                     [](const VectorEnvConfig& c) { return py::object(py::cast(c.num_envs)); }};
    // The range of a scenario file's cpu_threads (host/scenario/scenario.cpp).
    FLEETDYN_PY_FIELD(cpu_threads,
                      static_cast<int>(integer_in(v, "VectorEnv: cpu_threads (0: all hardware threads)", 0, kMaxCpuThreads)))
    FLEETDYN_PY_BOOL(cpu_simd)
    FLEETDYN_PY_FIELD(seed, uint64_from(v, "VectorEnv: seed"))
    FLEETDYN_PY_DOUBLE(physics_step)
    FLEETDYN_PY_INT(decimation)
    FLEETDYN_PY_DOUBLE(time_limit)
    FLEETDYN_PY_DOUBLE(steer_rate)
    FLEETDYN_PY_DOUBLE(throttle_rate)
    FLEETDYN_PY_DOUBLE(brake_rate)
    FLEETDYN_PY_INT(lookahead_points)
    FLEETDYN_PY_DOUBLE(lookahead_spacing)
    FLEETDYN_PY_INT(track_points)
    FLEETDYN_PY_DOUBLE(track_spacing)
    FLEETDYN_PY_DOUBLE(track_max_curvature)
    FLEETDYN_PY_DOUBLE(track_wavelength_min)
    FLEETDYN_PY_DOUBLE(track_wavelength_max)
    FLEETDYN_PY_DOUBLE(track_straight)
    FLEETDYN_PY_DOUBLE(road_half_width)
    FLEETDYN_PY_DOUBLE(speed_min)
    FLEETDYN_PY_DOUBLE(speed_max)
    FLEETDYN_PY_DOUBLE(lateral_offset_max)
    FLEETDYN_PY_DOUBLE(heading_offset_max)
    FLEETDYN_PY_DOUBLE(target_speed_min)
    FLEETDYN_PY_DOUBLE(target_speed_max)
    FLEETDYN_PY_DOUBLE(rollover_angle)
    FLEETDYN_PY_DOUBLE(rollover_lift_time)
    FLEETDYN_PY_DOUBLE(w_progress)
    FLEETDYN_PY_DOUBLE(w_lateral)
    FLEETDYN_PY_DOUBLE(w_heading)
    FLEETDYN_PY_DOUBLE(w_speed)
    FLEETDYN_PY_DOUBLE(w_steer_change)
    FLEETDYN_PY_DOUBLE(w_pedal_change)
    FLEETDYN_PY_DOUBLE(w_crash)
    FLEETDYN_PY_BOOL(use_default_randomization)
#undef FLEETDYN_PY_DOUBLE
#undef FLEETDYN_PY_BOOL
#undef FLEETDYN_PY_INT
#undef FLEETDYN_PY_FIELD
    // Enumerations by name.
#define FLEETDYN_PY_NAMED(name, from_name, to_name)                                                                     \
  f[#name] = {[](VectorEnvConfig& c, const py::handle& v) { c.name = from_name(string_from(v, "VectorEnv: " #name)); }, \
              [](const VectorEnvConfig& c) { return py::object(py::str(to_name(c.name))); }};
    FLEETDYN_PY_NAMED(model, parse_model, model_name)
    FLEETDYN_PY_NAMED(task, env_task_from_name, env_task_name)
    FLEETDYN_PY_NAMED(backend, parse_backend, backend_name)
    FLEETDYN_PY_NAMED(precision, parse_precision, precision_name)
#undef FLEETDYN_PY_NAMED
    f["vehicle"] = {[](VectorEnvConfig& c, const py::handle& v) { set_vehicle(c, v); },
                    [](const VectorEnvConfig& c) {
                      py::object out;
                      with_env_model(c.model, [&](auto host) { out = py::cast(decltype(host)::Env::base(c)); });
                      return out;
                    }};
    f["observations"] = {[](VectorEnvConfig& c, const py::handle& v) {
                           if (!py::isinstance<py::list>(v) && !py::isinstance<py::tuple>(v)) {
                             throw py::type_error("VectorEnv: observations: expected a list of feature names, got " +
                                                  describe(v));
                           }
                           std::vector<std::string> names;
                           for (auto item : v)
                             names.push_back(string_from(item, "VectorEnv: observations[" + std::to_string(names.size()) + "]"));
                           c.observations = names;
                         },
                         [](const VectorEnvConfig& c) { return py::object(py::cast(c.observations)); }};
    f["randomize"] = {[](VectorEnvConfig& c, const py::handle& v) {
                        if (!py::isinstance<py::list>(v) && !py::isinstance<py::tuple>(v)) {
                          throw py::type_error(
                              "randomize: expected a list of (name, lo, hi[, relative]) tuples or dicts, got " + describe(v));
                        }
                        c.randomize.clear();
                        for (auto item : v) {
                          ParamRandomization r = randomization_from(item, c.randomize.size());
                          for (const ParamRandomization& seen : c.randomize) {
                            if (seen.name == r.name) {
                              throw py::value_error("randomize[" + std::to_string(c.randomize.size()) + "] (" + r.name +
                                                    "): randomized twice");
                            }
                          }
                          c.randomize.push_back(r);
                        }
                      },
                      [](const VectorEnvConfig& c) {
                        py::list l;
                        for (const auto& r : c.randomize) {
                          py::dict d;
                          d["name"] = r.name;
                          d["lo"] = r.lo;
                          d["hi"] = r.hi;
                          d["relative"] = r.relative;
                          l.append(d);
                        }
                        return py::object(l);
                      }};
    f["road"] = {[](VectorEnvConfig& c, const py::handle& v) {
                   if (!py::isinstance<py::dict>(v))
                     throw py::type_error("road: expected a dict of rough-road settings, got " + describe(v));
                   for (auto kv : v.cast<py::dict>()) {
                     const auto key = key_name(kv.first, "road");
                     const std::string what = "road['" + key + "']";
                     const auto number = [&what](const py::handle& x) { return finite_from(x, what); };
                     auto& r = c.road;
                     if (key == "road_class") {
                       const auto s = string_from(kv.second, what);
                       if (s.size() != 1) throw py::value_error("road.road_class: expected one letter 'A' .. 'H'");
                       r.road_class = s[0];
                     } else if (key == "length") r.length = number(kv.second);
                     else if (key == "width") r.width = number(kv.second);
                     else if (key == "spacing_x") r.spacing_x = number(kv.second);
                     else if (key == "spacing_y") r.spacing_y = number(kv.second);
                     else if (key == "n_min") r.n_min = number(kv.second);
                     else if (key == "n_max") r.n_max = number(kv.second);
                     else if (key == "max_lateral_angle") r.max_lateral_angle = number(kv.second);
                     else if (key == "seed") r.seed = uint64_from(kv.second, what);
                     else
                       throw py::value_error("road: unknown key '" + key +
                                             "' (known: road_class, length, width, spacing_x, spacing_y, n_min, n_max, "
                                             "max_lateral_angle, seed)");
                   }
                 },
                 [](const VectorEnvConfig& c) {
                   py::dict d;
                   d["road_class"] = char_to_string(c.road.road_class);
                   d["length"] = c.road.length;
                   d["width"] = c.road.width;
                   d["spacing_x"] = c.road.spacing_x;
                   d["spacing_y"] = c.road.spacing_y;
                   d["n_min"] = c.road.n_min;
                   d["n_max"] = c.road.n_max;
                   d["max_lateral_angle"] = c.road.max_lateral_angle;
                   d["seed"] = c.road.seed;
                   return py::object(d);
                 }};
    return f;
  }();
  return fields;
}

std::string known_config_names() {
  std::string s;
  for (const auto& kv : config_fields()) s += (s.empty() ? "" : ", ") + kv.first;
  return s;
}

}  // namespace

VectorEnvConfig config_from(const py::dict& kwargs) {
  VectorEnvConfig c;
  const auto set = [&c](const std::string& key, const py::handle& value) {
    auto it = config_fields().find(key);
    if (it == config_fields().end()) {
      throw py::type_error("VectorEnv: unknown keyword '" + key + "' (known: " + known_config_names() + ")");
    }
    try {
      it->second.set(c, value);
    } catch (py::cast_error&) {
      throw py::type_error("VectorEnv: " + key + ": cannot use " + describe(value) + " here");
    }
  };
  for (auto item : kwargs) key_name(item.first, "VectorEnv");
  // `vehicle` and the num_envs limit depend on the model.
  if (kwargs.contains("model")) set("model", kwargs["model"]);
  for (auto item : kwargs) set(item.first.cast<std::string>(), item.second);
  return c;
}

py::dict config_dict(const VectorEnvConfig& c) {
  py::dict d;
  for (const auto& kv : config_fields()) d[py::str(kv.first)] = kv.second.get(c);
  return d;
}

}  // namespace py_bindings
}  // namespace fleetdyn
