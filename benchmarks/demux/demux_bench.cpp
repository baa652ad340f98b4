// Micro-benchmark of demux/: lookup cost of every servant map and operation table strategy, used
// directly (compile-time choice), through the run-time front (std::variant, one switch per call)
// and through a vtable (the alternative the front was measured against); and 100,000 servants in
// one map (memory per servant, lookup cost). Writes DIR/demux_micro.csv and DIR/demux_micro.md.
//
//   demux_bench --out DIR [--quick]        (pin it: taskset -c 0 demux_bench --out DIR)
//
// Each figure is the median over repetitions of a loop of lookups whose next key depends on the
// value found (a dependent chain through a precomputed random key sequence), so the compiler can
// neither hoist a lookup nor overlap two: it is the latency of one lookup, as a request sees it.
// Time is the thread's CPU time (CLOCK_THREAD_CPUTIME_ID), so other processes on a shared core
// do not count; repetitions are short (4 ms) and many (21), and the median is reported.
#include <malloc.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "demux/operation_table.h"
#include "demux/servant_map.h"
#include "operations_1_lookup.h"
#include "operations_10_lookup.h"
#include "operations_100_lookup.h"
#include "servant_ids_1000_lookup.h"

using namespace switchyard::demux;
using value_t = std::uint32_t;  // every value is 0: the loop adds it into the next index

namespace {

struct settings {
  std::filesystem::path out = ".";
  bool quick = false;
  double target_ms() const { return quick ? 1.0 : 4.0; }
  int repetitions() const { return quick ? 5 : 21; }
};

struct result {
  std::string family;    // servant | operation | servant_100k
  std::string strategy;  // linear | dynamic | perfect | perfect-gperf | perfect-ids | active | active-by-name
  std::string dispatch;  // concrete | variant | vtable
  std::string pattern;   // random | worst
  std::size_t keys;
  double median_ns, min_ns, max_ns;
  std::size_t lookups_per_rep;
  double bytes_per_servant = 0;    // 100k only: malloc'd bytes / servants
  double reported_per_servant = 0; // 100k only: memory_bytes() / servants
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

// Runs `count` dependent lookups; returns elapsed ns. Aborts if a key is not found (a broken run
// must not produce figures).
template <class Find>
double run_lookups(Find& find, const std::vector<probe>& seq, std::size_t count) {
  const std::size_t mask = seq.size() - 1;
  std::size_t i = 0;
  std::uint64_t sink = 0;
  const double start = thread_cpu_ns();
  for (std::size_t n = 0; n < count; ++n) {
    const value_t* v = find(seq[i]);
    if (v == nullptr) [[unlikely]] {
      std::cerr << "demux_bench: a key of the sequence was not found\n";
      std::abort();
    }
    sink += *v;
    i = (i + 1 + *v) & mask;
  }
  const double stop = thread_cpu_ns();
  asm volatile("" : : "r"(sink));
  return stop - start;
}

template <class Find>
result measure(const settings& s, Find find, const std::vector<probe>& seq) {
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
[[gnu::noinline]] std::unique_ptr<virtual_servant_map> make_virtual_servant_map(demux_strategy s) {
  switch (s) {
    case demux_strategy::linear: return std::make_unique<virtual_servant_map_of<linear_servant_map<value_t>>>();
    case demux_strategy::binary: return std::make_unique<virtual_servant_map_of<binary_servant_map<value_t>>>();
    case demux_strategy::perfect_fast: return std::make_unique<virtual_servant_map_of<fast_perfect_servant_map<value_t>>>();
    case demux_strategy::dynamic: return std::make_unique<virtual_servant_map_of<dynamic_servant_map<value_t>>>();
    case demux_strategy::perfect: return std::make_unique<virtual_servant_map_of<perfect_servant_map<value_t>>>();
    case demux_strategy::active: return std::make_unique<virtual_servant_map_of<active_servant_map<value_t>>>();
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
  const value_t* find(std::uint32_t index, key_view name) const noexcept override {
    return table.find(index, name);
  }
};
[[gnu::noinline]] std::unique_ptr<virtual_operation_table> make_virtual_operation_table(
    demux_strategy s, std::span<const operation<value_t>> ops) {
  switch (s) {
    case demux_strategy::linear: return std::make_unique<virtual_operation_table_of<linear_operation_table<value_t>>>(ops);
    case demux_strategy::binary: return std::make_unique<virtual_operation_table_of<binary_operation_table<value_t>>>(ops);
    case demux_strategy::perfect_fast: return std::make_unique<virtual_operation_table_of<fast_perfect_operation_table<value_t>>>(ops);
    case demux_strategy::dynamic: return std::make_unique<virtual_operation_table_of<dynamic_operation_table<value_t>>>(ops);
    case demux_strategy::perfect: return std::make_unique<virtual_operation_table_of<perfect_operation_table<value_t>>>(ops);
    case demux_strategy::active: return std::make_unique<virtual_operation_table_of<active_operation_table<value_t>>>(ops);
  }
  return nullptr;
}

constexpr auto all_strategies = all_demux_strategies;

// --- Servant maps ------------------------------------------------------------------------------

// The first n object ids of the build-time list (the gperf list is over all 1000).
std::vector<std::string> servant_ids(std::size_t n) {
  std::vector<std::string> ids;
  for (std::size_t i = 0; i < n; ++i) ids.emplace_back(servant_ids_1000_lookup::key_at(i));
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

void add(std::vector<result>& out, result r, std::string family, std::string strategy,
         std::string dispatch, std::string pattern, std::size_t keys) {
  r.family = std::move(family);
  r.strategy = std::move(strategy);
  r.dispatch = std::move(dispatch);
  r.pattern = std::move(pattern);
  r.keys = keys;
  std::cerr << "  " << r.family << ' ' << r.strategy << ' ' << r.dispatch << ' ' << r.pattern
            << ' ' << r.keys << ": " << r.median_ns << " ns\n";
  out.push_back(std::move(r));
}

// Random and worst-case (the last entry: the end of a linear scan) sequences over `keys`.
template <class Find>
void measure_both(const settings& s, std::vector<result>& out, Find find,
                  const std::vector<probe>& population, std::mt19937& rng, const char* family,
                  const std::string& strategy, const char* dispatch) {
  add(out, measure(s, find, random_sequence(population, rng)), family, strategy, dispatch, "random",
      population.size());
  std::vector<probe> worst(sequence_length, population.back());
  add(out, measure(s, find, worst), family, strategy, dispatch, "worst", population.size());
}

void bench_servant_maps(const settings& s, std::vector<result>& out) {
  std::mt19937 rng(1998);
  for (std::size_t n : {1, 10, 100, 500, 1000}) {
    auto ids = servant_ids(n);
    for (auto strategy : all_strategies) {
      const std::string name(to_string(strategy));
      std::vector<std::string> keys;
      auto concrete = [&](auto& map) {
        keys = fill(map, ids);
        measure_both(s, out, [&](const probe& p) noexcept { return map.find(p.key); }, probes_of(keys),
                     rng, "servant", name, "concrete");
      };
      switch (strategy) {
        case demux_strategy::linear: { linear_servant_map<value_t> m; concrete(m); break; }
        case demux_strategy::binary: { binary_servant_map<value_t> m; concrete(m); break; }
        case demux_strategy::perfect_fast: { fast_perfect_servant_map<value_t> m; concrete(m); break; }
        case demux_strategy::dynamic: { dynamic_servant_map<value_t> m; concrete(m); break; }
        case demux_strategy::perfect: { perfect_servant_map<value_t> m; concrete(m); break; }
        case demux_strategy::active: { active_servant_map<value_t> m; concrete(m); break; }
      }
      servant_map<value_t> front(strategy);
      keys = fill(front, ids);
      measure_both(s, out, [&](const probe& p) noexcept { return front.find(p.key); }, probes_of(keys),
                   rng, "servant", name, "variant");
      auto virt = make_virtual_servant_map(strategy);
      keys = fill(*virt, ids);
      measure_both(s, out, [&](const probe& p) noexcept { return virt->find(p.key); }, probes_of(keys),
                   rng, "servant", name, "vtable");
    }
    gperf_servant_map<servant_ids_1000_lookup, value_t> g;
    auto keys = fill(g, ids);
    measure_both(s, out, [&](const probe& p) noexcept { return g.find(p.key); }, probes_of(keys), rng,
                 "servant", "perfect-gperf", "concrete");
    // What the adapter uses with a build-time table: perfect_servant_map with the list's gperf
    // lookup as plain functions (listed ids in slots, others in the run-time hash; all listed here).
    const id_list listed{servant_ids_1000_lookup::key_count, &servant_ids_1000_lookup::index_of,
                         &servant_ids_1000_lookup::key_at};
    perfect_servant_map<value_t> with_ids(listed);
    keys = fill(with_ids, ids);
    measure_both(s, out, [&](const probe& p) noexcept { return with_ids.find(p.key); }, probes_of(keys), rng,
                 "servant", "perfect-ids", "concrete");
    servant_map<value_t> front_with_ids(demux_strategy::perfect, listed);
    keys = fill(front_with_ids, ids);
    measure_both(s, out, [&](const probe& p) noexcept { return front_with_ids.find(p.key); }, probes_of(keys),
                 rng, "servant", "perfect-ids", "variant");
  }
}

// --- Operation tables --------------------------------------------------------------------------

template <class Lookup>
void bench_operation_tables_of(const settings& s, std::vector<result>& out, std::mt19937& rng) {
  std::vector<operation<value_t>> ops;
  std::vector<probe> by_name, by_index;
  for (std::size_t i = 0; i < Lookup::key_count; ++i) {
    ops.push_back({Lookup::key_at(i), 0});
    by_name.push_back({Lookup::key_at(i)});
    by_index.push_back({Lookup::key_at(i), static_cast<std::uint32_t>(i)});
  }
  for (auto strategy : all_strategies) {
    const std::string name(to_string(strategy));
    // Active requests carry the index; the others only the name.
    const auto& population = strategy == demux_strategy::active ? by_index : by_name;
    auto concrete = [&](const auto& table) {
      measure_both(s, out, [&](const probe& p) noexcept { return table.find(p.index, p.key); },
                   population, rng, "operation", name, "concrete");
    };
    switch (strategy) {
      case demux_strategy::linear: concrete(linear_operation_table<value_t>(ops)); break;
      case demux_strategy::binary: concrete(binary_operation_table<value_t>(ops)); break;
      case demux_strategy::perfect_fast: concrete(fast_perfect_operation_table<value_t>(ops)); break;
      case demux_strategy::dynamic: concrete(dynamic_operation_table<value_t>(ops)); break;
      case demux_strategy::perfect: concrete(perfect_operation_table<value_t>(ops)); break;
      case demux_strategy::active: concrete(active_operation_table<value_t>(ops)); break;
    }
    operation_table<value_t> front(strategy, ops);
    measure_both(s, out, [&](const probe& p) noexcept { return front.find(p.index, p.key); },
                 population, rng, "operation", name, "variant");
    auto virt = make_virtual_operation_table(strategy, ops);
    measure_both(s, out, [&](const probe& p) noexcept { return virt->find(p.index, p.key); },
                 population, rng, "operation", name, "vtable");
  }
  // gperf generated at build time: as a template parameter, and as the front's function pointer.
  perfect_operation_table<value_t, Lookup> generated(ops);
  measure_both(s, out, [&](const probe& p) noexcept { return generated.find(p.key); }, by_name, rng,
               "operation", "perfect-gperf", "concrete");
  operation_table<value_t> front(demux_strategy::perfect, ops, &Lookup::index_of);
  measure_both(s, out, [&](const probe& p) noexcept { return front.find(p.key); }, by_name, rng,
               "operation", "perfect-gperf", "variant");
  // Active without an index (a request from another ORB): the name fallback.
  active_operation_table<value_t> active(ops);
  measure_both(s, out, [&](const probe& p) noexcept { return active.find(p.key); }, by_name, rng,
               "operation", "active-by-name", "concrete");
}

void bench_operation_tables(const settings& s, std::vector<result>& out) {
  std::mt19937 rng(2000);
  bench_operation_tables_of<operations_1_lookup>(s, out, rng);
  bench_operation_tables_of<operations_10_lookup>(s, out, rng);
  bench_operation_tables_of<operations_100_lookup>(s, out, rng);
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
void bench_large_one(const settings& s, std::vector<result>& out, const std::vector<std::string>& ids,
                     const std::string& name, std::mt19937& rng) {
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
  auto r = measure(s, [&](const probe& p) noexcept { return map->find(p.key); },
                   random_sequence(probes_of(keys), rng));
  r.bytes_per_servant = heap / static_cast<double>(ids.size());
  r.reported_per_servant = static_cast<double>(map->memory_bytes()) / static_cast<double>(ids.size());
  std::cerr << "  (filled in " << fill_ns / 1e6 << " ms)\n";
  add(out, r, "servant_100k", name, "concrete", "random", ids.size());
}

void bench_large(const settings& s, std::vector<result>& out) {
  std::mt19937 rng(500);
  std::vector<std::string> ids;
  for (std::uint32_t i = 0; i < 100'000; ++i) ids.push_back(object_id(i * 2654435761u));
  bench_large_one<linear_servant_map<value_t>>(s, out, ids, "linear", rng);
  bench_large_one<dynamic_servant_map<value_t>>(s, out, ids, "dynamic", rng);
  bench_large_one<perfect_servant_map<value_t>>(s, out, ids, "perfect", rng);
  bench_large_one<active_servant_map<value_t>>(s, out, ids, "active", rng);
}

// --- Reports -----------------------------------------------------------------------------------

std::string fixed(double v, int decimals = 1) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

void write_csv(const std::filesystem::path& path, const std::vector<result>& rs) {
  std::ofstream f(path);
  f << "family,strategy,dispatch,pattern,keys,median_ns,min_ns,max_ns,lookups_per_rep,"
       "heap_bytes_per_servant,reported_bytes_per_servant\n";
  for (auto& r : rs) {
    f << r.family << ',' << r.strategy << ',' << r.dispatch << ',' << r.pattern << ',' << r.keys << ','
      << fixed(r.median_ns, 2) << ',' << fixed(r.min_ns, 2) << ',' << fixed(r.max_ns, 2) << ','
      << r.lookups_per_rep << ',' << fixed(r.bytes_per_servant, 1) << ','
      << fixed(r.reported_per_servant, 1) << '\n';
  }
}

// One table: a row per (strategy, dispatch), a column per key count.
void table(std::ostream& md, const std::vector<result>& rs, const std::string& family,
           const std::string& pattern, const std::vector<std::size_t>& sizes) {
  md << "| strategy | dispatch |";
  for (auto n : sizes) md << ' ' << n << " |";
  md << "\n| --- | --- |";
  for (std::size_t i = 0; i < sizes.size(); ++i) md << " ---: |";
  md << '\n';
  std::vector<std::pair<std::string, std::string>> rows;
  for (auto& r : rs) {
    if (r.family != family || r.pattern != pattern) continue;
    std::pair<std::string, std::string> key{r.strategy, r.dispatch};
    if (std::find(rows.begin(), rows.end(), key) == rows.end()) rows.push_back(key);
  }
  for (auto& [strategy, dispatch] : rows) {
    md << "| " << strategy << " | " << dispatch << " |";
    for (auto n : sizes) {
      auto it = std::find_if(rs.begin(), rs.end(), [&](const result& r) {
        return r.family == family && r.pattern == pattern && r.strategy == strategy &&
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
  md << "# demux micro-benchmark\n\nMedian ns per lookup over " << s.repetitions()
     << " repetitions (dependent lookups through a random key sequence)" << (s.quick ? ", --quick run" : "")
     << ". concrete = the strategy's type used directly; variant = the run-time front "
        "(servant_map / operation_table); vtable = a virtual-call front, for comparison.\n\n";
  md << "## Servant maps, random keys\n\n";
  table(md, rs, "servant", "random", {1, 10, 100, 500, 1000});
  md << "## Servant maps, worst case (the last entry)\n\n";
  table(md, rs, "servant", "worst", {1, 10, 100, 500, 1000});
  md << "## Operation tables, random operations\n\n";
  table(md, rs, "operation", "random", {1, 10, 100});
  md << "## Operation tables, worst case (the last operation)\n\n";
  table(md, rs, "operation", "worst", {1, 10, 100});
  md << "## 100,000 servants in one map\n\n| strategy | lookup ns (random) | heap bytes per servant | "
        "map's own count per servant |\n| --- | ---: | ---: | ---: |\n";
  for (auto& r : rs) {
    if (r.family != "servant_100k") continue;
    md << "| " << r.strategy << " | " << fixed(r.median_ns) << " | " << fixed(r.bytes_per_servant)
       << " | " << fixed(r.reported_per_servant) << " |\n";
  }
}

}  // namespace

int main(int argc, char** argv) {
  settings s;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--quick") {
      s.quick = true;
    } else if (arg == "--out" && i + 1 < argc) {
      s.out = argv[++i];
    } else {
      std::cerr << "usage: demux_bench --out DIR [--quick]\n";
      return 2;
    }
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
  std::cerr << "demux_bench: 100,000 servants\n";
  bench_large(s, rs);
  write_csv(s.out / "demux_micro.csv", rs);
  write_md(s.out / "demux_micro.md", rs, s);
  std::cerr << "demux_bench: wrote " << (s.out / "demux_micro.csv").string() << " and "
            << (s.out / "demux_micro.md").string() << '\n';
  return 0;
}
