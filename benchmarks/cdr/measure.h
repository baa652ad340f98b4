// Timing for the CDR micro-benchmark: runs one message's work in a loop, repeats, and reports the
// median time per message and the heap allocations per message.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "allocation_counter.h"

namespace switchyard::bench {

// Makes the compiler assume `value` (and all memory) is read here, so the work that produced it
// cannot be removed as dead code.
template <typename T>
inline void keep(T const& value) noexcept {
  asm volatile("" : : "r,m"(value) : "memory");
}

struct measurement {
  double ns_per_message = 0;        // median over repetitions
  double min_ns_per_message = 0;    // fastest repetition, a sanity check on noise
  double allocations_per_message = 0;
  std::uint64_t iterations = 0;     // per repetition
};

struct measure_settings {
  int repetitions = 15;
  std::chrono::nanoseconds target_per_repetition = std::chrono::milliseconds(40);
};

// Calibrates an iteration count so that one repetition lasts about target_per_repetition, then
// times `repetitions` repetitions of it. `one_message` does one message's whole work.
template <typename Work>
measurement measure(const measure_settings& settings, Work&& one_message) {
  using clock = std::chrono::steady_clock;
  // Warm up (caches, first growth of the buffers) and calibrate.
  std::uint64_t iterations = 1;
  for (;;) {
    auto start = clock::now();
    for (std::uint64_t i = 0; i < iterations; ++i) one_message();
    auto elapsed = clock::now() - start;
    if (elapsed >= settings.target_per_repetition / 4 || iterations >= (std::uint64_t{1} << 40)) {
      double scale = static_cast<double>(settings.target_per_repetition.count()) /
                     static_cast<double>(std::max<std::int64_t>(1, std::chrono::nanoseconds(elapsed).count()));
      iterations = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(static_cast<double>(iterations) * scale));
      break;
    }
    iterations *= 2;
  }

  std::vector<double> per_message;
  per_message.reserve(static_cast<std::size_t>(settings.repetitions));
  std::uint64_t allocations_before = allocation_count();
  for (int r = 0; r < settings.repetitions; ++r) {
    auto start = clock::now();
    for (std::uint64_t i = 0; i < iterations; ++i) one_message();
    auto elapsed = std::chrono::duration<double, std::nano>(clock::now() - start).count();
    per_message.push_back(elapsed / static_cast<double>(iterations));
  }
  std::uint64_t allocations = allocation_count() - allocations_before;

  measurement m;
  m.iterations = iterations;
  m.allocations_per_message =
      static_cast<double>(allocations) / static_cast<double>(iterations * static_cast<std::uint64_t>(settings.repetitions));
  std::sort(per_message.begin(), per_message.end());
  m.ns_per_message = per_message[per_message.size() / 2];
  m.min_ns_per_message = per_message.front();
  return m;
}

}  // namespace switchyard::bench
