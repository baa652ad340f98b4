// Byte-exact GIOP encoder tests: every message type in every version, checked octet by octet
// against hex written out by hand from CORBA 3.0 chapter 15 (this machine writes little-endian).
#include "orb/giop/protocol.h"

#include <catch2/catch.hpp>

#include <array>
#include <cstring>
#include <string>

#include "tests/cdr/hex.h"

using namespace switchyard;
using namespace switchyard::giop;
using switchyard::test::from_hex;
using switchyard::test::to_hex;

namespace {

static_assert(cdr::native_byte_order == cdr::byte_order::little_endian, "the expected hex below is little-endian");

std::span<const std::byte> bytes_of(const char* text) {
  return {reinterpret_cast<const std::byte*>(text), std::strlen(text)};
}

std::string hex_of(std::span<const std::byte> bytes) { return to_hex(bytes); }
std::string normalized(std::string_view hex) { return to_hex(from_hex(hex)); }

// Checks every octet (the hex strings name the first one that differs in Catch's output).
#define CHECK_BYTES(actual, expected_hex) CHECK(hex_of(actual) == normalized(expected_hex))

}  // namespace

TEST_CASE("GIOP 1.0 Request: contexts, id, response_expected, key, operation, principal", "[giop][encode]") {
  cdr::output_stream out;
  request_fields fields;
  fields.request_id = 5;
  fields.response_flags = response_flags::with_target;
  fields.target = target_address::by_key(bytes_of("key1"));
  fields.operation = "op";
  message_mark mark = giop_1_0().begin_request(out, fields);
  CHECK(mark.request_id_offset == 16);  // after the empty context list
  CHECK_BYTES(protocol::finish(out, mark),
              "47 49 4f 50 01 00 01 00 20 00 00 00"  // GIOP 1.0, little-endian, Request, 32
              "00 00 00 00"                          // no service contexts
              "05 00 00 00"                          // request id 5
              "01 00 00 00"                          // response_expected TRUE, padding
              "04 00 00 00 6b 65 79 31"              // object key "key1"
              "03 00 00 00 6f 70 00 00"              // operation "op", padding
              "00 00 00 00");                        // requesting_principal: empty
}

TEST_CASE("GIOP 1.1 Request writes 3 reserved octets; oneway is response_expected FALSE", "[giop][encode]") {
  cdr::output_stream out;
  request_fields fields;
  fields.request_id = 0x01020304;
  fields.response_flags = response_flags::none;
  fields.target = target_address::by_key(bytes_of("k"));
  fields.operation = "ping";
  const std::array<std::byte, 2> principal{std::byte{0xaa}, std::byte{0xbb}};
  fields.requesting_principal = principal;
  message_mark mark = giop_1_1().begin_request(out, fields);
  CHECK(mark.request_id_offset == 16);
  out.write_ulong(0xdeadbeef);  // one argument
  CHECK_BYTES(protocol::finish(out, mark),
              "47 49 4f 50 01 01 01 00 2c 00 00 00"
              "00 00 00 00"
              "04 03 02 01"
              "00 00 00 00"              // response_expected FALSE, reserved[3]
              "01 00 00 00 6b 00 00 00"  // key "k", padding
              "05 00 00 00 70 69 6e 67 00 00 00 00"
              "02 00 00 00 aa bb 00 00"  // principal, padding to the argument
              "ef be ad de");
}

TEST_CASE("GIOP 1.2 Request: KeyAddr, service context, body aligned to 8", "[giop][encode]") {
  cdr::output_stream out;
  const std::array<std::byte, 3> data{std::byte{1}, std::byte{2}, std::byte{3}};
  const service_context contexts[] = {{0x0b, data}};
  request_fields fields;
  fields.request_id = 5;
  fields.target = target_address::by_key(bytes_of("key1"));
  fields.operation = "op";
  fields.service_contexts = contexts;
  message_mark mark = giop_1_2().begin_request(out, fields);
  CHECK(mark.request_id_offset == 12);  // first in the 1.2 request header

  SECTION("with a body") {
    out.write_ulong(0x11223344);
    CHECK_BYTES(protocol::finish(out, mark),
                "47 49 4f 50 01 02 01 00 30 00 00 00"
                "05 00 00 00"                                   // request id
                "03 00 00 00"                                   // response_flags WITH_TARGET, reserved[3]
                "00 00 00 00"                                   // KeyAddr, padding
                "04 00 00 00 6b 65 79 31"                       // object key
                "03 00 00 00 6f 70 00 00"                       // operation, padding
                "01 00 00 00 0b 00 00 00 03 00 00 00 01 02 03"  // one context
                "00"                                            // padding to 8 (offset 56)
                "44 33 22 11");
  }
  SECTION("without a body the padding is dropped") {
    CHECK_BYTES(protocol::finish(out, mark),
                "47 49 4f 50 01 02 01 00 2b 00 00 00"
                "05 00 00 00 03 00 00 00 00 00 00 00"
                "04 00 00 00 6b 65 79 31 03 00 00 00 6f 70 00 00"
                "01 00 00 00 0b 00 00 00 03 00 00 00 01 02 03");
  }
}

TEST_CASE("GIOP 1.2 Request: ProfileAddr and ReferenceAddr", "[giop][encode]") {
  cdr::output_stream out;
  request_fields fields;
  fields.request_id = 1;
  fields.response_flags = response_flags::with_server;
  fields.operation = "op";

  SECTION("ProfileAddr re-marshals a big-endian profile view") {
    auto profile = from_hex("00 00 00 00 00 00 00 08 00 01 02 03 04 05 06 07");
    fields.target.disposition = addressing_disposition::profile_addr;
    fields.target.profile = cdr_view{profile, cdr::byte_order::big_endian, 0};
    message_mark mark = giop_1_2().begin_request(out, fields);
    CHECK_BYTES(protocol::finish(out, mark),
                "47 49 4f 50 01 02 01 00 28 00 00 00"
                "01 00 00 00 01 00 00 00"
                "01 00 00 00"  // ProfileAddr, padding
                "00 00 00 00"  // tag TAG_INTERNET_IOP
                "08 00 00 00 00 01 02 03 04 05 06 07"
                "03 00 00 00 6f 70 00 00"
                "00 00 00 00");  // no contexts; ends on 8
  }
  SECTION("ReferenceAddr: selected profile index and the IOR") {
    auto ior = from_hex(
        "0a 00 00 00 49 44 4c 3a 41 3a 31 2e 30 00 00 00"  // type id "IDL:A:1.0"
        "01 00 00 00 00 00 00 00 04 00 00 00 de ad be ef");
    fields.target.disposition = addressing_disposition::reference_addr;
    fields.target.selected_profile_index = 0;
    fields.target.ior = cdr_view{ior, cdr::byte_order::little_endian, 0};
    message_mark mark = giop_1_2().begin_request(out, fields);
    CHECK_BYTES(protocol::finish(out, mark),
                "47 49 4f 50 01 02 01 00 3c 00 00 00"
                "01 00 00 00 01 00 00 00"
                "02 00 00 00"  // ReferenceAddr, padding
                "00 00 00 00"  // selected_profile_index
                "0a 00 00 00 49 44 4c 3a 41 3a 31 2e 30 00 00 00"
                "01 00 00 00 00 00 00 00 04 00 00 00 de ad be ef"
                "03 00 00 00 6f 70 00 00"
                "00 00 00 00");
  }
}

TEST_CASE("Replies in each version", "[giop][encode]") {
  cdr::output_stream out;
  SECTION("1.0 SYSTEM_EXCEPTION with the exception body") {
    message_mark mark = giop_1_0().begin_reply(out, 9, reply_status::system_exception);
    write_system_exception(out, SystemException(SystemExceptionKind::MARSHAL, 0x53590009, CompletionStatus::maybe));
    CHECK_BYTES(protocol::finish(out, mark),
                "47 49 4f 50 01 00 01 01 38 00 00 00"
                "00 00 00 00 09 00 00 00 02 00 00 00"
                "1e 00 00 00"
                "49 44 4c 3a 6f 6d 67 2e 6f 72 67 2f 43 4f 52 42 41 2f"  // IDL:omg.org/CORBA/
                "4d 41 52 53 48 41 4c 3a 31 2e 30 00"                    // MARSHAL:1.0
                "00 00"                                                  // padding
                "09 00 59 53 02 00 00 00");                              // minor, COMPLETED_MAYBE
  }
  SECTION("1.1 NO_EXCEPTION with a service context") {
    const std::array<std::byte, 1> data{std::byte{0}};
    const service_context contexts[] = {{1, data}};
    message_mark mark = giop_1_1().begin_reply(out, 2, reply_status::no_exception, contexts);
    out.write_octet(7);
    CHECK_BYTES(protocol::finish(out, mark),
                "47 49 4f 50 01 01 01 01 19 00 00 00"
                "01 00 00 00 01 00 00 00 01 00 00 00 00 00 00 00"
                "02 00 00 00 00 00 00 00 07");
  }
  SECTION("1.2 NO_EXCEPTION, the precomputed 24-octet header") {
    message_mark mark = giop_1_2().begin_reply(out, 7, reply_status::no_exception);
    out.write_ulong(42);
    CHECK_BYTES(protocol::finish(out, mark),
                "47 49 4f 50 01 02 01 01 10 00 00 00"
                "07 00 00 00 00 00 00 00 00 00 00 00 2a 00 00 00");
  }
  SECTION("1.2 with a context: body padded to 8; void reply drops the padding") {
    const std::array<std::byte, 2> data{std::byte{1}, std::byte{2}};
    const service_context contexts[] = {{0x53590001, data}};
    message_mark mark = giop_1_2().begin_reply(out, 7, reply_status::user_exception, contexts);
    auto with_body_start = mark;
    out.write_string("IDL:E:1.0");
    CHECK_BYTES(protocol::finish(out, with_body_start),
                "47 49 4f 50 01 02 01 01 2a 00 00 00"
                "07 00 00 00 01 00 00 00"
                "01 00 00 00 01 00 59 53 02 00 00 00 01 02"
                "00 00 00 00 00 00"  // padding to offset 40
                "0a 00 00 00 49 44 4c 3a 45 3a 31 2e 30 00");
    out.reset();
    mark = giop_1_2().begin_reply(out, 7, reply_status::no_exception, contexts);
    CHECK_BYTES(protocol::finish(out, mark),
                "47 49 4f 50 01 02 01 01 16 00 00 00"
                "07 00 00 00 00 00 00 00"
                "01 00 00 00 01 00 59 53 02 00 00 00 01 02");
  }
  SECTION("1.2 LOCATION_FORWARD_PERM and NEEDS_ADDRESSING_MODE") {
    message_mark mark = giop_1_2().begin_reply(out, 3, reply_status::needs_addressing_mode);
    write_addressing_disposition(out, addressing_disposition::reference_addr);
    CHECK_BYTES(protocol::finish(out, mark),
                "47 49 4f 50 01 02 01 01 0e 00 00 00"
                "03 00 00 00 05 00 00 00 00 00 00 00 02 00");
    out.reset();
    mark = giop_1_2().begin_reply(out, 3, reply_status::location_forward_perm);
    CHECK_BYTES(protocol::finish(out, mark),
                "47 49 4f 50 01 02 01 01 0c 00 00 00"
                "03 00 00 00 04 00 00 00 00 00 00 00");
  }
}

TEST_CASE("LocateRequest and LocateReply in each version", "[giop][encode]") {
  cdr::output_stream out;
  auto key = target_address::by_key(bytes_of("key1"));
  SECTION("1.0 LocateRequest: id and object key") {
    auto mark = giop_1_0().begin_locate_request(out, 3, key);
    CHECK_BYTES(protocol::finish(out, mark), "47 49 4f 50 01 00 01 03 0c 00 00 00 03 00 00 00 04 00 00 00 6b 65 79 31");
  }
  SECTION("1.1 LocateReply OBJECT_HERE") {
    auto mark = giop_1_1().begin_locate_reply(out, 3, locate_status::object_here);
    CHECK_BYTES(protocol::finish(out, mark), "47 49 4f 50 01 01 01 04 08 00 00 00 03 00 00 00 01 00 00 00");
  }
  SECTION("1.2 LocateRequest: TargetAddress") {
    auto mark = giop_1_2().begin_locate_request(out, 3, key);
    CHECK_BYTES(protocol::finish(out, mark),
                "47 49 4f 50 01 02 01 03 10 00 00 00"
                "03 00 00 00 00 00 00 00 04 00 00 00 6b 65 79 31");
  }
  SECTION("1.2 LocateReply body follows at offset 20, not 8-aligned") {
    auto mark = giop_1_2().begin_locate_reply(out, 3, locate_status::loc_needs_addressing_mode);
    write_addressing_disposition(out, addressing_disposition::profile_addr);
    CHECK_BYTES(protocol::finish(out, mark), "47 49 4f 50 01 02 01 04 0a 00 00 00 03 00 00 00 05 00 00 00 01 00");
    out.reset();
    mark = giop_1_2().begin_locate_reply(out, 4, locate_status::loc_system_exception);
    write_system_exception(out, "IDL:omg.org/CORBA/OBJECT_NOT_EXIST:1.0", 1, CompletionStatus::no);
    CHECK_BYTES(protocol::finish(out, mark),
                "47 49 4f 50 01 02 01 04 3c 00 00 00 04 00 00 00 04 00 00 00"
                "27 00 00 00 49 44 4c 3a 6f 6d 67 2e 6f 72 67 2f 43 4f 52 42 41 2f"
                "4f 42 4a 45 43 54 5f 4e 4f 54 5f 45 58 49 53 54 3a 31 2e 30 00 00"
                "01 00 00 00 01 00 00 00");
  }
}

TEST_CASE("CancelRequest, CloseConnection, MessageError, Fragment", "[giop][encode]") {
  cdr::output_stream out;
  CHECK_BYTES(protocol::finish(out, giop_1_0().begin_cancel_request(out, 0x11)),
              "47 49 4f 50 01 00 01 02 04 00 00 00 11 00 00 00");
  out.reset();
  CHECK_BYTES(protocol::finish(out, giop_1_2().begin_close_connection(out)), "47 49 4f 50 01 02 01 05 00 00 00 00");
  out.reset();
  CHECK_BYTES(protocol::finish(out, highest_protocol().begin_message_error(out)),
              "47 49 4f 50 01 02 01 06 00 00 00 00");
  out.reset();
  CHECK_BYTES(protocol::finish(out, giop_1_0().begin_message_error(out)), "47 49 4f 50 01 00 01 06 00 00 00 00");
  out.reset();
  SECTION("1.1 Fragment: data right after the header, more-fragments bit") {
    auto mark = giop_1_1().begin_fragment(out, 99);
    out.write_ulong(0x0a0b0c0d);
    giop_1_1().set_more_fragments(out, mark, message_type::fragment);
    CHECK_BYTES(protocol::finish(out, mark), "47 49 4f 50 01 01 03 07 04 00 00 00 0d 0c 0b 0a");
  }
  SECTION("1.2 Fragment: the request id, then data at offset 16") {
    auto mark = giop_1_2().begin_fragment(out, 5);
    out.write_double(1.0);
    CHECK_BYTES(protocol::finish(out, mark), "47 49 4f 50 01 02 01 07 0c 00 00 00 05 00 00 00 00 00 00 00 00 00 f0 3f");
  }
  SECTION("1.2 Request with the more-fragments bit") {
    request_fields fields;
    fields.request_id = 5;
    fields.target = target_address::by_key(bytes_of("k"));
    fields.operation = "o";
    auto mark = giop_1_2().begin_request(out, fields);
    giop_1_2().set_more_fragments(out, mark, message_type::request);
    CHECK(static_cast<unsigned>(protocol::finish(out, mark)[6]) == 0x03);
  }
}

TEST_CASE("Encoder misuse raises MARSHAL bad_message", "[giop][encode][errors]") {
  cdr::output_stream out;
  auto is_bad_message = [](const SystemException& e) {
    return e.kind() == SystemExceptionKind::MARSHAL && e.minor() == minor::bad_message;
  };
  request_fields fields;
  fields.target.disposition = addressing_disposition::profile_addr;
  CHECK_THROWS_MATCHES(giop_1_0().begin_request(out, fields), SystemException,
                       Catch::Predicate<SystemException>(is_bad_message));
  CHECK_THROWS_MATCHES(giop_1_1().begin_locate_request(out, 1, fields.target), SystemException,
                       Catch::Predicate<SystemException>(is_bad_message));
  CHECK_THROWS_MATCHES(giop_1_1().begin_reply(out, 1, reply_status::location_forward_perm), SystemException,
                       Catch::Predicate<SystemException>(is_bad_message));
  CHECK_THROWS_MATCHES(giop_1_0().begin_locate_reply(out, 1, locate_status::loc_system_exception), SystemException,
                       Catch::Predicate<SystemException>(is_bad_message));
  CHECK_THROWS_MATCHES(giop_1_0().begin_fragment(out, 1), SystemException,
                       Catch::Predicate<SystemException>(is_bad_message));
  out.reset();
  auto mark = giop_1_2().begin_cancel_request(out, 1);
  CHECK_THROWS_MATCHES(giop_1_2().set_more_fragments(out, mark, message_type::cancel_request), SystemException,
                       Catch::Predicate<SystemException>(is_bad_message));
  CHECK_THROWS_MATCHES(giop_1_1().set_more_fragments(out, mark, message_type::locate_request), SystemException,
                       Catch::Predicate<SystemException>(is_bad_message));
}

TEST_CASE("A message written after other data keeps its own alignment origin", "[giop][encode]") {
  cdr::output_stream out;
  out.write_octet(0xff);  // e.g. the tail of a previous message in the same buffer
  auto mark = giop_1_2().begin_reply(out, 7, reply_status::no_exception);
  out.write_double(2.0);
  CHECK(mark.header_offset == 1);
  CHECK_BYTES(protocol::finish(out, mark),
              "47 49 4f 50 01 02 01 01 14 00 00 00"
              "07 00 00 00 00 00 00 00 00 00 00 00"  // id, status, no contexts: offset 24
              "00 00 00 00 00 00 00 40");            // 2.0, 8-aligned from the message start
}

TEST_CASE("begin_plain_reply writes what begin_reply writes for NO_EXCEPTION", "[giop][encode]") {
  for (std::uint8_t minor = 0; minor <= 2; ++minor) {
    CAPTURE(minor);
    const protocol& impl = *protocol_for(minor);
    for (bool with_body : {false, true}) {
      cdr::output_stream plain, full;
      plain.write_octet(9);  // not at the stream's start: the message is its own origin
      full.write_octet(9);
      message_mark plain_mark = impl.begin_plain_reply(plain, 0x0a0b0c0d);
      message_mark full_mark = impl.begin_reply(full, 0x0a0b0c0d, reply_status::no_exception);
      CHECK(plain_mark.header_offset == full_mark.header_offset);
      CHECK(plain_mark.headers_end == full_mark.headers_end);
      CHECK(plain_mark.body_start == full_mark.body_start);
      if (with_body) {
        plain.write_double(1.5);
        full.write_double(1.5);
      }
      CHECK(hex_of(protocol::finish(plain, plain_mark)) == hex_of(protocol::finish(full, full_mark)));
    }
  }
}
