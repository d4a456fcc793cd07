// The vector environment's CUDA entry point in a build without CUDA.
#include "fleetdyn/error.h"
#include "host/env/env_storage.h"

namespace fleetdyn {

template <class Model, class T>
std::unique_ptr<EnvEngine<Model, T>> make_cuda_env_engine() {
  throw Error("backend 'cuda' requested but no CUDA device (fleetdyn was built without CUDA)");
}

#define FLEETDYN_INSTANTIATE_CUDA_ENV_ENGINE(Model, T) \
  template std::unique_ptr<EnvEngine<Model, T>> make_cuda_env_engine<Model, T>();
FLEETDYN_ENV_KINDS(FLEETDYN_INSTANTIATE_CUDA_ENV_ENGINE)
#undef FLEETDYN_INSTANTIATE_CUDA_ENV_ENGINE

}  // namespace fleetdyn
