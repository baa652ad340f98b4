// Servant maps: object key bytes -> Value, keys added and removed at run time. One type per
// strategy (each usable directly, no indirect call), a front that picks one at run time, and the
// type for a demux_choice (what the meson option servant_demux compiles in). Every map satisfies
// servant_map_interface (demux_interfaces.h); README.md says how the adapter uses them.
#pragma once

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <variant>

#include "demux/active_servant_map.h"
#include "demux/binary_servant_map.h"
#include "demux/demux_interfaces.h"
#include "demux/demux_strategy.h"
#include "demux/dynamic_servant_map.h"
#include "demux/fast_perfect_servant_map.h"
#include "demux/key_hash.h"
#include "demux/linear_servant_map.h"
#include "demux/perfect_servant_map.h"

namespace switchyard::demux {

// Strategy -> its map type. `perfect` is the run-time perfect hash (with an optional build-time
// id list); gperf_servant_map needs its generated lookup as a type, so its users name it.
template <demux_strategy Strategy, class Value>
struct servant_map_strategy;
template <class V>
struct servant_map_strategy<demux_strategy::linear, V> {
  using type = linear_servant_map<V>;
};
template <class V>
struct servant_map_strategy<demux_strategy::binary, V> {
  using type = binary_servant_map<V>;
};
template <class V>
struct servant_map_strategy<demux_strategy::dynamic, V> {
  using type = dynamic_servant_map<V>;
};
template <class V>
struct servant_map_strategy<demux_strategy::perfect, V> {
  using type = perfect_servant_map<V>;
};
template <class V>
struct servant_map_strategy<demux_strategy::perfect_fast, V> {
  using type = fast_perfect_servant_map<V>;
};
template <class V>
struct servant_map_strategy<demux_strategy::active, V> {
  using type = active_servant_map<V>;
};

template <demux_strategy Strategy, class Value>
using servant_map_of = typename servant_map_strategy<Strategy, Value>::type;

// The strategy chosen at run time (-ORBServantDemux): one switch on the strategy per call, then a
// direct (inlined) call into the concrete map. docs/demux.md compares it with a vtable.
template <class Value>
class servant_map {
 public:
  using value_type = Value;

  explicit servant_map(demux_strategy strategy) : strategy_(strategy), maps_(make(strategy)) {}
  // `ids` (a build-time id list) serves the perfect strategy; the others ignore it.
  servant_map(demux_strategy strategy, const id_list& ids)
      : strategy_(strategy),
        maps_(strategy == demux_strategy::perfect
                  ? variant(std::in_place_type<servant_map_of<demux_strategy::perfect, Value>>, ids)
                  : make(strategy)) {}

  demux_strategy strategy() const noexcept { return strategy_; }

  std::optional<key_view> insert(key_view id, Value value) {
    return visit([&](auto& m) { return m.insert(id, std::move(value)); });
  }
  bool erase(key_view key) {
    return visit([&](auto& m) { return m.erase(key); });
  }
  Value* find(key_view key) noexcept {
    return visit([&](auto& m) noexcept -> Value* { return m.find(key); });
  }
  const Value* find(key_view key) const noexcept { return const_cast<servant_map*>(this)->find(key); }
  std::size_t size() const noexcept {
    return const_cast<servant_map*>(this)->visit([](auto& m) noexcept { return m.size(); });
  }
  bool empty() const noexcept { return size() == 0; }
  void clear() noexcept {
    visit([](auto& m) noexcept { m.clear(); });
  }
  std::size_t memory_bytes() const noexcept {
    return const_cast<servant_map*>(this)->visit([](auto& m) noexcept { return m.memory_bytes(); });
  }

 private:
  template <demux_strategy S>
  using map = servant_map_of<S, Value>;
  using variant =
      std::variant<map<demux_strategy::linear>, map<demux_strategy::binary>, map<demux_strategy::dynamic>,
                   map<demux_strategy::perfect>, map<demux_strategy::perfect_fast>, map<demux_strategy::active>>;
  static_assert(std::variant_size_v<variant> == all_demux_strategies.size(), "one alternative per strategy");

  static variant make(demux_strategy strategy) {
    switch (strategy) {
      case demux_strategy::linear:
        return variant(std::in_place_type<map<demux_strategy::linear>>);
      case demux_strategy::binary:
        return variant(std::in_place_type<map<demux_strategy::binary>>);
      case demux_strategy::dynamic:
        return variant(std::in_place_type<map<demux_strategy::dynamic>>);
      case demux_strategy::perfect:
        return variant(std::in_place_type<map<demux_strategy::perfect>>);
      case demux_strategy::perfect_fast:
        return variant(std::in_place_type<map<demux_strategy::perfect_fast>>);
      case demux_strategy::active:
        return variant(std::in_place_type<map<demux_strategy::active>>);
    }
    throw std::invalid_argument("servant_map: not a demux_strategy");
  }

  // The alternative strategy_ names: it always holds (both are set together), so the variant's
  // own index is never read.
  template <demux_strategy S>
  map<S>& get() noexcept {
    auto* m = std::get_if<map<S>>(&maps_);
    if (m == nullptr) __builtin_unreachable();
    return *m;
  }

  // A switch over the strategy rather than std::visit: no valueless check, no exception path,
  // noexcept throughout; a strategy missing here does not compile (-Werror=switch).
  template <class F>
  decltype(auto) visit(F&& f) {
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
    __builtin_unreachable();  // strategy_ is always one of them (set with maps_)
  }

  demux_strategy strategy_;
  variant maps_;
};

// The map type for a compile-time choice: the run-time front, or the one strategy's type.
template <demux_choice Choice, class Value>
using servant_map_for = std::conditional_t<Choice.is_fixed, servant_map_of<Choice.strategy, Value>, servant_map<Value>>;

// Makes the map for Choice: the front takes `strategy` (from -ORBServantDemux); a fixed type
// ignores it.
template <demux_choice Choice, class Value>
servant_map_for<Choice, Value> make_servant_map(demux_strategy strategy) {
  if constexpr (!Choice.is_fixed) {
    return servant_map<Value>(strategy);
  } else {
    (void)strategy;
    return servant_map_for<Choice, Value>();
  }
}

// The same with a build-time id list, which only the perfect strategy uses (a fixed perfect map
// takes it; other fixed types ignore it).
template <demux_choice Choice, class Value>
servant_map_for<Choice, Value> make_servant_map(demux_strategy strategy, const id_list& ids) {
  if constexpr (!Choice.is_fixed) {
    return servant_map<Value>(strategy, ids);
  } else if constexpr (Choice.strategy == demux_strategy::perfect) {
    (void)strategy;
    return perfect_servant_map<Value>(ids);
  } else {
    (void)strategy;
    (void)ids;
    return servant_map_for<Choice, Value>();
  }
}

static_assert(servant_map_interface<servant_map<int>>);
static_assert(servant_map_interface<linear_servant_map<int>>);
static_assert(servant_map_interface<binary_servant_map<int>>);
static_assert(servant_map_interface<dynamic_servant_map<int>>);
static_assert(servant_map_interface<perfect_servant_map<int>>);
static_assert(servant_map_interface<fast_perfect_servant_map<int>>);
static_assert(servant_map_interface<active_servant_map<int>>);

}  // namespace switchyard::demux
