// fleetdyn.BufferView: a zero-copy view of an env buffer, exported with DLPack (consumers:
// torch.from_dlpack, numpy.from_dlpack, cupy, jax ...), honouring the consumer's stream on CUDA;
// and the DLPack import used for device actions.
#include "buffer_view.h"

#include <climits>
#include <cstring>
#include <utility>

#ifdef FLEETDYN_HAS_CUDA
#include <cuda_runtime.h>
#endif

namespace fleetdyn {
namespace py_bindings {

int64_t BufferView::size() const {
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  return n;
}

size_t BufferView::element_size() const { return type == ElementType::Bool8 ? 1 : 4; }

namespace {

#ifdef FLEETDYN_HAS_CUDA
void cuda_check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string("fleetdyn: ") + what + ": " + cudaGetErrorString(e));
}

// The stream a DLPack stream argument names (array API: None and 1 the legacy default stream,
// 2 the per-thread default stream, any other value a cudaStream_t; -1 no synchronization).
cudaStream_t consumer_stream(const py::object& stream, bool* none) {
  *none = false;
  if (stream.is_none()) return cudaStreamLegacy;
  const long long s = integer_in(stream, "__dlpack__: stream", LLONG_MIN, LLONG_MAX);
  if (s == -1) {
    *none = true;
    return nullptr;
  }
  if (s == 0) throw py::value_error("__dlpack__: stream 0 is ambiguous for CUDA (use 1 for the legacy default stream)");
  if (s == 1) return cudaStreamLegacy;
  if (s == 2) return cudaStreamPerThread;
  return reinterpret_cast<cudaStream_t>(static_cast<uintptr_t>(s));
}
#endif

// Makes the consumer's stream wait for the work enqueued so far on the producer's stream.
void order_streams(const BufferView& v, const py::object& stream) {
#ifdef FLEETDYN_HAS_CUDA
  if (v.device_type != dlpack::kDLCUDA) return;
  bool no_sync = false;
  cudaStream_t consumer = consumer_stream(stream, &no_sync);
  if (no_sync) return;
  cudaStream_t producer = static_cast<cudaStream_t>(v.stream);
  if (consumer == producer) return;
  cudaEvent_t event;
  cuda_check(cudaEventCreateWithFlags(&event, cudaEventDisableTiming), "cudaEventCreate");
  cudaError_t e = cudaEventRecord(event, producer);
  if (e == cudaSuccess) e = cudaStreamWaitEvent(consumer, event, 0);
  cudaEventDestroy(event);  // released once the wait has been satisfied
  cuda_check(e, "__dlpack__ stream synchronization");
#else
  (void)v;
  (void)stream;
#endif
}

dlpack::DLDataType dl_type(ElementType t) {
  switch (t) {
    case ElementType::Float32: return {dlpack::kDLFloat, 32, 1};
    case ElementType::Int32: return {dlpack::kDLInt, 32, 1};
    case ElementType::Bool8: return {dlpack::kDLBool, 8, 1};
  }
  return {dlpack::kDLFloat, 32, 1};
}

py::dtype np_dtype(ElementType t) {
  switch (t) {
    case ElementType::Float32: return py::dtype::of<float>();
    case ElementType::Int32: return py::dtype::of<int32_t>();
    case ElementType::Bool8: return py::dtype::of<bool>();
  }
  return py::dtype::of<float>();
}

// What a capsule's deleter frees: the owner reference and the shape/strides storage.
struct ExportContext {
  PyObject* owner;
  std::vector<int64_t> shape, strides;
};

void release_context(ExportContext* ctx) {
  if (Py_IsInitialized()) {
    py::gil_scoped_acquire gil;
    Py_XDECREF(ctx->owner);
  }
  delete ctx;
}

void delete_legacy(dlpack::DLManagedTensor* self) {
  release_context(static_cast<ExportContext*>(self->manager_ctx));
  delete self;
}

void delete_versioned(dlpack::DLManagedTensorVersioned* self) {
  release_context(static_cast<ExportContext*>(self->manager_ctx));
  delete self;
}

void capsule_legacy_destructor(PyObject* capsule) {
  // Still named "dltensor": never consumed, so the producer frees it.
  if (PyCapsule_IsValid(capsule, "dltensor")) {
    auto* t = static_cast<dlpack::DLManagedTensor*>(PyCapsule_GetPointer(capsule, "dltensor"));
    if (t && t->deleter) t->deleter(t);
  }
}

void capsule_versioned_destructor(PyObject* capsule) {
  if (PyCapsule_IsValid(capsule, "dltensor_versioned")) {
    auto* t = static_cast<dlpack::DLManagedTensorVersioned*>(PyCapsule_GetPointer(capsule, "dltensor_versioned"));
    if (t && t->deleter) t->deleter(t);
  }
}

dlpack::DLTensor fill_tensor(const BufferView& v, ExportContext* ctx) {
  dlpack::DLTensor t{};
  t.data = const_cast<void*>(v.data);
  t.device = {v.device_type, v.device_id};
  t.ndim = static_cast<int32_t>(v.shape.size());
  t.dtype = dl_type(v.type);
  t.shape = ctx->shape.data();
  t.strides = ctx->strides.data();
  t.byte_offset = 0;
  return t;
}

py::object make_capsule(const BufferView& v, bool versioned) {
  auto* ctx = new ExportContext{v.owner.ptr(), v.shape, std::vector<int64_t>(v.shape.size(), 1)};
  for (int d = static_cast<int>(v.shape.size()) - 2; d >= 0; --d)
    ctx->strides[d] = ctx->strides[d + 1] * v.shape[d + 1];
  Py_INCREF(ctx->owner);
  PyObject* capsule = nullptr;
  if (versioned) {
    auto* t = new dlpack::DLManagedTensorVersioned{};
    t->version = {dlpack::kMajorVersion, dlpack::kMinorVersion};
    t->manager_ctx = ctx;
    t->deleter = &delete_versioned;
    t->flags = 0;
    t->dl_tensor = fill_tensor(v, ctx);
    capsule = PyCapsule_New(t, "dltensor_versioned", &capsule_versioned_destructor);
    if (!capsule) {
      delete_versioned(t);
      throw py::error_already_set();
    }
  } else {
    auto* t = new dlpack::DLManagedTensor{};
    t->manager_ctx = ctx;
    t->deleter = &delete_legacy;
    t->dl_tensor = fill_tensor(v, ctx);
    capsule = PyCapsule_New(t, "dltensor", &capsule_legacy_destructor);
    if (!capsule) {
      delete_legacy(t);
      throw py::error_already_set();
    }
  }
  return py::reinterpret_steal<py::object>(capsule);
}

std::string device_string(int32_t type, int32_t id) {
  if (type == dlpack::kDLCPU) return "cpu";
  if (type == dlpack::kDLCUDA) return "cuda:" + std::to_string(id);
  if (type == dlpack::kDLCUDAHost) return "cuda_host";
  if (type == dlpack::kDLCUDAManaged) return "cuda_managed:" + std::to_string(id);
  return "device type " + std::to_string(type) + ":" + std::to_string(id);
}

std::string shape_string(const std::vector<int64_t>& shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + (shape.size() == 1 ? ",)" : ")");
}

// A (int, int) tuple argument of __dlpack__; TypeError naming it otherwise.
std::pair<int, int> int_pair(const py::object& value, const std::string& what, const char* form) {
  if (!py::isinstance<py::tuple>(value) || py::len(value) != 2) {
    throw py::type_error(what + ": expected a tuple " + form + ", got " + describe(value));
  }
  auto t = value.cast<py::tuple>();
  return {static_cast<int>(integer_in(t[0], what + "[0]", INT32_MIN, INT32_MAX)),
          static_cast<int>(integer_in(t[1], what + "[1]", INT32_MIN, INT32_MAX))};
}

}  // namespace

py::array to_numpy(const BufferView& v) {
  std::vector<py::ssize_t> shape(v.shape.begin(), v.shape.end());
  py::array out(np_dtype(v.type), shape);
  const size_t bytes = static_cast<size_t>(v.size()) * v.element_size();
  if (bytes == 0) return out;
  if (v.device_type == dlpack::kDLCUDA) {
#ifdef FLEETDYN_HAS_CUDA
    py::gil_scoped_release nogil;
    cuda_check(cudaStreamSynchronize(static_cast<cudaStream_t>(v.stream)), "cudaStreamSynchronize");
    cuda_check(cudaMemcpy(out.mutable_data(), v.data, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy");
#else
    throw std::runtime_error("fleetdyn: a CUDA buffer in a build without CUDA");
#endif
  } else {
    std::memcpy(out.mutable_data(), v.data, bytes);
  }
  return out;
}

std::string describe_dlpack(const dlpack::DLTensor& t) {
  std::string type;
  switch (t.dtype.code) {
    case dlpack::kDLFloat: type = "float"; break;
    case dlpack::kDLInt: type = "int"; break;
    case dlpack::kDLUInt: type = "uint"; break;
    case dlpack::kDLBool: type = "bool"; break;
    default: type = "type" + std::to_string(t.dtype.code) + "_"; break;
  }
  if (t.dtype.code != dlpack::kDLBool) type += std::to_string(t.dtype.bits);
  if (t.dtype.lanes != 1) type += "x" + std::to_string(t.dtype.lanes);
  std::vector<int64_t> shape(t.shape, t.shape + t.ndim);
  return type + shape_string(shape) + " on " + device_string(t.device.device_type, t.device.device_id);
}

// ---- import ---------------------------------------------------------------------------------------

ImportedTensor::ImportedTensor(ImportedTensor&& o) noexcept
    : legacy_(std::exchange(o.legacy_, nullptr)), versioned_(std::exchange(o.versioned_, nullptr)) {}

ImportedTensor& ImportedTensor::operator=(ImportedTensor&& o) noexcept {
  if (this != &o) {
    release();
    legacy_ = std::exchange(o.legacy_, nullptr);
    versioned_ = std::exchange(o.versioned_, nullptr);
  }
  return *this;
}

ImportedTensor::~ImportedTensor() { release(); }

void ImportedTensor::release() {
  if (legacy_ && legacy_->deleter) legacy_->deleter(legacy_);
  if (versioned_ && versioned_->deleter) versioned_->deleter(versioned_);
  legacy_ = nullptr;
  versioned_ = nullptr;
}

const dlpack::DLTensor& ImportedTensor::tensor() const {
  return versioned_ ? versioned_->dl_tensor : legacy_->dl_tensor;
}

ImportedTensor ImportedTensor::from_object(const py::handle& obj, const py::object& consumer_stream) {
  py::object capsule = obj.attr("__dlpack__")(py::arg("stream") = consumer_stream);
  ImportedTensor out;
  PyObject* c = capsule.ptr();
  if (PyCapsule_IsValid(c, "dltensor_versioned")) {
    out.versioned_ = static_cast<dlpack::DLManagedTensorVersioned*>(PyCapsule_GetPointer(c, "dltensor_versioned"));
    if (PyCapsule_SetName(c, "used_dltensor_versioned") != 0) throw py::error_already_set();
  } else if (PyCapsule_IsValid(c, "dltensor")) {
    out.legacy_ = static_cast<dlpack::DLManagedTensor*>(PyCapsule_GetPointer(c, "dltensor"));
    if (PyCapsule_SetName(c, "used_dltensor") != 0) throw py::error_already_set();
  } else {
    throw py::type_error("__dlpack__ did not return a DLPack capsule");
  }
  return out;
}

// ---- Python class --------------------------------------------------------------------------------

void bind_buffer_view(py::module_& m) {
  py::class_<BufferView>(
      m, "BufferView",
      "A zero-copy view of one of a VectorEnv's buffers (device memory on CUDA), valid until the "
      "env's next step() or reset(): hand it to torch.from_dlpack / numpy.from_dlpack (and clone what "
      "you keep), or copy it to the host with .numpy() / numpy.asarray(view).")
      .def(
          "__dlpack__",
          [](const BufferView& v, py::object stream, py::object max_version, py::object dl_device, py::object copy) {
            if (!copy.is_none() && !PyBool_Check(copy.ptr())) {
              throw py::type_error("BufferView.__dlpack__: copy: expected None, True or False, got " + describe(copy));
            }
            if (copy.ptr() == Py_True) {
              throw py::buffer_error(
                  "BufferView.__dlpack__: copy=True is not supported (zero-copy views only; use .numpy())");
            }
            if (!dl_device.is_none()) {
              auto dev = int_pair(dl_device, "BufferView.__dlpack__: dl_device", "(device_type, device_id)");
              if (dev.first != v.device_type || dev.second != v.device_id) {
                throw py::buffer_error("BufferView.__dlpack__: the buffer lives on " + device_string(v.device_type, v.device_id) +
                                       ", not " + device_string(dev.first, dev.second));
              }
            }
            bool versioned = false;
            if (!max_version.is_none()) {
              auto mv = int_pair(max_version, "BufferView.__dlpack__: max_version", "(major, minor)");
              versioned = mv.first >= 1;
            }
            order_streams(v, stream);
            return make_capsule(v, versioned);
          },
          py::kw_only(), py::arg("stream") = py::none(), py::arg("max_version") = py::none(),
          py::arg("dl_device") = py::none(), py::arg("copy") = py::none())
      .def("__dlpack_device__", [](const BufferView& v) { return py::make_tuple(v.device_type, v.device_id); })
      .def_property_readonly("shape", [](const BufferView& v) { return py::tuple(py::cast(v.shape)); })
      .def_property_readonly("ndim", [](const BufferView& v) { return v.shape.size(); })
      .def_property_readonly("dtype", [](const BufferView& v) { return np_dtype(v.type); })
      .def_property_readonly("device", [](const BufferView& v) { return device_string(v.device_type, v.device_id); })
      .def_property_readonly(
          "data_ptr", [](const BufferView& v) { return reinterpret_cast<uintptr_t>(v.data); },
          "address of the first element (host or device)")
      .def("numpy", &to_numpy, "A host copy as a numpy array (waits for the env's stream)")
      .def(
          "__array__",
          [](const BufferView& v, py::object dtype, py::object) {
            py::array a = to_numpy(v);
            return dtype.is_none() ? a : a.attr("astype")(dtype).cast<py::array>();
          },
          py::arg("dtype") = py::none(), py::arg("copy") = py::none())
      .def("__len__", [](const BufferView& v) { return v.shape.empty() ? 0 : v.shape[0]; })
      .def("__repr__", [](const BufferView& v) {
        return "BufferView(" + py::str(np_dtype(v.type)).cast<std::string>() + shape_string(v.shape) + " on " +
               device_string(v.device_type, v.device_id) + ")";
      });
}

}  // namespace py_bindings
}  // namespace fleetdyn
