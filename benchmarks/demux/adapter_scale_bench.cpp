// 100,000 servants in one object adapter, per servant-demultiplexing strategy: memory per servant
// (the adapter's activation record, its key, both maps; not the servant object itself) and the
// cost of the request-path lookup, object key to servant and skeleton, at that size.
//
//   taskset -c 0 build/benchmarks/demux/adapter_scale_bench --out DIR [--servants N] [--quick]
//
// Then the same lookup for 1, 10, 100 and 1000 servants, where `perfect` is measured twice: with
// the run-time perfect hash alone, and with a build-time table (syidl --object-ids over
// adapter_ids_1000.txt, the ids this benchmark activates) so that every id is in a gperf slot.
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

struct result {
  std::string strategy;
  bool object_id_table;  // a build-time table (perfect only)
  std::size_t servants;
  double bytes_per_servant;
  double lookup_ns_median;
};

result measure(demux_strategy strategy, std::size_t servants, int repetitions, bool object_id_table = false) {
  no_references references;
  auto shared_servant = std::make_shared<null_servant>();
  std::size_t heap_before = heap_in_use();
  adapter::adapter_registry registry(references, strategy, demux_strategy::perfect);
  auto& root = registry.root().impl();
  if (object_id_table) root.use_object_ids(adapter_ids_1000_table);
  std::vector<std::string> keys;
  keys.reserve(servants);
  for (std::size_t i = 0; i < servants; ++i) {
    root.activate("ttcp/" + std::to_string(i), shared_servant, false);
    if (i % 20000 == 0) std::fprintf(stderr, "  %s: %zu servants active\n", demux::to_string(strategy).data(), i);
  }
  std::size_t heap_after = heap_in_use();
  // The keys requests carry.
  for (std::size_t i = 0; i < servants; ++i) keys.push_back(root.key_of("ttcp/" + std::to_string(i)));
  std::mt19937 random(42);
  std::vector<std::uint32_t> order(1 << 16);
  for (auto& o : order) o = static_cast<std::uint32_t>(random() % servants);

  std::vector<double> samples;
  std::size_t sink = 0;
  for (int r = 0; r < repetitions; ++r) {
    double start = thread_seconds();
    for (std::uint32_t index : order) {
      adapter::dispatch_target target;
      auto status = registry.find(keys[index], "sendNoParams_2way", demux::no_operation_index, target);
      sink += static_cast<std::size_t>(status) + (target.skeleton != nullptr);
    }
    samples.push_back((thread_seconds() - start) * 1e9 / static_cast<double>(order.size()));
  }
  if (sink != order.size() * static_cast<std::size_t>(repetitions)) std::fprintf(stderr, "lookup failures!\n");
  std::sort(samples.begin(), samples.end());
  return {std::string(demux::to_string(strategy)), object_id_table, servants,
          static_cast<double>(heap_after - heap_before) / static_cast<double>(servants), samples[samples.size() / 2]};
}

}  // namespace

int main(int argc, char** argv) {
  std::filesystem::path out = "results/adapter-scale";
  std::size_t servants = 100000;
  int repetitions = 15;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--out" && i + 1 < argc) out = argv[++i];
    else if (arg == "--servants" && i + 1 < argc) servants = std::stoul(argv[++i]);
    else if (arg == "--quick") repetitions = 3, servants = std::min<std::size_t>(servants, 10000);
    else {
      std::fprintf(stderr, "usage: adapter_scale_bench [--out DIR] [--servants N] [--quick]\n");
      return 2;
    }
  }
  std::filesystem::create_directories(out);
  std::vector<result> results;
  for (auto strategy : {demux_strategy::active, demux_strategy::dynamic, demux_strategy::perfect, demux_strategy::linear}) {
    // Linear at 100,000 costs about 30 us a lookup: fewer repetitions say the same.
    std::fprintf(stderr, "adapter_scale_bench: %s\n", demux::to_string(strategy).data());
    results.push_back(measure(strategy, servants, strategy == demux_strategy::linear ? 1 : repetitions));
  }
  // 1..1000 servants: the build-time table (gperf) beside the run-time perfect hash.
  for (std::size_t n : {1, 10, 100, 1000}) {
    std::fprintf(stderr, "adapter_scale_bench: %zu servants\n", n);
    for (auto strategy : {demux_strategy::active, demux_strategy::dynamic, demux_strategy::perfect})
      results.push_back(measure(strategy, n, repetitions));
    results.push_back(measure(demux_strategy::perfect, n, repetitions, true));
  }
  std::ofstream csv(out / "adapter_scale.csv");
  csv << "servant_demux,object_id_table,servants,bytes_per_servant,lookup_ns_median\n";
  std::ofstream md(out / "adapter_scale.md");
  md << "| servant demux | object id table | servants | bytes per servant | lookup ns (median) |\n"
        "|---|---|---:|---:|---:|\n";
  for (const auto& r : results) {
    const char* table = r.object_id_table ? "build-time" : "none";
    csv << r.strategy << ',' << table << ',' << r.servants << ',' << r.bytes_per_servant << ','
        << r.lookup_ns_median << '\n';
    char line[200];
    std::snprintf(line, sizeof line, "| %s | %s | %zu | %.0f | %.1f |\n", r.strategy.c_str(), table, r.servants,
                  r.bytes_per_servant, r.lookup_ns_median);
    md << line;
  }
  std::fprintf(stderr, "adapter_scale_bench: results in %s\n", out.c_str());
  return 0;
}
