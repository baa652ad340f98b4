// Any: insertion and extraction of primitives and strings, CDR in both byte orders (hand-written
// hex), values of types unknown at compile time read, skipped and re-marshaled through their
// TypeCode, and malformed values answered with MARSHAL.
#include "switchyard/any.h"

#include <catch2/catch.hpp>

#include <limits>

#include "tests/dynamic/wire_bytes.h"

using namespace switchyard;
using namespace switchyard::test;
using cdr::byte_order;

namespace {

bytes written(const any& a) {
  cdr::output_stream out;
  write_any(out, a);
  return bytes_of(out);
}

any read_all(const bytes& b, byte_order order) {
  auto in = stream_over(b, order);
  any a;
  read_any(in, a);
  CHECK(in.at_end());
  return a;
}

any round_trip(const any& a) { return read_all(written(a), cdr::native_byte_order); }

template <class T>
void check_primitive(T value, tc_kind kind) {
  any a;
  a <<= value;
  CHECK(a.type().kind() == kind);
  any b = round_trip(a);
  CHECK(b == a);
  T out{};
  CHECK((b >>= out));
  CHECK(out == value);
}

void require_marshal(const bytes& b, byte_order order = byte_order::little_endian) {
  auto in = stream_over(b, order);
  any a;
  try {
    read_any(in, a);
    FAIL("no exception for " << to_hex(b));
  } catch (const SystemException& e) {
    CHECK(e.kind() == SystemExceptionKind::MARSHAL);
  }
}

// struct R { long l; double d; string s; boolean b; }
type_code record_tc() {
  return type_code::make_struct("IDL:R:1.0", "R",
                                {{"l", type_code::basic(tc_kind::tk_long)},
                                 {"d", type_code::basic(tc_kind::tk_double)},
                                 {"s", type_code::make_string()},
                                 {"b", type_code::basic(tc_kind::tk_boolean)}});
}

}  // namespace

TEST_CASE("every primitive goes in, across and out of an Any", "[dynamic][any]") {
  check_primitive(true, tc_kind::tk_boolean);
  check_primitive('x', tc_kind::tk_char);
  check_primitive(u'\u20ac', tc_kind::tk_wchar);
  check_primitive(std::uint8_t{200}, tc_kind::tk_octet);
  check_primitive(std::int16_t{-12345}, tc_kind::tk_short);
  check_primitive(std::uint16_t{54321}, tc_kind::tk_ushort);
  check_primitive(std::int32_t{-123456789}, tc_kind::tk_long);
  check_primitive(std::uint32_t{4000000000u}, tc_kind::tk_ulong);
  check_primitive(std::numeric_limits<std::int64_t>::min(), tc_kind::tk_longlong);
  check_primitive(std::numeric_limits<std::uint64_t>::max(), tc_kind::tk_ulonglong);
  check_primitive(1.5f, tc_kind::tk_float);
  check_primitive(-2.25e300, tc_kind::tk_double);
  check_primitive(3.5L, tc_kind::tk_longdouble);
  check_primitive(std::string("hello, any"), tc_kind::tk_string);
  check_primitive(std::u16string(u"wide \u00e9"), tc_kind::tk_wstring);
  check_primitive(std::u16string(u"\ufffe starts like a byte-order mark"), tc_kind::tk_wstring);
  check_primitive(std::u16string(u"\ufeff too"), tc_kind::tk_wstring);
  check_primitive(type_code::make_sequence(record_tc(), 3), tc_kind::tk_TypeCode);
  any inner;
  inner <<= "nested";
  check_primitive(inner, tc_kind::tk_any);
  check_primitive(any(), tc_kind::tk_any);
}

TEST_CASE("extraction checks the type and leaves the target alone otherwise", "[dynamic][any]") {
  any a;
  a <<= std::int32_t{7};
  std::int16_t s = 3;
  CHECK_FALSE((a >>= s));
  CHECK(s == 3);
  std::string text = "kept";
  CHECK_FALSE((a >>= text));
  CHECK(text == "kept");
  std::int32_t l = 0;
  CHECK((a >>= l));
  CHECK(l == 7);
  // Through an alias: still a long.
  any aliased;
  aliased.assign(type_code::make_alias("IDL:L:1.0", "L", type_code::basic(tc_kind::tk_long)), a.value());
  CHECK((aliased >>= l));
  CHECK(any().type().kind() == tc_kind::tk_null);
  CHECK(round_trip(any()).type().kind() == tc_kind::tk_null);
}

TEST_CASE("an Any is written as its TypeCode and its value, byte for byte", "[dynamic][any]") {
  any a;
  a <<= std::int32_t{0x01020304};
  CHECK(written(a) == hex("03000000 04030201"));
  any be = read_all(hex("00000003 01020304"), byte_order::big_endian);
  std::int32_t v = 0;
  CHECK((be >>= v));
  CHECK(v == 0x01020304);
  CHECK(be == a);

  // A double after the TypeCode is aligned to 8 in the message, and stored canonically.
  any d = read_all(hex("00000007 00000000 3ff80000 00000000"), byte_order::big_endian);
  double x = 0;
  CHECK((d >>= x));
  CHECK(x == 1.5);
  CHECK(written(d) == hex("07000000 00000000 00000000 0000f83f"));

  any s;
  s <<= "ab";
  CHECK(written(s) == hex("12000000 00000000 03000000 616200"));
  any s_be = read_all(hex("00000012 00000000 00000003 616200"), byte_order::big_endian);
  CHECK(s_be == s);
}

TEST_CASE("a struct of a type unknown here is read, kept and re-marshaled", "[dynamic][any]") {
  // As another ORB sends it: big-endian, with the double at an offset that needs padding.
  const bytes tc_be = hex("0000000f 00000054 00000000 0000000a") + text("IDL:R:1.0") + hex("0000 00000002") +
                      text("R") + hex("0000 00000004 00000002") + text("l") + hex("0000 00000003 00000002") +
                      text("d") + hex("0000 00000007 00000002") + text("s") + hex("0000 00000012 00000000 00000002") +
                      text("b") + hex("0000 00000008");
  const bytes value_be = hex("fffffffe 40090000 00000000 00000004") + text("abc") + hex("01");
  // The TypeCode ends at 92: the long follows at once, the double at 96 with no padding.
  any a = read_all(tc_be + value_be, byte_order::big_endian);
  CHECK(a.type() == record_tc());
  // Canonical: little-endian here, laid out from the position it had in the message (92, 4
  // modulo 8): the double follows the long with no padding, as on the wire.
  CHECK(a.value_origin() == 4);
  CHECK(to_hex(bytes(a.value().begin(), a.value().end())) ==
        to_hex(hex("feffffff 00000000 00000940 04000000") + text("abc") + hex("01")));
  // The same value laid out from position 0 (padding before the double) is the same value.
  any from_zero;
  from_zero.assign(record_tc(), hex("feffffff 00000000 00000000 00000940 04000000") + text("abc") + hex("01"));
  CHECK(from_zero.value_origin() == 0);
  CHECK(from_zero == a);
  CHECK(a == from_zero);
  // Read back by walking the TypeCode.
  auto in = a.value_stream();
  CHECK(in.read_long() == -2);
  CHECK(in.read_double() == 3.125);
  CHECK(in.read_string() == "abc");
  CHECK(in.read_boolean());
  // Forwarded: our TypeCode (little-endian) and the value again.
  any again = round_trip(a);
  CHECK(again == a);
  // Skipped without keeping it.
  bytes both = tc_be + value_be + hex("000000 00000007");
  auto skip_in = stream_over(both, byte_order::big_endian);
  type_code t = read_type_code(skip_in);
  skip_value(t, skip_in);
  CHECK(skip_in.read_ulong() == 7);
}

TEST_CASE("sequences, arrays, unions, enums and nested Anys cross in both byte orders", "[dynamic][any]") {
  type_code color = type_code::make_enum("IDL:C:1.0", "C", {"red", "green", "blue"});
  type_code u = type_code::make_union("IDL:U:1.0", "U", type_code::basic(tc_kind::tk_long), 2,
                                      {{1, "l", type_code::basic(tc_kind::tk_long)},
                                       {2, "s", type_code::make_string()},
                                       {0, "o", type_code::basic(tc_kind::tk_octet)}});
  type_code all = type_code::make_struct(
      "IDL:All:1.0", "All",
      {{"records", type_code::make_sequence(record_tc())},
       {"grid", type_code::make_array(type_code::make_array(type_code::basic(tc_kind::tk_short), 3), 2)},
       {"tint", color},
       {"choices", type_code::make_sequence(u, 4)},
       {"inner", type_code::basic(tc_kind::tk_any)},
       {"wide", type_code::make_wstring()},
       {"big", type_code::basic(tc_kind::tk_longdouble)}});
  any inner;
  inner <<= std::u16string(u"in");
  any a;
  a.replace(all, [&](cdr::output_stream& o) {
    o.write_ulong(2);
    for (int k = 0; k < 2; ++k) {
      o.write_long(k);
      o.write_double(k + 0.5);
      o.write_string(k ? "one" : "zero");
      o.write_boolean(k == 1);
    }
    for (std::int16_t k = 0; k < 6; ++k) o.write_short(k);
    o.write_ulong(2);
    o.write_ulong(3);
    o.write_long(1), o.write_long(5);
    o.write_long(2), o.write_string("two");
    o.write_long(9), o.write_octet(9);
    write_any(o, inner);
    o.write_wstring(u"w");
    o.write_longdouble(1.25L);
  });
  any back = round_trip(a);
  CHECK(back == a);
  // The other byte order: re-marshal by hand as big-endian through a swapped copy of each piece
  // is beyond the output stream, so check reading big-endian with a short sequence of shorts.
  type_code shorts = type_code::make_sequence(type_code::basic(tc_kind::tk_short));
  any s = read_all(hex("00000013 0000000c 00000000 00000002 00000000 00000002 00010002"), byte_order::big_endian);
  CHECK(s.type() == shorts);
  CHECK(bytes(s.value().begin(), s.value().end()) == hex("02000000 01000200"));
}

TEST_CASE("a recursive value is walked through its indirection", "[dynamic][any]") {
  type_code node =
      type_code::make_struct("IDL:Node:1.0", "Node",
                             {{"v", type_code::basic(tc_kind::tk_long)},
                              {"kids", type_code::make_sequence(type_code::make_recursive("IDL:Node:1.0"))}});
  any a;
  a.replace(node, [](cdr::output_stream& o) {
    o.write_long(1);
    o.write_ulong(2);
    o.write_long(2), o.write_ulong(0);
    o.write_long(3), o.write_ulong(1), o.write_long(4), o.write_ulong(0);
  });
  any back = round_trip(a);
  CHECK(back == a);
  CHECK(back.type().member_type(1).content_type().id() == "IDL:Node:1.0");
}

TEST_CASE("malformed Any values raise MARSHAL", "[dynamic][any]") {
  require_marshal(hex("08000000 02"));                                            // boolean 2
  require_marshal(hex("12000000 05000000 616263"));                               // string past the end
  require_marshal(hex("12000000 03000000 616263"));                               // string without NUL
  require_marshal(hex("12000000 02000000 04000000 61626300"));                    // string<2> of 3
  require_marshal(hex("13000000 0c000000 01000000 03000000 00000000 ffffff7f"));  // sequence length
  require_marshal(hex("13000000 0c000000 01000000 03000000 02000000 03000000 01000000 02000000 03000000"));  // bound 2
  // enum value 3 of 3
  require_marshal(
      hex("11000000 2e000000 01000000 01000000 00000000 01000000 00000000 03000000 02000000 610000 00"
          "02000000 6200 0000 02000000 6300 0000 03000000"));
  require_marshal(hex("07000000"));  // a double that is not there
  // A sequence of empty structs (no IDL type): refused with its TypeCode.
  require_marshal(
      hex("13000000 28000000 01000000 0f000000 18000000 01000000 01000000 00000000 01000000 "
          "00000000 00000000 00000000 ffffff00"));
  // A sequence of octets longer than the data.
  require_marshal(hex("13000000 0c000000 01000000 0a000000 00000000 ffffff00"));
  // Anys nested in Anys beyond the value depth limit.
  bytes deep;
  for (int k = 0; k < max_value_depth + 5; ++k) deep = deep + hex("0b000000");
  require_marshal(deep + hex("03000000 01000000"));
}
