// Request headers written once and replayed. Two requests from one binding (connection, object
// key, GIOP version) for one operation with the same response flags and service contexts have
// the same header but for the request id (and the message size, which finish() patches): the
// client copies the cached octets and patches the id instead of marshaling target, operation
// and service contexts again. One cache per thread (no lock); two-way set-associative, a miss
// writes the header the long way and stores it over the set's less recently used entry. Two ways,
// not one: a client alternating between a few objects (sy-bench demux's blocks visit nine) met
// two of them in one slot often enough to tilt paired comparisons by a header's marshaling, about
// 40 ns (docs/experiments.md, "Paired measurement"). Internal to orb/core.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "orb/giop/protocol.h"
#include "switchyard/cdr/output_stream.h"

namespace switchyard::core {

// What decides a request's header besides its request id.
struct request_header_key {
  std::uint64_t binding_id;  // object_state's binding: connection, object key, GIOP version
  std::string_view operation;
  std::uint32_t operation_index;  // sent in our service context to our own servers
  std::uint8_t response_flags;
};

class request_header_cache {
 public:
  // Headers longer than this (very long object keys) are always written the long way.
  static constexpr std::size_t max_header_size = 224;
  static constexpr std::size_t max_operation_size = 48;

  // Writes the cached header for `key` at the start of the (reset) stream `out`, under
  // `request_id`, and returns its mark; false (nothing written) when it is not cached.
  bool replay(const request_header_key& key, std::uint32_t request_id, cdr::output_stream& out,
              giop::message_mark& mark) noexcept;
  // Keeps the header just written at the start of `out` (ending at mark.body_start).
  void store(const request_header_key& key, const cdr::output_stream& out, const giop::message_mark& mark) noexcept;

  // The calling thread's cache.
  static request_header_cache& of_this_thread() noexcept;

  // Which of the 16 sets holds `key` (for the tests of replacement).
  static std::size_t set_of(const request_header_key& key) noexcept;

 private:
  struct entry {
    std::uint64_t binding_id = 0;  // 0: empty (binding ids start at 1)
    std::uint32_t operation_index = 0;
    std::uint8_t response_flags = 0;
    std::uint8_t operation_size = 0;
    std::uint16_t header_size = 0;
    giop::message_mark mark{};
    std::array<char, max_operation_size> operation{};
    alignas(8) std::array<std::byte, max_header_size> header{};
  };
  static constexpr std::size_t set_count = 16;  // set_of() takes the hash's top 4 bits
  static bool matches(const entry& e, const request_header_key& key) noexcept;

  // Set s holds entries 2s and 2s + 1; recent_[s] is the way used last (a store replaces the other).
  std::array<entry, 2 * set_count> entries_{};
  std::array<std::uint8_t, set_count> recent_{};
};

}  // namespace switchyard::core
