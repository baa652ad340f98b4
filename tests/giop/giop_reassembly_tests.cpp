// Fragment reassembly: 1.1 (continues the one message in progress) and 1.2 (fragments name their
// request and interleave), limits, cancellation, and every protocol error.
#include "orb/giop/reassembler.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>

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
  auto first5 = m.add(
      "47 49 4f 50 01 02 02 00 00 00 00 24"
      "00 00 00 05 03 00 00 00 00 00 00 00 00 00 00 08 6b 6b 6b 6b 6b 6b 6b 6b"
      "00 00 00 02 6f 00 00 00 00 00 00 00");
  auto first6 = m.add(
      "47 49 4f 50 01 02 03 00 24 00 00 00"
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
  CHECK(r.feed(m.add("47 49 4f 50 01 01 02 07 00 00 00 04 00 00 00 2a")).what == reassembler::outcome::pending);
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
    CHECK_THROWS_MATCHES(r12.feed(m.add("47 49 4f 50 01 02 00 07 00 00 00 04 00 00 00 05")), SystemException,
                         marshal_with(minor::bad_message));
    reassembler r11(giop_1_1());
    CHECK_THROWS_MATCHES(r11.feed(m.add("47 49 4f 50 01 01 00 07 00 00 00 04 00 00 00 05")), SystemException,
                         marshal_with(minor::bad_message));
  }
  SECTION("a 1.2 Fragment too short for its request id") {
    reassembler r(giop_1_2());
    CHECK_THROWS_MATCHES(r.feed(m.add("47 49 4f 50 01 02 00 07 00 00 00 02 00 00")), SystemException,
                         marshal_with(minor::read_past_end));
  }
  SECTION("1.0 has no fragments: the header decoder already refuses them") {
    auto bytes = from_hex("47 49 4f 50 01 00 00 07 00 00 00 00");
    CHECK(decode_header(bytes).status == header_status::unknown_type);
    CHECK_THROWS_MATCHES(make_message_view(bytes), SystemException, marshal_with(minor::bad_message));
  }
  SECTION("a fragmented message of another version than the connection") {
    reassembler r(giop_1_2());
    CHECK_THROWS_MATCHES(r.feed(m.add("47 49 4f 50 01 01 02 00 00 00 00 04 00 00 00 01")), SystemException,
                         marshal_with(minor::bad_message));
  }
  SECTION("a second 1.1 fragmented message before the first ended") {
    reassembler r(giop_1_1());
    r.feed(m.add("47 49 4f 50 01 01 02 00 00 00 00 04 00 00 00 00"));
    CHECK_THROWS_MATCHES(r.feed(m.add("47 49 4f 50 01 01 02 01 00 00 00 04 00 00 00 00")), SystemException,
                         marshal_with(minor::bad_message));
  }
  SECTION("a repeated 1.2 request id") {
    reassembler r(giop_1_2());
    r.feed(m.add("47 49 4f 50 01 02 02 00 00 00 00 04 00 00 00 01"));
    CHECK_THROWS_MATCHES(r.feed(m.add("47 49 4f 50 01 02 02 00 00 00 00 04 00 00 00 01")), SystemException,
                         marshal_with(minor::bad_message));
  }
  SECTION("a 1.2 fragment that does not end on 8") {
    reassembler r(giop_1_2());
    CHECK_THROWS_MATCHES(r.feed(m.add("47 49 4f 50 01 02 02 00 00 00 00 05 00 00 00 01 00")), SystemException,
                         marshal_with(minor::bad_message));
    r.feed(m.add("47 49 4f 50 01 02 02 00 00 00 00 04 00 00 00 01"));
    CHECK_THROWS_MATCHES(r.feed(m.add("47 49 4f 50 01 02 02 07 00 00 00 05 00 00 00 01 00")), SystemException,
                         marshal_with(minor::bad_message));
  }
  SECTION("a Fragment in another byte order than its message") {
    reassembler r(giop_1_2());
    r.feed(m.add("47 49 4f 50 01 02 02 00 00 00 00 04 00 00 00 01"));
    CHECK_THROWS_MATCHES(r.feed(m.add("47 49 4f 50 01 02 01 07 04 00 00 00 01 00 00 00")), SystemException,
                         marshal_with(minor::bad_message));
  }
}

TEST_CASE("Reassembly limits", "[giop][fragment][errors]") {
  messages m;
  SECTION("total size") {
    reassembler r(giop_1_2(), 36);
    r.feed(m.add("47 49 4f 50 01 02 02 00 00 00 00 0c 00 00 00 01 00 00 00 00 00 00 00 00"));
    r.feed(m.add("47 49 4f 50 01 02 02 07 00 00 00 0c 00 00 00 01 00 00 00 00 00 00 00 00"));
    CHECK(r.buffered_size() == 32);
    CHECK_THROWS_MATCHES(r.feed(m.add("47 49 4f 50 01 02 02 07 00 00 00 0c 00 00 00 01 00 00 00 00 00 00 00 00")),
                         SystemException, marshal_with(minor::fragment_limit));
    CHECK(r.partial_count() == 0);  // the offending message is dropped
    CHECK(r.buffered_size() == 0);
    CHECK_THROWS_MATCHES(r.feed(m.add("47 49 4f 50 01 02 02 00 00 00 00 24 00 00 00 02 00 00 00 00 00 00 00 00"
                                      "00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00")),
                         SystemException, marshal_with(minor::fragment_limit));
  }
  SECTION("messages in progress") {
    reassembler r(giop_1_2(), reassembler::default_max_total_size, 2);
    r.feed(m.add("47 49 4f 50 01 02 02 00 00 00 00 04 00 00 00 01"));
    r.feed(m.add("47 49 4f 50 01 02 02 00 00 00 00 04 00 00 00 02"));
    CHECK_THROWS_MATCHES(r.feed(m.add("47 49 4f 50 01 02 02 00 00 00 00 04 00 00 00 03")), SystemException,
                         marshal_with(minor::fragment_limit));
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
    CHECK_THROWS_MATCHES(r.feed(m.add("47 49 4f 50 01 02 00 07 00 00 00 04 00 00 00 01")), SystemException,
                         marshal_with(minor::bad_message));
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

// --- GIOP 1.1 fragments and alignment (docs/design.md, "GIOP 1.1 fragments").
//
// A 1.1 Fragment's data is aligned relative to the Fragment and starts at its offset 12
// (CORBA 3.0, 15.4.9). Appended to the message, it keeps its alignment only at a message offset of
// 12 modulo 8; elsewhere the reassembled message ends where that Fragment's data begins.

TEST_CASE("GIOP 1.1: a boundary at 4 modulo 8 keeps the alignment", "[giop][fragment][alignment]") {
  messages m;
  reassembler r(giop_1_1());
  // Reply (contexts 0, id 3, NO_EXCEPTION), a ulong 7: 28 octets. The Fragment's data is aligned
  // as from its offset 12: 4 octets of padding, then the double 2.5 at its offset 16.
  CHECK(r.feed(m.add("47 49 4f 50 01 01 03 01 10 00 00 00 00 00 00 00 03 00 00 00 00 00 00 00"
                     "07 00 00 00"))
            .what == reassembler::outcome::pending);
  auto done = r.feed(m.add("47 49 4f 50 01 01 01 07 0c 00 00 00 ee ee ee ee 00 00 00 00 00 00 04 40"));
  REQUIRE(done.what == reassembler::outcome::complete);
  CHECK(done.message.fragments == nullptr);  // read as one message
  CHECK(to_hex(done.message.bytes) ==
        "47 49 4f 50 01 01 01 01 1c 00 00 00 00 00 00 00 03 00 00 00 00 00 00 00 "
        "07 00 00 00 ee ee ee ee 00 00 00 00 00 00 04 40");
  reply_header h = giop_1_1().decode_reply(done.message);
  CHECK(h.body.read_ulong() == 7);
  CHECK(h.body.read_double() == 2.5);
  CHECK(h.body.at_end());
}

TEST_CASE("GIOP 1.1: a boundary inside padding", "[giop][fragment][alignment]") {
  messages m;
  reassembler r(giop_1_1());
  // An octet 0x11 and 3 of the 7 padding octets before a double end the Reply at 28; the Fragment
  // pads again from its own offset 12 to 16, where the double 2.5 stands.
  r.feed(
      m.add("47 49 4f 50 01 01 03 01 10 00 00 00 00 00 00 00 03 00 00 00 00 00 00 00"
            "11 ee ee ee"));
  auto done = r.feed(m.add("47 49 4f 50 01 01 01 07 0c 00 00 00 ee ee ee ee 00 00 00 00 00 00 04 40"));
  REQUIRE(done.what == reassembler::outcome::complete);
  CHECK(done.message.fragments == nullptr);
  reply_header h = giop_1_1().decode_reply(done.message);
  CHECK(h.body.read_octet() == 0x11);
  CHECK(h.body.read_double() == 2.5);
}

TEST_CASE("GIOP 1.1: after a boundary at 8 modulo 8 the Fragment's data is realigned", "[giop][fragment][alignment]") {
  messages m;
  reassembler r(giop_1_1());
  // omniORB's layout: a Reply of 32 octets (a ulong 7 and its 4 octets of padding before a
  // double), then a Fragment: 4 octets of padding from its offset 12, the double 42.0 at 16.
  // Appended at offset 32, the Fragment's offset 12 lands on an 8-aligned offset: a reader of the
  // whole message would take the padding as half the double. The body stream realigns at the
  // boundary, as omniORB's reader does.
  r.feed(
      m.add("47 49 4f 50 01 01 03 01 14 00 00 00 00 00 00 00 03 00 00 00 00 00 00 00"
            "07 00 00 00 ee ee ee ee"));
  auto done = r.feed(m.add("47 49 4f 50 01 01 01 07 0c 00 00 00 00 00 00 00 00 00 00 00 00 00 45 40"));
  REQUIRE(done.what == reassembler::outcome::complete);
  REQUIRE(done.message.fragments != nullptr);
  CHECK(to_hex(done.message.bytes.first(12)) == "47 49 4f 50 01 01 01 01 20 00 00 00");
  reply_header h = giop_1_1().decode_reply(done.message);
  CHECK(h.body.read_ulong() == 7);
  CHECK(h.body.read_double() == 42.0);
  CHECK(h.body.at_end());
  CHECK(r.partial_count() == 0);
  CHECK(r.buffered_size() == 0);
}

TEST_CASE("GIOP 1.1: a long split across fragments is refused", "[giop][fragment][alignment]") {
  messages m;
  reassembler r(giop_1_1());
  // The long 0x01020304 with 2 octets in the Reply and 2 in the Fragment, then a ulong 5: the spec
  // never splits a primitive, and the Fragment's data lands 2 octets off its alignment (read as a
  // Fragment of its own, it would be a short 0x0102, padding, and 5).
  r.feed(m.add("47 49 4f 50 01 01 03 01 0e 00 00 00 00 00 00 00 03 00 00 00 00 00 00 00 04 03"));
  auto done = r.feed(m.add("47 49 4f 50 01 01 01 07 08 00 00 00 02 01 00 00 05 00 00 00"));
  REQUIRE(done.what == reassembler::outcome::complete);
  reply_header h = giop_1_1().decode_reply(done.message);
  CHECK_THROWS_MATCHES(h.body.read_ulong(), SystemException, marshal_with(minor::split_between_chunks));
}

TEST_CASE("GIOP 1.1: a double split at 4 modulo 8 reads on", "[giop][fragment][alignment]") {
  messages m;
  reassembler r(giop_1_1());
  // omniORB's bulk arrays split an 8-octet element where a Fragment ends (giopImpl11's
  // copyOutputData). At a message offset of 4 modulo 8 the halves meet where they belong and no
  // aligned value could have been meant: the double 2.5 reads whole.
  r.feed(m.add("47 49 4f 50 01 01 03 01 10 00 00 00 00 00 00 00 03 00 00 00 00 00 00 00 00 00 00 00"));
  auto done = r.feed(m.add("47 49 4f 50 01 01 01 07 04 00 00 00 00 00 04 40"));
  REQUIRE(done.what == reassembler::outcome::complete);
  CHECK(done.message.fragments == nullptr);
  reply_header h = giop_1_1().decode_reply(done.message);
  CHECK(h.body.read_double() == 2.5);
}

namespace {

// A 1.1 Reply (contexts 0, request id 3, NO_EXCEPTION) of `first` body octets, then a Fragment
// with `rest`, as omniORB cuts them (its messages are multiples of 8 long).
reassembler::result omni_cut(messages& m, reassembler& r, std::string_view first, std::string_view rest) {
  const auto head = from_hex(first), tail = from_hex(rest);
  auto hex_size = [](std::size_t n) {
    std::string out;
    for (int i = 0; i < 4; ++i) out += to_hex(std::vector<std::byte>{static_cast<std::byte>(n >> (8 * i))}) + " ";
    return out;
  };
  r.feed(m.add("47 49 4f 50 01 01 03 01 " + hex_size(12 + head.size()) + "00 00 00 00 03 00 00 00 00 00 00 00 " +
               std::string(first)));
  return r.feed(m.add("47 49 4f 50 01 01 01 07 " + hex_size(tail.size()) + std::string(rest)));
}

}  // namespace

TEST_CASE("GIOP 1.1: arrays, strings and structs across a realigned boundary", "[giop][fragment][alignment]") {
  messages m;
  reassembler r(giop_1_1());
  SECTION("longs and shorts continue at the Fragment's offset 12, as one block or one by one") {
    // A sequence of 4 longs (3 before the boundary at message offset 40), then 3 shorts.
    auto done =
        omni_cut(m, r, "04 00 00 00 0a 00 00 00 0b 00 00 00 0c 00 00 00", "0d 00 00 00 03 00 00 00 01 00 02 00 03 00");
    REQUIRE(done.message.fragments != nullptr);
    reply_header h = giop_1_1().decode_reply(done.message);
    std::vector<std::int32_t> longs;
    h.body.read_sequence(longs);
    CHECK(longs == std::vector<std::int32_t>{10, 11, 12, 13});
    std::vector<std::int16_t> shorts;
    h.body.read_sequence(shorts);
    CHECK(shorts == std::vector<std::int16_t>{1, 2, 3});
    CHECK(h.body.at_end());
  }
  SECTION("a string's characters join octet for octet") {
    auto done = omni_cut(m, r, "0c 00 00 00 68 65 6c 6c", "6f 20 77 6f 72 6c 64 00");
    REQUIRE(done.message.fragments != nullptr);
    reply_header h = giop_1_1().decode_reply(done.message);
    CHECK(h.body.read_string() == "hello world");
    CHECK(h.body.at_end());
  }
  SECTION("a struct of a long and a double, read with its layout, member by member") {
    // {long 5; double 1.5} twice: the second's double after the boundary, padded from offset 12.
    auto done = omni_cut(m, r, "05 00 00 00 ee ee ee ee 00 00 00 00 00 00 f8 3f 06 00 00 00 ee ee ee ee",
                         "ee ee ee ee 00 00 00 00 00 00 04 40");
    REQUIRE(done.message.fragments != nullptr);
    reply_header h = giop_1_1().decode_reply(done.message);
    static constexpr cdr::struct_leaf leaves[] = {{0, 4}, {8, 8}};
    const cdr::struct_layout layout{leaves, 16};
    const std::byte* p = h.body.take_aligned(8, 32, layout);
    CHECK(cdr::load<std::int32_t>(p, h.body.swapping()) == 5);
    CHECK(cdr::load<double>(p + 8, h.body.swapping()) == 1.5);
    CHECK(cdr::load<std::int32_t>(p + 16, h.body.swapping()) == 6);
    CHECK(cdr::load<double>(p + 24, h.body.swapping()) == 2.5);
    CHECK(h.body.at_end());
  }
  SECTION("doubles continued past it, or begun right at it, are refused") {
    // 2 doubles, the second after the boundary: written as one block (omniORB C++) it would stand
    // at offset 12, element by element (omniORBpy) at 16. Which one cannot be told: MARSHAL.
    auto cut_array =
        omni_cut(m, r, "02 00 00 00 ee ee ee ee 00 00 00 00 00 00 f8 3f", "ee ee ee ee 00 00 00 00 00 00 04 40");
    reply_header h = giop_1_1().decode_reply(cut_array.message);
    std::vector<double> doubles;
    CHECK_THROWS_MATCHES(h.body.read_sequence(doubles), SystemException, marshal_with(minor::split_between_chunks));
    // The length before the boundary, the doubles after it: omniORB C++ aligns the block before
    // the boundary (its data then starts at offset 12), omniORBpy the first element after it.
    auto after = omni_cut(m, r, "ee ee ee ee ee ee ee ee ee ee ee ee 02 00 00 00",
                          "ee ee ee ee 00 00 00 00 00 00 f8 3f 00 00 00 00 00 00 04 40");
    h = giop_1_1().decode_reply(after.message);
    h.body.skip(12);
    CHECK_THROWS_MATCHES(h.body.read_sequence(doubles), SystemException, marshal_with(minor::split_between_chunks));
    // A struct's double member is written on its own by both: realigned (above); an array's
    // element in a struct's layout is refused like the array's.
    auto in_struct = omni_cut(m, r, "05 00 00 00 ee ee ee ee 00 00 00 00 00 00 f8 3f 06 00 00 00 ee ee ee ee",
                              "ee ee ee ee 00 00 00 00 00 00 04 40");
    h = giop_1_1().decode_reply(in_struct.message);
    static constexpr cdr::struct_leaf leaves[] = {{0, 4}, {8, 8, true}};
    const cdr::struct_layout layout{leaves, 16};
    CHECK_THROWS_MATCHES(h.body.take_aligned(8, 32, layout), SystemException,
                         marshal_with(minor::split_between_chunks));
  }
}

TEST_CASE("GIOP 1.1: a short rest after a boundary at 8 modulo 8 reads", "[giop][fragment][alignment]") {
  messages m;
  SECTION("omniORB's empty last Fragment") {
    reassembler r(giop_1_1());
    r.feed(
        m.add("47 49 4f 50 01 01 03 01 14 00 00 00 00 00 00 00 03 00 00 00 00 00 00 00 2a 00 00 00"
              "ee ee ee ee"));
    auto done = r.feed(m.add("47 49 4f 50 01 01 01 07 00 00 00 00"));
    REQUIRE(done.what == reassembler::outcome::complete);
    CHECK(done.message.fragments == nullptr);  // no data: no boundary
    CHECK(giop_1_1().decode_reply(done.message).body.read_ulong() == 42);
  }
  SECTION("11 octets, read in their own Fragment") {
    reassembler r(giop_1_1());
    r.feed(m.add("47 49 4f 50 01 01 03 01 0c 00 00 00 00 00 00 00 03 00 00 00 00 00 00 00"));
    auto done = r.feed(m.add("47 49 4f 50 01 01 01 07 0b 00 00 00 05 00 00 00 06 00 07 00 61 62 00"));
    REQUIRE(done.what == reassembler::outcome::complete);
    reply_header h = giop_1_1().decode_reply(done.message);
    CHECK(h.body.read_ulong() == 5);
    CHECK(h.body.read_short() == 6);
    CHECK(h.body.read_short() == 7);
    CHECK(h.body.read_octet() == 0x61);
  }
  SECTION("12 octets, read in their own Fragment, and no further") {
    reassembler r(giop_1_1());
    r.feed(m.add("47 49 4f 50 01 01 03 01 0c 00 00 00 00 00 00 00 03 00 00 00 00 00 00 00"));
    auto done = r.feed(m.add("47 49 4f 50 01 01 01 07 0c 00 00 00 05 00 00 00 06 00 07 00 61 62 63 00"));
    REQUIRE(done.what == reassembler::outcome::complete);
    CHECK(done.message.header.body_size == 24);
    reply_header h = giop_1_1().decode_reply(done.message);
    CHECK(h.body.read_ulong() == 5);
    CHECK(h.body.read_ushort() == 6);
    CHECK(h.body.read_ushort() == 7);
    CHECK(h.body.read_ulong() == 0x00636261);
    CHECK_THROWS_MATCHES(h.body.read_octet(), SystemException, marshal_with(minor::read_past_end));
  }
}

namespace {

// A value as a sender marshals it: primitives of 1, 2, 4 and 8 octets (alignment = size), the
// 1.1 Reply header (contexts 0, request id 9, NO_EXCEPTION) first.
struct primitive {
  std::size_t size;
  std::uint64_t bits;
};

std::vector<primitive> sample_reply_value() {
  std::vector<primitive> v = {{4, 0}, {4, 9}, {4, 0}};  // the Reply header
  std::uint64_t seed = 0x9e3779b97f4a7c15u;
  const std::size_t sizes[] = {1, 8, 2, 4, 8, 1, 1, 4, 2, 8, 8, 1, 4, 4, 2, 1, 8, 2, 8, 1, 4};
  for (std::size_t size : sizes) {
    seed = seed * 6364136223846793005u + 1442695040888963407u;
    std::uint64_t mask = size == 8 ? ~0ull : (1ull << (8 * size)) - 1;
    v.push_back({size, (seed >> 7) & mask});
  }
  return v;
}

void put_header(std::vector<std::byte>& out, std::uint8_t type) {
  const std::byte h[] = {std::byte{'G'},
                         std::byte{'I'},
                         std::byte{'O'},
                         std::byte{'P'},
                         std::byte{1},
                         std::byte{1},
                         std::byte{1},
                         std::byte{type},
                         {},
                         {},
                         {},
                         {}};
  out.insert(out.end(), std::begin(h), std::end(h));
}

void close_message(std::vector<std::byte>& message, bool more) {
  if (more) message[6] |= std::byte{flag_more_fragments};
  auto size = static_cast<std::uint32_t>(message.size() - header_size);
  for (int i = 0; i < 4; ++i) message[8 + i] = static_cast<std::byte>(size >> (8 * i));
}

// A GIOP 1.1 sender as CORBA 3.0, 15.4.9 has it: the value's primitives, each aligned relative to
// the message or Fragment it is in, none split. Before primitive `cut` it ends the message and
// goes on in a Fragment, having written `padding_first` of that primitive's padding octets
// (0xee) first; omniORB writes all of them (giopImpl11::getReserveSpace aligns, then flushes).
std::vector<std::vector<std::byte>> spec_sender(const std::vector<primitive>& value,
                                                const std::vector<std::size_t>& cuts, std::size_t padding_first) {
  std::vector<std::vector<std::byte>> out(1);
  put_header(out.back(), 1);
  for (std::size_t i = 0; i < value.size(); ++i) {
    std::size_t size = value[i].size;
    auto padding = [&] { return (size - out.back().size() % size) % size; };
    if (std::find(cuts.begin(), cuts.end(), i) != cuts.end()) {
      std::size_t pad = std::min(padding_first, padding());
      out.back().insert(out.back().end(), pad, std::byte{0xee});
      close_message(out.back(), true);
      out.emplace_back();
      put_header(out.back(), 7);
    }
    out.back().insert(out.back().end(), padding(), std::byte{0xee});
    for (std::size_t b = 0; b < size; ++b) out.back().push_back(static_cast<std::byte>(value[i].bits >> (8 * b)));
  }
  close_message(out.back(), false);
  return out;
}

std::uint64_t read_primitive(cdr::input_stream& in, std::size_t size) {
  switch (size) {
    case 1:
      return in.read_octet();
    case 2:
      return in.read_ushort();
    case 4:
      return in.read_ulong();
    default:
      return in.read_ulonglong();
  }
}

struct differential_counts {
  std::size_t exact = 0, refused = 0;
};

// Reassembles `wire` and reads `value` back: every primitive read must be the one sent; a read
// may only fail with MARSHAL, and only across a boundary where the Fragment's data is realigned.
void check_reads_as_sent(const std::vector<std::vector<std::byte>>& wire, const std::vector<primitive>& value,
                         std::size_t body_from, differential_counts& counts) {
  reassembler r(giop_1_1());
  reassembler::result result;
  for (const auto& message : wire) result = r.feed(make_message_view(message));
  REQUIRE(result.what == reassembler::outcome::complete);
  cdr::input_stream in = result.message.body_stream();
  for (std::size_t i = 0; i < value.size(); ++i) {
    CAPTURE(i, value[i].size);
    if (i < body_from) {
      // The Reply header through its decoder (it may be cut too).
      if (i == 0) {
        try {
          in = giop_1_1().decode_reply(result.message).body;
        } catch (const SystemException& e) {
          CHECK(e.kind() == SystemExceptionKind::MARSHAL);
          CHECK(result.message.fragments != nullptr);
          ++counts.refused;
          return;
        }
      }
      continue;
    }
    try {
      std::uint64_t got = read_primitive(in, value[i].size);
      CHECK(got == value[i].bits);
    } catch (const SystemException& e) {
      CHECK(e.kind() == SystemExceptionKind::MARSHAL);
      CHECK(result.message.fragments != nullptr);
      ++counts.refused;
      return;
    }
  }
  CHECK(in.at_end());
  ++counts.exact;
}

}  // namespace

TEST_CASE("GIOP 1.1 differential: every boundary a spec sender may choose", "[giop][fragment][alignment]") {
  // A spec sender aligns each primitive in its own message or Fragment and never splits one: read
  // as omniORB's reader does (realigned after each boundary), every value reads as sent, wherever
  // the cuts fall and however much padding precedes them.
  const std::vector<primitive> value = sample_reply_value();
  differential_counts counts;
  std::size_t shifted = 0;
  // One cut before each primitive, with each amount of its padding written before the cut.
  for (std::size_t cut = 0; cut < value.size(); ++cut) {
    for (std::size_t padding_first = 0; padding_first < 8; ++padding_first) {
      CAPTURE(cut, padding_first);
      auto wire = spec_sender(value, {cut}, padding_first);
      if (padding_first > 0 && wire == spec_sender(value, {cut}, padding_first - 1)) continue;
      if (wire.size() > 1 && wire[0].size() % 8 != 4) ++shifted;
      check_reads_as_sent(wire, value, 3, counts);
    }
  }
  // Two cuts, all pairs, padding written first (omniORB) and not.
  for (std::size_t a = 0; a < value.size(); ++a)
    for (std::size_t b = a + 1; b < value.size(); ++b)
      for (std::size_t padding_first : {0, 7}) {
        CAPTURE(a, b, padding_first);
        check_reads_as_sent(spec_sender(value, {a, b}, padding_first), value, 3, counts);
      }
  // Most boundaries land off the message's alignment: the realigning reader is what reads them.
  CHECK(shifted > 30);
  CHECK(counts.exact > 400);
  CHECK(counts.refused == 0);
}

TEST_CASE("GIOP 1.1 differential: omniORB's bulk arrays", "[giop][fragment][alignment]") {
  // omniORB copies a sequence of doubles as one block (giopImpl11::copyOutputData): aligned once,
  // then octet for octet across Fragments, whose data starts at their offset 12; its messages and
  // Fragments are all multiples of 8 octets long (8192 in omniORB, 64 here). Either the doubles
  // read as sent or MARSHAL is raised; never other values.
  differential_counts counts;
  for (std::uint32_t count : {1u, 2u, 5u, 6u, 7u, 13u, 40u}) {
    CAPTURE(count);
    std::vector<std::byte> body;  // from the start of the Reply header, after the 12-octet header
    auto put32 = [&](std::uint32_t v) {
      for (int i = 0; i < 4; ++i) body.push_back(static_cast<std::byte>(v >> (8 * i)));
    };
    put32(0);
    put32(9);
    put32(0);
    put32(count);
    body.insert(body.end(), 4, std::byte{0xee});  // to offset 32: 8-aligned
    std::vector<double> sent(count);
    for (std::uint32_t i = 0; i < count; ++i) {
      sent[i] = 0.5 + i * 1.25;
      std::uint64_t bits;
      std::memcpy(&bits, &sent[i], 8);
      for (int b = 0; b < 8; ++b) body.push_back(static_cast<std::byte>(bits >> (8 * b)));
    }
    std::vector<std::vector<std::byte>> wire(1);
    put_header(wire.back(), 1);
    for (std::byte octet : body) {
      if (wire.back().size() == 64) {
        close_message(wire.back(), true);
        wire.emplace_back();
        put_header(wire.back(), 7);
      }
      wire.back().push_back(octet);
    }
    close_message(wire.back(), false);

    reassembler r(giop_1_1());
    reassembler::result result;
    for (const auto& message : wire) result = r.feed(make_message_view(message));
    REQUIRE(result.what == reassembler::outcome::complete);
    reply_header h = giop_1_1().decode_reply(result.message);
    std::vector<double> got;
    try {
      h.body.read_sequence(got);
      CHECK(got == sent);
      ++counts.exact;
    } catch (const SystemException& e) {
      CHECK(e.kind() == SystemExceptionKind::MARSHAL);
      CHECK(result.message.fragments != nullptr);
      ++counts.refused;
    }
  }
  CHECK(counts.exact >= 2);  // the ones that fit in the first message
  CHECK(counts.refused >= 3);
}
