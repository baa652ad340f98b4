// Value plans and the TypeCode caches (orb/dynamic/value_plan.h, type_code_cdr.cpp): values read
// from every position modulo 8 in both byte orders and written to every position come back equal
// (the block-copy and the leaf-by-leaf paths both run), padding from the wire is zeroed, bad
// booleans and enumerators are caught on every path, TypeCodes read or written again are not
// interpreted again, and an Any holding a C++ value marshals it as its canonical CDR says.
#include "switchyard/any.h"

#include <catch2/catch.hpp>

#include <functional>
#include <string>

#include "tests/dynamic/wire_bytes.h"

using namespace switchyard;
using namespace switchyard::test;
using cdr::byte_order;

namespace {

type_code basic(tc_kind k) { return type_code::basic(k); }

// struct BinStruct { short s; char c; long l; octet o; double d; } (idl/ttcp_sequence.idl)
type_code bin_struct() {
  return type_code::make_struct("IDL:BinStruct:1.0", "BinStruct",
                                {{"s", basic(tc_kind::tk_short)},
                                 {"c", basic(tc_kind::tk_char)},
                                 {"l", basic(tc_kind::tk_long)},
                                 {"o", basic(tc_kind::tk_octet)},
                                 {"d", basic(tc_kind::tk_double)}});
}

type_code color() { return type_code::make_enum("IDL:Color:1.0", "Color", {"red", "green", "blue"}); }

// struct Record { long l; double d; short s; octet o; float f; char c; boolean b; } and a Color:
// a run with checks.
type_code record() {
  return type_code::make_struct("IDL:Record:1.0", "Record",
                                {{"l", basic(tc_kind::tk_long)},
                                 {"d", basic(tc_kind::tk_double)},
                                 {"s", basic(tc_kind::tk_short)},
                                 {"o", basic(tc_kind::tk_octet)},
                                 {"f", basic(tc_kind::tk_float)},
                                 {"c", basic(tc_kind::tk_char)},
                                 {"b", basic(tc_kind::tk_boolean)},
                                 {"tint", color()}});
}

// A big-endian encoder for the test's reference: what another ORB on a big-endian machine sends,
// written apart from the code under test.
class big_endian_writer {
 public:
  explicit big_endian_writer(std::size_t origin) : origin_(origin) {}
  bytes out;

  void align(std::size_t a) {
    while ((out.size() + origin_) % a != 0) out.push_back(std::byte{0});
  }
  void put(std::uint64_t v, std::size_t size) {
    align(size);
    for (std::size_t k = 0; k < size; ++k) out.push_back(static_cast<std::byte>(v >> (8 * (size - 1 - k))));
  }

  // Re-encodes one value read from native-order CDR.
  void copy(const type_code& raw, cdr::input_stream& in) {
    const type_code t = raw.unaliased();
    switch (t.kind()) {
      case tc_kind::tk_octet:
      case tc_kind::tk_char:
      case tc_kind::tk_boolean:
        put(in.read_octet(), 1);
        return;
      case tc_kind::tk_short:
      case tc_kind::tk_ushort:
        put(in.read_ushort(), 2);
        return;
      case tc_kind::tk_long:
      case tc_kind::tk_ulong:
      case tc_kind::tk_float:
      case tc_kind::tk_enum:
        put(in.read_ulong(), 4);
        return;
      case tc_kind::tk_double:
      case tc_kind::tk_longlong:
      case tc_kind::tk_ulonglong:
        put(in.read_ulonglong(), 8);
        return;
      case tc_kind::tk_string: {
        std::string_view s = in.read_string_view();
        put(s.size() + 1, 4);
        for (char c : s) out.push_back(static_cast<std::byte>(c));
        out.push_back(std::byte{0});
        return;
      }
      case tc_kind::tk_struct:
        for (std::uint32_t k = 0; k < t.member_count(); ++k) copy(t.member_type(k), in);
        return;
      case tc_kind::tk_sequence: {
        const std::uint32_t n = in.read_ulong();
        put(n, 4);
        for (std::uint32_t k = 0; k < n; ++k) copy(t.content_type(), in);
        return;
      }
      case tc_kind::tk_array:
        for (std::uint32_t k = 0; k < t.length(); ++k) copy(t.content_type(), in);
        return;
      case tc_kind::tk_union: {
        const std::int32_t label = in.read_long();
        put(static_cast<std::uint32_t>(label), 4);
        for (std::uint32_t k = 0; k < t.member_count(); ++k)
          if (static_cast<std::int32_t>(k) == t.default_index() || t.member_label(k) == label) {
            if (static_cast<std::int32_t>(k) == t.default_index()) {
              bool other = false;
              for (std::uint32_t j = 0; j < t.member_count(); ++j)
                other = other || (static_cast<std::int32_t>(j) != t.default_index() && t.member_label(j) == label);
              if (other) continue;
            }
            copy(t.member_type(k), in);
            return;
          }
        return;
      }
      default:
        FAIL("the reference encoder has no " << to_string(t.kind()));
    }
  }

 private:
  std::size_t origin_;
};

struct sample {
  std::string name;
  type_code type;
  std::function<void(cdr::output_stream&)> write;
};

// sequence<Record> of `count` elements: 29 fit in the 1 KB read in one pass, 100 do not.
sample records_sample(int count) {
  return {"sequence<Record> of " + std::to_string(count), type_code::make_sequence(record()),
          [count](cdr::output_stream& o) {
            o.write_ulong(static_cast<std::uint32_t>(count));
            for (int k = 0; k < count; ++k) {
              o.write_long(-k);
              o.write_double(k * 1.5);
              o.write_short(static_cast<std::int16_t>(k));
              o.write_octet(static_cast<std::uint8_t>(k));
              o.write_float(static_cast<float>(k) / 4);
              o.write_char('x');
              o.write_boolean(k % 3 == 0);
              o.write_ulong(static_cast<std::uint32_t>(k % 3));
            }
          }};
}

std::vector<sample> samples() {
  std::vector<sample> out;
  out.push_back({"sequence<BinStruct>", type_code::make_sequence(bin_struct()), [](cdr::output_stream& o) {
                   o.write_ulong(37);
                   for (int k = 0; k < 37; ++k) {
                     o.write_short(static_cast<std::int16_t>(k - 5));
                     o.write_char(static_cast<char>('a' + k % 26));
                     o.write_long(k * 100003);
                     o.write_octet(static_cast<std::uint8_t>(k * 7));
                     o.write_double(k * 0.25 - 3);
                   }
                 }});
  out.push_back(records_sample(29));
  out.push_back({"sequence<long>", type_code::make_sequence(basic(tc_kind::tk_long)), [](cdr::output_stream& o) {
                   o.write_ulong(1001);
                   for (int k = 0; k < 1001; ++k) o.write_long(k * k);
                 }});
  out.push_back({"sequence<double>", type_code::make_sequence(basic(tc_kind::tk_double)), [](cdr::output_stream& o) {
                   o.write_ulong(33);
                   for (int k = 0; k < 33; ++k) o.write_double(k / 3.0);
                 }});
  out.push_back({"sequence<boolean>", type_code::make_sequence(basic(tc_kind::tk_boolean)), [](cdr::output_stream& o) {
                   o.write_ulong(11);
                   for (int k = 0; k < 11; ++k) o.write_boolean(k % 2 == 1);
                 }});
  out.push_back({"sequence<Color>", type_code::make_sequence(color()), [](cdr::output_stream& o) {
                   o.write_ulong(9);
                   for (std::uint32_t k = 0; k < 9; ++k) o.write_ulong(k % 3);
                 }});
  // long m[3][4] and an array of 100 BinStructs (500 leaves: a loop over one run).
  out.push_back({"long[3][4]", type_code::make_array(type_code::make_array(basic(tc_kind::tk_long), 4), 3),
                 [](cdr::output_stream& o) {
                   for (int k = 0; k < 12; ++k) o.write_long(k - 6);
                 }});
  out.push_back({"BinStruct[100]", type_code::make_array(bin_struct(), 100), [](cdr::output_stream& o) {
                   for (int k = 0; k < 100; ++k) {
                     o.write_short(static_cast<std::int16_t>(k));
                     o.write_char('q');
                     o.write_long(-k);
                     o.write_octet(1);
                     o.write_double(k);
                   }
                 }});
  // Runs between variable members: struct { octet tag; string name; double d; short s; sequence<Record> r; long l; }
  type_code mixed = type_code::make_struct("IDL:Mixed:1.0", "Mixed",
                                           {{"tag", basic(tc_kind::tk_octet)},
                                            {"name", type_code::make_string()},
                                            {"d", basic(tc_kind::tk_double)},
                                            {"s", basic(tc_kind::tk_short)},
                                            {"r", type_code::make_sequence(record())},
                                            {"l", type_code::make_alias("IDL:L:1.0", "L", basic(tc_kind::tk_long))}});
  out.push_back({"Mixed", mixed, [](cdr::output_stream& o) {
                   o.write_octet(9);
                   o.write_string("seven");
                   o.write_double(2.5);
                   o.write_short(-2);
                   o.write_ulong(2);
                   for (int k = 0; k < 2; ++k) {
                     o.write_long(k), o.write_double(k), o.write_short(1), o.write_octet(2), o.write_float(3);
                     o.write_char('c'), o.write_boolean(true), o.write_ulong(2);
                   }
                   o.write_long(77);
                 }});
  type_code u = type_code::make_union(
      "IDL:U:1.0", "U", basic(tc_kind::tk_long), 2,
      {{1, "d", basic(tc_kind::tk_double)}, {2, "r", record()}, {0, "o", basic(tc_kind::tk_octet)}});
  out.push_back({"sequence<U>", type_code::make_sequence(u), [](cdr::output_stream& o) {
                   o.write_ulong(3);
                   o.write_long(1), o.write_double(0.5);
                   o.write_long(2), o.write_long(4), o.write_double(8), o.write_short(1), o.write_octet(2);
                   o.write_float(1), o.write_char('r'), o.write_boolean(false), o.write_ulong(1);
                   o.write_long(7), o.write_octet(70);
                 }});
  return out;
}

// The value of `s` in a message: `offset` octets of 0xee, then the value in `order`.
bytes message_with(const sample& s, const any& reference, std::size_t offset, byte_order order) {
  bytes out(offset, std::byte{0xee});
  if (order == cdr::native_byte_order) {
    cdr::output_stream o;
    for (std::size_t k = 0; k < offset; ++k) o.write_octet(0xee);
    cdr::input_stream in = reference.value_stream();
    copy_value(s.type, in, o);
    return bytes_of(o);
  }
  big_endian_writer w(offset);
  cdr::input_stream in = reference.value_stream();
  w.copy(s.type, in);
  return out + w.out;
}

void require_marshal_value(const type_code& type, const bytes& message, std::size_t offset, byte_order order) {
  cdr::input_stream in({message.data(), message.size()}, order);
  in.skip(offset);
  any a;
  CHECK_THROWS_MATCHES(a.assign_from(type, in), SystemException,
                       Catch::Predicate<SystemException>(
                           [](const SystemException& e) { return e.kind() == SystemExceptionKind::MARSHAL; }));
}

}  // namespace

TEST_CASE("values cross from every position in both byte orders to every position", "[dynamic][plan]") {
  for (const sample& s : samples()) {
    any reference;
    reference.replace(s.type, s.write);
    REQUIRE(reference.value_origin() == 0);
    for (byte_order order : {byte_order::little_endian, byte_order::big_endian}) {
      for (std::size_t offset = 0; offset < 8; ++offset) {
        INFO(s.name << " from offset " << offset << (order == cdr::native_byte_order ? ", native" : ", swapped"));
        const bytes message = message_with(s, reference, offset, order);
        cdr::input_stream in({message.data(), message.size()}, order);
        in.skip(offset);
        any got;
        got.assign_from(s.type, in);
        CHECK(in.at_end());
        CHECK(got.value_origin() == offset);
        CHECK(got == reference);
        CHECK(reference == got);
        // And out again at every position: read back, the same value.
        for (std::size_t to = 0; to < 8; ++to) {
          cdr::output_stream o(0, 2);
          for (std::size_t k = 0; k < to; ++k) o.write_octet(0);
          write_any(o, got);
          cdr::input_stream back(o.bytes(), cdr::native_byte_order);
          back.skip(to);
          any again;
          read_any(back, again);
          CHECK(back.at_end());
          CHECK(again == reference);
        }
      }
    }
  }
}

TEST_CASE("padding from the wire is zeroed in the canonical value", "[dynamic][plan]") {
  // sequence<BinStruct> of 2 at offset 0: count, then s c l o (pad 7) d, twice; the padding is 0xaa.
  const type_code seq = type_code::make_sequence(bin_struct());
  bytes message = hex("02000000");
  for (int k = 0; k < 2; ++k) {
    // The first element starts at 4: s@4 c@6 (pad 7) l@8 o@12 (pad 13-15) d@16.
    message = message + (k == 0 ? hex("0100 61 aa 02000000 03 aaaaaa") : hex("0100 61 aa 02000000 03 aaaaaa aaaaaaaa"));
    message = message + hex("000000000000f03f");
  }
  cdr::input_stream in({message.data(), message.size()}, byte_order::little_endian);
  any got;
  got.assign_from(seq, in);
  REQUIRE(in.at_end());
  any clean;
  clean.replace(seq, [](cdr::output_stream& o) {
    o.write_ulong(2);
    for (int k = 0; k < 2; ++k)
      o.write_short(1), o.write_char('a'), o.write_long(2), o.write_octet(3), o.write_double(1);
  });
  CHECK(got == clean);
  for (std::byte b : got.value()) CHECK(b != std::byte{0xaa});
}

TEST_CASE("bad booleans and enumerators are caught whichever way a run is copied", "[dynamic][plan]") {
  const sample s = GENERATE(records_sample(29), records_sample(100));
  CAPTURE(s.name);
  any reference;
  reference.replace(s.type, s.write);
  for (byte_order order : {byte_order::little_endian, byte_order::big_endian}) {
    for (std::size_t offset = 0; offset < 8; ++offset) {
      INFO("offset " << offset << (order == cdr::native_byte_order ? ", native" : ", swapped"));
      bytes good = message_with(s, reference, offset, order);
      // The last element ends with the float (4-aligned), c, b, 2 octets of padding, the enumerator.
      bytes bad_boolean = good;
      bad_boolean[good.size() - 7] = std::byte{2};
      REQUIRE(std::to_integer<int>(good[good.size() - 7]) <= 1);
      REQUIRE(std::to_integer<int>(good[good.size() - 8]) == 'x');
      require_marshal_value(s.type, bad_boolean, offset, order);
      bytes bad_enum = good;
      bad_enum[order == byte_order::little_endian ? good.size() - 4 : good.size() - 1] = std::byte{3};
      require_marshal_value(s.type, bad_enum, offset, order);
      // Copied straight into another stream, at a position that agrees and at one that does not.
      for (std::size_t to : {offset, offset + 1}) {
        cdr::input_stream in({bad_boolean.data(), bad_boolean.size()}, order);
        in.skip(offset);
        cdr::output_stream o;
        for (std::size_t k = 0; k < to; ++k) o.write_octet(0);
        CHECK_THROWS_AS(copy_value(s.type, in, o), SystemException);
      }
      // And skipping (no copy) checks them too.
      cdr::input_stream in({bad_enum.data(), bad_enum.size()}, order);
      in.skip(offset);
      CHECK_THROWS_AS(skip_value(s.type, in), SystemException);
    }
  }
  // A sequence of booleans: one bad octet among them.
  bytes bools = hex("05000000 00 01 01 07 00");
  require_marshal_value(type_code::make_sequence(basic(tc_kind::tk_boolean)), bools, 0, byte_order::little_endian);
}

TEST_CASE("a TypeCode read again is not parsed again", "[dynamic][plan]") {
  cdr::output_stream o;
  write_type_code(o, type_code::make_sequence(record()));
  const bytes encoded = bytes_of(o);
  auto in1 = stream_over(encoded, cdr::native_byte_order);
  auto in2 = stream_over(encoded, cdr::native_byte_order);
  const type_code first = read_type_code(in1);
  const type_code second = read_type_code(in2);
  CHECK(in1.at_end());
  CHECK(in2.at_end());
  CHECK(first.shared_node() == second.shared_node());
  CHECK(first == type_code::make_sequence(record()));
  // A different TypeCode is not mistaken for it: one octet of a name changed.
  bytes other = encoded;
  for (std::size_t k = 0; k + 6 < other.size(); ++k)
    if (other[k] == std::byte{'R'} && other[k + 1] == std::byte{'e'} && other[k + 2] == std::byte{'c'}) {
      other[k] = std::byte{'Q'};
      break;
    }
  auto in3 = stream_over(other, cdr::native_byte_order);
  const type_code third = read_type_code(in3);
  CHECK(third.shared_node() != first.shared_node());
  CHECK_FALSE(third == first);
  CHECK(third.content_type().id() == "IDL:Qecord:1.0");
  // Written again: the same octets, from its kept encoding.
  cdr::output_stream again;
  again.write_octet(1);
  write_type_code(again, second);
  CHECK(bytes(again.bytes().begin() + 4, again.bytes().end()) == encoded);
}

TEST_CASE("a union with wchar labels is written by the rules of each GIOP version", "[dynamic][plan]") {
  const type_code u =
      type_code::make_union("IDL:W:1.0", "W", basic(tc_kind::tk_wchar), -1, {{u'a', "a", basic(tc_kind::tk_long)}});
  for (std::uint8_t minor : {std::uint8_t{0}, std::uint8_t{1}, std::uint8_t{2}, std::uint8_t{1}}) {
    cdr::output_stream o(0, minor);
    write_type_code(o, u);
    cdr::input_stream in(o.bytes(), cdr::native_byte_order, 0, minor);
    CHECK(read_type_code(in) == u);
    CHECK(in.at_end());
  }
}

TEST_CASE("an Any holding a C++ value marshals what its canonical form says", "[dynamic][plan]") {
  struct point {
    std::int32_t x;
    double y;
    bool operator==(const point&) const = default;
  };
  const type_code tc = type_code::make_struct("IDL:Point:1.0", "Point",
                                              {{"x", basic(tc_kind::tk_long)}, {"y", basic(tc_kind::tk_double)}});
  auto write = [](cdr::output_stream& o, const point& p) {
    o.write_long(p.x);
    o.write_double(p.y);
  };
  auto read = [](cdr::input_stream& i, point& p) {
    p.x = i.read_long();
    p.y = i.read_double();
  };
  any a;
  a.replace(tc, point{3, 0.5}, write);
  REQUIRE(a.native<point>() != nullptr);
  CHECK(a.native<point>()->x == 3);
  CHECK(a.native<int>() == nullptr);
  // Copies share the value.
  any b = a;
  CHECK(b.native<point>() == a.native<point>());
  // Its canonical CDR, made on demand.
  CHECK(to_hex(bytes(a.value().begin(), a.value().end())) == to_hex(hex("03000000 00000000 000000000000e03f")));
  for (std::size_t to = 0; to < 8; ++to) {
    cdr::output_stream o;
    for (std::size_t k = 0; k < to; ++k) o.write_octet(0);
    write_any(o, a);
    cdr::input_stream in(o.bytes(), cdr::native_byte_order);
    in.skip(to);
    any back;
    read_any(in, back);
    CHECK(back.native<point>() == nullptr);
    CHECK(back == a);
    point p{};
    CHECK(back.extract(tc, p, read));
    CHECK(p == point{3, 0.5});
  }
  point q{};
  CHECK(a.extract(tc, q, read));
  CHECK(q == point{3, 0.5});
  CHECK_FALSE(a.extract(basic(tc_kind::tk_long), q, read));
}
