// Where and in what precision a batch runs: the choices shared by the vehicle batch
// (fleetdyn/batch.h), the pgs solver batch (fleetdyn/pgs.h) and the vector env.
#pragma once

#include <string>

namespace fleetdyn {

enum class BackendKind { Auto, Cpu, Cuda };
enum class Precision { Fp32, Fp64 };

const char* backend_name(BackendKind b);  // "auto", "cpu", "cuda"
const char* precision_name(Precision p);  // "fp32", "fp64"

// Whether this build has CUDA and a usable device. `why` receives "no CUDA device (...)" with
// the runtime's reason, "built without CUDA", or the device name.
bool cuda_available(std::string* why = nullptr);

}  // namespace fleetdyn
