// `fleetdyn validate`: the models' solvers against dense direct solves (host/cli/validate_job.h).
#include "host/cli/validate_job.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "fleetdyn/error.h"
#include "host/cli/run_job.h"
#include "host/validate/validation.h"

namespace fleetdyn {
namespace {

// The checks by model name: the states to check and the check itself.
struct ModelCheck {
  const char* model;
  ValidationResult (*run)(int vehicles, BackendKind backend, Precision precision);
};

ValidationResult check_ce(int vehicles, BackendKind backend, Precision precision) {
  return validate_ce(ce_validation_states(vehicles, backend, precision), backend, precision);
}
ValidationResult check_pgs(int vehicles, BackendKind backend, Precision precision) {
  return validate_pgs(pgs_validation_states(vehicles, backend, precision), backend, precision);
}

const ModelCheck kChecks[] = {{"ce", check_ce}, {"pgs", check_pgs}};

std::string g(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

}  // namespace

int validate_command(const ValidateOptions& o, std::ostream& out, std::ostream& err) {
  const ModelCheck* check = nullptr;
  for (const ModelCheck& c : kChecks) {
    if (o.model == c.model) check = &c;
  }
  if (!check) {
    err << "fleetdyn validate: --model '" << o.model << "' is not known (allowed: ce, pgs)\n";
    return kExitBadInput;
  }
  if (o.vehicles < 1 || o.vehicles > kMaxValidationVehicles) {
    err << "fleetdyn validate: --vehicles " << o.vehicles << " is out of range (allowed: 1 .. "
        << kMaxValidationVehicles << ")\n";
    return kExitBadInput;
  }
  if (o.backend != "cpu" && o.backend != "cuda") {
    err << "fleetdyn validate: --backend '" << o.backend << "' is not known (allowed: cpu, cuda)\n";
    return kExitBadInput;
  }
  if (o.precision != "fp32" && o.precision != "fp64") {
    err << "fleetdyn validate: --precision '" << o.precision << "' is not known (allowed: fp32, fp64)\n";
    return kExitBadInput;
  }
  const BackendKind backend = o.backend == "cuda" ? BackendKind::Cuda : BackendKind::Cpu;
  const Precision precision = o.precision == "fp32" ? Precision::Fp32 : Precision::Fp64;
  ValidationResult r;
  try {
    r = check->run(o.vehicles, backend, precision);
  } catch (const Error& e) {
    err << "fleetdyn validate: " << e.what() << "\n";
    return kExitFailure;
  }
  std::vector<double> sorted = r.error;
  std::sort(sorted.begin(), sorted.end(), [](double a, double b) { return a < b || (std::isnan(b) && !std::isnan(a)); });
  out << "validate " << o.model << ": " << o.vehicles << " vehicles, backend " << o.backend << " (" << r.device << "), "
      << o.precision << "\n";
  out << "check: " << r.check << "\n";
  out << "error: " << r.error_measure << "\n";
  for (const auto& [name, value] : r.measurements) out << name << ": " << g(value) << "\n";
  out << "worst error " << g(r.worst) << " (vehicle " << r.worst_vehicle << "), median " << g(sorted[sorted.size() / 2])
      << ", tolerance " << g(r.tolerance) << " (" << r.tolerance_basis << "): " << (r.passed() ? "ok" : "FAILED") << "\n";
  return r.passed() ? kExitOk : kExitFailure;
}

}  // namespace fleetdyn
