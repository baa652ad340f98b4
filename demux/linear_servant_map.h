// Servant map by linear search (figure 30(A)): a vector scanned in order, length then memcmp.
// The baseline the other strategies are measured against; cost grows with the number of keys.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "demux/key_hash.h"
#include "demux/memory_bytes.h"

namespace switchyard::demux {

template <class Value>
class linear_servant_map {
 public:
  using value_type = Value;

  // Adds `value` under `key`. Returns the key a request must carry to find it (a view of the map's
  // own copy, valid until the next insert or erase), or nothing when `key` is already present.
  std::optional<key_view> insert(key_view key, Value value) {
    if (find(key) != nullptr) return std::nullopt;
    entries_.push_back(entry{std::string(key), std::move(value)});
    return key_view(entries_.back().key);
  }

  // As insert, for a key the caller knows is absent (an id it has just generated): skips the scan
  // for a duplicate, which makes filling a large linear map quadratic.
  key_view insert_new(key_view key, Value value) {
    entries_.push_back(entry{std::string(key), std::move(value)});
    return key_view(entries_.back().key);
  }

  // Removes `key`; false when absent. The last entry takes the freed place (order is not kept).
  bool erase(key_view key) {
    for (std::size_t i = 0; i < entries_.size(); ++i) {
      if (same_key(entries_[i].key, key)) {
        if (i + 1 != entries_.size()) entries_[i] = std::move(entries_.back());
        entries_.pop_back();
        return true;
      }
    }
    return false;
  }

  Value* find(key_view key) noexcept {
    for (auto& e : entries_) {
      if (same_key(e.key, key)) return &e.value;
    }
    return nullptr;
  }
  const Value* find(key_view key) const noexcept { return const_cast<linear_servant_map*>(this)->find(key); }

  std::size_t size() const noexcept { return entries_.size(); }
  bool empty() const noexcept { return entries_.empty(); }
  void clear() noexcept { entries_.clear(); }
  void reserve(std::size_t n) { entries_.reserve(n); }
  // Heap bytes held, long keys' own buffers included (for the memory-per-servant figures).
  std::size_t memory_bytes() const noexcept {
    std::size_t n = entries_.capacity() * sizeof(entry);
    for (auto& e : entries_) n += string_heap_bytes(e.key);
    return n;
  }

 private:
  struct entry {
    std::string key;
    Value value;
  };
  std::vector<entry> entries_;
};

}  // namespace switchyard::demux
