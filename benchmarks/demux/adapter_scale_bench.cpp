// 100,000 servants in one object adapter, per servant-demultiplexing strategy: memory per servant
// (the adapter's activation record, its key, both maps; not the servant object itself) and the
// cost of the request-path lookup, object key to servant and skeleton, at that size.
//
//   taskset -c 0 build/benchmarks/demux/adapter_scale_bench --out DIR [--servants N] [--quick]
//   adapter_scale_bench --count --out DIR   (under callgrind: count_lookups.py --program adapter)
//
// Then the same lookup for 1, 10, 100 and 1000 servants, where `perfect` is measured three times:
// with the run-time perfect hash alone, and with a build-time table (syidl --object-ids over
// adapter_ids_1000.txt, the ids this benchmark activates), gperf's and the perfect-fast one, so
// that every id is in a generated slot; and `active` twice: with the keys' hints valid, and with
// every hint stale (each servant deactivated and activated again after the keys were taken, so
// each request falls back to its id by hash): the hint's cost against plain dynamic hashing.
// Writes DIR/adapter_scale.csv and DIR/adapter_scale.md; progress on stderr.
#include <malloc.h>
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "adapter_ids_1000.h"  // syidl --object-ids adapter_ids_1000.txt
#include "benchmarks/demux/callgrind_marks.h"
#include "orb/adapter/adapter_impl.h"
#include "orb/adapter/adapter_registry.h"
#include "switchyard/server_request.h"

using namespace switchyard;

namespace {

// The adapter asks for references on activation; this benchmark needs none.
struct no_references final : adapter::reference_factory {
  object_ref make_reference(std::string_view, std::string_view) override { return {}; }
};

struct null_servant final : servant {
  static void noop(servant&, server_request&) {}
  static constexpr operation_info operations[] = {{"sendNoParams_2way", &noop}, {"sendNoParams_1way", &noop}};
  static constexpr std::string_view ids[] = {"IDL:ttcp_sequence:1.0"};
  static constexpr interface_info info{"IDL:ttcp_sequence:1.0", ids, operations, nullptr};
  const interface_info& _interface() const noexcept override { return info; }
};

double thread_seconds() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

std::size_t heap_in_use() { return mallinfo2().uordblks; }

enum class id_table { none, gperf, fast };

const char* to_string(id_table t) {
  switch (t) {
    case id_table::none:
      return "none";
    case id_table::gperf:
      return "build-time";
    case id_table::fast:
      return "build-time-fast";
  }
  return "?";
}

struct variant {
  demux_strategy strategy;
  id_table table = id_table::none;
  bool stale_hints = false;  // active only: every key's hint stale
  std::string name() const {
    std::string n(demux::to_string(strategy));
    if (table == id_table::gperf) n += "+gperf-table";
    if (table == id_table::fast) n += "+fast-table";
    if (stale_hints) n += "-stale-hints";
    return n;
  }
};

struct result {
  variant what;
  std::size_t servants;
  double bytes_per_servant;
  double lookup_ns_median;
};

// One adapter with `servants` servants and the keys requests carry, in random order.
struct population {
  no_references references;
  std::shared_ptr<null_servant> shared_servant = std::make_shared<null_servant>();
  adapter::adapter_registry registry;
  std::vector<std::string> keys;
  std::vector<std::uint32_t> order;
  double bytes_per_servant = 0;

  population(const variant& v, std::size_t servants) : registry(references, v.strategy, demux_strategy::perfect) {
    std::size_t heap_before = heap_in_use();
    auto& root = registry.root().impl();
    if (v.table == id_table::gperf) root.use_object_ids(adapter_ids_1000_table);
    if (v.table == id_table::fast) root.use_object_ids(adapter_ids_1000_fast_table);
    for (std::size_t i = 0; i < servants; ++i) {
      root.activate("ttcp/" + std::to_string(i), shared_servant, false);
      if (i % 20000 == 0 && servants > 20000) std::fprintf(stderr, "  %s: %zu servants active\n", v.name().c_str(), i);
    }
    bytes_per_servant = static_cast<double>(heap_in_use() - heap_before) / static_cast<double>(servants);
    for (std::size_t i = 0; i < servants; ++i) keys.push_back(root.key_of("ttcp/" + std::to_string(i)));
    if (v.stale_hints) {
      // Every servant out and back in, in the opposite order: the old keys' hints now name
      // other slots or old generations, and the ids decide.
      for (std::size_t i = 0; i < servants; ++i) root.deactivate("ttcp/" + std::to_string(i));
      for (std::size_t i = servants; i-- > 0;) root.activate("ttcp/" + std::to_string(i), shared_servant, false);
    }
    std::mt19937 random(42);
    order.resize(1 << 16);
    for (auto& o : order) o = static_cast<std::uint32_t>(random() % servants);
  }

  bool find(std::uint32_t index) {
    adapter::dispatch_target target;
    return registry.find(keys[index], "sendNoParams_2way", demux::no_operation_index, target) ==
               adapter::lookup_status::found &&
           target.skeleton != nullptr;
  }
};

result measure(const variant& v, std::size_t servants, int repetitions) {
  population p(v, servants);
  std::vector<double> samples;
  std::size_t found = 0;
  for (int r = 0; r < repetitions; ++r) {
    double start = thread_seconds();
    for (std::uint32_t index : p.order) found += p.find(index);
    samples.push_back((thread_seconds() - start) * 1e9 / static_cast<double>(p.order.size()));
  }
  if (found != p.order.size() * static_cast<std::size_t>(repetitions)) {
    std::fprintf(stderr, "adapter_scale_bench: %s: lookup failures\n", v.name().c_str());
    std::exit(1);
  }
  std::sort(samples.begin(), samples.end());
  return {v, servants, p.bytes_per_servant, samples[samples.size() / 2]};
}

// --count: what callgrind counts (--toggle-collect='*measured_*') is this function.
[[gnu::noinline]] bool measured_find(population& p, std::uint32_t index) { return p.find(index); }

// Dumps "warm|adapter|VARIANT|find|SERVANTS|LOOKUPS" and "cold|..." as demux_bench does.
void count(const variant& v, std::size_t servants, std::vector<char>& evict) {
  population p(v, servants);
  const std::string name = "adapter|" + v.name() + "|find|" + std::to_string(servants);
  constexpr std::size_t warm_lookups = 2000, cold_lookups = 20;
  bench::count_zero();
  std::size_t found = 0;
  for (std::size_t i = 0; i < warm_lookups; ++i) found += measured_find(p, p.order[i]);
  bench::count_dump(("warm|" + name + "|" + std::to_string(warm_lookups)).c_str());
  bench::count_zero();
  for (std::size_t i = 0; i < cold_lookups; ++i) {
    std::uint64_t sum = 0;
    for (std::size_t at = 0; at < evict.size(); at += 64) sum += static_cast<unsigned char>(evict[at]);
    const std::string& key = p.keys[p.order[i]];
    for (char c : key) sum += static_cast<unsigned char>(c);  // the request's key is in cache
    asm volatile("" : : "r"(sum) : "memory");
    found += measured_find(p, p.order[i]);
  }
  bench::count_dump(("cold|" + name + "|" + std::to_string(cold_lookups)).c_str());
  if (found != warm_lookups + cold_lookups) {
    std::fprintf(stderr, "adapter_scale_bench: %s: lookup failures\n", v.name().c_str());
    std::exit(1);
  }
}

const std::vector<variant>& small_variants() {
  static const std::vector<variant> all = {
      {demux_strategy::active},
      {demux_strategy::active, id_table::none, true},
      {demux_strategy::dynamic},
      {demux_strategy::binary},
      {demux_strategy::perfect},
      {demux_strategy::perfect, id_table::gperf},
      {demux_strategy::perfect, id_table::fast},
      {demux_strategy::perfect_fast},
  };
  return all;
}

}  // namespace

int main(int argc, char** argv) {
  std::filesystem::path out = "results/adapter-scale";
  std::size_t servants = 100000;
  int repetitions = 15;
  bool counting = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--out" && i + 1 < argc) out = argv[++i];
    else if (arg == "--servants" && i + 1 < argc) servants = std::stoul(argv[++i]);
    else if (arg == "--quick") repetitions = 3, servants = std::min<std::size_t>(servants, 10000);
    else if (arg == "--count") counting = true;
    else {
      std::fprintf(stderr, "usage: adapter_scale_bench [--out DIR] [--servants N] [--quick] [--count]\n");
      return 2;
    }
  }
  // A build fixing another servant strategy serves only that one.
  const auto available = [](const variant& v) {
    return !compiled_servant_demux.is_fixed || compiled_servant_demux.strategy == v.strategy;
  };
  if (counting) {
    if (!bench::counting_available()) {
      std::fprintf(stderr, "adapter_scale_bench: --count needs valgrind's <valgrind/callgrind.h> at build time\n");
      return 1;
    }
    std::vector<char> evict(std::size_t{4} << 20, 1);
    for (std::size_t n : {1, 10, 100, 1000})
      for (const auto& v : small_variants())
        if (available(v)) count(v, n, evict);
    return 0;
  }
  std::filesystem::create_directories(out);
  std::vector<result> results;
  for (auto strategy : {demux_strategy::active, demux_strategy::dynamic, demux_strategy::perfect,
                        demux_strategy::perfect_fast, demux_strategy::binary, demux_strategy::linear}) {
    const variant v{strategy};
    if (!available(v)) continue;
    // Linear at 100,000 costs about 30 us a lookup: fewer repetitions say the same. Binary's fill
    // moves half its array per activation: quadratic, and the lookups are what is measured.
    std::fprintf(stderr, "adapter_scale_bench: %s\n", v.name().c_str());
    results.push_back(measure(v, servants, strategy == demux_strategy::linear ? 1 : repetitions));
  }
  // 1..1000 servants: the build-time tables beside the run-time hashes, stale hints beside valid.
  for (std::size_t n : {1, 10, 100, 1000}) {
    std::fprintf(stderr, "adapter_scale_bench: %zu servants\n", n);
    for (const auto& v : small_variants())
      if (available(v)) results.push_back(measure(v, n, repetitions));
  }
  std::ofstream csv(out / "adapter_scale.csv");
  csv << "servant_demux,object_id_table,stale_hints,servants,bytes_per_servant,lookup_ns_median\n";
  std::ofstream md(out / "adapter_scale.md");
  md << "| servant demux | object id table | stale hints | servants | bytes per servant | lookup ns (median) |\n"
        "|---|---|---|---:|---:|---:|\n";
  for (const auto& r : results) {
    const char* table = to_string(r.what.table);
    const char* stale = r.what.stale_hints ? "yes" : "no";
    csv << demux::to_string(r.what.strategy) << ',' << table << ',' << stale << ',' << r.servants << ','
        << r.bytes_per_servant << ',' << r.lookup_ns_median << '\n';
    char line[240];
    std::snprintf(line, sizeof line, "| %s | %s | %s | %zu | %.0f | %.1f |\n",
                  std::string(demux::to_string(r.what.strategy)).c_str(), table, stale, r.servants, r.bytes_per_servant,
                  r.lookup_ns_median);
    md << line;
  }
  std::fprintf(stderr, "adapter_scale_bench: results in %s\n", out.c_str());
  return 0;
}
