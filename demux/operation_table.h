// Operation tables: operation name -> Value, built once per interface from its operations in IDL
// order, immutable afterwards. Four strategies (each usable directly), a front that picks one at
// run time, and the mapping from SWITCHYARD_OPERATION_DEMUX codes to types. Every table has:
//
//   explicit T(std::span<const operation<Value>> ops);      // duplicates: std::invalid_argument
//   const Value* find(key_view name) const noexcept;          // by name
//   const Value* find(std::uint32_t index, key_view name) const noexcept;
//        // active: by index, checked against the name (no_operation_index: by name);
//        // the others ignore the index
//   std::optional<std::uint32_t> index_of(key_view name) const noexcept;
//   key_view name_at(std::uint32_t index) const noexcept;  size()
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <variant>

#include "demux/active_operation_table.h"
#include "demux/demux_strategy.h"
#include "demux/dynamic_operation_table.h"
#include "demux/linear_operation_table.h"
#include "demux/operation_list.h"
#include "demux/perfect_operation_table.h"

namespace switchyard::demux {

// The strategy chosen at run time (-ORBOperationDemux). `generated` (a gperf lookup the IDL
// compiler emitted for this list) serves the perfect strategy; without it a perfect hash is built.
template <class Value>
class operation_table {
 public:
  using value_type = Value;

  operation_table(demux_strategy strategy, std::span<const operation<Value>> ops,
                  index_function generated = nullptr)
      : tables_(make(strategy, ops, generated)) {}
  operation_table(demux_strategy strategy, std::initializer_list<operation<Value>> ops,
                  index_function generated = nullptr)
      : operation_table(strategy, std::span<const operation<Value>>(ops.begin(), ops.size()),
                        generated) {}

  demux_strategy strategy() const noexcept { return static_cast<demux_strategy>(tables_.index()); }

  const Value* find(key_view name) const noexcept {
    return visit([&](const auto& t) noexcept { return t.find(name); });
  }
  const Value* find(std::uint32_t index, key_view name) const noexcept {
    return visit([&](const auto& t) noexcept { return t.find(index, name); });
  }
  std::optional<std::uint32_t> index_of(key_view name) const noexcept {
    return visit([&](const auto& t) noexcept { return t.index_of(name); });
  }
  key_view name_at(std::uint32_t index) const noexcept {
    return visit([&](const auto& t) noexcept { return t.name_at(index); });
  }
  std::size_t size() const noexcept {
    return visit([](const auto& t) noexcept { return t.size(); });
  }

 private:
  using variant = std::variant<linear_operation_table<Value>, dynamic_operation_table<Value>,
                               perfect_operation_table<Value>, active_operation_table<Value>>;

  static variant make(demux_strategy strategy, std::span<const operation<Value>> ops,
                      index_function generated) {
    switch (strategy) {
      case demux_strategy::linear: return variant(std::in_place_index<0>, ops);
      case demux_strategy::dynamic: return variant(std::in_place_index<1>, ops);
      case demux_strategy::perfect: return variant(std::in_place_index<2>, ops, generated);
      case demux_strategy::active: return variant(std::in_place_index<3>, ops);
    }
    return variant(std::in_place_index<1>, ops);
  }

  template <class F>
  decltype(auto) visit(F&& f) const {
    switch (tables_.index()) {
      case 0: return f(*std::get_if<0>(&tables_));
      case 1: return f(*std::get_if<1>(&tables_));
      case 2: return f(*std::get_if<2>(&tables_));
      default: return f(*std::get_if<3>(&tables_));
    }
  }

  variant tables_;
};

// SWITCHYARD_OPERATION_DEMUX code -> type: 0 the run-time front, 1 linear, 2 dynamic, 3 perfect
// (Lookup: the gperf lookup generated for the interface, or no_generated_lookup), 4 active.
template <int Code, class Value, class Lookup = no_generated_lookup> struct operation_table_selector;
template <class V, class L> struct operation_table_selector<demux_code_runtime, V, L> { using type = operation_table<V>; };
template <class V, class L> struct operation_table_selector<demux_code_linear, V, L> { using type = linear_operation_table<V>; };
template <class V, class L> struct operation_table_selector<demux_code_dynamic, V, L> { using type = dynamic_operation_table<V>; };
template <class V, class L> struct operation_table_selector<demux_code_perfect, V, L> { using type = perfect_operation_table<V, L>; };
template <class V, class L> struct operation_table_selector<demux_code_active, V, L> { using type = active_operation_table<V>; };

template <int Code, class Value, class Lookup = no_generated_lookup>
using operation_table_for = typename operation_table_selector<Code, Value, Lookup>::type;

// Makes the table for Code. The front takes `strategy` and `Lookup::index_of` as its generated
// lookup; a fixed type ignores `strategy`.
template <int Code, class Value, class Lookup = no_generated_lookup>
operation_table_for<Code, Value, Lookup> make_operation_table(demux_strategy strategy,
                                                              std::span<const operation<Value>> ops) {
  if constexpr (Code == demux_code_runtime) {
    if constexpr (std::is_same_v<Lookup, no_generated_lookup>) {
      return operation_table<Value>(strategy, ops);
    } else {
      return operation_table<Value>(strategy, ops, &Lookup::index_of);
    }
  } else {
    (void)strategy;
    return operation_table_for<Code, Value, Lookup>(ops);
  }
}

}  // namespace switchyard::demux
