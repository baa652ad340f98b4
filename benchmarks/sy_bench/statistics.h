// Summaries of samples (the figures every table reports), the median with a distribution-free
// confidence interval (docs/experiments.md, "Statistics on a noisy machine"), and the
// least-squares trend line of the evaluation report (tables 1-6: time = fixed cost + cost per
// byte * bytes).
#pragma once

#include <cstddef>
#include <limits>
#include <vector>

namespace switchyard::bench {

struct summary {
  std::size_t samples = 0;
  double mean = 0, median = 0, p99 = 0, stddev = 0, first = 0, min = 0, max = 0;
};

// Of the samples in their measured order (`first` is the first one); empty gives all zeros.
summary summarize(std::vector<double> samples);

// The median of R values and the order statistics x(l) <= median <= x(R+1-l) that cover the
// population median with probability `coverage` = 1 - 2 P(Binomial(R, 1/2) < l), for the largest
// rank l whose coverage is at least `level`. No assumption about the distribution: the values
// need only be independent draws of one quantity (a cell's round medians). Fewer than 6 values
// cannot give 95 %: then low and high are NaN and coverage 0.
struct median_interval {
  double median = std::numeric_limits<double>::quiet_NaN();
  double low = std::numeric_limits<double>::quiet_NaN();
  double high = std::numeric_limits<double>::quiet_NaN();
  double coverage = 0;
  std::size_t values = 0;
  bool has_interval() const noexcept { return coverage > 0; }
};

median_interval median_with_interval(std::vector<double> values, double level = 0.95);

// The mean of the values left after dropping the `trim` share from each end (0.25: the
// interquartile mean). As robust as the median to a few stalled calls, but it averages over the
// clock's steps: the paired demux estimate's round value, where the clock moves in 10 ns steps
// (the VM's time-stamp counter) and a collocated call takes 200 ns. NaN for no values.
double trimmed_mean(std::vector<double> values, double trim = 0.25);

// The rank l (1-based) of median_with_interval for R values, 0 when no rank reaches `level`.
std::size_t lower_interval_rank(std::size_t values, double level = 0.95);

struct trend_line {
  double fixed = 0;     // intercept
  double per_unit = 0;  // slope
  std::size_t points = 0;
};

trend_line fit_line(const std::vector<double>& x, const std::vector<double>& y);

}  // namespace switchyard::bench
