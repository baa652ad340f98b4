// Summaries of samples (the figures every table reports) and the least-squares trend line of the
// evaluation report (tables 1-6: time = fixed cost + cost per byte * bytes).
#pragma once

#include <cstddef>
#include <vector>

namespace switchyard::bench {

struct summary {
  std::size_t samples = 0;
  double mean = 0, median = 0, p99 = 0, stddev = 0, first = 0, min = 0, max = 0;
};

// Of the samples in their measured order (`first` is the first one); empty gives all zeros.
summary summarize(std::vector<double> samples);

struct trend_line {
  double fixed = 0;     // intercept
  double per_unit = 0;  // slope
  std::size_t points = 0;
};

trend_line fit_line(const std::vector<double>& x, const std::vector<double>& y);

}  // namespace switchyard::bench
