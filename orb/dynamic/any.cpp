#include "switchyard/any.h"

namespace switchyard {

void any::assign_from(type_code type, cdr::input_stream& value) {
  cdr::output_stream out(64, 2);
  copy_value(type, value, out);
  assign(std::move(type), out.bytes());
}

void write_any(cdr::output_stream& out, const any& value) {
  write_type_code(out, value.type());
  cdr::input_stream in = value.value_stream();
  copy_value(value.type(), in, out);
}

void read_any(cdr::input_stream& in, any& value) {
  type_code type = read_type_code(in);
  value.assign_from(std::move(type), in);
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

#define SY_ANY_PRIMITIVE(TYPE, KIND, WRITE, READ)                                             \
  void operator<<=(any& a, TYPE v) {                                                          \
    a.replace(type_code::basic(tc_kind::KIND), [&](cdr::output_stream& o) { o.WRITE(v); });  \
  }                                                                                           \
  bool operator>>=(const any& a, TYPE& v) {                                                   \
    return extract_kind(a, tc_kind::KIND, [&](cdr::input_stream& i) { v = i.READ(); });      \
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
bool operator>>=(const any& a, type_code& v) {
  return extract_kind(a, tc_kind::tk_TypeCode, [&](cdr::input_stream& i) { v = read_type_code(i); });
}

}  // namespace switchyard
