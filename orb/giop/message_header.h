// GIOP message headers (CORBA 3.0, 15.4.1): the 12 octets in front of every GIOP message, the
// message types, and a view of one complete message. Internal to the ORB: included by the core,
// the giop tests and the fuzz target as "orb/giop/message_header.h"; never by orb/cdr.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "switchyard/cdr/byte_order.h"
#include "switchyard/cdr/input_stream.h"

namespace switchyard::giop {

enum class message_type : std::uint8_t {
  request = 0,
  reply = 1,
  cancel_request = 2,
  locate_request = 3,
  locate_reply = 4,
  close_connection = 5,
  message_error = 6,
  fragment = 7,  // GIOP 1.1 and later
};
std::string_view to_string(message_type type) noexcept;

struct version {
  std::uint8_t major = 1;
  std::uint8_t minor = 2;
  friend constexpr bool operator==(version, version) noexcept = default;
};

inline constexpr std::size_t header_size = 12;
inline constexpr std::uint8_t highest_minor = 2;           // GIOP 1.2: what we answer MessageError in
inline constexpr std::uint8_t flag_little_endian = 0x01;   // 1.0: the whole octet is the boolean
inline constexpr std::uint8_t flag_more_fragments = 0x02;  // 1.1 and later
inline constexpr std::uint32_t default_max_body_size = 64u << 20;

struct message_header {
  version ver{};
  cdr::byte_order order = cdr::byte_order::big_endian;
  bool more_fragments = false;
  message_type type = message_type::request;
  std::uint32_t body_size = 0;  // message_size: the octets after these 12
};

// What decode_header found wrong. The core answers these without reading the body:
//   bad_magic            not GIOP at all: close the connection.
//   unsupported_version  major != 1 or minor > 2: send MessageError in GIOP 1.2 (highest_protocol()),
//                        the header's `ver` says what the peer sent.
//   everything else      send MessageError in the header's own version, then close.
enum class header_status : std::uint8_t {
  ok,
  truncated,             // fewer than 12 octets given
  bad_magic,             // not "GIOP"
  unsupported_version,   // e.g. 1.3, 2.0, 0.9
  bad_flags,             // 1.0 byte-order boolean neither 0 nor 1
  unknown_type,          // type beyond Fragment (or Fragment in 1.0)
  fragment_not_allowed,  // more-fragments bit on a type that may not be fragmented in this version
  too_large,             // message_size beyond the configured maximum
};
std::string_view to_string(header_status status) noexcept;

struct header_result {
  header_status status = header_status::ok;
  message_header header;  // filled as far as it could be read (version for unsupported_version)
};

// Reads and checks the 12-octet header at the front of `bytes` (the rest is not looked at).
// Reserved flag bits of 1.1/1.2 (bits 2-7) are ignored, as the robustness rule suggests.
header_result decode_header(std::span<const std::byte> bytes,
                            std::uint32_t max_body_size = default_max_body_size) noexcept;

// The first eight header octets a sender writes: magic, version, flags (native byte order, no more
// fragments), type. Precomputed per version and type; the size follows.
constexpr std::array<std::byte, 8> header_prefix(version ver, message_type type) noexcept {
  return {std::byte{'G'},
          std::byte{'I'},
          std::byte{'O'},
          std::byte{'P'},
          std::byte{ver.major},
          std::byte{ver.minor},
          std::byte{static_cast<std::uint8_t>(cdr::native_byte_order)},
          std::byte{static_cast<std::uint8_t>(type)}};
}

// One complete message: a header decode_header accepted and exactly header_size + body_size
// octets (the header included). A view: the bytes belong to the receive buffer (or reassembler).
class fragment_continuation;

struct message_view {
  message_header header;
  std::span<const std::byte> bytes;
  // A reassembled GIOP 1.1 message whose Fragments' data lands off its alignment: where each
  // begins (orb/giop/fragment_continuation.h), owned with the bytes. Null for any other.
  fragment_continuation* fragments = nullptr;

  std::span<const std::byte> body() const noexcept { return bytes.subspan(header_size); }
  // The body as a CDR stream whose alignment origin is the start of the header; one that reads
  // on across the Fragment boundaries, realigned, if there are any.
  cdr::input_stream body_stream() const noexcept {
    if (fragments != nullptr) [[unlikely]]
      return fragmented_body_stream();
    return cdr::input_stream(body(), header.order, header_size, header.ver.minor);
  }
  cdr::input_stream fragmented_body_stream() const noexcept;
};

// Builds a message view over `bytes` (header included): decodes the header and checks that the
// bytes hold exactly the message. Raises MARSHAL minor::bad_message when they do not.
message_view make_message_view(std::span<const std::byte> bytes, std::uint32_t max_body_size = default_max_body_size);

}  // namespace switchyard::giop
