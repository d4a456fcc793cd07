// Statistics for Monte Carlo studies (see statistics.h for the references).
#include "host/study/statistics.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numeric>
#include <string>

#include "fleetdyn/error.h"

namespace fleetdyn::study {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// 1/sqrt(2) as a double plus the remainder, so x / sqrt(2) can be formed to twice the precision.
constexpr double kInvSqrt2Hi = 0.7071067811865476;
constexpr double kInvSqrt2Lo = -4.8336466567264565e-17;
constexpr double kTwoOverSqrtPi = 1.1283791670955126;
constexpr double kInvSqrt2Pi = 0.3989422804014327;

double polynomial(const double* c, int n, double x) {  // c[0] + c[1] x + ... + c[n-1] x^(n-1)
  double value = c[n - 1];
  for (int i = n - 2; i >= 0; --i) value = value * x + c[i];
  return value;
}

std::string fmt(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.17g", v);
  return buffer;
}

void check_binomial(int64_t successes, int64_t trials, double confidence) {
  if (trials < 0) throw Error("trials: must be >= 0 (got " + std::to_string(trials) + ")");
  if (successes < 0 || successes > trials)
    throw Error("successes: must be in [0, trials] (got " + std::to_string(successes) + " of " +
                std::to_string(trials) + ")");
  if (!(confidence > 0.0 && confidence < 1.0))
    throw Error("confidence: must be in (0, 1) (got " + fmt(confidence) + ")");
}

double log_beta_function(double a, double b) { return std::lgamma(a) + std::lgamma(b) - std::lgamma(a + b); }

// log of x^a (1-x)^b / B(a, b): the prefactor of the continued fraction.
double log_beta_kernel(double a, double b, double x) {
  return a * std::log(x) + b * std::log1p(-x) - log_beta_function(a, b);
}

// Continued fraction for I_x(a, b) (Abramowitz & Stegun 26.5.8), modified Lentz evaluation
// (Press et al., Numerical Recipes, betacf). Converges fast for x < (a + 1) / (a + b + 2).
double beta_continued_fraction(double a, double b, double x) {
  constexpr double kTiny = 1e-300;
  constexpr double kEps = 1e-16;
  const double qab = a + b, qap = a + 1.0, qam = a - 1.0;
  double c = 1.0;
  double d = 1.0 - qab * x / qap;
  if (std::fabs(d) < kTiny) d = kTiny;
  d = 1.0 / d;
  double h = d;
  // The number of terms grows like sqrt(max(a, b)); the cap only guards against NaN input.
  const int max_terms = 1000 + static_cast<int>(10.0 * std::sqrt(std::max(a, b)));
  for (int m = 1; m <= max_terms; ++m) {
    const double m2 = 2.0 * m;
    double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
    d = 1.0 + aa * d;
    if (std::fabs(d) < kTiny) d = kTiny;
    c = 1.0 + aa / c;
    if (std::fabs(c) < kTiny) c = kTiny;
    d = 1.0 / d;
    h *= d * c;
    aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
    d = 1.0 + aa * d;
    if (std::fabs(d) < kTiny) d = kTiny;
    c = 1.0 + aa / c;
    if (std::fabs(c) < kTiny) c = kTiny;
    d = 1.0 / d;
    const double delta = d * c;
    h *= delta;
    if (std::fabs(delta - 1.0) < kEps) break;
  }
  return h;
}

}  // namespace

double normal_cdf(double x) {
  if (std::isnan(x)) return kNaN;
  if (std::isinf(x)) return x > 0.0 ? 1.0 : 0.0;
  // Phi(x) = erfc(z) / 2 with z = -x / sqrt(2). The rounding of z would cost up to |z|^2 ulps in the
  // tail, so z = z0 + dz is formed exactly enough and erfc corrected to first order in dz.
  const double z0 = -x * kInvSqrt2Hi;
  const double dz = std::fma(-x, kInvSqrt2Hi, -z0) + (-x * kInvSqrt2Lo);
  const double e = std::erfc(z0);
  return 0.5 * (e - kTwoOverSqrtPi * std::exp(-z0 * z0) * dz);
}

double normal_quantile(double p) {
  if (std::isnan(p)) return kNaN;
  if (p <= 0.0) return -std::numeric_limits<double>::infinity();
  if (p >= 1.0) return std::numeric_limits<double>::infinity();
  // Wichura 1988, AS241 PPND16: three rational approximations (centre, near tail, far tail).
  static constexpr double a[8] = {3.3871328727963666080e0,  1.3314166789178437745e+2, 1.9715909503065514427e+3,
                                  1.3731693765509461125e+4, 4.5921953931549871457e+4, 6.7265770927008700853e+4,
                                  3.3430575583588128105e+4, 2.5090809287301226727e+3};
  static constexpr double b[8] = {1.0,
                                  4.2313330701600911252e+1,
                                  6.8718700749205790830e+2,
                                  5.3941960214247511077e+3,
                                  2.1213794301586595867e+4,
                                  3.9307895800092710610e+4,
                                  2.8729085735721942674e+4,
                                  5.2264952788528545610e+3};
  static constexpr double c[8] = {1.42343711074968357734e0,  4.63033784615654529590e0, 5.76949722146069140550e0,
                                  3.64784832476320460504e0,  1.27045825245236838258e0, 2.41780725177450611770e-1,
                                  2.27238449892691845833e-2, 7.74545014278341407640e-4};
  static constexpr double d[8] = {1.0,
                                  2.05319162663775882187e0,
                                  1.67638483018380384940e0,
                                  6.89767334985100004550e-1,
                                  1.48103976427480074590e-1,
                                  1.51986665636164571966e-2,
                                  5.47593808499534494600e-4,
                                  1.05075007164441684324e-9};
  static constexpr double e[8] = {6.65790464350110377720e0,  5.46378491116411436990e0,  1.78482653991729133580e0,
                                  2.96560571828504891230e-1, 2.65321895265761230930e-2, 1.24266094738807843860e-3,
                                  2.71155556874348757815e-5, 2.01033439929228813265e-7};
  static constexpr double f[8] = {1.0,
                                  5.99832206555887937690e-1,
                                  1.36929880922735805310e-1,
                                  1.48753612908506148525e-2,
                                  7.86869131145613259100e-4,
                                  1.84631831751005468180e-5,
                                  1.42151175831644588870e-7,
                                  2.04426310338993978564e-15};
  const double q = p - 0.5;
  if (std::fabs(q) <= 0.425) {
    const double r = 0.180625 - q * q;
    return q * polynomial(a, 8, r) / polynomial(b, 8, r);
  }
  const double tail = q < 0.0 ? p : 1.0 - p;  // the smaller tail, exact (Sterbenz) for p >= 0.5
  double r = std::sqrt(-std::log(tail));
  double value;
  if (r <= 5.0) {
    r -= 1.6;
    value = polynomial(c, 8, r) / polynomial(d, 8, r);
  } else {
    r -= 5.0;
    value = polynomial(e, 8, r) / polynomial(f, 8, r);
  }
  // AS241 is good to a few ulps here (the rounding of log and sqrt). One Newton step on the lower
  // tail, x -= (Phi(x) - tail) / phi(x), brings that to about one ulp: Phi(-|x|) is accurate to
  // ~1e-16 relative, so the step's own error is ~1e-16 Phi/phi < 1e-16 / |x| absolute. Skipped
  // where phi(x) is subnormal.
  if (tail > 1e-300) {
    const double x = -value;
    value += (normal_cdf(x) - tail) / (std::exp(-0.5 * x * x) * kInvSqrt2Pi);
  }
  return q < 0.0 ? -value : value;
}

Interval wilson_interval(int64_t successes, int64_t trials, double confidence) {
  check_binomial(successes, trials, confidence);
  if (trials == 0) return {0.0, 1.0};
  const double z = -normal_quantile(0.5 * (1.0 - confidence));
  const double n = static_cast<double>(trials), k = static_cast<double>(successes);
  const double z2 = z * z;
  const double centre = (k + 0.5 * z2) / (n + z2);
  const double half = z / (n + z2) * std::sqrt(k * (n - k) / n + 0.25 * z2);
  // At k = 0 and k = n the bounds are exactly 0 and 1; the formula leaves round-off there.
  const double lo = successes == 0 ? 0.0 : std::max(0.0, centre - half);
  const double hi = successes == trials ? 1.0 : std::min(1.0, centre + half);
  return {lo, hi};
}

Interval clopper_pearson_interval(int64_t successes, int64_t trials, double confidence) {
  check_binomial(successes, trials, confidence);
  if (trials == 0) return {0.0, 1.0};
  const double alpha = 1.0 - confidence;
  const double n = static_cast<double>(trials), k = static_cast<double>(successes);
  // lo: P(X >= k | p = lo) = alpha / 2, i.e. lo is the alpha/2 quantile of Beta(k, n - k + 1);
  // hi: P(X <= k | p = hi) = alpha / 2, the 1 - alpha/2 quantile of Beta(k + 1, n - k).
  const double lo = successes == 0 ? 0.0 : inverse_regularized_incomplete_beta(k, n - k + 1.0, 0.5 * alpha);
  const double hi = successes == trials ? 1.0 : inverse_regularized_incomplete_beta(k + 1.0, n - k, 1.0 - 0.5 * alpha);
  return {lo, hi};
}

double regularized_incomplete_beta(double a, double b, double x) {
  if (!(a > 0.0) || !std::isfinite(a)) throw Error("a: must be > 0 and finite (got " + fmt(a) + ")");
  if (!(b > 0.0) || !std::isfinite(b)) throw Error("b: must be > 0 and finite (got " + fmt(b) + ")");
  if (!(x >= 0.0 && x <= 1.0)) throw Error("x: must be in [0, 1] (got " + fmt(x) + ")");
  if (x == 0.0) return 0.0;
  if (x == 1.0) return 1.0;
  // Evaluate on the side of the mean where the fraction converges, using I_x(a,b) = 1 - I_{1-x}(b,a).
  if (x < (a + 1.0) / (a + b + 2.0)) {
    return std::exp(log_beta_kernel(a, b, x)) * beta_continued_fraction(a, b, x) / a;
  }
  return 1.0 - std::exp(log_beta_kernel(b, a, 1.0 - x)) * beta_continued_fraction(b, a, 1.0 - x) / b;
}

double inverse_regularized_incomplete_beta(double a, double b, double p) {
  if (!(p >= 0.0 && p <= 1.0)) throw Error("p: must be in [0, 1] (got " + fmt(p) + ")");
  regularized_incomplete_beta(a, b, 0.5);  // validates a and b
  if (p == 0.0) return 0.0;
  if (p == 1.0) return 1.0;
  // I_x is increasing in x: keep a bracket [lo, hi] and take Newton steps (derivative = the Beta
  // density) while they stay inside it, halving the bracket otherwise. Newton converges
  // quadratically once close; the bracket makes the iteration safe from any start.
  const double log_beta = log_beta_function(a, b);
  double lo = 0.0, hi = 1.0;
  double x = a / (a + b);
  for (int iteration = 0; iteration < 1000; ++iteration) {
    const double residual = regularized_incomplete_beta(a, b, x) - p;
    if (residual == 0.0) return x;
    if (residual < 0.0) lo = x;
    else hi = x;
    const double density = std::exp((a - 1.0) * std::log(x) + (b - 1.0) * std::log1p(-x) - log_beta);
    double next = x - residual / density;
    if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
    // Done when Newton no longer moves x or the bracket holds no other double.
    if (next == x || next == lo || next == hi) return x;
    x = next;
  }
  return x;
}

double sorted_quantile(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) throw Error("sorted_quantile: no data");
  if (!(p >= 0.0 && p <= 1.0)) throw Error("p: must be in [0, 1] (got " + fmt(p) + ")");
  const double h = static_cast<double>(sorted.size() - 1) * p;
  const size_t below = static_cast<size_t>(std::floor(h));
  if (below + 1 >= sorted.size()) return sorted.back();
  const double t = h - static_cast<double>(below);
  const double lo = sorted[below], hi = sorted[below + 1];
  // numpy's lerp: from the nearer end, so t = 1 gives hi exactly and the result stays monotone in p.
  return t < 0.5 ? lo + (hi - lo) * t : hi - (hi - lo) * (1.0 - t);
}

std::vector<double> average_ranks(const std::vector<double>& x) {
  for (size_t i = 0; i < x.size(); ++i)
    if (std::isnan(x[i])) throw Error("average_ranks: NaN at index " + std::to_string(i));
  std::vector<size_t> order(x.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::sort(order.begin(), order.end(), [&](size_t i, size_t j) { return x[i] < x[j]; });
  std::vector<double> ranks(x.size());
  for (size_t start = 0; start < order.size();) {
    size_t end = start + 1;
    while (end < order.size() && x[order[end]] == x[order[start]]) ++end;
    // positions start .. end-1 (0-based) hold equal values: each gets the mean 1-based rank.
    const double rank = 0.5 * static_cast<double>(start + 1 + end);
    for (size_t i = start; i < end; ++i) ranks[order[i]] = rank;
    start = end;
  }
  return ranks;
}

double spearman_correlation(const std::vector<double>& x, const std::vector<double>& y) {
  if (x.size() != y.size())
    throw Error("spearman_correlation: x has " + std::to_string(x.size()) + " values, y has " + std::to_string(y.size()));
  std::vector<double> xs, ys;
  xs.reserve(x.size());
  ys.reserve(y.size());
  for (size_t i = 0; i < x.size(); ++i) {
    if (std::isnan(x[i]) || std::isnan(y[i])) continue;
    xs.push_back(x[i]);
    ys.push_back(y[i]);
  }
  if (xs.size() < 2) return kNaN;
  const std::vector<double> rx = average_ranks(xs), ry = average_ranks(ys);
  // Ranks have mean (n + 1) / 2 exactly, so centring costs no pass over the data.
  const double mean = 0.5 * static_cast<double>(xs.size() + 1);
  double sxy = 0.0, sxx = 0.0, syy = 0.0;
  for (size_t i = 0; i < rx.size(); ++i) {
    const double dx = rx[i] - mean, dy = ry[i] - mean;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  if (sxx == 0.0 || syy == 0.0) return kNaN;
  return sxy / std::sqrt(sxx * syy);
}

}  // namespace fleetdyn::study
