// Statistics for Monte Carlo studies: the normal distribution's CDF and quantile, binomial
// confidence intervals for failure probabilities, the regularized incomplete beta function behind
// the exact interval, quantiles and rank correlation. All double precision, host only.
#pragma once

#include <cstdint>
#include <vector>

namespace fleetdyn::study {

// Standard normal CDF Phi(x), to about 1 ulp of erfc (the rounding of x / sqrt(2) is corrected).
double normal_cdf(double x);
// Inverse of Phi: Wichura's AS241 (Applied Statistics 37 (1988) 477-484) with one Newton step in
// the tails: within about 1 ulp there and 3 ulps for 0.075 < p < 0.925 (checked against mpmath);
// p in (0, 1); p <= 0 gives -inf, p >= 1 gives +inf, NaN gives NaN.
double normal_quantile(double p);

struct Interval {
  double lo, hi;
};

// Wilson score interval (Wilson 1927; Newcombe, Statistics in Medicine 17 (1998) 857-872, method 3)
// for a binomial proportion: good coverage even at 0 or n successes, where the Wald interval
// collapses. trials == 0 gives {0, 1}. Throws fleetdyn::Error unless 0 <= successes <= trials and
// 0 < confidence < 1.
Interval wilson_interval(int64_t successes, int64_t trials, double confidence = 0.95);

// Clopper-Pearson "exact" interval (Biometrika 26 (1934) 404-413; Newcombe 1998 method 5): the
// inverse regularized incomplete beta at (1 -+ confidence) / 2. Conservative: coverage >= confidence.
// successes == 0 gives lo = 0, successes == trials gives hi = 1, trials == 0 gives {0, 1}.
Interval clopper_pearson_interval(int64_t successes, int64_t trials, double confidence = 0.95);

// I_x(a, b) = B(x; a, b) / B(a, b), a > 0, b > 0, 0 <= x <= 1 (throws otherwise). Continued fraction
// (modified Lentz) on the side of the mean where it converges fast, times exp of a log prefactor
// built from lgamma; that exp limits the relative error, measured against mpmath at about 1e-14
// for a + b < 10, 3e-13 near 100 and 4e-12 near 5000 (roughly 3e-15 (a + b)): ample for intervals.
double regularized_incomplete_beta(double a, double b, double x);
// The x in [0, 1] with I_x(a, b) = p, 0 <= p <= 1 (safeguarded Newton on a bisection bracket).
double inverse_regularized_incomplete_beta(double a, double b, double p);

// Quantile of ascending data by linear interpolation between order statistics: Hyndman & Fan
// (1996) type 7, numpy's default. p in [0, 1]; `sorted` non-empty, ascending, no NaN (throws on
// empty data or p outside [0, 1]).
double sorted_quantile(const std::vector<double>& sorted, double p);

// 1-based ranks; tied values share the mean of the ranks they span. Throws on NaN.
std::vector<double> average_ranks(const std::vector<double>& x);

// Spearman's rank correlation: Pearson correlation of the average ranks (the form that stays exact
// with ties). Pairs where either value is NaN are dropped first; NaN when fewer than two pairs
// remain or either side is constant. Throws when x and y differ in length.
double spearman_correlation(const std::vector<double>& x, const std::vector<double>& y);

}  // namespace fleetdyn::study
