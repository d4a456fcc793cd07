// Zero-copy views of a vector environment's buffers (host memory of a CPU env, device memory of
// a CUDA env), exported through DLPack, and the import of DLPack tensors (device actions).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common.h"
#include "dlpack.h"

namespace fleetdyn {
namespace py_bindings {

enum class ElementType { Float32, Int32, Bool8 };

// One buffer of an env: valid while the env lives and until its next step() or reset().
struct BufferView {
  py::object owner;  // the env core (kept alive by this view and by every capsule made of it)
  const void* data = nullptr;
  std::vector<int64_t> shape;
  ElementType type = ElementType::Float32;
  int32_t device_type = dlpack::kDLCPU;  // kDLCPU or kDLCUDA
  int32_t device_id = 0;
  void* stream = nullptr;  // the producer's cudaStream_t (CUDA envs)

  int64_t size() const;
  size_t element_size() const;
};

// Copy a BufferView to a new numpy array (waits for the producer's stream on CUDA).
py::array to_numpy(const BufferView& v);

// A DLPack tensor taken from a Python object's __dlpack__ (consumer side). Owns the managed
// tensor until release() (which calls its deleter).
class ImportedTensor {
 public:
  ImportedTensor() = default;
  ImportedTensor(const ImportedTensor&) = delete;
  ImportedTensor& operator=(const ImportedTensor&) = delete;
  ImportedTensor(ImportedTensor&& o) noexcept;
  ImportedTensor& operator=(ImportedTensor&& o) noexcept;
  ~ImportedTensor();

  // Calls obj.__dlpack__(stream=consumer_stream) (the producer orders its work before that
  // stream; consumer_stream is the DLPack integer: 1 legacy default stream, else the handle, or
  // None for CPU tensors) and takes the capsule.
  static ImportedTensor from_object(const py::handle& obj, const py::object& consumer_stream);

  const dlpack::DLTensor& tensor() const;
  bool valid() const { return legacy_ != nullptr || versioned_ != nullptr; }
  void release();

 private:
  dlpack::DLManagedTensor* legacy_ = nullptr;
  dlpack::DLManagedTensorVersioned* versioned_ = nullptr;
};

// "float32[4096, 3] on cuda:0" for messages.
std::string describe_dlpack(const dlpack::DLTensor& t);

}  // namespace py_bindings
}  // namespace fleetdyn
