#include "benchmarks/sy_bench/latency_histogram.h"

#include <bit>
#include <charconv>
#include <cmath>
#include <stdexcept>

namespace switchyard::bench {
namespace {
constexpr std::size_t per_group = std::size_t{1} << latency_histogram::sub_bucket_bits;
constexpr unsigned exact_bits = latency_histogram::sub_bucket_bits + 1;  // values below 2^7 are exact
}  // namespace

static_assert(latency_histogram::bucket_count ==
              latency_histogram::exact_below + (latency_histogram::highest_bit - exact_bits) * per_group);

std::size_t latency_histogram::index_of(std::uint64_t value) noexcept {
  if (value < exact_below) return static_cast<std::size_t>(value);
  if (value >> highest_bit) return bucket_count - 1;
  unsigned shift = static_cast<unsigned>(std::bit_width(value)) - exact_bits;  // >= 1
  auto sub = static_cast<std::size_t>(value >> shift);                         // 64..127
  return exact_below + (shift - 1) * per_group + (sub - per_group);
}

std::uint64_t latency_histogram::lowest_in(std::size_t index) noexcept {
  if (index < exact_below) return index;
  std::size_t shift = (index - exact_below) / per_group + 1;
  std::uint64_t sub = per_group + (index - exact_below) % per_group;
  return sub << shift;
}

std::uint64_t latency_histogram::highest_in(std::size_t index) noexcept {
  if (index < exact_below) return index;
  std::size_t shift = (index - exact_below) / per_group + 1;
  std::uint64_t sub = per_group + (index - exact_below) % per_group;
  return ((sub + 1) << shift) - 1;
}

void latency_histogram::merge(const latency_histogram& other) noexcept {
  for (std::size_t i = 0; i < bucket_count; ++i) counts_[i] += other.counts_[i];
  total_ += other.total_;
}

double latency_histogram::quantile_ns(double q) const noexcept {
  if (total_ == 0) return 0;
  auto rank = static_cast<std::uint64_t>(std::ceil(q * static_cast<double>(total_)));
  if (rank == 0) rank = 1;
  if (rank > total_) rank = total_;
  std::uint64_t seen = 0;
  for (std::size_t i = 0; i < bucket_count; ++i) {
    seen += counts_[i];
    if (seen >= rank) return (static_cast<double>(lowest_in(i)) + static_cast<double>(highest_in(i))) / 2;
  }
  return static_cast<double>(highest_in(bucket_count - 1));
}

std::string latency_histogram::to_text() const {
  std::string text;
  for (std::size_t i = 0; i < bucket_count; ++i) {
    if (counts_[i] == 0) continue;
    if (!text.empty()) text += ' ';
    text += std::to_string(i) + ':' + std::to_string(counts_[i]);
  }
  return text;
}

latency_histogram latency_histogram::parse(std::string_view text) {
  latency_histogram h;
  auto number = [](std::string_view digits) {
    std::uint64_t n = 0;
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
    if (ec != std::errc() || end != digits.data() + digits.size() || digits.empty())
      throw std::invalid_argument("histogram: '" + std::string(digits) + "' is not a number");
    return n;
  };
  while (!text.empty()) {
    auto space = text.find(' ');
    auto pair = text.substr(0, space);
    text = space == std::string_view::npos ? std::string_view{} : text.substr(space + 1);
    if (pair.empty()) continue;
    auto colon = pair.find(':');
    if (colon == std::string_view::npos)
      throw std::invalid_argument("histogram: '" + std::string(pair) + "' lacks ':'");
    auto index = number(pair.substr(0, colon));
    auto count = number(pair.substr(colon + 1));
    if (index >= bucket_count)
      throw std::invalid_argument("histogram: bucket " + std::to_string(index) + " out of range");
    h.counts_[index] += count;
    h.total_ += count;
  }
  return h;
}

}  // namespace switchyard::bench
