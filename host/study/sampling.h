// Sampling for Monte Carlo robustness studies: parameter distributions (inverse CDFs of unit-cube
// coordinates), unit-cube designs (random, Latin hypercube, scrambled Sobol) whose point i depends
// only on (method, dimensions, sample_count, seed, i), and Saltelli designs with Sobol' sensitivity
// indices.
//
// Philox streams: counter_uniform(seed, i, d, stream) with stream >= 0xF0000000 is used here
// (kStreamLhsJitter, kStreamKeys); other callers keep to smaller stream numbers.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "host/study/sobol_directions.h"  // kSobolMaxDimensions
#include "host/study/statistics.h"        // normal_cdf, normal_quantile

namespace fleetdyn::study {

constexpr uint32_t kStreamLhsJitter = 0xF0000001u;  // the position inside an LHS stratum
constexpr uint32_t kStreamKeys = 0xF0000002u;       // per-dimension keys (LHS permutations, Sobol scrambles)
constexpr uint32_t kStreamRoad = 0xF0000003u;       // a sample's stretch of a per-sample rough road (sample_setup.h)

// ---- distributions ----------------------------------------------------------------------------

enum class DistributionKind { Fixed, Uniform, Normal, TruncatedNormal, LogNormal, Choice };

struct Distribution {
  DistributionKind kind = DistributionKind::Fixed;
  double value = 0;                     // Fixed
  double min = 0, max = 0;              // Uniform (finite); TruncatedNormal bounds (may be -inf / +inf)
  double mean = 0, sd = 0;              // Normal, TruncatedNormal (mean / sd of the parent normal)
  double mu = 0, sigma = 0;             // LogNormal: log(value) ~ N(mu, sigma)
  std::vector<double> values, weights;  // Choice: weights > 0, as many as values (empty = equal)
};

const char* distribution_kind_name(DistributionKind kind);  // "fixed", "uniform", "normal", ...
bool parse_distribution_kind(const std::string& name, DistributionKind* out);

// Throws fleetdyn::Error whose message starts with the offending field, e.g. "sd: must be > 0 (got -1)".
// Only the fields of d.kind are checked.
void validate_distribution(const Distribution& d);
// The quantile at u in (0, 1) (u is clamped into the open interval). Fixed ignores u; Choice returns
// values[k] for the first k whose cumulative weight exceeds u times the total.
double inverse_cdf(const Distribution& d, double u);
double distribution_mean(const Distribution& d);  // exact

// ---- unit-cube designs ------------------------------------------------------------------------

enum class SamplingMethod { Random, LatinHypercube, Sobol };
const char* sampling_method_name(SamplingMethod method);  // "random", "lhs", "sobol"
bool parse_sampling_method(const std::string& name, SamplingMethod* out);

// Points of a study in the open unit cube. Point i depends only on (method, dimensions,
// sample_count, seed, i), never on which chunk, thread or process asks; a call costs O(dimensions)
// (Sobol: O(dimensions * log2 i)) and the design holds O(dimensions) memory.
//   Random: counter_uniform(seed, i, d, 0).
//   LatinHypercube (McKay, Beckman, Conover 1979): in dimension d, sample i lies in stratum
//     pi_d(i) of [0, sample_count), pi_d a keyed bijection (a Feistel network with cycle walking),
//     at a counter_uniform offset inside it: each stratum of each dimension is hit exactly once.
//   Sobol: Joe & Kuo direction numbers in Gray-code order (Antonov & Saleev 1979), with
//     hash-based nested uniform (Owen 1995) scrambling keyed by (seed, d). Balance properties hold
//     for sample_count a power of two (and for every prefix of 2^m points).
class SampleDesign {
 public:
  // Throws fleetdyn::Error: dimensions >= 0 (Sobol: <= kSobolMaxDimensions, 1024),
  // 1 <= sample_count <= 2^62.
  SampleDesign(SamplingMethod method, int dimensions, int64_t sample_count, uint64_t seed);

  int dimensions() const { return dimensions_; }
  int64_t sample_count() const { return sample_count_; }
  SamplingMethod method() const { return method_; }
  uint64_t seed() const { return seed_; }

  void unit_point(int64_t sample, double* u) const;             // u[dimensions], each in (0, 1)
  double unit_coordinate(int64_t sample, int dimension) const;  // one coordinate of unit_point

 private:
  struct DimensionKeys {
    uint64_t feistel[4];     // LHS: round keys
    uint32_t scramble[2];    // Sobol: Owen scramble seeds (high and low 32 digits)
    uint64_t direction[64];  // Sobol: direction numbers (zero for other methods)
  };
  SamplingMethod method_;
  int dimensions_;
  int64_t sample_count_;
  uint64_t seed_;
  int feistel_half_bits_ = 0;  // LHS: the permuted domain is [0, 2^(2 * half_bits))
  std::vector<DimensionKeys> keys_;
};

// Unscrambled Sobol coordinate in [0, 1) (Gray-code order, as Joe & Kuo's sobol.cc and SciPy):
// index 0 gives 0 in every dimension; dimension 0 is van der Corput.
double sobol_unscrambled(int64_t index, int dimension);

// ---- variance-based sensitivity ---------------------------------------------------------------

// Saltelli 2010 design (Computer Physics Communications 181, 259-270): base samples A and B are the
// first and last d coordinates of a SampleDesign of 2 d dimensions over base_count samples. Run r
// belongs to base sample i = r / (d + 2), kind j = r % (d + 2): j = 0 -> A_i, j = 1 -> B_i,
// j = 2 + k -> A_i with column k replaced by B_i's column k.
class SaltelliDesign {
 public:
  SaltelliDesign(SamplingMethod method, int dimensions, int64_t base_count, uint64_t seed);
  int dimensions() const { return dimensions_; }
  int64_t base_count() const { return base_.sample_count(); }
  int64_t run_count() const;                      // base_count * (d + 2)
  void unit_point(int64_t run, double* u) const;  // u[d]
  double unit_coordinate(int64_t run, int dimension) const;

 private:
  int dimensions_;
  SampleDesign base_;
};

struct SobolIndices {
  std::vector<double> first, total;
  // 95 % half-widths, asymptotic: the delta method for a ratio of two means over independent base
  // samples (no resampling, so deterministic and O(n d)). Calibrated for random sampling;
  // conservative for LHS and Sobol points, whose estimates vary less than independent ones.
  std::vector<double> first_ci, total_ci;
  int64_t used_base_samples = 0;  // base samples left after dropping those with a NaN output
};

// f: one output per run in run order (size base_count * (d + 2)). First order by Saltelli 2010
// (Table 2, (b)), total by Jansen 1999, both over the variance of all A and B outputs. A base
// sample with a NaN in any of its d + 2 outputs is dropped whole (a failed run must not bias the
// other terms of its sample). NaN indices when fewer than 2 base samples remain or the output is
// constant. Throws when f's size is not a multiple of d + 2 or dimensions < 1.
SobolIndices sobol_indices(const std::vector<double>& f, int dimensions);

}  // namespace fleetdyn::study
