// Keys kept sorted for binary search (the binary strategies). The order is cheap to compare, not
// alphabetical: by length, then by 8 bytes of the key read as one big-endian number (its first 8
// or its last 8, as the table chose: where its keys differ), then by all the bytes. Each step of
// the search usually decides on two integer compares in the sorted array itself, and goes to
// the key's bytes only when length and those 8 bytes tie. Internal to demux/.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>

#include "demux/key_hash.h"

namespace switchyard::demux {

// Which 8 bytes of a key the sorted array holds: the first (operation names differ early:
// get_x, set_y) or the last (object ids often share a prefix: RootPOA/0001, RootPOA/0002).
enum class key_head : std::uint8_t { first_bytes, last_bytes };

struct sorted_key {
  std::uint64_t head;    // the chosen 8 bytes as a big-endian number (zero-padded when shorter)
  std::uint32_t length;  // keys of 4 GiB and more are never stored
  std::uint32_t entry;   // the table's entry number
  const char* bytes;     // the whole key (the table's copy)
};

namespace detail {
inline std::uint64_t big_endian(std::uint64_t v) noexcept {
  if constexpr (std::endian::native == std::endian::little) return __builtin_bswap64(v);
  return v;
}
}  // namespace detail

inline std::uint64_t key_head_of(key_view key, key_head which) noexcept {
  const std::size_t n = key.size();
  if (n < 8) return detail::big_endian(detail::load_short(key.data(), n));
  return detail::big_endian(detail::load64(key.data() + (which == key_head::first_bytes ? 0 : n - 8)));
}

// Lexicographic three-way compare of two keys of the same length n, 8 bytes at a time (the last
// step overlaps bytes already found equal). Never reads outside either key.
inline int compare_same_length(const char* a, const char* b, std::size_t n) noexcept {
  using detail::big_endian;
  using detail::load64;
  if (n < 8) {
    const std::uint64_t x = big_endian(detail::load_short(a, n)), y = big_endian(detail::load_short(b, n));
    return x < y ? -1 : x > y ? 1 : 0;
  }
  for (std::size_t i = 0; i + 8 < n; i += 8) {
    const std::uint64_t x = big_endian(load64(a + i)), y = big_endian(load64(b + i));
    if (x != y) return x < y ? -1 : 1;
  }
  const std::uint64_t x = big_endian(load64(a + n - 8)), y = big_endian(load64(b + n - 8));
  return x < y ? -1 : x > y ? 1 : 0;
}

// Where `entry` sorts against the key (`head` its key_head_of): < 0 before, 0 the same key, > 0 after.
inline int compare_sorted(const sorted_key& entry, std::uint64_t head, key_view key) noexcept {
  if (entry.length != key.size()) return entry.length < key.size() ? -1 : 1;
  if (entry.head != head) return entry.head < head ? -1 : 1;
  return compare_same_length(entry.bytes, key.data(), key.size());
}

inline bool sorted_before(const sorted_key& a, const sorted_key& b) noexcept {
  return compare_sorted(a, b.head, key_view(b.bytes, b.length)) < 0;
}

inline constexpr std::size_t not_sorted = ~std::size_t{0};

// The position of `key` in `keys` (sorted by sorted_before, heads made with `which`), or
// not_sorted. About log2(n) + 1 compares, each one integer compare pair in the common case.
inline std::size_t find_sorted(std::span<const sorted_key> keys, key_view key, key_head which) noexcept {
  std::size_t n = keys.size();
  if (n == 0) return not_sorted;
  const std::uint64_t head = key_head_of(key, which);
  const sorted_key* base = keys.data();
  // Keep `base` at the last entry not after the key (or the first entry).
  while (n > 1) {
    const std::size_t half = n / 2;
    if (compare_sorted(base[half], head, key) <= 0) base += half;
    n -= half;
  }
  return compare_sorted(*base, head, key) == 0 ? static_cast<std::size_t>(base - keys.data()) : not_sorted;
}

// Where `key` would be inserted to keep `keys` sorted (the first entry after it).
inline std::size_t sorted_insert_position(std::span<const sorted_key> keys, key_view key, key_head which) noexcept {
  const std::uint64_t head = key_head_of(key, which);
  std::size_t low = 0, high = keys.size();
  while (low < high) {
    const std::size_t mid = low + (high - low) / 2;
    if (compare_sorted(keys[mid], head, key) < 0) low = mid + 1;
    else high = mid;
  }
  return low;
}

}  // namespace switchyard::demux
