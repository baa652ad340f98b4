// GIOP 1.2 (CORBA 3.0, 15.4): request id first in every request/reply header, response_flags,
// TargetAddress, service contexts last, bodies of Request and Reply aligned to 8 (15.4.2.2,
// 15.4.3.2); LocateRequest/LocateReply may be fragmented; a Fragment names its request, so
// fragments of different requests may interleave. The LocateReply body is NOT 8-aligned (see
// README.md): it follows the 8 octets of its header at offset 20, as omniORB and TAO send it.
#include <string>

#include "orb/giop/protocol.h"
#include "switchyard/exception.h"

namespace switchyard::giop {

namespace {

constexpr std::uint8_t bit(message_type type) { return std::uint8_t(1u << static_cast<unsigned>(type)); }

class protocol_1_2 final : public protocol {
 public:
  constexpr protocol_1_2() noexcept
      : protocol(version{1, 2}, static_cast<std::uint8_t>(message_type::fragment),
                 bit(message_type::request) | bit(message_type::reply) | bit(message_type::locate_request) |
                     bit(message_type::locate_reply) | bit(message_type::fragment),
                 /*fragment_header_size=*/4, reply_status::needs_addressing_mode,
                 locate_status::loc_needs_addressing_mode, /*plain_reply_id_offset=*/header_size) {}

  request_header decode_request(const message_view& message) const override {
    expect_type(message, message_type::request);
    cdr::input_stream in = message.body_stream();
    request_header header;
    const std::byte* fixed = in.take_aligned(4, 8);  // request_id, response_flags, reserved[3]
    header.request_id = cdr::load<std::uint32_t>(fixed, in.swapping());
    header.response_flags = static_cast<std::uint8_t>(fixed[4]);
    header.target = read_target_address(in);
    header.operation = in.read_string_view();
    header.service_contexts = read_service_context_list(in);
    in.align(8);  // the body starts at the next 8-octet boundary (none left: no body)
    header.body = in;
    return header;
  }

  reply_header decode_reply(const message_view& message) const override {
    expect_type(message, message_type::reply);
    cdr::input_stream in = message.body_stream();
    reply_header header;
    header.request_id = in.read_ulong();
    header.status = check_reply_status(in, in.read_ulong());
    header.service_contexts = read_service_context_list(in);
    in.align(8);
    header.body = in;
    return header;
  }

  locate_request_header decode_locate_request(const message_view& message) const override {
    expect_type(message, message_type::locate_request);
    cdr::input_stream in = message.body_stream();
    locate_request_header header;
    header.request_id = in.read_ulong();
    header.target = read_target_address(in);
    return header;
  }

  locate_reply_header decode_locate_reply(const message_view& message) const override {
    expect_type(message, message_type::locate_reply);
    cdr::input_stream in = message.body_stream();
    locate_reply_header header;
    header.request_id = in.read_ulong();
    header.status = check_locate_status(in, in.read_ulong());
    header.body = in;  // no 8-alignment here
    return header;
  }

  bool leading_request_id(const message_view& message, std::uint32_t& request_id) const override {
    cdr::input_stream in = message.body_stream();
    request_id = in.read_ulong();
    return true;
  }

  message_mark begin_request(cdr::output_stream& out, const request_fields& fields) const override {
    message_mark mark = begin_message(out, message_type::request);
    std::byte* fixed = out.reserve_aligned(4, 8);
    mark.request_id_offset = static_cast<std::size_t>(fixed - out.data());
    cdr::store(fixed, fields.request_id);
    fixed[4] = std::byte{fields.response_flags};
    fixed[5] = fixed[6] = fixed[7] = std::byte{0};
    write_target_address(out, fields.target);
    out.write_string(fields.operation);
    write_service_context_list(out, fields.service_contexts);
    mark.headers_end = out.size();
    out.align(8);
    mark.body_start = out.size();
    return mark;
  }

  message_mark begin_reply(cdr::output_stream& out, std::uint32_t request_id, reply_status status,
                           std::span<const service_context> contexts) const override {
    check_encodable(status);
    message_mark mark = begin_message(out, message_type::reply);
    if (contexts.empty()) {
      // The common case, precomputed: id, status, empty list end at offset 24, already 8-aligned.
      std::byte* p = out.reserve_aligned(4, 12);
      cdr::store(p, request_id);
      cdr::store(p + 4, static_cast<std::uint32_t>(status));
      cdr::store<std::uint32_t>(p + 8, 0);
    } else {
      std::byte* p = out.reserve_aligned(4, 8);
      cdr::store(p, request_id);
      cdr::store(p + 4, static_cast<std::uint32_t>(status));
      write_service_context_list(out, contexts);
    }
    mark.headers_end = out.size();
    out.align(8);
    mark.body_start = out.size();
    return mark;
  }

  message_mark begin_locate_request(cdr::output_stream& out, std::uint32_t request_id,
                                    const target_address& target) const override {
    message_mark mark = begin_message(out, message_type::locate_request);
    out.write_ulong(request_id);
    write_target_address(out, target);
    mark.headers_end = mark.body_start = out.size();
    return mark;
  }

  message_mark begin_locate_reply(cdr::output_stream& out, std::uint32_t request_id,
                                  locate_status status) const override {
    check_encodable(status);
    message_mark mark = begin_message(out, message_type::locate_reply);
    std::byte* p = out.reserve_aligned(4, 8);
    cdr::store(p, request_id);
    cdr::store(p + 4, static_cast<std::uint32_t>(status));
    mark.headers_end = mark.body_start = out.size();
    return mark;
  }

  message_mark begin_fragment(cdr::output_stream& out, std::uint32_t request_id) const override {
    message_mark mark = begin_message(out, message_type::fragment);
    out.write_ulong(request_id);  // FragmentHeader_1_2; the data continues at offset 16
    mark.headers_end = mark.body_start = out.size();
    return mark;
  }
};

constexpr protocol_1_2 instance;

}  // namespace

const protocol& giop_1_2() noexcept { return instance; }

}  // namespace switchyard::giop
