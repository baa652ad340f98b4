// CDR streams: byte-exact output, both byte orders on input, alignment from the origin, and every
// malformed input answered with MARSHAL and its minor code.
#include "switchyard/cdr/input_stream.h"
#include "switchyard/cdr/output_stream.h"

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <limits>
#include <string_view>
#include <vector>

#include "switchyard/exception.h"
#include "tests/cdr/hex.h"

using namespace switchyard;
using namespace switchyard::cdr;
using switchyard::test::from_hex;
using switchyard::test::to_hex;

static_assert(native_byte_order == byte_order::little_endian,
              "the expected bytes below are written for a little-endian host");

namespace {

std::uint32_t marshal_minor_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const SystemException& e) {
    REQUIRE(e.kind() == SystemExceptionKind::MARSHAL);
    return e.minor();
  }
  FAIL("no MARSHAL raised");
  return 0;
}

input_stream reader(const std::vector<std::byte>& bytes, byte_order order) { return input_stream(bytes, order); }

}  // namespace

TEST_CASE("primitives are written in native order, each aligned to its size", "[cdr]") {
  output_stream out;
  out.write_octet(0x01);
  out.write_short(0x0203);                 // pad 1
  out.write_long(0x04050607);              // no pad (offset 4)
  out.write_boolean(true);                 // offset 8
  out.write_longlong(0x08090a0b0c0d0e0f);  // pad 7 to 16
  out.write_char('A');
  out.write_ushort(0xfffe);  // pad 1
  out.write_float(1.0f);     // offset 20
  out.write_double(-2.0);    // offset 24
  CHECK(to_hex(out.bytes()) ==
        "01 00 03 02 07 06 05 04 01 00 00 00 00 00 00 00 "
        "0f 0e 0d 0c 0b 0a 09 08 41 00 fe ff 00 00 80 3f "
        "00 00 00 00 00 00 00 c0");
}

TEST_CASE("big-endian input is swapped into native values", "[cdr]") {
  auto bytes = from_hex(
      "01 00 02 03 04 05 06 07 01 00 00 00 00 00 00 00 "
      "08 09 0a 0b 0c 0d 0e 0f 41 00 ff fe 3f 80 00 00 "
      "c0 00 00 00 00 00 00 00");
  auto in = reader(bytes, byte_order::big_endian);
  CHECK(in.swapping());
  CHECK(in.read_octet() == 0x01);
  CHECK(in.read_short() == 0x0203);
  CHECK(in.read_long() == 0x04050607);
  CHECK(in.read_boolean());
  CHECK(in.read_longlong() == 0x08090a0b0c0d0e0f);
  CHECK(in.read_char() == 'A');
  CHECK(in.read_ushort() == 0xfffe);
  CHECK(in.read_float() == 1.0f);
  CHECK(in.read_double() == -2.0);
  CHECK(in.at_end());
}

TEST_CASE("every primitive round-trips at its extremes", "[cdr]") {
  output_stream out;
  out.write_octet(255);
  out.write_boolean(false);
  out.write_char('\x7f');
  out.write_short(std::numeric_limits<std::int16_t>::min());
  out.write_ushort(65535);
  out.write_long(std::numeric_limits<std::int32_t>::min());
  out.write_ulong(0xffffffffu);
  out.write_longlong(std::numeric_limits<std::int64_t>::min());
  out.write_ulonglong(0xffffffffffffffffull);
  out.write_float(std::numeric_limits<float>::denorm_min());
  out.write_double(std::numeric_limits<double>::max());
  out.write_longdouble(1.0L / 3.0L);
  out.write_wchar(u'\u20ac');
  input_stream in(out.bytes(), native_byte_order);
  CHECK(in.read_octet() == 255);
  CHECK_FALSE(in.read_boolean());
  CHECK(in.read_char() == '\x7f');
  CHECK(in.read_short() == std::numeric_limits<std::int16_t>::min());
  CHECK(in.read_ushort() == 65535);
  CHECK(in.read_long() == std::numeric_limits<std::int32_t>::min());
  CHECK(in.read_ulong() == 0xffffffffu);
  CHECK(in.read_longlong() == std::numeric_limits<std::int64_t>::min());
  CHECK(in.read_ulonglong() == 0xffffffffffffffffull);
  CHECK(in.read_float() == std::numeric_limits<float>::denorm_min());
  CHECK(in.read_double() == std::numeric_limits<double>::max());
  CHECK(in.read_longdouble() == 1.0L / 3.0L);
  CHECK(in.read_wchar() == u'\u20ac');
  CHECK(in.at_end());
}

TEST_CASE("long double is IEEE binary128 aligned to 8", "[cdr]") {
  output_stream out;
  out.write_octet(0);
  out.write_longdouble(1.0L);
  // 1.0 in binary128: sign 0, exponent 0x3fff, fraction 0; little-endian.
  CHECK(to_hex(out.bytes()) == "00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 ff 3f");
  auto big = from_hex("3f ff 00 00 00 00 00 00 00 00 00 00 00 00 00 00");
  CHECK(reader(big, byte_order::big_endian).read_longdouble() == 1.0L);
}

TEST_CASE("strings carry their NUL and a length that counts it", "[cdr]") {
  output_stream out;
  out.write_octet(7);
  out.write_string("abc");
  out.write_string("");
  CHECK(to_hex(out.bytes()) == "07 00 00 00 04 00 00 00 61 62 63 00 01 00 00 00 00");
  input_stream in(out.bytes(), native_byte_order);
  in.read_octet();
  CHECK(in.read_string() == "abc");
  CHECK(in.read_string_view().empty());
  CHECK(in.at_end());
}

TEST_CASE("a string of length zero reads as empty (some ORBs send it)", "[cdr]") {
  auto bytes = from_hex("00 00 00 00");
  CHECK(reader(bytes, byte_order::big_endian).read_string().empty());
}

TEST_CASE("GIOP 1.2 wstring: octet length, a byte-order mark, UTF-16 units, no NUL", "[cdr]") {
  output_stream out(0, 2);
  out.write_wstring(u"h\u00e9");
  out.write_wstring(u"");
  // What omniORB writes too (tests/giop/captures/giop12_echo_wstring_request.hex).
  CHECK(to_hex(out.bytes()) == "06 00 00 00 ff fe 68 00 e9 00 00 00 00 00 00 00");
  input_stream in(out.bytes(), native_byte_order, 0, 2);
  CHECK(in.read_wstring() == u"h\u00e9");
  CHECK(in.read_wstring().empty());

  // Without a mark, UTF-16 is big-endian, whatever the stream's order.
  auto big = from_hex("00 00 00 04 00 68 00 e9");
  CHECK(input_stream(big, byte_order::big_endian, 0, 2).read_wstring() == u"h\u00e9");
  auto little_stream_big_text = from_hex("04 00 00 00 00 68 00 e9");
  CHECK(input_stream(little_stream_big_text, byte_order::little_endian, 0, 2).read_wstring() == u"h\u00e9");
}

TEST_CASE("GIOP 1.2 wstring honours a byte-order mark", "[cdr]") {
  // Little-endian stream, big-endian text announced by FE FF.
  auto bytes = from_hex("06 00 00 00 fe ff 00 68 00 69");
  CHECK(input_stream(bytes, byte_order::little_endian, 0, 2).read_wstring() == u"hi");
  auto same = from_hex("06 00 00 00 ff fe 68 00 69 00");
  CHECK(input_stream(same, byte_order::little_endian, 0, 2).read_wstring() == u"hi");
}

TEST_CASE("GIOP 1.1 wstring: unit length counting the NUL, two-octet units", "[cdr]") {
  output_stream out(0, 1);
  out.write_wstring(u"ok");
  CHECK(to_hex(out.bytes()) == "03 00 00 00 6f 00 6b 00 00 00");
  input_stream in(out.bytes(), native_byte_order, 0, 1);
  CHECK(in.read_wstring() == u"ok");
}

TEST_CASE("GIOP 1.2 wchar has an octet length and is big-endian without a mark", "[cdr]") {
  output_stream out(0, 2);
  out.write_wchar(u'x');
  CHECK(to_hex(out.bytes()) == "02 00 78");
  auto marked = from_hex("04 ff fe 78 00");
  CHECK(input_stream(marked, byte_order::big_endian, 0, 2).read_wchar() == u'x');
  output_stream old(0, 1);
  old.write_octet(1);
  old.write_wchar(u'x');
  CHECK(to_hex(old.bytes()) == "01 00 78 00");
}

TEST_CASE("arrays and sequences of primitives are one block", "[cdr]") {
  std::array<std::int32_t, 3> longs{1, -1, 0x01020304};
  output_stream out;
  out.write_octet(9);
  out.write_sequence(longs.data(), longs.size());
  CHECK(to_hex(out.bytes()) == "09 00 00 00 03 00 00 00 01 00 00 00 ff ff ff ff 04 03 02 01");

  auto big = from_hex("00 00 00 03 00 00 00 01 ff ff ff ff 01 02 03 04");
  std::vector<std::int32_t> back;
  reader(big, byte_order::big_endian).read_sequence(back);
  CHECK(back == std::vector<std::int32_t>{1, -1, 0x01020304});

  std::vector<double> doubles{1.5, -0.25};
  output_stream d;
  d.write_sequence(doubles.data(), doubles.size());
  std::vector<double> doubles_back;
  input_stream(d.bytes(), native_byte_order).read_sequence(doubles_back);
  CHECK(doubles_back == doubles);

  std::vector<std::uint8_t> octets{1, 2, 3};
  output_stream o;
  o.write_sequence(octets.data(), octets.size());
  CHECK(to_hex(o.bytes()) == "03 00 00 00 01 02 03");
}

TEST_CASE("alignment is measured from the origin, not the buffer", "[cdr]") {
  // A GIOP body read apart from its 12-byte header: a double at body offset 4 is at message
  // offset 16, already aligned, so no padding comes before it.
  auto bytes = from_hex("01 00 00 00 00 00 00 00 00 00 f0 3f");
  input_stream in(bytes, byte_order::little_endian, 12);
  CHECK(in.read_ulong() == 1);
  CHECK(in.read_double() == 1.0);
  CHECK(in.at_end());

  output_stream out;
  out.skip(12);
  out.write_octet(1);
  out.write_double(2.0);  // offset 13 -> 16
  CHECK(out.size() == 24);
}

TEST_CASE("encapsulations carry their own byte order and alignment origin", "[cdr]") {
  output_stream out;
  out.write_octet(0xaa);
  auto token = out.begin_encapsulation();
  out.write_ulong(5);  // encapsulation offset 1 -> pad to 4
  auto inner_token = out.begin_encapsulation();
  out.write_short(-2);
  out.end_encapsulation(inner_token);
  out.end_encapsulation(token);
  out.write_octet(0xbb);
  CHECK(to_hex(out.bytes()) ==
        "aa 00 00 00 10 00 00 00 01 00 00 00 05 00 00 00 "
        "04 00 00 00 01 00 fe ff bb");

  input_stream in(out.bytes(), native_byte_order);
  CHECK(in.read_octet() == 0xaa);
  input_stream encapsulated = in.read_encapsulation();
  CHECK(encapsulated.read_ulong() == 5);
  input_stream nested = encapsulated.read_encapsulation();
  CHECK(nested.read_short() == -2);
  CHECK(nested.at_end());
  CHECK(encapsulated.at_end());
  CHECK(in.read_octet() == 0xbb);

  // A big-endian encapsulation inside a little-endian stream.
  auto mixed = from_hex("08 00 00 00 00 00 00 00 00 00 01 02");
  input_stream outer(mixed, byte_order::little_endian);
  CHECK(outer.read_encapsulation().read_ulong() == 0x0102);
}

TEST_CASE("reads past the end raise MARSHAL read_past_end", "[cdr][errors]") {
  auto three = from_hex("01 02 03");
  CHECK(marshal_minor_of([&] { reader(three, byte_order::little_endian).read_ulong(); }) == minor::read_past_end);
  auto empty = std::vector<std::byte>{};
  CHECK(marshal_minor_of([&] { reader(empty, byte_order::little_endian).read_octet(); }) == minor::read_past_end);
  // Padding runs off the end: the following read fails, nothing is read beyond.
  auto five = from_hex("01 02 03 04 05");
  auto in = reader(five, byte_order::little_endian);
  in.read_octet();
  CHECK(marshal_minor_of([&] { in.read_double(); }) == minor::read_past_end);
}

TEST_CASE("a huge length in a small message fails at once, before any allocation", "[cdr][errors]") {
  std::vector<std::byte> message(100);
  auto length = from_hex("ff ff ff ff");
  std::copy(length.begin(), length.end(), message.begin());
  {
    input_stream in(message, byte_order::little_endian);
    in.set_max_length(0xffffffffu);
    std::vector<std::uint8_t> octets;
    CHECK(marshal_minor_of([&] { in.read_sequence(octets); }) == minor::length_too_large);
    CHECK(octets.capacity() == 0);
  }
  CHECK(marshal_minor_of([&] { reader(message, byte_order::little_endian).read_string(); }) ==
        minor::length_over_limit);
  // Within the limit, but more elements than octets left.
  auto ten_longs = from_hex("0a 00 00 00 01 00 00 00");
  std::vector<std::int32_t> longs;
  CHECK(marshal_minor_of([&] { reader(ten_longs, byte_order::little_endian).read_sequence(longs); }) ==
        minor::length_too_large);
}

TEST_CASE("the maximum length is configurable", "[cdr][errors]") {
  output_stream out;
  out.write_string("0123456789");
  input_stream in(out.bytes(), native_byte_order);
  in.set_max_length(8);
  CHECK(marshal_minor_of([&] { in.read_string(); }) == minor::length_over_limit);
}

TEST_CASE("a string or wstring holding a NUL is refused: BAD_PARAM to write, nothing written; MARSHAL to read",
          "[cdr][errors]") {
  using namespace std::string_view_literals;
  for (std::uint8_t giop_minor : {0, 1, 2}) {
    output_stream out(0, giop_minor);
    out.write_ulong(7);
    const auto before = out.size();
    for (auto s : {"string\0null"sv, "\0"sv, "trailing\0"sv}) {
      try {
        out.write_string(s);
        FAIL("no BAD_PARAM for a string holding a NUL");
      } catch (const SystemException& e) {
        CHECK(e.kind() == SystemExceptionKind::BAD_PARAM);
        CHECK(e.minor() == minor::nul_in_string_argument);
        CHECK(e.completed() == CompletionStatus::no);
      }
    }
    for (auto s : {u"wide\0null"sv, u"\0"sv}) {
      try {
        out.write_wstring(s);
        FAIL("no BAD_PARAM for a wstring holding a NUL");
      } catch (const SystemException& e) {
        CHECK(e.kind() == SystemExceptionKind::BAD_PARAM);
        CHECK(e.minor() == minor::nul_in_string_argument);
      }
    }
    CHECK(out.size() == before);  // nothing of the refused strings
    out.write_string("fine");
    out.write_wstring(u"fine");
    input_stream in(out.bytes(), native_byte_order, 0, giop_minor);
    CHECK(in.read_ulong() == 7);
    CHECK(in.read_string() == "fine");
    CHECK(in.read_wstring() == u"fine");
  }
  // On the wire: a NUL before the terminating one (what another ORB's client may send).
  auto inner_nul = from_hex("0c 00 00 00 73 74 72 69 6e 67 00 6e 75 6c 6c 00");  // "string\0null"
  CHECK(marshal_minor_of([&] { reader(inner_nul, byte_order::little_endian).read_string(); }) ==
        minor::nul_inside_string);
  auto only_nuls = from_hex("02 00 00 00 00 00");
  CHECK(marshal_minor_of([&] { reader(only_nuls, byte_order::little_endian).read_string(); }) ==
        minor::nul_inside_string);
  // GIOP 1.2 wstring (octet length, no terminator) with a zero unit; 1.0/1.1 (units counting the
  // NUL) with one before the end.
  auto wide12 = from_hex("04 00 00 00 61 00 00 00");
  CHECK(marshal_minor_of([&] { input_stream(wide12, byte_order::little_endian, 0, 2).read_wstring(); }) ==
        minor::nul_inside_string);
  auto wide10 = from_hex("03 00 00 00 00 00 61 00 00 00");
  CHECK(marshal_minor_of([&] { input_stream(wide10, byte_order::little_endian, 0, 0).read_wstring(); }) ==
        minor::nul_inside_string);
  // The strings that are fine still read: "" (length 1), and length 0 as some ORBs send "".
  auto empty = from_hex("01 00 00 00 00 00 00 00 00 00 00 00");
  auto in = reader(empty, byte_order::little_endian);
  CHECK(in.read_string().empty());
  CHECK(in.read_string().empty());
}

TEST_CASE("malformed values raise MARSHAL with their minor code", "[cdr][errors]") {
  auto bad_bool = from_hex("02");
  CHECK(marshal_minor_of([&] { reader(bad_bool, byte_order::little_endian).read_boolean(); }) == minor::bad_boolean);
  auto no_nul = from_hex("03 00 00 00 61 62 63");
  CHECK(marshal_minor_of([&] { reader(no_nul, byte_order::little_endian).read_string(); }) ==
        minor::string_not_terminated);
  auto odd_wstring = from_hex("03 00 00 00 61 00 62");
  CHECK(marshal_minor_of([&] { input_stream(odd_wstring, byte_order::little_endian, 0, 2).read_wstring(); }) ==
        minor::bad_wstring);
  auto wide_wchar = from_hex("04 00 00 00 00");
  CHECK(marshal_minor_of([&] { input_stream(wide_wchar, byte_order::little_endian, 0, 2).read_wchar(); }) ==
        minor::bad_wstring);
  auto bad_order = from_hex("02 00 00 00 07 00");
  CHECK(marshal_minor_of([&] { reader(bad_order, byte_order::little_endian).read_encapsulation(); }) ==
        minor::bad_byte_order);
  auto empty_encapsulation = from_hex("00 00 00 00");
  CHECK(marshal_minor_of([&] { reader(empty_encapsulation, byte_order::little_endian).read_encapsulation(); }) ==
        minor::bad_byte_order);
  auto encapsulation_too_long = from_hex("09 00 00 00 01 00");
  CHECK(marshal_minor_of([&] { reader(encapsulation_too_long, byte_order::little_endian).read_encapsulation(); }) ==
        minor::length_too_large);
}

TEST_CASE("an encapsulation cannot read beyond its own length", "[cdr][errors]") {
  auto bytes = from_hex("02 00 00 00 01 05 06 07 08");
  auto in = reader(bytes, byte_order::little_endian);
  auto inner = in.read_encapsulation();
  CHECK(inner.read_octet() == 5);
  CHECK(marshal_minor_of([&] { inner.read_octet(); }) == minor::read_past_end);
  CHECK(in.read_octet() == 6);
}

TEST_CASE("the error names what went wrong", "[cdr][errors]") {
  auto bytes = from_hex("ff ff 00 00");
  try {
    auto in = reader(bytes, byte_order::little_endian);
    std::vector<std::int32_t> longs;
    in.read_sequence(longs);
    FAIL("no exception");
  } catch (const SystemException& e) {
    CHECK(std::string(e.what()) ==
          "MARSHAL (minor 0x53590002, completed no): length 65535 of 4-octet elements "
          "exceeds the 0 octets left");
    CHECK(e.repository_id() == "IDL:omg.org/CORBA/MARSHAL:1.0");
  }
}

TEST_CASE("a reset stream keeps its buffer", "[cdr]") {
  output_stream out(64);
  const std::byte* buffer = out.data();
  for (int round = 0; round < 3; ++round) {
    out.reset();
    out.write_string("request");
    out.write_double(1.0);
    CHECK(out.data() == buffer);
  }
  CHECK(out.size() == 24);
}

TEST_CASE("growing keeps what was written", "[cdr]") {
  output_stream out;
  for (std::uint32_t i = 0; i < 10000; ++i) out.write_ulong(i);
  input_stream in(out.bytes(), native_byte_order);
  for (std::uint32_t i = 0; i < 10000; ++i) REQUIRE(in.read_ulong() == i);
}
