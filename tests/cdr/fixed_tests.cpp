// switchyard::fixed: normalisation, text, arithmetic cut to 31 digits, rounding, conversions, and
// CDR's packed decimal, octet for octet.
#include "switchyard/fixed.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "switchyard/exception.h"

using switchyard::CompletionStatus;
using switchyard::fixed;
using switchyard::SystemException;
using switchyard::SystemExceptionKind;
namespace minor = switchyard::minor;

namespace {

using bytes = std::vector<std::uint8_t>;

template <class F>
void check_raises(F&& f, SystemExceptionKind kind, std::uint32_t minor_code) {
  try {
    f();
    FAIL("no exception");
  } catch (const SystemException& e) {
    CHECK(e.kind() == kind);
    CHECK(e.minor() == minor_code);
    CHECK(e.completed() == CompletionStatus::no);
  }
}

template <class F>
void check_out_of_range(F&& f) {
  check_raises(std::forward<F>(f), SystemExceptionKind::DATA_CONVERSION, minor::fixed_out_of_range);
}

template <class F>
void check_bad_fixed(F&& f) {
  check_raises(std::forward<F>(f), SystemExceptionKind::MARSHAL, minor::bad_fixed);
}

bytes packed(const fixed& f, unsigned digits, unsigned scale) {
  bytes out(fixed::packed_size(digits));
  f.to_packed(digits, scale, out.data());
  return out;
}

// The parts a value must have: text, digits, scale, sign.
void check_parts(const fixed& f, const char* text, unsigned digits, unsigned scale) {
  CHECK(f.to_string() == text);
  CHECK(f.fixed_digits() == digits);
  CHECK(f.fixed_scale() == scale);
  CHECK(f.is_negative() == (text[0] == '-'));
}

const char* const max_value = "9999999999999999999999999999999";  // 31 nines

}  // namespace

TEST_CASE("fixed values are normalised: the fewest digits and scale", "[fixed]") {
  struct expected {
    const char* text;
    const char* shown;
    unsigned digits, scale;
  };
  for (const expected& e : {expected{"1.50", "1.5", 2, 1},
                            {"007.50", "7.5", 2, 1},
                            {"0.05", "0.05", 2, 2},
                            {"0", "0", 0, 0},
                            {"-0.0", "0", 0, 0},
                            {"-0", "0", 0, 0},
                            {"000.000", "0", 0, 0},
                            {"100", "100", 3, 0},
                            {"100.00", "100", 3, 0},
                            {"-12.5", "-12.5", 3, 1},
                            {".5", "0.5", 1, 1},
                            {"5.", "5", 1, 0},
                            {"+1.5", "1.5", 2, 1},
                            {"+7d", "7", 1, 0},
                            {"-.25", "-0.25", 2, 2},
                            {"  -0.001D ", "-0.001", 3, 3},
                            {"\t42\n", "42", 2, 0},
                            {"0.1000000000000000000000000000000", "0.1", 1, 1}}) {
    CAPTURE(e.text);
    check_parts(fixed(e.text), e.shown, e.digits, e.scale);
  }
  check_parts(fixed(), "0", 0, 0);
  check_parts(fixed(-5), "-5", 1, 0);
  check_parts(fixed(1000u), "1000", 4, 0);
  check_parts(fixed(-123456789L), "-123456789", 9, 0);
  check_parts(fixed(4000000000ul), "4000000000", 10, 0);
  check_parts(fixed(std::numeric_limits<long long>::min()), "-9223372036854775808", 19, 0);
  check_parts(fixed(std::numeric_limits<unsigned long long>::max()), "18446744073709551615", 20, 0);
  // Magnitudes above 64 bits with trailing zeros to drop.
  check_parts(fixed("1844674407370955161.60"), "1844674407370955161.6", 20, 1);
  check_parts(fixed("123456789012345678901234567.8900"), "123456789012345678901234567.89", 29, 2);
  check_parts(fixed("-1000000000000000000000.0000000000"), "-1000000000000000000000", 22, 0);
  // Digit counts at every power of ten.
  for (unsigned n = 1; n <= fixed::max_digits; ++n) {
    CAPTURE(n);
    CHECK(fixed(std::string(n, '9')).fixed_digits() == n);
    CHECK(fixed("1" + std::string(n - 1, '0')).fixed_digits() == n);
    CHECK(fixed("0." + std::string(n - 1, '0') + "1").fixed_digits() == n);
  }
}

TEST_CASE("fixed text: to_string and text round trips", "[fixed]") {
  CHECK(fixed("-12.50").to_string() == "-12.5");
  CHECK(fixed("0.25").to_string() == "0.25");
  CHECK(fixed("0").to_string() == "0");
  CHECK(fixed("100").to_string() == "100");
  CHECK(fixed("0.05").to_string() == "0.05");
  CHECK(fixed("-0.001").to_string() == "-0.001");
  std::ostringstream out;
  out << fixed("-3.140") << ' ' << fixed(0);
  CHECK(out.str() == "-3.14 0");

  for (const char* text : {"1", "-1", "0.5", "123.456", "-0.0000000000000000000000000000001", max_value,
                           "-9999999999999999999999999999999", "0.9999999999999999999999999999999",
                           "123456789012345.6789012345678901", "1000000000000000000000000000000", "-10.01"}) {
    CAPTURE(text);
    CHECK(fixed(text).to_string() == text);
  }
  // Generated values: text -> fixed -> text, and fixed -> text -> fixed.
  std::uint64_t seed = 12345;
  for (int i = 0; i < 500; ++i) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    const unsigned digits = 1 + static_cast<unsigned>(seed >> 59) % 31;
    std::string text = (seed & 1) ? "-" : "";
    std::string magnitude;
    std::uint64_t x = seed;
    for (unsigned k = 0; k < digits; ++k, x = x * 2862933555777941757ull + 3037000493ull)
      magnitude += static_cast<char>('0' + static_cast<unsigned>(x >> 60) % 10);
    const unsigned scale = static_cast<unsigned>(seed >> 40) % (digits + 1);
    magnitude.insert(magnitude.size() - scale, ".");
    const fixed f(text + magnitude);
    CAPTURE(text + magnitude);
    CHECK(f.fixed_digits() <= fixed::max_digits);
    CHECK(fixed(f.to_string()) == f);
    CHECK(fixed(f.to_string()).to_string() == f.to_string());
  }
}

TEST_CASE("malformed fixed-point text is DATA_CONVERSION bad_fixed_text", "[fixed]") {
  for (const char* text : {"", " ", "-", "+", ".", "-.", "1.2.3", "12x", "1e5", "d", "-d", "--1", "+-1", "1 2", "7 d",
                           "1,5", "0x10", "1dd", "d1"}) {
    CAPTURE(text);
    check_raises([&] { (void)fixed(text); }, SystemExceptionKind::DATA_CONVERSION, minor::bad_fixed_text);
  }
}

TEST_CASE("fixed text past 31 digits: integer digits refused, fraction digits truncated", "[fixed]") {
  check_out_of_range([] { (void)fixed("12345678901234567890123456789012"); });
  check_out_of_range([] { (void)fixed("-10000000000000000000000000000000.5"); });
  // Leading zeros are not significant.
  CHECK(fixed("0001234567890123456789012345678901").to_string() == "1234567890123456789012345678901");
  CHECK(fixed("1234567890123456789012345678901.99") == fixed("1234567890123456789012345678901"));
  check_parts(fixed("0.123456789012345678901234567890123"), "0.1234567890123456789012345678901", 31, 31);
  check_parts(fixed("-12.345678901234567890123456789012399"), "-12.34567890123456789012345678901", 31, 29);
  // A fixed holds no more than 31 fraction places.
  check_parts(fixed("0.00012345678901234567890123456789"), "0.0001234567890123456789012345678", 31, 31);
  check_parts(fixed("0.00000000000000000000000000000001"), "0", 0, 0);
  check_parts(fixed("-0.00000000000000000000000000000009"), "0", 0, 0);
}

TEST_CASE("fixed addition and subtraction are exact, then cut to 31 digits", "[fixed]") {
  CHECK(fixed("1.25") + fixed("2.5") == fixed("3.75"));
  CHECK(fixed("1.25") - fixed("2.5") == fixed("-1.25"));
  CHECK(fixed("-1.25") + fixed("0.5") == fixed("-0.75"));
  CHECK(fixed("-1.25") - fixed("-2.5") == fixed("1.25"));
  check_parts(fixed("0.75") + fixed("0.25"), "1", 1, 0);
  check_parts(fixed("0.9999999999999999999999999999999") + fixed("0.0000000000000000000000000000001"), "1", 1, 0);
  // To zero: never a negative zero.
  check_parts(fixed("1.5") - fixed("1.5"), "0", 0, 0);
  check_parts(fixed("-1.5") + fixed("1.50"), "0", 0, 0);
  check_parts(fixed("-2.5") - fixed("-2.5"), "0", 0, 0);
  // Aligning 10^30 with 10^-30 needs 61 digits: the fraction is truncated to keep 31.
  check_parts(fixed("1000000000000000000000000000000") + fixed("0.000000000000000000000000000001"),
              "1000000000000000000000000000000", 31, 0);
  check_parts(fixed("100000000000000000000000000000") + fixed("0.25"), "100000000000000000000000000000.2", 31, 1);
  check_parts(fixed("-100000000000000000000000000000") - fixed("0.29"), "-100000000000000000000000000000.2", 31, 1);
  // Towards zero: 10^29 - 0.01 = 99999999999999999999999999999.99, 31 digits exactly.
  check_parts(fixed("100000000000000000000000000000") - fixed("0.01"), "99999999999999999999999999999.99", 31, 2);
  check_parts(fixed("1000000000000000000000000000000") - fixed("0.01"), "999999999999999999999999999999.9", 31, 1);
  CHECK(fixed(max_value) + fixed(0) == fixed(max_value));
  CHECK(fixed(max_value) - fixed(1) == fixed("9999999999999999999999999999998"));
  check_out_of_range([] { (void)(fixed(max_value) + fixed(1)); });
  check_out_of_range([] { (void)(-fixed(max_value) - fixed(1)); });
  // Each sum's half is truncated away: the integer part never reaches 32 digits.
  CHECK(fixed(max_value) + fixed("0.5") + fixed("0.5") == fixed(max_value));

  fixed f("1.5");
  f += fixed(1);
  CHECK(f == fixed("2.5"));
  f -= fixed("0.5");
  CHECK(f == fixed(2));
  CHECK(++f == fixed(3));
  CHECK(f++ == fixed(3));
  CHECK(f == fixed(4));
  CHECK(--f == fixed(3));
  CHECK(f-- == fixed(3));
  CHECK(f == fixed(2));
  CHECK(-f == fixed(-2));
  CHECK(+f == fixed(2));
  CHECK(-fixed(0) == fixed(0));
  CHECK_FALSE((-fixed(0)).is_negative());
  CHECK(!fixed(0));
  CHECK(!fixed("-0.000"));
  CHECK_FALSE(!f);
  CHECK_FALSE(!fixed("0.0000000000000000000000000000001"));
}

TEST_CASE("fixed multiplication is exact, then cut to 31 digits", "[fixed]") {
  CHECK(fixed("1.5") * fixed("-2.25") == fixed("-3.375"));
  CHECK(fixed("-0.5") * fixed("-0.5") == fixed("0.25"));
  CHECK(fixed("9.87654321") * fixed("-1.23456789") == fixed("-12.1932631112635269"));
  check_parts(fixed("1234567890123456") * fixed("123456789012345"), "152415787532387431946358064320", 30, 0);
  check_parts(fixed("2.5") * fixed("0.4"), "1", 1, 0);
  check_parts(fixed("-7") * fixed(0), "0", 0, 0);
  CHECK(fixed("12345678901234567890.123") * fixed("0.5") == fixed("6172839450617283945.0615"));
  // 0.1111111111111111^2 = 0.01234567901234567654320987654321 (32 places): the last is cut.
  check_parts(fixed("0.1111111111111111") * fixed("0.1111111111111111"), "0.0123456790123456765432098765432", 31, 31);
  check_parts(fixed("-0.1111111111111111") * fixed("0.1111111111111111"), "-0.0123456790123456765432098765432", 31, 31);
  // 62 digits: 31 fraction digits dropped.
  check_parts(fixed("99999.99999999999999999999999999") * fixed("99999.99999999999999999999999999"),
              "9999999999.999999999999999999998", 31, 21);
  check_parts(fixed("0.0000000000000001") * fixed("0.0000000000000001"), "0", 0, 0);
  check_out_of_range([] { (void)(fixed("10000000000000000") * fixed("1000000000000000")); });  // 10^31
  check_out_of_range([] { (void)(fixed(max_value) * fixed("-1.1")); });
  CHECK(fixed("1000000000000000") * fixed("9999999999999999") == fixed("9999999999999999000000000000000"));
  fixed f(3);
  f *= fixed("0.5");
  CHECK(f == fixed("1.5"));
}

TEST_CASE("fixed division keeps 31 significant digits, truncated", "[fixed]") {
  CHECK(fixed(10) / fixed(4) == fixed("2.5"));
  CHECK(fixed(-10) / fixed(4) == fixed("-2.5"));
  CHECK(fixed("-7.5") / fixed("-2.5") == fixed(3));
  CHECK(fixed("0.001") / fixed("0.1") == fixed("0.01"));
  check_parts(fixed(1) / fixed("0.000000000000000000000000000001"), "1000000000000000000000000000000", 31, 0);
  check_parts(fixed(1) / fixed(3), "0.3333333333333333333333333333333", 31, 31);
  check_parts(fixed(10) / fixed(3), "3.333333333333333333333333333333", 31, 30);
  check_parts(fixed(-2) / fixed(3), "-0.6666666666666666666666666666666", 31, 31);  // truncated, not rounded
  check_parts(fixed(22) / fixed(7), "3.142857142857142857142857142857", 31, 30);
  check_parts(fixed(-1) / fixed(30), "-0.0333333333333333333333333333333", 31, 31);
  check_parts(fixed("1234567890123456789012345678901") / fixed("0.5"), "2469135780246913578024691357802", 31, 0);
  check_parts(fixed("0.0000000000000000000000000000005") / fixed(2), "0.0000000000000000000000000000002", 31, 31);
  check_parts(fixed(max_value) / fixed(max_value), "1", 1, 0);
  check_parts(fixed(0) / fixed("-3"), "0", 0, 0);
  check_out_of_range([] { (void)(fixed(max_value) / fixed("0.1")); });
  check_out_of_range([] { (void)(fixed(1) / fixed("0.0000000000000000000000000000001")); });  // 10^31
  for (const fixed& zero : {fixed(0), fixed("0.000"), fixed("-0")}) {
    check_raises([&] { (void)(fixed(1) / zero); }, SystemExceptionKind::DATA_CONVERSION, minor::fixed_division_by_zero);
  }
  fixed f(7);
  f /= fixed(2);
  CHECK(f == fixed("3.5"));
}

TEST_CASE("fixed comparisons are by value across scales", "[fixed]") {
  CHECK(fixed("1.50") == fixed("1.5"));
  CHECK(fixed("1.5") == fixed(1.5));
  CHECK(fixed("1.05") < fixed("1.5"));
  CHECK(fixed("1.5") > fixed("1.05"));
  CHECK(fixed("-1.5") < fixed("-1.05"));
  CHECK(fixed("-0.1") < fixed(0));
  CHECK(fixed(0) < fixed("0.0000000000000000000000000000001"));
  CHECK(fixed(2) > fixed("1.9999999999999999999999999999999"));
  CHECK(fixed(max_value) > fixed("0.9999999999999999999999999999999"));
  CHECK(-fixed(max_value) < fixed("-0.9999999999999999999999999999999"));
  CHECK(fixed("10") > fixed("9.99"));
  CHECK(fixed("-10") < fixed("-9.99"));
  CHECK(fixed(3) >= fixed(3));
  CHECK(fixed(3) <= fixed("3.0"));
  CHECK(fixed(3) != fixed("3.000000000000000000000000000001"));
  CHECK((fixed("2.50") <=> fixed("2.5")) == std::strong_ordering::equal);
  CHECK((fixed("-2.5") <=> fixed("-2.49")) == std::strong_ordering::less);
  std::vector<fixed> values{fixed("0.5"),  fixed("-1"), fixed("0.05"), fixed(10),
                            fixed("-0.5"), fixed(0),    fixed("9.999")};
  std::sort(values.begin(), values.end());
  std::vector<std::string> shown;
  for (const fixed& v : values) shown.push_back(v.to_string());
  CHECK(shown == std::vector<std::string>{"-1", "-0.5", "0", "0.05", "0.5", "9.999", "10"});
}

TEST_CASE("round is half away from zero, truncate towards zero", "[fixed]") {
  CHECK(fixed("1.25").round(1) == fixed("1.3"));
  CHECK(fixed("-1.25").round(1) == fixed("-1.3"));
  CHECK(fixed("1.24").round(1) == fixed("1.2"));
  CHECK(fixed("-1.24").round(1) == fixed("-1.2"));
  CHECK(fixed("0.5").round(0) == fixed(1));
  CHECK(fixed("-0.5").round(0) == fixed(-1));
  CHECK(fixed("0.4999").round(0) == fixed(0));
  check_parts(fixed("-0.04").round(1), "0", 0, 0);
  check_parts(fixed("9.99").round(1), "10", 2, 0);
  check_parts(fixed("-9.95").round(1), "-10", 2, 0);
  check_parts(fixed("99.96").round(1), "100", 3, 0);
  check_parts(fixed("0.0000000000000000000000000000005").round(30), "0.000000000000000000000000000001", 30, 30);
  check_parts(fixed("9999999999999999999999999999.999").round(2), "10000000000000000000000000000", 29, 0);
  check_parts(fixed("1.2345").round(2), "1.23", 3, 2);
  check_parts(fixed("1.2355").round(3), "1.236", 4, 3);
  CHECK(fixed("1.29").truncate(1) == fixed("1.2"));
  CHECK(fixed("-1.29").truncate(1) == fixed("-1.2"));
  CHECK(fixed("9.99").truncate(0) == fixed(9));
  CHECK(fixed("-9.99").truncate(0) == fixed(-9));
  check_parts(fixed("-0.09").truncate(1), "0", 0, 0);
  check_parts(fixed("1.209").truncate(2), "1.2", 2, 1);
  // At or above the value's scale: unchanged.
  CHECK(fixed("1.5").round(1) == fixed("1.5"));
  CHECK(fixed("1.5").round(3) == fixed("1.5"));
  CHECK(fixed("1.5").truncate(3) == fixed("1.5"));
  CHECK(fixed(7).round(0) == fixed(7));
}

TEST_CASE("fixed from double: the shortest decimal that reads back", "[fixed]") {
  check_parts(fixed(0.1), "0.1", 1, 1);
  check_parts(fixed(-2.5), "-2.5", 2, 1);
  check_parts(fixed(0.0), "0", 0, 0);
  check_parts(fixed(-0.0), "0", 0, 0);
  check_parts(fixed(123.456), "123.456", 6, 3);
  check_parts(fixed(1e30), "1000000000000000000000000000000", 31, 0);
  check_parts(fixed(-1e30), "-1000000000000000000000000000000", 31, 0);
  check_parts(fixed(1.25e-5), "0.0000125", 7, 7);
  check_parts(fixed(1e-31), "0.0000000000000000000000000000001", 31, 31);
  check_parts(fixed(9.999999999999999e30), "9999999999999999000000000000000", 31, 0);
  // Past the 31st place: the nearest value there.
  check_parts(fixed(1.5e-31), "0.0000000000000000000000000000002", 31, 31);
  check_parts(fixed(-1.4e-31), "-0.0000000000000000000000000000001", 31, 31);
  check_parts(fixed(1.234e-30), "0.0000000000000000000000000000012", 31, 31);
  check_parts(fixed(4e-32), "0", 0, 0);
  check_parts(fixed(std::numeric_limits<double>::denorm_min()), "0", 0, 0);
  check_out_of_range([] { (void)fixed(1e31); });
  check_out_of_range([] { (void)fixed(-1e31); });
  check_out_of_range([] { (void)fixed(1e300); });
  check_out_of_range([] { (void)fixed(std::nan("")); });
  check_out_of_range([] { (void)fixed(std::numeric_limits<double>::infinity()); });
  check_out_of_range([] { (void)fixed(-std::numeric_limits<double>::infinity()); });
}

TEST_CASE("fixed from long double", "[fixed]") {
  check_parts(fixed(0.1L), "0.1", 1, 1);
  check_parts(fixed(-2.5L), "-2.5", 2, 1);
  check_parts(fixed(1e30L), "1000000000000000000000000000000", 31, 0);
  check_parts(fixed(123456789.123456789L), "123456789.123456789", 18, 9);
  // A double widened keeps its binary value: 0.1 is then 0.1000000000000000055511151231257827...
  check_parts(fixed(static_cast<long double>(0.1)), "0.10000000000000000555", 20, 20);
  check_out_of_range([] { (void)fixed(1e31L); });
  check_out_of_range([] { (void)fixed(std::nanl("")); });
  check_out_of_range([] { (void)fixed(-std::numeric_limits<long double>::infinity()); });
}

TEST_CASE("fixed to long long and long double", "[fixed]") {
  CHECK(static_cast<long long>(fixed("123.99")) == 123);
  CHECK(static_cast<long long>(fixed("-123.99")) == -123);
  CHECK(static_cast<long long>(fixed("-0.99")) == 0);
  CHECK(static_cast<long long>(fixed(0)) == 0);
  CHECK(static_cast<long long>(fixed("9223372036854775807.9")) == std::numeric_limits<long long>::max());
  CHECK(static_cast<long long>(fixed("-9223372036854775808.9")) == std::numeric_limits<long long>::min());
  check_out_of_range([] { (void)static_cast<long long>(fixed("9223372036854775808")); });
  check_out_of_range([] { (void)static_cast<long long>(fixed("-9223372036854775809")); });
  check_out_of_range([] { (void)static_cast<long long>(fixed(max_value)); });

  CHECK(static_cast<long double>(fixed("-2.5")) == -2.5L);
  CHECK(static_cast<long double>(fixed("0.1")) == 0.1L);
  CHECK(static_cast<long double>(fixed(0)) == 0.0L);
  CHECK(static_cast<long double>(fixed(max_value)) == 9999999999999999999999999999999.0L);
  CHECK(static_cast<long double>(fixed("0.3333333333333333333333333333333")) == 0.3333333333333333333333333333333L);
  CHECK(static_cast<long double>(fixed("-1234567890.123456789012345678901")) == -1234567890.123456789012345678901L);
}

TEST_CASE("packed decimal: octets for odd and even digits, both signs", "[fixed]") {
  CHECK(packed(fixed("123.45"), 5, 2) == bytes{0x12, 0x34, 0x5c});
  CHECK(packed(fixed("-123.45"), 5, 2) == bytes{0x12, 0x34, 0x5d});
  CHECK(packed(fixed("-1.5"), 4, 2) == bytes{0x00, 0x15, 0x0d});  // pad, 01.50, sign
  CHECK(packed(fixed("1.5"), 4, 2) == bytes{0x00, 0x15, 0x0c});
  CHECK(packed(fixed("1.5"), 5, 2) == bytes{0x00, 0x15, 0x0c});
  CHECK(packed(fixed("12.5"), 3, 1) == bytes{0x12, 0x5c});
  CHECK(packed(fixed("12.5"), 2, 0) == bytes{0x01, 0x2c});  // truncated to 12
  CHECK(packed(fixed(0), 1, 0) == bytes{0x0c});
  CHECK(packed(fixed(0), 6, 3) == bytes{0x00, 0x00, 0x00, 0x0c});
  CHECK(packed(fixed(-7), 1, 0) == bytes{0x7d});
  CHECK(packed(fixed("0.7"), 1, 1) == bytes{0x7c});
  CHECK(packed(fixed(-7), 2, 0) == bytes{0x00, 0x7d});
  CHECK(packed(fixed("1.256"), 4, 2) == bytes{0x00, 0x12, 0x5c});  // truncated to the scale
  CHECK(packed(fixed("-1.259"), 4, 2) == bytes{0x00, 0x12, 0x5d});
  CHECK(packed(fixed("-0.001"), 3, 2) == bytes{0x00, 0x0c});  // truncated to zero: positive
  CHECK(packed(fixed("99.99"), 4, 2) == bytes{0x09, 0x99, 0x9c});
  check_out_of_range([] { (void)packed(fixed("123.4"), 4, 2); });
  check_out_of_range([] { (void)packed(fixed(100), 2, 0); });
  check_out_of_range([] { (void)packed(fixed(10), 1, 0); });
  CHECK(packed(fixed("0.5"), 1, 0) == bytes{0x0c});  // truncated, not rounded
  CHECK(packed(fixed("-9.5"), 1, 0) == bytes{0x9d});
}

TEST_CASE("packed decimal: the largest fixed<31,0> and fixed<31,31>", "[fixed]") {
  bytes all_nines(16, 0x99);
  all_nines[15] = 0x9c;
  const fixed largest(max_value);
  const fixed largest_fraction("0.9999999999999999999999999999999");
  CHECK(packed(largest, 31, 0) == all_nines);
  CHECK(packed(largest_fraction, 31, 31) == all_nines);
  check_parts(fixed::from_packed(all_nines.data(), 31, 0), max_value, 31, 0);
  check_parts(fixed::from_packed(all_nines.data(), 31, 31), "0.9999999999999999999999999999999", 31, 31);
  all_nines[15] = 0x9d;
  CHECK(packed(-largest, 31, 0) == all_nines);
  CHECK(fixed::from_packed(all_nines.data(), 31, 0) == -largest);
  CHECK(fixed::from_packed(all_nines.data(), 31, 31) == -largest_fraction);
  // Digit order across the 16-digit split.
  const fixed counting("1234567890123456789012345678901");
  const bytes counting_octets{0x12, 0x34, 0x56, 0x78, 0x90, 0x12, 0x34, 0x56,
                              0x78, 0x90, 0x12, 0x34, 0x56, 0x78, 0x90, 0x1c};
  CHECK(packed(counting, 31, 0) == counting_octets);
  CHECK(fixed::from_packed(counting_octets.data(), 31, 0) == counting);
  CHECK(packed(fixed(1), 31, 30) == bytes{0x10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x0c});
  CHECK(packed(fixed(1), 30, 0) == bytes{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x1c});
}

TEST_CASE("packed decimal: reading back, normalised", "[fixed]") {
  const std::uint8_t padded[] = {0x00, 0x15, 0x0c};  // fixed<4,2>: pad, 01.50, sign
  check_parts(fixed::from_packed(padded, 4, 2), "1.5", 2, 1);
  const std::uint8_t negative[] = {0x12, 0x34, 0x5d};
  check_parts(fixed::from_packed(negative, 5, 2), "-123.45", 5, 2);
  check_parts(fixed::from_packed(negative, 5, 5), "-0.12345", 5, 5);
  check_parts(fixed::from_packed(negative, 5, 0), "-12345", 5, 0);
  const std::uint8_t f_sign[] = {0x12, 0x3f};
  check_parts(fixed::from_packed(f_sign, 3, 0), "123", 3, 0);
  const std::uint8_t zero[] = {0x00, 0x0c};
  check_parts(fixed::from_packed(zero, 3, 1), "0", 0, 0);
  const std::uint8_t negative_zero[] = {0x00, 0x0d};
  check_parts(fixed::from_packed(negative_zero, 3, 1), "0", 0, 0);
  const std::uint8_t trailing_zeros[] = {0x10, 0x00, 0x0c};
  check_parts(fixed::from_packed(trailing_zeros, 5, 4), "1", 1, 0);
  const std::uint8_t fraction[] = {0x00, 0x05, 0x0c};  // fixed<5,3>: 00.050
  check_parts(fixed::from_packed(fraction, 5, 3), "0.05", 2, 2);
}

TEST_CASE("packed decimal: nibbles out of range are MARSHAL bad_fixed", "[fixed]") {
  const std::uint8_t high_digit[] = {0xa1, 0x3c};
  check_bad_fixed([&] { (void)fixed::from_packed(high_digit, 3, 0); });
  const std::uint8_t low_digit[] = {0x1a, 0x3c};
  check_bad_fixed([&] { (void)fixed::from_packed(low_digit, 3, 0); });
  const std::uint8_t last_digit[] = {0x12, 0xfc};
  check_bad_fixed([&] { (void)fixed::from_packed(last_digit, 3, 0); });
  bytes long_bad(16, 0x11);
  long_bad[15] = 0x1c;
  long_bad[9] = 0x1b;  // among the last 16 digits
  check_bad_fixed([&] { (void)fixed::from_packed(long_bad.data(), 31, 0); });
  long_bad[9] = 0x11;
  long_bad[2] = 0xe1;  // among the first 15
  check_bad_fixed([&] { (void)fixed::from_packed(long_bad.data(), 31, 0); });
  long_bad[2] = 0x11;
  CHECK(fixed::from_packed(long_bad.data(), 31, 0) == fixed("1111111111111111111111111111111"));
  for (std::uint8_t sign = 0; sign < 16; ++sign) {
    if (sign == 0xc || sign == 0xd || sign == 0xf) continue;
    CAPTURE(int{sign});
    const std::uint8_t bad_sign[] = {0x12, static_cast<std::uint8_t>(0x30 | sign)};
    check_bad_fixed([&] { (void)fixed::from_packed(bad_sign, 3, 0); });
  }
  const std::uint8_t bad_pad[] = {0x10, 0x0c};  // fixed<2,0>: the first nibble pads
  check_bad_fixed([&] { (void)fixed::from_packed(bad_pad, 2, 0); });
  // Types beyond fixed<31,31> (say, from a TypeCode off the wire) are refused, not overrun.
  const bytes long_zero(17, 0x00);
  check_bad_fixed([&] { (void)fixed::from_packed(long_zero.data(), 32, 0); });
  check_bad_fixed([&] { (void)fixed::from_packed(long_zero.data(), 3, 4); });
  check_out_of_range([] { (void)packed(fixed(1), 32, 0); });
  check_out_of_range([] { (void)packed(fixed(1), 3, 4); });
}

TEST_CASE("packed decimal: round trips over many values and types", "[fixed]") {
  std::uint64_t seed = 987654321;
  int checked = 0;
  for (unsigned digits = 1; digits <= fixed::max_digits; ++digits) {
    for (unsigned scale = 0; scale <= digits; ++scale) {
      for (int i = 0; i < 20; ++i) {
        // A value of the type: up to `digits` random digits at `scale`, either sign.
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        std::string text = (seed >> 63) ? "-" : "";
        std::uint64_t x = seed;
        const unsigned length = 1 + static_cast<unsigned>(seed >> 32) % digits;
        std::string magnitude(digits - length, '0');
        for (unsigned k = 0; k < length; ++k, x = x * 2862933555777941757ull + 3037000493ull)
          magnitude += static_cast<char>('0' + static_cast<unsigned>(x >> 60) % 10);
        magnitude.insert(magnitude.size() - scale, ".");
        const fixed value(text + magnitude);
        CAPTURE(digits, scale, text + magnitude);
        const bytes octets = packed(value, digits, scale);
        REQUIRE(octets.size() == (digits + 2) / 2);
        const fixed back = fixed::from_packed(octets.data(), digits, scale);
        CHECK(back == value);
        CHECK(back.to_string() == value.to_string());
        ++checked;
      }
    }
  }
  CHECK(checked == 20 * 527);  // 527 types: digits + 1 scales for each of 1..31 digits
  // Values with more fraction digits than the type: truncated on the way out.
  for (int k = -2000; k <= 2000; k += 7) {
    for (auto [digits, scale] : {std::pair{10u, 5u}, {4u, 2u}, {31u, 10u}, {9u, 0u}, {6u, 1u}}) {
      const fixed value = fixed(k) / fixed(64);  // up to 6 fraction digits
      CAPTURE(k, digits, scale);
      const bytes octets = packed(value, digits, scale);
      CHECK(fixed::from_packed(octets.data(), digits, scale) == value.truncate(scale));
    }
  }
}
