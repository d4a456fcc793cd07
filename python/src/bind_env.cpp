// fleetdyn._fleetdyn.VectorEnvCore: the C++ vector environment (include/fleetdyn/vector_env.h)
// with its buffers as zero-copy BufferViews and actions from numpy or, on CUDA, from DLPack
// device tensors. The Gymnasium-style class fleetdyn.VectorEnv (python/fleetdyn/_vector_env.py)
// wraps it.
#include <climits>
#include <cmath>
#include <cstring>
#include <functional>
#include <map>
#include <memory>

#include "buffer_view.h"
#include "common.h"
#include "fleetdyn/ce.h"
#include "fleetdyn/ce_fields.h"
#include "fleetdyn/error.h"
#include "fleetdyn/physics/env/env_config.h"
#include "fleetdyn/vector_env.h"
#include "fleetdyn/vehicle.h"

#ifdef FLEETDYN_HAS_CUDA
#include <cuda_runtime.h>
#endif

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

// The `vehicle` keyword: the base parameters of the env's model (strut: VehicleParams into
// VectorEnvConfig::vehicle; ce: CeParams into ::ce_vehicle), or a dict of overrides on that
// model's HMMWV. config_from sets `model` first, so the dict knows which model it overrides.
void set_vehicle(VectorEnvConfig& c, const py::handle& value) {
  const bool ce = c.model == VehicleModel::Ce;
  if (py::isinstance<VehicleParams<double>>(value)) {
    if (ce) throw py::type_error("vehicle: this env runs the ce model: pass a fleetdyn.CeParams (hmmwv_ce_params())");
    auto p = value.cast<VehicleParams<double>>();
    finalize_vehicle_params(p);
    c.vehicle = p;
    return;
  }
  if (py::isinstance<CeParams<double>>(value)) {
    if (!ce) throw py::type_error("vehicle: a fleetdyn.CeParams needs model='ce'");
    auto p = value.cast<CeParams<double>>();
    finalize_ce_params(p);
    c.ce_vehicle = p;
    return;
  }
  if (py::isinstance<py::dict>(value)) {
    VehicleParams<double> strut = hmmwv_params();
    CeParams<double> ce_params = hmmwv_ce_params();
    for (auto item : value.cast<py::dict>()) {
      const auto name = key_name(item.first, "vehicle");
      double* ptr = ce ? ce_param_ptr(ce_params, name) : vehicle_param_ptr(strut, name);
      if (!ptr) {
        throw py::key_error("vehicle: unknown " + std::string(ce ? "ce " : "") + "parameter '" + name + "' (fleetdyn." +
                            (ce ? "ce_param_fields" : "vehicle_param_fields") + "() lists the names)");
      }
      *ptr = number_from(item.second, "vehicle['" + name + "']");
    }
    if (ce) {
      finalize_ce_params(ce_params);
      c.ce_vehicle = ce_params;
    } else {
      finalize_vehicle_params(strut);
      c.vehicle = strut;
    }
    return;
  }
  throw py::type_error("vehicle: expected a fleetdyn.VehicleParams (strut), a fleetdyn.CeParams (ce) or a dict "
                       "{name: value} of overrides on the model's HMMWV, got " + describe(value));
}

// A Python bool or numpy bool (not an int, None or a string); TypeError naming `what` otherwise.
bool bool_from(const py::handle& value, const std::string& what) {
  if (PyBool_Check(value.ptr())) return value.ptr() == Py_True;
  py::array a = py::array::ensure(value);
  if (a && a.ndim() == 0 && a.dtype().kind() == 'b') return a.attr("item")().cast<bool>();
  throw py::type_error(what + ": expected True or False, got " + describe(value));
}

// A finite number; TypeError / ValueError naming `what` otherwise.
double finite_from(const py::handle& value, const std::string& what) {
  const double x = number_from(value, what);
  if (!std::isfinite(x)) throw py::value_error(what + ": " + py::repr(py::float_(x)).cast<std::string>() + " is not finite");
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
    throw py::value_error(where + ": expected (name, lo, hi[, relative]) or a dict, got " + std::to_string(t.size()) + " values");
  }
  r.name = string_from(t[0], where + " name");
  r.lo = number_from(t[1], where + " lo");
  r.hi = number_from(t[2], where + " hi");
  if (t.size() == 4) r.relative = bool_from(t[3], where + " relative");
  return r;
}

// The most envs of a model: the engines index their [field][env] state arrays with 32-bit integers.
long long max_envs(VehicleModel model) { return INT32_MAX / (model == VehicleModel::Ce ? kCeStateSize : kStrutStateSize); }

const std::map<std::string, ConfigField>& config_fields() {
  static const std::map<std::string, ConfigField> fields = [] {
    std::map<std::string, ConfigField> f;
    // Numbers: ints as int, seeds as uint64, floats finite (negative values are the documented
    // "default" of physics_step, decimation and the weights; the library checks the ranges).
#define FLEETDYN_PY_FIELD(name, from)                                                                  \
  f[#name] = {[](VectorEnvConfig& c, const py::handle& v) { c.name = from; },                           \
              [](const VectorEnvConfig& c) { return py::object(py::cast(c.name)); }};
#define FLEETDYN_PY_INT(name) FLEETDYN_PY_FIELD(name, static_cast<int>(integer_in(v, "VectorEnv: " #name, INT32_MIN, INT32_MAX)))
#define FLEETDYN_PY_BOOL(name) FLEETDYN_PY_FIELD(name, bool_from(v, "VectorEnv: " #name))
#define FLEETDYN_PY_DOUBLE(name) FLEETDYN_PY_FIELD(name, finite_from(v, "VectorEnv: " #name))
    f["num_envs"] = {[](VectorEnvConfig& c, const py::handle& v) {
                       const long long n = integer_in(v, "VectorEnv: num_envs", INT32_MIN, INT32_MAX);
                       if (n > max_envs(c.model)) {
                         throw py::value_error("VectorEnv: num_envs: " + std::to_string(n) + " is above the " + model_name(c.model) +
                                               " env's maximum " + std::to_string(max_envs(c.model)) +
                                               " (the engines index their [field][env] arrays with 32-bit integers)");
                       }
                       c.num_envs = static_cast<int>(n);
                     },
                     [](const VectorEnvConfig& c) { return py::object(py::cast(c.num_envs)); }};
    // The range of a scenario file's cpu_threads (host/scenario.cpp).
    FLEETDYN_PY_FIELD(cpu_threads, static_cast<int>(integer_in(v, "VectorEnv: cpu_threads (0: all hardware threads)", 0, kMaxCpuThreads)))
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
    f["model"] = {[](VectorEnvConfig& c, const py::handle& v) { c.model = parse_model(string_from(v, "VectorEnv: model")); },
                  [](const VectorEnvConfig& c) { return py::object(py::str(model_name(c.model))); }};
    f["task"] = {[](VectorEnvConfig& c, const py::handle& v) { c.task = env_task_from_name(string_from(v, "VectorEnv: task")); },
                 [](const VectorEnvConfig& c) { return py::object(py::str(env_task_name(c.task))); }};
    f["backend"] = {[](VectorEnvConfig& c, const py::handle& v) { c.backend = parse_backend(string_from(v, "VectorEnv: backend")); },
                    [](const VectorEnvConfig& c) { return py::object(py::str(backend_name(c.backend))); }};
    f["precision"] = {[](VectorEnvConfig& c, const py::handle& v) { c.precision = parse_precision(string_from(v, "VectorEnv: precision")); },
                      [](const VectorEnvConfig& c) { return py::object(py::str(precision_name(c.precision))); }};
    f["vehicle"] = {[](VectorEnvConfig& c, const py::handle& v) { set_vehicle(c, v); },
                    [](const VectorEnvConfig& c) {
                      return c.model == VehicleModel::Ce ? py::cast(c.ce_vehicle) : py::cast(c.vehicle);
                    }};
    f["observations"] = {[](VectorEnvConfig& c, const py::handle& v) {
                           if (!py::isinstance<py::list>(v) && !py::isinstance<py::tuple>(v)) {
                             throw py::type_error("VectorEnv: observations: expected a list of feature names, got " + describe(v));
                           }
                           std::vector<std::string> names;
                           for (auto item : v) names.push_back(string_from(item, "VectorEnv: observations[" + std::to_string(names.size()) + "]"));
                           c.observations = names;
                         },
                         [](const VectorEnvConfig& c) { return py::object(py::cast(c.observations)); }};
    f["randomize"] = {[](VectorEnvConfig& c, const py::handle& v) {
                        if (!py::isinstance<py::list>(v) && !py::isinstance<py::tuple>(v)) {
                          throw py::type_error("randomize: expected a list of (name, lo, hi[, relative]) tuples or dicts, got " +
                                               describe(v));
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
                   if (!py::isinstance<py::dict>(v)) throw py::type_error("road: expected a dict of rough-road settings, got " + describe(v));
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

// ---- the core ----------------------------------------------------------------------------------------

#ifdef FLEETDYN_HAS_CUDA
void cuda_check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string("fleetdyn: ") + what + ": " + cudaGetErrorString(e));
}
#endif

class VectorEnvCore {
 public:
  explicit VectorEnvCore(const VectorEnvConfig& config) : env_(std::make_unique<VectorEnv>(config)) {
    if (env_->buffer_space() == MemorySpace::Device) {
#ifdef FLEETDYN_HAS_CUDA
      device_type_ = dlpack::kDLCUDA;
      cudaPointerAttributes attr{};
      cuda_check(cudaPointerGetAttributes(&attr, env_->observations()), "cudaPointerGetAttributes");
      device_id_ = attr.device;
      cuda_check(cudaEventCreateWithFlags(&action_event_, cudaEventDisableTiming), "cudaEventCreate");
#else
      throw Error("fleetdyn module: the env's buffers are in device memory but the module was built without CUDA");
#endif
    }
  }
  ~VectorEnvCore() {
    close();
#ifdef FLEETDYN_HAS_CUDA
    if (action_event_) cudaEventDestroy(action_event_);
#endif
  }
  VectorEnvCore(const VectorEnvCore&) = delete;
  VectorEnvCore& operator=(const VectorEnvCore&) = delete;

  VectorEnv& env() {
    if (closed_) throw Error("VectorEnv: the env is closed");
    return *env_;
  }
  bool on_device() const { return device_type_ == dlpack::kDLCUDA; }
  int32_t device_type() const { return device_type_; }
  int32_t device_id() const { return device_id_; }

  // Ends the env's use; its buffers live on while views of them do (each view holds this core),
  // and go with the core.
  void close() {
    retire_action();
    closed_ = true;
  }
  bool closed() const { return closed_; }

  void reset(const py::object& seed, const py::object& mask) {
    VectorEnv& e = env();
    std::vector<uint8_t> m;
    if (!mask.is_none()) {
      auto a = py::array::ensure(mask);
      if (!a || a.ndim() != 1 || a.shape(0) != e.num_envs()) {
        throw py::value_error("reset_mask: expected a 1-d array of num_envs (" + std::to_string(e.num_envs()) + ") booleans");
      }
      const char kind = a.dtype().kind();
      if (kind != 'b' && kind != 'i' && kind != 'u') {
        throw py::type_error("reset_mask: expected booleans, got dtype " + py::str(a.dtype()).cast<std::string>());
      }
      auto b = py::array_t<uint8_t, py::array::c_style | py::array::forcecast>::ensure(a.attr("astype")("bool").attr("view")("uint8"));
      m.assign(b.data(), b.data() + b.size());
    }
    const uint8_t* mp = mask.is_none() ? nullptr : m.data();
    const bool seeded = !seed.is_none();
    const uint64_t s = seeded ? uint64_from(seed, "seed") : 0;
    py::gil_scoped_release nogil;
    if (seeded) {
      e.reset_with_seed(s, mp);
    } else {
      e.reset(mp);
    }
  }

  void step(const py::object& actions) {
    VectorEnv& e = env();
    if (py::hasattr(actions, "__dlpack_device__") && !py::isinstance<py::array>(actions)) {
      const py::object reported = actions.attr("__dlpack_device__")();
      std::pair<int, int> dev;
      try {
        dev = reported.cast<std::pair<int, int>>();
      } catch (const py::cast_error&) {
        throw py::type_error("actions: __dlpack_device__() returned " + describe(reported) + ", not (device_type, device_id)");
      }
      if (dev.first == dlpack::kDLCUDA || dev.first == dlpack::kDLCUDAManaged) {
        step_device(actions, dev.second);
        return;
      }
    }
    py::array a = py::array::ensure(actions);
    if (!a) throw py::type_error("actions: expected an array of shape (num_envs, 3)");
    const char kind = a.dtype().kind();
    if (kind != 'f') {
      throw py::type_error("actions: expected floating-point values (float32), got dtype " + py::str(a.dtype()).cast<std::string>());
    }
    check_shape(a.ndim(), a.ndim() >= 1 ? a.shape(0) : 0, a.ndim() >= 2 ? a.shape(1) : 0,
                [&] {
                  std::string s = "(";
                  for (py::ssize_t d = 0; d < a.ndim(); ++d) s += (d ? ", " : "") + std::to_string(a.shape(d));
                  return s + (a.ndim() == 1 ? ",)" : ")");
                });
    auto f = py::array_t<float, py::array::c_style | py::array::forcecast>::ensure(a);
    py::gil_scoped_release nogil;
    e.step(f.data(), MemorySpace::Host);
  }

  BufferView view(const void* data, std::vector<int64_t> shape, ElementType type, const py::object& self) const {
    BufferView v;
    v.owner = self;
    v.data = data;
    v.shape = std::move(shape);
    v.type = type;
    v.device_type = device_type_;
    v.device_id = device_id_;
    v.stream = env_->stream();
    return v;
  }

 private:
  template <class ShapeFn>
  void check_shape(py::ssize_t ndim, int64_t rows, int64_t cols, ShapeFn shape) {
    const int n = env_->num_envs();
    if (ndim != 2 || rows != n || cols != VectorEnv::kActionSize) {
      throw py::value_error("actions: expected shape (" + std::to_string(n) + ", 3) (num_envs, [steer, throttle, brake]), got " +
                            shape());
    }
  }

  void step_device(const py::object& actions, int device_id) {
#ifdef FLEETDYN_HAS_CUDA
    if (!on_device()) {
      throw py::value_error("actions: a CUDA tensor was passed to an env on the CPU backend; pass a host (numpy) array");
    }
    if (device_id != device_id_) {
      throw py::value_error("actions: the tensor is on cuda:" + std::to_string(device_id) + ", the env on cuda:" +
                            std::to_string(device_id_));
    }
    // The producer orders its work before the env's stream (1: the legacy default stream).
    void* stream = env_->stream();
    py::object stream_arg = py::int_(stream ? reinterpret_cast<uintptr_t>(stream) : uintptr_t(1));
    ImportedTensor t = ImportedTensor::from_object(actions, stream_arg);
    const dlpack::DLTensor& d = t.tensor();
    if (d.dtype.code != dlpack::kDLFloat || d.dtype.bits != 32 || d.dtype.lanes != 1) {
      throw py::type_error("actions: expected float32 values, got " + describe_dlpack(d));
    }
    check_shape(d.ndim, d.ndim >= 1 ? d.shape[0] : 0, d.ndim >= 2 ? d.shape[1] : 0, [&] { return describe_dlpack(d); });
    if (d.strides && !((d.shape[1] == 1 || d.strides[1] == 1) && (d.shape[0] == 1 || d.strides[0] == d.shape[1]))) {
      throw py::value_error("actions: expected a contiguous row-major tensor (call .contiguous()), got strides (" +
                            std::to_string(d.strides[0]) + ", " + std::to_string(d.strides[1]) + ")");
    }
    const float* data = reinterpret_cast<const float*>(static_cast<const char*>(d.data) + d.byte_offset);
    {
      py::gil_scoped_release nogil;
      env_->step(data, MemorySpace::Device);
    }
    // Keep the tensor until the env's stream has read it: released after the next step was
    // enqueued, once this one's event has completed.
    retire_action();
    cuda_check(cudaEventRecord(action_event_, static_cast<cudaStream_t>(stream)), "cudaEventRecord");
    pending_action_ = std::move(t);
#else
    (void)actions;
    (void)device_id;
    throw py::value_error("actions: a CUDA tensor was passed to a fleetdyn module built without CUDA; pass a host (numpy) array");
#endif
  }

  void retire_action() {
#ifdef FLEETDYN_HAS_CUDA
    if (pending_action_.valid()) {
      if (action_event_) {
        py::gil_scoped_release nogil;
        cudaEventSynchronize(action_event_);
      }
      pending_action_.release();
    }
#endif
  }

  std::unique_ptr<VectorEnv> env_;
  bool closed_ = false;
  int32_t device_type_ = dlpack::kDLCPU;
  int32_t device_id_ = 0;
#ifdef FLEETDYN_HAS_CUDA
  cudaEvent_t action_event_ = nullptr;
  ImportedTensor pending_action_;
#endif
};

const std::vector<std::string>& end_reason_names() {
  static const std::vector<std::string> names = {"running", "rollover", "off_road", "diverged", "time_limit", "track_end"};
  return names;
}

}  // namespace

void bind_env(py::module_& m) {
  static_assert(env::kRunning == 0 && env::kRollover == 1 && env::kOffRoad == 2 && env::kDiverged == 3 &&
                    env::kTimeLimit == 4 && env::kTrackEnd == 5,
                "END_REASON_NAMES follow physics/env/env_config.h EndReason");
  m.attr("END_REASON_NAMES") = py::tuple(py::cast(end_reason_names()));
  m.def("vector_env_config_defaults", []() { return config_dict(VectorEnvConfig{}); },
        "Every VectorEnv keyword with its default (include/fleetdyn/vector_env.h documents each)");
  m.def("observation_features", []() {
    py::list l;
    for (const auto& f : observation_features()) {
      py::dict d;
      d["name"] = f.name;
      d["width"] = f.width;
      d["doc"] = f.doc;
      l.append(d);
    }
    return l;
  });
  m.def(
      "default_observations",
      [](const std::string& task) { return default_observations(env_task_from_name(task)); }, py::arg("task"));
  m.def(
      "env_randomizable_params", [](const std::string& model) { return env_randomizable_params(parse_model(model)); },
      py::arg("model"), "The parameter names the model's VectorEnv can randomize at reset (randomize=...)");

  using Core = VectorEnvCore;
  py::class_<Core>(m, "VectorEnvCore", "The C++ vector environment; use fleetdyn.VectorEnv")
      .def(py::init([](const py::dict& kwargs) {
             VectorEnvConfig c = config_from(kwargs);
             py::gil_scoped_release nogil;
             return std::make_unique<Core>(c);
           }),
           py::arg("config"))
      .def_property_readonly("num_envs", [](Core& c) { return c.env().num_envs(); })
      .def_property_readonly("observation_size", [](Core& c) { return c.env().observation_size(); })
      .def_property_readonly("observation_names", [](Core& c) { return c.env().observation_names(); })
      .def_property_readonly("action_size", [](Core&) { return VectorEnv::kActionSize; })
      .def_property_readonly("action_low", [](Core&) { return VectorEnv::action_low(); })
      .def_property_readonly("action_high", [](Core&) { return VectorEnv::action_high(); })
      .def_property_readonly("backend", [](Core& c) { return backend_name(c.env().backend()); })
      .def_property_readonly("device_name", [](Core& c) { return c.env().device_name(); })
      .def_property_readonly("max_episode_steps", [](Core& c) { return c.env().max_episode_steps(); })
      .def_property_readonly("on_device", &Core::on_device)
      .def_property_readonly("dlpack_device", [](Core& c) { return py::make_tuple(c.device_type(), c.device_id()); })
      .def_property_readonly("stream", [](Core& c) { return reinterpret_cast<uintptr_t>(c.env().stream()); },
                             "the env's cudaStream_t as an integer (0: none / the default stream)")
      .def_property_readonly("config", [](Core& c) { return config_dict(c.env().config()); }, "the resolved configuration")
      .def_property_readonly("closed", &Core::closed)
      .def("reset", &Core::reset, py::arg("seed") = py::none(), py::arg("mask") = py::none())
      .def("step", &Core::step, py::arg("actions"))
      .def("synchronize", [](Core& c) { c.env().synchronize(); }, py::call_guard<py::gil_scoped_release>())
      .def("close", &Core::close)
      // Zero-copy views of the buffers (overwritten by the next step / reset).
      .def("observations",
           [](py::object self) {
             Core& c = self.cast<Core&>();
             VectorEnv& e = c.env();
             return c.view(e.observations(), {e.num_envs(), e.observation_size()}, ElementType::Float32, self);
           })
      .def("rewards",
           [](py::object self) {
             Core& c = self.cast<Core&>();
             return c.view(c.env().rewards(), {c.env().num_envs()}, ElementType::Float32, self);
           })
      .def("terminated",
           [](py::object self) {
             Core& c = self.cast<Core&>();
             return c.view(c.env().terminated(), {c.env().num_envs()}, ElementType::Bool8, self);
           })
      .def("truncated",
           [](py::object self) {
             Core& c = self.cast<Core&>();
             return c.view(c.env().truncated(), {c.env().num_envs()}, ElementType::Bool8, self);
           })
      .def("final_observations",
           [](py::object self) {
             Core& c = self.cast<Core&>();
             VectorEnv& e = c.env();
             return c.view(e.final_observations(), {e.num_envs(), e.observation_size()}, ElementType::Float32, self);
           })
      .def("has_final",
           [](py::object self) {
             Core& c = self.cast<Core&>();
             return c.view(c.env().has_final(), {c.env().num_envs()}, ElementType::Bool8, self);
           })
      .def("final_returns",
           [](py::object self) {
             Core& c = self.cast<Core&>();
             return c.view(c.env().final_returns(), {c.env().num_envs()}, ElementType::Float32, self);
           })
      .def("final_lengths",
           [](py::object self) {
             Core& c = self.cast<Core&>();
             return c.view(c.env().final_lengths(), {c.env().num_envs()}, ElementType::Int32, self);
           })
      .def("end_reasons",
           [](py::object self) {
             Core& c = self.cast<Core&>();
             return c.view(c.env().end_reasons(), {c.env().num_envs()}, ElementType::Int32, self);
           })
      // Parameters.
      .def(
          "set_base_param",
          [](Core& c, const std::string& name, const py::object& values) {
            c.env().set_base_param(name, scalar_or_array(values, c.env().num_envs(), name.c_str()));
          },
          py::arg("name"), py::arg("values"))
      .def(
          "set_base_params",
          [](Core& c, const py::object& params) {
            // One parameter object or a list of them, of the env's model (VehicleParams or CeParams).
            std::vector<py::handle> items;
            if (py::isinstance<VehicleParams<double>>(params) || py::isinstance<CeParams<double>>(params)) {
              items.push_back(params);
            } else if (py::isinstance<py::list>(params) || py::isinstance<py::tuple>(params)) {
              for (auto p : params) items.push_back(p);
            } else {
              throw py::type_error("set_base_params: expected a fleetdyn.VehicleParams / CeParams (the env's model) or a list of "
                                   "them, got " + describe(params));
            }
            if (c.env().config().model == VehicleModel::Ce) {
              std::vector<CeParams<double>> ps;
              for (auto p : items) {
                if (!py::isinstance<CeParams<double>>(p)) throw py::type_error("set_base_params: the ce env takes fleetdyn.CeParams");
                ps.push_back(p.cast<CeParams<double>>());
              }
              for (auto& p : ps) finalize_ce_params(p);
              c.env().set_base_params(ps);
            } else {
              std::vector<VehicleParams<double>> ps;
              for (auto p : items) {
                if (!py::isinstance<VehicleParams<double>>(p)) {
                  throw py::type_error("set_base_params: the strut env takes fleetdyn.VehicleParams");
                }
                ps.push_back(p.cast<VehicleParams<double>>());
              }
              for (auto& p : ps) finalize_vehicle_params(p);
              c.env().set_base_params(ps);
            }
          },
          py::arg("params"))
      .def(
          "episode_param",
          [](Core& c, const std::string& name) {
            std::vector<double> v;
            {
              py::gil_scoped_release nogil;
              v = c.env().episode_param(name);
            }
            return copy_array(v.data(), {static_cast<py::ssize_t>(v.size())});
          },
          py::arg("name"))
      .def("read_state",
           [](Core& c) {
             const auto v = c.env().read_state();
             const py::ssize_t n = c.env().num_envs();
             return copy_array(v.data(), {static_cast<py::ssize_t>(v.size()) / n, n});
           })
      .def("read_origins",
           [](Core& c) {
             const auto v = c.env().read_origins();
             const py::ssize_t n = c.env().num_envs();
             return copy_array(v.data(), {static_cast<py::ssize_t>(v.size()) / n, n});
           })
      .def("read_static_loads", [](Core& c) {
        const auto v = c.env().read_static_loads();
        const py::ssize_t n = c.env().num_envs();
        return copy_array(v.data(), {static_cast<py::ssize_t>(v.size()) / n, n});
      });
}

}  // namespace py_bindings
}  // namespace fleetdyn
