#include "benchmarks/sy_bench/statistics.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace switchyard::bench {

summary summarize(std::vector<double> samples) {
  summary s;
  s.samples = samples.size();
  if (samples.empty()) return s;
  s.first = samples.front();
  s.mean = std::accumulate(samples.begin(), samples.end(), 0.0) / static_cast<double>(samples.size());
  double squares = 0;
  for (double v : samples) squares += (v - s.mean) * (v - s.mean);
  s.stddev = samples.size() > 1 ? std::sqrt(squares / static_cast<double>(samples.size() - 1)) : 0;
  std::sort(samples.begin(), samples.end());
  s.min = samples.front();
  s.max = samples.back();
  auto at = [&](double q) {
    auto i = static_cast<std::size_t>(std::ceil(q * static_cast<double>(samples.size())));
    return samples[std::min(samples.size() - 1, i == 0 ? 0 : i - 1)];
  };
  std::size_t n = samples.size();
  s.median = n % 2 == 1 ? samples[n / 2] : (samples[n / 2 - 1] + samples[n / 2]) / 2;
  s.p99 = at(0.99);
  return s;
}

std::size_t lower_interval_rank(std::size_t values, double level) {
  // P(Binomial(R, 1/2) <= k), accumulated term by term in doubles (R up to thousands: the terms
  // are computed as ratios, never as factorials).
  if (values == 0) return 0;
  const double n = static_cast<double>(values);
  double term = std::pow(0.5, n);  // P(B = 0)
  double below = 0;                // P(B < l) for the rank l being tried
  std::size_t rank = 0;
  for (std::size_t l = 1; l <= values / 2; ++l) {
    below += term;  // now P(B <= l - 1) = P(B < l)
    if (1.0 - 2.0 * below < level) break;
    rank = l;
    term *= (n - static_cast<double>(l - 1)) / static_cast<double>(l);
  }
  return rank;
}

median_interval median_with_interval(std::vector<double> values, double level) {
  median_interval result;
  result.values = values.size();
  if (values.empty()) return result;
  std::sort(values.begin(), values.end());
  std::size_t n = values.size();
  result.median = n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
  std::size_t rank = lower_interval_rank(n, level);
  if (rank == 0) return result;
  result.low = values[rank - 1];
  result.high = values[n - rank];
  double below = 0, term = std::pow(0.5, static_cast<double>(n));
  for (std::size_t k = 0; k < rank; ++k) {
    below += term;
    term *= (static_cast<double>(n) - static_cast<double>(k)) / static_cast<double>(k + 1);
  }
  result.coverage = 1.0 - 2.0 * below;
  return result;
}

trend_line fit_line(const std::vector<double>& x, const std::vector<double>& y) {
  trend_line line;
  line.points = std::min(x.size(), y.size());
  if (line.points == 0) return line;
  double n = static_cast<double>(line.points);
  double mx = 0, my = 0;
  for (std::size_t i = 0; i < line.points; ++i) mx += x[i], my += y[i];
  mx /= n;
  my /= n;
  double sxy = 0, sxx = 0;
  for (std::size_t i = 0; i < line.points; ++i) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) * (x[i] - mx);
  }
  line.per_unit = sxx > 0 ? sxy / sxx : 0;
  line.fixed = my - line.per_unit * mx;
  return line;
}

double trimmed_mean(std::vector<double> values, double trim) {
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::sort(values.begin(), values.end());
  const auto drop = static_cast<std::size_t>(static_cast<double>(values.size()) * std::clamp(trim, 0.0, 0.49));
  double sum = 0;
  for (std::size_t i = drop; i < values.size() - drop; ++i) sum += values[i];
  return sum / static_cast<double>(values.size() - 2 * drop);
}

}  // namespace switchyard::bench
