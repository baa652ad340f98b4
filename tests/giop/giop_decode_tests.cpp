// GIOP decoders: hand-written big-endian messages and encoder output (little-endian) read back,
// every field checked; then every kind of malformed header and body.
#include "orb/giop/plain_messages.h"
#include "orb/giop/protocol.h"

#include <catch2/catch.hpp>

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "tests/cdr/hex.h"

using namespace switchyard;
using namespace switchyard::giop;
using switchyard::test::from_hex;
using switchyard::test::to_hex;

namespace {

std::string text(std::span<const std::byte> bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

std::span<const std::byte> bytes_of(std::string_view s) {
  return {reinterpret_cast<const std::byte*>(s.data()), s.size()};
}

auto marshal_with(std::uint32_t minor_code) {
  return Catch::Predicate<SystemException>(
      [minor_code](const SystemException& e) {
        return e.kind() == SystemExceptionKind::MARSHAL && e.minor() == minor_code;
      },
      "MARSHAL with minor " + std::to_string(minor_code));
}

header_status status_of(std::string_view hex, std::uint32_t max = default_max_body_size) {
  auto bytes = from_hex(hex);
  return decode_header(bytes, max).status;
}

}  // namespace

TEST_CASE("Header: fields in both byte orders", "[giop][decode]") {
  auto big = from_hex("47 49 4f 50 01 02 00 01 00 00 01 02");
  header_result r = decode_header(big);
  REQUIRE(r.status == header_status::ok);
  CHECK(r.header.ver == version{1, 2});
  CHECK(r.header.order == cdr::byte_order::big_endian);
  CHECK_FALSE(r.header.more_fragments);
  CHECK(r.header.type == message_type::reply);
  CHECK(r.header.body_size == 0x102);

  auto little = from_hex("47 49 4f 50 01 01 03 07 02 01 00 00");
  r = decode_header(little);
  REQUIRE(r.status == header_status::ok);
  CHECK(r.header.order == cdr::byte_order::little_endian);
  CHECK(r.header.more_fragments);
  CHECK(r.header.type == message_type::fragment);
  CHECK(r.header.body_size == 0x102);

  // 1.0: the flags octet is the byte-order boolean.
  r = decode_header(from_hex("47 49 4f 50 01 00 01 00 08 00 00 00"));
  REQUIRE(r.status == header_status::ok);
  CHECK(r.header.order == cdr::byte_order::little_endian);
  // 1.1/1.2 reserved flag bits are ignored.
  CHECK(status_of("47 49 4f 50 01 02 fd 00 00 00 00 00") == header_status::ok);
}

TEST_CASE("Header: malformed input gives a clear status", "[giop][decode][errors]") {
  CHECK(status_of("47 49 4f 50 01 02 00 00 00 00 00") == header_status::truncated);
  CHECK(status_of("") == header_status::truncated);
  CHECK(status_of("47 49 4f 51 01 02 00 00 00 00 00 00") == header_status::bad_magic);
  CHECK(status_of("50 4f 49 47 01 02 00 00 00 00 00 00") == header_status::bad_magic);
  SECTION("unknown versions report what the peer sent") {
    auto bytes = from_hex("47 49 4f 50 01 03 00 00 00 00 00 00");
    header_result r = decode_header(bytes);
    CHECK(r.status == header_status::unsupported_version);
    CHECK(r.header.ver == version{1, 3});
    CHECK(status_of("47 49 4f 50 02 00 00 00 00 00 00 00") == header_status::unsupported_version);
    CHECK(status_of("47 49 4f 50 00 09 00 00 00 00 00 00") == header_status::unsupported_version);
    // ... and the core answers with a GIOP 1.2 MessageError.
    CHECK(highest_protocol().ver() == version{1, 2});
  }
  CHECK(status_of("47 49 4f 50 01 00 02 00 00 00 00 00") == header_status::bad_flags);
  CHECK(status_of("47 49 4f 50 01 00 ff 00 00 00 00 00") == header_status::bad_flags);
  CHECK(status_of("47 49 4f 50 01 00 00 07 00 00 00 00") == header_status::unknown_type);  // no 1.0 Fragment
  CHECK(status_of("47 49 4f 50 01 02 00 08 00 00 00 00") == header_status::unknown_type);
  CHECK(status_of("47 49 4f 50 01 01 00 ff 00 00 00 00") == header_status::unknown_type);
  SECTION("more-fragments only where the version allows it") {
    CHECK(status_of("47 49 4f 50 01 02 02 02 00 00 00 04") == header_status::fragment_not_allowed);
    CHECK(status_of("47 49 4f 50 01 02 02 05 00 00 00 00") == header_status::fragment_not_allowed);
    CHECK(status_of("47 49 4f 50 01 02 02 06 00 00 00 00") == header_status::fragment_not_allowed);
    CHECK(status_of("47 49 4f 50 01 01 02 03 00 00 00 08") == header_status::fragment_not_allowed);
    CHECK(status_of("47 49 4f 50 01 01 02 04 00 00 00 08") == header_status::fragment_not_allowed);
    CHECK(status_of("47 49 4f 50 01 02 02 03 00 00 00 08") == header_status::ok);
    CHECK(status_of("47 49 4f 50 01 02 02 04 00 00 00 08") == header_status::ok);
    CHECK(status_of("47 49 4f 50 01 01 02 00 00 00 00 08") == header_status::ok);
    CHECK(status_of("47 49 4f 50 01 01 02 07 00 00 00 08") == header_status::ok);
  }
  CHECK(status_of("47 49 4f 50 01 02 00 00 00 01 00 01", 0x10000) == header_status::too_large);
  CHECK(status_of("47 49 4f 50 01 02 00 00 00 01 00 00", 0x10000) == header_status::ok);
  CHECK(status_of("47 49 4f 50 01 02 00 00 ff ff ff ff") == header_status::too_large);
}

TEST_CASE("make_message_view: the bytes must hold the whole message", "[giop][decode][errors]") {
  auto bytes = from_hex("47 49 4f 50 01 02 00 02 00 00 00 04 00 00 00");
  CHECK_THROWS_MATCHES(make_message_view(bytes), SystemException, marshal_with(minor::read_past_end));
  bytes = from_hex("47 49 4f 51 01 02 00 02 00 00 00 04 00 00 00 00");
  CHECK_THROWS_MATCHES(make_message_view(bytes), SystemException, marshal_with(minor::bad_message));
  // Extra octets after the message belong to the next one.
  bytes = from_hex("47 49 4f 50 01 02 00 02 00 00 00 04 00 00 00 63 47 49");
  message_view view = make_message_view(bytes);
  CHECK(view.bytes.size() == 16);
  CHECK(giop_1_2().decode_cancel_request(view) == 99);
}

TEST_CASE("GIOP 1.0 and 1.1 Request, big-endian", "[giop][decode]") {
  auto bytes = from_hex(
      "47 49 4f 50 01 00 00 00 00 00 00 30"
      "00 00 00 01 00 00 00 01 00 00 00 04 00 01 02 03"  // CodeSets context
      "00 00 00 2a"                                      // request id 42
      "01 00 00 00"                                      // response_expected
      "00 00 00 03 6b 65 79 00"                          // key "key"
      "00 00 00 02 6f 00 00 00"                          // operation "o"
      "00 00 00 00"                                      // principal
      "00 00 00 07");                                    // body
  SECTION("1.0") {
    request_header h = giop_1_0().decode_request(make_message_view(bytes));
    CHECK(h.request_id == 42);
    CHECK(h.response_expected());
    CHECK(h.response_flags == response_flags::with_target);
    CHECK(h.target.disposition == addressing_disposition::key_addr);
    CHECK(text(h.target.object_key) == "key");
    CHECK(h.operation == "o");
    CHECK(h.requesting_principal.empty());
    REQUIRE(h.service_contexts.size() == 1);
    auto codesets = h.service_contexts.find(1);
    REQUIRE(codesets);
    CHECK(to_hex(*codesets) == "00 01 02 03");
    CHECK_FALSE(h.service_contexts.find(2));
    CHECK(h.body.aligned_position() == 56);
    CHECK(h.body.read_ulong() == 7);
    CHECK(h.body.at_end());
  }
  SECTION("1.1: reserved octets are skipped whatever they hold") {
    bytes[5] = std::byte{1};
    bytes[33] = bytes[34] = bytes[35] = std::byte{0xff};
    bytes[32] = std::byte{0};  // oneway
    request_header h = giop_1_1().decode_request(make_message_view(bytes));
    CHECK(h.request_id == 42);
    CHECK_FALSE(h.response_expected());
    CHECK(h.response_flags == response_flags::none);
    CHECK(text(h.target.object_key) == "key");
    CHECK(h.operation == "o");
    CHECK(h.body.read_ulong() == 7);
  }
}

TEST_CASE("GIOP 1.2 Request, big-endian: ProfileAddr, two contexts, body at 8", "[giop][decode]") {
  auto bytes = from_hex(
      "47 49 4f 50 01 02 00 00 00 00 00 4c"
      "00 00 00 09 01 ee ee ee"                          // id 9, WITH_SERVER, reserved
      "00 01 00 00 00 00 00 00 00 00 00 04 aa bb cc dd"  // ProfileAddr {tag 0, 4 octets}
      "00 00 00 05 6f 70 65 72 00 00 00 00"              // "oper"
      "00 00 00 02"
      "00 00 00 01 00 00 00 01 ee 00 00 00"
      "53 59 00 01 00 00 00 02 01 02"
      "00 00 00 00 00 00"          // padding to 80
      "40 00 00 00 00 00 00 00");  // 2.0
  request_header h = giop_1_2().decode_request(make_message_view(bytes));
  CHECK(h.request_id == 9);
  CHECK(h.response_flags == response_flags::with_server);
  CHECK(h.response_expected());
  REQUIRE(h.target.disposition == addressing_disposition::profile_addr);
  CHECK(to_hex(h.target.profile.bytes) == "00 00 00 00 00 00 00 04 aa bb cc dd");
  CHECK(h.target.profile.order == cdr::byte_order::big_endian);
  cdr::input_stream profile = h.target.profile.stream();
  CHECK(profile.read_ulong() == 0);
  CHECK(profile.read_ulong() == 4);
  CHECK(h.operation == "oper");
  REQUIRE(h.service_contexts.size() == 2);
  std::vector<std::uint32_t> ids;
  for (const service_context& c : h.service_contexts) ids.push_back(c.id);
  CHECK(ids == std::vector<std::uint32_t>{1, 0x53590001});
  CHECK(to_hex(*h.service_contexts.find(0x53590001)) == "01 02");
  CHECK(h.body.aligned_position() == 80);
  CHECK(h.body.read_double() == 2.0);
}

TEST_CASE("GIOP 1.2 LocateRequest, big-endian: ReferenceAddr", "[giop][decode]") {
  auto bytes = from_hex(
      "47 49 4f 50 01 02 00 03 00 00 00 29"
      "00 00 00 0b 00 02 00 00 00 00 00 01"  // id 11, ReferenceAddr, index 1
      "00 00 00 01 00 00 00 00"              // type id ""
      "00 00 00 02 00 00 00 00 00 00 00 00 00 00 00 01 00 00 00 01 ff");
  locate_request_header h = giop_1_2().decode_locate_request(make_message_view(bytes));
  CHECK(h.request_id == 11);
  REQUIRE(h.target.disposition == addressing_disposition::reference_addr);
  CHECK(h.target.selected_profile_index == 1);
  CHECK(h.target.ior.bytes.size() == 29);
  CHECK(h.target.ior.origin_offset == 24);
  cdr::input_stream ior = h.target.ior.stream();
  CHECK(ior.read_string_view().empty());
  CHECK(ior.read_ulong() == 2);
  // Re-encoding writes the same IOR in native order.
  cdr::output_stream out;
  auto mark = giop_1_2().begin_locate_request(out, 11, h.target);
  auto again = giop_1_2().decode_locate_request(make_message_view(protocol::finish(out, mark)));
  CHECK(again.target.selected_profile_index == 1);
  CHECK(again.target.ior.bytes.size() == 29);
}

TEST_CASE("Replies and locate replies, big-endian", "[giop][decode]") {
  SECTION("1.2 SYSTEM_EXCEPTION") {
    auto bytes = from_hex(
        "47 49 4f 50 01 02 00 01 00 00 00 38"
        "00 00 00 07 00 00 00 02 00 00 00 00"
        "00 00 00 20 49 44 4c 3a 6f 6d 67 2e 6f 72 67 2f 43 4f 52 42 41 2f"
        "4e 4f 5f 4d 45 4d 4f 52 59 3a 31 2e 30 00"
        "4f 4d 00 01 00 00 00 01");
    reply_header h = giop_1_2().decode_reply(make_message_view(bytes));
    CHECK(h.request_id == 7);
    CHECK(h.status == reply_status::system_exception);
    CHECK(h.service_contexts.empty());
    system_exception_body body = read_system_exception(h.body);
    CHECK(body.repository_id == "IDL:omg.org/CORBA/NO_MEMORY:1.0");
    CHECK(body.minor == 0x4f4d0001);
    CHECK(body.completed == CompletionStatus::no);
    SystemException e = body.to_exception();
    CHECK(e.kind() == SystemExceptionKind::NO_MEMORY);
    CHECK(e.minor() == 0x4f4d0001);
  }
  SECTION("1.0 LOCATION_FORWARD, 1.1 USER_EXCEPTION") {
    auto bytes = from_hex(
        "47 49 4f 50 01 00 00 01 00 00 00 10"
        "00 00 00 00 00 00 00 07 00 00 00 03 de ad be ef");
    reply_header h = giop_1_0().decode_reply(make_message_view(bytes));
    CHECK(h.request_id == 7);
    CHECK(h.status == reply_status::location_forward);
    CHECK(h.body.aligned_position() == 24);
    bytes[5] = std::byte{1};
    bytes[23] = std::byte{1};
    CHECK(giop_1_1().decode_reply(make_message_view(bytes)).status == reply_status::user_exception);
  }
  SECTION("1.2 NEEDS_ADDRESSING_MODE") {
    auto bytes = from_hex(
        "47 49 4f 50 01 02 00 01 00 00 00 0e"
        "00 00 00 07 00 00 00 05 00 00 00 00 00 01");
    reply_header h = giop_1_2().decode_reply(make_message_view(bytes));
    CHECK(h.status == reply_status::needs_addressing_mode);
    CHECK(read_addressing_disposition(h.body) == addressing_disposition::profile_addr);
  }
  SECTION("1.2 LocateReply OBJECT_FORWARD: body at offset 20") {
    auto bytes = from_hex(
        "47 49 4f 50 01 02 00 04 00 00 00 0c"
        "00 00 00 03 00 00 00 02 00 00 00 01");
    locate_reply_header h = giop_1_2().decode_locate_reply(make_message_view(bytes));
    CHECK(h.request_id == 3);
    CHECK(h.status == locate_status::object_forward);
    CHECK(h.body.aligned_position() == 20);
    CHECK(h.body.read_ulong() == 1);
  }
  SECTION("1.0 LocateReply and CancelRequest") {
    auto bytes = from_hex("47 49 4f 50 01 00 00 04 00 00 00 08 00 00 00 03 00 00 00 01");
    locate_reply_header h = giop_1_0().decode_locate_reply(make_message_view(bytes));
    CHECK(h.status == locate_status::object_here);
    bytes = from_hex("47 49 4f 50 01 01 00 02 00 00 00 04 00 00 00 63");
    CHECK(giop_1_1().decode_cancel_request(make_message_view(bytes)) == 99);
  }
}

TEST_CASE("Little-endian: what the encoders write reads back", "[giop][decode]") {
  const std::array<std::byte, 4> data{std::byte{0}, std::byte{1}, std::byte{2}, std::byte{3}};
  const service_context contexts[] = {{1, data}, {0x53590001, data}};
  for (const protocol* impl : {&giop_1_0(), &giop_1_1(), &giop_1_2()}) {
    CAPTURE(static_cast<int>(impl->minor()));
    cdr::output_stream out;
    request_fields fields;
    fields.request_id = 77;
    fields.response_flags = response_flags::with_target;
    fields.target = target_address::by_key(bytes_of("object-key"));
    fields.operation = "operation_name";
    fields.service_contexts = contexts;
    auto mark = impl->begin_request(out, fields);
    out.write_longlong(-5);
    request_header r = impl->decode_request(make_message_view(protocol::finish(out, mark)));
    CHECK(r.request_id == 77);
    CHECK(r.response_expected());
    CHECK(text(r.target.object_key) == "object-key");
    CHECK(r.operation == "operation_name");
    CHECK(r.service_contexts.size() == 2);
    CHECK(r.service_contexts.find(0x53590001).has_value());
    CHECK(r.body.read_longlong() == -5);

    out.reset();
    mark = impl->begin_reply(out, 77, reply_status::user_exception, contexts);
    out.write_string("IDL:X:1.0");
    reply_header p = impl->decode_reply(make_message_view(protocol::finish(out, mark)));
    CHECK(p.request_id == 77);
    CHECK(p.status == reply_status::user_exception);
    CHECK(p.service_contexts.size() == 2);
    CHECK(p.body.read_string_view() == "IDL:X:1.0");

    out.reset();
    mark = impl->begin_locate_request(out, 78, fields.target);
    locate_request_header l = impl->decode_locate_request(make_message_view(protocol::finish(out, mark)));
    CHECK(l.request_id == 78);
    CHECK(text(l.target.object_key) == "object-key");

    out.reset();
    mark = impl->begin_locate_reply(out, 78, locate_status::object_forward);
    locate_reply_header lr = impl->decode_locate_reply(make_message_view(protocol::finish(out, mark)));
    CHECK(lr.status == locate_status::object_forward);
    CHECK(lr.body.at_end());
  }
}

TEST_CASE("Malformed bodies raise MARSHAL, never read past the message", "[giop][decode][errors]") {
  // A good 1.2 request to cut up: id 1, KeyAddr "key1", operation "op", no contexts.
  const std::string good =
      "47 49 4f 50 01 02 00 00 00 00 00 20"
      "00 00 00 01 03 00 00 00 00 00 00 00 00 00 00 04 6b 65 79 31"
      "00 00 00 03 6f 70 00 00 00 00 00 00";
  REQUIRE_NOTHROW(giop_1_2().decode_request(make_message_view(from_hex(good))));

  SECTION("every truncation") {
    auto bytes = from_hex(good);
    for (std::size_t cut = 12; cut < bytes.size(); ++cut) {
      CAPTURE(cut);
      std::vector<std::byte> shorter(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(cut));
      auto size = static_cast<std::uint32_t>(cut - 12);
      shorter[8] = std::byte(size >> 24);
      shorter[9] = std::byte(size >> 16);
      shorter[10] = std::byte(size >> 8);
      shorter[11] = std::byte(size);
      CHECK_THROWS_AS(giop_1_2().decode_request(make_message_view(shorter)), SystemException);
    }
  }
  SECTION("bad TargetAddress discriminator") {
    auto bytes = from_hex(good);
    bytes[21] = std::byte{3};
    CHECK_THROWS_MATCHES(giop_1_2().decode_request(make_message_view(bytes)), SystemException,
                         marshal_with(minor::bad_enum));
    bytes[20] = std::byte{0xff};
    CHECK_THROWS_MATCHES(giop_1_2().decode_request(make_message_view(bytes)), SystemException,
                         marshal_with(minor::bad_enum));
  }
  SECTION("object key longer than the message") {
    auto bytes = from_hex(good);
    bytes[25] = std::byte{0x7f};
    CHECK_THROWS_MATCHES(giop_1_2().decode_request(make_message_view(bytes)), SystemException,
                         marshal_with(minor::length_too_large));
    bytes[24] = std::byte{0x7f};  // and beyond the configured maximum
    CHECK_THROWS_MATCHES(giop_1_2().decode_request(make_message_view(bytes)), SystemException,
                         marshal_with(minor::length_over_limit));
  }
  SECTION("operation without its NUL") {
    auto bytes = from_hex(good);
    bytes[38] = std::byte{'x'};
    CHECK_THROWS_MATCHES(giop_1_2().decode_request(make_message_view(bytes)), SystemException,
                         marshal_with(minor::string_not_terminated));
  }
  SECTION("service context count beyond the message") {
    auto bytes = from_hex(good);
    bytes[40] = std::byte{0xff};
    CHECK_THROWS_AS(giop_1_2().decode_request(make_message_view(bytes)), SystemException);
    bytes[40] = std::byte{0};
    bytes[43] = std::byte{1};  // one context, but no octets for it
    CHECK_THROWS_MATCHES(giop_1_2().decode_request(make_message_view(bytes)), SystemException,
                         marshal_with(minor::length_too_large));
  }
  SECTION("a 1.0 request whose principal runs past the end") {
    auto bytes = from_hex(
        "47 49 4f 50 01 00 00 00 00 00 00 18"
        "00 00 00 00 00 00 00 01 01 00 00 00 00 00 00 00 00 00 00 01 00 00 00 00"
        "00 00 00 09");
    bytes[11] = std::byte{0x1c};
    CHECK_THROWS_AS(giop_1_0().decode_request(make_message_view(bytes)), SystemException);
  }
  SECTION("ProfileAddr and ReferenceAddr lengths beyond the message") {
    auto bytes = from_hex(
        "47 49 4f 50 01 02 00 03 00 00 00 10"
        "00 00 00 01 00 01 00 00 00 00 00 00 ff ff ff 00");
    CHECK_THROWS_AS(giop_1_2().decode_locate_request(make_message_view(bytes)), SystemException);
    bytes = from_hex(
        "47 49 4f 50 01 02 00 03 00 00 00 18"
        "00 00 00 01 00 02 00 00 00 00 00 00 00 00 00 01 00 00 00 00 0f ff ff ff");
    CHECK_THROWS_AS(giop_1_2().decode_locate_request(make_message_view(bytes)), SystemException);
  }
  SECTION("status values beyond the version") {
    auto reply = from_hex("47 49 4f 50 01 01 00 01 00 00 00 0c 00 00 00 00 00 00 00 01 00 00 00 04");
    CHECK_THROWS_MATCHES(giop_1_1().decode_reply(make_message_view(reply)), SystemException,
                         marshal_with(minor::bad_enum));
    reply = from_hex("47 49 4f 50 01 02 00 01 00 00 00 0c 00 00 00 01 00 00 00 06 00 00 00 00");
    CHECK_THROWS_MATCHES(giop_1_2().decode_reply(make_message_view(reply)), SystemException,
                         marshal_with(minor::bad_enum));
    auto locate = from_hex("47 49 4f 50 01 00 00 04 00 00 00 08 00 00 00 01 00 00 00 03");
    CHECK_THROWS_MATCHES(giop_1_0().decode_locate_reply(make_message_view(locate)), SystemException,
                         marshal_with(minor::bad_enum));
    locate = from_hex("47 49 4f 50 01 02 00 04 00 00 00 08 00 00 00 01 00 00 00 06");
    CHECK_THROWS_MATCHES(giop_1_2().decode_locate_reply(make_message_view(locate)), SystemException,
                         marshal_with(minor::bad_enum));
  }
  SECTION("system exception body: bad completion status, short body") {
    auto body = from_hex("00 00 00 02 41 00 00 00 00 00 00 01 00 00 00 03");
    cdr::input_stream in(body, cdr::byte_order::big_endian);
    CHECK_THROWS_MATCHES(read_system_exception(in), SystemException, marshal_with(minor::bad_enum));
    cdr::input_stream short_in(std::span<const std::byte>(body).first(10), cdr::byte_order::big_endian);
    CHECK_THROWS_MATCHES(read_system_exception(short_in), SystemException, marshal_with(minor::read_past_end));
    auto disposition = from_hex("00 03");
    cdr::input_stream d(disposition, cdr::byte_order::big_endian);
    CHECK_THROWS_MATCHES(read_addressing_disposition(d), SystemException, marshal_with(minor::bad_enum));
  }
  SECTION("a decoder given the wrong message type") {
    CHECK_THROWS_MATCHES(giop_1_2().decode_reply(make_message_view(from_hex(good))), SystemException,
                         marshal_with(minor::bad_message));
    auto cancel = from_hex("47 49 4f 50 01 02 00 02 00 00 00 00");
    CHECK_THROWS_MATCHES(giop_1_2().decode_cancel_request(make_message_view(cancel)), SystemException,
                         marshal_with(minor::read_past_end));
  }
}

TEST_CASE("decode_plain_reply agrees with decode_reply, or leaves the reply to it", "[giop][decode]") {
  const std::array<std::byte, 4> context_data{};
  const service_context contexts[] = {{0x0b, context_data}};
  for (std::uint8_t minor = 0; minor <= 2; ++minor) {
    for (std::uint32_t status = 0; status <= (minor == 2 ? 5u : 3u); ++status) {
      for (bool with_context : {false, true}) {
        for (bool with_body : {false, true}) {
          CAPTURE(minor, status, with_context, with_body);
          cdr::output_stream out;
          const protocol& impl = *protocol_for(minor);
          auto mark = impl.begin_reply(
              out, 77, static_cast<reply_status>(status),
              with_context ? std::span<const service_context>(contexts) : std::span<const service_context>{});
          if (with_body) out.write_double(2.5);
          auto message = make_message_view(protocol::finish(out, mark));
          reply_header plain;
          const bool taken = decode_plain_reply(message, plain);
          CHECK(taken == (minor == 2 && !with_context));
          if (!taken) continue;
          reply_header full = impl.decode_reply(message);
          CHECK(plain.request_id == full.request_id);
          CHECK(plain.status == full.status);
          CHECK(plain.body.remaining() == full.body.remaining());
          CHECK(plain.body.aligned_position() == full.body.aligned_position());
          if (with_body) CHECK(plain.body.read_double() == 2.5);
        }
      }
    }
  }
  // A big-endian 1.2 reply (omniORB on another machine) and a status out of range go the full way.
  auto big_endian = from_hex("47 49 4f 50 01 02 00 01 00 00 00 0c 00 00 00 05 00 00 00 00 00 00 00 00");
  reply_header ignored;
  CHECK_FALSE(decode_plain_reply(make_message_view(big_endian), ignored));
  auto bad_status = from_hex("47 49 4f 50 01 02 01 01 0c 00 00 00 05 00 00 00 09 00 00 00 00 00 00 00");
  CHECK_FALSE(decode_plain_reply(make_message_view(bad_status), ignored));
}

namespace {

// The general decoder's answer for `message`, or nothing when it raises MARSHAL.
std::optional<request_header> general_request(const message_view& message) {
  try {
    return protocol_for(message.header.ver.minor)->decode_request(message);
  } catch (const SystemException&) {
    return std::nullopt;
  }
}

void check_same_request(const request_header& plain, const request_header& full) {
  CHECK(plain.request_id == full.request_id);
  CHECK(plain.response_flags == full.response_flags);
  CHECK(full.target.disposition == addressing_disposition::key_addr);
  CHECK(text(plain.target.object_key) == text(full.target.object_key));
  CHECK(plain.operation == full.operation);
  CHECK(plain.service_contexts.size() == full.service_contexts.size());
  CHECK(text(plain.service_contexts.encoded_entries()) == text(full.service_contexts.encoded_entries()));
  auto p = plain.service_contexts.begin();
  for (const service_context& c : full.service_contexts) {
    CHECK(p->id == c.id);
    CHECK(text(p->data) == text(c.data));
    ++p;
  }
  CHECK(plain.body.remaining() == full.body.remaining());
  CHECK(plain.body.aligned_position() == full.body.aligned_position());
}

}  // namespace

TEST_CASE("decode_plain_request agrees with decode_request, or leaves the request to it", "[giop][decode]") {
  const std::array<std::byte, 3> short_data{std::byte{1}, std::byte{2}, std::byte{3}};
  const std::array<std::byte, 8> index_data{};
  const service_context two[] = {{0x0b, short_data}, {0x53590001, index_data}};
  for (std::uint8_t minor = 0; minor <= 2; ++minor) {
    for (std::size_t contexts = 0; contexts <= 2; ++contexts) {
      for (std::string_view key : {"", "k", "key1", "a longer object key!"}) {
        for (std::string_view operation : {"a", "op", "sendNoParams_2way"}) {
          for (bool with_body : {false, true}) {
            CAPTURE(minor, contexts, key, operation, with_body);
            cdr::output_stream out;
            request_fields fields;
            fields.request_id = 0x01020304;
            fields.response_flags = with_body ? response_flags::with_target : response_flags::none;
            fields.target = target_address::by_key(bytes_of(key));
            fields.operation = operation;
            fields.service_contexts = {two, contexts};
            const protocol& impl = *protocol_for(minor);
            auto mark = impl.begin_request(out, fields);
            if (with_body) out.write_double(4.25);
            auto message = make_message_view(protocol::finish(out, mark));
            request_header plain;
            const bool taken = decode_plain_request(message, plain);
            CHECK(taken == (minor == 2));
            if (!taken) continue;
            check_same_request(plain, impl.decode_request(message));
            if (with_body) CHECK(plain.body.read_double() == 4.25);

            // Every truncation and every corrupted length: the plain decoder declines whatever
            // the general one refuses, and agrees where both accept.
            std::vector<std::byte> bytes(message.bytes.begin(), message.bytes.end());
            for (std::size_t cut = header_size; cut < bytes.size(); ++cut) {
              message_view shorter{message.header, std::span<const std::byte>(bytes).first(cut)};
              shorter.header.body_size = static_cast<std::uint32_t>(cut - header_size);
              request_header p;
              auto full = general_request(shorter);
              if (decode_plain_request(shorter, p)) {
                REQUIRE(full);
                check_same_request(p, *full);
              }
            }
            for (std::size_t at = header_size; at + 4 <= bytes.size(); ++at) {
              for (std::uint32_t bad : {0u, 0x7fffffffu, 0xffffffffu, 9u}) {
                auto corrupted = bytes;
                cdr::store(corrupted.data() + at, bad);
                message_view m{message.header, corrupted};
                request_header p;
                auto full = general_request(m);
                if (decode_plain_request(m, p)) {
                  REQUIRE(full);
                  check_same_request(p, *full);
                }
              }
            }
          }
        }
      }
    }
  }
}

TEST_CASE("decode_plain_request leaves other addressing and byte orders to decode_request", "[giop][decode]") {
  // GIOP 1.2 Request, big-endian, KeyAddr: valid, but not native.
  auto big_endian = from_hex(
      "47 49 4f 50 01 02 00 00 00 00 00 20"
      "00 00 00 05 03 00 00 00 00 00 00 00 00 00 00 01 6b 00 00 00 00 00 00 02 61 00"
      "00 00 00 00 00 00");  // padding, no service contexts
  auto big = make_message_view(big_endian);
  request_header ignored;
  CHECK_FALSE(decode_plain_request(big, ignored));
  CHECK(general_request(big).has_value());
}
