// Shared declarations of the fleetdyn Python extension (fleetdyn._fleetdyn).
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <string>
#include <vector>

#include "fleetdyn/batch.h"

namespace fleetdyn {
namespace py_bindings {

namespace py = pybind11;

void bind_params(py::module_& m);
void bind_batch(py::module_& m);
void bind_summary(py::class_<Batch>& cls);  // Batch.summary, from bind_batch
void bind_env(py::module_& m);
void bind_buffer_view(py::module_& m);
void bind_study(py::module_& m);  // fleetdyn._run_study, when the scenario reader is linked

// A terrain description from Python: None (flat ground) or a dict (terrain_from.cpp).
TerrainSpec terrain_from(const py::object& terrain);

// Name parsers: throw py::value_error naming the allowed values.
// A vector env's model (those with Host::kHasEnv); raises ValueError naming them.
VehicleModel parse_model(const std::string& name);
// A Batch's model, any registered; raises ValueError naming them.
VehicleModel batch_model(const std::string& name);
BackendKind parse_backend(const std::string& name);
Precision parse_precision(const std::string& name);

// A scalar or a 1-d array of length n, as doubles (length 1 or n); `what` names it in errors.
// Only ints and floats: bools, complex numbers, strings and objects raise TypeError.
std::vector<double> scalar_or_array(const py::handle& value, int n, const char* what);

// Argument checks for the bindings: each raises TypeError (wrong kind of value) or ValueError
// (out of range) naming `what` and the value passed, never a bare pybind11 cast error.

// "'abc' (str)": the value's repr (shortened) and its type, for messages.
std::string describe(const py::handle& value);
// A Python bool or numpy bool (not an int, None or a string); TypeError naming `what` otherwise.
bool bool_from(const py::handle& value, const std::string& what);
// A str (TypeError otherwise) as UTF-8 (ValueError for one with no encoding: lone surrogates).
std::string text_from(const py::handle& value, const std::string& what);
// A dict key that must be a name (str).
std::string key_name(const py::handle& key, const std::string& what);
// Sets the Python error `type` with `message` decoded as UTF-8, undecodable bytes escaped.
void set_error(PyObject* type, const char* message);
// A real number: int, float, numpy int/float scalar or 0-d array (not bool, str, None, complex).
double number_from(const py::handle& value, const std::string& what);
// The same, finite and within [lo, hi] ((lo, hi] where lo_open; unit appended to the range in the message).
double number_in(const py::handle& value, const std::string& what, double lo, double hi, const std::string& unit = "",
                 bool lo_open = false);
// An integer (int, numpy integer; not bool or float) within [lo, hi].
long long integer_in(const py::handle& value, const std::string& what, long long lo, long long hi);
// An integer within [0, 2**64 - 1] (seeds).
uint64_t uint64_from(const py::handle& value, const std::string& what);
// None or an empty sequence: {}; else a 1-d sequence / array of integers, each in the int range.
std::vector<int> int_list(const py::handle& value, const std::string& what);
// An array of ints or floats (any shape) as C-contiguous float64; TypeError for other dtypes.
py::array_t<double, py::array::c_style | py::array::forcecast> numeric_array(const py::handle& value, const std::string& what);

// A numpy array that owns a copy of `count` elements at `data` with the given shape.
template <class T>
py::array_t<T> copy_array(const T* data, std::vector<py::ssize_t> shape) {
  py::array_t<T> out(shape);
  if (out.size() > 0) std::copy(data, data + out.size(), out.mutable_data());
  return out;
}

}  // namespace py_bindings
}  // namespace fleetdyn
