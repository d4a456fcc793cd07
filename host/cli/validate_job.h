// `fleetdyn validate --model ce|pgs [--vehicles N] [--backend cpu|cuda] [--precision fp32|fp64]`:
// steps a batch of the model into varied driving states, then checks its solver against a dense
// direct solve of the same equations for every vehicle (host/validate/validation.h: on the CPU a
// small LU, on the GPU cuBLAS batched LU), and prints the worst vehicle's error and the stated
// tolerance. Exit codes: 0 within the tolerance, 1 over it (or a runtime failure: no CUDA
// device), 2 bad options.
#pragma once

#include <ostream>
#include <string>

namespace fleetdyn {

struct ValidateOptions {
  std::string model = "ce";        // ce | pgs
  int vehicles = 64;               // 1 .. kMaxValidationVehicles
  std::string backend = "cpu";     // cpu | cuda: where the batch steps and the dense solves run
  std::string precision = "fp64";  // fp32 | fp64
};

// Never throws; the report goes to `out`, errors to `err` (one line naming the option, its
// value and what is allowed).
int validate_command(const ValidateOptions& options, std::ostream& out, std::ostream& err);

}  // namespace fleetdyn
