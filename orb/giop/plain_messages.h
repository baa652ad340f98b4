// The requests and replies nearly every call exchanges, decoded without the general path: a whole
// (unfragmented) message's header; GIOP 1.2, native byte order, a Request addressed by object
// key, a Reply without service contexts.
// Straight-line reads with one bounds check each, no virtual call, no stream bookkeeping. Each
// returns false for anything else, and for anything malformed, which the caller then gives to
// protocol::decode_request / decode_reply: those decode every case and raise MARSHAL with the
// reason. When one returns true its fields are exactly what the general decoder gives
// (tests/giop and the giop fuzz target compare the two).
#pragma once

#include <cstdint>

#include "orb/giop/message_header.h"
#include "orb/giop/messages.h"
#include "switchyard/cdr/byte_order.h"

namespace switchyard::giop {

// The 12-octet header of an unfragmented GIOP 1.0-1.2 message of types Request..MessageError
// within `max_body_size`; decode_header() decides every other case (and says what is wrong).
inline bool decode_plain_header(const std::byte* p, std::uint32_t max_body_size, message_header& out) noexcept {
  const auto flags = static_cast<std::uint8_t>(p[6]);
  const auto type = static_cast<std::uint8_t>(p[7]);
  if (p[0] != std::byte{'G'} || p[1] != std::byte{'I'} || p[2] != std::byte{'O'} || p[3] != std::byte{'P'} ||
      p[4] != std::byte{1} || static_cast<std::uint8_t>(p[5]) > 2 || flags > 1 ||
      type > static_cast<std::uint8_t>(message_type::message_error))
    return false;
  out.ver = {1, static_cast<std::uint8_t>(p[5])};
  out.order = flags != 0 ? cdr::byte_order::little_endian : cdr::byte_order::big_endian;
  out.more_fragments = false;
  out.type = static_cast<message_type>(type);
  out.body_size = cdr::load<std::uint32_t>(p + 8, out.order != cdr::native_byte_order);
  return out.body_size <= max_body_size;
}

bool decode_plain_request(const message_view& message, request_header& out) noexcept;

// The reply's header is 24 octets (id, status, empty context list), its body 8-aligned after it.
inline bool decode_plain_reply(const message_view& message, reply_header& out) noexcept {
  constexpr std::size_t plain_header_size = header_size + 12;
  if (message.header.ver.minor != 2 || message.header.type != message_type::reply ||
      message.header.order != cdr::native_byte_order || message.bytes.size() < plain_header_size)
    return false;
  const std::byte* p = message.bytes.data() + header_size;
  const auto status = cdr::load<std::uint32_t>(p + 4, false);
  if (status > static_cast<std::uint32_t>(reply_status::needs_addressing_mode) ||
      cdr::load<std::uint32_t>(p + 8, false) != 0)
    return false;
  out.request_id = cdr::load<std::uint32_t>(p, false);
  out.status = static_cast<reply_status>(status);
  out.body = cdr::input_stream(message.bytes.subspan(plain_header_size), cdr::native_byte_order, plain_header_size, 2);
  return true;
}

}  // namespace switchyard::giop
