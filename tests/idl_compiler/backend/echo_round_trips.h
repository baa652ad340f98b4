// Every Integrity::Echo operation with values at their edges, each checked to come back
// unchanged: run against our own server (end_to_end_tests.cpp) and against omniORB's
// (tests/interop/generated_stubs_omni_tests.cpp). Include after catch.hpp and "integrity.h".
#pragma once

#include <cstdint>
#include <limits>
#include <string>

namespace test {

inline Integrity::Nested sample_nested() {
  Integrity::Nested n;
  n.name = "nested \xc3\xbc";
  n.values = {1, -2, std::numeric_limits<std::int32_t>::max()};
  n.tint = Integrity::Color::blue;
  n.choice.s("chosen");
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 4; ++c) n.grid[r][c] = r * 10 - c;
  n.few = {Integrity::Record{1, 2.5, 3, 4, 5.5f, 'r', true}, Integrity::Record{-1, -2.5, -3, 0, 0.25f, 'z', false}};
  return n;
}

// `wide`: also wstrings (omniORB sends them in GIOP 1.2 only). Leaves the label "changed".
inline void check_echo_round_trips(Integrity::Echo& echo, bool wide) {
  using limits_long = std::numeric_limits<std::int32_t>;
  CHECK(echo.echo_boolean(true));
  CHECK_FALSE(echo.echo_boolean(false));
  CHECK(echo.echo_octet(0xfe) == 0xfe);
  CHECK(echo.echo_char('~') == '~');
  CHECK(echo.echo_short(std::numeric_limits<std::int16_t>::min()) == std::numeric_limits<std::int16_t>::min());
  CHECK(echo.echo_ushort(65535) == 65535);
  CHECK(echo.echo_long(limits_long::min()) == limits_long::min());
  CHECK(echo.echo_ulong(0xdeadbeefu) == 0xdeadbeefu);
  CHECK(echo.echo_longlong(std::numeric_limits<std::int64_t>::min()) == std::numeric_limits<std::int64_t>::min());
  CHECK(echo.echo_ulonglong(std::numeric_limits<std::uint64_t>::max()) == std::numeric_limits<std::uint64_t>::max());
  CHECK(echo.echo_float(-1.25f) == -1.25f);
  CHECK(echo.echo_double(1e300) == 1e300);
  CHECK(echo.echo_string("") == "");
  CHECK(echo.echo_string("\xc3\xbc"
                         "ber alles") ==
        "\xc3\xbc"
        "ber alles");
  if (wide) {
    CHECK(echo.echo_wstring(u"wide \u00e9\u4e2d") == u"wide \u00e9\u4e2d");
    CHECK(echo.echo_wstring(u"") == u"");
  }
  CHECK(echo.echo_color(Integrity::Color::green) == Integrity::Color::green);
  Integrity::Record record{-7, 3.5, -2, 200, 0.5f, 'c', true};
  CHECK(echo.echo_record(record) == record);
  Integrity::NARecord na{9, -0.125, 'n', -99999999999LL, 77};
  CHECK(echo.echo_narecord(na) == na);
  Integrity::Variant variant;
  variant.l(5);
  CHECK(echo.echo_variant(variant) == variant);
  variant.s("text");
  CHECK(echo.echo_variant(variant) == variant);
  variant.d(6.5);
  CHECK(echo.echo_variant(variant) == variant);
  variant.o(3);  // the default case
  CHECK(echo.echo_variant(variant) == variant);
  Integrity::Matrix matrix{};
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 4; ++c) matrix[r][c] = r * 4 + c - 5;
  CHECK(echo.echo_matrix(matrix) == matrix);
  CHECK(echo.echo_nested(sample_nested()) == sample_nested());
  Integrity::Octets octets(100000);
  for (std::size_t i = 0; i < octets.size(); ++i) octets[i] = static_cast<std::uint8_t>(i * 13);
  CHECK(echo.echo_octets(octets) == octets);  // omniORB fragments a reply this large
  CHECK(echo.echo_octets({}).empty());
  Integrity::Longs longs{1, -1, limits_long::max(), limits_long::min()};
  CHECK(echo.echo_longs(longs) == longs);
  CHECK(echo.echo_longs({}).empty());
  Integrity::Doubles doubles{0.0, -0.5, 1e-300};
  CHECK(echo.echo_doubles(doubles) == doubles);
  Integrity::Records records(170, record);
  records[3].c = 'x';
  CHECK(echo.echo_records(records) == records);
  Integrity::NARecords narecords(91, na);
  narecords[8].s = -1;
  CHECK(echo.echo_narecords(narecords) == narecords);
  Integrity::Strings strings{"a", "", "ccc"};
  CHECK(echo.echo_strings(strings) == strings);

  // inout, out, user exceptions, attributes.
  std::int32_t a = 21;
  std::string s = "abc";
  echo.twist(a, s);
  CHECK(a == 42);
  CHECK(s == "cba");
  std::string name;
  Integrity::Longs values;
  CHECK(echo.split(sample_nested(), name, values) == 3);
  CHECK(name == sample_nested().name);
  CHECK(values == sample_nested().values);
  CHECK(echo.refuse(0) == 0);
  try {
    echo.refuse(17);
    FAIL("refuse(17) returned");
  } catch (const Integrity::Refused& e) {
    CHECK(e.reason == "refused");
    CHECK(e.code == 17);
    CHECK(e.repository_id() == "IDL:Integrity/Refused:1.0");
  }
  echo.label("changed");
  CHECK(echo.label() == "changed");
}

}  // namespace test
