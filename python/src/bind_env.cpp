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
#include "env_config.h"
#include "fleetdyn/error.h"
#include "fleetdyn/physics/env/env_config.h"
#include "fleetdyn/vector_env.h"
#include "fleetdyn/vehicle.h"
#include "host/batch/vehicle_models.h"

#ifdef FLEETDYN_HAS_CUDA
#include <cuda_runtime.h>
#endif

namespace fleetdyn {
namespace py_bindings {
namespace {

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
        throw py::value_error("reset_mask: expected a 1-d array of num_envs (" + std::to_string(e.num_envs()) +
                              ") booleans");
      }
      const char kind = a.dtype().kind();
      if (kind != 'b' && kind != 'i' && kind != 'u') {
        throw py::type_error("reset_mask: expected booleans, got dtype " + py::str(a.dtype()).cast<std::string>());
      }
      auto b = py::array_t<uint8_t, py::array::c_style | py::array::forcecast>::ensure(
          a.attr("astype")("bool").attr("view")("uint8"));
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
        throw py::type_error("actions: __dlpack_device__() returned " + describe(reported) +
                             ", not (device_type, device_id)");
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
      throw py::type_error("actions: expected floating-point values (float32), got dtype " +
                           py::str(a.dtype()).cast<std::string>());
    }
    check_shape(a.ndim(), a.ndim() >= 1 ? a.shape(0) : 0, a.ndim() >= 2 ? a.shape(1) : 0, [&] {
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
      throw py::value_error("actions: expected shape (" + std::to_string(n) +
                            ", 3) (num_envs, [steer, throttle, brake]), got " + shape());
    }
  }

  void step_device(const py::object& actions, int device_id) {
#ifdef FLEETDYN_HAS_CUDA
    if (!on_device()) {
      throw py::value_error(
          "actions: a CUDA tensor was passed to an env on the CPU backend; pass a host (numpy) array");
    }
    if (device_id != device_id_) {
      throw py::value_error("actions: the tensor is on cuda:" + std::to_string(device_id) +
                            ", the env on cuda:" + std::to_string(device_id_));
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
    throw py::value_error(
        "actions: a CUDA tensor was passed to a fleetdyn module built without CUDA; pass a host (numpy) array");
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
  static const std::vector<std::string> names = {"running",  "rollover",   "off_road",
                                                 "diverged", "time_limit", "track_end"};
  return names;
}

// A zero-copy view of one of the env's buffers: [num_envs], or [num_envs][observation_size()]
// where `observation_rows`.
template <class E>
auto buffer(const E* (VectorEnv::*get)() const, ElementType type, bool observation_rows = false) {
  return [get, type, observation_rows](py::object self) {
    VectorEnvCore& c = self.cast<VectorEnvCore&>();
    VectorEnv& e = c.env();
    std::vector<int64_t> shape{e.num_envs()};
    if (observation_rows) shape.push_back(e.observation_size());
    return c.view((e.*get)(), std::move(shape), type, self);
  };
}

}  // namespace

void bind_env(py::module_& m) {
  static_assert(env::kRunning == 0 && env::kRollover == 1 && env::kOffRoad == 2 && env::kDiverged == 3 &&
                    env::kTimeLimit == 4 && env::kTrackEnd == 5,
                "END_REASON_NAMES follow physics/env/env_config.h EndReason");
  m.attr("END_REASON_NAMES") = py::tuple(py::cast(end_reason_names()));
  m.def(
      "vector_env_config_defaults", []() { return config_dict(VectorEnvConfig{}); },
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
      "default_observations", [](const std::string& task) { return default_observations(env_task_from_name(task)); },
      py::arg("task"));
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
      .def_property_readonly(
          "stream", [](Core& c) { return reinterpret_cast<uintptr_t>(c.env().stream()); },
          "the env's cudaStream_t as an integer (0: none / the default stream)")
      .def_property_readonly(
          "config", [](Core& c) { return config_dict(c.env().config()); }, "the resolved configuration")
      .def_property_readonly("closed", &Core::closed)
      .def("reset", &Core::reset, py::arg("seed") = py::none(), py::arg("mask") = py::none())
      .def("step", &Core::step, py::arg("actions"))
      .def(
          "synchronize", [](Core& c) { c.env().synchronize(); }, py::call_guard<py::gil_scoped_release>())
      .def("close", &Core::close)
      // Zero-copy views of the buffers (overwritten by the next step / reset).
      .def("observations", buffer(&VectorEnv::observations, ElementType::Float32, true))
      .def("rewards", buffer(&VectorEnv::rewards, ElementType::Float32))
      .def("terminated", buffer(&VectorEnv::terminated, ElementType::Bool8))
      .def("truncated", buffer(&VectorEnv::truncated, ElementType::Bool8))
      .def("final_observations", buffer(&VectorEnv::final_observations, ElementType::Float32, true))
      .def("has_final", buffer(&VectorEnv::has_final, ElementType::Bool8))
      .def("final_returns", buffer(&VectorEnv::final_returns, ElementType::Float32))
      .def("final_lengths", buffer(&VectorEnv::final_lengths, ElementType::Int32))
      .def("end_reasons", buffer(&VectorEnv::end_reasons, ElementType::Int32))
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
            // One parameter object or a list of them, of the env's model (StrutParams or CeParams).
            std::vector<py::handle> items;
            if (py::isinstance<StrutParams<double>>(params) || py::isinstance<CeParams<double>>(params)) {
              items.push_back(params);
            } else if (py::isinstance<py::list>(params) || py::isinstance<py::tuple>(params)) {
              for (auto p : params) items.push_back(p);
            } else {
              throw py::type_error(
                  "set_base_params: expected a fleetdyn.StrutParams / CeParams (the env's model) or a list of "
                  "them, got " +
                  describe(params));
            }
            with_env_model(c.env().config().model, [&](auto host) {
              using Host = decltype(host);
              using P = typename Host::Params;
              std::vector<P> ps;
              for (auto p : items) {
                if (!py::isinstance<P>(p)) {
                  throw py::type_error(std::string("set_base_params: the ") + model_name(Host::kModel) +
                                       " env takes fleetdyn." + Host::kParamsTypeName);
                }
                ps.push_back(p.cast<P>());
              }
              for (auto& p : ps) Host::finalize(p);
              c.env().set_base_params(ps);
            });
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
