// A perfect hash built at run time, for keys known only at start-up (hash and displace, as CHD
// and PTHash do). Keys fall in buckets; each bucket has a displacement chosen so that its keys
// land in free slots of a table. A lookup is one hash of the key, two multiplications and two
// array reads; the caller then compares the one candidate key. Not a template: perfect_hash.cpp.
//
// The index does not own keys: it stores their 64-bit hashes and a 32-bit payload per key (the
// caller's entry number). It grows in place: an insert first tries the key's bucket as it is, then
// re-displaces that one bucket, and only when that fails (or the table is half full) asks the
// caller to rebuild it whole, larger or with a new seed (amortized O(1) per insert).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "demux/key_hash.h"

namespace switchyard::demux {

class perfect_hash_index {
 public:
  static constexpr std::uint32_t npos = 0xffffffffu;

  std::uint64_t hash(key_view key) const noexcept { return hash_bytes(key, seed_); }

  // The payload of the only slot a key with hash `h` can occupy, or npos when that slot is free.
  // The caller compares its key: another key may have put its payload there.
  std::uint32_t find(std::uint64_t h) const noexcept {
    if (slot_payload_.empty()) return npos;
    return slot_payload_[position(h, bucket_displacement_[bucket_of(h)])];
  }

  // Builds the index over `keys` (distinct; payload = position in `keys`) with room for at least
  // `capacity` keys. Tries new seeds, then larger tables; false only when `keys` holds duplicates.
  bool build(std::span<const key_view> keys, std::size_t capacity = 0);

  // Adds a key by its hash (from hash() with the current seed). False when the caller must rebuild
  // (table half full, or the key's bucket cannot be re-displaced, or another key has the same
  // 64-bit hash); the index is then unchanged.
  bool insert(std::uint64_t h, std::uint32_t payload);

  // Removes the key with hash `h`; false when no key with that hash is present.
  bool erase(std::uint64_t h) noexcept;

  // Changes the payload of the key with hash `h` (the caller moved its entry).
  bool set_payload(std::uint64_t h, std::uint32_t payload) noexcept;

  std::size_t size() const noexcept { return count_; }
  std::size_t table_size() const noexcept { return slot_payload_.size(); }
  // Keys this table takes before insert() asks for a rebuild.
  std::size_t capacity() const noexcept { return slot_payload_.size() / 2; }
  std::size_t memory_bytes() const noexcept;
  void clear() noexcept;

 private:
  std::uint32_t bucket_of(std::uint64_t h) const noexcept {
    return static_cast<std::uint32_t>(((h >> 32) * bucket_displacement_.size()) >> 32);
  }
  std::uint32_t position(std::uint64_t h, std::uint32_t displacement) const noexcept {
    return static_cast<std::uint32_t>(
        (std::uint64_t{static_cast<std::uint32_t>(h) ^ displacement} * slot_payload_.size()) >> 32);
  }
  bool build_with(std::span<const std::uint64_t> hashes, std::size_t table_size);
  bool place_bucket(std::uint32_t bucket, std::span<const std::uint64_t> hashes,
                    std::span<const std::uint32_t> payloads);
  void unlink(std::uint32_t bucket, std::uint32_t slot) noexcept;

  std::uint64_t seed_ = 0x5357495443485944ull;  // "SWITCHYD"; changed when a build fails
  std::size_t count_ = 0;
  // Per bucket: the displacement XORed into the hash, and the first slot of its key list.
  std::vector<std::uint32_t> bucket_displacement_;
  std::vector<std::uint32_t> bucket_head_;
  // Per slot: payload (npos when free), the key's full hash, the next slot of the same bucket.
  std::vector<std::uint32_t> slot_payload_;
  std::vector<std::uint64_t> slot_hash_;
  std::vector<std::uint32_t> slot_next_;
};

}  // namespace switchyard::demux
