#include "switchyard/cdr/input_stream.h"

#include <cstring>

#include "switchyard/exception.h"

namespace switchyard::cdr {

namespace {

constexpr char16_t byte_order_mark = 0xFEFF;
constexpr char16_t swapped_byte_order_mark = 0xFFFE;

}  // namespace

long double input_stream::read_longdouble() {
  const std::byte* p = take_aligned(8, 16);
  std::byte bytes[16];
  if (swap_)
    for (int i = 0; i < 16; ++i) bytes[i] = p[15 - i];
  else std::memcpy(bytes, p, 16);
  __float128 quad;
  std::memcpy(&quad, bytes, 16);
  return static_cast<long double>(quad);
}

char16_t input_stream::read_wchar() {
  if (giop_minor_ < 2) return read_scalar<char16_t>();
  // UTF-16: two octets, big-endian; or four, a byte-order mark and the unit in its order.
  std::uint8_t octets = read_octet();
  if (octets != 2 && octets != 4)
    throw_marshal(minor::bad_wstring,
                  "wchar of " + std::to_string(octets) + " octets; UTF-16 takes 2 (or 4 with a byte-order mark)");
  const std::byte* p = take(octets);
  bool swap = native_byte_order != byte_order::big_endian;
  if (octets == 4) {
    char16_t mark = load<char16_t>(p, swap);
    if (mark == swapped_byte_order_mark) swap = !swap;
    else if (mark != byte_order_mark) throw_marshal(minor::bad_wstring, "4-octet wchar without a byte-order mark");
    p += 2;
  }
  return load<char16_t>(p, swap);
}

std::string_view input_stream::read_string_view() {
  std::uint32_t length = read_length(1);
  // Length 0 is not valid CDR (it counts the NUL) but some ORBs send it for "": read it as "".
  if (length == 0) return {};
  const auto* p = reinterpret_cast<const char*>(take(length));
  if (p[length - 1] != '\0')
    throw_marshal(minor::string_not_terminated, "string of length " + std::to_string(length) + " does not end in NUL");
  return {p, length - 1};
}

std::u16string input_stream::read_wstring() {
  std::u16string out;
  if (giop_minor_ >= 2) {
    // Length in octets; UTF-16 code units, big-endian unless a byte-order mark says otherwise
    // (UTF-16's rule, which CORBA 3.0, 13.10.2.6 refers to, and what omniORB reads and writes).
    std::uint32_t octets = read_length(1);
    if (octets % 2 != 0) throw_marshal(minor::bad_wstring, "wstring of odd length " + std::to_string(octets));
    const std::byte* p = take(octets);
    std::size_t units = octets / 2;
    bool swap = native_byte_order != byte_order::big_endian;
    if (units != 0) {
      char16_t first = load<char16_t>(p, swap);
      if (first == byte_order_mark || first == swapped_byte_order_mark) {
        if (first == swapped_byte_order_mark) swap = !swap;
        p += 2;
        --units;
      }
    }
    out.resize(units);
    for (std::size_t i = 0; i < units; ++i) out[i] = load<char16_t>(p + 2 * i, swap);
  } else {
    // Length in units counting the terminating NUL.
    std::uint32_t units = read_length(2);
    if (units == 0) return out;
    const std::byte* p = take_aligned(2, 2 * std::size_t{units});
    if (load<char16_t>(p + 2 * (units - 1), swap_) != 0)
      throw_marshal(minor::string_not_terminated, "wstring does not end in NUL");
    out.resize(units - 1);
    for (std::size_t i = 0; i + 1 < units; ++i) out[i] = load<char16_t>(p + 2 * i, swap_);
  }
  return out;
}

input_stream input_stream::read_encapsulation() {
  std::uint32_t length = read_length(1);
  if (length == 0) throw_marshal(minor::bad_byte_order, "empty encapsulation has no byte order");
  const std::byte* p = take(length);
  auto flag = static_cast<std::uint8_t>(p[0]);
  if (flag > 1) throw_marshal(minor::bad_byte_order, "encapsulation byte-order octet is " + std::to_string(flag));
  // The byte-order octet stands at alignment origin 0 of the encapsulation.
  input_stream inner({p, length}, static_cast<byte_order>(flag), 0, giop_minor_);
  inner.max_length_ = max_length_;
  inner.cur_ += 1;
  return inner;
}

void input_stream::throw_marshal(std::uint32_t minor_code, std::string detail) const {
  throw SystemException(SystemExceptionKind::MARSHAL, minor_code, CompletionStatus::no, std::move(detail));
}

void input_stream::throw_read_past_end(std::size_t wanted) const {
  throw_marshal(minor::read_past_end, "read of " + std::to_string(wanted) + " octets at offset " +
                                          std::to_string(position()) + " with " + std::to_string(remaining()) +
                                          " left");
}

void input_stream::throw_bad_boolean(std::uint8_t value) const {
  throw_marshal(minor::bad_boolean, "boolean octet is " + std::to_string(value));
}

void input_stream::throw_length_over_limit(std::uint32_t count) const {
  throw_marshal(minor::length_over_limit,
                "length " + std::to_string(count) + " exceeds the limit of " + std::to_string(max_length_));
}

void input_stream::throw_length_too_large(std::uint32_t count, std::size_t element_size) const {
  throw_marshal(minor::length_too_large, "length " + std::to_string(count) + " of " + std::to_string(element_size) +
                                             "-octet elements exceeds the " + std::to_string(remaining()) +
                                             " octets left");
}

}  // namespace switchyard::cdr
