// The CUDA entry points of a build without CUDA.
#include "fleetdyn/error.h"
#include "host/cuda_engine.h"

namespace fleetdyn {

bool cuda_device_usable(std::string* why) {
  if (why) *why = "no CUDA device (fleetdyn was built without CUDA)";
  return false;
}

template <class T>
std::unique_ptr<Engine<T>> make_cuda_engine() {
  throw Error("backend 'cuda' requested but no CUDA device (fleetdyn was built without CUDA)");
}

template std::unique_ptr<Engine<float>> make_cuda_engine<float>();
template std::unique_ptr<Engine<double>> make_cuda_engine<double>();

}  // namespace fleetdyn
