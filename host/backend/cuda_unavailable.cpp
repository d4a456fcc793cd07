// The CUDA entry points of a build without CUDA.
#include <string>

#include "fleetdyn/error.h"
#include "host/backend/cuda_engine.h"

namespace fleetdyn {

bool cuda_device_usable(std::string* why) {
  if (why) *why = "no CUDA device (fleetdyn was built without CUDA)";
  return false;
}

int cuda_device_count() { return 0; }

void use_cuda_device(int device) {
  throw Error("cannot use CUDA device " + std::to_string(device) + ": fleetdyn was built without CUDA");
}

template <class Model, class T>
std::unique_ptr<Engine<Model, T>> make_cuda_engine() {
  throw Error("backend 'cuda' requested but no CUDA device (fleetdyn was built without CUDA)");
}

#define FLEETDYN_INSTANTIATE_CUDA_ENGINE(Model, T) \
  template std::unique_ptr<Engine<Model, T>> make_cuda_engine<Model, T>();
FLEETDYN_BATCH_KINDS(FLEETDYN_INSTANTIATE_CUDA_ENGINE)
#undef FLEETDYN_INSTANTIATE_CUDA_ENGINE

}  // namespace fleetdyn
