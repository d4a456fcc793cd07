// Sobol sequences against the Joe-Kuo direction numbers and their net properties, the Saltelli
// design, and Sobol' indices against the Ishigami function's analytic values.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "fleetdyn/error.h"
#include "fleetdyn/physics/core/math.h"
#include "fleetdyn/physics/core/philox.h"
#include "host/study/sampling.h"
#include "tests/study_sampling_test_util.h"

namespace {

using namespace fleetdyn::study;
using namespace fleetdyn::study::test;
using fleetdyn::counter_uniform;
using fleetdyn::kPi;

// ---- Sobol --------------------------------------------------------------------------------------

TEST(Sobol, UnscrambledFirstPointsFromJoeKuoDirectionNumbers) {
  // Point i uses the direction numbers v_k = m_k / 2^k of the set bits of the Gray code
  // g = i ^ (i >> 1) (g = 0 1 3 2 6 7 5 4 for i = 0..7). From new-joe-kuo-6.21201:
  //   dim 0: van der Corput, m = 1 1 1              -> v = .1 .01 .001
  //   dim 1: d=2, s=1, a=0, m_1 = 1; m_k = m_{k-1} xor 2 m_{k-1}: m = 1 3 5 -> v = .1 .11 .101
  //   dim 2: d=3, s=2, a=1, m = 1 3; m_3 = 2 m_2 xor 4 m_1 xor m_1 = 6^4^1 = 3 -> v = .1 .11 .011
  //   dim 3: d=4, s=3, a=1, m = 1 3 1               -> v = .1 .11 .001
  // e.g. dim 2, i = 4: g = 6 = bits 1, 2: .110 xor .011 = .101 = 0.625.
  const double expected[4][8] = {
      {0, 0.5, 0.75, 0.25, 0.375, 0.875, 0.625, 0.125},
      {0, 0.5, 0.25, 0.75, 0.375, 0.875, 0.125, 0.625},
      {0, 0.5, 0.25, 0.75, 0.625, 0.125, 0.875, 0.375},
      {0, 0.5, 0.25, 0.75, 0.875, 0.375, 0.625, 0.125},
  };
  for (int dim = 0; dim < 4; ++dim)
    for (int i = 0; i < 8; ++i) EXPECT_EQ(sobol_unscrambled(i, dim), expected[dim][i]) << "dim " << dim << " i " << i;
  // dim 9 (d=10: s=5, a=7, m = 1 1 7 11 19). i = 8: g = 12 = bits 2, 3: 7/8 xor 11/16 = .1110 ^ .1011
  // = .0101 = 0.3125; i = 16: g = 24 = bits 3, 4: 11/16 xor 19/32 = .10110 ^ .10011 = .00101 = 0.15625.
  EXPECT_EQ(sobol_unscrambled(8, 9), 0.3125);
  EXPECT_EQ(sobol_unscrambled(16, 9), 0.15625);
  for (int dim : {0, 5, 63, kSobolMaxDimensions - 1}) EXPECT_EQ(sobol_unscrambled(0, dim), 0.0);
  EXPECT_THROW(sobol_unscrambled(0, kSobolMaxDimensions), fleetdyn::Error);
}

// Each of the first 2^m points lies in a different interval [j / 2^m, (j + 1) / 2^m).
template <typename Coordinate>
void expect_one_per_interval(Coordinate coordinate, int m, const std::string& what) {
  const int64_t n = int64_t{1} << m;
  std::vector<char> hit(static_cast<size_t>(n), 0);
  for (int64_t i = 0; i < n; ++i) {
    const int64_t cell = static_cast<int64_t>(std::ldexp(coordinate(i), m));
    ASSERT_EQ(hit[static_cast<size_t>(cell)]++, 0) << what << " m " << m << " point " << i;
  }
}

TEST(Sobol, EveryDimensionIsANet) {
  // A Sobol sequence is a (0,1)-sequence in each dimension; Owen scrambling keeps that property.
  const SampleDesign design(SamplingMethod::Sobol, 64, int64_t{1} << 12, 2024);
  for (int dim = 0; dim < 64; ++dim)
    for (int m : {1, 3, 6, 9, 12}) {
      expect_one_per_interval([&](int64_t i) { return sobol_unscrambled(i, dim); }, m, "unscrambled " + std::to_string(dim));
      expect_one_per_interval([&](int64_t i) { return design.unit_coordinate(i, dim); }, m,
                              "scrambled " + std::to_string(dim));
    }
}

TEST(Sobol, FirstTwoDimensionsAreA0m2Net) {
  // Dimensions 0 and 1 form a (0,2)-sequence: for 2^m points every elementary box of area 2^-m,
  // 2^-a by 2^-(m-a), holds exactly one point, scrambled or not (Owen 1995 keeps t).
  for (uint64_t seed : {1u, 2u, 3u}) {
    const SampleDesign design(SamplingMethod::Sobol, 2, 1024, seed);
    for (int m = 1; m <= 10; ++m) {
      const int64_t n = int64_t{1} << m;
      for (int a = 0; a <= m; ++a) {
        std::vector<char> hit(static_cast<size_t>(n), 0);
        for (int64_t i = 0; i < n; ++i) {
          const int64_t cx = static_cast<int64_t>(std::ldexp(design.unit_coordinate(i, 0), a));
          const int64_t cy = static_cast<int64_t>(std::ldexp(design.unit_coordinate(i, 1), m - a));
          ASSERT_EQ(hit[static_cast<size_t>((cx << (m - a)) | cy)]++, 0) << "seed " << seed << " m " << m << " a " << a;
        }
      }
    }
  }
}

TEST(Sobol, ScrambledBeatsRandomOnASmoothIntegrand) {
  // f(x) = prod_j e^{x_j} / (e - 1) over 5 dimensions has mean 1. Over 16 seeds at 1024 points the
  // scrambled-Sobol RMSE (theory: O(N^-1.5)) is far below random's (N^-0.5).
  constexpr int d = 5, n = 1024, seeds = 16;
  double sobol_sq = 0.0, random_sq = 0.0;
  for (uint64_t seed = 0; seed < seeds; ++seed) {
    for (SamplingMethod method : {SamplingMethod::Sobol, SamplingMethod::Random}) {
      const SampleDesign design(method, d, n, seed);
      double sum = 0.0, u[d];
      for (int64_t i = 0; i < n; ++i) {
        design.unit_point(i, u);
        double f = 1.0;
        for (double v : u) f *= std::exp(v) / (std::exp(1.0) - 1.0);
        sum += f;
      }
      const double error = sum / n - 1.0;
      (method == SamplingMethod::Sobol ? sobol_sq : random_sq) += error * error;
    }
  }
  EXPECT_LT(std::sqrt(sobol_sq / seeds), std::sqrt(random_sq / seeds) / 4.0);
}

// ---- Saltelli design and Sobol' indices ---------------------------------------------------------

TEST(Saltelli, RunLayout) {
  constexpr int d = 3;
  for (SamplingMethod method : {SamplingMethod::Random, SamplingMethod::LatinHypercube, SamplingMethod::Sobol}) {
    const SaltelliDesign design(method, d, 16, 4);
    const SampleDesign base(method, 2 * d, 16, 4);
    EXPECT_EQ(design.run_count(), 16 * (d + 2));
    for (int64_t r = 0; r < design.run_count(); ++r) {
      double u[d];
      design.unit_point(r, u);
      const int64_t i = r / (d + 2);
      const int j = static_cast<int>(r % (d + 2));
      for (int k = 0; k < d; ++k) {
        const bool from_b = j == 1 || j == 2 + k;
        EXPECT_EQ(u[k], base.unit_coordinate(i, from_b ? d + k : k)) << "run " << r << " column " << k;
      }
    }
  }
  EXPECT_THROW(SaltelliDesign(SamplingMethod::Sobol, 0, 16, 0), fleetdyn::Error);
  EXPECT_THROW(SaltelliDesign(SamplingMethod::Sobol, kSobolMaxDimensions / 2 + 1, 16, 0), fleetdyn::Error);
  EXPECT_NO_THROW(SaltelliDesign(SamplingMethod::Sobol, kSobolMaxDimensions / 2, 16, 0));
}

// Ishigami & Homma (1990): f = sin x1 + a sin^2 x2 + b x3^4 sin x1, x_i ~ U(-pi, pi).
double ishigami(const double* u) {
  const double x1 = -kPi + 2 * kPi * u[0], x2 = -kPi + 2 * kPi * u[1], x3 = -kPi + 2 * kPi * u[2];
  return std::sin(x1) + 7.0 * std::sin(x2) * std::sin(x2) + 0.1 * std::pow(x3, 4) * std::sin(x1);
}

std::vector<double> ishigami_outputs(SamplingMethod method, int64_t base_count, uint64_t seed) {
  const SaltelliDesign design(method, 3, base_count, seed);
  std::vector<double> f(static_cast<size_t>(design.run_count()));
  for (int64_t r = 0; r < design.run_count(); ++r) {
    double u[3];
    design.unit_point(r, u);
    f[static_cast<size_t>(r)] = ishigami(u);
  }
  return f;
}

// Analytic indices (Sobol' & Levitan 1999; Saltelli et al. 2010 sec. 4) for a = 7, b = 0.1:
// V1 = (1 + b pi^4 / 5)^2 / 2, V2 = a^2 / 8, V3 = 0, V13 = 8 b^2 pi^8 / 225,
// V = a^2/8 + b pi^4/5 + b^2 pi^8/18 + 1/2 -> S = .3139 .4424 0, ST = .5576 .4424 .2437.
struct IshigamiTruth {
  double first[3], total[3];
};
IshigamiTruth ishigami_truth() {
  const double a = 7.0, b = 0.1, pi4 = std::pow(kPi, 4), pi8 = pi4 * pi4;
  const double v = a * a / 8 + b * pi4 / 5 + b * b * pi8 / 18 + 0.5;
  const double v1 = 0.5 * (1 + b * pi4 / 5) * (1 + b * pi4 / 5), v2 = a * a / 8, v13 = 8 * b * b * pi8 / 225;
  return {{v1 / v, v2 / v, 0.0}, {(v1 + v13) / v, v2 / v, v13 / v}};
}

TEST(SobolIndices, IshigamiAnalyticValues) {
  const IshigamiTruth truth = ishigami_truth();
  EXPECT_NEAR(truth.first[0], 0.3139, 1e-4);
  EXPECT_NEAR(truth.total[2], 0.2437, 1e-4);
  const SobolIndices s = sobol_indices(ishigami_outputs(SamplingMethod::Sobol, 1 << 13, 2024), 3);
  EXPECT_EQ(s.used_base_samples, 1 << 13);
  for (int k = 0; k < 3; ++k) {
    // Independent points would give standard errors of about 0.01 at 8192 base samples; scrambled
    // Sobol points do several times better, so 0.01 absolute is a several-sigma bound.
    EXPECT_NEAR(s.first[static_cast<size_t>(k)], truth.first[k], 0.01) << "S" << k + 1;
    EXPECT_NEAR(s.total[static_cast<size_t>(k)], truth.total[k], 0.01) << "ST" << k + 1;
    EXPECT_GT(s.first_ci[static_cast<size_t>(k)], 0.0);
    EXPECT_GT(s.total_ci[static_cast<size_t>(k)], 0.0);
  }
}

TEST(SobolIndices, LinearModel) {
  // y = sum c_i x_i, x_i ~ U(0, 1): additive, so S_i = ST_i = c_i^2 / sum c^2.
  const double c[4] = {1.0, 2.0, 3.0, 0.5};
  const double sum_c2 = 1 + 4 + 9 + 0.25;
  const SaltelliDesign design(SamplingMethod::Sobol, 4, 1 << 12, 8);
  std::vector<double> f(static_cast<size_t>(design.run_count()));
  for (int64_t r = 0; r < design.run_count(); ++r) {
    double u[4];
    design.unit_point(r, u);
    f[static_cast<size_t>(r)] = 100.0 + c[0] * u[0] + c[1] * u[1] + c[2] * u[2] + c[3] * u[3];  // offset: centring
  }
  const SobolIndices s = sobol_indices(f, 4);
  for (size_t k = 0; k < 4; ++k) {
    EXPECT_NEAR(s.first[k], c[k] * c[k] / sum_c2, 0.01) << k;
    EXPECT_NEAR(s.total[k], c[k] * c[k] / sum_c2, 0.01) << k;
  }
}

TEST(SobolIndices, ConfidenceIntervalsCoverAtRoughlyTheNominalRate) {
  // Random sampling, where the asymptotic 95 % interval applies: over 40 seeds x 6 indices the
  // coverage should be near 0.95; 0.88 is five binomial standard deviations (0.014) below.
  const IshigamiTruth truth = ishigami_truth();
  int covered = 0, total = 0;
  for (uint64_t seed = 100; seed < 140; ++seed) {
    const SobolIndices s = sobol_indices(ishigami_outputs(SamplingMethod::Random, 1024, seed), 3);
    for (size_t k = 0; k < 3; ++k) {
      covered += std::fabs(s.first[k] - truth.first[k]) <= s.first_ci[k];
      covered += std::fabs(s.total[k] - truth.total[k]) <= s.total_ci[k];
      total += 2;
    }
  }
  EXPECT_GE(covered, 0.88 * total) << covered << " of " << total;
}

TEST(SobolIndices, ABaseSampleWithANaNIsDroppedWhole) {
  constexpr int d = 3;
  std::vector<double> f = ishigami_outputs(SamplingMethod::Sobol, 256, 3);
  std::vector<double> without(f);
  without.erase(without.begin() + 5 * (d + 2), without.begin() + 6 * (d + 2));
  f[5 * (d + 2) + 3] = NAN;
  const SobolIndices with_nan = sobol_indices(f, d), reference = sobol_indices(without, d);
  EXPECT_EQ(with_nan.used_base_samples, 255);
  for (size_t k = 0; k < d; ++k) {
    EXPECT_EQ(with_nan.first[k], reference.first[k]);
    EXPECT_EQ(with_nan.total[k], reference.total[k]);
    EXPECT_EQ(with_nan.first_ci[k], reference.first_ci[k]);
  }
}

TEST(SobolIndices, DegenerateInputs) {
  EXPECT_THROW(sobol_indices(std::vector<double>(11, 1.0), 3), fleetdyn::Error);  // 11 is not a multiple of 5
  EXPECT_THROW(sobol_indices(std::vector<double>(10, 1.0), 0), fleetdyn::Error);
  const SobolIndices constant = sobol_indices(std::vector<double>(50, 2.0), 3);
  EXPECT_TRUE(std::isnan(constant.first[0]));
  EXPECT_TRUE(std::isnan(constant.total[2]));
  const SobolIndices empty = sobol_indices({}, 2);
  EXPECT_EQ(empty.used_base_samples, 0);
  EXPECT_TRUE(std::isnan(empty.first[1]));
}

}  // namespace
