#include "orb/core/request_header_cache.h"

#include <cstring>

#include "switchyard/cdr/byte_order.h"

namespace switchyard::core {

std::size_t request_header_cache::set_of(const request_header_key& key) noexcept {
  // Stubs name operations with string literals: the name's address picks the set (matches()
  // still compares the octets, so a name at another address only misses).
  std::uint64_t h = (key.binding_id ^ reinterpret_cast<std::uintptr_t>(key.operation.data()) ^ key.response_flags) *
                    0x9E3779B97F4A7C15ull;
  return static_cast<std::size_t>(h >> 60);  // set_count == 16
}

bool request_header_cache::matches(const entry& e, const request_header_key& key) noexcept {
  return e.binding_id == key.binding_id && e.operation_index == key.operation_index &&
         e.response_flags == key.response_flags && e.operation_size == key.operation.size() &&
         std::memcmp(e.operation.data(), key.operation.data(), key.operation.size()) == 0;
}

bool request_header_cache::replay(const request_header_key& key, std::uint32_t request_id, cdr::output_stream& out,
                                  giop::message_mark& mark) noexcept {
  const std::size_t set = set_of(key);
  std::size_t index = 2 * set + recent_[set];
  if (!matches(entries_[index], key)) [[unlikely]] {
    index ^= 1;
    if (!matches(entries_[index], key)) return false;
    recent_[set] = static_cast<std::uint8_t>(index & 1);
  }
  const entry& e = entries_[index];
  // The stream was reset and has room for its initial capacity, which exceeds max_header_size:
  // reserve_aligned(1, n) does not grow it.
  out.set_origin_here();
  std::byte* p = out.reserve_aligned(1, e.header_size);
  std::memcpy(p, e.header.data(), e.header_size);
  cdr::store(p + e.mark.request_id_offset, request_id);
  mark = e.mark;
  return true;
}

void request_header_cache::store(const request_header_key& key, const cdr::output_stream& out,
                                 const giop::message_mark& mark) noexcept {
  if (mark.header_offset != 0 || mark.body_start > max_header_size || key.operation.size() > max_operation_size ||
      key.binding_id == 0)
    return;
  const std::size_t set = set_of(key);
  recent_[set] ^= 1;  // over the way not used last
  entry& e = entries_[2 * set + recent_[set]];
  e.binding_id = key.binding_id;
  e.operation_index = key.operation_index;
  e.response_flags = key.response_flags;
  e.operation_size = static_cast<std::uint8_t>(key.operation.size());
  std::memcpy(e.operation.data(), key.operation.data(), key.operation.size());
  e.header_size = static_cast<std::uint16_t>(mark.body_start);
  std::memcpy(e.header.data(), out.data(), mark.body_start);
  e.mark = mark;
}

request_header_cache& request_header_cache::of_this_thread() noexcept {
  thread_local request_header_cache cache;
  return cache;
}

}  // namespace switchyard::core
