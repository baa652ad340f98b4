// The perfect-fast hash and its generator: a perfect hash that reads only the key's length and
// two 8-byte windows of it (gperf reads a few chosen bytes; one 8-byte load costs what one byte
// does), mixes them with one 64x64->128-bit multiply, and places the result with a displacement
// per bucket (hash and displace, as CHD and PTHash do), in tables whose sizes are powers of two:
//
//   a = the 8 bytes at `front` (clamped into the key), b = the 8 bytes ending `back` before its
//       end (clamped); keys under 8 bytes: a = the key zero-padded, b = 0
//   h = mum(a ^ seed, b ^ length * length_multiplier)          (key_hash.h's mum)
//   bucket = h >> bucket_shift & bucket_mask                   (the top bits)
//   slot = (h + displacement[bucket]) & slot_mask              (the low bits, shifted)
//
// then one compare of the whole key with the slot's. From the multiply to the slot's address the
// dependent chain is two shifts and masks, one load (the displacement) and one add; the
// displacement search tries every shift, so a bucket fails only when no free run fits it. Keys
// up to 16 bytes are covered whole by the windows at 0 and 0; for longer keys the generator moves
// the windows to where the keys differ, and when no two windows tell them all apart it hashes
// every byte (hash_bytes, `whole_key`). Any set of distinct keys gets a table, whatever their
// bytes. The generator is plain C++ with no dependency beyond the standard library: the adapter
// runs it at start-up, syidl at build time (fast_lookup_source.h writes the table as C++).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "demux/key_hash.h"

namespace switchyard::demux {

// Key -> 64-bit hash (the first half of the function above).
struct fast_key_hash {
  std::uint64_t seed = 0;
  std::uint64_t length_multiplier = 1;  // odd
  std::uint16_t front = 0;              // window a starts here (at most length - 8)
  std::uint16_t back = 0;               // window b ends this far before the end (likewise)
  bool whole_key = false;               // no windows separate the keys: hash every byte

  std::uint64_t operator()(key_view key) const noexcept {
    if (whole_key) [[unlikely]]
      return hash_bytes(key, seed);
    const char* p = key.data();
    const std::size_t n = key.size();
    std::uint64_t a, b;
    if (n >= 8) {
      a = detail::load64(p + std::min<std::size_t>(front, n - 8));
      b = detail::load64(p + (n - 8 - std::min<std::size_t>(back, n - 8)));
    } else {
      a = detail::load_short(p, n);
      b = 0;
    }
    return detail::mum(a ^ seed, b ^ (n * length_multiplier));
  }
};

// The whole function: key -> slot. 64 bytes, the displacements' address within the first 48: a
// table that puts one more pointer before it has all a lookup reads up to the displacement in
// one cache line (fast_perfect_table.h).
struct fast_perfect_hash {
  fast_key_hash hash;
  std::uint32_t bucket_mask = 0;   // bucket count - 1 (a power of two, at most 2^24)
  std::uint32_t slot_mask = 0;     // slot count - 1 (a power of two, at most 2^32)
  std::uint8_t bucket_shift = 63;  // buckets: the top bits of h
  std::vector<std::uint32_t> displacements = std::vector<std::uint32_t>(1, 0);  // one per bucket

  std::size_t bucket_count() const noexcept { return static_cast<std::size_t>(bucket_mask) + 1; }
  std::size_t slot_count() const noexcept { return static_cast<std::size_t>(slot_mask) + 1; }
  std::uint32_t bucket_of(std::uint64_t h) const noexcept {
    return static_cast<std::uint32_t>((h >> bucket_shift) & bucket_mask);
  }
  std::uint32_t position(std::uint64_t h, std::uint32_t displacement) const noexcept {
    return static_cast<std::uint32_t>((h + displacement) & slot_mask);
  }
  std::uint32_t slot_of_hash(std::uint64_t h) const noexcept { return position(h, displacements[bucket_of(h)]); }
  std::uint32_t slot_of(key_view key) const noexcept { return slot_of_hash(hash(key)); }
};

struct fast_perfect_options {
  // Keys per slot at most (the slot count is the power of two that keeps the load under it):
  // 0.8 for tables built once (operation tables, build-time lists); the servant map builds at
  // 0.5 so that later inserts mostly find their slot free.
  double max_load = 0.8;
  // Room for at least this many keys (the servant map's growth).
  std::size_t min_capacity = 0;
  // Where the seeds start (tests vary it).
  std::uint64_t seed = 0x5059524645435446ull;  // "PERFECTF"
};

// A function for a key set and where each key went.
struct fast_perfect_layout {
  fast_perfect_hash function;
  std::vector<std::uint32_t> slot_of_key;  // slot of keys[i]
};

// Builds the function for distinct `keys` (any bytes, any lengths, the empty key included).
// Throws std::invalid_argument on a duplicate key or more than 2^31 keys. Always succeeds
// otherwise: new seeds, then other windows, then whole-key hashing, then a larger table.
fast_perfect_layout build_fast_perfect_hash(std::span<const key_view> keys, const fast_perfect_options& options = {});

// Whether every key has its own (length, window a, window b) under `hash`'s windows: the
// condition for the windows to be usable at all (tests read it).
bool windows_separate(std::span<const key_view> keys, const fast_key_hash& hash);

// For a table that takes keys one at a time (the servant map): a displacement for one bucket
// whose keys (their hashes) all land in distinct slots that `is_free` accepts, and their slots
// in `slots`; nothing after `max_attempts` shifts (every shift, at most). Shift 0 comes first.
template <class IsFree>
std::optional<std::uint32_t> find_fast_displacement(const fast_perfect_hash& function,
                                                    std::span<const std::uint64_t> hashes, IsFree is_free,
                                                    std::span<std::uint32_t> slots,
                                                    std::size_t max_attempts = std::size_t{1} << 12) {
  const std::size_t attempts = std::min(max_attempts, function.slot_count());
  for (std::size_t attempt = 0; attempt < attempts; ++attempt) {
    const auto d = static_cast<std::uint32_t>(attempt);
    bool fits = true;
    for (std::size_t i = 0; i < hashes.size() && fits; ++i) {
      slots[i] = function.position(hashes[i], d);
      fits = is_free(slots[i]);
      for (std::size_t j = 0; j < i && fits; ++j) fits = slots[j] != slots[i];
    }
    if (fits) return d;
  }
  return std::nullopt;
}

}  // namespace switchyard::demux
