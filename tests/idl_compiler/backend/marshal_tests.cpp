// Generated marshaling: every construct of constructs.idl written by generated code and compared
// byte for byte with a hand-rolled writer (native order), read back, and read from the same
// values written in the opposite byte order; at every start alignment (0..7 leading octets), so
// each precomputed layout of a fixed-size struct and both sides of the memcpy paths run.
// Malformed input raises MARSHAL; values beyond their bounds raise BAD_PARAM on the way out.
#include "constructs.h"

#include <catch2/catch.hpp>

#include "switchyard/exception.h"
#include "tests/idl_compiler/backend/wire_writer.h"

using namespace switchyard;
using test::wire_writer;

namespace {

constexpr cdr::byte_order native = cdr::native_byte_order;
constexpr cdr::byte_order swapped = cdr::opposite(cdr::native_byte_order);

std::string hex(std::span<const std::byte> b) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (std::byte x : b) {
    s += digits[static_cast<unsigned>(x) >> 4];
    s += digits[static_cast<unsigned>(x) & 15];
    s += ' ';
  }
  return s;
}

// Writes `value` with generated code after `lead` octets and checks the bytes against `encode`;
// reads it back; reads `encode`'s bytes in the opposite order.
template <class T, class Encode>
void check_round_trip(const T& value, Encode&& encode) {
  for (std::size_t lead = 0; lead < 8; ++lead) {
    CAPTURE(lead);
    cdr::output_stream out;
    wire_writer expected(native);
    for (std::size_t k = 0; k < lead; ++k) {
      out.write_octet(0xAA);
      expected.octet(0xAA);
    }
    cdr_write(out, value);
    encode(expected);
    REQUIRE(hex(out.bytes()) == hex(expected.bytes));

    cdr::input_stream in(out.bytes(), native);
    in.skip(lead);
    T back;
    cdr_read(in, back);
    CHECK(back == value);
    CHECK(in.at_end());

    wire_writer other(swapped);
    for (std::size_t k = 0; k < lead; ++k) other.octet(0xAA);
    encode(other);
    cdr::input_stream swapped_in(other.bytes, swapped);
    swapped_in.skip(lead);
    T back_swapped;
    cdr_read(swapped_in, back_swapped);
    CHECK(back_swapped == value);
    CHECK(swapped_in.at_end());
  }
}

template <class T>
SystemExceptionKind read_error(const std::vector<std::byte>& bytes, cdr::byte_order order = native) {
  cdr::input_stream in(bytes, order);
  T value;
  try {
    cdr_read(in, value);
  } catch (const SystemException& e) {
    return e.kind();
  }
  return SystemExceptionKind::UNKNOWN;
}

template <class T>
SystemExceptionKind write_error(const T& value) {
  cdr::output_stream out;
  try {
    cdr_write(out, value);
  } catch (const SystemException& e) {
    return e.kind();
  }
  return SystemExceptionKind::UNKNOWN;
}

using namespace Constructs;

void encode_point(wire_writer& w, const Point& p) { w.s32(p.x).s32(p.y); }
void encode_inner(wire_writer& w, const Inner& i) {
  w.s16(i.s).u32(static_cast<std::uint32_t>(i.tone)).boolean(i.flag);
}
void encode_bin(wire_writer& w, const Bin& b) { w.s16(b.s).chr(b.c).s32(b.l).octet(b.o).f64(b.d); }

Outer sample_outer() {
  Outer o;
  o.core = {-3, Shade::bright, true};
  o.name = "outer";
  o.points = {{1, 2}, {3, 4}, {-5, 6}};
  o.corners = {Point{7, 8}, Point{9, 10}};
  o.tag.text = "tag";
  return o;
}

void encode_outer(wire_writer& w, const Outer& o) {
  encode_inner(w, o.core);
  w.str(o.name);
  w.u32(static_cast<std::uint32_t>(o.points.size()));
  for (const auto& p : o.points) encode_point(w, p);
  for (const auto& p : o.corners) encode_point(w, p);
  w.str(o.tag.text);
}

}  // namespace

TEST_CASE("fixed-size structs: one block at every alignment, both byte orders", "[idl_compiler][backend]") {
  Point p{-1, 0x12345678};
  check_round_trip(p, [&](wire_writer& w) { encode_point(w, p); });
  Inner i{-2, Shade::light, true};
  check_round_trip(i, [&](wire_writer& w) { encode_inner(w, i); });
  Flat f{0xfe, -2.5};
  check_round_trip(f, [&](wire_writer& w) { w.octet(f.o).f64(f.d); });
  Bin b{-7, 'q', 123456, 9, 1.0 / 3};
  check_round_trip(b, [&](wire_writer& w) { encode_bin(w, b); });
}

TEST_CASE("sequences of native-layout structs: memcpy or field by field, same bytes", "[idl_compiler][backend]") {
  Bins bins;
  for (int k = 0; k < 5; ++k)
    bins.items.push_back({static_cast<std::int16_t>(k - 2), static_cast<char>('a' + k), k * 1000,
                          static_cast<std::uint8_t>(k), k * 0.5});
  // The count lands at 0 or 4 modulo 8: the elements start aligned to 8 (one memcpy) or not
  // (the first by itself, then one memcpy); in the opposite order always per element.
  check_round_trip(bins, [&](wire_writer& w) {
    w.u32(static_cast<std::uint32_t>(bins.items.size()));
    for (const auto& b : bins.items) encode_bin(w, b);
  });
  Bins empty;
  check_round_trip(empty, [](wire_writer& w) { w.u32(0); });
}

TEST_CASE("nested structs, strings, sequences of structs, arrays of structs", "[idl_compiler][backend]") {
  Outer o = sample_outer();
  check_round_trip(o, [&](wire_writer& w) { encode_outer(w, o); });
}

TEST_CASE("unions: every discriminator kind, default and implicit default", "[idl_compiler][backend]") {
  ByLong l;  // default case first
  CHECK(l._d() == 0);
  l.s("text");
  CHECK(l._d() == 2);
  l._d(3);  // another label of the same member
  check_round_trip(l, [](wire_writer& w) { w.s32(3).str("text"); });
  l.l(-9);
  check_round_trip(l, [](wire_writer& w) { w.s32(1).s32(-9); });
  l.o(5);
  CHECK(l._d() == 0);
  check_round_trip(l, [](wire_writer& w) { w.s32(0).octet(5); });
  CHECK_THROWS_AS(l._d(1), SystemException);  // would select another member
  CHECK_THROWS_AS(l.s(), SystemException);

  ByShort s;
  s.d(2.5);
  CHECK(s._d() == -1);
  check_round_trip(s, [](wire_writer& w) { w.s16(-1).f64(2.5); });
  s.p({3, 4});
  check_round_trip(s, [](wire_writer& w) { w.s16(7).s32(3).s32(4); });
  s._default();
  check_round_trip(s, [&](wire_writer& w) { w.s16(s._d()); });

  ByULongLong u;
  u.s("big");
  check_round_trip(u, [](wire_writer& w) { w.u64(5).str("big"); });
  u.b(true);
  check_round_trip(u, [&](wire_writer& w) { w.u64(u._d()).boolean(true); });

  ByChar c;
  c.b("bee");
  check_round_trip(c, [](wire_writer& w) { w.chr('b').str("bee"); });
  c.other(-4);
  check_round_trip(c, [&](wire_writer& w) { w.chr(c._d()).s16(-4); });

  ByBool t;
  t.yes(1);
  check_round_trip(t, [](wire_writer& w) { w.boolean(true).s32(1); });
  t.no("nope");
  check_round_trip(t, [](wire_writer& w) { w.boolean(false).str("nope"); });

  ByEnum e;
  e.l(Line{Point{1, 2}, Point{3, 4}});
  check_round_trip(e, [](wire_writer& w) { w.u32(1).s32(1).s32(2).s32(3).s32(4); });
  e._default();
  CHECK(e._d() == Shade::bright);
  check_round_trip(e, [](wire_writer& w) { w.u32(2); });

  // A value read selects its branch, also the default one.
  wire_writer w(native);
  w.s32(77).octet(1);
  cdr::input_stream in(w.bytes, native);
  ByLong read;
  cdr_read(in, read);
  CHECK(read._d() == 77);
  CHECK(read.o() == 1);
}

TEST_CASE("everything: arrays, nested and bounded sequences, strings, wide types", "[idl_compiler][backend]") {
  Everything e;
  e.a.s("a");
  e.b.p({1, 2});
  e.u.s("u");
  e.c.a(3);
  e.d.no("d");
  e.e.d(4);
  e.g = {{{1, 2, 3}, {4, 5, 6}}};
  e.n = {"x", "", "zz"};
  e.nn = {{1, 2}, {}, {3}};
  e.t = {7, 8};
  e.sn = "five5";
  e.sw = u"wide";
  e.f = {true, false, true};
  e.sh = {Shade::bright, Shade::dark};
  e.ll = -1234567890123LL;
  e.ull = 0xfedcba9876543210ULL;
  e.fl = 1.5f;
  e.wc = u'\u00e9';
  e.ld = 2.75L;
  e.ws = u"h\u00e9llo";
  e.few = {1, 2, 3, 4};
  check_round_trip(e, [&](wire_writer& w) {
    w.s32(2).str("a");
    w.s16(7).s32(1).s32(2);
    w.u64(5).str("u");
    w.chr('a').s32(3);
    w.boolean(false).str("d");
    w.u32(0).s32(4);
    for (const auto& row : e.g)
      for (auto v : row) w.s16(v);
    w.u32(3).str("x").str("").str("zz");
    w.u32(3).u32(2).s16(1).s16(2).u32(0).u32(1).s16(3);
    w.u32(2).s32(7).s32(8);
    w.str("five5");
    w.wstr(u"wide");
    w.u32(3).boolean(true).boolean(false).boolean(true);
    w.u32(2).u32(2).u32(0);
    w.s64(e.ll).u64(e.ull).f32(1.5f).wch(u'\u00e9').ld(2.75L).wstr(u"h\u00e9llo");
    w.u32(4).octet(1).octet(2).octet(3).octet(4);
  });
}

TEST_CASE("exceptions marshal their members", "[idl_compiler][backend]") {
  Failure f("why", 7);
  CHECK(f.repository_id() == "IDL:Constructs/Failure:1.0");
  cdr::output_stream out;
  cdr_write(out, f);
  wire_writer w(native);
  w.str("why").s32(7);
  CHECK(hex(out.bytes()) == hex(w.bytes));
  wire_writer s(swapped);
  s.str("why").s32(7);
  cdr::input_stream in(s.bytes, swapped);
  Failure back;
  cdr_read(in, back);
  CHECK(back.why == "why");
  CHECK(back.code == 7);
}

TEST_CASE("constants, enums and typedefs map as documented", "[idl_compiler][backend]") {
  STATIC_REQUIRE(answer == 42);
  STATIC_REQUIRE(std::string_view(greeting) == "hi \"there\"\n");
  STATIC_REQUIRE(pi == 3.25);
  STATIC_REQUIRE(favourite == Shade::light);
  STATIC_REQUIRE(biggest == 18446744073709551615ULL);
  STATIC_REQUIRE(smallest == INT64_MIN);
  STATIC_REQUIRE(yes);
  STATIC_REQUIRE(letter == 'x');
  STATIC_REQUIRE(Derived::version == 3);
  STATIC_REQUIRE(std::is_same_v<Grid, std::array<std::array<std::int16_t, 3>, 2>>);
  STATIC_REQUIRE(std::is_same_v<Names, std::vector<std::string>>);
  STATIC_REQUIRE(std::is_same_v<ShortWide, std::u16string>);
  STATIC_REQUIRE(std::is_same_v<std::underlying_type_t<Shade>, std::uint32_t>);
}

TEST_CASE("malformed input raises MARSHAL, never reads past the end", "[idl_compiler][backend]") {
  using K = SystemExceptionKind;
  {
    wire_writer w(native);
    w.s16(1).u32(3).boolean(false);  // enumerator 3 of 3
    CHECK(read_error<Inner>(w.bytes) == K::MARSHAL);
  }
  {
    wire_writer w(native);
    w.s16(1).u32(0).octet(2);  // boolean 2
    CHECK(read_error<Inner>(w.bytes) == K::MARSHAL);
  }
  {
    wire_writer w(native);
    w.s16(1).u32(0);  // truncated
    CHECK(read_error<Inner>(w.bytes) == K::MARSHAL);
  }
  {
    wire_writer w(native);
    w.u32(0xffffffffu);  // a sequence length far beyond the data
    CHECK(read_error<Bins>(w.bytes) == K::MARSHAL);
    CHECK(read_error<Bins>(w.bytes, swapped) == K::MARSHAL);
  }
  {
    wire_writer w(native);
    w.u32(3);  // 3 Bins announced, none there
    CHECK(read_error<Bins>(w.bytes) == K::MARSHAL);
  }
  {
    wire_writer w(native);
    w.u32(7);  // ByEnum with enumerator 7
    CHECK(read_error<ByEnum>(w.bytes) == K::MARSHAL);
  }
  {
    // Everything with a 6-character ShortName (bound 5): valid until then.
    wire_writer w(native);
    w.s32(1).s32(0).s16(-1).f64(0).u64(0).boolean(false).chr('a').s32(0).boolean(true).s32(0).u32(0).s32(0);
    for (int k = 0; k < 6; ++k) w.s16(0);
    w.u32(0).u32(0).u32(0).str("sixsix");
    CHECK(read_error<Everything>(w.bytes) == K::MARSHAL);
  }
  {
    // ThreeLongs (bound 3) with 4 elements.
    wire_writer w(native);
    w.s32(1).s32(0).s16(-1).f64(0).u64(0).boolean(false).chr('a').s32(0).boolean(true).s32(0).u32(0).s32(0);
    for (int k = 0; k < 6; ++k) w.s16(0);
    w.u32(0).u32(0).u32(4).s32(1).s32(2).s32(3).s32(4);
    CHECK(read_error<Everything>(w.bytes) == K::MARSHAL);
  }
  {
    wire_writer w(native);  // FewOctets: bound 4 on reading
    Everything e;
    e.few = {1, 2, 3, 4, 5};
    CHECK(write_error(e) == K::BAD_PARAM);
    e.few.clear();
    e.t = {1, 2, 3, 4};
    CHECK(write_error(e) == K::BAD_PARAM);
    e.t.clear();
    e.sn = "toolong";
    CHECK(write_error(e) == K::BAD_PARAM);
    e.sn.clear();
    e.sw = u"fiveu";
    CHECK(write_error(e) == K::BAD_PARAM);
  }
  // Every truncation of a valid Outer fails cleanly.
  cdr::output_stream out;
  cdr_write(out, sample_outer());
  for (std::size_t n = 0; n < out.size(); ++n) {
    CAPTURE(n);
    std::vector<std::byte> cut(out.data(), out.data() + n);
    CHECK(read_error<Outer>(cut) == K::MARSHAL);
  }
}

TEST_CASE("an empty sequence of 8-aligned structs has no padding after its length", "[idl_compiler][backend]") {
  // omniORB writes none (and reads none): padding there would shift the next value.
  switchyard::cdr::output_stream out;
  cdr_write(out, Constructs::Wides{});
  out.write_octet(7);
  CHECK(hex(out.bytes()) == "00 00 00 00 07 ");  // hex() ends each octet with a space
  switchyard::cdr::input_stream in(out.bytes(), switchyard::cdr::native_byte_order);
  Constructs::Wides back;
  back.items.resize(3);
  cdr_read(in, back);
  CHECK(back.items.empty());
  CHECK(in.read_octet() == 7);

  Constructs::Wides one{{Constructs::Wide{1.5, 9}}};
  switchyard::cdr::output_stream full;
  cdr_write(full, one);
  CHECK(full.size() == 4 + 4 + 16);  // length, padding to 8, the struct's 16 octets
}

namespace {

// Square supports NamedShape (and so Shape): its operations are ours to implement.
class square final : public Constructs::Square {
 public:
  square() = default;
  explicit square(double side) { this->side(side); }
  double area() override { return side() * side(); }
  std::string label() override { return label_; }
  void label(const std::string& value) override { label_ = value; }
  void scale(double factor, double& area_after) override {
    side(side() * factor);
    area_after = area();
  }

 private:
  std::string label_;
};

}  // namespace

TEST_CASE("abstract interfaces: a holder calls its value, converts to its bases, and marshals",
          "[idl_compiler][backend]") {
  const value_ref<square> sq = new square(2);
  Constructs::NamedShape named = sq;
  named.label("two");  // an attribute's setter and getter, on the value
  CHECK(named.label() == "two");
  double after = 0;
  named.scale(1.5, after);  // an out parameter
  CHECK(after == 9.0);
  const Constructs::Shape shape = named;  // the base's holder, holding the same value
  CHECK(shape._value().get() == sq.get());
  CHECK(Constructs::Shape(shape).area() == 9.0);
  // A concrete interface's stub converts to the holders of its abstract bases.
  const Constructs::Shape from_stub = Constructs::RemoteShape();
  CHECK(from_stub._is_nil());

  // In a struct: one value in two holders goes once, then as an indirection, and comes back
  // shared; nil is FALSE and a null value.
  register_value_factory(Constructs::Square::_static_repository_id(),
                         std::make_shared<default_value_factory<square>>());
  const Constructs::Shapes sent{shape, {named, Constructs::NamedShape()}};
  cdr::output_stream out;
  cdr_write(out, sent);
  cdr::input_stream in(out.bytes(), native);
  Constructs::Shapes back;
  cdr_read(in, back);
  CHECK(in.at_end());
  REQUIRE(back.first._value());
  CHECK(back.first._value() != sq);
  CHECK(back.first._value() == back.rest.at(0)._value());
  CHECK(back.rest.at(1)._is_nil());
  CHECK(back.first.area() == 9.0);
  unregister_value_factory(Constructs::Square::_static_repository_id());
}
