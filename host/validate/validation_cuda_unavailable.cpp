// The validation checks' CUDA entry points in a build without CUDA.
#include "fleetdyn/error.h"
#include "host/validate/validation_engine.h"

namespace fleetdyn {

template <class T>
std::vector<T> ce_validate_cuda(const CeValidationArrays<T>&, std::string*) {
  throw Error("validate: backend 'cuda' requested but fleetdyn was built without CUDA");
}

template <class T>
PgsCheckErrors<T> pgs_validate_cuda(const PgsValidationArrays<T>&, std::string*) {
  throw Error("validate: backend 'cuda' requested but fleetdyn was built without CUDA");
}

template std::vector<float> ce_validate_cuda<float>(const CeValidationArrays<float>&, std::string*);
template std::vector<double> ce_validate_cuda<double>(const CeValidationArrays<double>&, std::string*);

template PgsCheckErrors<float> pgs_validate_cuda<float>(const PgsValidationArrays<float>&, std::string*);
template PgsCheckErrors<double> pgs_validate_cuda<double>(const PgsValidationArrays<double>&, std::string*);

}  // namespace fleetdyn
