// fleetdyn._fleetdyn: the compiled half of the Python package fleetdyn (python/fleetdyn/ is the
// other half). fleetdyn::Error becomes fleetdyn.Error (a RuntimeError) with the same message.
#include <climits>
#include <cstdint>
#include <cstring>
#include <string>

#include "common.h"
#include "fleetdyn/error.h"
#include "host/batch/vehicle_models.h"

namespace fleetdyn {
namespace py_bindings {

VehicleModel batch_model(const std::string& name) {
  try {
    return fleetdyn::parse_model(name);
  } catch (const Error& e) {
    throw py::value_error(e.what());
  }
}

VehicleModel parse_model(const std::string& name) {
  std::string known;  // the models with a vector env
  for_each_model([&](auto host) {
    if (decltype(host)::kHasEnv) known += std::string(known.empty() ? "" : ", ") + model_name(decltype(host)::kModel);
  });
  VehicleModel m;
  try {
    m = fleetdyn::parse_model(name);
  } catch (const Error&) {
    throw py::value_error("unknown model '" + name + "' (known: " + known + ")");
  }
  if (!with_model(m, [](auto host) { return decltype(host)::kHasEnv; })) {
    throw py::value_error("the " + name + " model has no vector env (models with one: " + known + ")");
  }
  return m;
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
  py::array raw = py::array::ensure(value);
  const char kind = raw ? raw.dtype().kind() : 'O';
  if (!raw || (kind != 'f' && kind != 'i' && kind != 'u')) {
    throw py::type_error(std::string(what) + ": expected a number or an array of numbers, got " + describe(value));
  }
  auto a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(raw);
  if (!a)
    throw py::type_error(std::string(what) + ": expected a number or an array of numbers, got " + describe(value));
  if (a.ndim() == 0) return {*a.data()};
  if (a.ndim() != 1 || (a.shape(0) != 1 && a.shape(0) != n)) {
    std::string shape;
    for (py::ssize_t d = 0; d < a.ndim(); ++d) shape += (d ? ", " : "") + std::to_string(a.shape(d));
    throw py::value_error(std::string(what) + ": expected a number or a 1-d array of length 1 or " + std::to_string(n) +
                          ", got shape (" + shape + ")");
  }
  return std::vector<double>(a.data(), a.data() + a.shape(0));
}

std::string describe(const py::handle& value) {
  std::string r = "?";
  try {
    r = py::repr(value).cast<std::string>();
  } catch (const py::error_already_set&) {
  }
  std::string one_line;  // an array's repr spans lines
  for (char c : r) {
    if (c == '\n') c = ' ';
    if (c != ' ' || one_line.empty() || one_line.back() != ' ') one_line += c;
  }
  if (one_line.size() > 80) one_line = one_line.substr(0, 77) + "...";
  return one_line + " (" + Py_TYPE(value.ptr())->tp_name + ")";
}

// A Python bool or numpy bool (not an int, None or a string); TypeError naming `what` otherwise.
bool bool_from(const py::handle& value, const std::string& what) {
  if (PyBool_Check(value.ptr())) return value.ptr() == Py_True;
  py::array a = py::array::ensure(value);
  if (a && a.ndim() == 0 && a.dtype().kind() == 'b') return a.attr("item")().cast<bool>();
  throw py::type_error(what + ": expected True or False, got " + describe(value));
}

std::string text_from(const py::handle& value, const std::string& what) {
  if (!PyUnicode_Check(value.ptr())) throw py::type_error(what + ": expected a string, got " + describe(value));
  Py_ssize_t size = 0;
  const char* utf8 = PyUnicode_AsUTF8AndSize(value.ptr(), &size);
  if (!utf8) {
    PyErr_Clear();
    throw py::value_error(what + ": " + describe(value) + " is not valid text (it has no UTF-8 encoding)");
  }
  return std::string(utf8, static_cast<size_t>(size));
}

std::string key_name(const py::handle& key, const std::string& what) {
  if (!PyUnicode_Check(key.ptr())) throw py::type_error(what + ": keys must be names (str), got " + describe(key));
  return text_from(key, what + " key");
}

void set_error(PyObject* type, const char* message) {
  PyObject* text = PyUnicode_DecodeUTF8(message, static_cast<Py_ssize_t>(std::strlen(message)), "backslashreplace");
  if (!text) {
    PyErr_Clear();
    text = PyUnicode_FromString("(a fleetdyn error whose message could not be decoded)");
  }
  PyErr_SetObject(type, text);
  Py_XDECREF(text);
}

namespace {
bool numeric_kind(char kind) { return kind == 'f' || kind == 'i' || kind == 'u'; }

std::string number_text(double x) { return py::repr(py::float_(x)).cast<std::string>(); }
std::string bound_text(double x) { return py::str("{:.6g}").format(x).cast<std::string>(); }
}  // namespace

double number_from(const py::handle& value, const std::string& what) {
  PyObject* o = value.ptr();
  if (!PyBool_Check(o)) {
    if (PyFloat_Check(o)) return PyFloat_AsDouble(o);
    if (PyLong_Check(o)) {
      const double x = PyLong_AsDouble(o);
      if (x == -1.0 && PyErr_Occurred()) {
        PyErr_Clear();
        throw py::value_error(what + ": " + describe(value) + " is too large for a float");
      }
      return x;
    }
    py::array a = py::array::ensure(value);
    if (a && a.ndim() == 0 && numeric_kind(a.dtype().kind())) return a.attr("item")().cast<double>();
  }
  throw py::type_error(what + ": expected a number, got " + describe(value));
}

double number_in(const py::handle& value, const std::string& what, double lo, double hi, const std::string& unit, bool lo_open) {
  const double x = number_from(value, what);
  if (!((lo_open ? x > lo : x >= lo) && x <= hi)) {
    throw py::value_error(what + ": " + number_text(x) + " is outside " + (lo_open ? "(" : "[") + bound_text(lo) +
                          ", " + bound_text(hi) + "]" + (unit.empty() ? "" : " " + unit));
  }
  return x;
}

namespace {
// value as a Python int (ints, numpy integers, 0-d integer arrays); TypeError otherwise.
py::int_ as_int(const py::handle& value, const std::string& what) {
  PyObject* o = value.ptr();
  if (PyBool_Check(o) || PyFloat_Check(o) || !PyIndex_Check(o)) {
    throw py::type_error(what + ": expected an integer, got " + describe(value));
  }
  PyObject* i = PyNumber_Index(o);
  if (!i) {
    PyErr_Clear();
    throw py::type_error(what + ": expected an integer, got " + describe(value));
  }
  return py::reinterpret_steal<py::int_>(i);
}
}  // namespace

long long integer_in(const py::handle& value, const std::string& what, long long lo, long long hi) {
  const py::int_ i = as_int(value, what);
  int overflow = 0;
  const long long x = PyLong_AsLongLongAndOverflow(i.ptr(), &overflow);
  if (overflow != 0 || x < lo || x > hi) {
    throw py::value_error(what + ": " + py::repr(i).cast<std::string>() + " is outside [" + std::to_string(lo) + ", " +
                          std::to_string(hi) + "]");
  }
  return x;
}

uint64_t uint64_from(const py::handle& value, const std::string& what) {
  const py::int_ i = as_int(value, what);
  const unsigned long long x = PyLong_AsUnsignedLongLong(i.ptr());
  if (x == static_cast<unsigned long long>(-1) && PyErr_Occurred()) {
    PyErr_Clear();
    throw py::value_error(what + ": " + py::repr(i).cast<std::string>() + " is outside [0, 2**64 - 1]");
  }
  return static_cast<uint64_t>(x);
}

std::vector<int> int_list(const py::handle& value, const std::string& what) {
  if (value.is_none()) return {};
  py::array a = py::array::ensure(value);
  if (a && a.ndim() == 1 && a.size() == 0) return {};
  if (!a || a.ndim() != 1 || !(a.dtype().kind() == 'i' || a.dtype().kind() == 'u')) {
    throw py::type_error(what + ": expected a list or 1-d array of integers, got " + describe(value));
  }
  std::vector<int> out;
  out.reserve(static_cast<size_t>(a.size()));
  for (py::ssize_t k = 0; k < a.size(); ++k) {
    out.push_back(static_cast<int>(integer_in(a[py::int_(k)], what + "[" + std::to_string(k) + "]", INT32_MIN, INT32_MAX)));
  }
  return out;
}

py::array_t<double, py::array::c_style | py::array::forcecast> numeric_array(const py::handle& value, const std::string& what) {
  py::array raw = py::array::ensure(value);
  if (!raw || !numeric_kind(raw.dtype().kind())) {
    throw py::type_error(what + ": expected an array of numbers (int or float), got " +
                         (raw ? "dtype " + py::str(raw.dtype()).cast<std::string>() + ": " : std::string()) + describe(value));
  }
  return py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(raw);
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
  // Messages may quote bytes that are not UTF-8 (a scenario file's, or a name passed as bytes):
  // decode them with escapes rather than fail with a UnicodeDecodeError that loses the message
  // (pybind11's own translation; local translators are tried first).
  static PyObject* error_type = nullptr;
  error_type = m.attr("Error").ptr();
  Py_INCREF(error_type);
  py::register_local_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const fleetdyn::Error& e) {
      set_error(error_type, e.what());
    } catch (const py::key_error& e) {
      set_error(PyExc_KeyError, e.what());
    } catch (const py::value_error& e) {
      set_error(PyExc_ValueError, e.what());
    } catch (const py::type_error& e) {
      set_error(PyExc_TypeError, e.what());
    } catch (const py::index_error& e) {
      set_error(PyExc_IndexError, e.what());
    } catch (const py::buffer_error& e) {
      set_error(PyExc_BufferError, e.what());
    }
  });

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
  bind_study(m);
}
