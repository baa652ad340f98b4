// TypeCodes: building and member access, equal/equivalent, CDR byte for byte in both byte orders
// (hand-written hex), indirections, and malformed input answered with MARSHAL.
#include "switchyard/type_code.h"

#include <catch2/catch.hpp>

#include "switchyard/cdr/input_stream.h"
#include "switchyard/cdr/output_stream.h"
#include "tests/dynamic/wire_bytes.h"

using namespace switchyard;
using namespace switchyard::test;
using cdr::byte_order;

namespace {

bytes written(const type_code& tc) {
  cdr::output_stream out;
  write_type_code(out, tc);
  return bytes_of(out);
}

type_code read_all(const bytes& b, byte_order order) {
  auto in = stream_over(b, order);
  type_code tc = read_type_code(in);
  CHECK(in.at_end());
  return tc;
}

type_code color_tc() { return type_code::make_enum("IDL:Integrity/Color:1.0", "Color", {"red", "green", "blue"}); }

type_code node_tc() {
  return type_code::make_struct("IDL:Node:1.0", "Node",
                                {{"kids", type_code::make_sequence(type_code::make_recursive("IDL:Node:1.0"))}});
}

void require_marshal(const bytes& b, byte_order order = byte_order::little_endian) {
  auto in = stream_over(b, order);
  try {
    (void)read_type_code(in);
    FAIL("no exception for " << to_hex(b));
  } catch (const SystemException& e) {
    CHECK(e.kind() == SystemExceptionKind::MARSHAL);
  }
}

// Recursive Node { sequence<Node> kids; }: the sequence's element is an indirection of -76 to the
// struct's TCKind (absolute offsets: struct kind 0, sequence kind 60, offset field 76).
const bytes node_be = hex("0000000f 0000004c 00000000 0000000d") + text("IDL:Node:1.0") + hex("000000 00000005") +
                      text("Node") + hex("000000 00000001 00000005") + text("kids") +
                      hex("000000 00000013 00000010 00000000 ffffffff ffffffb4 00000000");
bytes node_le_with_offset(std::string_view offset) {
  return hex("0f000000 4c000000 01000000 0d000000") + text("IDL:Node:1.0") + hex("000000 05000000") + text("Node") +
         hex("000000 01000000 05000000") + text("kids") + hex("000000 13000000 10000000 01000000 ffffffff") +
         hex(offset) + hex("00000000");
}
const bytes node_le = node_le_with_offset("b4ffffff");

}  // namespace

TEST_CASE("basic TypeCodes have their kind and no parameters", "[dynamic][type_code]") {
  for (tc_kind k :
       {tc_kind::tk_null, tc_kind::tk_void, tc_kind::tk_short, tc_kind::tk_long, tc_kind::tk_double, tc_kind::tk_any,
        tc_kind::tk_TypeCode, tc_kind::tk_Principal, tc_kind::tk_longdouble, tc_kind::tk_wchar}) {
    type_code tc = type_code::basic(k);
    CHECK(tc.kind() == k);
    CHECK(tc == type_code::basic(k));
    CHECK_THROWS_AS(tc.member_count(), SystemException);
    CHECK_THROWS_AS(tc.id(), SystemException);
  }
  CHECK(type_code().kind() == tc_kind::tk_null);
  CHECK_THROWS_AS(type_code::basic(tc_kind::tk_struct), SystemException);
  CHECK(to_string(tc_kind::tk_struct) == "tk_struct");
}

TEST_CASE("complex TypeCodes give their members", "[dynamic][type_code]") {
  type_code record = type_code::make_struct(
      "IDL:R:1.0", "R", {{"l", type_code::basic(tc_kind::tk_long)}, {"s", type_code::make_string(8)}});
  CHECK(record.kind() == tc_kind::tk_struct);
  CHECK(record.id() == "IDL:R:1.0");
  CHECK(record.name() == "R");
  REQUIRE(record.member_count() == 2);
  CHECK(record.member_name(1) == "s");
  CHECK(record.member_type(1).kind() == tc_kind::tk_string);
  CHECK(record.member_type(1).length() == 8);
  CHECK_THROWS_AS(record.member_type(2), SystemException);

  type_code u = type_code::make_union("IDL:U:1.0", "U", type_code::basic(tc_kind::tk_long), 2,
                                      {{1, "a", type_code::basic(tc_kind::tk_long)},
                                       {2, "b", type_code::make_string()},
                                       {0, "c", type_code::basic(tc_kind::tk_octet)}});
  CHECK(u.default_index() == 2);
  CHECK(u.member_label(1) == 2);
  CHECK(u.discriminator_type().kind() == tc_kind::tk_long);
  CHECK_THROWS_AS(type_code::make_union("IDL:V:1.0", "V", type_code::make_string(), -1, {}), SystemException);
  CHECK_THROWS_AS(type_code::make_union("IDL:V:1.0", "V", type_code::basic(tc_kind::tk_long), 3, {}), SystemException);

  type_code matrix = type_code::make_alias(
      "IDL:M:1.0", "M", type_code::make_array(type_code::make_array(type_code::basic(tc_kind::tk_long), 4), 3));
  CHECK(matrix.unaliased().kind() == tc_kind::tk_array);
  CHECK(matrix.unaliased().length() == 3);
  CHECK(matrix.unaliased().content_type().length() == 4);
  CHECK_THROWS_AS(type_code::make_array(type_code::basic(tc_kind::tk_long), 0), SystemException);
  CHECK_THROWS_AS(type_code::make_sequence(type_code::basic(tc_kind::tk_void)), SystemException);
  CHECK_THROWS_AS(type_code::make_fixed(40, 2), SystemException);
  CHECK_THROWS_AS(type_code::make_struct("IDL:E:1.0", "E", {}), SystemException);
  CHECK(type_code::make_fixed(10, 2).fixed_digits() == 10);
}

TEST_CASE("equal compares names, equivalent ignores them and aliases", "[dynamic][type_code]") {
  type_code a = type_code::make_struct("IDL:R:1.0", "R", {{"l", type_code::basic(tc_kind::tk_long)}});
  type_code b = type_code::make_struct("IDL:R:1.0", "R", {{"l", type_code::basic(tc_kind::tk_long)}});
  type_code renamed = type_code::make_struct("IDL:R:1.0", "R", {{"x", type_code::basic(tc_kind::tk_long)}});
  type_code no_id = type_code::make_struct("", "", {{"l", type_code::basic(tc_kind::tk_long)}});
  type_code other = type_code::make_struct("", "", {{"l", type_code::basic(tc_kind::tk_short)}});
  CHECK(a == b);
  CHECK_FALSE(a == renamed);
  CHECK(a.equivalent(renamed));
  CHECK(a.equivalent(no_id));
  CHECK_FALSE(no_id.equivalent(other));
  type_code alias = type_code::make_alias("IDL:A:1.0", "A", a);
  CHECK_FALSE(alias == a);
  CHECK(alias.equivalent(a));
  CHECK(node_tc() == node_tc());
  CHECK(node_tc().equivalent(node_tc()));
}

TEST_CASE("simple kinds are written byte for byte and read in both byte orders", "[dynamic][type_code]") {
  CHECK(written(type_code::basic(tc_kind::tk_long)) == hex("03000000"));
  CHECK(read_all(hex("00000003"), byte_order::big_endian).kind() == tc_kind::tk_long);
  CHECK(written(type_code::make_string(10)) == hex("12000000 0a000000"));
  type_code bounded = read_all(hex("00000012 0000000a"), byte_order::big_endian);
  CHECK(bounded == type_code::make_string(10));
  CHECK(written(type_code::make_fixed(5, 2)) == hex("1c000000 0500 0200"));
  CHECK(read_all(hex("0000001c 0005 0002"), byte_order::big_endian) == type_code::make_fixed(5, 2));
}

TEST_CASE("complex kinds are encapsulations", "[dynamic][type_code]") {
  // sequence<long, 5>: kind 19, encapsulation of 12 octets (order, padding, long, bound).
  type_code seq = type_code::make_sequence(type_code::basic(tc_kind::tk_long), 5);
  const bytes seq_le = hex("13000000 0c000000 01000000 03000000 05000000");
  const bytes seq_be = hex("00000013 0000000c 00000000 00000003 00000005");
  CHECK(written(seq) == seq_le);
  CHECK(read_all(seq_le, byte_order::little_endian) == seq);
  CHECK(read_all(seq_be, byte_order::big_endian) == seq);

  // enum Color: id, name, count, names, with string padding to 4.
  const bytes color_le = hex("11000000 4d000000 01000000 18000000") + text("IDL:Integrity/Color:1.0") +
                         hex("06000000") + text("Color") + hex("0000 03000000 04000000") + text("red") +
                         hex("06000000") + text("green") + hex("0000 05000000") + text("blue");
  const bytes color_be = hex("00000011 0000004d 00000000 00000018") + text("IDL:Integrity/Color:1.0") +
                         hex("00000006") + text("Color") + hex("0000 00000003 00000004") + text("red") +
                         hex("00000006") + text("green") + hex("0000 00000005") + text("blue");
  CHECK(to_hex(written(color_tc())) == to_hex(color_le));
  CHECK(read_all(color_le, byte_order::little_endian) == color_tc());
  CHECK(read_all(color_be, byte_order::big_endian) == color_tc());
}

TEST_CASE("every kind survives a round trip", "[dynamic][type_code]") {
  type_code color = color_tc();
  type_code record = type_code::make_struct("IDL:R:1.0", "R",
                                            {{"c", color},
                                             {"w", type_code::make_wstring(3)},
                                             {"f", type_code::make_fixed(9, 3)},
                                             {"o", type_code::make_objref("IDL:I:1.0", "I")},
                                             {"a", type_code::basic(tc_kind::tk_any)},
                                             {"t", type_code::basic(tc_kind::tk_TypeCode)}});
  type_code u = type_code::make_union("IDL:U:1.0", "U", color, -1,
                                      {{0, "r", record}, {2, "b", type_code::make_sequence(record, 4)}});
  for (tc_kind disc :
       {tc_kind::tk_short, tc_kind::tk_ushort, tc_kind::tk_long, tc_kind::tk_ulong, tc_kind::tk_longlong,
        tc_kind::tk_ulonglong, tc_kind::tk_boolean, tc_kind::tk_char, tc_kind::tk_wchar, tc_kind::tk_octet}) {
    type_code v = type_code::make_union("IDL:V:1.0", "V", type_code::basic(disc), 1,
                                        {{1, "x", type_code::basic(tc_kind::tk_long)}, {0, "y", u}});
    CHECK(read_all(written(v), byte_order::little_endian) == v);
  }
  type_code ex = type_code::make_exception("IDL:E:1.0", "E", {{"why", type_code::make_string()}});
  CHECK(read_all(written(ex), byte_order::little_endian) == ex);
  type_code alias = type_code::make_alias("IDL:M:1.0", "M", type_code::make_array(u, 2));
  CHECK(read_all(written(alias), byte_order::little_endian) == alias);
}

TEST_CASE("a recursive TypeCode is written and read with an indirection", "[dynamic][type_code]") {
  type_code node = node_tc();
  CHECK(written(node) == node_le);
  for (auto [b, order] : {std::pair{node_le, byte_order::little_endian}, std::pair{node_be, byte_order::big_endian}}) {
    type_code read = read_all(b, order);
    CHECK(read == node);
    type_code element = read.member_type(0).content_type();
    CHECK(element.kind() == tc_kind::tk_struct);
    CHECK(element.id() == "IDL:Node:1.0");
    CHECK(element.member_type(0).content_type().member_name(0) == "kids");
    CHECK(written(read) == node_le);
  }
  // A member reached from the recursive type keeps the whole type alive.
  type_code kids = node_tc().member_type(0);
  CHECK(kids.content_type().id() == "IDL:Node:1.0");
  // Written apart from its enclosing type, the sequence carries the struct in full.
  type_code again = read_all(written(kids), byte_order::little_endian);
  CHECK(again.kind() == tc_kind::tk_sequence);
  CHECK(again.content_type() == node_tc());
  // An unbound placeholder is no TypeCode to use.
  CHECK_THROWS_AS(type_code::make_recursive("IDL:X:1.0").kind(), SystemException);
}

TEST_CASE("a repeated TypeCode may be an indirection", "[dynamic][type_code]") {
  // struct P { sequence<long> a; <indirection to a's TypeCode> b; }: a's kind at absolute 48,
  // b's offset field at 80: offset -32.
  const bytes pair_le = hex("0f000000 4c000000 01000000 0a000000") + text("IDL:P:1.0") + hex("0000 02000000") +
                        text("P") + hex("0000 02000000 02000000") + text("a") +
                        hex("0000 13000000 0c000000 01000000 03000000 "
                            "00000000 02000000") +
                        text("b") + hex("0000 ffffffff e0ffffff");
  type_code p = read_all(pair_le, byte_order::little_endian);
  REQUIRE(p.member_count() == 2);
  CHECK(p.member_type(1) == type_code::make_sequence(type_code::basic(tc_kind::tk_long)));
  CHECK(p.member_type(0) == p.member_type(1));
}

TEST_CASE("malformed TypeCodes raise MARSHAL", "[dynamic][type_code]") {
  SECTION("every truncation of a valid TypeCode") {
    for (const bytes& whole : {node_le, written(color_tc()), hex("12000000 0a000000")})
      for (std::size_t n = 0; n < whole.size(); ++n) require_marshal(bytes(whole.begin(), whole.begin() + n));
  }
  SECTION("unknown and unsupported kinds") {
    require_marshal(hex("63000000"));
    require_marshal(hex("1d000000 08000000 01000000 00000000"));  // tk_value cut short
    require_marshal(hex("21000000"));                             // tk_local_interface
  }
  SECTION("indirections that point nowhere") {
    require_marshal(hex("ffffffff fcffffff"));         // to itself, at top level
    require_marshal(hex("ffffffff 08000000"));         // forward
    require_marshal(hex("ffffffff 00000080"));         // far back
    require_marshal(node_le_with_offset("b0ffffff"));  // -80: before the struct
    require_marshal(node_le_with_offset("b8ffffff"));  // -72: into the struct's encapsulation
  }
  SECTION("lengths beyond the data") {
    require_marshal(hex("13000000 ffffff7f 01000000 03000000 05000000"));                             // encapsulation
    require_marshal(hex("11000000 18000000 01000000 01000000 00000000 01000000 00000000 ffffffff"));  // enum count
    require_marshal(hex("13000000 0c000000 05000000 03000000 05000000"));  // byte-order octet 5
  }
  SECTION("bad parameters") {
    require_marshal(hex("14000000 0c000000 01000000 03000000 00000000"));  // array of length 0
    require_marshal(hex("13000000 0c000000 01000000 01000000 05000000"));  // sequence of void
    require_marshal(hex("1c000000 2000 0200"));                            // fixed<32,2>
    require_marshal(hex("11000000 18000000 01000000 01000000 00000000 01000000 00000000 00000000"));  // enum of none
    // union on a string discriminator
    require_marshal(
        hex("10000000 24000000 01000000 01000000 00000000 01000000 00000000 12000000 00000000 "
            "ffffffff 00000000"));
  }
  SECTION("nesting beyond the limit") {
    // 100 sequences, each in the encapsulation of the one before: the depth limit stops it early.
    bytes deep = hex("03000000");
    for (int k = 0; k < 100; ++k) {
      bytes inner = hex("01000000") + deep + hex("00000000");
      const auto n = static_cast<std::uint32_t>(inner.size());
      bytes length = {std::byte(n & 0xff), std::byte((n >> 8) & 0xff), std::byte((n >> 16) & 0xff), std::byte(n >> 24)};
      deep = hex("13000000") + length + inner;
    }
    auto in = stream_over(deep, byte_order::little_endian);
    try {
      (void)read_type_code(in);
      FAIL("no exception");
    } catch (const SystemException& e) {
      CHECK(e.kind() == SystemExceptionKind::MARSHAL);
      CHECK(e.minor() == minor::typecode_too_deep);
    }
  }
}

TEST_CASE("valuetype TypeCodes: built, compared, and read back; malformed ones refused", "[dynamic][type_code]") {
  const type_code base = type_code::make_value("IDL:B:1.0", "B", value_modifier::none, type_code(),
                                               {{"a", type_code::basic(tc_kind::tk_long), 1}});
  const type_code derived =
      type_code::make_value("IDL:D:1.0", "D", value_modifier::truncatable, base,
                            {{"next", type_code::make_recursive("IDL:D:1.0"), 0}, {"s", type_code::make_string(), 1}});
  const type_code box = type_code::make_value_box("IDL:X:1.0", "X", type_code::make_sequence(derived));
  CHECK(derived.concrete_base_type() == base);
  CHECK(derived.member_type(0).id() == "IDL:D:1.0");
  CHECK(derived.member_visibility(0) == 0);
  CHECK_FALSE(derived.equal(type_code::make_value("IDL:D:1.0", "D", value_modifier::none, base, {})));
  for (const type_code& tc : {base, derived, box}) CHECK(read_all(written(tc), byte_order::little_endian) == tc);
  SECTION("what cannot be built") {
    CHECK_THROWS_AS(
        type_code::make_value("IDL:V:1.0", "V", value_modifier::none, type_code::basic(tc_kind::tk_long), {}),
        SystemException);
    CHECK_THROWS_AS(type_code::make_value_box("IDL:V:1.0", "V", base), SystemException);
    CHECK_THROWS_AS(node_tc().member_visibility(0), SystemException);  // a struct's members have none
  }
  SECTION("malformed in CDR") {
    // IDL:B:1.0: the modifier at octet 34, the concrete base's kind at 36, the visibility at 56.
    const bytes good = written(base);
    REQUIRE(good.size() == 58);
    auto with = [&](std::size_t at, std::uint8_t octet) {
      bytes b = good;
      b[at] = std::byte{octet};
      return b;
    };
    CHECK(read_all(good, byte_order::little_endian) == base);
    require_marshal(with(34, 7));  // modifier 7
    require_marshal(with(36, 3));  // concrete base tk_long
    require_marshal(with(56, 2));  // visibility 2
  }
}
