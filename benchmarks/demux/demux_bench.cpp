// Micro-benchmark of demux/: lookup cost of every servant map and operation table strategy at 1,
// 10, 100, 500 and 1000 keys, used directly (compile-time choice), through the run-time front
// (std::variant, one switch per call) and through a vtable (the alternative the front was
// measured against); the build-time forms (gperf's and the perfect-fast hash's generated
// lookups, syidl --object-ids); 100,000 servants in one map (memory per servant, lookup cost).
// Writes DIR/demux_micro.csv (a row per case: family, strategy, dispatch, pattern, cache, keys,
// median_ns, ...) and DIR/demux_micro.md.
//
//   demux_bench --out DIR [--quick] [--cold BYTES] [--cold-lookups N]   (pin it: taskset -c 0 ...)
//   demux_bench --count --out DIR [--cold BYTES]    (under callgrind: count_lookups.py runs it)
//
// Warm: each figure is the median over repetitions of a loop of lookups whose next key depends
// on the value found (a dependent chain through a precomputed random key sequence), so the
// compiler can neither hoist a lookup nor overlap two: it is the latency of one lookup, as a
// request sees it, with the structures in cache. Time is the thread's CPU time
// (CLOCK_THREAD_CPUTIME_ID), so other processes on a shared core do not count; repetitions are
// short (4 ms) and many (21), and the median is reported.
//
// Cold (--cold BYTES, e.g. 64M): before each lookup the benchmark reads one byte in every 64 of a
// buffer of BYTES (evicting the map, its code's data and the other levels of cache when BYTES
// exceeds the last level), then reads the probe key (a request's key has just been read from the
// socket), then times the one lookup with the time-stamp counter; the median over the lookups,
// less the timer's own cost, is reported. A server that does other work between requests, or
// switches contexts, sees these figures.
//
// --count: no timing. Each case runs its warm lookups and its cold lookups with callgrind
// collecting only around the lookups, and dumps the counts under the case's name:
// count_lookups.py turns them into instructions, data reads and cache lines per lookup.
#include <malloc.h>
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "benchmarks/demux/callgrind_marks.h"
#include "demux/operation_table.h"
#include "demux/servant_map.h"
#include "operations_1.h"  // syidl --object-ids: the gperf lookup NAME and the perfect-fast NAME_fast
#include "operations_10.h"
#include "operations_100.h"
#include "operations_1000.h"
#include "operations_500.h"
#include "servant_ids_1000.h"

using namespace switchyard::demux;
using namespace switchyard::bench;
using value_t = std::uint32_t;  // every value is 0: the loop adds it into the next index

namespace {

struct settings {
  std::filesystem::path out = ".";
  bool quick = false;
  bool count = false;          // under callgrind: counts, no timing
  std::size_t cold_bytes = 0;  // 0: no cold measurements
  std::size_t cold_lookups = 101;
  double target_ms() const { return quick ? 1.0 : 4.0; }
  int repetitions() const { return quick ? 5 : 21; }
  std::size_t warm_count_lookups() const { return 2000; }
  std::size_t cold_count_lookups() const { return 20; }
};

struct result {
  std::string family;          // servant | operation | servant_100k
  std::string strategy;        // linear | binary | dynamic | perfect | perfect-fast | active | build-time forms
  std::string dispatch;        // concrete | variant | vtable
  std::string pattern;         // random | worst
  std::string cache = "warm";  // warm | cold
  std::size_t keys;
  double median_ns, min_ns, max_ns;
  std::size_t lookups_per_rep;
  double bytes_per_servant = 0;     // 100k only: malloc'd bytes / servants
  double reported_per_servant = 0;  // 100k only: memory_bytes() / servants
};

// A lookup request: the key (object key or operation name) and, for active operation tables, the
// index the client sent.
struct probe {
  key_view key;
  std::uint32_t index = no_operation_index;
};

constexpr std::size_t sequence_length = 4096;  // a power of two

std::vector<probe> random_sequence(const std::vector<probe>& population, std::mt19937& rng) {
  std::vector<probe> seq(sequence_length);
  std::uniform_int_distribution<std::size_t> pick(0, population.size() - 1);
  for (auto& p : seq) p = population[pick(rng)];
  return seq;
}

// CPU time of this thread: on a shared machine the time the thread spent descheduled would
// otherwise land in a repetition (short repetitions and the median take care of the rest).
double thread_cpu_ns() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e9 + static_cast<double>(ts.tv_nsec);
}

[[noreturn]] void not_found() {
  std::cerr << "demux_bench: a key of the sequence was not found\n";
  std::abort();
}

// Runs `count` dependent lookups. Aborts if a key is not found (a broken run must not produce
// figures).
template <class Find>
std::uint64_t chain(Find& find, const std::vector<probe>& seq, std::size_t count) {
  const std::size_t mask = seq.size() - 1;
  std::size_t i = 0;
  std::uint64_t sink = 0;
  for (std::size_t n = 0; n < count; ++n) {
    const value_t* v = find(seq[i]);
    if (v == nullptr) [[unlikely]]
      not_found();
    sink += *v;
    i = (i + 1 + *v) & mask;
  }
  return sink;
}

template <class Find>
double run_lookups(Find& find, const std::vector<probe>& seq, std::size_t count) {
  const double start = thread_cpu_ns();
  const std::uint64_t sink = chain(find, seq, count);
  const double stop = thread_cpu_ns();
  asm volatile("" : : "r"(sink));
  return stop - start;
}

template <class Find>
result measure_warm(const settings& s, Find find, const std::vector<probe>& seq) {
  // Grow the batch until one repetition takes the target time, then repeat it.
  std::size_t count = 16;
  while (run_lookups(find, seq, count) < s.target_ms() * 1e6 && count < (std::size_t{1} << 32)) count *= 2;
  std::vector<double> per;
  for (int r = 0; r < s.repetitions(); ++r) per.push_back(run_lookups(find, seq, count) / count);
  std::sort(per.begin(), per.end());
  result res{};
  res.median_ns = per[per.size() / 2];
  res.min_ns = per.front();
  res.max_ns = per.back();
  res.lookups_per_rep = count;
  return res;
}

// --- Cold caches -------------------------------------------------------------------------------

// Reads one byte in every cache line of a buffer: whatever was cached before is gone once the
// buffer is larger than the cache level in question.
class evictor {
 public:
  explicit evictor(std::size_t bytes) : buffer_(std::max<std::size_t>(bytes, 64), 1) {}
  void evict() {
    std::uint64_t sum = 0;
    for (std::size_t i = 0; i < buffer_.size(); i += 64) sum += static_cast<unsigned char>(buffer_[i]);
    asm volatile("" : : "r"(sum));
  }

 private:
  std::vector<char> buffer_;
};

// The request's key has just been read from the socket: it is in cache, the demux structures not.
void warm_key(key_view key) {
  std::uint64_t sum = 0;
  for (std::size_t i = 0; i < key.size(); i += 64) sum += static_cast<unsigned char>(key[i]);
  if (!key.empty()) sum += static_cast<unsigned char>(key.back());
  asm volatile("" : : "r"(sum) : "memory");
}

// One lookup's time: the time-stamp counter between fences on x86, the monotonic clock elsewhere.
#if defined(__x86_64__) || defined(__i386__)
inline std::uint64_t timer_start() {
  _mm_lfence();
  const std::uint64_t t = __rdtsc();
  _mm_lfence();
  return t;
}
inline std::uint64_t timer_stop() {
  _mm_lfence();
  return __rdtsc();
}
// Ticks per nanosecond, against the monotonic clock over 50 ms.
double ticks_per_ns() {
  static const double rate = [] {
    const auto t0 = std::chrono::steady_clock::now();
    const std::uint64_t c0 = __rdtsc();
    while (std::chrono::steady_clock::now() - t0 < std::chrono::milliseconds(50)) {
    }
    const std::uint64_t c1 = __rdtsc();
    const double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
    return static_cast<double>(c1 - c0) / ns;
  }();
  return rate;
}
#else
inline std::uint64_t timer_start() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000u + static_cast<std::uint64_t>(ts.tv_nsec);
}
inline std::uint64_t timer_stop() { return timer_start(); }
double ticks_per_ns() { return 1.0; }
#endif

template <class Find>
std::vector<double> cold_ticks(const settings& s, evictor& ev, Find& find, const std::vector<probe>& seq) {
  std::vector<double> ticks;
  ticks.reserve(s.cold_lookups);
  for (std::size_t n = 0; n < s.cold_lookups; ++n) {
    const probe& p = seq[n % seq.size()];
    ev.evict();
    warm_key(p.key);
    const std::uint64_t t0 = timer_start();
    const value_t* v = find(p);
    asm volatile("" : : "r"(v) : "memory");
    const std::uint64_t t1 = timer_stop();
    if (v == nullptr) not_found();
    ticks.push_back(static_cast<double>(t1 - t0));
  }
  std::sort(ticks.begin(), ticks.end());
  return ticks;
}

template <class Find>
result measure_cold(const settings& s, evictor& ev, Find find, const std::vector<probe>& seq) {
  // The timer's own cost: the same loop around a lookup that reads nothing.
  static const value_t zero = 0;
  auto nothing = [](const probe&) noexcept { return &zero; };
  static const double overhead = [&] {
    auto t = cold_ticks(s, ev, nothing, seq);
    return t[t.size() / 2];
  }();
  auto t = cold_ticks(s, ev, find, seq);
  const double rate = ticks_per_ns();
  result res{};
  res.median_ns = std::max(0.0, t[t.size() / 2] - overhead) / rate;
  res.min_ns = std::max(0.0, t.front() - overhead) / rate;
  res.max_ns = std::max(0.0, t.back() - overhead) / rate;
  res.lookups_per_rep = t.size();
  return res;
}

// --- Counting under callgrind ------------------------------------------------------------------

// What callgrind counts (--toggle-collect='*measured_*'): the lookups and nothing around them
// but a call and a return (the baseline case has them too).
template <class Find>
[[gnu::noinline]] std::uint64_t measured_chain(Find& find, const std::vector<probe>& seq, std::size_t count) {
  return chain(find, seq, count);
}
template <class Find>
[[gnu::noinline]] const value_t* measured_lookup(Find& find, const probe& p) {
  return find(p);
}

// Reads an object's bytes: the probe and the lookup's closure are the caller's, not the lookup's.
template <class T>
void warm_object(const T& object) {
  const auto* bytes = reinterpret_cast<const volatile unsigned char*>(&object);
  for (std::size_t i = 0; i < sizeof(T); i += 8) (void)bytes[i];
}

// Dumps "warm|FAMILY|STRATEGY|DISPATCH|KEYS|LOOKUPS" and "cold|..." (count_lookups.py parses them).
template <class Find>
void count_case(const settings& s, evictor& ev, Find find, const std::vector<probe>& seq, const std::string& name) {
  count_zero();
  const std::uint64_t sink = measured_chain(find, seq, s.warm_count_lookups());
  asm volatile("" : : "r"(sink));
  count_dump(("warm|" + name + "|" + std::to_string(s.warm_count_lookups())).c_str());

  count_zero();
  for (std::size_t n = 0; n < s.cold_count_lookups(); ++n) {
    const probe& p = seq[n % seq.size()];
    ev.evict();
    warm_key(p.key);
    warm_object(p);
    warm_object(find);
    if (measured_lookup(find, p) == nullptr) not_found();
  }
  count_dump(("cold|" + name + "|" + std::to_string(s.cold_count_lookups())).c_str());
}

// --- The cases ---------------------------------------------------------------------------------

struct runner {
  const settings& s;
  std::vector<result>& out;
  std::mt19937 rng;
  std::optional<evictor> ev;

  runner(const settings& st, std::vector<result>& o, std::uint32_t seed) : s(st), out(o), rng(seed) {
    if (s.cold_bytes != 0 || s.count) ev.emplace(s.cold_bytes != 0 ? s.cold_bytes : std::size_t{4} << 20);
  }

  void add(result r, const std::string& family, const std::string& strategy, const std::string& dispatch,
           const std::string& pattern, const std::string& cache, std::size_t keys) {
    r.family = family;
    r.strategy = strategy;
    r.dispatch = dispatch;
    r.pattern = pattern;
    r.cache = cache;
    r.keys = keys;
    std::cerr << "  " << r.family << ' ' << r.strategy << ' ' << r.dispatch << ' ' << r.pattern << ' ' << r.cache << ' '
              << r.keys << ": " << r.median_ns << " ns\n";
    out.push_back(std::move(r));
  }

  // Warm, random and worst case (the last entry: the end of a linear scan); cold (random) when
  // asked and `cold` holds for the case; or, in --count mode, the counts.
  template <class Find>
  void run(Find find, const std::vector<probe>& population, const std::string& family, const std::string& strategy,
           const std::string& dispatch, bool cold) {
    auto seq = random_sequence(population, rng);
    if (s.count) {
      // The baseline of the loop around a lookup is counted once per family (count_lookups.py
      // subtracts it).
      count_case(s, *ev, find, seq, family + "|" + strategy + "|" + dispatch + "|" + std::to_string(population.size()));
      return;
    }
    add(measure_warm(s, find, seq), family, strategy, dispatch, "random", "warm", population.size());
    std::vector<probe> worst(sequence_length, population.back());
    add(measure_warm(s, find, worst), family, strategy, dispatch, "worst", "warm", population.size());
    if (cold && s.cold_bytes != 0)
      add(measure_cold(s, *ev, find, seq), family, strategy, dispatch, "random", "cold", population.size());
  }

  // What a lookup costs when it reads nothing (subtracted from the counts).
  void baseline(const std::vector<probe>& population, const std::string& family) {
    if (!s.count) return;
    static const value_t zero = 0;
    auto seq = random_sequence(population, rng);
    // It reads the probe, as every lookup does, and nothing else.
    auto nothing = [](const probe& p) noexcept {
      asm volatile("" : : "r"(p.key.data()), "r"(p.key.size()));
      return &zero;
    };
    count_case(s, *ev, nothing, seq, family + "|baseline|none|0");
  }
};

// --- The vtable alternative to the variant front -------------------------------------------------

struct virtual_servant_map {
  virtual ~virtual_servant_map() = default;
  virtual std::optional<key_view> insert(key_view id, value_t v) = 0;
  virtual value_t* find(key_view key) noexcept = 0;
};
template <class M>
struct virtual_servant_map_of final : virtual_servant_map {
  M map;
  std::optional<key_view> insert(key_view id, value_t v) override { return map.insert(id, v); }
  value_t* find(key_view key) noexcept override { return map.find(key); }
};
template <demux_strategy S>
std::unique_ptr<virtual_servant_map> virtual_servant_map_for() {
  return std::make_unique<virtual_servant_map_of<servant_map_of<S, value_t>>>();
}
[[gnu::noinline]] std::unique_ptr<virtual_servant_map> make_virtual_servant_map(demux_strategy s) {
  switch (s) {
    case demux_strategy::linear:
      return virtual_servant_map_for<demux_strategy::linear>();
    case demux_strategy::binary:
      return virtual_servant_map_for<demux_strategy::binary>();
    case demux_strategy::dynamic:
      return virtual_servant_map_for<demux_strategy::dynamic>();
    case demux_strategy::perfect:
      return virtual_servant_map_for<demux_strategy::perfect>();
    case demux_strategy::perfect_fast:
      return virtual_servant_map_for<demux_strategy::perfect_fast>();
    case demux_strategy::active:
      return virtual_servant_map_for<demux_strategy::active>();
  }
  return nullptr;
}

struct virtual_operation_table {
  virtual ~virtual_operation_table() = default;
  virtual const value_t* find(std::uint32_t index, key_view name) const noexcept = 0;
};
template <class T>
struct virtual_operation_table_of final : virtual_operation_table {
  T table;
  explicit virtual_operation_table_of(std::span<const operation<value_t>> ops) : table(ops) {}
  const value_t* find(std::uint32_t index, key_view name) const noexcept override { return table.find(index, name); }
};
template <demux_strategy S>
std::unique_ptr<virtual_operation_table> virtual_operation_table_for(std::span<const operation<value_t>> ops) {
  return std::make_unique<virtual_operation_table_of<operation_table_of<S, value_t>>>(ops);
}
[[gnu::noinline]] std::unique_ptr<virtual_operation_table> make_virtual_operation_table(
    demux_strategy s, std::span<const operation<value_t>> ops) {
  switch (s) {
    case demux_strategy::linear:
      return virtual_operation_table_for<demux_strategy::linear>(ops);
    case demux_strategy::binary:
      return virtual_operation_table_for<demux_strategy::binary>(ops);
    case demux_strategy::dynamic:
      return virtual_operation_table_for<demux_strategy::dynamic>(ops);
    case demux_strategy::perfect:
      return virtual_operation_table_for<demux_strategy::perfect>(ops);
    case demux_strategy::perfect_fast:
      return virtual_operation_table_for<demux_strategy::perfect_fast>(ops);
    case demux_strategy::active:
      return virtual_operation_table_for<demux_strategy::active>(ops);
  }
  return nullptr;
}

// --- Servant maps ------------------------------------------------------------------------------

using gperf_ids = servant_ids_1000;      // gperf over the 1000 binary ids
using fast_ids = servant_ids_1000_fast;  // the perfect-fast hash over the same list

// The first n object ids of the build-time list (the generated lookups are over all 1000).
std::vector<std::string> servant_ids(std::size_t n) {
  std::vector<std::string> ids;
  for (std::size_t i = 0; i < n; ++i) ids.emplace_back(gperf_ids::key_at(i));
  return ids;
}

// Fills a map (insert order = id order) and returns the keys requests carry, in that order.
template <class Map>
std::vector<std::string> fill(Map& map, const std::vector<std::string>& ids) {
  std::vector<std::string> keys;
  for (auto& id : ids) keys.emplace_back(*map.insert(id, 0));
  return keys;
}

std::vector<probe> probes_of(const std::vector<std::string>& keys) {
  std::vector<probe> p;
  for (auto& k : keys) p.push_back({k});
  return p;
}

template <demux_strategy S>
void bench_servant_strategy(runner& r, const std::vector<std::string>& ids) {
  const std::string name(to_string(S));
  {
    servant_map_of<S, value_t> map;
    auto keys = fill(map, ids);
    r.run([&](const probe& p) noexcept { return map.find(p.key); }, probes_of(keys), "servant", name, "concrete", true);
  }
  {
    servant_map<value_t> front(S);
    auto keys = fill(front, ids);
    r.run([&](const probe& p) noexcept { return front.find(p.key); }, probes_of(keys), "servant", name, "variant",
          false);
  }
  if (!r.s.count) {
    auto virt = make_virtual_servant_map(S);
    auto keys = fill(*virt, ids);
    r.run([&](const probe& p) noexcept { return virt->find(p.key); }, probes_of(keys), "servant", name, "vtable",
          false);
  }
}

void bench_servant_maps(const settings& s, std::vector<result>& out) {
  runner r(s, out, 1998);
  r.baseline(probes_of(servant_ids(1000)), "servant");
  for (std::size_t n : {1, 10, 100, 500, 1000}) {
    auto ids = servant_ids(n);
    bench_servant_strategy<demux_strategy::linear>(r, ids);
    bench_servant_strategy<demux_strategy::binary>(r, ids);
    bench_servant_strategy<demux_strategy::dynamic>(r, ids);
    bench_servant_strategy<demux_strategy::perfect>(r, ids);
    bench_servant_strategy<demux_strategy::perfect_fast>(r, ids);
    bench_servant_strategy<demux_strategy::active>(r, ids);

    // Ids known at build time (syidl --object-ids over the 1000 ids): the generated lookup as a
    // template parameter (slots for the listed ids only), and as the plain functions of an
    // id_list in the perfect map (what the adapter uses with an object_id_table).
    {
      gperf_servant_map<gperf_ids, value_t> g;
      auto keys = fill(g, ids);
      r.run([&](const probe& p) noexcept { return g.find(p.key); }, probes_of(keys), "servant", "perfect-gperf",
            "concrete", true);
    }
    {
      gperf_servant_map<fast_ids, value_t> g;
      auto keys = fill(g, ids);
      r.run([&](const probe& p) noexcept { return g.find(p.key); }, probes_of(keys), "servant",
            "perfect-fast-generated", "concrete", true);
    }
    const id_list gperf_list{gperf_ids::key_count, &gperf_ids::index_of, &gperf_ids::key_at};
    const id_list fast_list{fast_ids::key_count, &fast_ids::index_of, &fast_ids::key_at};
    {
      perfect_servant_map<value_t> with_ids(gperf_list);
      auto keys = fill(with_ids, ids);
      r.run([&](const probe& p) noexcept { return with_ids.find(p.key); }, probes_of(keys), "servant", "perfect-ids",
            "concrete", true);
    }
    {
      servant_map<value_t> front_with_ids(demux_strategy::perfect, gperf_list);
      auto keys = fill(front_with_ids, ids);
      r.run([&](const probe& p) noexcept { return front_with_ids.find(p.key); }, probes_of(keys), "servant",
            "perfect-ids", "variant", false);
    }
    {
      perfect_servant_map<value_t> with_ids(fast_list);
      auto keys = fill(with_ids, ids);
      r.run([&](const probe& p) noexcept { return with_ids.find(p.key); }, probes_of(keys), "servant",
            "perfect-fast-ids", "concrete", true);
    }
  }
}

// --- Operation tables --------------------------------------------------------------------------

template <demux_strategy S, class Ops>
void bench_operation_strategy(runner& r, const Ops& ops, const std::vector<probe>& by_name,
                              const std::vector<probe>& by_index) {
  const std::string name(to_string(S));
  // Active requests carry the index; the others only the name.
  const auto& population = S == demux_strategy::active ? by_index : by_name;
  {
    const operation_table_of<S, value_t> table(ops);
    r.run([&](const probe& p) noexcept { return table.find(p.index, p.key); }, population, "operation", name,
          "concrete", true);
  }
  {
    const operation_table<value_t> front(S, ops);
    r.run([&](const probe& p) noexcept { return front.find(p.index, p.key); }, population, "operation", name, "variant",
          false);
  }
  if (!r.s.count) {
    auto virt = make_virtual_operation_table(S, ops);
    r.run([&](const probe& p) noexcept { return virt->find(p.index, p.key); }, population, "operation", name, "vtable",
          false);
  }
}

// Gperf: the lookup syidl generates (gperf_driver); Fast: the perfect-fast struct over the same list.
template <class Gperf, class Fast>
void bench_operation_tables_of(runner& r) {
  std::vector<operation<value_t>> ops;
  std::vector<probe> by_name, by_index;
  for (std::size_t i = 0; i < Gperf::key_count; ++i) {
    ops.push_back({Gperf::key_at(i), 0});
    by_name.push_back({Gperf::key_at(i)});
    by_index.push_back({Gperf::key_at(i), static_cast<std::uint32_t>(i)});
  }
  bench_operation_strategy<demux_strategy::linear>(r, ops, by_name, by_index);
  bench_operation_strategy<demux_strategy::binary>(r, ops, by_name, by_index);
  bench_operation_strategy<demux_strategy::dynamic>(r, ops, by_name, by_index);
  bench_operation_strategy<demux_strategy::perfect>(r, ops, by_name, by_index);
  bench_operation_strategy<demux_strategy::perfect_fast>(r, ops, by_name, by_index);
  bench_operation_strategy<demux_strategy::active>(r, ops, by_name, by_index);

  // Generated at build time: as a template parameter, and as the front's function pointer (what
  // the adapter does with interface_info::perfect_lookup).
  {
    const perfect_operation_table<value_t, Gperf> generated(ops);
    r.run([&](const probe& p) noexcept { return generated.find(p.key); }, by_name, "operation", "perfect-gperf",
          "concrete", true);
    const operation_table<value_t> front(demux_strategy::perfect, ops, &Gperf::index_of);
    r.run([&](const probe& p) noexcept { return front.find(p.key); }, by_name, "operation", "perfect-gperf", "variant",
          false);
  }
  {
    const perfect_operation_table<value_t, Fast> generated(ops);
    r.run([&](const probe& p) noexcept { return generated.find(p.key); }, by_name, "operation",
          "perfect-fast-generated", "concrete", true);
    const operation_table<value_t> front(demux_strategy::perfect, ops, &Fast::index_of);
    r.run([&](const probe& p) noexcept { return front.find(p.key); }, by_name, "operation", "perfect-fast-generated",
          "variant", false);
  }
  // Active without an index (a request from another ORB): the name fallback.
  const active_operation_table<value_t> active(ops);
  r.run([&](const probe& p) noexcept { return active.find(p.key); }, by_name, "operation", "active-by-name", "concrete",
        true);
}

void bench_operation_tables(const settings& s, std::vector<result>& out) {
  runner r(s, out, 2000);
  std::vector<probe> names;
  for (std::size_t i = 0; i < operations_1000::key_count; ++i) names.push_back({operations_1000::key_at(i)});
  r.baseline(names, "operation");
  bench_operation_tables_of<operations_1, operations_1_fast>(r);
  bench_operation_tables_of<operations_10, operations_10_fast>(r);
  bench_operation_tables_of<operations_100, operations_100_fast>(r);
  bench_operation_tables_of<operations_500, operations_500_fast>(r);
  bench_operation_tables_of<operations_1000, operations_1000_fast>(r);
}

// --- 100,000 servants in one map ---------------------------------------------------------------

std::string object_id(std::uint32_t n) {
  std::string id = "RootPOA/";
  for (int shift = 24; shift >= 0; shift -= 8) id += static_cast<char>((n >> shift) & 0xff);
  return id;
}

// In-use bytes of the heap: small blocks plus those malloc took straight from mmap.
std::size_t heap_in_use() {
  auto mi = mallinfo2();
  return mi.uordblks + mi.hblkhd;
}

template <class Map>
void bench_large_one(runner& r, const std::vector<std::string>& ids, const std::string& name) {
  const std::size_t before = heap_in_use();
  auto map = std::make_unique<Map>();
  std::vector<std::string> keys;
  keys.reserve(ids.size());
  auto start = std::chrono::steady_clock::now();
  for (auto& id : ids) {
    if constexpr (std::is_same_v<Map, linear_servant_map<value_t>>) {
      keys.emplace_back(map->insert_new(id, 0));  // ids are distinct: skip the quadratic check
    } else {
      keys.emplace_back(*map->insert(id, 0));
    }
  }
  auto fill_ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
  // The keys vector is the benchmark's, not the map's: take it out of the heap figure.
  std::size_t keys_bytes = keys.capacity() * sizeof(std::string);
  for (auto& k : keys) keys_bytes += string_heap_bytes(k);
  const double heap = static_cast<double>(heap_in_use() - before) - static_cast<double>(keys_bytes);
  auto res = measure_warm(
      r.s, [&](const probe& p) noexcept { return map->find(p.key); }, random_sequence(probes_of(keys), r.rng));
  res.bytes_per_servant = heap / static_cast<double>(ids.size());
  res.reported_per_servant = static_cast<double>(map->memory_bytes()) / static_cast<double>(ids.size());
  std::cerr << "  (filled in " << fill_ns / 1e6 << " ms)\n";
  r.add(res, "servant_100k", name, "concrete", "random", "warm", ids.size());
}

void bench_large(const settings& s, std::vector<result>& out) {
  runner r(s, out, 500);
  std::vector<std::string> ids;
  for (std::uint32_t i = 0; i < 100'000; ++i) ids.push_back(object_id(i * 2654435761u));
  bench_large_one<linear_servant_map<value_t>>(r, ids, "linear");
  // A binary map filled one id at a time moves half its array per insert: 100,000 of them are
  // quadratic (seconds), the lookups are what is measured.
  bench_large_one<binary_servant_map<value_t>>(r, ids, "binary");
  bench_large_one<dynamic_servant_map<value_t>>(r, ids, "dynamic");
  bench_large_one<perfect_servant_map<value_t>>(r, ids, "perfect");
  bench_large_one<fast_perfect_servant_map<value_t>>(r, ids, "perfect-fast");
  bench_large_one<active_servant_map<value_t>>(r, ids, "active");
}

// --- Reports -----------------------------------------------------------------------------------

std::string fixed(double v, int decimals = 1) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

void write_csv(const std::filesystem::path& path, const std::vector<result>& rs, const settings& s) {
  std::ofstream f(path);
  f << "family,strategy,dispatch,pattern,cache,evict_bytes,keys,median_ns,min_ns,max_ns,lookups_per_rep,"
       "heap_bytes_per_servant,reported_bytes_per_servant\n";
  for (auto& r : rs) {
    f << r.family << ',' << r.strategy << ',' << r.dispatch << ',' << r.pattern << ',' << r.cache << ','
      << (r.cache == "cold" ? s.cold_bytes : 0) << ',' << r.keys << ',' << fixed(r.median_ns, 2) << ','
      << fixed(r.min_ns, 2) << ',' << fixed(r.max_ns, 2) << ',' << r.lookups_per_rep << ','
      << fixed(r.bytes_per_servant, 1) << ',' << fixed(r.reported_per_servant, 1) << '\n';
  }
}

// One table: a row per (strategy, dispatch), a column per key count.
void table(std::ostream& md, const std::vector<result>& rs, const std::string& family, const std::string& pattern,
           const std::string& cache, const std::vector<std::size_t>& sizes) {
  md << "| strategy | dispatch |";
  for (auto n : sizes) md << ' ' << n << " |";
  md << "\n| --- | --- |";
  for (std::size_t i = 0; i < sizes.size(); ++i) md << " ---: |";
  md << '\n';
  std::vector<std::pair<std::string, std::string>> rows;
  for (auto& r : rs) {
    if (r.family != family || r.pattern != pattern || r.cache != cache) continue;
    std::pair<std::string, std::string> key{r.strategy, r.dispatch};
    if (std::find(rows.begin(), rows.end(), key) == rows.end()) rows.push_back(key);
  }
  for (auto& [strategy, dispatch] : rows) {
    md << "| " << strategy << " | " << dispatch << " |";
    for (auto n : sizes) {
      auto it = std::find_if(rs.begin(), rs.end(), [&](const result& r) {
        return r.family == family && r.pattern == pattern && r.cache == cache && r.strategy == strategy &&
               r.dispatch == dispatch && r.keys == n;
      });
      md << ' ' << (it == rs.end() ? std::string("-") : fixed(it->median_ns)) << " |";
    }
    md << '\n';
  }
  md << '\n';
}

void write_md(const std::filesystem::path& path, const std::vector<result>& rs, const settings& s) {
  std::ofstream md(path);
  const std::vector<std::size_t> sizes{1, 10, 100, 500, 1000};
  md << "# demux micro-benchmark\n\nMedian ns per lookup over " << s.repetitions()
     << " repetitions (dependent lookups through a random key sequence)" << (s.quick ? ", --quick run" : "")
     << ". concrete = the strategy's type used directly; variant = the run-time front "
        "(servant_map / operation_table); vtable = a virtual-call front, for comparison.\n\n";
  md << "## Servant maps, random keys\n\n";
  table(md, rs, "servant", "random", "warm", sizes);
  md << "## Servant maps, worst case (the last entry)\n\n";
  table(md, rs, "servant", "worst", "warm", sizes);
  md << "## Operation tables, random operations\n\n";
  table(md, rs, "operation", "random", "warm", sizes);
  md << "## Operation tables, worst case (the last operation)\n\n";
  table(md, rs, "operation", "worst", "warm", sizes);
  if (s.cold_bytes != 0) {
    md << "## Cold caches (" << s.cold_bytes << " bytes read between lookups), servant maps, random keys\n\n";
    table(md, rs, "servant", "random", "cold", sizes);
    md << "## Cold caches, operation tables, random operations\n\n";
    table(md, rs, "operation", "random", "cold", sizes);
  }
  md << "## 100,000 servants in one map\n\n| strategy | lookup ns (random) | heap bytes per servant | "
        "map's own count per servant |\n| --- | ---: | ---: | ---: |\n";
  for (auto& r : rs) {
    if (r.family != "servant_100k") continue;
    md << "| " << r.strategy << " | " << fixed(r.median_ns) << " | " << fixed(r.bytes_per_servant) << " | "
       << fixed(r.reported_per_servant) << " |\n";
  }
}

// "64M", "512K", "1G" or a plain number of bytes.
std::optional<std::size_t> parse_bytes(const std::string& text) {
  if (text.empty()) return std::nullopt;
  std::size_t used = 0;
  unsigned long long n;
  try {
    n = std::stoull(text, &used);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  const std::string unit = text.substr(used);
  const unsigned long long scale = unit.empty()  ? 1
                                   : unit == "K" ? 1ull << 10
                                   : unit == "M" ? 1ull << 20
                                   : unit == "G" ? 1ull << 30
                                                 : 0;
  if (scale == 0 || n == 0 || n > (1ull << 34) / scale) return std::nullopt;
  return static_cast<std::size_t>(n * scale);
}

int usage() {
  std::cerr << "usage: demux_bench --out DIR [--quick] [--cold BYTES] [--cold-lookups N] [--count]\n"
               "  BYTES: 64M, 512K, ... (read between lookups to evict the caches)\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  settings s;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--quick") {
      s.quick = true;
    } else if (arg == "--count") {
      s.count = true;
    } else if (arg == "--out" && i + 1 < argc) {
      s.out = argv[++i];
    } else if (arg == "--cold" && i + 1 < argc) {
      auto bytes = parse_bytes(argv[++i]);
      if (!bytes) return usage();
      s.cold_bytes = *bytes;
    } else if (arg == "--cold-lookups" && i + 1 < argc) {
      auto n = parse_bytes(argv[++i]);
      if (!n || *n > 1'000'000) return usage();
      s.cold_lookups = *n;
    } else {
      return usage();
    }
  }
  if (s.count && !counting_available()) {
    std::cerr << "demux_bench: --count needs valgrind's <valgrind/callgrind.h> at build time\n";
    return 1;
  }
  std::error_code ec;
  std::filesystem::create_directories(s.out, ec);
  if (ec) {
    std::cerr << "demux_bench: cannot create " << s.out << ": " << ec.message() << '\n';
    return 1;
  }
  std::vector<result> rs;
  std::cerr << "demux_bench: servant maps\n";
  bench_servant_maps(s, rs);
  std::cerr << "demux_bench: operation tables\n";
  bench_operation_tables(s, rs);
  if (s.count) return 0;  // the counts are callgrind's dumps
  std::cerr << "demux_bench: 100,000 servants\n";
  bench_large(s, rs);
  write_csv(s.out / "demux_micro.csv", rs, s);
  write_md(s.out / "demux_micro.md", rs, s);
  std::cerr << "demux_bench: wrote " << (s.out / "demux_micro.csv").string() << " and "
            << (s.out / "demux_micro.md").string() << '\n';
  return 0;
}
