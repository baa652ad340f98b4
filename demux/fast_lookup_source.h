// The perfect-fast hash written as C++ at build time: for a list of keys (object ids, operation
// names), a struct with the same three members as gperf_lookup.py's and syidl's gperf lookups,
//
//   struct NAME {
//     static constexpr std::size_t key_count;
//     static int index_of(const char* key, std::size_t length) noexcept;  // position, or -1
//     static std::string_view key_at(std::size_t index) noexcept;
//   };
//
// whose index_of is fast_perfect_hash.h's function with its constants written in (seed, windows,
// counts, displacements), one slot and one compare. It needs <cstddef>, <cstdint>, <cstring>
// and <string_view>, and nothing of Switchyard (gcc or clang: __int128, __BYTE_ORDER__). syidl --object-ids writes it
// beside the gperf lookup. Standard library only (demux_generator_dep).
#pragma once

#include <span>
#include <string>

namespace switchyard::demux {

// The struct's text (no includes, no namespace: the caller wraps it). `keys` in list order, any
// bytes; std::invalid_argument on a duplicate.
std::string fast_lookup_struct(const std::string& name, std::span<const std::string> keys);

// A C++ string literal for any bytes: printable ASCII as it is, the rest as three-digit octal
// escapes (which never run into the next character).
std::string cxx_bytes_literal(const std::string& bytes);

}  // namespace switchyard::demux
