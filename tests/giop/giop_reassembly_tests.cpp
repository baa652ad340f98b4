// Fragment reassembly: 1.1 (continues the one message in progress) and 1.2 (fragments name their
// request and interleave), limits, cancellation, and every protocol error.
#include "orb/giop/reassembler.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "tests/cdr/hex.h"

using namespace switchyard;
using namespace switchyard::giop;
using switchyard::test::from_hex;
using switchyard::test::to_hex;

namespace {

auto marshal_with(std::uint32_t minor_code) {
  return Catch::Predicate<SystemException>(
      [minor_code](const SystemException& e) {
        return e.kind() == SystemExceptionKind::MARSHAL && e.minor() == minor_code;
      },
      "MARSHAL with minor " + std::to_string(minor_code));
}

// Keeps the bytes of each message alive for the views fed to the reassembler.
struct messages {
  std::vector<std::vector<std::byte>> store;
  message_view add(std::string_view hex) {
    store.push_back(from_hex(hex));
    return make_message_view(store.back());
  }
};

}  // namespace

TEST_CASE("Unfragmented messages pass through without a copy", "[giop][fragment]") {
  messages m;
  reassembler r(giop_1_2());
  message_view close = m.add("47 49 4f 50 01 02 00 05 00 00 00 00");
  auto result = r.feed(close);
  CHECK(result.what == reassembler::outcome::complete);
  CHECK(result.message.bytes.data() == close.bytes.data());
}

TEST_CASE("GIOP 1.2: interleaved fragments of two requests, big-endian", "[giop][fragment]") {
  messages m;
  reassembler r(giop_1_2());
  // Request 5: id, flags, KeyAddr key "kkkkkkkk", operation "o", no contexts = 36 octets, so the
  // first message ends on 8; the body continues in Fragments. Request 6 the same, little-endian.
  auto first5 = m.add("47 49 4f 50 01 02 02 00 00 00 00 24"
                      "00 00 00 05 03 00 00 00 00 00 00 00 00 00 00 08 6b 6b 6b 6b 6b 6b 6b 6b"
                      "00 00 00 02 6f 00 00 00 00 00 00 00");
  auto first6 = m.add("47 49 4f 50 01 02 03 00 24 00 00 00"
                      "06 00 00 00 03 00 00 00 00 00 00 00 08 00 00 00 6b 6b 6b 6b 6b 6b 6b 6b"
                      "02 00 00 00 6f 00 00 00 00 00 00 00");
  auto frag5a = m.add("47 49 4f 50 01 02 02 07 00 00 00 0c 00 00 00 05 00 00 00 00 00 00 00 00");
  auto frag6 = m.add("47 49 4f 50 01 02 01 07 0c 00 00 00 06 00 00 00 2a 00 00 00 00 00 00 00");
  auto frag5b = m.add("47 49 4f 50 01 02 00 07 00 00 00 08 00 00 00 05 00 00 00 11");

  CHECK(r.feed(first5).what == reassembler::outcome::pending);
  CHECK(r.feed(first6).what == reassembler::outcome::pending);
  CHECK(r.partial_count() == 2);
  CHECK(r.feed(frag5a).what == reassembler::outcome::pending);

  auto done6 = r.feed(frag6);
  REQUIRE(done6.what == reassembler::outcome::complete);
  CHECK_FALSE(done6.message.header.more_fragments);
  CHECK(done6.message.header.body_size == 0x2c);
  CHECK(static_cast<unsigned>(done6.message.bytes[6]) == 0x01);  // more-fragments bit cleared
  CHECK(static_cast<unsigned>(done6.message.bytes[8]) == 0x2c);  // size patched, little-endian
  request_header h6 = giop_1_2().decode_request(done6.message);
  CHECK(h6.request_id == 6);
  CHECK(h6.body.read_ulong() == 42);

  auto done5 = r.feed(frag5b);
  REQUIRE(done5.what == reassembler::outcome::complete);
  CHECK(to_hex(done5.message.bytes.first(12)) == "47 49 4f 50 01 02 00 00 00 00 00 30");
  request_header h5 = giop_1_2().decode_request(done5.message);
  CHECK(h5.request_id == 5);
  CHECK(h5.operation == "o");
  CHECK(h5.body.read_ulonglong() == 0);
  CHECK(h5.body.read_ulong() == 0x11);
  CHECK(r.partial_count() == 0);
  CHECK(r.buffered_size() == 0);
}

TEST_CASE("GIOP 1.1: a Fragment continues the message in progress", "[giop][fragment]") {
  messages m;
  reassembler r(giop_1_1());
  // A Reply cut after its header: contexts 0, id 3, NO_EXCEPTION; then a Fragment with a ulong
  // and a last empty Fragment.
  CHECK(r.feed(m.add("47 49 4f 50 01 01 02 01 00 00 00 0c 00 00 00 00 00 00 00 03 00 00 00 00")).what ==
        reassembler::outcome::pending);
  // Other messages may come in between (here a CancelRequest for another request).
  auto cancel = m.add("47 49 4f 50 01 01 00 02 00 00 00 04 00 00 00 09");
  CHECK(r.feed(cancel).what == reassembler::outcome::complete);
  CHECK(r.partial_count() == 1);
  CHECK(r.feed(m.add("47 49 4f 50 01 01 02 07 00 00 00 04 00 00 00 2a")).what ==
        reassembler::outcome::pending);
  auto done = r.feed(m.add("47 49 4f 50 01 01 00 07 00 00 00 00"));
  REQUIRE(done.what == reassembler::outcome::complete);
  reply_header h = giop_1_1().decode_reply(done.message);
  CHECK(h.request_id == 3);
  CHECK(h.body.read_ulong() == 42);
}

TEST_CASE("Reassembly errors", "[giop][fragment][errors]") {
  messages m;
  SECTION("a Fragment without a started message") {
    reassembler r12(giop_1_2());
    CHECK_THROWS_MATCHES(r12.feed(m.add("47 49 4f 50 01 02 00 07 00 00 00 04 00 00 00 05")),
                         SystemException, marshal_with(minor::bad_message));
    reassembler r11(giop_1_1());
    CHECK_THROWS_MATCHES(r11.feed(m.add("47 49 4f 50 01 01 00 07 00 00 00 04 00 00 00 05")),
                         SystemException, marshal_with(minor::bad_message));
  }
  SECTION("a 1.2 Fragment too short for its request id") {
    reassembler r(giop_1_2());
    CHECK_THROWS_MATCHES(r.feed(m.add("47 49 4f 50 01 02 00 07 00 00 00 02 00 00")),
                         SystemException, marshal_with(minor::read_past_end));
  }
  SECTION("1.0 has no fragments: the header decoder already refuses them") {
    auto bytes = from_hex("47 49 4f 50 01 00 00 07 00 00 00 00");
    CHECK(decode_header(bytes).status == header_status::unknown_type);
    CHECK_THROWS_MATCHES(make_message_view(bytes), SystemException, marshal_with(minor::bad_message));
  }
  SECTION("a fragmented message of another version than the connection") {
    reassembler r(giop_1_2());
    CHECK_THROWS_MATCHES(r.feed(m.add("47 49 4f 50 01 01 02 00 00 00 00 04 00 00 00 01")),
                         SystemException, marshal_with(minor::bad_message));
  }
  SECTION("a second 1.1 fragmented message before the first ended") {
    reassembler r(giop_1_1());
    r.feed(m.add("47 49 4f 50 01 01 02 00 00 00 00 04 00 00 00 00"));
    CHECK_THROWS_MATCHES(r.feed(m.add("47 49 4f 50 01 01 02 01 00 00 00 04 00 00 00 00")),
                         SystemException, marshal_with(minor::bad_message));
  }
  SECTION("a repeated 1.2 request id") {
    reassembler r(giop_1_2());
    r.feed(m.add("47 49 4f 50 01 02 02 00 00 00 00 04 00 00 00 01"));
    CHECK_THROWS_MATCHES(r.feed(m.add("47 49 4f 50 01 02 02 00 00 00 00 04 00 00 00 01")),
                         SystemException, marshal_with(minor::bad_message));
  }
  SECTION("a 1.2 fragment that does not end on 8") {
    reassembler r(giop_1_2());
    CHECK_THROWS_MATCHES(r.feed(m.add("47 49 4f 50 01 02 02 00 00 00 00 05 00 00 00 01 00")),
                         SystemException, marshal_with(minor::bad_message));
    r.feed(m.add("47 49 4f 50 01 02 02 00 00 00 00 04 00 00 00 01"));
    CHECK_THROWS_MATCHES(r.feed(m.add("47 49 4f 50 01 02 02 07 00 00 00 05 00 00 00 01 00")),
                         SystemException, marshal_with(minor::bad_message));
  }
  SECTION("a Fragment in another byte order than its message") {
    reassembler r(giop_1_2());
    r.feed(m.add("47 49 4f 50 01 02 02 00 00 00 00 04 00 00 00 01"));
    CHECK_THROWS_MATCHES(r.feed(m.add("47 49 4f 50 01 02 01 07 04 00 00 00 01 00 00 00")),
                         SystemException, marshal_with(minor::bad_message));
  }
}

TEST_CASE("Reassembly limits", "[giop][fragment][errors]") {
  messages m;
  SECTION("total size") {
    reassembler r(giop_1_2(), 36);
    r.feed(m.add("47 49 4f 50 01 02 02 00 00 00 00 0c 00 00 00 01 00 00 00 00 00 00 00 00"));
    r.feed(m.add("47 49 4f 50 01 02 02 07 00 00 00 0c 00 00 00 01 00 00 00 00 00 00 00 00"));
    CHECK(r.buffered_size() == 32);
    CHECK_THROWS_MATCHES(
        r.feed(m.add("47 49 4f 50 01 02 02 07 00 00 00 0c 00 00 00 01 00 00 00 00 00 00 00 00")),
        SystemException, marshal_with(minor::fragment_limit));
    CHECK(r.partial_count() == 0);  // the offending message is dropped
    CHECK(r.buffered_size() == 0);
    CHECK_THROWS_MATCHES(
        r.feed(m.add("47 49 4f 50 01 02 02 00 00 00 00 24 00 00 00 02 00 00 00 00 00 00 00 00"
                     "00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00")),
        SystemException, marshal_with(minor::fragment_limit));
  }
  SECTION("messages in progress") {
    reassembler r(giop_1_2(), reassembler::default_max_total_size, 2);
    r.feed(m.add("47 49 4f 50 01 02 02 00 00 00 00 04 00 00 00 01"));
    r.feed(m.add("47 49 4f 50 01 02 02 00 00 00 00 04 00 00 00 02"));
    CHECK_THROWS_MATCHES(r.feed(m.add("47 49 4f 50 01 02 02 00 00 00 00 04 00 00 00 03")),
                         SystemException, marshal_with(minor::fragment_limit));
  }
}

TEST_CASE("CancelRequest ends the reassembly of its request", "[giop][fragment]") {
  messages m;
  SECTION("1.2") {
    reassembler r(giop_1_2());
    r.feed(m.add("47 49 4f 50 01 02 02 00 00 00 00 04 00 00 00 01"));
    r.feed(m.add("47 49 4f 50 01 02 02 00 00 00 00 04 00 00 00 02"));
    auto result = r.feed(m.add("47 49 4f 50 01 02 00 02 00 00 00 04 00 00 00 01"));
    CHECK(result.what == reassembler::outcome::complete);  // the core sees the cancel too
    CHECK(r.partial_count() == 1);
    CHECK_THROWS_MATCHES(r.feed(m.add("47 49 4f 50 01 02 00 07 00 00 00 04 00 00 00 01")),
                         SystemException, marshal_with(minor::bad_message));
  }
  SECTION("1.1: the request in progress, known by its id or not yet") {
    reassembler r(giop_1_1());
    // contexts 0, request id 7, response expected, then cut
    r.feed(m.add("47 49 4f 50 01 01 02 00 00 00 00 0c 00 00 00 00 00 00 00 07 01 00 00 00"));
    r.feed(m.add("47 49 4f 50 01 01 00 02 00 00 00 04 00 00 00 08"));
    CHECK(r.partial_count() == 1);
    r.feed(m.add("47 49 4f 50 01 01 00 02 00 00 00 04 00 00 00 07"));
    CHECK(r.partial_count() == 0);
    r.feed(m.add("47 49 4f 50 01 01 02 00 00 00 00 04 00 00 00 00"));  // id not there yet
    r.feed(m.add("47 49 4f 50 01 01 00 02 00 00 00 04 00 00 00 08"));
    CHECK(r.partial_count() == 0);
  }
}
