// Operation table by linear search (figure 30(A); Orbix's `large_dispatch` in the TTCP paper,
// tables 4-5): names compared in IDL order, length first then memcmp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <vector>

#include "demux/operation_list.h"

namespace switchyard::demux {

template <class Value>
class linear_operation_table {
 public:
  using value_type = Value;

  linear_operation_table() = default;
  explicit linear_operation_table(std::span<const operation<Value>> ops) : entries_(make_operation_entries(ops)) {}
  linear_operation_table(std::initializer_list<operation<Value>> ops)
      : linear_operation_table(std::span<const operation<Value>>(ops.begin(), ops.size())) {}

  const Value* find(key_view name) const noexcept {
    for (const auto& e : entries_) {
      if (same_key(e.name, name)) return &e.value;
    }
    return nullptr;
  }
  // The index is for active demultiplexing; this strategy looks the name up.
  const Value* find(std::uint32_t /*index*/, key_view name) const noexcept { return find(name); }

  std::optional<std::uint32_t> index_of(key_view name) const noexcept {
    for (std::size_t i = 0; i < entries_.size(); ++i) {
      if (same_key(entries_[i].name, name)) return static_cast<std::uint32_t>(i);
    }
    return std::nullopt;
  }
  key_view name_at(std::uint32_t index) const noexcept {
    return index < entries_.size() ? key_view(entries_[index].name) : key_view();
  }
  std::size_t size() const noexcept { return entries_.size(); }

 private:
  std::vector<operation_entry<Value>> entries_;
};

}  // namespace switchyard::demux
