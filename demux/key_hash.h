// Keys and the hash every hashing strategy shares. Internal to demux/ and its users (adapter,
// tests, benchmarks); includes only the standard library.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace switchyard::demux {

// A key is a view of bytes: an object key (any byte, NUL included) or an operation name. Maps copy
// what they keep; lookups never copy or allocate.
using key_view = std::string_view;

namespace detail {
inline std::uint64_t load64(const char* p) noexcept {
  std::uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}
inline std::uint64_t load32(const char* p) noexcept {
  std::uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}
// The first n < 8 bytes of p as a host-order 64-bit load of them zero-padded to 8 (what
// load64 would give if the bytes after the key were zeros), without reading past p + n: two
// overlapping 4-byte loads, or three byte loads for n < 4.
inline std::uint64_t load_short(const char* p, std::size_t n) noexcept {
  if constexpr (std::endian::native == std::endian::little) {
    if (n >= 4) return load32(p) | (load32(p + n - 4) << (8 * (n - 4)));
    if (n == 0) return 0;
    const auto* u = reinterpret_cast<const unsigned char*>(p);
    return std::uint64_t{u[0]} | (std::uint64_t{u[n >> 1]} << (8 * (n >> 1))) |
           (std::uint64_t{u[n - 1]} << (8 * (n - 1)));
  } else {
    char padded[8] = {};
    std::memcpy(padded, p, n);
    return load64(padded);
  }
}
// 64x64 -> 128-bit multiply folded to 64 bits (wyhash's mixer): one multiplication, full avalanche
// when both inputs are varied.
inline std::uint64_t mum(std::uint64_t a, std::uint64_t b) noexcept {
  const unsigned __int128 r = static_cast<unsigned __int128>(a) * b;
  return static_cast<std::uint64_t>(r) ^ static_cast<std::uint64_t>(r >> 64);
}
inline constexpr std::uint64_t k0 = 0xa0761d6478bd642full;
inline constexpr std::uint64_t k1 = 0xe7037ed1a0b428dbull;
}  // namespace detail

// Length first, then the bytes. Keys up to 32 bytes (most object keys and operation names:
// sendStructSeq_2way is 18) are compared with overlapping 8-byte loads instead of a call to
// memcmp; never a read past either key. Always inlined: in a linear scan a call per entry doubled
// the scan's cost in the LTO build (docs/experiments.md, "Demultiplexing"), where gcc chose to
// keep it out of line.
[[gnu::always_inline]] inline bool same_key(key_view a, key_view b) noexcept {
  const std::size_t n = a.size();
  if (n != b.size()) return false;
  const char* p = a.data();
  const char* q = b.data();
  if (n >= 8) {
    using detail::load64;
    if (n > 16) {
      if (n > 32) return std::memcmp(p, q, n) == 0;
      return load64(p) == load64(q) && load64(p + 8) == load64(q + 8) && load64(p + n - 16) == load64(q + n - 16) &&
             load64(p + n - 8) == load64(q + n - 8);
    }
    return load64(p) == load64(q) && load64(p + n - 8) == load64(q + n - 8);
  }
  if (n >= 4) {
    return detail::load32(p) == detail::load32(q) && detail::load32(p + n - 4) == detail::load32(q + n - 4);
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (p[i] != q[i]) return false;
  }
  return true;
}

// Murmur3's finalizer: every input bit reaches every output bit.
constexpr std::uint64_t mix64(std::uint64_t x) noexcept {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  x ^= x >> 33;
  return x;
}

// A seeded 64-bit hash for short keys, after wyhash (final version 4, public domain): keys up to
// 16 bytes cost two or four loads and two 128-bit multiplications; longer ones one more per 16
// bytes. Never a read past the key. Host byte order changes the values, not their quality; they
// are never stored outside the process or sent.
inline std::uint64_t hash_bytes(key_view key, std::uint64_t seed = detail::k0) noexcept {
  using namespace detail;
  const char* p = key.data();
  const std::size_t n = key.size();
  std::uint64_t a, b;
  if (n <= 16) {
    if (n >= 4) {
      const std::size_t step = (n >> 3) << 2;  // 0 for 4..7 bytes, 4 for 8..16
      a = (load32(p) << 32) | load32(p + step);
      b = (load32(p + n - 4) << 32) | load32(p + n - 4 - step);
    } else if (n > 0) {
      const auto* u = reinterpret_cast<const unsigned char*>(p);
      a = (std::uint64_t{u[0]} << 16) | (std::uint64_t{u[n >> 1]} << 8) | u[n - 1];
      b = 0;
    } else {
      a = b = 0;
    }
  } else {
    std::size_t i = n;
    while (i > 16) {
      seed = mum(load64(p) ^ k1, load64(p + 8) ^ seed);
      p += 16;
      i -= 16;
    }
    a = load64(p + i - 16);
    b = load64(p + i - 8);
  }
  return mum(k1 ^ n, mum(a ^ k1, b ^ seed));
}

// Transparent hash for boost::unordered_flat_map<std::string, ...>: lookups by key_view hash the
// view in place. Already avalanching, so the map skips its own post-mix.
struct key_hash {
  using is_transparent = void;
  using is_avalanching = void;
  std::size_t operator()(key_view key) const noexcept { return hash_bytes(key); }
};

struct key_equal {
  using is_transparent = void;
  bool operator()(key_view a, key_view b) const noexcept { return same_key(a, b); }
};

}  // namespace switchyard::demux
