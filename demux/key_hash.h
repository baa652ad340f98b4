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

// Length first, then the bytes: most mismatches cost one compare.
inline bool same_key(key_view a, key_view b) noexcept {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size()) == 0);
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
constexpr std::uint64_t hash_step(std::uint64_t h, std::uint64_t word) noexcept {
  return std::rotl((h ^ word) * 0x9e3779b97f4a7c15ull, 29) * 0xbf58476d1ce4e5b9ull;
}
}  // namespace detail

// A seeded 64-bit hash for short keys (object keys and operation names are 1 to ~40 bytes):
// 8 bytes per step, the tail in one or two overlapping loads, never a read past the key.
// Host byte order affects the values, not the quality; they are never stored or sent.
inline std::uint64_t hash_bytes(key_view key, std::uint64_t seed = 0) noexcept {
  const char* p = key.data();
  std::size_t n = key.size();
  std::uint64_t h = seed ^ (n * 0x9e3779b97f4a7c15ull);
  while (n >= 8) {
    h = detail::hash_step(h, detail::load64(p));
    p += 8;
    n -= 8;
  }
  if (n >= 4) {
    h = detail::hash_step(h, (detail::load32(p) << 32) | detail::load32(p + n - 4));
  } else if (n > 0) {
    const auto* u = reinterpret_cast<const unsigned char*>(p);
    h = detail::hash_step(h, (std::uint64_t{u[0]} << 16) | (std::uint64_t{u[n / 2]} << 8) | u[n - 1]);
  }
  return mix64(h);
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
