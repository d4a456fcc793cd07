// Sampling for Monte Carlo studies: distributions, unit-cube designs, Saltelli / Sobol' indices.
#include "host/study/sampling.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "fleetdyn/error.h"
#include "fleetdyn/physics/core/philox.h"
#include "host/study/sobol_directions.h"

namespace fleetdyn::study {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kLargestBelowOne = 1.0 - 1.0 / 9007199254740992.0;  // 1 - 2^-53
constexpr double kSmallestUnit = 0.5 / 9007199254740992.0;           // 2^-54, counter_uniform's floor
constexpr double kHalfLog2Pi = 0.91893853320467274178;               // log(2 pi) / 2
constexpr double kZ975 = 1.959963984540054;                          // Phi^-1(0.975)

std::string num(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%g", v);
  return buffer;
}

// ---- the standard normal's upper tail, for the truncated normal ---------------------------------

// log Q(x), Q(x) = 1 - Phi(x), x >= 0. Past x = 35 (Q < 1e-268, near double's underflow) the
// asymptotic series Q(x) = phi(x)/x (1 - 1/x^2 + 3/x^4 - ...) (Abramowitz & Stegun 26.2.12); its
// terms are below 1e-16 by the eighth at x >= 35.
double log_upper_tail(double x) {
  if (x < 35.0) return std::log(normal_cdf(-x));
  if (std::isinf(x)) return -kInf;
  const double inv2 = 1.0 / (x * x);
  double term = 1.0, series = 1.0;
  for (int k = 1; k <= 8; ++k) {
    term *= -(2.0 * k - 1.0) * inv2;
    series += term;
  }
  return -0.5 * x * x - std::log(x) - kHalfLog2Pi + std::log(series);
}

double log_density(double x) { return -0.5 * x * x - kHalfLog2Pi; }

// The standard normal truncated to [a, b] with 0 <= a < b <= inf: quantile at u. Works with Q, the
// upper tail, which keeps full relative precision where Phi would round to 1.
double upper_truncated_quantile(double a, double b, double u) {
  if (a < 35.0) {
    const double qa = normal_cdf(-a), qb = normal_cdf(-b);
    const double t = qa - u * (qa - qb);
    return std::clamp(-normal_quantile(t), a, b);
  }
  // Far tail (Q(a) near underflow): solve log Q(x) = log t by Newton. log Q is concave and
  // decreasing, so after the first step the iterates approach the root monotonically from the right.
  const double log_qa = log_upper_tail(a);
  const double log_t = log_qa + std::log((1.0 - u) + u * std::exp(log_upper_tail(b) - log_qa));
  double x = a;
  for (int iteration = 0; iteration < 50; ++iteration) {
    const double g = log_upper_tail(x) - log_t;
    const double slope = -std::exp(log_density(x) - log_upper_tail(x));  // d/dx log Q = -phi / Q
    const double next = std::min(x - g / slope, b);
    if (std::fabs(next - x) <= 1e-15 * x) return std::clamp(next, a, b);
    x = next;
  }
  return std::clamp(x, a, b);
}

double truncated_standard_quantile(double a, double b, double u) {
  if (a >= 0.0) return upper_truncated_quantile(a, b, u);
  if (b <= 0.0) return -upper_truncated_quantile(-b, -a, 1.0 - u);  // mirror: -X on [-b, -a]
  const double pa = normal_cdf(a), pb = normal_cdf(b);              // a < 0 < b: both well away from 0 and 1
  return std::clamp(normal_quantile(pa + u * (pb - pa)), a, b);
}

// E[X] of the standard normal truncated to [a, b]: (phi(a) - phi(b)) / (Phi(b) - Phi(a)).
double truncated_standard_mean(double a, double b) {
  if (b <= 0.0) return -truncated_standard_mean(-b, -a);
  if (a >= 0.0) {
    // In logs, so a tail at 40 sd neither underflows nor cancels.
    const double log_qa = log_upper_tail(a);
    const double ratio_at_a = std::exp(log_density(a) - log_qa);  // phi(a) / Q(a)
    if (std::isinf(b)) return ratio_at_a;
    return ratio_at_a * std::expm1(log_density(b) - log_density(a)) / std::expm1(log_upper_tail(b) - log_qa);
  }
  const double density_a = std::isinf(a) ? 0.0 : std::exp(log_density(a));
  const double density_b = std::isinf(b) ? 0.0 : std::exp(log_density(b));
  return (density_a - density_b) / (normal_cdf(b) - normal_cdf(a));
}

// ---- keyed permutations and scrambles -----------------------------------------------------------

// 64-bit finalizer of MurmurHash3 (Appleby): a bijection whose every output bit depends on every input bit.
uint64_t mix64(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  x ^= x >> 33;
  return x;
}

// A balanced Feistel network on 2 * half bits with 4 rounds (Luby & Rackoff 1988: a keyed
// pseudo-random permutation of [0, 2^(2 half))).
uint64_t feistel(uint64_t x, int half, const uint64_t keys[4]) {
  const uint64_t mask = (uint64_t{1} << half) - 1;
  uint64_t left = x >> half, right = x & mask;
  for (int round = 0; round < 4; ++round) {
    const uint64_t next = left ^ (mix64(right ^ keys[round]) & mask);
    left = right;
    right = next;
  }
  return (left << half) | right;
}

// The permutation of [0, n) induced by the Feistel network: cycle walking (Black & Rogaway 2002)
// re-applies it until the value lands below n. The domain is < 4 n, so about 4 steps on average.
uint64_t permute_below(uint64_t i, uint64_t n, int half, const uint64_t keys[4]) {
  uint64_t x = i;
  do x = feistel(x, half, keys);
  while (x >= n);
  return x;
}

uint32_t reverse_bits32(uint32_t x) {
  x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
  x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
  x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
  x = ((x >> 8) & 0x00ff00ffu) | ((x & 0x00ff00ffu) << 8);
  return (x >> 16) | (x << 16);
}

// Nested uniform (Owen) scrambling of 32 binary digits, hash form (Laine & Karras 2011, Burley 2020)
// with Vegdahl's improved hash ("Building a better LK hash", 2021). On the bit-reversed value every
// step (xor with a multiple by an even constant, adding the seed, multiplying by an odd number)
// changes bit j only as a function of bits below j, i.e. each digit is flipped by a function of
// the digits above it: the defining property of Owen's nested scrambling.
uint32_t owen_scramble32(uint32_t x, uint32_t seed) {
  x = reverse_bits32(x);
  x ^= x * 0x3d20adeau;
  x += seed;
  x *= (seed >> 16) | 1u;
  x ^= x * 0x05526c56u;
  x ^= x * 0x53a22864u;
  return reverse_bits32(x);
}

// 64 digits: the high 32 scrambled under the dimension's seed; the low 32 under a seed hashed from
// that seed and the high 32 (unscrambled) digits, so the low digits' permutation depends on every
// digit above them, as nesting requires.
uint64_t owen_scramble64(uint64_t x, const uint32_t seeds[2]) {
  const uint32_t high = static_cast<uint32_t>(x >> 32), low = static_cast<uint32_t>(x);
  const uint32_t low_seed = static_cast<uint32_t>(mix64((static_cast<uint64_t>(seeds[1]) << 32) | high) >> 32);
  return (static_cast<uint64_t>(owen_scramble32(high, seeds[0])) << 32) | owen_scramble32(low, low_seed);
}

// Sobol point in Gray-code order: index i uses the direction numbers of the set bits of i ^ (i >> 1),
// so consecutive points differ by one xor (Antonov & Saleev 1979), as Joe & Kuo's sobol.cc.
uint64_t sobol_bits(uint64_t index, const uint64_t direction[64]) {
  uint64_t gray = index ^ (index >> 1), x = 0;
  for (int bit = 0; gray != 0; ++bit, gray >>= 1)
    if (gray & 1u) x ^= direction[bit];
  return x;
}

}  // namespace

// ---- distributions ------------------------------------------------------------------------------

const char* distribution_kind_name(DistributionKind kind) {
  switch (kind) {
    case DistributionKind::Fixed: return "fixed";
    case DistributionKind::Uniform: return "uniform";
    case DistributionKind::Normal: return "normal";
    case DistributionKind::TruncatedNormal: return "truncated_normal";
    case DistributionKind::LogNormal: return "lognormal";
    case DistributionKind::Choice: return "choice";
  }
  return "?";
}

bool parse_distribution_kind(const std::string& name, DistributionKind* out) {
  for (DistributionKind kind : {DistributionKind::Fixed, DistributionKind::Uniform, DistributionKind::Normal,
                                DistributionKind::TruncatedNormal, DistributionKind::LogNormal, DistributionKind::Choice}) {
    if (name == distribution_kind_name(kind)) {
      *out = kind;
      return true;
    }
  }
  return false;
}

void validate_distribution(const Distribution& d) {
  auto finite = [](const char* field, double v) {
    if (!std::isfinite(v)) throw Error(std::string(field) + ": must be finite (got " + num(v) + ")");
  };
  auto positive = [&](const char* field, double v) {
    finite(field, v);
    if (!(v > 0.0)) throw Error(std::string(field) + ": must be > 0 (got " + num(v) + ")");
  };
  auto ordered = [](double lo, double hi) {
    if (std::isnan(lo)) throw Error("min: must be a number (got nan)");
    if (std::isnan(hi)) throw Error("max: must be a number (got nan)");
    if (!(hi > lo)) throw Error("max: must be > min (got min " + num(lo) + ", max " + num(hi) + ")");
  };
  switch (d.kind) {
    case DistributionKind::Fixed: finite("value", d.value); return;
    case DistributionKind::Uniform:
      finite("min", d.min);
      finite("max", d.max);
      ordered(d.min, d.max);
      return;
    case DistributionKind::Normal:
    case DistributionKind::TruncatedNormal:
      finite("mean", d.mean);
      positive("sd", d.sd);
      // The truncation's bounds may be infinite (one-sided truncation).
      if (d.kind == DistributionKind::TruncatedNormal) ordered(d.min, d.max);
      return;
    case DistributionKind::LogNormal:
      finite("mu", d.mu);
      positive("sigma", d.sigma);
      return;
    case DistributionKind::Choice: {
      if (d.values.empty()) throw Error("values: must not be empty");
      for (size_t i = 0; i < d.values.size(); ++i) finite(("values[" + std::to_string(i) + "]").c_str(), d.values[i]);
      if (!d.weights.empty() && d.weights.size() != d.values.size())
        throw Error("weights: must have as many entries as values (got " + std::to_string(d.weights.size()) + " for " +
                    std::to_string(d.values.size()) + " values)");
      for (size_t i = 0; i < d.weights.size(); ++i)
        positive(("weights[" + std::to_string(i) + "]").c_str(), d.weights[i]);
      return;
    }
  }
  throw Error("kind: unknown distribution kind");
}

double inverse_cdf(const Distribution& d, double u) {
  if (std::isnan(u)) return kNaN;
  u = std::clamp(u, kSmallestUnit, kLargestBelowOne);
  switch (d.kind) {
    case DistributionKind::Fixed: return d.value;
    case DistributionKind::Uniform: return std::min(d.max, d.min + u * (d.max - d.min));
    case DistributionKind::Normal: return d.mean + d.sd * normal_quantile(u);
    case DistributionKind::TruncatedNormal: {
      const double a = (d.min - d.mean) / d.sd, b = (d.max - d.mean) / d.sd;
      return std::clamp(d.mean + d.sd * truncated_standard_quantile(a, b, u), d.min, d.max);
    }
    case DistributionKind::LogNormal: return std::exp(d.mu + d.sigma * normal_quantile(u));
    case DistributionKind::Choice: {
      double total = 0.0;
      for (size_t i = 0; i < d.values.size(); ++i) total += d.weights.empty() ? 1.0 : d.weights[i];
      const double target = u * total;
      double cumulative = 0.0;
      for (size_t i = 0; i < d.values.size(); ++i) {
        cumulative += d.weights.empty() ? 1.0 : d.weights[i];
        if (target < cumulative) return d.values[i];
      }
      return d.values.back();  // u * total rounded up to the total
    }
  }
  return kNaN;
}

double distribution_mean(const Distribution& d) {
  switch (d.kind) {
    case DistributionKind::Fixed: return d.value;
    case DistributionKind::Uniform: return 0.5 * (d.min + d.max);
    case DistributionKind::Normal: return d.mean;
    case DistributionKind::TruncatedNormal:
      return d.mean + d.sd * truncated_standard_mean((d.min - d.mean) / d.sd, (d.max - d.mean) / d.sd);
    case DistributionKind::LogNormal: return std::exp(d.mu + 0.5 * d.sigma * d.sigma);
    case DistributionKind::Choice: {
      double sum = 0.0, total = 0.0;
      for (size_t i = 0; i < d.values.size(); ++i) {
        const double w = d.weights.empty() ? 1.0 : d.weights[i];
        sum += w * d.values[i];
        total += w;
      }
      return sum / total;
    }
  }
  return kNaN;
}

// ---- unit-cube designs --------------------------------------------------------------------------

const char* sampling_method_name(SamplingMethod method) {
  switch (method) {
    case SamplingMethod::Random: return "random";
    case SamplingMethod::LatinHypercube: return "lhs";
    case SamplingMethod::Sobol: return "sobol";
  }
  return "?";
}

bool parse_sampling_method(const std::string& name, SamplingMethod* out) {
  for (SamplingMethod method : {SamplingMethod::Random, SamplingMethod::LatinHypercube, SamplingMethod::Sobol}) {
    if (name == sampling_method_name(method)) {
      *out = method;
      return true;
    }
  }
  return false;
}

SampleDesign::SampleDesign(SamplingMethod method, int dimensions, int64_t sample_count, uint64_t seed)
    : method_(method), dimensions_(dimensions), sample_count_(sample_count), seed_(seed) {
  if (dimensions < 0) throw Error("dimensions: must be >= 0 (got " + std::to_string(dimensions) + ")");
  if (method == SamplingMethod::Sobol && dimensions > kSobolMaxDimensions)
    throw Error("dimensions: sobol sampling supports at most " + std::to_string(kSobolMaxDimensions) + " (got " +
                std::to_string(dimensions) + ")");
  if (sample_count < 1 || sample_count > (int64_t{1} << 62))
    throw Error("sample_count: must be in [1, 2^62] (got " + std::to_string(sample_count) + ")");
  if (method == SamplingMethod::Random) return;
  if (method == SamplingMethod::LatinHypercube) {
    int bits = 0;
    while ((uint64_t{1} << bits) < static_cast<uint64_t>(sample_count)) ++bits;
    feistel_half_bits_ = std::max(1, (bits + 1) / 2);
  }
  keys_.resize(static_cast<size_t>(dimensions));
  for (int d = 0; d < dimensions; ++d) {
    DimensionKeys& k = keys_[static_cast<size_t>(d)];
    for (uint32_t j = 0; j < 4; ++j) k.feistel[j] = counter_bits64(seed, static_cast<uint64_t>(d), j, kStreamKeys);
    const uint64_t scramble = counter_bits64(seed, static_cast<uint64_t>(d), 4, kStreamKeys);
    k.scramble[0] = static_cast<uint32_t>(scramble >> 32);
    k.scramble[1] = static_cast<uint32_t>(scramble);
    if (method == SamplingMethod::Sobol) sobol_direction_numbers(d, k.direction);
    else std::fill(std::begin(k.direction), std::end(k.direction), uint64_t{0});
  }
}

double SampleDesign::unit_coordinate(int64_t sample, int dimension) const {
  if (sample < 0 || sample >= sample_count_)
    throw Error("sample: must be in [0, " + std::to_string(sample_count_) + ") (got " + std::to_string(sample) + ")");
  if (dimension < 0 || dimension >= dimensions_)
    throw Error("dimension: must be in [0, " + std::to_string(dimensions_) + ") (got " + std::to_string(dimension) +
                ")");
  const uint64_t i = static_cast<uint64_t>(sample);
  switch (method_) {
    case SamplingMethod::Random: return counter_uniform(seed_, i, static_cast<uint32_t>(dimension), 0);
    case SamplingMethod::LatinHypercube: {
      const DimensionKeys& k = keys_[static_cast<size_t>(dimension)];
      const uint64_t n = static_cast<uint64_t>(sample_count_);
      const uint64_t stratum = permute_below(i, n, feistel_half_bits_, k.feistel);
      const double jitter = counter_uniform(seed_, i, static_cast<uint32_t>(dimension), kStreamLhsJitter);
      // (stratum + jitter) / n can round up to 1 for the last stratum; keep the interval open.
      return std::min((static_cast<double>(stratum) + jitter) / static_cast<double>(n), kLargestBelowOne);
    }
    case SamplingMethod::Sobol: {
      const DimensionKeys& k = keys_[static_cast<size_t>(dimension)];
      return bits_to_open_unit(owen_scramble64(sobol_bits(i, k.direction), k.scramble));
    }
  }
  return kNaN;
}

void SampleDesign::unit_point(int64_t sample, double* u) const {
  for (int d = 0; d < dimensions_; ++d) u[d] = unit_coordinate(sample, d);
}

double sobol_unscrambled(int64_t index, int dimension) {
  if (index < 0) throw Error("index: must be >= 0 (got " + std::to_string(index) + ")");
  uint64_t direction[64];
  sobol_direction_numbers(dimension, direction);
  // The top 53 digits, truncated: exact for any point of fewer than 2^53 samples, and never 1.
  return static_cast<double>(sobol_bits(static_cast<uint64_t>(index), direction) >> 11) / 9007199254740992.0;
}

// ---- Saltelli design and Sobol' indices ---------------------------------------------------------

namespace {
// The base design's dimension count, 2 d, checked before the base design is built so errors speak of d.
int saltelli_base_dimensions(SamplingMethod method, int dimensions) {
  if (dimensions < 1) throw Error("dimensions: must be >= 1 (got " + std::to_string(dimensions) + ")");
  if (method == SamplingMethod::Sobol && 2 * dimensions > kSobolMaxDimensions)
    throw Error("dimensions: a Sobol Saltelli design uses 2 d Sobol dimensions, so d <= " +
                std::to_string(kSobolMaxDimensions / 2) + " (got " + std::to_string(dimensions) + ")");
  return 2 * dimensions;
}
}  // namespace

SaltelliDesign::SaltelliDesign(SamplingMethod method, int dimensions, int64_t base_count, uint64_t seed)
    : dimensions_(dimensions), base_(method, saltelli_base_dimensions(method, dimensions), base_count, seed) {
  if (base_count > (int64_t{1} << 62) / (dimensions + 2))
    throw Error("base_count: too large for " + std::to_string(dimensions) + " dimensions");
}

int64_t SaltelliDesign::run_count() const { return base_.sample_count() * (dimensions_ + 2); }

double SaltelliDesign::unit_coordinate(int64_t run, int dimension) const {
  if (run < 0 || run >= run_count())
    throw Error("run: must be in [0, " + std::to_string(run_count()) + ") (got " + std::to_string(run) + ")");
  if (dimension < 0 || dimension >= dimensions_)
    throw Error("dimension: must be in [0, " + std::to_string(dimensions_) + ") (got " + std::to_string(dimension) +
                ")");
  const int64_t base = run / (dimensions_ + 2);
  const int kind = static_cast<int>(run % (dimensions_ + 2));
  const bool from_b = kind == 1 || kind == 2 + dimension;  // B_i, or A_i with this column from B_i
  return base_.unit_coordinate(base, from_b ? dimensions_ + dimension : dimension);
}

void SaltelliDesign::unit_point(int64_t run, double* u) const {
  for (int d = 0; d < dimensions_; ++d) u[d] = unit_coordinate(run, d);
}

SobolIndices sobol_indices(const std::vector<double>& f, int dimensions) {
  if (dimensions < 1) throw Error("dimensions: must be >= 1 (got " + std::to_string(dimensions) + ")");
  const size_t stride = static_cast<size_t>(dimensions) + 2;
  if (f.size() % stride != 0)
    throw Error("f: size " + std::to_string(f.size()) + " is not a multiple of dimensions + 2 = " + std::to_string(stride));
  const size_t d = static_cast<size_t>(dimensions);
  SobolIndices result;
  result.first.assign(d, kNaN);
  result.total.assign(d, kNaN);
  result.first_ci.assign(d, kNaN);
  result.total_ci.assign(d, kNaN);

  // Base samples with every output defined. One NaN (a failed run) drops its whole base sample:
  // the estimators pair f(A_i), f(B_i) and f(A_B^k_i), so keeping the rest would mismatch terms.
  std::vector<size_t> kept;
  for (size_t i = 0; i < f.size() / stride; ++i) {
    bool ok = true;
    for (size_t j = 0; j < stride; ++j) ok = ok && !std::isnan(f[i * stride + j]);
    if (ok) kept.push_back(i);
  }
  result.used_base_samples = static_cast<int64_t>(kept.size());
  if (kept.size() < 2) return result;
  const double n = static_cast<double>(kept.size());

  // Mean and variance over all A and B outputs. The outputs are centred first: the estimators are
  // unchanged in expectation and lose the variance a large mean would add (Saltelli 2010, sec. 3).
  double mean = 0.0;
  for (size_t i : kept) mean += f[i * stride] + f[i * stride + 1];
  mean /= 2.0 * n;
  std::vector<double> var_term(kept.size());  // per base sample: ((fA - m)^2 + (fB - m)^2) / 2
  double variance = 0.0;
  for (size_t s = 0; s < kept.size(); ++s) {
    const double a = f[kept[s] * stride] - mean, b = f[kept[s] * stride + 1] - mean;
    var_term[s] = 0.5 * (a * a + b * b);
    variance += var_term[s];
  }
  variance /= n;
  if (!(variance > 0.0)) return result;

  // A ratio of means ybar / vbar: its delta-method variance is var(psi) / n with influence
  // psi = (y - ybar) / vbar - ybar (v - vbar) / vbar^2.
  auto ratio_with_ci = [&](const std::vector<double>& y, double* estimate, double* half_width) {
    double ybar = 0.0;
    for (double v : y) ybar += v;
    ybar /= n;
    double psi2 = 0.0;
    for (size_t s = 0; s < y.size(); ++s) {
      const double psi = (y[s] - ybar) / variance - ybar * (var_term[s] - variance) / (variance * variance);
      psi2 += psi * psi;
    }
    *estimate = ybar / variance;
    *half_width = kZ975 * std::sqrt(psi2 / (n - 1.0) / n);
  };
  std::vector<double> y_first(kept.size()), y_total(kept.size());
  for (size_t k = 0; k < d; ++k) {
    for (size_t s = 0; s < kept.size(); ++s) {
      const double* run = &f[kept[s] * stride];
      const double fa = run[0] - mean, fb = run[1] - mean, fab = run[2 + k] - mean;
      y_first[s] = fb * (fab - fa);                // Saltelli 2010, Table 2 (b): V_k = E[f_B (f_AB - f_A)]
      y_total[s] = 0.5 * (fa - fab) * (fa - fab);  // Jansen 1999: V_Tk = E[(f_A - f_AB)^2] / 2
    }
    ratio_with_ci(y_first, &result.first[k], &result.first_ci[k]);
    ratio_with_ci(y_total, &result.total[k], &result.total_ci[k]);
  }
  return result;
}

}  // namespace fleetdyn::study
