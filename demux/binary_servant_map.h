// Servant map by binary search over the keys kept sorted (sorted_keys.h; the heads are the keys'
// last 8 bytes, where object ids sharing a prefix differ). A lookup is O(log n) compares with no
// hashing; an insert or erase moves O(n) entries of the sorted array, so this map suits servants
// activated up front rather than churned.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "demux/key_hash.h"
#include "demux/memory_bytes.h"
#include "demux/sorted_keys.h"

namespace switchyard::demux {

template <class Value>
class binary_servant_map {
 public:
  using value_type = Value;

  binary_servant_map() = default;
  // The sorted array points into entries_: copies rebuild it.
  binary_servant_map(const binary_servant_map& other) : entries_(other.entries_), sorted_(other.sorted_) {
    refresh_bytes();
  }
  binary_servant_map(binary_servant_map&& other) noexcept = default;
  binary_servant_map& operator=(binary_servant_map other) noexcept {
    entries_.swap(other.entries_);
    sorted_.swap(other.sorted_);
    return *this;
  }

  // As linear_servant_map::insert: the returned view is valid until the next insert or erase.
  std::optional<key_view> insert(key_view key, Value value) {
    if (key.size() > std::numeric_limits<std::uint32_t>::max()) return std::nullopt;
    const std::size_t at = sorted_insert_position(sorted_, key, head);
    if (at < sorted_.size() && compare_sorted(sorted_[at], key_head_of(key, head), key) == 0) return std::nullopt;
    const std::size_t capacity = entries_.capacity();
    entries_.push_back(entry{std::string(key), std::move(value)});
    const auto number = static_cast<std::uint32_t>(entries_.size() - 1);
    sorted_.insert(
        sorted_.begin() + static_cast<std::ptrdiff_t>(at),
        sorted_key{key_head_of(key, head), static_cast<std::uint32_t>(key.size()), number, entries_.back().key.data()});
    // Grown: the entries moved (and short keys live inside their std::string).
    if (entries_.capacity() != capacity) refresh_bytes();
    return key_view(entries_.back().key);
  }

  // The last entry takes the erased one's place in entries_ (the sorted array is renumbered).
  bool erase(key_view key) {
    const std::size_t at = find_sorted(sorted_, key, head);
    if (at == not_sorted) return false;
    const std::uint32_t number = sorted_[at].entry;
    sorted_.erase(sorted_.begin() + static_cast<std::ptrdiff_t>(at));
    const auto last = static_cast<std::uint32_t>(entries_.size() - 1);
    if (number != last) {
      entries_[number] = std::move(entries_.back());
      for (auto& s : sorted_) {
        if (s.entry == last) {
          s.entry = number;
          s.bytes = entries_[number].key.data();
        }
      }
    }
    entries_.pop_back();
    return true;
  }

  Value* find(key_view key) noexcept {
    const std::size_t at = find_sorted(sorted_, key, head);
    return at == not_sorted ? nullptr : &entries_[sorted_[at].entry].value;
  }
  const Value* find(key_view key) const noexcept { return const_cast<binary_servant_map*>(this)->find(key); }

  std::size_t size() const noexcept { return entries_.size(); }
  bool empty() const noexcept { return entries_.empty(); }
  void clear() noexcept {
    entries_.clear();
    sorted_.clear();
  }
  void reserve(std::size_t n) {
    entries_.reserve(n);
    sorted_.reserve(n);
    refresh_bytes();
  }
  std::size_t memory_bytes() const noexcept {
    std::size_t n = entries_.capacity() * sizeof(entry) + sorted_.capacity() * sizeof(sorted_key);
    for (auto& e : entries_) n += string_heap_bytes(e.key);
    return n;
  }

 private:
  static constexpr key_head head = key_head::last_bytes;
  struct entry {
    std::string key;
    Value value;
  };
  void refresh_bytes() noexcept {
    for (auto& s : sorted_) s.bytes = entries_[s.entry].key.data();
  }

  std::vector<entry> entries_;      // in insertion order (erase moves the last one)
  std::vector<sorted_key> sorted_;  // by sorted_before, pointing into entries_
};

}  // namespace switchyard::demux
