// Operation table by the perfect-fast hash (fast_perfect_hash.h), generated over the interface's
// names when the table is built (once per interface, when its first servant is activated): one
// multiply over the name's length and two 8-byte windows, one displacement, one slot holding the
// name's first 16 bytes and the value, one compare. gperf (the perfect strategy) reads chosen
// bytes through a table each and then compares twice (its own strcmp, then the table's).
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <vector>

#include "demux/fast_perfect_table.h"
#include "demux/operation_list.h"

namespace switchyard::demux {

template <class Value>
class fast_perfect_operation_table {
 public:
  using value_type = Value;

  fast_perfect_operation_table() = default;
  explicit fast_perfect_operation_table(std::span<const operation<Value>> ops) : entries_(make_operation_entries(ops)) {
    std::vector<key_view> names;
    std::vector<Value> values;
    std::vector<std::uint32_t> indices;
    for (std::size_t i = 0; i < entries_.size(); ++i) {
      names.push_back(entries_[i].name);
      values.push_back(entries_[i].value);
      indices.push_back(static_cast<std::uint32_t>(i));
    }
    table_.assign(names, values, indices);  // names are distinct (checked above)
  }
  fast_perfect_operation_table(std::initializer_list<operation<Value>> ops)
      : fast_perfect_operation_table(std::span<const operation<Value>>(ops.begin(), ops.size())) {}

  const Value* find(key_view name) const noexcept {
    const auto* s = table_.find(name);
    return s == nullptr ? nullptr : &s->value;
  }
  const Value* find(std::uint32_t /*index*/, key_view name) const noexcept { return find(name); }

  std::optional<std::uint32_t> index_of(key_view name) const noexcept {
    const auto* s = table_.find(name);
    if (s == nullptr) return std::nullopt;
    return s->payload;
  }
  key_view name_at(std::uint32_t index) const noexcept {
    return index < entries_.size() ? key_view(entries_[index].name) : key_view();
  }
  std::size_t size() const noexcept { return entries_.size(); }
  const fast_perfect_hash& function() const noexcept { return table_.function(); }

 private:
  std::vector<operation_entry<Value>> entries_;
  fast_perfect_table<Value> table_;
};

}  // namespace switchyard::demux
