// Sampling for studies: Philox against Random123's known answers, distributions against closed
// forms, designs against their defining properties (LHS strata, order independence). Sobol
// sequences and Sobol' indices are in test_study_sobol.cpp.
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

// ---- Philox and counter_uniform -----------------------------------------------------------------

TEST(Philox, Random123KnownAnswers) {
  // Random123 tests/kat_vectors, "philox4x32 10" lines: counter[4] key[2] -> output[4].
  struct Kat {
    uint32_t counter[4], key[2], expected[4];
  };
  const Kat kats[] = {
      {{0, 0, 0, 0}, {0, 0}, {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
      {{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}, {0xffffffff, 0xffffffff}, {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
      {{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, {0xa4093822, 0x299f31d0}, {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
  };
  for (const Kat& kat : kats) {
    uint32_t out[4];
    fleetdyn::philox4x32_10(kat.counter, kat.key, out);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(out[i], kat.expected[i]) << std::hex << kat.counter[0] << " word " << i;
  }
}

TEST(CounterUniform, DocumentedLayoutOpenAndDeterministic) {
  // counter = (index lo, index hi, dim, stream), key = (seed lo, seed hi); top 53 bits of words 0, 1.
  const uint64_t seed = 0x0123456789abcdefull, index = 0x0000000500000007ull;
  const uint32_t counter[4] = {7, 5, 3, 9}, key[2] = {0x89abcdef, 0x01234567};
  uint32_t out[4];
  fleetdyn::philox4x32_10(counter, key, out);
  const uint64_t bits = (static_cast<uint64_t>(out[0]) << 32) | out[1];
  EXPECT_EQ(counter_uniform(seed, index, 3, 9), static_cast<double>(bits >> 11) / 9007199254740992.0);
  EXPECT_EQ(counter_uniform(seed, index, 3, 9), counter_uniform(seed, index, 3, 9));

  std::set<double> seen;
  int count = 0;
  for (uint64_t s : {uint64_t{0}, uint64_t{1}, uint64_t{1} << 32})
    for (uint64_t i : {uint64_t{0}, uint64_t{1}, uint64_t{1} << 32})
      for (uint32_t dim : {0u, 1u, 7u})
        for (uint32_t stream : {0u, 1u, 0xF0000001u}) {
          const double u = counter_uniform(s, i, dim, stream);
          EXPECT_GT(u, 0.0);
          EXPECT_LT(u, 1.0);
          seen.insert(u);
          ++count;
        }
  EXPECT_EQ(static_cast<int>(seen.size()), count);  // every argument changes the number
  EXPECT_EQ(fleetdyn::bits_to_open_unit(0), 0.5 / 9007199254740992.0);
  EXPECT_EQ(fleetdyn::bits_to_open_unit(~uint64_t{0}), 1.0 - 1.0 / 9007199254740992.0);
}

TEST(CounterUniform, ChiSquareAndKolmogorovSmirnov) {
  constexpr int n = 100000, bins = 100;
  std::vector<double> u(n);
  std::vector<int> counts(bins, 0);
  int beyond_32_bits = 0;
  for (int i = 0; i < n; ++i) {
    u[i] = counter_uniform(2024, static_cast<uint64_t>(i), 0);
    ++counts[static_cast<int>(u[i] * bins)];
    const double scaled = std::ldexp(u[i], 32);
    if (scaled != std::floor(scaled)) ++beyond_32_bits;
  }
  double chi2 = 0.0;
  for (int c : counts) chi2 += (c - n / bins) * (c - n / bins) / static_cast<double>(n / bins);
  EXPECT_LT(chi2, 148.23);  // chi-square, 99 degrees of freedom, upper 0.1 % point
  std::sort(u.begin(), u.end());
  double ks = 0.0;
  for (int i = 0; i < n; ++i) ks = std::max({ks, (i + 1.0) / n - u[i], u[i] - static_cast<double>(i) / n});
  EXPECT_LT(ks * std::sqrt(static_cast<double>(n)), 1.949);  // Kolmogorov distribution, upper 0.1 % point
  EXPECT_GT(beyond_32_bits, n * 99 / 100);                   // the low 21 bits are random too
}

// ---- the normal distribution --------------------------------------------------------------------

TEST(NormalQuantile, KnownValues) {
  // References from mpmath at 40 digits; tolerance 4 ulps of the answer ("full double precision").
  EXPECT_NEAR(normal_quantile(0.975), 1.9599639845400542355, 4 * 2.2e-16);
  EXPECT_NEAR(normal_quantile(1e-10), -6.3613409024040562047, 4 * 8.9e-16);
  EXPECT_NEAR(normal_quantile(1e-300), -37.047096299361199237, 4 * 7.1e-15);
  EXPECT_NEAR(normal_quantile(0.75), 0.67448975019608174320, 4 * 1.1e-16);
  EXPECT_EQ(normal_quantile(0.5), 0.0);
  EXPECT_EQ(normal_quantile(0.0), -INFINITY);
  EXPECT_EQ(normal_quantile(1.0), INFINITY);
  EXPECT_TRUE(std::isnan(normal_quantile(NAN)));
}

TEST(NormalQuantile, Symmetric) {
  // For dyadic p, 1 - p and 1 - (1 - p) are exact, and AS241 sees the same tail: Phi^-1(p) = -Phi^-1(1 - p).
  for (double p : {0x1p-40, 0x1p-20, 0x1p-7, 0.0625, 0.125, 0.375, 0.4375}) {
    ASSERT_EQ(1.0 - (1.0 - p), p);
    EXPECT_EQ(normal_quantile(p), -normal_quantile(1.0 - p)) << p;
  }
}

TEST(NormalCdf, KnownValuesAndRoundTrip) {
  EXPECT_NEAR(normal_cdf(1.96), 0.97500210485177956586, 1.1e-16);  // mpmath
  EXPECT_NEAR(normal_cdf(-5.0), 2.8665157187919391167e-07, 1e-22);
  EXPECT_EQ(normal_cdf(0.0), 0.5);
  EXPECT_EQ(normal_cdf(-INFINITY), 0.0);
  EXPECT_EQ(normal_cdf(INFINITY), 1.0);
  // Phi(Phi^-1(p)) = p from 1e-300 to 1 - 1e-12: to 1e-14 relative, plus what a 4-ulp error in the
  // quantile x moves Phi by, phi(x) 4 ulp(x). In the far tail that second term dominates (at
  // p = 1e-300 even the correctly rounded x is off by x^2 2^-53 = 1.5e-13 relative in p); for
  // |x| < 1.3 (0.1 < p < 0.9) it is below 1e-14 p and the bound is plain 1e-14 relative.
  std::vector<double> ps;
  for (double e = -300; e <= -1; e += 0.25) ps.push_back(std::pow(10.0, e));
  for (int i = 1; i < 1000; ++i) ps.push_back(i / 1000.0);
  for (double e = -12; e <= -2; e += 0.5) ps.push_back(1.0 - std::pow(10.0, e));
  for (double p : ps) {
    const double x = normal_quantile(p);
    const double ulp = std::nextafter(std::fabs(x), INFINITY) - std::fabs(x);
    EXPECT_NEAR(normal_cdf(x), p, 1e-14 * p + density(x) * 4 * ulp) << p;
  }
}

TEST(Distribution, InverseCdfAtKnownPoints) {
  EXPECT_EQ(inverse_cdf(fixed(3.5), 0.123), 3.5);
  EXPECT_DOUBLE_EQ(inverse_cdf(uniform(2, 6), 0.25), 3.0);
  EXPECT_DOUBLE_EQ(inverse_cdf(uniform(2, 6), 0.5), 4.0);
  EXPECT_NEAR(inverse_cdf(normal(10, 2), 0.975), 10 + 2 * kZ975, 1e-13);
  EXPECT_EQ(inverse_cdf(normal(10, 2), 0.5), 10.0);
  EXPECT_NEAR(inverse_cdf(lognormal(0.3, 0.5), 0.5), std::exp(0.3), 1e-15);  // median = exp(mu)
  EXPECT_NEAR(inverse_cdf(lognormal(0.3, 0.5), 0.975), std::exp(0.3 + 0.5 * kZ975), 1e-13);
  // Truncation symmetric about the mean keeps the median at the mean.
  EXPECT_NEAR(inverse_cdf(truncated(1.0, 0.5, 0.5, 1.5), 0.5), 1.0, 1e-15);
  // [mean, inf) is the half normal: quantile mean + sd Phi^-1((1 + u) / 2); Phi^-1(0.75) = 0.67448975.
  EXPECT_NEAR(inverse_cdf(truncated(1.0, 0.5, 1.0, INFINITY), 0.5), 1.0 + 0.5 * 0.6744897501960817, 1e-14);
  EXPECT_NEAR(inverse_cdf(truncated(1.0, 0.5, -INFINITY, 1.0), 0.5), 1.0 - 0.5 * 0.6744897501960817, 1e-14);
  // Choice: weights 1, 2, 1 -> u in [0, .25) -> 1, [.25, .75) -> 2, [.75, 1) -> 5.
  const Distribution c = choice({1, 2, 5}, {1, 2, 1});
  EXPECT_EQ(inverse_cdf(c, 0.01), 1.0);
  EXPECT_EQ(inverse_cdf(c, 0.2499), 1.0);
  EXPECT_EQ(inverse_cdf(c, 0.25), 2.0);
  EXPECT_EQ(inverse_cdf(c, 0.7499), 2.0);
  EXPECT_EQ(inverse_cdf(c, 0.75), 5.0);
  EXPECT_EQ(inverse_cdf(c, 0.99999), 5.0);
  EXPECT_EQ(inverse_cdf(choice({4, 8}, {}), 0.6), 8.0);  // no weights: equal
}

TEST(Distribution, TruncatedNormalFarTails) {
  // [mean + 5 sd, mean + 6 sd]: Phi rounds to 1 - 3e-7 there, so only the upper-tail form keeps digits.
  const Distribution tail = truncated(2.0, 0.5, 2.0 + 5 * 0.5, 2.0 + 6 * 0.5);
  double previous = -INFINITY;
  for (double u : {1e-12, 1e-6, 0.01, 0.3, 0.5, 0.7, 0.99, 1 - 1e-6, 1 - 1e-12}) {
    const double x = inverse_cdf(tail, u);
    ASSERT_TRUE(std::isfinite(x)) << u;
    EXPECT_GE(x, 4.5);
    EXPECT_LE(x, 5.0);
    EXPECT_GE(x, previous);
    previous = x;
  }
  // The median solves Q(z) = (Q(5) + Q(6)) / 2 (z standardized): bisection on std::erfc.
  const double target = 0.5 * (upper_tail(5.0) + upper_tail(6.0));
  double lo = 5.0, hi = 6.0;
  for (int i = 0; i < 200; ++i) (upper_tail(0.5 * (lo + hi)) > target ? lo : hi) = 0.5 * (lo + hi);
  EXPECT_NEAR(inverse_cdf(tail, 0.5), 2.0 + 0.5 * lo, 1e-12);
  // Lower tail, mirrored.
  EXPECT_NEAR(inverse_cdf(truncated(0.0, 1.0, -6.0, -5.0), 0.5), -lo, 1e-12);
  // Mean: (phi(5) - phi(6)) / (Q(5) - Q(6)).
  EXPECT_NEAR(distribution_mean(tail), 2.0 + 0.5 * (density(5) - density(6)) / (upper_tail(5) - upper_tail(6)), 1e-12);

  // 40 sd out Q underflows to 1e-350. There the tail is nearly exponential:
  // Q(a + t) / Q(a) = exp(-a t - t^2 / 2) a / (a + t) (1 + O(t / a^3)), so the median t solves
  // exp(-a t - t^2 / 2) a / (a + t) = 1/2 (fixed point below; the O term moves t by ~1e-8).
  const double a = 40.0;
  double t = std::log(2.0) / a;
  for (int i = 0; i < 50; ++i) t = (std::log(2.0) + std::log(a / (a + t)) - 0.5 * t * t) / a;
  const Distribution far = truncated(0.0, 1.0, a, a + 1.0);
  previous = -INFINITY;
  for (double u : {1e-12, 0.01, 0.5, 0.99, 1 - 1e-12}) {
    const double x = inverse_cdf(far, u);
    ASSERT_TRUE(std::isfinite(x)) << u;
    EXPECT_GE(x, a);
    EXPECT_LE(x, a + 1.0);
    EXPECT_GT(x, previous);
    previous = x;
  }
  EXPECT_NEAR(inverse_cdf(far, 0.5), a + t, 1e-7);
  EXPECT_NEAR(inverse_cdf(truncated(0.0, 1.0, -a - 1.0, -a), 0.5), -a - t, 1e-7);
  // Mean of [a, inf): phi(a) / Q(a) = a + 1/a - 2/a^3 + O(a^-5) (Mills ratio series).
  EXPECT_NEAR(distribution_mean(truncated(0.0, 1.0, a, INFINITY)), a + 1 / a - 2 / (a * a * a), 1e-7);
}

TEST(Distribution, LatinHypercubeMeansMatchExactMeans) {
  // Exact means, written out here: uniform (a + b)/2; normal mean; truncated normal
  // mean + sd (phi(alpha) - phi(beta)) / (Phi(beta) - Phi(alpha)); lognormal exp(mu + sigma^2/2);
  // choice sum w v / sum w.
  const double alpha = (0.2 - 1.0) / 0.5, beta = (1.4 - 1.0) / 0.5;
  struct Case {
    Distribution d;
    double mean, sd;
  };
  const std::vector<Case> cases = {
      {uniform(2, 6), 4.0, 4.0 / std::sqrt(12.0)},
      {normal(10, 2), 10.0, 2.0},
      {truncated(1.0, 0.5, 0.2, 1.4),
       1.0 + 0.5 * (density(alpha) - density(beta)) / (upper_tail(-beta) - upper_tail(-alpha)), 0.5},
      {lognormal(0.3, 0.5), std::exp(0.3 + 0.125), std::exp(0.425) * std::sqrt(std::exp(0.25) - 1.0)},
      {choice({1, 2, 5}, {1, 2, 1}), 2.5, std::sqrt((1.5 * 1.5 + 2 * 0.5 * 0.5 + 2.5 * 2.5) / 4.0)},
      {fixed(3.0), 3.0, 1.0},
  };
  constexpr int64_t n = 100000;
  const SampleDesign design(SamplingMethod::LatinHypercube, static_cast<int>(cases.size()), n, 99);
  std::vector<double> sums(cases.size(), 0.0), u(cases.size());
  for (int64_t i = 0; i < n; ++i) {
    design.unit_point(i, u.data());
    for (size_t k = 0; k < cases.size(); ++k) sums[k] += inverse_cdf(cases[k].d, u[k]);
  }
  for (size_t k = 0; k < cases.size(); ++k) {
    validate_distribution(cases[k].d);
    EXPECT_NEAR(distribution_mean(cases[k].d), cases[k].mean, 1e-13 * std::fabs(cases[k].mean)) << k;
    // Independent draws would give a standard error of 3.2e-3 sd; LHS stratification leaves far less.
    EXPECT_NEAR(sums[k] / n, cases[k].mean, 1e-3 * cases[k].sd) << k;
  }
}

TEST(Distribution, ChoiceFrequenciesMatchWeights) {
  const Distribution c = choice({10, 20, 30, 40}, {0.5, 3, 1, 1.5});  // normalized: .0833 .5 .1667 .25
  constexpr int64_t n = 60000;
  for (SamplingMethod method : {SamplingMethod::Random, SamplingMethod::LatinHypercube}) {
    const SampleDesign design(method, 1, n, 5);
    std::vector<int> counts(4, 0);
    for (int64_t i = 0; i < n; ++i) ++counts[static_cast<int>(inverse_cdf(c, design.unit_coordinate(i, 0)) / 10) - 1];
    double chi2 = 0.0;
    for (int k = 0; k < 4; ++k) {
      const double expected = n * c.weights[static_cast<size_t>(k)] / 6.0;
      chi2 += (counts[static_cast<size_t>(k)] - expected) * (counts[static_cast<size_t>(k)] - expected) / expected;
      // One point per stratum: a value's count is off by at most its two boundary strata.
      if (method == SamplingMethod::LatinHypercube) {
        EXPECT_NEAR(counts[static_cast<size_t>(k)], expected, 2.0) << k;
      }
    }
    EXPECT_LT(chi2, 16.27) << sampling_method_name(method);  // chi-square, 3 degrees of freedom, upper 0.1 %
  }
}

TEST(Distribution, ValidationNamesTheField) {
  auto message = [](const Distribution& d) {
    try {
      validate_distribution(d);
    } catch (const fleetdyn::Error& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  auto starts = [&](const Distribution& d, const std::string& prefix) {
    const std::string m = message(d);
    EXPECT_EQ(m.rfind(prefix, 0), 0u) << "got: " << m << "\nwanted: " << prefix;
  };
  EXPECT_EQ(message(normal(1, -1)), "sd: must be > 0 (got -1)");
  starts(normal(1, 0), "sd: must be > 0 (got 0)");
  starts(normal(NAN, 1), "mean: must be finite (got nan)");
  starts(normal(0, INFINITY), "sd: must be finite");
  starts(uniform(2, 1), "max: must be > min");
  starts(uniform(1, 1), "max: must be > min");
  starts(uniform(NAN, 1), "min: must be finite");
  starts(uniform(0, INFINITY), "max: must be finite");
  starts(truncated(0, 1, 1, 1), "max: must be > min");
  starts(truncated(0, 1, NAN, 1), "min: must be a number");
  starts(truncated(0, -2, 0, 1), "sd: must be > 0 (got -2)");
  starts(lognormal(0, 0), "sigma: must be > 0 (got 0)");
  starts(lognormal(INFINITY, 1), "mu: must be finite");
  starts(fixed(INFINITY), "value: must be finite (got inf)");
  starts(choice({}, {}), "values: must not be empty");
  starts(choice({1, NAN}, {}), "values[1]: must be finite");
  starts(choice({1, 2, 3}, {1, 2}), "weights: must have as many entries as values");
  starts(choice({1, 2, 3}, {1, 2, 0}), "weights[2]: must be > 0 (got 0)");
  starts(choice({1, 2, 3}, {1, -3, 1}), "weights[1]: must be > 0 (got -3)");
  for (const Distribution& ok : {normal(0, 1), uniform(-1, 1), truncated(0, 1, 0, INFINITY), truncated(0, 1, -INFINITY, INFINITY),
                                 lognormal(0, 0.1), fixed(2), choice({1}, {}), choice({1, 2}, {0.1, 0.9})})
    EXPECT_EQ(message(ok), "(accepted)") << distribution_kind_name(ok.kind);
}

TEST(Distribution, NamesRoundTrip) {
  for (DistributionKind kind : {DistributionKind::Fixed, DistributionKind::Uniform, DistributionKind::Normal,
                                DistributionKind::TruncatedNormal, DistributionKind::LogNormal, DistributionKind::Choice}) {
    DistributionKind parsed = DistributionKind::Fixed;
    ASSERT_TRUE(parse_distribution_kind(distribution_kind_name(kind), &parsed));
    EXPECT_EQ(parsed, kind);
  }
  EXPECT_STREQ(distribution_kind_name(DistributionKind::TruncatedNormal), "truncated_normal");
  EXPECT_STREQ(distribution_kind_name(DistributionKind::LogNormal), "lognormal");
  DistributionKind unused;
  EXPECT_FALSE(parse_distribution_kind("gaussian", &unused));
  for (SamplingMethod method : {SamplingMethod::Random, SamplingMethod::LatinHypercube, SamplingMethod::Sobol}) {
    SamplingMethod parsed = SamplingMethod::Random;
    ASSERT_TRUE(parse_sampling_method(sampling_method_name(method), &parsed));
    EXPECT_EQ(parsed, method);
  }
  EXPECT_STREQ(sampling_method_name(SamplingMethod::LatinHypercube), "lhs");
  SamplingMethod unused_method;
  EXPECT_FALSE(parse_sampling_method("halton", &unused_method));
}

// ---- designs ------------------------------------------------------------------------------------

TEST(LatinHypercube, EveryStratumOfEveryDimensionHitOnce) {
  struct Case {
    int64_t n;
    int d;
    uint64_t seed;
  };
  for (const Case& c : {Case{1, 3, 0}, Case{2, 2, 3}, Case{7, 3, 1}, Case{100, 5, 42}, Case{1000, 2, 7},
                        Case{1024, 4, 9}, Case{1025, 3, 123}, Case{4097, 2, 5}, Case{30001, 1, 11}}) {
    const SampleDesign design(SamplingMethod::LatinHypercube, c.d, c.n, c.seed);
    std::vector<std::vector<char>> hit(static_cast<size_t>(c.d), std::vector<char>(static_cast<size_t>(c.n), 0));
    std::vector<double> u(static_cast<size_t>(c.d));
    for (int64_t i = 0; i < c.n; ++i) {
      design.unit_point(i, u.data());
      for (int k = 0; k < c.d; ++k) {
        ASSERT_GT(u[k], 0.0);
        ASSERT_LT(u[k], 1.0);
        const int64_t stratum = std::min(c.n - 1, static_cast<int64_t>(u[k] * static_cast<double>(c.n)));
        ASSERT_EQ(hit[static_cast<size_t>(k)][static_cast<size_t>(stratum)]++, 0)
            << "n " << c.n << " dim " << k << " stratum " << stratum << " hit twice";
      }
    }
  }
}

TEST(SampleDesign, PointsIndependentOfEvaluationOrder) {
  constexpr int d = 5;
  constexpr int64_t n = 1000;
  for (SamplingMethod method : {SamplingMethod::Random, SamplingMethod::LatinHypercube, SamplingMethod::Sobol}) {
    const SampleDesign forward_design(method, d, n, 77);
    std::vector<double> forward(n * d), backward(n * d), chunked(n * d), single(n * d);
    for (int64_t i = 0; i < n; ++i) forward_design.unit_point(i, &forward[static_cast<size_t>(i * d)]);
    const SampleDesign backward_design(method, d, n, 77);  // a fresh object, as another process would build
    for (int64_t i = n - 1; i >= 0; --i) backward_design.unit_point(i, &backward[static_cast<size_t>(i * d)]);
    for (int64_t start = 0; start < n; start += 37) {  // chunks, each from its own design, last chunk first
      const int64_t chunk_start = (n - 1) / 37 * 37 - start;
      const SampleDesign chunk_design(method, d, n, 77);
      for (int64_t i = chunk_start; i < std::min(n, chunk_start + 37); ++i)
        chunk_design.unit_point(i, &chunked[static_cast<size_t>(i * d)]);
    }
    for (int64_t i = 0; i < n; ++i)
      for (int k = 0; k < d; ++k) single[static_cast<size_t>(i * d + k)] = forward_design.unit_coordinate(i, k);
    EXPECT_EQ(std::memcmp(forward.data(), backward.data(), forward.size() * sizeof(double)), 0);
    EXPECT_EQ(std::memcmp(forward.data(), chunked.data(), forward.size() * sizeof(double)), 0);
    EXPECT_EQ(std::memcmp(forward.data(), single.data(), forward.size() * sizeof(double)), 0);
    // A different seed moves every coordinate.
    const SampleDesign other(method, d, n, 78);
    int same = 0;
    for (int64_t i = 0; i < n; ++i)
      for (int k = 0; k < d; ++k) same += other.unit_coordinate(i, k) == forward[static_cast<size_t>(i * d + k)];
    EXPECT_EQ(same, 0) << sampling_method_name(method);
  }
}

TEST(SampleDesign, HugeSampleCountsAreCheap) {
  const int64_t n = (int64_t{1} << 40) + 3;
  for (SamplingMethod method : {SamplingMethod::Random, SamplingMethod::LatinHypercube, SamplingMethod::Sobol}) {
    const SampleDesign design(method, 8, n, 1);
    std::set<double> seen;
    for (int64_t i : {int64_t{0}, int64_t{1}, n / 2, n - 2, n - 1}) {
      double u[8];
      design.unit_point(i, u);
      for (double v : u) {
        EXPECT_GT(v, 0.0);
        EXPECT_LT(v, 1.0);
      }
      seen.insert(u[0]);
    }
    EXPECT_EQ(seen.size(), 5u) << sampling_method_name(method);
  }
}

TEST(SampleDesign, RejectsBadArguments) {
  EXPECT_THROW(SampleDesign(SamplingMethod::Random, -1, 10, 0), fleetdyn::Error);
  EXPECT_THROW(SampleDesign(SamplingMethod::Random, 2, 0, 0), fleetdyn::Error);
  EXPECT_THROW(SampleDesign(SamplingMethod::Sobol, kSobolMaxDimensions + 1, 10, 0), fleetdyn::Error);
  EXPECT_NO_THROW(SampleDesign(SamplingMethod::Sobol, kSobolMaxDimensions, 10, 0));
  const SampleDesign design(SamplingMethod::LatinHypercube, 2, 10, 0);
  double u[2];
  EXPECT_THROW(design.unit_point(10, u), fleetdyn::Error);
  EXPECT_THROW(design.unit_point(-1, u), fleetdyn::Error);
  EXPECT_THROW(design.unit_coordinate(0, 2), fleetdyn::Error);
}

}  // namespace
