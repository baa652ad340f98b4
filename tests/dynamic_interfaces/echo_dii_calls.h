// Every Integrity::Echo operation through the DII (switchyard/request.h), against any server of
// that interface (ours, omniORB's, a DSI servant): each request is built from TypeCodes (syidl's
// _tc_ functions and basic ones) and Anys, sent, and its results compared with what was sent, as
// the IDL's comments say they must be. Shared by the DII tests and the interop tests.
#pragma once

#include "integrity.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "switchyard/any.h"
#include "switchyard/request.h"
#include "tests/dynamic/generated_samples.h"

namespace test {

// A request for an echo_* operation: one in argument, the result of the same type.
inline switchyard::request echo_request(const switchyard::object_ref& echo, const std::string& operation,
                                        const switchyard::any& value) {
  switchyard::request call(echo, operation);
  call.add_in_arg("v") = value;
  call.set_return_type(value.type());
  return call;
}

// Sends `value` through `operation` and checks that the result equals it.
inline void check_echo(const switchyard::object_ref& echo, const std::string& operation, const switchyard::any& value) {
  INFO(operation);
  switchyard::request call = echo_request(echo, operation, value);
  call.invoke();
  CHECK(call.return_value().type().equivalent(value.type()));
  CHECK(call.return_value() == value);
}

// The values every echo_* call sends.
inline std::vector<std::pair<std::string, switchyard::any>> echo_values(bool wide_strings) {
  using switchyard::any;
  std::vector<std::pair<std::string, any>> out;
  auto add = [&](const char* op, auto&& insert) {
    any a;
    insert(a);
    out.emplace_back(op, std::move(a));
  };
  add("echo_boolean", [](any& a) { a <<= true; });
  add("echo_octet", [](any& a) { a <<= std::uint8_t{0xa5}; });
  add("echo_char", [](any& a) { a <<= 'Z'; });
  add("echo_short", [](any& a) { a <<= std::int16_t{-12345}; });
  add("echo_ushort", [](any& a) { a <<= std::uint16_t{54321}; });
  add("echo_long", [](any& a) { a <<= std::int32_t{-123456789}; });
  add("echo_ulong", [](any& a) { a <<= std::uint32_t{0xdeadbeefu}; });
  add("echo_longlong", [](any& a) { a <<= std::int64_t{-1234567890123456789LL}; });
  add("echo_ulonglong", [](any& a) { a <<= std::uint64_t{0xfedcba9876543210ULL}; });
  add("echo_float", [](any& a) { a <<= 3.5f; });
  add("echo_double", [](any& a) { a <<= -2.25; });
  add("echo_string", [](any& a) { a <<= "hello, dynamic switchyard"; });
  if (wide_strings) add("echo_wstring", [](any& a) { a <<= std::u16string(u"wide \u20ac"); });
  add("echo_color", [](any& a) { a <<= Integrity::Color::green; });
  add("echo_record", [](any& a) { a <<= sample_record(); });
  add("echo_narecord", [](any& a) { a <<= sample_narecord(); });
  add("echo_variant", [](any& a) {
    Integrity::Variant v;
    v.s("variant");
    a <<= v;
  });
  add("echo_matrix", [](any& a) {
    Integrity::Matrix m{};
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 4; ++c) m[r][c] = r * 4 - c;
    Integrity::insert_Matrix(a, m);
  });
  add("echo_nested", [](any& a) { a <<= sample_nested(); });
  add("echo_octets", [](any& a) {
    Integrity::Octets o;
    for (int k = 0; k < 1000; ++k) o.push_back(static_cast<std::uint8_t>(k * 7));
    Integrity::insert_Octets(a, o);
  });
  add("echo_longs", [](any& a) { Integrity::insert_Longs(a, {1, -2, 3, -4, 5}); });
  add("echo_doubles", [](any& a) { Integrity::insert_Doubles(a, {0.5, -1.5, 1e300}); });
  add("echo_records", [](any& a) { Integrity::insert_Records(a, sample_records()); });
  add("echo_narecords", [](any& a) { Integrity::insert_NARecords(a, {sample_narecord(), {1, 2.0, 'x', 3, 4}}); });
  add("echo_strings", [](any& a) { Integrity::insert_Strings(a, {"one", "", "three"}); });
  return out;
}

// Every operation of Echo through the DII. `wide_strings`: whether echo_wstring can be sent
// (omniORB refuses wstrings below GIOP 1.2 without a negotiated code set).
inline void check_every_echo_operation(const switchyard::object_ref& echo, bool wide_strings) {
  using namespace switchyard;
  for (const auto& [operation, value] : echo_values(wide_strings)) check_echo(echo, operation, value);

  // echo_any: an Any in, an Any out.
  {
    any inner;
    inner <<= sample_record();
    any outer;
    outer <<= inner;
    check_echo(echo, "echo_any", outer);
  }
  // twist (inout long a, inout string s): a doubled, s reversed.
  {
    request call(echo, "twist");
    call.add_inout_arg("a") <<= std::int32_t{21};
    call.add_inout_arg("s") <<= "dynamic";
    call.invoke();
    std::int32_t a = 0;
    std::string s;
    REQUIRE((call.argument(0).value >>= a));
    REQUIRE((call.argument(1).value >>= s));
    CHECK(a == 42);
    CHECK(s == "cimanyd");
  }
  // split (in Nested v, out string name, out Longs values): returns the number of values.
  {
    request call(echo, "split");
    call.add_in_arg("v") <<= sample_nested();
    call.add_out_arg(type_code::make_string(), "name");
    call.add_out_arg(Integrity::_tc_Longs(), "values");
    call.set_return_type(type_code::basic(tc_kind::tk_long));
    call.invoke();
    std::int32_t count = -1;
    std::string name;
    Integrity::Longs values;
    REQUIRE((call.return_value() >>= count));
    REQUIRE((call.argument(1).value >>= name));
    REQUIRE(Integrity::extract_Longs(call.argument(2).value, values));
    CHECK(count == static_cast<std::int32_t>(sample_nested().values.size()));
    CHECK(name == sample_nested().name);
    CHECK(values == sample_nested().values);
  }
  // refuse (in long code) raises (Refused): 0 returns 0, anything else raises Refused{"refused", code}.
  {
    request call(echo, "refuse");
    call.add_in_arg("code") <<= std::int32_t{0};
    call.set_return_type(type_code::basic(tc_kind::tk_long));
    call.add_exception(Integrity::_tc_Refused());
    call.invoke();
    std::int32_t zero = -1;
    REQUIRE((call.return_value() >>= zero));
    CHECK(zero == 0);
    call.argument(0).value <<= std::int32_t{17};
    try {
      call.invoke();
      FAIL("refuse(17) raised nothing");
    } catch (const unknown_user_exception& e) {
      CHECK(e.repository_id() == "IDL:Integrity/Refused:1.0");
      Integrity::Refused refused;
      REQUIRE((e.exception() >>= refused));
      CHECK(refused.reason == "refused");
      CHECK(refused.code == 17);
    }
    // Not in the exception list: UNKNOWN, as a stub that does not declare it.
    call.exceptions().clear();
    try {
      call.invoke();
      FAIL("refuse(17) raised nothing");
    } catch (const SystemException& e) {
      CHECK(e.kind() == SystemExceptionKind::UNKNOWN);
    }
  }
  // The attributes: _set_label then _get_label; _get_calls.
  {
    request set(echo, "_set_label");
    set.add_in_arg("value") <<= "labelled";
    set.invoke();
    request get(echo, "_get_label");
    get.set_return_type(type_code::make_string());
    get.invoke();
    std::string label;
    REQUIRE((get.return_value() >>= label));
    CHECK(label == "labelled");
    request calls(echo, "_get_calls");
    calls.set_return_type(type_code::basic(tc_kind::tk_ulong));
    calls.invoke();
    std::uint32_t first = 0, second = 0;
    REQUIRE((calls.return_value() >>= first));
    calls.invoke();
    REQUIRE((calls.return_value() >>= second));
    CHECK(second == first + 1);
  }
}

}  // namespace test
