// Per-layer probes on the request path: read, GIOP parse, servant demux, operation demux,
// demarshal, upcall, marshal, write. Public because generated skeletons time their own phases
// (demarshal, upcall: idl_compiler/cxx_skeletons.cpp) through server_request::mark. Design, clock choice and measured
// overhead: docs/instrumentation.md.
//
// How the ORB core uses it (one probe_table per server thread, see probe_table_set):
//
//   phase_timer timer(table);                 // one clock read: the request starts
//   ... read the message ...                  timer.mark(layer::read);
//   ... parse the GIOP headers ...            timer.mark(layer::parse);
//   ... find the servant ...                  timer.mark(layer::servant_demux, strategy::perfect);
//   ... find the operation ...                timer.mark(layer::operation_demux, strategy::active);
//   ... the generated skeleton demarshals, then request.mark(layer::demarshal);
//       calls the servant, then request.mark(layer::upcall) ...
//   ... marshal the reply ...                 timer.mark(layer::marshal);
//   ... write the reply ...                   timer.mark(layer::write);
//
// or, for one isolated layer, `scoped_probe probe(table, layer::parse);` (two clock reads).
//
// Three levels of cost:
//   - compiled out (meson -Dinstrumentation=disabled): probe_table, scoped_probe and phase_timer
//     are empty classes whose members are empty inline functions; nothing remains in the code.
//   - compiled in, switched off (no -ORBInstrument): one load and one well-predicted branch per probe.
//   - switched on: one clock read per boundary, two relaxed loads and stores into the table.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <switchyard/config.h>
#include <switchyard/demux_strategy.h>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define SWITCHYARD_INSTRUMENT_CLOCK_RDTSC 1
#else
#include <time.h>
#define SWITCHYARD_INSTRUMENT_CLOCK_RDTSC 0
#endif

// Whether the probes in this translation unit are real. Defaults to the build option; a test may
// define it to 0 to compile the probes out in one executable. The two variants live in different
// inline namespaces, so mixing them in one program is no ODR violation.
#ifndef SWITCHYARD_INSTRUMENT_PROBES
#define SWITCHYARD_INSTRUMENT_PROBES SWITCHYARD_INSTRUMENTATION
#endif
#if SWITCHYARD_INSTRUMENT_PROBES
#define SWITCHYARD_INSTRUMENT_NS probes_on
#else
#define SWITCHYARD_INSTRUMENT_NS probes_off
#endif

namespace switchyard::instrument {

// The layers of a request's way through the server, in the order a request meets them.
enum class layer : std::uint8_t {
  read,             // the transport reads the GIOP header and body
  parse,            // GIOP message and request headers
  servant_demux,    // object key to servant
  operation_demux,  // operation name to skeleton entry
  demarshal,        // in arguments out of the request body
  upcall,           // the servant's method
  marshal,          // reply header and results
  write,            // the transport sends the reply
};
inline constexpr std::size_t layer_count = 8;

// The demultiplexing strategy in force when a probe fired; `none` for layers without one.
enum class strategy : std::uint8_t { none, linear, binary, dynamic, perfect, perfect_fast, active };
inline constexpr std::size_t strategy_count = 7;

// The label of a demultiplexing strategy (a strategy missing here does not compile).
constexpr strategy strategy_label(demux_strategy value) noexcept {
  switch (value) {
    case demux_strategy::linear:
      return strategy::linear;
    case demux_strategy::binary:
      return strategy::binary;
    case demux_strategy::dynamic:
      return strategy::dynamic;
    case demux_strategy::perfect:
      return strategy::perfect;
    case demux_strategy::perfect_fast:
      return strategy::perfect_fast;
    case demux_strategy::active:
      return strategy::active;
  }
  return strategy::none;
}

// "read", "parse", "servant_demux", ... and "-", "linear", "binary", "dynamic", "perfect",
// "perfect-fast", "active" (the names -ORBServantDemux takes).
std::string_view to_string(layer value) noexcept;
std::string_view to_string(strategy value) noexcept;
// The value spelled exactly as to_string spells it, or nothing.
std::optional<layer> try_parse_layer(std::string_view name) noexcept;
std::optional<strategy> try_parse_strategy(std::string_view name) noexcept;

// ---- The clock -------------------------------------------------------------------------------

using tick_count = std::uint64_t;

// A cheap, monotonic clock: the time-stamp counter on x86 (invariant TSC on every CPU we run on,
// about 13 ns per read against 30 ns for clock_gettime through the vDSO), CLOCK_MONOTONIC_RAW
// in nanoseconds elsewhere.
inline tick_count read_clock() noexcept {
#if SWITCHYARD_INSTRUMENT_CLOCK_RDTSC
  return __rdtsc();
#else
  timespec now;
  clock_gettime(CLOCK_MONOTONIC_RAW, &now);
  return static_cast<tick_count>(now.tv_sec) * 1'000'000'000u + static_cast<tick_count>(now.tv_nsec);
#endif
}

// Ticks from `start` to `end`; 0 if `end` is earlier (a thread moved to a CPU whose counter
// lags), so totals never go negative.
inline tick_count elapsed_ticks(tick_count start, tick_count end) noexcept { return end > start ? end - start : 0; }

// Nanoseconds per tick of read_clock. The first call calibrates the TSC against
// CLOCK_MONOTONIC_RAW for about 20 ms; later calls return the cached value. Thread-safe.
double nanoseconds_per_tick() noexcept;
// "rdtsc" or "clock_gettime(CLOCK_MONOTONIC_RAW)".
std::string_view clock_name() noexcept;

// ---- What a table holds, as plain data (the same in both compile modes) ----------------------

struct probe_cell {
  std::uint64_t calls = 0;
  tick_count ticks = 0;
};

// A copy of one or more tables, taken at dump time. Sums of snapshots are how per-thread tables
// are merged.
struct probe_snapshot {
  std::array<std::array<probe_cell, strategy_count>, layer_count> cells{};

  probe_cell& at(layer l, strategy s) noexcept {
    return cells[static_cast<std::size_t>(l)][static_cast<std::size_t>(s)];
  }
  const probe_cell& at(layer l, strategy s) const noexcept {
    return cells[static_cast<std::size_t>(l)][static_cast<std::size_t>(s)];
  }
  probe_snapshot& operator+=(const probe_snapshot& other) noexcept;
  std::uint64_t total_calls() const noexcept;
  tick_count total_ticks() const noexcept;
};

// ---- Reports ---------------------------------------------------------------------------------

// One line of a report. Every layer has at least one line: one per strategy that was timed, or a
// single line with strategy `none` and zero calls if the layer was never timed.
struct probe_row {
  layer row_layer = layer::read;
  strategy row_strategy = strategy::none;
  std::uint64_t calls = 0;
  double total_us = 0;
  double mean_ns = 0;
  double share_percent = 0;  // of the ticks of all lines; 0 everywhere when nothing was timed
};

// The lines of a report in request order. ns_per_tick is a parameter so that tests can use a
// known value; the ORB passes nanoseconds_per_tick().
std::vector<probe_row> make_rows(const probe_snapshot& snapshot, double ns_per_tick);

// A table for people, like the whitebox tables of the TAO paper (tables 1 and 2):
//   layer            strategy        calls      total_us      mean_ns  share_%
//   read             -                1000       123.456        123.5    12.34
//   ...
//   total                             8000      1000.000                100.00
std::string format_table(const probe_snapshot& snapshot, double ns_per_tick);
// The same lines for programs: a header `layer,strategy,calls,total_us,mean_ns,share_pct`, then
// one line per row, no total line.
std::string format_csv(const probe_snapshot& snapshot, double ns_per_tick);
// Reads what format_csv wrote. Raises BAD_PARAM (minor 0) naming the line and the fault on any
// malformed input: missing header, wrong field count, unknown layer or strategy, bad number.
std::vector<probe_row> parse_csv(std::string_view text);

enum class dump_format { table, csv };
// The report with the calibrated clock, as the ORB dumps it on shutdown and on request: for
// `table`, a `# switchyard request-path profile (clock ...)` line, then format_table; for `csv`,
// format_csv alone. For a std::ostream: `out << format_report(tables.snapshot())`.
std::string format_report(const probe_snapshot& snapshot, dump_format format = dump_format::table);
// format_report written to `out` and flushed. Returns false if the write failed.
bool dump(const probe_snapshot& snapshot, std::FILE* out, dump_format format = dump_format::table);

// Dump on request: a signal handler (async-signal-safe: it only sets a flag) and the flag the
// server loop polls between requests. install_dump_signal(SIGUSR1) makes `kill -USR1 <pid>` ask
// for a dump.
void request_dump() noexcept;
bool take_dump_request() noexcept;  // true once per request
bool install_dump_signal(int signal_number) noexcept;

// ---- The probes ------------------------------------------------------------------------------

#if SWITCHYARD_INSTRUMENT_PROBES
inline namespace SWITCHYARD_INSTRUMENT_NS {

inline constexpr bool probes_compiled_in = true;

// The counters of one writer thread: calls and ticks per layer and strategy. One thread records
// into a table at a time (so updates are plain loads and stores, no locked instruction); any
// thread may take a snapshot or reset at any time (relaxed atomics: a snapshot taken during an
// update may see its calls before its ticks). Snapshot and reset are called by one thread at a
// time (the dump). No allocation, ever.
class alignas(64) probe_table {
 public:
  probe_table() noexcept = default;
  probe_table(const probe_table&) = delete;
  probe_table& operator=(const probe_table&) = delete;

  bool enabled() const noexcept { return enabled_.load(std::memory_order_relaxed); }
  // -ORBInstrument. Switching on calibrates the clock once (about 20 ms), off the request path.
  void enable(bool on = true) noexcept {
    if (on) (void)nanoseconds_per_tick();
    enabled_.store(on, std::memory_order_relaxed);
  }

  void record(layer l, strategy s, tick_count ticks) noexcept {
    cell& c = cells_[static_cast<std::size_t>(l) * strategy_count + static_cast<std::size_t>(s)];
    c.calls.store(c.calls.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    c.ticks.store(c.ticks.load(std::memory_order_relaxed) + ticks, std::memory_order_relaxed);
  }

  // The counts since the last reset.
  probe_snapshot snapshot() const noexcept {
    probe_snapshot result;
    for (std::size_t i = 0; i < cells_.size(); ++i) {
      probe_cell& out = result.cells[i / strategy_count][i % strategy_count];
      out.calls = cells_[i].calls.load(std::memory_order_relaxed) - baseline_[i].calls;
      out.ticks = cells_[i].ticks.load(std::memory_order_relaxed) - baseline_[i].ticks;
    }
    return result;
  }

  // Starts the counts afresh. The writer's counters are never written by another thread: reset
  // moves a baseline that snapshot subtracts, so a reset racing an update loses nothing.
  void reset() noexcept {
    for (std::size_t i = 0; i < cells_.size(); ++i) {
      baseline_[i].calls = cells_[i].calls.load(std::memory_order_relaxed);
      baseline_[i].ticks = cells_[i].ticks.load(std::memory_order_relaxed);
    }
  }

 private:
  struct cell {
    std::atomic<std::uint64_t> calls{0};
    std::atomic<tick_count> ticks{0};
  };
  std::atomic<bool> enabled_{false};
  std::array<cell, layer_count * strategy_count> cells_{};
  // The reader's side, on cache lines of its own.
  alignas(64) std::array<probe_cell, layer_count * strategy_count> baseline_{};
};

// Times one layer: a clock read on entry and on exit, only when the table is switched on.
class scoped_probe {
 public:
  scoped_probe(probe_table& table, layer l, strategy s = strategy::none) noexcept
      : table_(table.enabled() ? &table : nullptr), layer_(l), strategy_(s) {
    if (table_ != nullptr) start_ = read_clock();
  }
  ~scoped_probe() {
    if (table_ != nullptr) table_->record(layer_, strategy_, elapsed_ticks(start_, read_clock()));
  }
  scoped_probe(const scoped_probe&) = delete;
  scoped_probe& operator=(const scoped_probe&) = delete;

 private:
  probe_table* table_;
  tick_count start_ = 0;
  layer layer_;
  strategy strategy_;
};

// Times adjoining layers with one clock read per boundary: mark(l) charges the time since the
// previous boundary (construction, restart or mark) to layer l.
class phase_timer {
 public:
  explicit phase_timer(probe_table& table) noexcept : table_(table.enabled() ? &table : nullptr) {
    if (table_ != nullptr) last_ = read_clock();
  }
  // Always inlined: switched off, it is the one load and branch the request path may pay.
  [[gnu::always_inline]] void mark(layer l, strategy s = strategy::none) noexcept {
    if (table_ != nullptr) {
      tick_count now = read_clock();
      table_->record(l, s, elapsed_ticks(last_, now));
      last_ = now;
    }
  }
  // A new boundary that charges nothing: the time since the last one (waiting for the next
  // message, work that belongs to no layer) is dropped.
  void restart() noexcept {
    if (table_ != nullptr) last_ = read_clock();
  }
  bool active() const noexcept { return table_ != nullptr; }

 private:
  probe_table* table_;
  tick_count last_ = 0;
};

}  // namespace SWITCHYARD_INSTRUMENT_NS
#else
inline namespace SWITCHYARD_INSTRUMENT_NS {

inline constexpr bool probes_compiled_in = false;

// Compiled out: empty classes and empty inline functions, so every probe disappears. Hold a
// table as `[[no_unique_address]] probe_table probes_;` and it takes no space either.
class probe_table {
 public:
  probe_table() noexcept = default;
  probe_table(const probe_table&) = delete;
  probe_table& operator=(const probe_table&) = delete;
  static constexpr bool enabled() noexcept { return false; }
  void enable(bool = true) noexcept {}
  void record(layer, strategy, tick_count) noexcept {}
  probe_snapshot snapshot() const noexcept { return {}; }
  void reset() noexcept {}
};

class scoped_probe {
 public:
  scoped_probe(probe_table&, layer, strategy = strategy::none) noexcept {}
  scoped_probe(const scoped_probe&) = delete;
  scoped_probe& operator=(const scoped_probe&) = delete;
};

class phase_timer {
 public:
  explicit phase_timer(probe_table&) noexcept {}
  void mark(layer, strategy = strategy::none) noexcept {}
  void restart() noexcept {}
  static constexpr bool active() noexcept { return false; }
};

}  // namespace SWITCHYARD_INSTRUMENT_NS
#endif

inline namespace SWITCHYARD_INSTRUMENT_NS {

// One table per server thread, merged at dump time. add() and lease() are for thread start-up
// (they take a lock and may allocate); the tables never move, so a thread keeps its reference for
// its life. A thread that ends gives its leased table back, and the next lease() reuses it (its
// counts stay in the sum): threads that come and go do not pile tables up.
class probe_table_set {
 public:
  probe_table& add() {
    std::lock_guard lock(mutex_);
    probe_table& table = tables_.emplace_back();
    table.enable(enabled_);
    return table;
  }
  probe_table& lease() {
    std::lock_guard lock(mutex_);
    if (!free_.empty()) {
      probe_table* table = free_.back();
      free_.pop_back();
      return *table;
    }
    probe_table& table = tables_.emplace_back();
    table.enable(enabled_);
    return table;
  }
  void give_back(probe_table& table) noexcept {
    std::lock_guard lock(mutex_);
    try {
      free_.push_back(&table);
    } catch (...) {
      // Out of memory: the table stays unused; it is still summed.
    }
  }
  std::size_t table_count() const {
    std::lock_guard lock(mutex_);
    return tables_.size();
  }
  // Switches every table, and every table added later.
  void enable(bool on = true) {
    std::lock_guard lock(mutex_);
    enabled_ = on;
    for (probe_table& table : tables_) table.enable(on);
  }
  probe_snapshot snapshot() const {
    std::lock_guard lock(mutex_);
    probe_snapshot sum;
    for (const probe_table& table : tables_) sum += table.snapshot();
    return sum;
  }
  void reset() {
    std::lock_guard lock(mutex_);
    for (probe_table& table : tables_) table.reset();
  }

 private:
  mutable std::mutex mutex_;
  std::deque<probe_table> tables_;
  std::vector<probe_table*> free_;  // leased and given back
  bool enabled_ = false;
};

}  // namespace SWITCHYARD_INSTRUMENT_NS

}  // namespace switchyard::instrument
