// Types declared inside structs, unions and exceptions (nested.idl): nested C++ classes with the
// repository ids omniidl gives, marshaled byte for byte like top-level types at every alignment
// and in both byte orders, carried in Anys with their TypeCodes, and passed and raised through
// generated stubs and skeletons on loopback.
#include "nested.h"

#include <catch2/catch.hpp>

#include <array>
#include <memory>
#include <type_traits>

#include "switchyard/any.h"
#include "tests/core/orb_fixture.h"
#include "tests/idl_compiler/backend/wire_writer.h"

using namespace switchyard;
using test::wire_writer;

namespace {

constexpr cdr::byte_order native = cdr::native_byte_order;
constexpr cdr::byte_order swapped = cdr::opposite(cdr::native_byte_order);

// Writes `value` after 0..7 octets and checks the bytes against `encode`; reads them back, and
// reads `encode`'s bytes in the other byte order.
template <class T, class Encode>
void check_wire(const T& value, Encode&& encode) {
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
    REQUIRE(std::vector<std::byte>(out.bytes().begin(), out.bytes().end()) == expected.bytes);
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

// Through an Any and across CDR (write_any, read_any), then out again.
template <class T>
void check_any(const T& value, const type_code& expected_type) {
  any a;
  a <<= value;
  CHECK(a.type() == expected_type);
  cdr::output_stream out;
  out.write_octet(1);
  write_any(out, a);
  cdr::input_stream in(out.bytes(), native);
  CHECK(in.read_octet() == 1);
  any back;
  read_any(in, back);
  CHECK(in.at_end());
  CHECK(back == a);
  T extracted{};
  REQUIRE((back >>= extracted));
  CHECK(extracted == value);
}

Nest::Outer sample_outer() {
  Nest::Outer o;
  o.first = {7, "first"};
  o.shade = Nest::Outer::Color::blue;
  o.pick.picked({1, "picked"});
  o.inners = {{2, "two"}, {3, "three"}};
  o.corner = {-4, 5};
  o.tree.value = 1;
  o.tree.children = {{2, {}}, {3, {{4, {}}}}};
  return o;
}

Nest::Deep sample_deep() {
  Nest::Deep d;
  d.top.inner.value = 11;
  d.top.choice.level({12});
  return d;
}

struct nester final : Nest::Nester_skeleton {
  Nest::Outer echo_outer(const Nest::Outer& o) override { return o; }
  Nest::Shape echo_shape(const Nest::Shape& s) override { return s; }
  Nest::Deep echo_deep(const Nest::Deep& d) override { return d; }
  Nest::Reading::Samples take(const Nest::Reading& r, Nest::Tally::Count& n) override {
    if (r.values.empty()) throw Nest::Overrun("no values");
    n = r.recent[0];
    return r.values;
  }
  void fail(std::int32_t code) override {
    if (code == 1) throw Nest::Failure({code, "detail"}, Nest::Failure::Severity::high, {{2, "more"}});
    if (code == 2) throw Nest::Outer::Problem(Nest::Outer::Color::green, "problem");
  }
};

}  // namespace

TEST_CASE("nested types: C++ classes inside their holder, ids as omniidl gives them", "[idl_compiler][backend]") {
  CHECK(Nest::Outer::_tc_Inner().id() == "IDL:Nest/Outer/Inner:1.0");
  CHECK(Nest::Outer::_tc_Color().id() == "IDL:Nest/Outer/Color:1.0");
  CHECK(Nest::Outer::_tc_Choice().id() == "IDL:Nest/Outer/Choice:1.0");
  CHECK(Nest::Outer::Problem::_repository_id == "IDL:Nest/Outer/Problem:1.0");
  CHECK(Nest::Outer::_tc_Problem().kind() == tc_kind::tk_except);
  CHECK(Nest::Outer::_tc_Point().id() == "IDL:Nest/Outer/Point:1.0");
  CHECK(Nest::Shape::_tc_Circle().id() == "IDL:Nest/Shape/Circle:1.0");
  CHECK(Nest::Shape::_tc_Square().id() == "IDL:Nest/Shape/Square:1.0");
  CHECK(Nest::Failure::_tc_Detail().id() == "IDL:Nest/Failure/Detail:1.0");
  CHECK(Nest::Deep::Level1::_tc_Level2().id() == "IDL:Nest/Deep/Level1/Level2:1.0");
  CHECK(Nest::Deep::Level1::_tc_Either().id() == "IDL:Nest/Deep/Level1/Either:1.0");
  // The holder's TypeCode refers to the nested ones.
  const type_code& outer = Nest::_tc_Outer();
  REQUIRE(outer.member_count() == 6);
  CHECK(outer.member_name(0) == "first");
  CHECK(outer.member_type(0) == Nest::Outer::_tc_Inner());
  CHECK(outer.member_type(2).id() == "IDL:Nest/Outer/Choice:1.0");
  // The recursive nested struct: its sequence refers back to it.
  const type_code& node = Nest::Outer::_tc_Node();
  CHECK(node.member_type(1).content_type().kind() == tc_kind::tk_struct);
}

TEST_CASE("nested types marshal like top-level ones, byte for byte", "[idl_compiler][backend]") {
  check_wire(Nest::Outer::Point{-4, 5}, [](wire_writer& w) { w.s16(-4).s16(5); });
  check_wire(sample_deep(), [](wire_writer& w) { w.s32(11).boolean(true).s32(12); });
  Nest::Deep other;
  other.top.inner.value = -1;
  other.top.choice.none("none");
  check_wire(other, [](wire_writer& w) { w.s32(-1).boolean(false).str("none"); });
  Nest::Shape square;
  square.box({2.5, Nest::Shape::Unit::cm});
  check_wire(square, [](wire_writer& w) { w.s16(2).f64(2.5).u32(1); });
  Nest::Shape bare;
  bare.bare(Nest::Shape::Unit::mm);
  check_wire(bare, [](wire_writer& w) { w.s16(0).u32(0); });
}

TEST_CASE("nested types travel in Anys with their TypeCodes", "[idl_compiler][backend]") {
  check_any(sample_outer(), Nest::_tc_Outer());
  check_any(Nest::Outer::Inner{9, "inner"}, Nest::Outer::_tc_Inner());
  check_any(Nest::Outer::Color::green, Nest::Outer::_tc_Color());
  Nest::Outer::Choice choice;
  choice.text("text");
  check_any(choice, Nest::Outer::_tc_Choice());
  check_any(sample_deep(), Nest::_tc_Deep());
  check_any(Nest::Failure::Detail{4, "four"}, Nest::Failure::_tc_Detail());

  any a;
  a <<= Nest::Outer::Problem(Nest::Outer::Color::red, "why");
  Nest::Outer::Problem problem;
  REQUIRE((a >>= problem));
  CHECK(problem.why == "why");
  CHECK(problem.hue == Nest::Outer::Color::red);
  Nest::Outer::Inner wrong;
  CHECK_FALSE((a >>= wrong));
}

TEST_CASE("typedefs and constants in struct, union and exception bodies", "[idl_compiler][backend]") {
  static_assert(Nest::Reading::size == 3 && Nest::Tally::many == 2 && Nest::Overrun::code == 7);
  static_assert(std::is_same_v<Nest::Reading::Window, std::array<std::int32_t, 3>>);
  CHECK(Nest::Reading::_tc_Samples().id() == "IDL:Nest/Reading/Samples:1.0");
  CHECK(Nest::Reading::_tc_Samples().kind() == tc_kind::tk_alias);
  CHECK(Nest::Reading::_tc_Window().content_type().kind() == tc_kind::tk_array);
  CHECK(Nest::Tally::_tc_Count().id() == "IDL:Nest/Tally/Count:1.0");
  CHECK(Nest::Overrun::_tc_Reason().id() == "IDL:Nest/Overrun/Reason:1.0");
  // The members use them: their TypeCodes are the aliases, the bound is the constant.
  const type_code& reading = Nest::_tc_Reading();
  CHECK(reading.member_type(0) == Nest::Reading::_tc_Samples());
  CHECK(reading.member_type(2).length() == 3);

  const Nest::Reading r{{0.5, -1.25}, {4, 5, 6}, "abc"};
  check_wire(r, [](wire_writer& w) { w.u32(2).f64(0.5).f64(-1.25).s32(4).s32(5).s32(6).str("abc"); });
  check_any(r, Nest::_tc_Reading());
  Nest::Tally tally;
  tally.other("two");
  CHECK(tally._d() == Nest::Tally::many);
  check_wire(tally, [](wire_writer& w) { w.s16(2).str("two"); });
  cdr::output_stream out;
  const Nest::Reading too_long{{}, {}, "abcd"};
  CHECK_THROWS_AS(cdr_write(out, too_long), SystemException);  // string<size>: BAD_PARAM
}

TEST_CASE("nested types through generated stubs and skeletons", "[idl_compiler][backend]") {
  test::serving_orb server;
  const auto ior = server.orb->object_to_string(server.orb->root_adapter().activate(std::make_shared<nester>()));
  server.start();
  auto client = orb_init({});
  Nest::Nester stub(client->string_to_object(ior));

  CHECK(stub.echo_outer(sample_outer()) == sample_outer());
  CHECK(stub.echo_deep(sample_deep()) == sample_deep());
  Nest::Shape round;
  round.round({1.5});
  CHECK(stub.echo_shape(round) == round);

  Nest::Tally::Count n = 0;
  CHECK(stub.take({{1.5, 2.5}, {8, 9, 10}, "tag"}, n) == Nest::Reading::Samples{1.5, 2.5});
  CHECK(n == 8);
  try {
    stub.take({}, n);
    FAIL("no Overrun");
  } catch (const Nest::Overrun& e) {
    CHECK(e.why == "no values");
  }

  stub.fail(0);
  try {
    stub.fail(1);
    FAIL("no Failure");
  } catch (const Nest::Failure& e) {
    CHECK(e.about.code == 1);
    CHECK(e.about.text == "detail");
    CHECK(e.level == Nest::Failure::Severity::high);
    REQUIRE(e.more.size() == 1);
    CHECK(e.more[0].text == "more");
  }
  try {
    stub.fail(2);
    FAIL("no Outer::Problem");
  } catch (const Nest::Outer::Problem& e) {
    CHECK(e.hue == Nest::Outer::Color::green);
    CHECK(e.why == "problem");
  }
}
