// Shared declarations of the fleetdyn Python extension (fleetdyn._fleetdyn).
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "fleetdyn/batch.h"

namespace fleetdyn {
namespace py_bindings {

namespace py = pybind11;

void bind_params(py::module_& m);
void bind_batch(py::module_& m);
void bind_env(py::module_& m);
void bind_buffer_view(py::module_& m);

// Name parsers: throw py::value_error naming the allowed values.
VehicleModel parse_model(const std::string& name);
BackendKind parse_backend(const std::string& name);
Precision parse_precision(const std::string& name);

// A scalar or a 1-d array of length n, as doubles (length 1 or n); `what` names it in errors.
std::vector<double> scalar_or_array(const py::handle& value, int n, const char* what);

// A numpy array that owns a copy of `count` elements at `data` with the given shape.
template <class T>
py::array_t<T> copy_array(const T* data, std::vector<py::ssize_t> shape) {
  py::array_t<T> out(shape);
  if (out.size() > 0) std::copy(data, data + out.size(), out.mutable_data());
  return out;
}

}  // namespace py_bindings
}  // namespace fleetdyn
