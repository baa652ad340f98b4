// A hand-rolled CDR writer for the back-end tests: writes what generated code should produce,
// field by field, in either byte order, so that generated marshaling is checked byte for byte
// (native order) and generated demarshaling is checked on swapped input.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "switchyard/cdr/byte_order.h"

namespace test {

class wire_writer {
 public:
  explicit wire_writer(switchyard::cdr::byte_order order) : swap_(order != switchyard::cdr::native_byte_order) {}

  template <class T>
  wire_writer& put(T v) {
    pad(sizeof(T));
    raw(v);
    return *this;
  }
  wire_writer& octet(std::uint8_t v) { return put(v); }
  wire_writer& boolean(bool v) { return put(static_cast<std::uint8_t>(v)); }
  wire_writer& chr(char v) { return put(v); }
  wire_writer& s16(std::int16_t v) { return put(v); }
  wire_writer& u16(std::uint16_t v) { return put(v); }
  wire_writer& s32(std::int32_t v) { return put(v); }
  wire_writer& u32(std::uint32_t v) { return put(v); }
  wire_writer& s64(std::int64_t v) { return put(v); }
  wire_writer& u64(std::uint64_t v) { return put(v); }
  wire_writer& f32(float v) { return put(v); }
  wire_writer& f64(double v) { return put(v); }
  wire_writer& str(const std::string& s) {
    u32(static_cast<std::uint32_t>(s.size() + 1));
    for (char c : s) bytes.push_back(static_cast<std::byte>(c));
    bytes.push_back(std::byte{0});
    return *this;
  }
  // GIOP 1.2: octet length, a byte-order mark and the code units in stream order, no NUL ("" is
  // just the length 0).
  wire_writer& wstr(const std::u16string& s) {
    u32(static_cast<std::uint32_t>(s.empty() ? 0 : 2 + s.size() * 2));
    if (!s.empty()) raw(char16_t{0xfeff});
    for (char16_t c : s) raw(c);
    return *this;
  }
  // GIOP 1.2: octet length 2, the unit big-endian (UTF-16 without a mark).
  wire_writer& wch(char16_t c) {
    octet(2);
    bytes.push_back(static_cast<std::byte>(c >> 8));
    bytes.push_back(static_cast<std::byte>(c & 0xff));
    return *this;
  }
  wire_writer& ld(long double v) {
    pad(8);
    __float128 q = static_cast<__float128>(v);
    std::byte b[16];
    std::memcpy(b, &q, 16);
    if (swap_) std::reverse(b, b + 16);
    bytes.insert(bytes.end(), b, b + 16);
    return *this;
  }
  void pad(std::size_t a) {
    while (bytes.size() % a != 0) bytes.push_back(std::byte{0});
  }

  std::vector<std::byte> bytes;

 private:
  template <class T>
  void raw(T v) {
    std::byte b[sizeof(T)];
    std::memcpy(b, &v, sizeof(T));
    if (swap_) std::reverse(b, b + sizeof(T));
    bytes.insert(bytes.end(), b, b + sizeof(T));
  }
  bool swap_;
};

}  // namespace test
