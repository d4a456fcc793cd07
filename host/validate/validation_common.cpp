// What the validation checks share: the argument checks, the scattered vehicles and inputs the
// command checks, the worst vehicle.
#include <cmath>
#include <string>

#include "fleetdyn/ce.h"
#include "fleetdyn/error.h"
#include "host/validate/validation.h"
#include "host/validate/validation_engine.h"

namespace fleetdyn {

int checked_vehicle_count(const std::vector<double>& origin, std::size_t state_values, int state_size,
                          std::size_t params, std::size_t inputs, std::size_t terrain_variations) {
  if (origin.empty() || origin.size() % 2 != 0) {
    throw Error("validate: origin has " + std::to_string(origin.size()) +
                " values; expected 2 per vehicle (x, y), at least one vehicle");
  }
  const std::size_t n = origin.size() / 2;
  if (n > static_cast<std::size_t>(kMaxValidationVehicles)) {
    throw Error("validate: " + std::to_string(n) + " vehicles; allowed 1 .. " + std::to_string(kMaxValidationVehicles));
  }
  if (state_values != n * static_cast<std::size_t>(state_size)) {
    throw Error("validate: state has " + std::to_string(state_values) + " values; expected " +
                std::to_string(state_size) + " per vehicle x " + std::to_string(n) + " vehicles");
  }
  const auto one_or_n = [n](std::size_t size, const char* field) {
    if (size != 1 && size != n) {
      throw Error(std::string("validate: ") + field + " has " + std::to_string(size) + " entries; expected 1 or " +
                  std::to_string(n) + " (one per vehicle)");
    }
  };
  one_or_n(params, "params");
  one_or_n(inputs, "inputs");
  if (terrain_variations != 0) {
    throw Error("validate: terrain.variation has " + std::to_string(terrain_variations) +
                " entries; the check takes none (every vehicle on the terrain as given)");
  }
  return static_cast<int>(n);
}

void check_vehicles_argument(int vehicles) {
  if (vehicles < 1 || vehicles > kMaxValidationVehicles) {
    throw Error("validate: vehicles = " + std::to_string(vehicles) + "; allowed 1 .. " + std::to_string(kMaxValidationVehicles));
  }
}

CeParams<double> validation_vehicle(int v) {
  // Low-discrepancy fractions in [0, 1): every parameter spreads over its range.
  const auto frac = [v](double a) { return std::fmod(0.5 + a * v, 1.0); };
  CeParams<double> p = hmmwv_ce_params();
  p.chassis_mass *= 0.9 + 0.2 * frac(0.6180339887);
  p.axle[0].spring_rate *= 0.8 + 0.4 * frac(0.7548776662);
  p.axle[1].spring_rate *= 0.8 + 0.4 * frac(0.5698402910);
  p.tire.mu *= 0.8 + 0.4 * frac(0.4142135624);
  return p;
}

DriverInput<double> validation_input(int v) {
  return {0.6 * std::sin(0.7 * v + 0.3), 0.6 * std::fmod(0.5 + 0.3247179572 * v, 1.0), v % 5 == 4 ? 0.3 : 0.0};
}

void find_worst(ValidationResult& r) {
  r.worst_vehicle = -1;
  r.worst = 0.0;
  for (std::size_t v = 0; v < r.error.size(); ++v) {
    const double e = r.error[v];
    if (r.worst_vehicle < 0 || std::isnan(e) || e > r.worst) {
      if (r.worst_vehicle >= 0 && std::isnan(r.worst)) continue;  // the first NaN stays the worst
      r.worst_vehicle = static_cast<int>(v);
      r.worst = e;
    }
  }
}

}  // namespace fleetdyn
