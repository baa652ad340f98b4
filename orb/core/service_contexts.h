// Switchyard's own service contexts. Internal to orb/core.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "switchyard/cdr/input_stream.h"
#include "switchyard/cdr/output_stream.h"

namespace switchyard::core {

// The operation's index in its interface (IDL order), sent by our clients to our servers so that
// active demultiplexing finds the skeleton with one indexed lookup. Context data: an
// encapsulation holding one ulong. The id is in our vendor range ('S','Y').
inline constexpr std::uint32_t operation_index_context_id = 0x53590001u;

// The encapsulated index, 8 octets, written once per thread and patched per request.
struct operation_index_context {
  std::byte data[8];
  void set(std::uint32_t index) noexcept {
    data[0] = static_cast<std::byte>(cdr::native_byte_order);
    data[1] = data[2] = data[3] = std::byte{0};
    cdr::store(data + 4, index);
  }
};

// IOP::CodeSets (CORBA 3.0, 13.10.2.5): the transmission code sets a client chose, sent with the
// first request on a connection (GIOP 1.1 and later). Ours: ISO 8859-1 for char, UTF-16 for
// wchar, what our IORs advertise and what omniORB answers with. Without it omniORB refuses wide
// characters (BAD_PARAM, minor 23).
inline constexpr std::uint32_t code_sets_context_id = 1;
// The encapsulated CONV_FRAME::CodeSetContext {char_data, wchar_data}, in native byte order.
struct code_sets_context {
  std::byte data[12];
  code_sets_context() noexcept {
    data[0] = static_cast<std::byte>(cdr::native_byte_order);
    data[1] = data[2] = data[3] = std::byte{0};
    cdr::store(data + 4, std::uint32_t{0x00010001});  // ISO 8859-1
    cdr::store(data + 8, std::uint32_t{0x00010109});  // UTF-16
  }
};

// The index a context carries, or nothing when it is malformed.
inline std::optional<std::uint32_t> read_operation_index(std::span<const std::byte> data) noexcept {
  if (data.size() != 8 || static_cast<std::uint8_t>(data[0]) > 1) return std::nullopt;
  bool swap = static_cast<cdr::byte_order>(data[0]) != cdr::native_byte_order;
  return cdr::load<std::uint32_t>(data.data() + 4, swap);
}

}  // namespace switchyard::core
