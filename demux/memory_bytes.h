// Heap accounting shared by the maps' memory_bytes() (memory per servant in the benchmark).
#pragma once

#include <cstddef>
#include <string>

namespace switchyard::demux {

// Bytes a std::string holds on the heap: none while its characters fit in the object itself.
inline std::size_t string_heap_bytes(const std::string& s) noexcept {
  return s.capacity() > std::string().capacity() ? s.capacity() + 1 : 0;
}

}  // namespace switchyard::demux
