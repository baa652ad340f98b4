// Operation table by dynamic hashing (figure 30(B); ORBeline's inline hashing in the TTCP paper,
// table 6): boost::unordered_flat_map looked up by key_view.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <boost/unordered/unordered_flat_map.hpp>

#include "demux/operation_list.h"

namespace switchyard::demux {

template <class Value>
class dynamic_operation_table {
 public:
  using value_type = Value;

  dynamic_operation_table() = default;
  explicit dynamic_operation_table(std::span<const operation<Value>> ops) : entries_(make_operation_entries(ops)) {
    map_.reserve(entries_.size());
    for (std::size_t i = 0; i < entries_.size(); ++i) {
      map_.emplace(entries_[i].name, slot{static_cast<std::uint32_t>(i), entries_[i].value});
    }
  }
  dynamic_operation_table(std::initializer_list<operation<Value>> ops)
      : dynamic_operation_table(std::span<const operation<Value>>(ops.begin(), ops.size())) {}

  const Value* find(key_view name) const noexcept {
    auto it = map_.find(name);
    return it == map_.end() ? nullptr : &it->second.value;
  }
  const Value* find(std::uint32_t /*index*/, key_view name) const noexcept { return find(name); }

  std::optional<std::uint32_t> index_of(key_view name) const noexcept {
    auto it = map_.find(name);
    if (it == map_.end()) return std::nullopt;
    return it->second.index;
  }
  key_view name_at(std::uint32_t index) const noexcept {
    return index < entries_.size() ? key_view(entries_[index].name) : key_view();
  }
  std::size_t size() const noexcept { return entries_.size(); }

 private:
  struct slot {
    std::uint32_t index;
    Value value;  // a copy, so a hit reads one slot
  };
  std::vector<operation_entry<Value>> entries_;
  boost::unordered_flat_map<std::string, slot, key_hash, key_equal> map_;
};

}  // namespace switchyard::demux
