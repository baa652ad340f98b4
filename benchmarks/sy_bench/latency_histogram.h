// A histogram of latencies in nanoseconds with logarithmic buckets, as HdrHistogram keeps them:
// exact below 128 ns, then 64 buckets per power of two (1.6 % wide), up to 2^40 ns (18 minutes;
// longer values land in the last bucket). Recording is an increment, with no allocation, so a
// load client records every request; histograms of many threads and processes merge exactly
// (the text form carries the buckets, not a summary).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace switchyard::bench {

class latency_histogram {
 public:
  static constexpr unsigned sub_bucket_bits = 6;                       // 64 buckets per power of two
  static constexpr std::uint64_t exact_below = 2u << sub_bucket_bits;  // 128: one bucket per ns
  static constexpr unsigned highest_bit = 40;
  static constexpr std::size_t bucket_count =
      exact_below + (highest_bit - sub_bucket_bits - 1) * (std::size_t{1} << sub_bucket_bits);

  void record(std::uint64_t nanoseconds) noexcept {
    ++counts_[index_of(nanoseconds)];
    ++total_;
  }
  void merge(const latency_histogram& other) noexcept;
  std::uint64_t count() const noexcept { return total_; }

  // The value at quantile q (0 < q <= 1): the midpoint of the bucket holding the ceil(q * count)-th
  // smallest value; 0 when empty.
  double quantile_ns(double q) const noexcept;

  // "index:count" pairs of the non-empty buckets, space-separated; parse() reads them back (and
  // raises std::invalid_argument on anything else).
  std::string to_text() const;
  static latency_histogram parse(std::string_view text);

  static std::size_t index_of(std::uint64_t value) noexcept;
  // The smallest and largest value of a bucket.
  static std::uint64_t lowest_in(std::size_t index) noexcept;
  static std::uint64_t highest_in(std::size_t index) noexcept;

 private:
  std::array<std::uint64_t, bucket_count> counts_{};
  std::uint64_t total_ = 0;
};

}  // namespace switchyard::bench
