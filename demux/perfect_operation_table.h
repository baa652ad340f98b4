// Operation table by perfect hashing (figure 30(C)). Operation names are always known ahead (the
// IDL says them), so the IDL compiler runs gperf and emits the lookup; give it as the Lookup
// template parameter (no indirect call) or as an index_function at run time. Without either, a
// perfect hash is built over the names at construction (perfect_hash.h). Either way the one
// candidate's name is compared before anything is returned, so a lookup generated from another
// list can never dispatch the wrong operation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <type_traits>
#include <vector>

#include "demux/operation_list.h"
#include "demux/perfect_hash.h"
#include "demux/perfect_servant_map.h"  // generated_lookup

namespace switchyard::demux {

// A generated lookup as a plain function: the name's index in the list, or -1.
using index_function = int (*)(const char* name, std::size_t length) noexcept;

// Lookup = no_generated_lookup: run-time perfect hash, or an index_function given at run time.
struct no_generated_lookup {};

template <class Value, class Lookup = no_generated_lookup>
class perfect_operation_table {
  static constexpr bool generated = !std::is_same_v<Lookup, no_generated_lookup>;
  static_assert(!generated || generated_lookup<Lookup>,
                "Lookup must be what gperf_lookup.py generates (key_count, index_of, key_at)");

 public:
  using value_type = Value;

  perfect_operation_table() = default;
  // `lookup`, when given (and Lookup is not), must be generated from the same list in the same
  // order; a mismatch makes names not found, never found wrong.
  explicit perfect_operation_table(std::span<const operation<Value>> ops, index_function lookup = nullptr)
      : entries_(make_operation_entries(ops)), function_(lookup) {
    if constexpr (!generated) {
      if (function_ == nullptr) {
        std::vector<key_view> names;
        names.reserve(entries_.size());
        for (auto& e : entries_) names.push_back(e.name);
        index_.build(names);  // names are distinct (checked above)
      }
    }
  }
  perfect_operation_table(std::initializer_list<operation<Value>> ops, index_function lookup = nullptr)
      : perfect_operation_table(std::span<const operation<Value>>(ops.begin(), ops.size()), lookup) {}

  const Value* find(key_view name) const noexcept {
    auto i = index_of(name);
    return i ? &entries_[*i].value : nullptr;
  }
  const Value* find(std::uint32_t /*index*/, key_view name) const noexcept { return find(name); }

  std::optional<std::uint32_t> index_of(key_view name) const noexcept {
    std::uint32_t i;
    if constexpr (generated) {
      i = static_cast<std::uint32_t>(Lookup::index_of(name.data(), name.size()));
    } else if (function_ != nullptr) {
      i = static_cast<std::uint32_t>(function_(name.data(), name.size()));
    } else {
      i = index_.find(index_.hash(name));
    }
    // -1 becomes npos: out of range like any bad index.
    if (i >= entries_.size() || !same_key(entries_[i].name, name)) return std::nullopt;
    return i;
  }
  key_view name_at(std::uint32_t index) const noexcept {
    return index < entries_.size() ? key_view(entries_[index].name) : key_view();
  }
  std::size_t size() const noexcept { return entries_.size(); }
  // Which lookup serves: "generated", "function" or "runtime".
  const char* lookup_kind() const noexcept {
    if constexpr (generated) return "generated";
    return function_ != nullptr ? "function" : "runtime";
  }

 private:
  std::vector<operation_entry<Value>> entries_;
  index_function function_ = nullptr;
  perfect_hash_index index_;
};

}  // namespace switchyard::demux
