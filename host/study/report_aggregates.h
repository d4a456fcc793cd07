// The report's aggregates of a study's columns: summary statistics, histograms, empirical CDFs,
// event probabilities binned over a parameter and decimated traces. report.cpp turns them into
// the page's tables and its JSON; they are small whatever the number of samples.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace fleetdyn::study {

struct ColumnStats {
  std::vector<double> sorted;  // the finite values, ascending
  int64_t missing = 0;
  double mean = NAN, stddev = NAN, min = NAN, max = NAN, q05 = NAN, q50 = NAN, q95 = NAN;
};

ColumnStats column_stats(const std::vector<double>& values);

// The smallest of 1, 2, 2.5, 5 x 10^k that is >= raw (bin widths that read well on an axis).
double nice_width(double raw);

struct Histogram {
  double lo = 0, width = 1;
  std::vector<int64_t> counts;
};

// Freedman-Diaconis bin count (robust to tails; sqrt(n) when the IQR is 0), at most max_bins,
// with a "nice" width and edges on multiples of it.
Histogram make_histogram(const std::vector<double>& sorted, int max_bins);

// The empirical CDF as a polyline: the exact step function for few samples, otherwise the
// type-7 quantile function at `points` + 1 equally spaced probabilities.
void make_cdf(const std::vector<double>& sorted, int points, std::vector<double>& x, std::vector<double>& p);

struct ProbabilityBin {
  double lo = 0, hi = 0, x = 0;  // the bin's parameter range and median
  int64_t n = 0, k = 0;          // samples, and those with the event
};

// Samples with a finite parameter value, in ascending order of it (ties by sample order).
std::vector<int64_t> order_by(const std::vector<double>& param);

// Bin boundaries (positions in `order`) of about equal counts; a boundary never splits equal
// parameter values (it moves to the nearer end of the run of ties), so each bin is a disjoint
// value range [lo, hi] and a discrete parameter gets one bin per level at most.
std::vector<size_t> equal_count_boundaries(const std::vector<double>& param, const std::vector<int64_t>& order,
                                           int max_bins, int min_per_bin);

std::vector<ProbabilityBin> probability_bins(const std::vector<double>& param, const std::vector<int64_t>& order,
                                             const std::vector<size_t>& bounds, const std::vector<uint8_t>& occurred);

// Min/max decimation to about `points` points: each bucket keeps its lowest and highest value in
// time order, so peaks (what a worst case is about) survive. Non-finite values break the line.
void decimate(const std::vector<double>& t, const std::vector<double>& y, int points, std::vector<double>& tx,
              std::vector<double>& yx);

}  // namespace fleetdyn::study
