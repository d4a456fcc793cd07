// How a CUDA batch or env maps vehicles onto threads. The default: several lanes per vehicle for
// the models that have them (strut and ce: four, one corner each, kernels/corner_lanes.cuh; pgs:
// its own kernel, kernels/pgs_vehicle_kernel.cuh), each kernel with the registers ptxas chooses.
// Diagnostic environment variables ask for a mapping kept only to measure the default against
// (bench/floor.md):
//   FLEETDYN_CUDA_LANES=vehicle          one thread per vehicle (every model, and the env)
//   FLEETDYN_CUDA_CORNER_REGISTERS=128   strut and ce's four lanes capped at 128 registers (open loop)
//   FLEETDYN_CUDA_PARAMS=global          with one thread per vehicle, per-vehicle parameter sets read
//                                        in place instead of copied per thread
// Each variant is one more device compile of a model's physics per precision, so they are built
// only with -DFLEETDYN_CUDA_VARIANTS=ON; in a build without them, asking for one is an error
// rather than a silent fallback to the default.
#pragma once

#include <cstdlib>
#include <cstring>
#include <string>

#include "fleetdyn/error.h"

#ifndef FLEETDYN_CUDA_VARIANTS
#define FLEETDYN_CUDA_VARIANTS 0
#endif

namespace fleetdyn {

// Whether the measuring variants are compiled in.
constexpr bool kCudaVariantsBuilt = FLEETDYN_CUDA_VARIANTS != 0;

struct CudaMapping {
  bool lanes_per_vehicle = true;  // false: one thread per vehicle
  bool capped_registers = false;  // four lanes, 128 registers
  bool global_params = false;     // one thread per vehicle, parameters read in place
};

inline bool cuda_mapping_variable_is(const char* name, const char* value) {
  const char* set = std::getenv(name);
  return set && std::strcmp(set, value) == 0;
}

// The mapping the environment asks for; throws fleetdyn::Error when it asks for a variant this
// build leaves out.
inline CudaMapping cuda_mapping_from_environment() {
  CudaMapping m;
  m.lanes_per_vehicle = !cuda_mapping_variable_is("FLEETDYN_CUDA_LANES", "vehicle");
  m.capped_registers = cuda_mapping_variable_is("FLEETDYN_CUDA_CORNER_REGISTERS", "128");
  m.global_params = cuda_mapping_variable_is("FLEETDYN_CUDA_PARAMS", "global");
  if (!kCudaVariantsBuilt) {
    const char* asked = !m.lanes_per_vehicle ? "FLEETDYN_CUDA_LANES=vehicle"
                        : m.capped_registers ? "FLEETDYN_CUDA_CORNER_REGISTERS=128"
                        : m.global_params    ? "FLEETDYN_CUDA_PARAMS=global"
                                             : nullptr;
    if (asked) {
      throw Error(std::string(asked) +
                  " asks for a CUDA kernel variant kept for measuring, which this build leaves out: unset it, "
                  "or configure with -DFLEETDYN_CUDA_VARIANTS=ON");
    }
  }
  return m;
}

}  // namespace fleetdyn
