// What every operation table is built from: the interface's operations in IDL order (the index of
// an operation is its position here, which active demultiplexing sends), and the entries the
// tables keep. Internal to demux/.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "demux/key_hash.h"

namespace switchyard::demux {

template <class Value>
struct operation {
  key_view name;
  Value value;
};

// An operation index the client did not send (GIOP carries only the name).
inline constexpr std::uint32_t no_operation_index = 0xffffffffu;

template <class Value>
struct operation_entry {
  std::string name;
  Value value;
};

// Copies the list; an empty or duplicate name is a programming error in the caller (generated
// code): std::invalid_argument naming it.
template <class Value>
std::vector<operation_entry<Value>> make_operation_entries(std::span<const operation<Value>> ops) {
  std::vector<operation_entry<Value>> entries;
  entries.reserve(ops.size());
  if (ops.size() >= no_operation_index) throw std::invalid_argument("operation table: too many operations");
  for (const auto& op : ops) {
    if (op.name.empty()) throw std::invalid_argument("operation table: empty operation name");
    for (const auto& e : entries) {
      if (same_key(e.name, op.name)) {
        throw std::invalid_argument("operation table: duplicate operation name '" + std::string(op.name) + "'");
      }
    }
    entries.push_back(operation_entry<Value>{std::string(op.name), op.value});
  }
  return entries;
}

}  // namespace switchyard::demux
