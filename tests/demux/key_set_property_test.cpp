// Property tests over random key sets of 1, 10, 100, 500 and 1000 keys of several shapes (names,
// binary keys with every byte value, fixed-length ids, long keys that differ in one byte, keys
// that differ only in length), for every strategy of both lookups: every key is found, found only
// by itself (its own value), and keys outside the set are refused: prefixes, extensions, one
// byte changed anywhere (for the perfect-fast hash also a byte its windows do not read), the
// empty key, a very long key. gperf's 8-bit truncation (docs/demux.md) hid in exactly such keys.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <unordered_set>
#include <vector>

#include "demux/fast_perfect_hash.h"
#include "demux/operation_table.h"
#include "demux/servant_map.h"

using namespace switchyard::demux;

namespace {

enum class shape { names, binary, fixed_ids, long_one_byte, lengths_only };

const char* shape_name(shape s) {
  switch (s) {
    case shape::names:
      return "names";
    case shape::binary:
      return "binary";
    case shape::fixed_ids:
      return "fixed_ids";
    case shape::long_one_byte:
      return "long_one_byte";
    case shape::lengths_only:
      return "lengths_only";
  }
  return "?";
}

// `count` distinct keys of one shape; never the empty key (operation names cannot be empty;
// the empty key is probed as an unknown one).
std::vector<std::string> make_keys(shape kind, std::size_t count, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::unordered_set<std::string> seen;
  std::vector<std::string> keys;
  auto byte = [&] { return static_cast<char>(rng() & 0xff); };
  std::string long_base(60, '\0');
  for (auto& c : long_base) c = byte();
  // Bounded: every shape has far more keys than 1000 to draw from.
  for (int tries = 0; keys.size() < count && tries < 1'000'000; ++tries) {
    std::string k;
    switch (kind) {
      case shape::names: {
        static constexpr char first[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_";
        static constexpr char rest[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789";
        k += first[rng() % (sizeof first - 1)];
        for (std::size_t n = rng() % 31; n > 0; --n) k += rest[rng() % (sizeof rest - 1)];
        break;
      }
      case shape::binary:
        for (std::size_t n = 1 + rng() % 40; n > 0; --n) k += byte();
        break;
      case shape::fixed_ids:
        k = "RootPOA/";
        for (int i = 0; i < 4; ++i) k += byte();
        break;
      case shape::long_one_byte:
        // One byte of a shared 60-byte key changed, at any position: no two 8-byte windows read
        // every position, so the generator must move its windows or hash every byte.
        k = long_base;
        k[rng() % k.size()] = byte();
        break;
      case shape::lengths_only:
        k.assign(1 + keys.size(), 'a');
        break;
    }
    if (seen.insert(k).second) keys.push_back(std::move(k));
  }
  REQUIRE(keys.size() == count);
  return keys;
}

// Keys outside the set: for each of the first keys, its prefixes and extensions and every one-byte
// change, and the empty and a very long key.
std::vector<std::string> unknown_keys(const std::vector<std::string>& keys) {
  std::unordered_set<std::string> in_set(keys.begin(), keys.end());
  std::vector<std::string> out{std::string(), std::string(5000, 'a'), std::string(4096, '\0')};
  const std::size_t probed = std::min<std::size_t>(keys.size(), 100);
  for (std::size_t i = 0; i < probed; ++i) {
    const std::string& k = keys[i];
    out.push_back(k.substr(0, k.size() - 1));
    out.push_back(k + '\0');
    out.push_back(k + 'x');
    out.push_back(std::string(k) + std::string(4096, k.back()));
    for (std::size_t at = 0; at < k.size(); ++at) {
      for (unsigned char flip : {0x01, 0x80, 0xff}) {
        std::string v = k;
        v[at] = static_cast<char>(static_cast<unsigned char>(v[at]) ^ flip);
        out.push_back(std::move(v));
      }
    }
  }
  std::erase_if(out, [&](const std::string& v) { return in_set.count(v) != 0; });
  return out;
}

struct key_set {
  shape kind;
  std::size_t size;
  std::vector<std::string> keys;
  std::vector<std::string> unknown;
};

const std::vector<key_set>& key_sets() {
  static const std::vector<key_set> sets = [] {
    std::vector<key_set> out;
    std::uint32_t seed = 14;
    for (shape kind : {shape::names, shape::binary, shape::fixed_ids, shape::long_one_byte, shape::lengths_only}) {
      for (std::size_t n : {1, 10, 100, 500, 1000}) {
        auto keys = make_keys(kind, n, seed++);
        auto unknown = unknown_keys(keys);
        out.push_back({kind, n, std::move(keys), std::move(unknown)});
      }
    }
    return out;
  }();
  return sets;
}

}  // namespace

TEST_CASE("operation tables of every strategy over random key sets", "[demux][property]") {
  for (const auto& set : key_sets()) {
    std::vector<operation<int>> ops;
    for (std::size_t i = 0; i < set.keys.size(); ++i) ops.push_back({set.keys[i], static_cast<int>(i)});
    for (auto strategy : all_demux_strategies) {
      INFO(shape_name(set.kind) << ", " << set.size << " keys, " << to_string(strategy));
      operation_table<int> table(strategy, ops);
      std::size_t wrong = 0;
      for (std::size_t i = 0; i < set.keys.size(); ++i) {
        const int* v = table.find(set.keys[i]);
        wrong += v == nullptr || *v != static_cast<int>(i) || table.index_of(set.keys[i]) != i;
      }
      REQUIRE(wrong == 0);
      std::size_t found = 0;
      for (const auto& u : set.unknown) found += table.find(u) != nullptr;
      REQUIRE(found == 0);
    }
  }
}

TEST_CASE("servant maps of every strategy over random key sets", "[demux][property]") {
  for (const auto& set : key_sets()) {
    for (auto strategy : all_demux_strategies) {
      INFO(shape_name(set.kind) << ", " << set.size << " keys, " << to_string(strategy));
      servant_map<int> map(strategy);
      std::vector<std::string> carried;  // the keys requests carry (active chooses its own)
      for (std::size_t i = 0; i < set.keys.size(); ++i) {
        auto key = map.insert(set.keys[i], static_cast<int>(i));
        REQUIRE(key.has_value());
        carried.emplace_back(*key);
      }
      std::size_t wrong = 0;
      for (std::size_t i = 0; i < carried.size(); ++i) {
        const int* v = map.find(carried[i]);
        wrong += v == nullptr || *v != static_cast<int>(i);
      }
      REQUIRE(wrong == 0);
      std::size_t found = 0;
      for (const auto& u : set.unknown) found += map.find(u) != nullptr && strategy != demux_strategy::active;
      REQUIRE(found == 0);
      // Half erased: those are refused, the others still found.
      for (std::size_t i = 0; i < carried.size(); i += 2) REQUIRE(map.erase(carried[i]));
      for (std::size_t i = 0; i < carried.size(); ++i) {
        const int* v = map.find(carried[i]);
        if (i % 2 == 0) {
          REQUIRE(v == nullptr);
        } else {
          REQUIRE((v != nullptr && *v == static_cast<int>(i)));
        }
      }
    }
  }
}

TEST_CASE("perfect-fast hash: one slot per key, windows that separate, and bytes it does not read",
          "[demux][property]") {
  for (const auto& set : key_sets()) {
    INFO(shape_name(set.kind) << ", " << set.size << " keys");
    std::vector<key_view> views(set.keys.begin(), set.keys.end());
    const fast_perfect_layout layout = build_fast_perfect_hash(views);
    const fast_perfect_hash& f = layout.function;
    REQUIRE(windows_separate(views, f.hash));
    REQUIRE(f.displacements.size() == f.bucket_count());
    REQUIRE(f.slot_count() >= set.keys.size());
    REQUIRE((f.slot_count() & f.slot_mask) == 0);  // a power of two
    std::vector<std::uint32_t> slots = layout.slot_of_key;
    for (std::size_t i = 0; i < views.size(); ++i) REQUIRE(f.slot_of(views[i]) == slots[i]);
    std::sort(slots.begin(), slots.end());
    REQUIRE(std::adjacent_find(slots.begin(), slots.end()) == slots.end());
    if (set.kind == shape::long_one_byte && set.size >= 100) {
      // 60-byte keys differing in one byte anywhere: two windows cannot read them all.
      REQUIRE(f.hash.whole_key);
    }
    if (set.kind == shape::lengths_only && set.size == 1000) REQUIRE_FALSE(f.hash.whole_key);

    // A byte outside both windows changes nothing the hash reads: the variant lands in the same
    // slot, and only the whole-key compare refuses it.
    if (!f.hash.whole_key) {
      fast_perfect_table<int> table;
      std::vector<int> values(views.size());
      std::vector<std::uint32_t> payloads(views.size());
      for (std::size_t i = 0; i < views.size(); ++i) payloads[i] = static_cast<std::uint32_t>(i);
      table.assign(views, values, payloads);
      std::unordered_set<std::string> in_set(set.keys.begin(), set.keys.end());
      std::size_t unread_bytes_probed = 0;
      for (const auto& k : set.keys) {
        const std::size_t n = k.size();
        if (n <= 16) continue;
        const std::size_t a = std::min<std::size_t>(f.hash.front, n - 8);
        const std::size_t b = n - 8 - std::min<std::size_t>(f.hash.back, n - 8);
        for (std::size_t at = 0; at < n; ++at) {
          if ((at >= a && at < a + 8) || (at >= b && at < b + 8)) continue;
          std::string v = k;
          v[at] = static_cast<char>(v[at] ^ 0x5a);
          if (in_set.count(v)) continue;
          REQUIRE(f.hash(v) == f.hash(k));
          REQUIRE(table.find(v) == nullptr);
          ++unread_bytes_probed;
        }
      }
      if (set.kind == shape::lengths_only && set.size >= 100) REQUIRE(unread_bytes_probed > 0);
    }
  }
}

TEST_CASE("perfect-fast hash: every byte value at every window position", "[demux][property]") {
  // 256 keys x 3 lengths: byte b at the front, in the middle, at the back, with b's complement
  // around it, so that every window sees every byte value (gperf 3.1 lost keys with bytes of
  // 256 - increment and more).
  std::vector<std::string> keys;
  for (std::size_t length : {3u, 12u, 40u}) {
    for (int b = 0; b < 256; ++b) {
      std::string k(length, static_cast<char>(255 - b));
      k.front() = static_cast<char>(b);
      k[length / 2] = static_cast<char>(b);
      k.back() = static_cast<char>(b);
      keys.push_back(std::move(k));
    }
  }
  std::vector<key_view> views(keys.begin(), keys.end());
  fast_perfect_table<int> table;
  std::vector<int> values(keys.size());
  std::vector<std::uint32_t> payloads(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) {
    values[i] = static_cast<int>(i);
    payloads[i] = static_cast<std::uint32_t>(i);
  }
  table.assign(views, values, payloads);
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const auto* s = table.find(keys[i]);
    REQUIRE(s != nullptr);
    REQUIRE(s->value == static_cast<int>(i));
    REQUIRE(table.key_of(*s) == keys[i]);
  }
  REQUIRE(table.find(std::string(12, '\x80')) == nullptr);
}

TEST_CASE("perfect-fast hash: duplicates refused, empty and single sets served", "[demux][errors]") {
  std::vector<key_view> twice{"a", "b", "a"};
  REQUIRE_THROWS_AS(build_fast_perfect_hash(twice), std::invalid_argument);
  fast_perfect_table<int> empty;
  REQUIRE(empty.find("") == nullptr);
  REQUIRE(empty.find("x") == nullptr);
  std::vector<key_view> none;
  std::vector<int> no_values;
  std::vector<std::uint32_t> no_payloads;
  empty.assign(none, no_values, no_payloads);
  REQUIRE(empty.size() == 0);
  REQUIRE(empty.find("") == nullptr);
  // The empty key is a key like any other.
  std::vector<key_view> just_empty{""};
  std::vector<int> one{7};
  std::vector<std::uint32_t> zero{0};
  fast_perfect_table<int> single;
  single.assign(just_empty, one, zero);
  REQUIRE(single.find("")->value == 7);
  REQUIRE(single.find(std::string(1, '\0')) == nullptr);
}

TEST_CASE("perfect-fast servant map: grows and shrinks one key at a time, always perfect", "[demux]") {
  fast_perfect_servant_map<int> m;
  std::vector<std::string> keys;
  for (int i = 0; i < 5000; ++i)
    keys.push_back("servant-" + std::to_string(i * 7919) + (i % 3 ? "" : "-with-a-long-tail"));
  for (int i = 0; i < 5000; ++i) REQUIRE(m.insert(keys[i], i));
  // Doubling growth: a dozen or so whole-table builds for 5000 inserts, not thousands.
  CHECK(m.rebuild_count() < 40);
  for (int i = 0; i < 5000; ++i) REQUIRE(*m.find(keys[i]) == i);
  for (int i = 0; i < 5000; ++i)
    if (i % 10) REQUIRE(m.erase(keys[i]));
  REQUIRE(m.size() == 500);
  for (int i = 0; i < 5000; ++i) {
    if (i % 10) {
      REQUIRE(m.find(keys[i]) == nullptr);
    } else {
      REQUIRE(*m.find(keys[i]) == i);
    }
  }
  REQUIRE_FALSE(m.insert(keys[0], 1).has_value());  // present already
}

TEST_CASE("binary operation table: sorted by the bytes where the names differ", "[demux]") {
  // Names that share their first 8 bytes sort by their last 8.
  std::vector<std::string> names;
  for (int i = 0; i < 50; ++i) names.push_back("sendStructSequence_" + std::to_string(1000 + i));
  std::vector<operation<int>> ops;
  for (std::size_t i = 0; i < names.size(); ++i) ops.push_back({names[i], static_cast<int>(i)});
  binary_operation_table<int> by_last(ops);
  REQUIRE(by_last.head() == key_head::last_bytes);
  std::vector<operation<int>> distinct_starts{{"alpha", 0}, {"bravo", 1}, {"charlie", 2}, {"delta_9", 3}};
  REQUIRE(binary_operation_table<int>(distinct_starts).head() == key_head::first_bytes);
  for (std::size_t i = 0; i < names.size(); ++i) REQUIRE(*by_last.find(names[i]) == static_cast<int>(i));
  // A copy searches its own names.
  binary_operation_table<int> copy = by_last;
  by_last = binary_operation_table<int>(distinct_starts);
  for (std::size_t i = 0; i < names.size(); ++i) REQUIRE(*copy.find(names[i]) == static_cast<int>(i));
  REQUIRE(copy.find("alpha") == nullptr);
  REQUIRE(*by_last.find("charlie") == 2);
}
