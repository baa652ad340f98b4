// Servant map by dynamic hashing (figure 30(B)): boost::unordered_flat_map (open addressing,
// SIMD-probed groups holding 7 bits of each hash) with lookup by key_view: no key copy, no
// allocation per lookup.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>

#include <boost/unordered/unordered_flat_map.hpp>

#include "demux/key_hash.h"
#include "demux/memory_bytes.h"

namespace switchyard::demux {

template <class Value>
class dynamic_servant_map {
 public:
  using value_type = Value;

  // As linear_servant_map::insert: the returned view is valid until the next insert or erase.
  std::optional<key_view> insert(key_view key, Value value) {
    if (map_.find(key) != map_.end()) return std::nullopt;
    auto [it, inserted] = map_.emplace(std::string(key), std::move(value));
    return key_view(it->first);
  }

  bool erase(key_view key) {
    auto it = map_.find(key);
    if (it == map_.end()) return false;
    map_.erase(it);
    return true;
  }

  Value* find(key_view key) noexcept {
    auto it = map_.find(key);
    return it == map_.end() ? nullptr : &it->second;
  }
  const Value* find(key_view key) const noexcept {
    auto it = map_.find(key);
    return it == map_.end() ? nullptr : &it->second;
  }

  std::size_t size() const noexcept { return map_.size(); }
  bool empty() const noexcept { return map_.empty(); }
  void clear() noexcept { map_.clear(); }
  void reserve(std::size_t n) { map_.reserve(n); }
  // Slots plus one metadata byte each (boost's groups of 15 + overflow byte), plus long keys.
  std::size_t memory_bytes() const noexcept {
    std::size_t n = map_.bucket_count() * (sizeof(std::pair<std::string, Value>) + 1);
    for (auto& kv : map_) n += string_heap_bytes(kv.first);
    return n;
  }

 private:
  boost::unordered_flat_map<std::string, Value, key_hash, key_equal> map_;
};

}  // namespace switchyard::demux
