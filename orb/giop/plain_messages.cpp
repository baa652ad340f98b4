#include "orb/giop/plain_messages.h"

#include <cstddef>
#include <cstring>

namespace switchyard::giop {

namespace {

constexpr std::size_t align_up(std::size_t offset, std::size_t alignment) noexcept {
  return (offset + alignment - 1) & ~(alignment - 1);
}

}  // namespace

bool decode_plain_request(const message_view& message, request_header& out) noexcept {
  if (message.header.ver.minor != 2 || message.header.type != message_type::request ||
      message.header.order != cdr::native_byte_order)
    return false;
  // Offsets from the start of the message, which is the alignment origin. The fixed part:
  // request_id (12), response_flags (16), reserved[3], TargetAddress discriminator (20, a short),
  // padding, object key length (24), key octets (28).
  const std::byte* const base = message.bytes.data();
  const std::size_t size = message.bytes.size();
  auto ulong_at = [base](std::size_t offset) { return cdr::load<std::uint32_t>(base + offset, false); };
  if (size < 28 || cdr::load<std::uint16_t>(base + 20, false) != 0) return false;  // KeyAddr only

  const std::size_t key_length = ulong_at(24);
  if (key_length > size - 28) return false;
  std::size_t offset = 28 + key_length;

  offset = align_up(offset, 4);
  if (offset > size || size - offset < 4) return false;
  const std::size_t operation_length = ulong_at(offset);  // with its NUL
  offset += 4;
  if (operation_length == 0 || operation_length > size - offset || base[offset + operation_length - 1] != std::byte{0})
    return false;
  const auto* operation = reinterpret_cast<const char*>(base + offset);
  // A NUL inside the name: the general decoder's MARSHAL.
  if (std::memchr(operation, 0, operation_length - 1) != nullptr) return false;
  offset += operation_length;

  offset = align_up(offset, 4);
  if (offset > size || size - offset < 4) return false;
  const std::uint32_t context_count = ulong_at(offset);
  offset += 4;
  const std::size_t contexts_start = offset;
  if (context_count > (size - offset) / 8) return false;  // each entry is 8 octets at least
  for (std::uint32_t i = 0; i < context_count; ++i) {
    offset = align_up(offset, 4);
    if (offset > size || size - offset < 8) return false;
    const std::size_t data_length = ulong_at(offset + 4);
    offset += 8;
    if (data_length > size - offset) return false;
    offset += data_length;
  }

  out.request_id = ulong_at(12);
  out.response_flags = static_cast<std::uint8_t>(base[16]);
  out.target = target_address::by_key({base + 28, key_length});
  out.operation = std::string_view(operation, operation_length - 1);
  out.service_contexts = service_context_list({base + contexts_start, offset - contexts_start}, context_count,
                                              cdr::native_byte_order, contexts_start);
  // The body starts at the next 8-octet boundary; none left: no body.
  const std::size_t body_start = std::min(align_up(offset, 8), size);
  out.body = cdr::input_stream(message.bytes.subspan(body_start), cdr::native_byte_order, body_start, 2);
  return true;
}

}  // namespace switchyard::giop
