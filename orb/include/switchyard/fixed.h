// The IDL fixed-point decimal type (CORBA C++ mapping, "Fixed"): a signed decimal of up to 31
// digits, `scale` of them after the point. One class holds every fixed value, as the mapping's
// Fixed does: a value knows the fewest digits and scale that hold it (fixed_digits(),
// fixed_scale(); 1.50 is 1.5, digits 2, scale 1), and the declared fixed<d,s> of an IDL type
// matters only where the value is marshaled (to_packed/from_packed, used by the CDR streams).
//
// Arithmetic is exact, then cut to 31 digits the way IDL's fixed-point rules say: fraction
// digits beyond the 31st are truncated (towards zero); a result whose integer part needs more
// than 31 digits raises DATA_CONVERSION, as does division by zero. Text and floating-point
// conversions follow the same rules.
//
// Departures from the classic mapping: to_string() returns std::string; the conversions to
// long long and long double are explicit (implicit ones would make `f + 1` ambiguous).
#pragma once

#include <compare>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>

namespace switchyard {

class fixed {
 public:
  static constexpr unsigned max_digits = 31;

  constexpr fixed() noexcept = default;  // 0
  fixed(int v) : fixed(static_cast<long long>(v)) {}
  fixed(unsigned v) : fixed(static_cast<unsigned long long>(v)) {}
  fixed(long v) : fixed(static_cast<long long>(v)) {}
  fixed(unsigned long v) : fixed(static_cast<unsigned long long>(v)) {}
  fixed(long long v);
  fixed(unsigned long long v);
  // The nearest value of at most 31 significant digits; DATA_CONVERSION for NaN, infinities and
  // magnitudes of 10^31 and above.
  fixed(double v);
  fixed(long double v);
  // A decimal literal: optional sign, digits with at most one '.', an optional 'd' or 'D' suffix,
  // surrounding white space ("-12.50", ".5", "7d"). Fraction digits beyond 31 significant ones
  // are truncated; anything else malformed, or more than 31 integer digits, is DATA_CONVERSION.
  fixed(const char* text) : fixed(std::string_view(text)) {}
  explicit fixed(std::string_view text);

  // The fewest digits and scale that hold the value (0 has digits 0, scale 0).
  unsigned fixed_digits() const noexcept { return digits_; }
  unsigned fixed_scale() const noexcept { return scale_; }
  bool is_negative() const noexcept { return negative_; }

  // The value cut to `scale` fraction digits: rounded half away from zero, or truncated towards
  // zero. A scale at or above fixed_scale() returns the value unchanged.
  fixed round(unsigned scale) const;
  fixed truncate(unsigned scale) const;

  // "-12.5", "0.25", "0", "100": no exponent, no suffix, no trailing fraction zeros.
  std::string to_string() const;

  // The integer part (truncated); DATA_CONVERSION when it does not fit in a long long.
  explicit operator long long() const;
  explicit operator long double() const noexcept;

  // CDR's packed decimal for IDL fixed<digits, scale> (CORBA 3.x, 9.3.2.8): (digits + 2) / 2
  // octets, two digits each, most significant first, a leading zero nibble when `digits` is even,
  // the sign in the last nibble (0xC positive, 0xD negative). to_packed truncates fraction digits
  // beyond `scale` and raises DATA_CONVERSION (completed NO) when the integer part needs more than
  // digits - scale digits. from_packed accepts 0xC, 0xF (positive) and 0xD (negative) signs and
  // raises MARSHAL (minor bad_fixed) for any other nibble. Both require scale <= digits <= 31.
  static constexpr std::size_t packed_size(unsigned digits) noexcept { return (digits + 2) / 2; }
  void to_packed(unsigned digits, unsigned scale, std::uint8_t* out) const;
  static fixed from_packed(const std::uint8_t* in, unsigned digits, unsigned scale);

  fixed& operator+=(const fixed& other) { return *this = *this + other; }
  fixed& operator-=(const fixed& other) { return *this = *this - other; }
  fixed& operator*=(const fixed& other) { return *this = *this * other; }
  fixed& operator/=(const fixed& other) { return *this = *this / other; }
  fixed& operator++() { return *this += fixed(1); }
  fixed operator++(int) {
    fixed before = *this;
    ++*this;
    return before;
  }
  fixed& operator--() { return *this -= fixed(1); }
  fixed operator--(int) {
    fixed before = *this;
    --*this;
    return before;
  }
  fixed operator+() const noexcept { return *this; }
  fixed operator-() const noexcept;
  bool operator!() const noexcept { return magnitude_ == 0; }

  friend fixed operator+(const fixed& a, const fixed& b);
  friend fixed operator-(const fixed& a, const fixed& b);
  friend fixed operator*(const fixed& a, const fixed& b);
  friend fixed operator/(const fixed& a, const fixed& b);
  // By value: 1.50 == 1.5, -0 does not exist.
  friend bool operator==(const fixed& a, const fixed& b) noexcept {
    return a.negative_ == b.negative_ && a.scale_ == b.scale_ && a.magnitude_ == b.magnitude_;
  }
  friend std::strong_ordering operator<=>(const fixed& a, const fixed& b) noexcept;

 private:
  // The normalised value of magnitude / 10^scale (trailing fraction zeros dropped); the magnitude
  // must have at most 31 digits.
  static fixed from_parts(unsigned __int128 magnitude, unsigned scale, bool negative) noexcept;

  // The value is (negative_ ? -1 : 1) * magnitude_ / 10^scale_, normalised: no trailing fraction
  // zeros, zero never negative, digits_ the count of magnitude_'s digits (at least scale_).
  // 10^31 < 2^104, so the magnitude fits in 128 bits.
  unsigned __int128 magnitude_ = 0;
  std::uint8_t digits_ = 0;
  std::uint8_t scale_ = 0;
  bool negative_ = false;
};

std::ostream& operator<<(std::ostream& out, const fixed& value);

}  // namespace switchyard
