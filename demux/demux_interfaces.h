// The two interfaces every demultiplexing strategy implements, as concepts: a servant map (object
// key -> value, keys added and removed at run time) and an operation table (operation name ->
// value, built once from the interface's operations in IDL order). Each strategy's type and each
// run-time front satisfies one of them (static_asserts in servant_map.h and operation_table.h),
// and the adapter compiles against whatever type the concept admits.
//
// The idiom, after asio's basic_socket<Protocol, Executor = any_io_executor>: a strategy is a
// template argument with a type-erased default. Code that needs speed names the concrete type
// (servant_map_for<demux_choice::fixed(s), V>, what -Dservant_demux=... compiles in); everyone
// else takes the default, the run-time front (servant_map<V>: a std::variant of every strategy
// and one switch per call). The two are interchangeable because both satisfy the concept.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <utility>

#include "demux/key_hash.h"
#include "demux/operation_list.h"

namespace switchyard::demux {

template <class M>
concept servant_map_interface = std::movable<M> &&
    requires(M map, const M& const_map, key_view key, typename M::value_type value) {
  // The key a request must carry to find `value` (the map's own copy, or for active
  // demultiplexing a key it chose), or nothing when refused (present already).
  { map.insert(key, std::move(value)) } -> std::same_as<std::optional<key_view>>;
  { map.erase(key) } -> std::same_as<bool>;
  // nullptr when absent; never allocates, never throws.
  { map.find(key) }
  noexcept->std::same_as<typename M::value_type*>;
  { const_map.find(key) }
  noexcept->std::same_as<const typename M::value_type*>;
  { const_map.size() }
  noexcept->std::same_as<std::size_t>;
  { const_map.empty() }
  noexcept->std::same_as<bool>;
  { map.clear() }
  noexcept;
  { const_map.memory_bytes() }
  noexcept->std::same_as<std::size_t>;
};

// (Construction is the strategy's own: a concrete table from the operations, the front from a
// strategy and the operations.)
template <class T>
concept operation_table_interface = std::movable<T> && requires(const T& table, key_view name, std::uint32_t index) {
  { table.find(name) }
  noexcept->std::same_as<const typename T::value_type*>;
  // By the index the client sent (active demultiplexing checks it against the name; the
  // others look the name up), no_operation_index when it sent none.
  { table.find(index, name) }
  noexcept->std::same_as<const typename T::value_type*>;
  { table.index_of(name) }
  noexcept->std::same_as<std::optional<std::uint32_t>>;
  { table.name_at(index) }
  noexcept->std::same_as<key_view>;
  { table.size() }
  noexcept->std::same_as<std::size_t>;
};

}  // namespace switchyard::demux
