// Test helpers: byte vectors from hex text and strings, and streams over them.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "switchyard/cdr/input_stream.h"
#include "switchyard/cdr/output_stream.h"

namespace switchyard::test {

using bytes = std::vector<std::byte>;

// "0000000f 0c" -> {0x00, 0x00, 0x00, 0x0f, 0x0c}; spaces and newlines ignored.
inline bytes hex(std::string_view text) {
  bytes out;
  int high = -1;
  for (char c : text) {
    int v = c >= '0' && c <= '9'   ? c - '0'
            : c >= 'a' && c <= 'f' ? c - 'a' + 10
            : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                   : -1;
    if (v < 0) continue;
    if (high < 0) {
      high = v;
    } else {
      out.push_back(static_cast<std::byte>(high * 16 + v));
      high = -1;
    }
  }
  return out;
}

// The characters of s and a NUL (the body of a CDR string, after its length).
inline bytes text(std::string_view s) {
  bytes out;
  for (char c : s) out.push_back(static_cast<std::byte>(c));
  out.push_back(std::byte{0});
  return out;
}

inline bytes operator+(bytes a, const bytes& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

inline bytes bytes_of(const cdr::output_stream& out) { return bytes(out.bytes().begin(), out.bytes().end()); }

inline std::string to_hex(const bytes& b) {
  static const char digits[] = "0123456789abcdef";
  std::string s;
  for (std::size_t k = 0; k < b.size(); ++k) {
    if (k != 0 && k % 4 == 0) s += ' ';
    s += digits[static_cast<unsigned>(b[k]) >> 4];
    s += digits[static_cast<unsigned>(b[k]) & 15];
  }
  return s;
}

inline cdr::input_stream stream_over(const bytes& b, cdr::byte_order order) {
  return cdr::input_stream({b.data(), b.size()}, order);
}

}  // namespace switchyard::test
