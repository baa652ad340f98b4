// The paired design of `sy-bench demux` (docs/experiments.md, "Paired measurement"): the order in
// which a block visits its treatments, and which of a machine's latency modes each block ran in.
//
// A block visits every treatment once (every strategy's adapter, the reference, its A/A twin, the
// socket sentinel), so two treatments compared are measured microseconds apart, not seconds: a
// machine that switches between a fast and a slow mode every few seconds shifts both alike, and
// the within-block difference cancels it. The visiting order is balanced for carry-over: over each
// cycle of blocks every treatment comes right after every other equally often (a Williams design),
// so what one treatment leaves in the caches weighs on every other alike; the treatments' labels
// and the rows' order are drawn afresh each cycle.
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

namespace switchyard::bench {

// The rows of a Williams design for n treatments: n rows when n is even, 2n when odd (each row
// then also reversed). In each, every ordered pair (a, b), a != b, stands adjacent (b right after
// a) exactly once (even n) or twice (odd n); every treatment stands in every position equally often.
std::vector<std::vector<std::uint8_t>> williams_rows(std::size_t n);

// Visiting orders, one per block: the rows of a Williams design, treatments relabelled by a
// random permutation and rows shuffled at the start of each cycle.
class balanced_order {
 public:
  balanced_order(std::size_t treatments, std::uint32_t seed);
  const std::vector<std::uint8_t>& next();
  std::size_t cycle_length() const noexcept { return rows_.size(); }

 private:
  void start_cycle();
  std::vector<std::vector<std::uint8_t>> rows_;
  std::vector<std::vector<std::uint8_t>> cycle_;
  std::size_t next_row_ = 0;
  std::mt19937 random_;
};

// Which mode each block ran in, from the sentinel's round trips in the order they were taken.
// The series is smoothed by a running median over `window` blocks (one round trip is noisy, a mode
// lasts seconds); then the threshold that best splits the smoothed values in two (Otsu's, on
// their logarithms) is kept if each side holds at least `min_share` of the blocks and the slow
// side's median is at least `min_ratio` times the fast side's. Otherwise there is one mode.
struct mode_labels {
  bool two_modes = false;
  double threshold_us = 0;  // smoothed round trips above it: slow
  double fast_median_us = 0, slow_median_us = 0;
  std::vector<std::uint8_t> slow;  // per block: 1 slow, 0 fast (all 0 with one mode)
};
mode_labels label_modes(const std::vector<double>& sentinel_us, std::size_t window = 31, double min_share = 0.1,
                        double min_ratio = 1.10);

}  // namespace switchyard::bench
