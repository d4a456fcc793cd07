// fleetdyn._fleetdyn: the compiled half of the Python package fleetdyn (python/fleetdyn/ is the
// other half). fleetdyn::Error becomes fleetdyn.Error (a RuntimeError) with the same message.
#include <string>

#include "common.h"
#include "fleetdyn/error.h"

namespace fleetdyn {
namespace py_bindings {

VehicleModel parse_model(const std::string& name) {
  if (name == "strut") return VehicleModel::Strut;
  if (name == "ce") return VehicleModel::Ce;
  throw py::value_error("unknown model '" + name + "' (known: strut, ce)");
}

BackendKind parse_backend(const std::string& name) {
  if (name == "auto") return BackendKind::Auto;
  if (name == "cpu") return BackendKind::Cpu;
  if (name == "cuda") return BackendKind::Cuda;
  throw py::value_error("unknown backend '" + name + "' (known: auto, cpu, cuda)");
}

Precision parse_precision(const std::string& name) {
  if (name == "fp32") return Precision::Fp32;
  if (name == "fp64") return Precision::Fp64;
  throw py::value_error("unknown precision '" + name + "' (known: fp32, fp64)");
}

std::vector<double> scalar_or_array(const py::handle& value, int n, const char* what) {
  auto a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(value);
  if (!a) throw py::type_error(std::string(what) + ": expected a number or an array of numbers");
  if (a.ndim() == 0) return {*a.data()};
  if (a.ndim() != 1 || (a.shape(0) != 1 && a.shape(0) != n)) {
    std::string shape;
    for (py::ssize_t d = 0; d < a.ndim(); ++d) shape += (d ? ", " : "") + std::to_string(a.shape(d));
    throw py::value_error(std::string(what) + ": expected a number or a 1-d array of length 1 or " +
                          std::to_string(n) + ", got shape (" + shape + ")");
  }
  return std::vector<double>(a.data(), a.data() + a.shape(0));
}

}  // namespace py_bindings
}  // namespace fleetdyn

PYBIND11_MODULE(_fleetdyn, m) {
  namespace py = pybind11;
  using namespace fleetdyn::py_bindings;
  m.doc() = "fleetdyn: batched ground-vehicle dynamics on CPU and GPU (compiled core; use the package fleetdyn)";
  m.attr("__version__") = FLEETDYN_VERSION;
#ifdef FLEETDYN_HAS_CUDA
  m.attr("built_with_cuda") = true;
#else
  m.attr("built_with_cuda") = false;
#endif
#ifdef FLEETDYN_PY_HAVE_SCENARIOS
  m.attr("has_scenarios") = true;
#else
  m.attr("has_scenarios") = false;
#endif
  py::register_exception<fleetdyn::Error>(m, "Error", PyExc_RuntimeError);
  m.attr("Error").attr("__doc__") = "An error reported by the fleetdyn C++ library (its message unchanged).";
  m.attr("Error").attr("__module__") = "fleetdyn";

  m.def(
      "cuda_available",
      []() {
        std::string why;
        const bool ok = fleetdyn::cuda_available(&why);
        return py::make_tuple(ok, why);
      },
      "(available, why): whether this build has CUDA and a usable device, and the device name or the reason");
  // Test hook: throws fleetdyn::Error(message) from C++ (the translation keeps the message).
  m.def("_raise_error", [](const std::string& message) { throw fleetdyn::Error(message); });

  bind_params(m);
  bind_buffer_view(m);
  bind_batch(m);
  bind_env(m);
}
