// Operation table by active demultiplexing (figure 30(D); the TTCP paper's "unique number in
// place of the name", table 5): the client sends the operation's index (its position in IDL
// order, which the IDL compiler emits for stubs). The entry's name is still compared with the
// request's operation name, so a wrong or stale index is detected and nothing is dispatched. A
// request without an index falls back to a name lookup by a run-time perfect hash.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <vector>

#include "demux/operation_list.h"
#include "demux/perfect_hash.h"

namespace switchyard::demux {

template <class Value>
class active_operation_table {
 public:
  using value_type = Value;

  active_operation_table() = default;
  explicit active_operation_table(std::span<const operation<Value>> ops) : entries_(make_operation_entries(ops)) {
    std::vector<key_view> names;
    names.reserve(entries_.size());
    for (auto& e : entries_) names.push_back(e.name);
    index_.build(names);
  }
  active_operation_table(std::initializer_list<operation<Value>> ops)
      : active_operation_table(std::span<const operation<Value>>(ops.begin(), ops.size())) {}

  // No index sent: by name.
  const Value* find(key_view name) const noexcept {
    auto i = index_of(name);
    return i ? &entries_[*i].value : nullptr;
  }
  // By the index the client sent, checked against the name; no_operation_index falls back to the
  // name. A wrong index (out of range, or another operation's) finds nothing.
  const Value* find(std::uint32_t index, key_view name) const noexcept {
    if (index == no_operation_index) return find(name);
    if (index >= entries_.size() || !same_key(entries_[index].name, name)) return nullptr;
    return &entries_[index].value;
  }

  std::optional<std::uint32_t> index_of(key_view name) const noexcept {
    const std::uint32_t i = index_.find(index_.hash(name));
    if (i >= entries_.size() || !same_key(entries_[i].name, name)) return std::nullopt;
    return i;
  }
  key_view name_at(std::uint32_t index) const noexcept {
    return index < entries_.size() ? key_view(entries_[index].name) : key_view();
  }
  std::size_t size() const noexcept { return entries_.size(); }

 private:
  std::vector<operation_entry<Value>> entries_;
  perfect_hash_index index_;
};

}  // namespace switchyard::demux
