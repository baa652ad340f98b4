// Servant maps: object key bytes -> Value, keys added and removed at run time. Four strategies
// (each usable directly, no indirect call), a front that picks one at run time, and the mapping
// from SWITCHYARD_SERVANT_DEMUX codes to types. Every map has the same members:
//
//   std::optional<key_view> insert(key_view id, Value v);  // the key requests carry, or nothing
//   bool erase(key_view key);
//   Value* find(key_view key) noexcept;                    // nullptr when absent; no allocation
//   size(), empty(), clear(), memory_bytes()
//
// See README.md for how the adapter uses them.
#pragma once

#include <cstddef>
#include <optional>
#include <utility>
#include <variant>

#include "demux/active_servant_map.h"
#include "demux/demux_strategy.h"
#include "demux/dynamic_servant_map.h"
#include "demux/key_hash.h"
#include "demux/linear_servant_map.h"
#include "demux/perfect_servant_map.h"

namespace switchyard::demux {

// The strategy chosen at run time (-ORBServantDemux): one switch on the strategy per call, then a
// direct (inlined) call into the concrete map. docs/demux.md compares it with a vtable.
template <class Value>
class servant_map {
 public:
  using value_type = Value;

  explicit servant_map(demux_strategy strategy) : maps_(make(strategy)) {}
  // `ids` (a build-time id list) serves the perfect strategy; the others ignore it.
  servant_map(demux_strategy strategy, const id_list& ids)
      : maps_(strategy == demux_strategy::perfect ? variant(std::in_place_index<2>, ids)
                                                  : make(strategy)) {}

  demux_strategy strategy() const noexcept { return static_cast<demux_strategy>(maps_.index()); }

  std::optional<key_view> insert(key_view id, Value value) {
    return visit([&](auto& m) { return m.insert(id, std::move(value)); });
  }
  bool erase(key_view key) {
    return visit([&](auto& m) { return m.erase(key); });
  }
  Value* find(key_view key) noexcept {
    return visit([&](auto& m) noexcept -> Value* { return m.find(key); });
  }
  const Value* find(key_view key) const noexcept {
    return const_cast<servant_map*>(this)->find(key);
  }
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
  using variant = std::variant<linear_servant_map<Value>, dynamic_servant_map<Value>,
                               perfect_servant_map<Value>, active_servant_map<Value>>;
  static_assert(static_cast<int>(demux_strategy::linear) == 0 &&
                static_cast<int>(demux_strategy::dynamic) == 1 &&
                static_cast<int>(demux_strategy::perfect) == 2 &&
                static_cast<int>(demux_strategy::active) == 3,
                "the variant's alternatives follow demux_strategy");

  static variant make(demux_strategy strategy) {
    switch (strategy) {
      case demux_strategy::linear: return variant(std::in_place_index<0>);
      case demux_strategy::dynamic: return variant(std::in_place_index<1>);
      case demux_strategy::perfect: return variant(std::in_place_index<2>);
      case demux_strategy::active: return variant(std::in_place_index<3>);
    }
    return variant(std::in_place_index<1>);
  }

  // A switch rather than std::visit: no valueless check, no exception path, noexcept throughout.
  template <class F>
  decltype(auto) visit(F&& f) {
    switch (maps_.index()) {
      case 0: return f(*std::get_if<0>(&maps_));
      case 1: return f(*std::get_if<1>(&maps_));
      case 2: return f(*std::get_if<2>(&maps_));
      default: return f(*std::get_if<3>(&maps_));
    }
  }

  variant maps_;
};

// SWITCHYARD_SERVANT_DEMUX code -> type: 0 the run-time front, 1 linear, 2 dynamic, 3 perfect
// (built at run time; gperf_servant_map needs the id list, so the adapter names it itself),
// 4 active.
template <int Code, class Value> struct servant_map_selector;
template <class Value> struct servant_map_selector<demux_code_runtime, Value> { using type = servant_map<Value>; };
template <class Value> struct servant_map_selector<demux_code_linear, Value> { using type = linear_servant_map<Value>; };
template <class Value> struct servant_map_selector<demux_code_dynamic, Value> { using type = dynamic_servant_map<Value>; };
template <class Value> struct servant_map_selector<demux_code_perfect, Value> { using type = perfect_servant_map<Value>; };
template <class Value> struct servant_map_selector<demux_code_active, Value> { using type = active_servant_map<Value>; };

template <int Code, class Value>
using servant_map_for = typename servant_map_selector<Code, Value>::type;

// Makes the map for Code: the front takes `strategy` (from -ORBServantDemux); a fixed type ignores it.
template <int Code, class Value>
servant_map_for<Code, Value> make_servant_map(demux_strategy strategy) {
  if constexpr (Code == demux_code_runtime) {
    return servant_map<Value>(strategy);
  } else {
    (void)strategy;
    return servant_map_for<Code, Value>();
  }
}

// The same with a build-time id list, which only the perfect strategy uses (a fixed perfect map
// takes it; other fixed types ignore it).
template <int Code, class Value>
servant_map_for<Code, Value> make_servant_map(demux_strategy strategy, const id_list& ids) {
  if constexpr (Code == demux_code_runtime) {
    return servant_map<Value>(strategy, ids);
  } else if constexpr (Code == demux_code_perfect) {
    (void)strategy;
    return perfect_servant_map<Value>(ids);
  } else {
    (void)strategy;
    (void)ids;
    return servant_map_for<Code, Value>();
  }
}

}  // namespace switchyard::demux
