// Servant map by the perfect-fast hash (fast_perfect_hash.h): ids known only at run time, kept in
// a perfect table built from the ids present and grown with them (fast_perfect_table.h). A lookup
// hashes the key's length and two 8-byte windows (one multiply), reads one displacement and one
// slot, and compares the key there; the perfect strategy's run-time hash reads every byte and
// goes through one more array.
#pragma once

#include <cstddef>
#include <optional>
#include <utility>

#include "demux/fast_perfect_table.h"
#include "demux/key_hash.h"

namespace switchyard::demux {

template <class Value>
class fast_perfect_servant_map {
 public:
  using value_type = Value;

  // As linear_servant_map::insert: the returned view is valid until the next insert or erase.
  std::optional<key_view> insert(key_view key, Value value) {
    if (key.size() > table_type::max_key_length || table_.find(key) != nullptr) return std::nullopt;
    return table_.key_of(table_.insert(key, std::move(value), 0));
  }
  bool erase(key_view key) { return table_.erase(key); }

  Value* find(key_view key) noexcept {
    auto* s = table_.find(key);
    return s == nullptr ? nullptr : &s->value;
  }
  const Value* find(key_view key) const noexcept {
    const auto* s = table_.find(key);
    return s == nullptr ? nullptr : &s->value;
  }

  std::size_t size() const noexcept { return table_.size(); }
  bool empty() const noexcept { return table_.size() == 0; }
  void clear() noexcept { table_.clear(); }
  std::size_t memory_bytes() const noexcept { return table_.memory_bytes(); }
  // Whole-table builds so far (tests and benchmarks read it).
  std::size_t rebuild_count() const noexcept { return table_.rebuild_count(); }
  const fast_perfect_hash& function() const noexcept { return table_.function(); }

 private:
  using table_type = fast_perfect_table<Value>;
  table_type table_;
};

}  // namespace switchyard::demux
