#include "benchmarks/sy_bench/paired_design.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace switchyard::bench {

std::vector<std::vector<std::uint8_t>> williams_rows(std::size_t n) {
  if (n == 0 || n > 255) throw std::invalid_argument("williams_rows: 1..255 treatments");
  // The first row 0, 1, n-1, 2, n-2, ...; row i adds i to each entry, modulo n.
  std::vector<std::size_t> first;
  for (std::size_t low = 0, high = n; first.size() < n;) {
    first.push_back(low++);
    if (first.size() < n) first.push_back(--high % n);
  }
  std::vector<std::vector<std::uint8_t>> rows;
  for (std::size_t i = 0; i < n; ++i) {
    std::vector<std::uint8_t> row;
    for (auto t : first) row.push_back(static_cast<std::uint8_t>((t + i) % n));
    rows.push_back(std::move(row));
  }
  if (n % 2 == 1)
    for (std::size_t i = 0; i < n; ++i) rows.emplace_back(rows[i].rbegin(), rows[i].rend());
  return rows;
}

balanced_order::balanced_order(std::size_t treatments, std::uint32_t seed)
    : rows_(williams_rows(treatments)), random_(seed) {
  start_cycle();
}

void balanced_order::start_cycle() {
  std::vector<std::uint8_t> label(rows_.front().size());
  std::iota(label.begin(), label.end(), std::uint8_t{0});
  std::shuffle(label.begin(), label.end(), random_);
  cycle_ = rows_;
  for (auto& row : cycle_)
    for (auto& t : row) t = label[t];
  std::shuffle(cycle_.begin(), cycle_.end(), random_);
  next_row_ = 0;
}

const std::vector<std::uint8_t>& balanced_order::next() {
  if (next_row_ == cycle_.size()) start_cycle();
  return cycle_[next_row_++];
}

namespace {

double median_of(std::vector<double> values) {
  if (values.empty()) return 0;
  auto middle = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
  std::nth_element(values.begin(), middle, values.end());
  double upper = *middle;
  if (values.size() % 2 == 1) return upper;
  return (upper + *std::max_element(values.begin(), middle)) / 2;
}

}  // namespace

mode_labels label_modes(const std::vector<double>& sentinel_us, std::size_t window, double min_share,
                        double min_ratio) {
  mode_labels labels;
  const std::size_t n = sentinel_us.size();
  labels.slow.assign(n, 0);
  if (n < 2 * window || window == 0) return labels;
  std::vector<double> smooth(n), around;
  for (std::size_t i = 0; i < n; ++i) {
    std::size_t from = i >= window / 2 ? i - window / 2 : 0, to = std::min(n, from + window);
    from = to - std::min(window, to);
    around.assign(sentinel_us.begin() + static_cast<std::ptrdiff_t>(from),
                  sentinel_us.begin() + static_cast<std::ptrdiff_t>(to));
    smooth[i] = median_of(around);
  }
  // Otsu's threshold over the sorted logarithms: the split with the largest between-class variance.
  std::vector<double> sorted;
  for (double v : smooth) sorted.push_back(std::log(std::max(v, 1e-3)));
  std::sort(sorted.begin(), sorted.end());
  const double total = std::accumulate(sorted.begin(), sorted.end(), 0.0);
  double below = 0, best = -1;
  std::size_t split = 0;  // values [0, split) fast
  for (std::size_t k = 1; k < n; ++k) {
    below += sorted[k - 1];
    if (sorted[k] == sorted[k - 1]) continue;
    double w0 = static_cast<double>(k) / static_cast<double>(n), w1 = 1 - w0;
    double m0 = below / static_cast<double>(k), m1 = (total - below) / static_cast<double>(n - k);
    double between = w0 * w1 * (m0 - m1) * (m0 - m1);
    if (between > best) best = between, split = k;
  }
  if (split == 0) return labels;
  const double share = static_cast<double>(split) / static_cast<double>(n);
  if (share < min_share || 1 - share < min_share) return labels;
  labels.threshold_us = std::exp((sorted[split - 1] + sorted[split]) / 2);
  std::vector<double> fast, slow;
  for (std::size_t i = 0; i < n; ++i) (smooth[i] > labels.threshold_us ? slow : fast).push_back(sentinel_us[i]);
  labels.fast_median_us = median_of(fast);
  labels.slow_median_us = median_of(slow);
  if (fast.empty() || slow.empty() || labels.slow_median_us < min_ratio * labels.fast_median_us) {
    labels.fast_median_us = labels.slow_median_us = labels.threshold_us = 0;
    return labels;
  }
  labels.two_modes = true;
  for (std::size_t i = 0; i < n; ++i) labels.slow[i] = smooth[i] > labels.threshold_us ? 1 : 0;
  return labels;
}

}  // namespace switchyard::bench
