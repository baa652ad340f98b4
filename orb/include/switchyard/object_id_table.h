// Object ids known at build time, perfect-hashed by gperf (as the TAO paper does for object keys).
// `syidl --object-ids LIST -o NAME.h` generates, from a list of ids, a lookup struct NAME and the
// constant `NAME_table` of this type; hand it to an adapter whose servant demultiplexing is
// `perfect` (adapter_policies::object_ids, or object_adapter::use_object_ids for the root), and
// the listed ids take fixed slots found by the generated function; other ids (system ids, ids
// known only at start-up) go to the run-time perfect hash. docs/using.md shows the wiring.
#pragma once

#include <cstddef>
#include <string_view>

namespace switchyard {

struct object_id_table {
  std::size_t key_count = 0;
  // The id's position in the list, or -1 (the generated gperf lookup: lengths, then bytes).
  int (*index_of)(const char* id, std::size_t length) noexcept = nullptr;
  // The id at a position (an empty view past the end); static storage.
  std::string_view (*key_at)(std::size_t index) noexcept = nullptr;
};

// The table of a generated lookup struct (key_count, index_of, key_at), e.g. one from
// demux/gperf_lookup.py; syidl's headers define NAME_table with it already.
template <class Lookup>
constexpr object_id_table make_object_id_table() noexcept {
  return object_id_table{Lookup::key_count, &Lookup::index_of, &Lookup::key_at};
}

}  // namespace switchyard
