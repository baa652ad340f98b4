// Operation tables: operation name -> Value, built once per interface from its operations in IDL
// order, immutable afterwards. One type per strategy (each usable directly), a front that picks
// one at run time, and the type for a demux_choice (what the meson option operation_demux
// compiles in). Every table satisfies operation_table_interface (demux_interfaces.h):
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
#include <stdexcept>
#include <type_traits>
#include <variant>

#include "demux/active_operation_table.h"
#include "demux/binary_operation_table.h"
#include "demux/demux_interfaces.h"
#include "demux/demux_strategy.h"
#include "demux/dynamic_operation_table.h"
#include "demux/fast_perfect_operation_table.h"
#include "demux/linear_operation_table.h"
#include "demux/operation_list.h"
#include "demux/perfect_operation_table.h"

namespace switchyard::demux {

// Strategy -> its table type. `perfect` takes the gperf lookup generated for the interface as
// Lookup (no_generated_lookup: the lookup given at run time as a function, or a run-time hash).
template <demux_strategy Strategy, class Value, class Lookup>
struct operation_table_strategy;
template <class V, class L>
struct operation_table_strategy<demux_strategy::linear, V, L> {
  using type = linear_operation_table<V>;
};
template <class V, class L>
struct operation_table_strategy<demux_strategy::binary, V, L> {
  using type = binary_operation_table<V>;
};
template <class V, class L>
struct operation_table_strategy<demux_strategy::dynamic, V, L> {
  using type = dynamic_operation_table<V>;
};
template <class V, class L>
struct operation_table_strategy<demux_strategy::perfect, V, L> {
  using type = perfect_operation_table<V, L>;
};
template <class V, class L>
struct operation_table_strategy<demux_strategy::perfect_fast, V, L> {
  using type = fast_perfect_operation_table<V>;
};
template <class V, class L>
struct operation_table_strategy<demux_strategy::active, V, L> {
  using type = active_operation_table<V>;
};

template <demux_strategy Strategy, class Value, class Lookup = no_generated_lookup>
using operation_table_of = typename operation_table_strategy<Strategy, Value, Lookup>::type;

// The strategy chosen at run time (-ORBOperationDemux). `generated` (a gperf lookup the IDL
// compiler emitted for this list) serves the perfect strategy; without it a perfect hash is built.
template <class Value>
class operation_table {
 public:
  using value_type = Value;

  operation_table(demux_strategy strategy, std::span<const operation<Value>> ops, index_function generated = nullptr)
      : strategy_(strategy), tables_(make(strategy, ops, generated)) {}
  operation_table(demux_strategy strategy, std::initializer_list<operation<Value>> ops,
                  index_function generated = nullptr)
      : operation_table(strategy, std::span<const operation<Value>>(ops.begin(), ops.size()), generated) {}

  demux_strategy strategy() const noexcept { return strategy_; }

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
  template <demux_strategy S>
  using table = operation_table_of<S, Value>;
  using variant =
      std::variant<table<demux_strategy::linear>, table<demux_strategy::binary>, table<demux_strategy::dynamic>,
                   table<demux_strategy::perfect>, table<demux_strategy::perfect_fast>, table<demux_strategy::active>>;
  static_assert(std::variant_size_v<variant> == all_demux_strategies.size(), "one alternative per strategy");

  static variant make(demux_strategy strategy, std::span<const operation<Value>> ops, index_function generated) {
    switch (strategy) {
      case demux_strategy::linear:
        return variant(std::in_place_type<table<demux_strategy::linear>>, ops);
      case demux_strategy::binary:
        return variant(std::in_place_type<table<demux_strategy::binary>>, ops);
      case demux_strategy::dynamic:
        return variant(std::in_place_type<table<demux_strategy::dynamic>>, ops);
      case demux_strategy::perfect:
        return variant(std::in_place_type<table<demux_strategy::perfect>>, ops, generated);
      case demux_strategy::perfect_fast:
        return variant(std::in_place_type<table<demux_strategy::perfect_fast>>, ops);
      case demux_strategy::active:
        return variant(std::in_place_type<table<demux_strategy::active>>, ops);
    }
    throw std::invalid_argument("operation_table: not a demux_strategy");
  }

  // The alternative strategy_ names: it always holds (both are set together), so the variant's
  // own index is never read.
  template <demux_strategy S>
  const table<S>& get() const noexcept {
    auto* t = std::get_if<table<S>>(&tables_);
    if (t == nullptr) __builtin_unreachable();
    return *t;
  }

  // As servant_map::visit: a switch, so that a strategy missing here does not compile.
  template <class F>
  decltype(auto) visit(F&& f) const {
    switch (strategy_) {
      case demux_strategy::linear:
        return f(get<demux_strategy::linear>());
      case demux_strategy::binary:
        return f(get<demux_strategy::binary>());
      case demux_strategy::dynamic:
        return f(get<demux_strategy::dynamic>());
      case demux_strategy::perfect:
        return f(get<demux_strategy::perfect>());
      case demux_strategy::perfect_fast:
        return f(get<demux_strategy::perfect_fast>());
      case demux_strategy::active:
        return f(get<demux_strategy::active>());
    }
    __builtin_unreachable();  // strategy_ is always one of them (set with tables_)
  }

  demux_strategy strategy_;
  variant tables_;
};

// The table type for a compile-time choice: the run-time front, or the one strategy's type
// (Lookup: the gperf lookup generated for the interface, used by `perfect`).
template <demux_choice Choice, class Value, class Lookup = no_generated_lookup>
using operation_table_for =
    std::conditional_t<Choice.is_fixed, operation_table_of<Choice.strategy, Value, Lookup>, operation_table<Value>>;

// Makes the table for Choice. The front takes `strategy` and `Lookup::index_of` as its generated
// lookup; a fixed type ignores `strategy`.
template <demux_choice Choice, class Value, class Lookup = no_generated_lookup>
operation_table_for<Choice, Value, Lookup> make_operation_table(demux_strategy strategy,
                                                                std::span<const operation<Value>> ops) {
  if constexpr (!Choice.is_fixed) {
    if constexpr (std::is_same_v<Lookup, no_generated_lookup>) {
      return operation_table<Value>(strategy, ops);
    } else {
      return operation_table<Value>(strategy, ops, &Lookup::index_of);
    }
  } else {
    (void)strategy;
    return operation_table_for<Choice, Value, Lookup>(ops);
  }
}

static_assert(operation_table_interface<operation_table<int>>);
static_assert(operation_table_interface<linear_operation_table<int>>);
static_assert(operation_table_interface<binary_operation_table<int>>);
static_assert(operation_table_interface<dynamic_operation_table<int>>);
static_assert(operation_table_interface<perfect_operation_table<int>>);
static_assert(operation_table_interface<fast_perfect_operation_table<int>>);
static_assert(operation_table_interface<active_operation_table<int>>);

}  // namespace switchyard::demux
