// The pgs CUDA entry points of a build without CUDA.
#include "fleetdyn/error.h"
#include "host/pgs/pgs_engine.h"

namespace fleetdyn {

bool pgs_cuda_device_usable(std::string* why) {
  if (why) *why = "no CUDA device (fleetdyn was built without CUDA)";
  return false;
}

template <class T>
std::unique_ptr<PgsEngine<T>> make_pgs_cuda_engine(bool) {
  throw Error("pgs: backend 'cuda' requested but fleetdyn was built without CUDA");
}

template std::unique_ptr<PgsEngine<float>> make_pgs_cuda_engine<float>(bool);
template std::unique_ptr<PgsEngine<double>> make_pgs_cuda_engine<double>(bool);

}  // namespace fleetdyn
