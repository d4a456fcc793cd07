// The DLPack ABI (https://github.com/dmlc/dlpack, dlpack.h v1.0), the few declarations this
// module needs: tensors exchanged with numpy / torch through __dlpack__ capsules. The layout is
// the stable C ABI every framework uses; only the subset below is relied on.
#pragma once

#include <cstdint>

namespace fleetdyn {
namespace dlpack {

enum DeviceType : int32_t { kDLCPU = 1, kDLCUDA = 2, kDLCUDAHost = 3, kDLCUDAManaged = 13 };
enum TypeCode : uint8_t { kDLInt = 0, kDLUInt = 1, kDLFloat = 2, kDLBool = 6 };

struct DLDevice {
  int32_t device_type;  // DeviceType
  int32_t device_id;
};

struct DLDataType {
  uint8_t code;  // TypeCode
  uint8_t bits;
  uint16_t lanes;
};

struct DLTensor {
  void* data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t* shape;
  int64_t* strides;  // in elements; null: compact row-major
  uint64_t byte_offset;
};

struct DLManagedTensor {  // capsule name "dltensor" (before DLPack 1.0)
  DLTensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(DLManagedTensor* self);
};

struct DLPackVersion {
  uint32_t major;
  uint32_t minor;
};

struct DLManagedTensorVersioned {  // capsule name "dltensor_versioned" (DLPack >= 1.0)
  DLPackVersion version;
  void* manager_ctx;
  void (*deleter)(DLManagedTensorVersioned* self);
  uint64_t flags;
  DLTensor dl_tensor;
};

constexpr uint32_t kMajorVersion = 1;
constexpr uint32_t kMinorVersion = 0;

}  // namespace dlpack
}  // namespace fleetdyn
