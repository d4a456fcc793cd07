// Helpers shared by the sampling tests: the standard normal's tail and density (independent of
// the library) and distributions built field by field.
#pragma once

#include <cmath>
#include <utility>
#include <vector>

#include "fleetdyn/physics/core/math.h"
#include "host/study/sampling.h"

namespace fleetdyn::study::test {

constexpr double kZ975 = 1.959963984540054;  // Phi^-1(0.975)

inline double upper_tail(double x) { return 0.5 * std::erfc(x / std::sqrt(2.0)); }  // Q(x), independent of the library
inline double density(double x) { return std::exp(-0.5 * x * x) / std::sqrt(2.0 * kPi); }

// A distribution of `kind` with its two parameters a = va and b = vb.
inline Distribution with_fields(DistributionKind kind, double Distribution::*a, double va, double Distribution::*b, double vb) {
  Distribution d;
  d.kind = kind;
  d.*a = va;
  d.*b = vb;
  return d;
}
inline Distribution normal(double mean, double sd) {
  return with_fields(DistributionKind::Normal, &Distribution::mean, mean, &Distribution::sd, sd);
}
inline Distribution truncated(double mean, double sd, double lo, double hi) {
  Distribution d = with_fields(DistributionKind::TruncatedNormal, &Distribution::mean, mean, &Distribution::sd, sd);
  d.min = lo;
  d.max = hi;
  return d;
}
inline Distribution uniform(double lo, double hi) {
  return with_fields(DistributionKind::Uniform, &Distribution::min, lo, &Distribution::max, hi);
}
inline Distribution lognormal(double mu, double sigma) {
  return with_fields(DistributionKind::LogNormal, &Distribution::mu, mu, &Distribution::sigma, sigma);
}
inline Distribution choice(std::vector<double> values, std::vector<double> weights) {
  Distribution d;
  d.kind = DistributionKind::Choice;
  d.values = std::move(values);
  d.weights = std::move(weights);
  return d;
}
inline Distribution fixed(double value) {
  Distribution d;
  d.value = value;
  return d;
}

}  // namespace fleetdyn::study::test
