// What a probe costs: the two candidate clocks, a scoped probe and a request-shaped phase timer
// (8 marks) switched off, switched on and compiled out, and the table update as plain loads and
// stores (the choice) against a locked fetch_add. Prints the median over 15 repetitions of
// ns per operation, the empty loop subtracted. Figures go in docs/instrumentation.md.
#include <switchyard/instrument.h>

#include <time.h>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <functional>
#include <vector>

#include "probe_overhead.h"

using namespace switchyard::instrument;
using switchyard::instrument::bench::keep;

namespace {

constexpr int repetitions = 15;
constexpr std::uint64_t iterations = 2'000'000;

// Median ns per iteration of loop(iterations).
double median_ns(const std::function<void(std::uint64_t)>& loop) {
  loop(iterations / 10);  // warm up
  std::vector<double> samples;
  for (int r = 0; r < repetitions; ++r) {
    auto start = std::chrono::steady_clock::now();
    loop(iterations);
    std::chrono::duration<double, std::nano> elapsed = std::chrono::steady_clock::now() - start;
    samples.push_back(elapsed.count() / static_cast<double>(iterations));
  }
  std::nth_element(samples.begin(), samples.begin() + repetitions / 2, samples.end());
  return samples[repetitions / 2];
}

// The rejected alternative for the table update: safe with many writers, but a locked instruction.
struct shared_cell {
  std::atomic<std::uint64_t> calls{0};
  std::atomic<std::uint64_t> ticks{0};
};

void phase_loop(probe_table& table, std::uint64_t n) {
  for (std::uint64_t i = 0; i < n; ++i) {
    phase_timer timer(table);
    timer.mark(layer::read);
    timer.mark(layer::parse);
    timer.mark(layer::servant_demux, strategy::perfect);
    timer.mark(layer::operation_demux, strategy::perfect);
    timer.mark(layer::demarshal);
    timer.mark(layer::upcall);
    timer.mark(layer::marshal);
    timer.mark(layer::write);
    keep(i);
  }
}

}  // namespace

int main() {
  static probe_table table;
  static shared_cell shared[layer_count * strategy_count];

  const double empty = median_ns([](std::uint64_t n) {
    for (std::uint64_t i = 0; i < n; ++i) keep(i);
  });
  auto net = [empty](double ns) { return std::max(0.0, ns - empty); };

  struct result {
    const char* what;
    double ns;
  };
  std::vector<result> results;

#if SWITCHYARD_INSTRUMENT_CLOCK_RDTSC
  results.push_back({"clock: rdtsc", net(median_ns([](std::uint64_t n) {
                       for (std::uint64_t i = 0; i < n; ++i) keep(__rdtsc());
                     }))});
  results.push_back({"clock: rdtscp (ordered, rejected)", net(median_ns([](std::uint64_t n) {
                       unsigned cpu;
                       for (std::uint64_t i = 0; i < n; ++i) keep(__rdtscp(&cpu));
                     }))});
#endif
  results.push_back({"clock: clock_gettime(CLOCK_MONOTONIC_RAW)", net(median_ns([](std::uint64_t n) {
                       timespec now;
                       for (std::uint64_t i = 0; i < n; ++i) {
                         clock_gettime(CLOCK_MONOTONIC_RAW, &now);
                         keep(now);
                       }
                     }))});
  results.push_back({"clock: clock_gettime(CLOCK_MONOTONIC)", net(median_ns([](std::uint64_t n) {
                       timespec now;
                       for (std::uint64_t i = 0; i < n; ++i) {
                         clock_gettime(CLOCK_MONOTONIC, &now);
                         keep(now);
                       }
                     }))});
  results.push_back({"clock: read_clock() (the one in use)", net(median_ns([](std::uint64_t n) {
                       for (std::uint64_t i = 0; i < n; ++i) keep(read_clock());
                     }))});

  results.push_back({"table update: load + store (chosen)", net(median_ns([](std::uint64_t n) {
                       for (std::uint64_t i = 0; i < n; ++i) {
                         table.record(layer::parse, strategy::none, i);
                         keep(i);
                       }
                     }))});
  results.push_back({"table update: fetch_add relaxed (rejected)", net(median_ns([](std::uint64_t n) {
                       for (std::uint64_t i = 0; i < n; ++i) {
                         shared_cell& c = shared[1 * strategy_count];
                         c.calls.fetch_add(1, std::memory_order_relaxed);
                         c.ticks.fetch_add(i, std::memory_order_relaxed);
                         keep(i);
                       }
                     }))});

  table.reset();  // the update loops above recorded made-up ticks
  auto scoped_loop = [](std::uint64_t n) {
    for (std::uint64_t i = 0; i < n; ++i) {
      scoped_probe probe(table, layer::parse);
      keep(i);
    }
  };
  table.enable(false);
  results.push_back({"scoped_probe: compiled in, switched off", net(median_ns(scoped_loop))});
  table.enable(true);
  results.push_back({"scoped_probe: switched on", net(median_ns(scoped_loop))});
  results.push_back(
      {"scoped_probe: compiled out", net(median_ns([](std::uint64_t n) { bench::compiled_out_scoped_loop(n); }))});

  table.enable(false);
  results.push_back({"phase_timer, 8 marks (a request): switched off",
                     net(median_ns([](std::uint64_t n) { phase_loop(table, n); }))});
  table.enable(true);
  results.push_back(
      {"phase_timer, 8 marks (a request): switched on", net(median_ns([](std::uint64_t n) { phase_loop(table, n); }))});
  results.push_back({"phase_timer, 8 marks (a request): compiled out",
                     net(median_ns([](std::uint64_t n) { bench::compiled_out_phase_loop(n); }))});

  std::printf("# probe overhead: median of %d x %llu iterations, empty loop (%.2f ns) subtracted\n", repetitions,
              static_cast<unsigned long long>(iterations), empty);
  std::printf("# clock %.*s, %.4f ns per tick\n", static_cast<int>(clock_name().size()), clock_name().data(),
              nanoseconds_per_tick());
  std::printf("%-50s %10s\n", "what", "ns");
  for (const result& r : results) std::printf("%-50s %10.2f\n", r.what, r.ns);
  std::printf("\n");
  dump(table.snapshot(), stdout);
  return 0;
}
