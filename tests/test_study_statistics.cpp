// Statistics for studies: binomial intervals against published tables and closed forms, the
// incomplete beta against identities and binomial sums, quantiles and ranks against hand values.
#include <gtest/gtest.h>

#include <cmath>
#include <initializer_list>
#include <limits>
#include <vector>

#include "fleetdyn/error.h"
#include "fleetdyn/physics/core/math.h"
#include "host/study/statistics.h"

namespace {

using fleetdyn::study::average_ranks;
using fleetdyn::study::clopper_pearson_interval;
using fleetdyn::study::Interval;
using fleetdyn::study::inverse_regularized_incomplete_beta;
using fleetdyn::study::regularized_incomplete_beta;
using fleetdyn::study::sorted_quantile;
using fleetdyn::study::spearman_correlation;
using fleetdyn::study::wilson_interval;

constexpr double kZ = 1.959963984540054;  // Phi^-1(0.975)
using fleetdyn::kPi;

// A row of a published table of 95 % intervals: k successes in n trials -> [lo, hi] (4 decimals).
struct TableRow {
  int k, n;
  double lo, hi;
};

// interval(k, n) matches each row of the table to its printed 4 decimals.
template <class IntervalOf>
void expect_table(IntervalOf interval, std::initializer_list<TableRow> rows) {
  for (const TableRow& row : rows) {
    const Interval ci = interval(row.k, row.n);
    EXPECT_NEAR(ci.lo, row.lo, 5e-5) << row.k << "/" << row.n;
    EXPECT_NEAR(ci.hi, row.hi, 5e-5) << row.k << "/" << row.n;
  }
}

// P(X >= k) for X ~ Binomial(n, p), summed term by term (independent of the incomplete beta code).
double binomial_upper_tail(int k, int n, double p) {
  double sum = 0.0;
  for (int j = k; j <= n; ++j)
    sum += std::exp(std::lgamma(n + 1.0) - std::lgamma(j + 1.0) - std::lgamma(n - j + 1.0) + j * std::log(p) +
                    (n - j) * std::log1p(-p));
  return sum;
}

TEST(WilsonInterval, HandComputedFromTheFormula) {
  // k = 0, n = 10: centre - half = 0 exactly, hi = z^2 / (n + z^2).
  const Interval zero = wilson_interval(0, 10);
  EXPECT_EQ(zero.lo, 0.0);
  EXPECT_NEAR(zero.hi, kZ * kZ / (10.0 + kZ * kZ), 1e-15);
  EXPECT_NEAR(zero.hi, 0.2775, 5e-5);
  // k = 5, n = 10: centre 1/2, half = z / (n + z^2) sqrt(n/4 + z^2/4) = 0.26341 -> [0.2366, 0.7634].
  const Interval half = wilson_interval(5, 10);
  const double half_width = kZ / (10.0 + kZ * kZ) * std::sqrt(2.5 + kZ * kZ / 4.0);
  EXPECT_NEAR(half.lo, 0.5 - half_width, 1e-15);
  EXPECT_NEAR(half.hi, 0.5 + half_width, 1e-15);
  EXPECT_NEAR(half.lo, 0.2366, 5e-5);
  EXPECT_NEAR(half.hi, 0.7634, 5e-5);
  // k = n mirrors k = 0.
  const Interval all = wilson_interval(10, 10);
  EXPECT_EQ(all.hi, 1.0);
  EXPECT_NEAR(all.lo, 1.0 - zero.hi, 1e-15);
}

TEST(WilsonInterval, MatchesNewcombe1998TableI) {
  // Newcombe, Statistics in Medicine 17 (1998) 857-872, Table I, method 3 (score, no continuity
  // correction), 4 decimals: 81/263 -> 0.2553-0.3662, 15/148 -> 0.0624-0.1605, 0/20 -> 0-0.1611,
  // 1/29 -> 0.0061-0.1718.
  expect_table([](int k, int n) { return wilson_interval(k, n); },
               {{81, 263, 0.2553, 0.3662}, {15, 148, 0.0624, 0.1605}, {0, 20, 0.0, 0.1611}, {1, 29, 0.0061, 0.1718}});
}

TEST(WilsonInterval, EdgesAndArguments) {
  const Interval none = wilson_interval(0, 0);
  EXPECT_EQ(none.lo, 0.0);
  EXPECT_EQ(none.hi, 1.0);
  const Interval ci95 = wilson_interval(3, 50), ci99 = wilson_interval(3, 50, 0.99);
  EXPECT_LT(ci99.lo, ci95.lo);
  EXPECT_GT(ci99.hi, ci95.hi);
  EXPECT_THROW(wilson_interval(-1, 10), fleetdyn::Error);
  EXPECT_THROW(wilson_interval(11, 10), fleetdyn::Error);
  EXPECT_THROW(wilson_interval(1, -1), fleetdyn::Error);
  EXPECT_THROW(wilson_interval(1, 10, 1.0), fleetdyn::Error);
  EXPECT_THROW(wilson_interval(1, 10, 0.0), fleetdyn::Error);
}

TEST(ClopperPearsonInterval, PublishedAndClosedFormValues) {
  // k = 0: hi solves (1 - p)^n = alpha/2, so hi = 1 - 0.025^(1/n); n = 10 -> 0.3085.
  const Interval zero = clopper_pearson_interval(0, 10);
  EXPECT_EQ(zero.lo, 0.0);
  EXPECT_NEAR(zero.hi, 1.0 - std::pow(0.025, 0.1), 1e-13);
  EXPECT_NEAR(zero.hi, 0.3085, 5e-5);
  // k = n: lo = 0.025^(1/n).
  const Interval all = clopper_pearson_interval(10, 10);
  EXPECT_EQ(all.hi, 1.0);
  EXPECT_NEAR(all.lo, std::pow(0.025, 0.1), 1e-13);
  // k = 5, n = 10 -> [0.1871, 0.8129] (symmetric).
  const Interval half = clopper_pearson_interval(5, 10);
  EXPECT_NEAR(half.lo, 0.1871, 5e-5);
  EXPECT_NEAR(half.hi, 0.8129, 5e-5);
  EXPECT_NEAR(half.lo, 1.0 - half.hi, 1e-13);
  // Newcombe 1998 Table I, method 5 (exact): 81/263 -> 0.2527-0.3676, 15/148 -> 0.0578-0.1617,
  // 0/20 -> 0-0.1684, 1/29 -> 0.0009-0.1776.
  expect_table([](int k, int n) { return clopper_pearson_interval(k, n); },
               {{81, 263, 0.2527, 0.3676}, {15, 148, 0.0578, 0.1617}, {0, 20, 0.0, 0.1684}, {1, 29, 0.0009, 0.1776}});
}

TEST(ClopperPearsonInterval, BoundsSatisfyTheDefiningTailEquations) {
  // lo: P(X >= k | lo) = alpha/2; hi: P(X <= k | hi) = alpha/2, by direct binomial sums.
  for (int n : {7, 40, 263}) {
    for (int k : {1, n / 3, n - 1}) {
      const Interval ci = clopper_pearson_interval(k, n, 0.9);
      EXPECT_NEAR(binomial_upper_tail(k, n, ci.lo), 0.05, 1e-12) << k << "/" << n;
      EXPECT_NEAR(1.0 - binomial_upper_tail(k + 1, n, ci.hi), 0.05, 1e-12) << k << "/" << n;
    }
  }
  EXPECT_EQ(clopper_pearson_interval(0, 0).hi, 1.0);
  EXPECT_THROW(clopper_pearson_interval(3, 2), fleetdyn::Error);
}

TEST(RegularizedIncompleteBeta, ClosedForms) {
  for (double x : {0.0, 1e-9, 0.1, 0.37, 0.5, 0.9, 1.0 - 1e-9, 1.0}) {
    EXPECT_NEAR(regularized_incomplete_beta(1.0, 1.0, x), x, 1e-15) << x;
    EXPECT_NEAR(regularized_incomplete_beta(3.5, 1.0, x), std::pow(x, 3.5), 1e-14) << x;  // I_x(a,1) = x^a
    EXPECT_NEAR(regularized_incomplete_beta(1.0, 2.5, x), 1.0 - std::pow(1.0 - x, 2.5), 1e-14) << x;
    // Arcsine law: I_x(1/2, 1/2) = (2/pi) asin(sqrt(x)), written from the nearer end (asin is
    // ill-conditioned near 1; 1 - x is exact there).
    const double arcsine = x <= 0.5 ? 2.0 / kPi * std::asin(std::sqrt(x)) : 1.0 - 2.0 / kPi * std::asin(std::sqrt(1.0 - x));
    EXPECT_NEAR(regularized_incomplete_beta(0.5, 0.5, x), arcsine, 1e-14) << x;
    // I_x(2, 3) = 6x^2 - 8x^3 + 3x^4 (the Beta(2,3) CDF integrated by hand).
    EXPECT_NEAR(regularized_incomplete_beta(2.0, 3.0, x), 6 * x * x - 8 * x * x * x + 3 * x * x * x * x, 1e-14) << x;
  }
  for (double a : {0.3, 2.0, 17.0, 1000.0}) EXPECT_NEAR(regularized_incomplete_beta(a, a, 0.5), 0.5, 1e-13) << a;
}

TEST(RegularizedIncompleteBeta, SymmetryAndBinomialSums) {
  for (double a : {0.7, 3.0, 40.0})
    for (double b : {0.2, 5.0, 120.0})
      for (double x : {0.01, 0.3, 0.8})
        EXPECT_NEAR(regularized_incomplete_beta(a, b, x), 1.0 - regularized_incomplete_beta(b, a, 1.0 - x), 1e-13);
  // I_p(k, n - k + 1) = P(Binomial(n, p) >= k).
  for (int n : {5, 30, 200})
    for (int k : {1, n / 2, n})
      for (double p : {0.05, 0.5, 0.93}) {
        const double expected = binomial_upper_tail(k, n, p);
        EXPECT_NEAR(regularized_incomplete_beta(k, n - k + 1.0, p), expected, 1e-13 * std::max(1.0, expected))
            << k << "/" << n << " p " << p;
      }
  EXPECT_THROW(regularized_incomplete_beta(0.0, 1.0, 0.5), fleetdyn::Error);
  EXPECT_THROW(regularized_incomplete_beta(1.0, -1.0, 0.5), fleetdyn::Error);
  EXPECT_THROW(regularized_incomplete_beta(1.0, 1.0, 1.5), fleetdyn::Error);
}

TEST(RegularizedIncompleteBeta, InverseIsWithinTwoUlpsOfTheRoot) {
  // Where I_x is steep (b = 1/2 near x = 1) p may fall between the values at adjacent doubles, so
  // the check is that the root lies within two ulps of the answer, up to I's own documented error
  // (3e-15 (a + b) relative, plus 1e-14).
  for (double a : {0.5, 1.0, 4.0, 81.0, 5000.0})
    for (double b : {0.5, 2.0, 183.0, 1e5})
      for (double p : {1e-12, 0.025, 0.5, 0.975, 1.0 - 1e-9}) {
        const double x = inverse_regularized_incomplete_beta(a, b, p);
        ASSERT_GT(x, 0.0);
        ASSERT_LE(x, 1.0);
        const double below = std::nextafter(std::nextafter(x, 0.0), 0.0);
        const double above = std::min(1.0, std::nextafter(std::nextafter(x, 1.0), 1.0));
        const double tolerance = (3e-15 * (a + b) + 1e-14) * p;
        EXPECT_LE(regularized_incomplete_beta(a, b, below), p + tolerance) << a << " " << b << " " << p;
        EXPECT_GE(regularized_incomplete_beta(a, b, above), p - tolerance) << a << " " << b << " " << p;
      }
  EXPECT_EQ(inverse_regularized_incomplete_beta(2.0, 3.0, 0.0), 0.0);
  EXPECT_EQ(inverse_regularized_incomplete_beta(2.0, 3.0, 1.0), 1.0);
}

TEST(SortedQuantile, NumpyType7ByHand) {
  // h = (n - 1) p; x[floor h] + (h - floor h)(x[floor h + 1] - x[floor h]).
  const std::vector<double> x = {1, 2, 3, 4};
  EXPECT_DOUBLE_EQ(sorted_quantile(x, 0.5), 2.5);    // h = 1.5
  EXPECT_DOUBLE_EQ(sorted_quantile(x, 0.25), 1.75);  // h = 0.75
  EXPECT_DOUBLE_EQ(sorted_quantile(x, 0.9), 3.7);    // h = 2.7
  EXPECT_EQ(sorted_quantile(x, 0.0), 1.0);
  EXPECT_EQ(sorted_quantile(x, 1.0), 4.0);
  EXPECT_DOUBLE_EQ(sorted_quantile({10, 20, 40}, 0.75), 30.0);  // h = 1.5
  EXPECT_DOUBLE_EQ(sorted_quantile({10, 20, 40}, 0.1), 12.0);   // h = 0.2
  EXPECT_EQ(sorted_quantile({7.5}, 0.3), 7.5);
  EXPECT_THROW(sorted_quantile({}, 0.5), fleetdyn::Error);
  EXPECT_THROW(sorted_quantile(x, 1.5), fleetdyn::Error);
  EXPECT_THROW(sorted_quantile(x, -0.1), fleetdyn::Error);
}

TEST(AverageRanks, TiesShareTheMeanRank) {
  EXPECT_EQ(average_ranks({10, 20, 20, 30}), (std::vector<double>{1, 2.5, 2.5, 4}));
  EXPECT_EQ(average_ranks({3, 1, 2}), (std::vector<double>{3, 1, 2}));
  EXPECT_EQ(average_ranks({5, 5, 5}), (std::vector<double>{2, 2, 2}));
  EXPECT_EQ(average_ranks({2, 1, 2, 1, 2}), (std::vector<double>{4, 1.5, 4, 1.5, 4}));
  EXPECT_TRUE(average_ranks({}).empty());
  EXPECT_THROW(average_ranks({1, std::nan(""), 2}), fleetdyn::Error);
}

TEST(SpearmanCorrelation, HandExampleWithTies) {
  // x = 1 2 2 3 4 -> ranks 1 2.5 2.5 4 5;  y = 2 1 3 3 5 -> ranks 2 1 3.5 3.5 5. Centred on 3:
  // dx = -2 -.5 -.5 1 2, dy = -1 -2 .5 .5 2; sum dx dy = 7.25, sum dx^2 = sum dy^2 = 9.5.
  EXPECT_NEAR(spearman_correlation({1, 2, 2, 3, 4}, {2, 1, 3, 3, 5}), 7.25 / 9.5, 1e-15);
}

TEST(SpearmanCorrelation, MonotoneConstantAndNaN) {
  std::vector<double> x, up, down;
  for (int i = 0; i < 50; ++i) {
    x.push_back(i * 0.37 - 3.0);
    up.push_back(std::exp(x.back()));  // monotone but far from linear
    down.push_back(-x.back() * x.back() * x.back());
  }
  EXPECT_DOUBLE_EQ(spearman_correlation(x, up), 1.0);
  EXPECT_DOUBLE_EQ(spearman_correlation(x, down), -1.0);
  EXPECT_TRUE(std::isnan(spearman_correlation(x, std::vector<double>(x.size(), 4.0))));
  EXPECT_TRUE(std::isnan(spearman_correlation({1.0}, {2.0})));
  // A pair with a NaN on either side is dropped.
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_DOUBLE_EQ(spearman_correlation({1, 2, nan, 2, 3, 4, 9}, {2, 1, 8, 3, 3, 5, nan}), 7.25 / 9.5);
  EXPECT_THROW(spearman_correlation({1, 2}, {1, 2, 3}), fleetdyn::Error);
}

}  // namespace
