// Timing for the CDR micro-benchmark. The implementations compared in one group (ours and ACE on
// the same message) are measured interleaved, repetition by repetition, so that a shared, loaded
// machine slows them alike; time is the thread's CPU time, so time spent descheduled is not
// counted. Reports the median time per message and the heap allocations per message.
#pragma once

#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
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
  double ns_per_message = 0;      // median over repetitions
  double min_ns_per_message = 0;  // fastest repetition, a check on noise
  double allocations_per_message = 0;
  std::uint64_t iterations = 0;  // per repetition
};

struct measure_settings {
  int repetitions = 15;
  double target_ns_per_repetition = 40e6;
};

// Runs one message's work `iterations` times. Made from a lambda by `looping`, so the loop is
// compiled around the work and only the call per repetition is indirect.
using runner = std::function<void(std::uint64_t iterations)>;

template <typename Work>
runner looping(Work work) {
  return [work](std::uint64_t iterations) mutable {
    for (std::uint64_t i = 0; i < iterations; ++i) work();
  };
}

inline double thread_cpu_ns() noexcept {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e9 + static_cast<double>(ts.tv_nsec);
}

// Calibrates each runner to about target_ns_per_repetition, then runs the repetitions
// round-robin over the runners.
inline std::vector<measurement> measure_interleaved(const measure_settings& settings, std::vector<runner>& runners) {
  const std::size_t n = runners.size();
  std::vector<measurement> results(n);
  std::vector<std::vector<double>> per_message(n);
  std::vector<std::uint64_t> allocations(n, 0);

  for (std::size_t k = 0; k < n; ++k) {
    std::uint64_t iterations = 1;
    for (;;) {  // doubles until a run takes a quarter of the target (also warms caches and buffers)
      double start = thread_cpu_ns();
      runners[k](iterations);
      double elapsed = thread_cpu_ns() - start;
      if (elapsed >= settings.target_ns_per_repetition / 4 || iterations >= (std::uint64_t{1} << 40)) {
        double scale = settings.target_ns_per_repetition / std::max(elapsed, 1.0);
        iterations = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(static_cast<double>(iterations) * scale));
        break;
      }
      iterations *= 2;
    }
    results[k].iterations = iterations;
    per_message[k].reserve(static_cast<std::size_t>(settings.repetitions));
  }

  for (int r = 0; r < settings.repetitions; ++r) {
    for (std::size_t k = 0; k < n; ++k) {
      std::uint64_t allocations_before = allocation_count();
      double start = thread_cpu_ns();
      runners[k](results[k].iterations);
      double elapsed = thread_cpu_ns() - start;
      allocations[k] += allocation_count() - allocations_before;
      per_message[k].push_back(elapsed / static_cast<double>(results[k].iterations));
    }
  }

  for (std::size_t k = 0; k < n; ++k) {
    auto& times = per_message[k];
    std::sort(times.begin(), times.end());
    results[k].ns_per_message = times[times.size() / 2];
    results[k].min_ns_per_message = times.front();
    results[k].allocations_per_message =
        static_cast<double>(allocations[k]) /
        static_cast<double>(results[k].iterations * static_cast<std::uint64_t>(settings.repetitions));
  }
  return results;
}

}  // namespace switchyard::bench
