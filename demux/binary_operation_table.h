// Operation table by binary search over the names kept sorted: what ZeroC Ice's generated
// dispatch (std::equal_range over the sorted operation names) and tao_idl -H binary_search do.
// O(log n) compares, no hashing, no table to generate; between linear search and hashing. The
// order is sorted_keys.h's (length, then 8 chosen bytes as a number, then the bytes): the table
// takes the first or the last 8 bytes of the names, whichever ties less among them.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <vector>

#include "demux/operation_list.h"
#include "demux/sorted_keys.h"

namespace switchyard::demux {

template <class Value>
class binary_operation_table {
 public:
  using value_type = Value;

  binary_operation_table() = default;
  explicit binary_operation_table(std::span<const operation<Value>> ops) : entries_(make_operation_entries(ops)) {
    sort_by(key_head::first_bytes);
    const std::size_t first_ties = ties();
    if (first_ties > 0) {
      sort_by(key_head::last_bytes);
      if (ties() >= first_ties) sort_by(key_head::first_bytes);
    }
  }
  binary_operation_table(std::initializer_list<operation<Value>> ops)
      : binary_operation_table(std::span<const operation<Value>>(ops.begin(), ops.size())) {}
  // The sorted array points into entries_: copies and moves rebuild it.
  binary_operation_table(const binary_operation_table& other) : entries_(other.entries_) { sort_by(other.head_); }
  binary_operation_table(binary_operation_table&& other) noexcept
      : entries_(std::move(other.entries_)), sorted_(std::move(other.sorted_)), head_(other.head_) {}
  binary_operation_table& operator=(binary_operation_table other) noexcept {
    entries_.swap(other.entries_);
    sorted_.swap(other.sorted_);
    head_ = other.head_;
    return *this;
  }

  const Value* find(key_view name) const noexcept {
    const std::size_t at = find_sorted(sorted_, name, head_);
    return at == not_sorted ? nullptr : &entries_[sorted_[at].entry].value;
  }
  const Value* find(std::uint32_t /*index*/, key_view name) const noexcept { return find(name); }

  std::optional<std::uint32_t> index_of(key_view name) const noexcept {
    const std::size_t at = find_sorted(sorted_, name, head_);
    if (at == not_sorted) return std::nullopt;
    return sorted_[at].entry;
  }
  key_view name_at(std::uint32_t index) const noexcept {
    return index < entries_.size() ? key_view(entries_[index].name) : key_view();
  }
  std::size_t size() const noexcept { return entries_.size(); }
  // Which 8 bytes the sorted array holds (tests read it).
  key_head head() const noexcept { return head_; }

 private:
  void sort_by(key_head which) {
    head_ = which;
    sorted_.clear();
    sorted_.reserve(entries_.size());
    for (std::size_t i = 0; i < entries_.size(); ++i) {
      const auto& name = entries_[i].name;
      sorted_.push_back(sorted_key{key_head_of(name, which), static_cast<std::uint32_t>(name.size()),
                                   static_cast<std::uint32_t>(i), name.data()});
    }
    std::sort(sorted_.begin(), sorted_.end(), sorted_before);
  }
  // Neighbours whose length and head tie (a search step then reads the names).
  std::size_t ties() const noexcept {
    std::size_t n = 0;
    for (std::size_t i = 1; i < sorted_.size(); ++i)
      n += sorted_[i].length == sorted_[i - 1].length && sorted_[i].head == sorted_[i - 1].head;
    return n;
  }

  std::vector<operation_entry<Value>> entries_;
  std::vector<sorted_key> sorted_;
  key_head head_ = key_head::first_bytes;
};

}  // namespace switchyard::demux
