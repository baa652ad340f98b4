// What GIOP 1.0 and 1.1 share (CORBA 3.0, 15.4): targets addressed by object key only, request
// and reply headers with their service contexts first, bodies not aligned beyond their first
// value. The versions differ in data, which this class takes: 1.1's three reserved octets after
// response_expected, and (through protocol) its Fragment message. giop_1_0.cpp and
// giop_1_1.cpp each add what is theirs alone. Internal to orb/giop.
#pragma once

#include <cstddef>
#include <string>

#include "orb/giop/protocol.h"
#include "switchyard/exception.h"

namespace switchyard::giop {

class key_addressed_protocol : public protocol {
 public:
  request_header decode_request(const message_view& message) const override {
    expect_type(message, message_type::request);
    cdr::input_stream in = message.body_stream();
    request_header header;
    header.service_contexts = read_service_context_list(in);
    header.request_id = in.read_ulong();
    header.response_flags = in.read_boolean() ? response_flags::with_target : response_flags::none;
    in.skip(request_reserved_octets_);
    std::uint32_t key_length = in.read_length(1);
    header.target = target_address::by_key({in.take(key_length), key_length});
    header.operation = in.read_string_view();
    std::uint32_t principal_length = in.read_length(1);
    header.requesting_principal = {in.take(principal_length), principal_length};
    header.body = in;
    return header;
  }

  reply_header decode_reply(const message_view& message) const override {
    expect_type(message, message_type::reply);
    cdr::input_stream in = message.body_stream();
    reply_header header;
    header.service_contexts = read_service_context_list(in);
    header.request_id = in.read_ulong();
    header.status = check_reply_status(in, in.read_ulong());
    header.body = in;
    return header;
  }

  locate_request_header decode_locate_request(const message_view& message) const override {
    expect_type(message, message_type::locate_request);
    cdr::input_stream in = message.body_stream();
    locate_request_header header;
    header.request_id = in.read_ulong();
    std::uint32_t key_length = in.read_length(1);
    header.target = target_address::by_key({in.take(key_length), key_length});
    return header;
  }

  locate_reply_header decode_locate_reply(const message_view& message) const override {
    expect_type(message, message_type::locate_reply);
    cdr::input_stream in = message.body_stream();
    locate_reply_header header;
    header.request_id = in.read_ulong();
    header.status = check_locate_status(in, in.read_ulong());
    header.body = in;
    return header;
  }

  // The id sits after the service contexts of a Request or Reply: read as much as is there.
  bool leading_request_id(const message_view& message, std::uint32_t& request_id) const override {
    cdr::input_stream in = message.body_stream();
    try {
      switch (message.header.type) {
        case message_type::request:
        case message_type::reply:
          read_service_context_list(in);
          break;
        case message_type::locate_request:
        case message_type::locate_reply:
        case message_type::cancel_request:
          break;
        default:
          return false;
      }
      request_id = in.read_ulong();
      return true;
    } catch (const SystemException&) {
      return false;  // not received yet (a first fragment cut short)
    }
  }

  message_mark begin_request(cdr::output_stream& out, const request_fields& fields) const override {
    require_key(fields.target);
    message_mark mark = begin_message(out, message_type::request);
    write_service_context_list(out, fields.service_contexts);
    out.write_ulong(fields.request_id);
    mark.request_id_offset = out.size() - 4;
    // response_expected and the reserved octets: one aligned block.
    std::byte* flags = out.reserve_aligned(1, 1 + request_reserved_octets_);
    flags[0] = std::byte{static_cast<std::uint8_t>((fields.response_flags & 0x01) != 0)};
    for (std::size_t i = 1; i <= request_reserved_octets_; ++i) flags[i] = std::byte{0};
    out.write_ulong(static_cast<std::uint32_t>(fields.target.object_key.size()));
    out.write_octets(fields.target.object_key.data(), fields.target.object_key.size());
    out.write_string(fields.operation);
    out.write_ulong(static_cast<std::uint32_t>(fields.requesting_principal.size()));
    out.write_octets(fields.requesting_principal.data(), fields.requesting_principal.size());
    mark.headers_end = mark.body_start = out.size();
    return mark;
  }

  message_mark begin_reply(cdr::output_stream& out, std::uint32_t request_id, reply_status status,
                           std::span<const service_context> contexts) const override {
    check_encodable(status);
    message_mark mark = begin_message(out, message_type::reply);
    write_service_context_list(out, contexts);
    std::byte* p = out.reserve_aligned(4, 8);
    cdr::store(p, request_id);
    cdr::store(p + 4, static_cast<std::uint32_t>(status));
    mark.headers_end = mark.body_start = out.size();
    return mark;
  }

  message_mark begin_locate_request(cdr::output_stream& out, std::uint32_t request_id,
                                    const target_address& target) const override {
    require_key(target);
    message_mark mark = begin_message(out, message_type::locate_request);
    std::byte* p = out.reserve_aligned(4, 8);
    cdr::store(p, request_id);
    cdr::store(p + 4, static_cast<std::uint32_t>(target.object_key.size()));
    out.write_octets(target.object_key.data(), target.object_key.size());
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

 protected:
  constexpr key_addressed_protocol(version ver, std::uint8_t highest_type, std::uint8_t fragmentable_types,
                                   std::size_t request_reserved_octets) noexcept
      : protocol(ver, highest_type, fragmentable_types, /*fragment_header_size=*/0, reply_status::location_forward,
                 locate_status::object_forward,
                 /*plain_reply_id_offset=*/header_size + 4),  // after the empty context list
        request_reserved_octets_(request_reserved_octets) {}
  ~key_addressed_protocol() = default;

 private:
  void require_key(const target_address& target) const {
    if (target.disposition != addressing_disposition::key_addr)
      throw SystemException(SystemExceptionKind::MARSHAL, minor::bad_message, CompletionStatus::no,
                            "GIOP 1." + std::to_string(minor()) + " addresses targets by object key only");
  }

  std::size_t request_reserved_octets_;
};

}  // namespace switchyard::giop
