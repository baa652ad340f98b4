// The perfect-fast hash written as C++ at build time (syidl --object-ids, demux/fast_lookup_source.h)
// over the test lists and the benchmark's 1000 binary ids: every key at its position, found only
// by itself, unknown keys refused; and the generated struct serves where gperf's does (as a
// perfect_operation_table's Lookup, as a perfect_servant_map's id list).
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <unordered_set>
#include <vector>

#include "demux/operation_table.h"
#include "demux/servant_map.h"
#include "operations.h"        // syidl --object-ids operations.txt: operations, operations_fast
#include "servant_ids.h"       // servant_ids, servant_ids_fast
#include "servant_ids_1000.h"  // the benchmark's binary ids

using namespace switchyard::demux;

namespace {

// Every key at its position; prefixes, extensions, one-byte changes and strangers refused.
template <class Lookup>
void check_lookup() {
  std::unordered_set<std::string> keys;
  for (std::size_t i = 0; i < Lookup::key_count; ++i) keys.emplace(Lookup::key_at(i));
  REQUIRE(keys.size() == Lookup::key_count);
  std::size_t wrong = 0, accepted = 0;
  auto refuse = [&](const std::string& v) {
    if (keys.count(v) == 0) accepted += Lookup::index_of(v.data(), v.size()) != -1;
  };
  for (std::size_t i = 0; i < Lookup::key_count; ++i) {
    const std::string k(Lookup::key_at(i));
    wrong += Lookup::index_of(k.data(), k.size()) != static_cast<int>(i);
    if (!k.empty()) refuse(k.substr(0, k.size() - 1));
    refuse(k + '\0');
    refuse(k + "\xff");
    refuse(k + std::string(5000, 'q'));
    for (std::size_t at = 0; at < k.size(); ++at) {
      for (unsigned char flip : {0x01, 0x80}) {
        std::string v = k;
        v[at] = static_cast<char>(static_cast<unsigned char>(v[at]) ^ flip);
        refuse(v);
      }
    }
  }
  refuse(std::string());
  refuse(std::string(100, '\0'));
  REQUIRE(wrong == 0);
  REQUIRE(accepted == 0);
  REQUIRE(Lookup::key_at(Lookup::key_count).empty());
}

}  // namespace

TEST_CASE("generated perfect-fast lookups find every key at its position, and nothing else", "[demux]") {
  check_lookup<switchyard::test_ids::servant_ids_fast>();
  check_lookup<switchyard::test_ids::operations_fast>();
  check_lookup<switchyard::test_ids::servant_ids_1000_fast>();
  // The gperf lookups of the same lists, by the same measure.
  check_lookup<switchyard::test_ids::servant_ids>();
  check_lookup<switchyard::test_ids::operations>();
  check_lookup<switchyard::test_ids::servant_ids_1000>();
}

TEST_CASE("a generated perfect-fast lookup serves operation tables and servant maps", "[demux]") {
  using fast_ops = switchyard::test_ids::operations_fast;
  std::vector<operation<int>> ops;
  for (std::size_t i = 0; i < fast_ops::key_count; ++i) ops.push_back({fast_ops::key_at(i), static_cast<int>(100 + i)});
  perfect_operation_table<int, fast_ops> generated(ops);
  operation_table<int> by_function(demux_strategy::perfect, ops, &fast_ops::index_of);
  for (std::size_t i = 0; i < fast_ops::key_count; ++i) {
    REQUIRE(*generated.find(fast_ops::key_at(i)) == static_cast<int>(100 + i));
    REQUIRE(*by_function.find(fast_ops::key_at(i)) == static_cast<int>(100 + i));
  }
  REQUIRE(generated.find("shutdow") == nullptr);

  using fast_ids = switchyard::test_ids::servant_ids_1000_fast;
  perfect_servant_map<int> map(id_list{fast_ids::key_count, &fast_ids::index_of, &fast_ids::key_at});
  for (std::size_t i = 0; i < fast_ids::key_count; ++i) REQUIRE(map.insert(fast_ids::key_at(i), static_cast<int>(i)));
  REQUIRE(map.runtime_size() == 0);
  REQUIRE(map.listed_size() == fast_ids::key_count);
  for (std::size_t i = 0; i < fast_ids::key_count; ++i) REQUIRE(*map.find(fast_ids::key_at(i)) == static_cast<int>(i));
  gperf_servant_map<fast_ids, int> slots_only;
  for (std::size_t i = 0; i < fast_ids::key_count; i += 3) REQUIRE(slots_only.insert(fast_ids::key_at(i), 1));
  REQUIRE_FALSE(slots_only.insert("RootPOA/not-listed", 1).has_value());
}
