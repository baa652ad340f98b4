// The Any's two ways of holding a value (any.h), and values copied through their plans
// (value_plan.h).
#include "switchyard/any.h"

#include <algorithm>
#include <cstring>

#include "orb/dynamic/type_code_node.h"
#include "orb/dynamic/value_plan.h"

namespace switchyard {

namespace detail {

any_value::~any_value() = default;

const void* any_value::native(const std::type_info&) const noexcept { return nullptr; }

namespace {

// Canonical CDR in a stream of its own: `origin` zero octets, then the value.
class canonical_any_value final : public any_value {
 public:
  canonical_any_value(cdr::output_stream&& bytes, std::uint8_t origin) : bytes_(std::move(bytes)), origin_(origin) {}

  std::span<const std::byte> canonical() const override { return bytes_.bytes().subspan(origin_); }
  std::uint8_t origin() const noexcept override { return origin_; }

  void write(const type_code& type, cdr::output_stream& out) const override {
    const std::span<const std::byte> value = canonical();
    if (value.empty()) return;
    const value_plan& plan = plan_of(type.node());
    // At the position it was laid out for, and in the same rules: the octets as they are. The
    // request stream may send them without a copy (the Any outlives the send).
    if ((out.aligned_position() & 7) == origin_ && (plan.version_neutral || out.giop_minor() >= 2) &&
        !plan.holds_values) {
      out.write_octets(value.data(), value.size());
      return;
    }
    cdr::input_stream in(value, cdr::native_byte_order, origin_, 2);
    run_plan(plan, type, in, &out, {.check = false, .zero_padding = false});
  }

 private:
  cdr::output_stream bytes_;
  std::uint8_t origin_;
};

}  // namespace

std::shared_ptr<const any_value> adopt_canonical(cdr::output_stream&& value, std::uint8_t origin) {
  return std::make_shared<const canonical_any_value>(std::move(value), origin);
}

}  // namespace detail

void any::assign(type_code type, std::span<const std::byte> canonical_value, std::uint8_t origin) {
  origin &= 7;
  cdr::output_stream out(origin + canonical_value.size(), 2);
  for (std::uint8_t k = 0; k < origin; ++k) out.write_octet(0);
  out.write_octets(canonical_value.data(), canonical_value.size());
  type_ = std::move(type);
  value_ = detail::adopt_canonical(std::move(out), origin);
}

void any::assign_from(type_code type, cdr::input_stream& value) {
  const detail::value_plan& plan = detail::plan_of(type.node());
  const auto origin = static_cast<std::uint8_t>(value.aligned_position() & 7);
  // A value that can take no more than a small buffer is copied and checked at once. A larger
  // one is checked and measured first, so that its canonical stream is allocated once, then
  // copied without checking again (the copy zeroes the padding it takes in blocks).
  constexpr std::size_t small = 1024;
  // Values are read once: a probe would make them twice, and could not follow an indirection to
  // a value earlier in the message (the message's value scope is on `value`, not on a copy).
  if (value.remaining() <= small || plan.holds_values) {
    cdr::output_stream out(origin + std::min(value.remaining(), small) + 16, 2);
    for (std::uint8_t k = 0; k < origin; ++k) out.write_octet(0);
    detail::run_plan(plan, type, value, &out, {.check = true, .zero_padding = true});
    type_ = std::move(type);
    value_ = detail::adopt_canonical(std::move(out), origin);
    return;
  }
  cdr::input_stream probe = value;
  detail::run_plan(plan, type, probe, nullptr, {.check = true, .zero_padding = false});
  const std::size_t size = probe.position() - value.position();
  cdr::output_stream out(origin + size + size / 8 + 16, 2);
  for (std::uint8_t k = 0; k < origin; ++k) out.write_octet(0);
  detail::run_plan(plan, type, value, &out, {.check = false, .zero_padding = true});
  type_ = std::move(type);
  value_ = detail::adopt_canonical(std::move(out), origin);
}

bool operator==(const any& a, const any& b) {
  if (!a.type_.equal(b.type_)) return false;
  if (a.value_ == b.value_) return true;
  const std::span<const std::byte> x = a.value();
  if (a.value_origin() == b.value_origin()) {
    const std::span<const std::byte> y = b.value();
    return x.size() == y.size() && (x.empty() || std::memcmp(x.data(), y.data(), x.size()) == 0);
  }
  // Laid out from different positions: b's value laid out as a's, then compared.
  cdr::output_stream relaid(a.value_origin() + x.size() + 16, 2);
  for (std::uint8_t k = 0; k < a.value_origin(); ++k) relaid.write_octet(0);
  cdr::input_stream in = b.value_stream();
  detail::run_plan(detail::plan_of(b.type_.node()), b.type_, in, &relaid, {.check = false, .zero_padding = false});
  const std::span<const std::byte> y = relaid.bytes().subspan(a.value_origin());
  return x.size() == y.size() && (x.empty() || std::memcmp(x.data(), y.data(), x.size()) == 0);
}

void write_any(cdr::output_stream& out, const any& value) {
  write_type_code(out, value.type_);
  if (value.value_) value.value_->write(value.type_, out);
}

void write_value(cdr::output_stream& out, const any& value) {
  if (value.value_) value.value_->write(value.type_, out);
}

void read_any(cdr::input_stream& in, any& value) {
  type_code type = read_type_code(in);
  value.assign_from(std::move(type), in);
}

void copy_value(const type_code& type, cdr::input_stream& in, cdr::output_stream& out) {
  detail::run_plan(detail::plan_of(type.node()), type, in, &out, {});
}

void skip_value(const type_code& type, cdr::input_stream& in) {
  detail::run_plan(detail::plan_of(type.node()), type, in, nullptr, {});
}

namespace {

// Extraction of a primitive: the kind must match once aliases are followed.
template <class Read>
bool extract_kind(const any& a, tc_kind kind, Read&& read) {
  if (a.type().unaliased().kind() != kind) return false;
  cdr::input_stream in = a.value_stream();
  read(in);
  return true;
}

}  // namespace

#define SY_ANY_PRIMITIVE(TYPE, KIND, WRITE, READ)                                           \
  void operator<<=(any& a, TYPE v) {                                                        \
    a.replace(type_code::basic(tc_kind::KIND), [&](cdr::output_stream& o) { o.WRITE(v); }); \
  }                                                                                         \
  bool operator>>=(const any& a, TYPE& v) {                                                 \
    return extract_kind(a, tc_kind::KIND, [&](cdr::input_stream& i) { v = i.READ(); });     \
  }

SY_ANY_PRIMITIVE(bool, tk_boolean, write_boolean, read_boolean)
SY_ANY_PRIMITIVE(char, tk_char, write_char, read_char)
SY_ANY_PRIMITIVE(char16_t, tk_wchar, write_wchar, read_wchar)
SY_ANY_PRIMITIVE(std::uint8_t, tk_octet, write_octet, read_octet)
SY_ANY_PRIMITIVE(std::int16_t, tk_short, write_short, read_short)
SY_ANY_PRIMITIVE(std::uint16_t, tk_ushort, write_ushort, read_ushort)
SY_ANY_PRIMITIVE(std::int32_t, tk_long, write_long, read_long)
SY_ANY_PRIMITIVE(std::uint32_t, tk_ulong, write_ulong, read_ulong)
SY_ANY_PRIMITIVE(std::int64_t, tk_longlong, write_longlong, read_longlong)
SY_ANY_PRIMITIVE(std::uint64_t, tk_ulonglong, write_ulonglong, read_ulonglong)
SY_ANY_PRIMITIVE(float, tk_float, write_float, read_float)
SY_ANY_PRIMITIVE(double, tk_double, write_double, read_double)
SY_ANY_PRIMITIVE(long double, tk_longdouble, write_longdouble, read_longdouble)

#undef SY_ANY_PRIMITIVE

void operator<<=(any& a, std::string_view v) {
  a.replace(type_code::make_string(), [&](cdr::output_stream& o) { o.write_string(v); });
}
void operator<<=(any& a, const char* v) { a <<= std::string_view(v); }
void operator<<=(any& a, const std::string& v) { a <<= std::string_view(v); }
void operator<<=(any& a, std::u16string_view v) {
  a.replace(type_code::make_wstring(), [&](cdr::output_stream& o) { o.write_wstring(v); });
}
void operator<<=(any& a, const std::u16string& v) { a <<= std::u16string_view(v); }

void operator<<=(any& a, const any& v) {
  a.replace(type_code::basic(tc_kind::tk_any), [&](cdr::output_stream& o) { write_any(o, v); });
}
void operator<<=(any& a, const type_code& v) {
  a.replace(type_code::basic(tc_kind::tk_TypeCode), [&](cdr::output_stream& o) { write_type_code(o, v); });
}

bool operator>>=(const any& a, std::string& v) {
  return extract_kind(a, tc_kind::tk_string, [&](cdr::input_stream& i) { i.read_string(v); });
}
bool operator>>=(const any& a, std::u16string& v) {
  return extract_kind(a, tc_kind::tk_wstring, [&](cdr::input_stream& i) { v = i.read_wstring(); });
}
bool operator>>=(const any& a, any& v) {
  return extract_kind(a, tc_kind::tk_any, [&](cdr::input_stream& i) { read_any(i, v); });
}
void insert_fixed(any& a, const fixed& v, unsigned digits, unsigned scale) {
  if (scale > digits || digits > fixed::max_digits)
    throw SystemException(SystemExceptionKind::BAD_PARAM, 0, CompletionStatus::no,
                          "fixed<" + std::to_string(digits) + ", " + std::to_string(scale) + "> is no IDL type");
  a.replace(type_code::make_fixed(static_cast<std::uint16_t>(digits), static_cast<std::int16_t>(scale)),
            [&](cdr::output_stream& o) { o.write_fixed(v, digits, scale); });
}
void operator<<=(any& a, const fixed& v) { insert_fixed(a, v, std::max(1u, v.fixed_digits()), v.fixed_scale()); }
bool operator>>=(const any& a, fixed& v) {
  const type_code t = a.type().unaliased();
  if (t.kind() != tc_kind::tk_fixed) return false;
  const unsigned digits = t.fixed_digits();
  const int scale = t.fixed_scale();
  if (digits > fixed::max_digits || scale < 0 || static_cast<unsigned>(scale) > digits) return false;
  cdr::input_stream in = a.value_stream();
  v = in.read_fixed(digits, static_cast<unsigned>(scale));
  return true;
}

bool operator>>=(const any& a, type_code& v) {
  return extract_kind(a, tc_kind::tk_TypeCode, [&](cdr::input_stream& i) { v = read_type_code(i); });
}

}  // namespace switchyard
