// switchyard::fixed: normalised decimals of up to 31 digits. Sums, products and quotients are
// formed exactly in Boost's fixed-width 512-bit integers (an aligned sum or a product needs 62
// digits, a quotient's dividend 93), then cut to 31 digits. The packed decimal, the text and the
// normalisation stay in 64-bit halves: 128-bit division is a library call.
#include "switchyard/fixed.h"

#include <boost/multiprecision/cpp_int.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <ostream>
#include <string>
#include <utility>

#include "switchyard/exception.h"

namespace switchyard {

namespace {

// __extension__: no -Wpedantic warning for GCC's 128-bit integers.
__extension__ typedef unsigned __int128 u128;
__extension__ typedef __int128 i128;
// Fixed width, so no heap: 10^93 < 2^310.
using wide = boost::multiprecision::uint512_t;

constexpr std::uint64_t ten_to_16 = 10'000'000'000'000'000ull;
constexpr std::uint64_t ten_to_17 = 100'000'000'000'000'000ull;

constexpr std::array<u128, 39> powers_of_ten = [] {
  std::array<u128, 39> p{};
  p[0] = 1;
  for (std::size_t i = 1; i < p.size(); ++i) p[i] = p[i - 1] * 10;
  return p;
}();

// Two decimal digits as a packed decimal octet: 42 -> 0x42.
constexpr std::array<std::uint8_t, 100> packed_pairs = [] {
  std::array<std::uint8_t, 100> t{};
  for (unsigned i = 0; i < t.size(); ++i) t[i] = static_cast<std::uint8_t>(i / 10 << 4 | i % 10);
  return t;
}();

constexpr u128 pow10(unsigned n) { return powers_of_ten[n]; }

unsigned digit_count(u128 m) {
  if (m == 0) return 0;
  const auto high = static_cast<std::uint64_t>(m >> 64);
  const int bits = high != 0 ? 128 - std::countl_zero(high) : 64 - std::countl_zero(static_cast<std::uint64_t>(m));
  // bits * log10(2), rounded down, is the count or one less.
  const auto guess = static_cast<unsigned>(bits * 1233 >> 12);
  return guess + (m >= powers_of_ten[guess] ? 1 : 0);
}

[[noreturn]] void raise(SystemExceptionKind kind, std::uint32_t minor_code, std::string detail) {
  throw SystemException(kind, minor_code, CompletionStatus::no, std::move(detail));
}

[[noreturn]] void out_of_range(std::string detail) {
  raise(SystemExceptionKind::DATA_CONVERSION, minor::fixed_out_of_range, std::move(detail));
}

// The n lowest decimal digits of m (n <= 32), most significant first: at most one 128-bit division,
// then 64-bit arithmetic.
void decimal_digits(u128 m, unsigned n, std::uint8_t* out) {
  std::uint64_t high, low;
  if (m <= UINT64_MAX) {
    high = static_cast<std::uint64_t>(m) / ten_to_16;
    low = static_cast<std::uint64_t>(m) % ten_to_16;
  } else {
    const u128 high_part = m / ten_to_16;
    high = static_cast<std::uint64_t>(high_part);
    low = static_cast<std::uint64_t>(m - high_part * ten_to_16);
  }
  for (unsigned k = 0; k < n; ++k) {
    std::uint64_t& part = k < 16 ? low : high;
    out[n - 1 - k] = static_cast<std::uint8_t>(part % 10);
    part /= 10;
  }
}

// "-12.5", "0.05", "0": at most 34 characters (sign, "0.", 31 digits).
constexpr std::size_t max_text = 34;

std::size_t format(u128 magnitude, unsigned digits, unsigned scale, bool negative, char* out) {
  std::uint8_t d[fixed::max_digits];
  const unsigned n = std::max(digits, 1u);  // zero is "0"
  decimal_digits(magnitude, n, d);
  char* p = out;
  if (negative) *p++ = '-';
  const unsigned whole = n - scale;
  if (whole == 0) *p++ = '0';
  for (unsigned i = 0; i < n; ++i) {
    if (i == whole) *p++ = '.';
    *p++ = static_cast<char>('0' + d[i]);
  }
  return static_cast<std::size_t>(p - out);
}

wide to_wide(u128 v) {
  wide w = static_cast<std::uint64_t>(v >> 64);
  w <<= 64;
  w |= static_cast<std::uint64_t>(v);
  return w;
}

u128 to_u128(const wide& w) {
  const auto high = static_cast<std::uint64_t>((w >> 64) & UINT64_MAX);
  const auto low = static_cast<std::uint64_t>(w & UINT64_MAX);
  return static_cast<u128>(high) << 64 | low;
}

const wide& wide_pow10(unsigned n) {
  static const std::array<wide, 94> table = [] {
    std::array<wide, 94> t;
    t[0] = 1;
    for (std::size_t i = 1; i < t.size(); ++i) t[i] = t[i - 1] * 10;
    return t;
  }();
  return table[n];
}

// magnitude / 10^scale with at most 31 digits: what from_parts takes.
struct parts {
  u128 magnitude;
  unsigned scale;
};

// IDL's rule for a result: fraction digits beyond 31 significant ones (or beyond the 31st place)
// are truncated; an integer part of more than 31 digits is DATA_CONVERSION.
parts cut_to_31_digits(const wide& m, unsigned scale) {
  unsigned n = 0;
  while (n < 94 && m >= wide_pow10(n)) ++n;
  unsigned drop = scale > fixed::max_digits ? scale - fixed::max_digits : 0;
  if (n > fixed::max_digits) drop = std::max(drop, n - fixed::max_digits);
  if (drop > scale) out_of_range("a fixed-point result needs more than 31 integer digits");
  return {to_u128(drop == 0 ? m : m / wide_pow10(drop)), scale - drop};
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'; }

}  // namespace

fixed fixed::from_parts(u128 magnitude, unsigned scale, bool negative) noexcept {
  if (magnitude == 0) return fixed();
  while (scale > 0) {
    if (magnitude <= UINT64_MAX) {
      auto m = static_cast<std::uint64_t>(magnitude);
      for (; scale > 0 && m % 10 == 0; --scale) m /= 10;
      magnitude = m;
      break;
    }
    // magnitude % 10 without a library call: 2^64 = 6 (mod 10).
    const auto high = static_cast<std::uint64_t>(magnitude >> 64), low = static_cast<std::uint64_t>(magnitude);
    if ((low % 10 + high % 10 * 6) % 10 != 0) break;
    magnitude /= 10;
    --scale;
  }
  fixed f;
  f.magnitude_ = magnitude;
  f.scale_ = static_cast<std::uint8_t>(scale);
  f.digits_ = static_cast<std::uint8_t>(std::max(digit_count(magnitude), scale));
  f.negative_ = negative;
  return f;
}

fixed::fixed(long long v) {
  const bool negative = v < 0;
  // -(v + 1) + 1: LLONG_MIN has no positive long long.
  const u128 m = negative ? static_cast<u128>(-(v + 1)) + 1 : static_cast<u128>(v);
  *this = from_parts(m, 0, negative);
}

fixed::fixed(unsigned long long v) { *this = from_parts(v, 0, false); }

namespace {

// A floating-point value stands for its shortest decimal that reads back as it (0.1 is 0.1, not
// 0.1000000000000000055...); past the 31st fraction place that decimal is rounded to the nearest.
template <class Float>
std::pair<u128, unsigned> decimal_of(Float v) {
  char text[64];
  const auto written = std::to_chars(text, text + sizeof text, v, std::chars_format::scientific);
  // "-d.ddde+xx"
  const char* p = text;
  const char* end = written.ptr;
  if (*p == '-') ++p;
  u128 significand = 0;
  int count = 0;
  for (; p != end && *p != 'e'; ++p) {
    if (*p == '.') continue;
    significand = significand * 10 + static_cast<unsigned>(*p - '0');
    ++count;
  }
  int exponent = 0;
  if (p != end) {
    ++p;
    const bool negative_exponent = *p == '-';
    if (*p == '-' || *p == '+') ++p;
    std::from_chars(p, end, exponent);
    if (negative_exponent) exponent = -exponent;
  }
  const int shift = exponent - (count - 1);
  if (shift >= 0) {
    // Below 10^31 (checked by the caller), so shift <= 30.
    return {significand * pow10(static_cast<unsigned>(shift)), 0};
  }
  const auto scale = static_cast<unsigned>(-shift);
  if (scale <= fixed::max_digits) return {significand, scale};
  const unsigned drop = scale - fixed::max_digits;
  if (drop >= powers_of_ten.size()) return {0, 0};  // the significand has at most 21 digits
  const u128 divisor = pow10(drop);
  u128 m = significand / divisor;
  if (significand % divisor >= divisor / 2) ++m;  // half away from zero
  return {m, fixed::max_digits};
}

}  // namespace

fixed::fixed(double v) {
  if (!std::isfinite(v) || std::fabs(v) >= 1e31) out_of_range("a double that is not finite or is 10^31 or more");
  const auto [m, scale] = decimal_of(v);
  *this = from_parts(m, scale, std::signbit(v));
}

fixed::fixed(long double v) {
  if (!std::isfinite(v) || std::fabs(v) >= 1e31L) out_of_range("a long double that is not finite or is 10^31 or more");
  const auto [m, scale] = decimal_of(v);
  *this = from_parts(m, scale, std::signbit(v));
}

fixed::fixed(std::string_view text) {
  auto malformed = [text] {
    raise(SystemExceptionKind::DATA_CONVERSION, minor::bad_fixed_text,
          "'" + std::string(text) + "' is not a fixed-point literal");
  };
  std::string_view t = text;
  while (!t.empty() && is_space(t.front())) t.remove_prefix(1);
  while (!t.empty() && is_space(t.back())) t.remove_suffix(1);
  if (!t.empty() && (t.back() == 'd' || t.back() == 'D')) t.remove_suffix(1);
  bool negative = false;
  if (!t.empty() && (t.front() == '-' || t.front() == '+')) {
    negative = t.front() == '-';
    t.remove_prefix(1);
  }
  u128 m = 0;
  unsigned significant = 0, scale = 0, digits_seen = 0;
  bool point = false;
  for (char c : t) {
    if (c == '.') {
      if (point) malformed();
      point = true;
      continue;
    }
    if (c < '0' || c > '9') malformed();
    ++digits_seen;
    if (significant == 0 && c == '0') {
      if (point) ++scale;  // 0.05: the zeros count towards the scale only
      continue;
    }
    if (significant == max_digits) {
      if (!point) out_of_range("'" + std::string(text) + "' has more than 31 integer digits");
      continue;  // fraction digits past the 31st significant one are truncated
    }
    m = m * 10 + static_cast<unsigned>(c - '0');
    ++significant;
    if (point) ++scale;
  }
  if (digits_seen == 0) malformed();
  // Digits past the 31st fraction place (after leading zeros) are truncated too.
  if (scale > max_digits) {
    const unsigned drop = scale - max_digits;
    m = drop < powers_of_ten.size() ? m / pow10(drop) : 0;
    scale = max_digits;
  }
  *this = from_parts(m, scale, negative);
}

fixed fixed::round(unsigned scale) const {
  if (scale >= scale_) return *this;
  const u128 divisor = pow10(scale_ - scale);
  u128 m = magnitude_ / divisor;
  if (magnitude_ % divisor >= divisor / 2) ++m;  // half away from zero (at least one digit went: no overflow)
  return from_parts(m, scale, negative_);
}

fixed fixed::truncate(unsigned scale) const {
  if (scale >= scale_) return *this;
  return from_parts(magnitude_ / pow10(scale_ - scale), scale, negative_);
}

std::string fixed::to_string() const {
  char text[max_text];
  return std::string(text, format(magnitude_, digits_, scale_, negative_, text));
}

fixed::operator long long() const {
  const u128 whole = magnitude_ / pow10(scale_);
  const u128 limit = negative_ ? static_cast<u128>(INT64_MAX) + 1 : static_cast<u128>(INT64_MAX);
  if (whole > limit) out_of_range(to_string() + " does not fit in a long long");
  return negative_ ? static_cast<long long>(-static_cast<i128>(whole)) : static_cast<long long>(whole);
}

fixed::operator long double() const noexcept {
  // from_chars rounds correctly; magnitude / 10^scale would round twice.
  char text[max_text];
  const std::size_t n = format(magnitude_, digits_, scale_, negative_, text);
  long double v = 0;
  if (std::from_chars(text, text + n, v).ec == std::errc()) return v;
  v = static_cast<long double>(magnitude_) / static_cast<long double>(pow10(scale_));
  return negative_ ? -v : v;
}

fixed fixed::operator-() const noexcept {
  fixed f = *this;
  f.negative_ = magnitude_ != 0 && !negative_;
  return f;
}

fixed operator+(const fixed& a, const fixed& b) {
  const unsigned scale = std::max(a.scale_, b.scale_);
  const wide x = to_wide(a.magnitude_) * wide_pow10(scale - a.scale_);
  const wide y = to_wide(b.magnitude_) * wide_pow10(scale - b.scale_);
  wide sum;
  bool negative;
  if (a.negative_ == b.negative_) {
    sum = x + y;
    negative = a.negative_;
  } else if (x >= y) {
    sum = x - y;
    negative = a.negative_;
  } else {
    sum = y - x;
    negative = b.negative_;
  }
  const parts p = cut_to_31_digits(sum, scale);
  return fixed::from_parts(p.magnitude, p.scale, negative);
}

fixed operator-(const fixed& a, const fixed& b) { return a + -b; }

fixed operator*(const fixed& a, const fixed& b) {
  const parts p = cut_to_31_digits(to_wide(a.magnitude_) * to_wide(b.magnitude_), a.scale_ + b.scale_);
  return fixed::from_parts(p.magnitude, p.scale, a.negative_ != b.negative_);
}

fixed operator/(const fixed& a, const fixed& b) {
  if (b.magnitude_ == 0)
    raise(SystemExceptionKind::DATA_CONVERSION, minor::fixed_division_by_zero, "fixed-point division by zero");
  // (A / 10^sa) / (B / 10^sb) at scale 31, the most any result holds: A * 10^(sb + 31) / (B * 10^sa),
  // truncated; the cut then keeps the fraction digits that 31 significant ones allow.
  const wide quotient =
      to_wide(a.magnitude_) * wide_pow10(b.scale_ + fixed::max_digits) / (to_wide(b.magnitude_) * wide_pow10(a.scale_));
  const parts p = cut_to_31_digits(quotient, fixed::max_digits);
  return fixed::from_parts(p.magnitude, p.scale, a.negative_ != b.negative_);
}

std::strong_ordering operator<=>(const fixed& a, const fixed& b) noexcept {
  if (a.negative_ != b.negative_) return a.negative_ ? std::strong_ordering::less : std::strong_ordering::greater;
  // Integer parts, then fraction parts at the larger scale: each below 10^31, no overflow.
  const unsigned scale = std::max(a.scale_, b.scale_);
  u128 x = a.magnitude_ / pow10(a.scale_), y = b.magnitude_ / pow10(b.scale_);
  if (x == y) {
    x = a.magnitude_ % pow10(a.scale_) * pow10(scale - a.scale_);
    y = b.magnitude_ % pow10(b.scale_) * pow10(scale - b.scale_);
  }
  const std::strong_ordering magnitude = x < y   ? std::strong_ordering::less
                                         : x > y ? std::strong_ordering::greater
                                                 : std::strong_ordering::equal;
  return a.negative_ ? 0 <=> magnitude : magnitude;
}

void fixed::to_packed(unsigned digits, unsigned scale, std::uint8_t* out) const {
  // Outside the contract, but cheap to refuse: the caller's buffer holds at most 31 digits.
  if (scale > digits || digits > max_digits)
    out_of_range("fixed<" + std::to_string(digits) + "," + std::to_string(scale) + "> is not an IDL fixed type");
  if (static_cast<unsigned>(digits_ - scale_) > digits - scale)
    out_of_range(to_string() + " does not fit fixed<" + std::to_string(digits) + "," + std::to_string(scale) + ">");
  const u128 m = scale_ > scale ? magnitude_ / pow10(scale_ - scale) : magnitude_ * pow10(scale - scale_);
  // m = high * 10^17 + low: the last digit and 8 pairs in `low`, up to 7 pairs in `high`.
  std::uint64_t high, low;
  if (m <= UINT64_MAX) {
    high = static_cast<std::uint64_t>(m) / ten_to_17;
    low = static_cast<std::uint64_t>(m) % ten_to_17;
  } else {
    const u128 q = m / ten_to_17;
    high = static_cast<std::uint64_t>(q);
    low = static_cast<std::uint64_t>(m - q * ten_to_17);
  }
  const std::size_t octets = packed_size(digits);
  // Truncation may leave -0.001 at scale 2 as zero, which is written positive.
  const bool negative = negative_ && m != 0;
  out[octets - 1] = static_cast<std::uint8_t>(low % 10 << 4 | (negative ? 0xdu : 0xcu));
  low /= 10;
  // Two digits an octet from the end; when `digits` is even the first octet's pair is below 10
  // (m < 10^digits), so its high nibble is the zero pad.
  for (std::size_t i = octets - 1, k = 0; i-- > 0; ++k) {
    std::uint64_t& part = k < 8 ? low : high;
    out[i] = packed_pairs[part % 100];
    part /= 100;
  }
}

fixed fixed::from_packed(const std::uint8_t* in, unsigned digits, unsigned scale) {
  auto bad = [](const char* detail) { raise(SystemExceptionKind::MARSHAL, minor::bad_fixed, detail); };
  // The type may come off the wire (a TypeCode): refuse what would overflow the magnitude.
  if (scale > digits || digits > max_digits) bad("a packed decimal type beyond fixed<31,31>");
  if (digits % 2 == 0 && in[0] >> 4 != 0) bad("a packed decimal whose pad nibble is not 0");
  // The mirror of to_packed: pairs into `high` (up to 7) and `low` (the last 8), then the last digit.
  const std::size_t pairs = packed_size(digits) - 1;
  std::uint64_t high = 0, low = 0;
  for (std::size_t i = 0; i < pairs; ++i) {
    const unsigned tens = in[i] >> 4, ones = in[i] & 0xfu;
    if (tens > 9 || ones > 9) bad("a packed decimal digit above 9");
    std::uint64_t& part = pairs - i > 8 ? high : low;
    part = part * 100 + tens * 10 + ones;
  }
  const unsigned last = in[pairs] >> 4, sign = in[pairs] & 0xfu;
  if (last > 9) bad("a packed decimal digit above 9");
  if (sign != 0xc && sign != 0xd && sign != 0xf) bad("a packed decimal sign other than C, D or F");
  return from_parts(static_cast<u128>(high) * ten_to_17 + (low * 10 + last), scale, sign == 0xd);
}

std::ostream& operator<<(std::ostream& out, const fixed& value) { return out << value.to_string(); }

}  // namespace switchyard
