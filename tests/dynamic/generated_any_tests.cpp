// Generated TypeCodes and Any operators (syidl on idl/integrity.idl and any_types.idl): the
// TypeCodes carry repository ids and member names, values of every generated type go in and out
// of an Any and across CDR, recursive types get indirections, and extraction checks the type.
#include "any_types.h"
#include "integrity.h"

#include <catch2/catch.hpp>

#include "switchyard/any.h"
#include "tests/dynamic/generated_samples.h"

using namespace switchyard;

namespace {

any across(const any& a) {
  cdr::output_stream out;
  out.write_octet(1);  // the Any starts misaligned, as it would in a message
  write_any(out, a);
  cdr::input_stream in(out.bytes(), cdr::native_byte_order);
  CHECK(in.read_octet() == 1);
  any back;
  read_any(in, back);
  CHECK(in.at_end());
  return back;
}

template <class T>
void check_round_trip(const T& value, const type_code& expected_type) {
  any a;
  a <<= value;
  CHECK(a.type() == expected_type);
  any back = across(a);
  CHECK(back == a);
  T out{};
  REQUIRE((back >>= out));
  CHECK(out == value);
}

}  // namespace

TEST_CASE("generated TypeCodes carry ids, names and members", "[dynamic][generated]") {
  const type_code& record = Integrity::_tc_Record();
  CHECK(record.kind() == tc_kind::tk_struct);
  CHECK(record.id() == "IDL:Integrity/Record:1.0");
  CHECK(record.name() == "Record");
  REQUIRE(record.member_count() == 7);
  CHECK(record.member_name(6) == "b");
  CHECK(record.member_type(6).kind() == tc_kind::tk_boolean);

  const type_code& nested = Integrity::_tc_Nested();
  CHECK(nested.member_type(1).kind() == tc_kind::tk_alias);
  CHECK(nested.member_type(1).id() == "IDL:Integrity/Longs:1.0");
  CHECK(nested.member_type(4).unaliased().kind() == tc_kind::tk_array);
  CHECK(nested.member_type(4).unaliased().length() == 3);
  CHECK(nested.member_type(4).unaliased().content_type().length() == 4);
  CHECK(nested.member_type(5).unaliased().length() == 8);

  const type_code& variant = Integrity::_tc_Variant();
  CHECK(variant.default_index() == 3);
  CHECK(variant.member_label(1) == 2);
  CHECK(Integrity::_tc_Color().member_name(2) == "blue");
  CHECK(Integrity::_tc_Refused().kind() == tc_kind::tk_except);
  CHECK(Integrity::_tc_Echo().kind() == tc_kind::tk_objref);
  CHECK(Integrity::_tc_Echo().id() == "IDL:Integrity/Echo:1.0");
  CHECK(AnyTypes::Holder::_tc_FewOuters().unaliased().length() == 3);
  CHECK(AnyTypes::Outer::_tc_Inner().member_type(1).length() == 5);
  CHECK(AnyTypes::_tc_ByShape().discriminator_type().id() == "IDL:AnyTypes/Shape:1.0");
}

TEST_CASE("generated structs, unions, enums, exceptions and typedefs cross in an Any", "[dynamic][generated]") {
  check_round_trip(sample_record(), Integrity::_tc_Record());
  check_round_trip(sample_narecord(), Integrity::_tc_NARecord());
  check_round_trip(sample_nested(), Integrity::_tc_Nested());
  check_round_trip(Integrity::Color::green, Integrity::_tc_Color());
  Integrity::Variant variant;
  variant.o(7);
  check_round_trip(variant, Integrity::_tc_Variant());
  variant.d(2.5);
  check_round_trip(variant, Integrity::_tc_Variant());
  any refused_any;
  refused_any <<= Integrity::Refused("no", 4);
  Integrity::Refused refused_out;
  REQUIRE((across(refused_any) >>= refused_out));
  CHECK(refused_out.reason == "no");
  CHECK(refused_out.code == 4);

  any records;
  Integrity::insert_Records(records, sample_records());
  CHECK(records.type() == Integrity::_tc_Records());
  Integrity::Records out;
  REQUIRE(Integrity::extract_Records(across(records), out));
  CHECK(out == sample_records());

  any matrix;
  Integrity::Matrix m{};
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 4; ++c) m[r][c] = r - c;
  Integrity::insert_Matrix(matrix, m);
  Integrity::Matrix m_out{};
  REQUIRE(Integrity::extract_Matrix(across(matrix), m_out));
  CHECK(m_out == m);

  // An exception in an Any is its repository id, then its members.
  any refused;
  refused <<= Integrity::Refused("why", 9);
  auto in = refused.value_stream();
  CHECK(in.read_string() == "IDL:Integrity/Refused:1.0");
}

TEST_CASE("nested, recursive and any-holding generated types cross in an Any", "[dynamic][generated]") {
  AnyTypes::Outer outer;
  outer.part = {-3, "abcde"};
  outer.by_shape.radius(1.5);
  outer.optional.value("here");
  outer.payload <<= sample_nested();
  outer.type = Integrity::_tc_Nested();
  outer.wide = u"wide";
  outer.big = UINT64_MAX;
  outer.precise = 0.75L;
  check_round_trip(outer, AnyTypes::_tc_Outer());
  outer.by_shape.side(4);
  outer.optional._default();
  check_round_trip(outer, AnyTypes::_tc_Outer());

  AnyTypes::Tree tree{"root", {AnyTypes::Tree{"a", {}}, AnyTypes::Tree{"b", {AnyTypes::Tree{"c", {}}}}}};
  check_round_trip(tree, AnyTypes::_tc_Tree());
  AnyTypes::Pong pong{1, {AnyTypes::Ping{2, {AnyTypes::Pong{3, {}}}}}};
  check_round_trip(pong, AnyTypes::_tc_Pong());
  CHECK(AnyTypes::_tc_Pong().member_type(1).content_type().member_type(1).content_type().id() ==
        "IDL:AnyTypes/Pong:1.0");

  AnyTypes::Holder::FewOuters few{outer, outer};
  any a;
  AnyTypes::Holder::insert_FewOuters(a, few);
  AnyTypes::Holder::FewOuters few_out;
  REQUIRE(AnyTypes::Holder::extract_FewOuters(across(a), few_out));
  CHECK(few_out == few);
  check_round_trip(AnyTypes::Holder::Mode::write, AnyTypes::Holder::_tc_Mode());
}

TEST_CASE("generated extraction checks the type", "[dynamic][generated]") {
  any a;
  a <<= sample_record();
  Integrity::NARecord na{};
  CHECK_FALSE((a >>= na));
  std::int32_t l = 0;
  CHECK_FALSE((a >>= l));
  Integrity::Longs longs;
  CHECK_FALSE(Integrity::extract_Longs(a, longs));
  // A type equivalent but not equal (another ORB's names) still extracts.
  any renamed;
  renamed.assign(type_code::make_struct("IDL:Integrity/Record:1.0", "", {{"x", type_code::basic(tc_kind::tk_long)}}),
                 a.value());
  Integrity::Record r{};
  CHECK((renamed >>= r));
  CHECK(r == sample_record());
}
