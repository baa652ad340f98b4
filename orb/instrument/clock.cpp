// Calibration of read_clock's ticks to nanoseconds: done once, off the request path.
#include <switchyard/instrument.h>

#include <time.h>
#include <cerrno>

namespace switchyard::instrument {
namespace {

#if SWITCHYARD_INSTRUMENT_CLOCK_RDTSC
struct clock_pair {
  tick_count ticks;
  double ns;
};

// A TSC reading paired with CLOCK_MONOTONIC_RAW; the TSC is read on both sides of clock_gettime
// and averaged, which halves the error from the gap between the two reads.
clock_pair sample() noexcept {
  tick_count before = read_clock();
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC_RAW, &now);
  tick_count after = read_clock();
  return {before + (after - before) / 2, static_cast<double>(now.tv_sec) * 1e9 + static_cast<double>(now.tv_nsec)};
}

double calibrate() noexcept {
  clock_pair first = sample();
  // ~20 ms: long enough for a few parts in 10^5 even with a microsecond of jitter at each end.
  timespec remaining{0, 20'000'000};
  while (nanosleep(&remaining, &remaining) != 0 && errno == EINTR) {
  }
  clock_pair last = sample();
  double ns = last.ns - first.ns;
  double ticks = static_cast<double>(last.ticks - first.ticks);
  // A counter that did not advance is no clock; 1.0 at least keeps reports finite.
  return (ticks > 0 && ns > 0) ? ns / ticks : 1.0;
}
#endif

}  // namespace

double nanoseconds_per_tick() noexcept {
#if SWITCHYARD_INSTRUMENT_CLOCK_RDTSC
  static const double value = calibrate();
  return value;
#else
  return 1.0;  // clock_gettime already counts nanoseconds
#endif
}

std::string_view clock_name() noexcept {
#if SWITCHYARD_INSTRUMENT_CLOCK_RDTSC
  return "rdtsc";
#else
  return "clock_gettime(CLOCK_MONOTONIC_RAW)";
#endif
}

}  // namespace switchyard::instrument
