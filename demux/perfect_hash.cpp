#include "demux/perfect_hash.h"

#include <algorithm>
#include <numeric>

namespace switchyard::demux {

namespace {

// Displacements tried for a bucket: 0 first (the plain hash), then well-mixed values.
constexpr std::uint32_t max_attempts_per_bucket = 1u << 16;

std::uint32_t displacement_for(std::uint32_t attempt) noexcept {
  return attempt == 0 ? 0u : static_cast<std::uint32_t>(mix64(attempt));
}

}  // namespace

bool perfect_hash_index::place_bucket(std::uint32_t bucket, std::span<const std::uint64_t> hashes,
                                      std::span<const std::uint32_t> payloads) {
  std::vector<std::uint32_t> positions(hashes.size());
  for (std::uint32_t attempt = 0; attempt < max_attempts_per_bucket; ++attempt) {
    const std::uint32_t d = displacement_for(attempt);
    bool fits = true;
    for (std::size_t i = 0; i < hashes.size() && fits; ++i) {
      positions[i] = position(hashes[i], d);
      if (slot_payload_[positions[i]] != npos) fits = false;
      for (std::size_t j = 0; j < i && fits; ++j) fits = positions[j] != positions[i];
    }
    if (!fits) continue;
    bucket_displacement_[bucket] = d;
    for (std::size_t i = 0; i < hashes.size(); ++i) {
      const std::uint32_t p = positions[i];
      slot_payload_[p] = payloads[i];
      slot_hash_[p] = hashes[i];
      slot_next_[p] = bucket_head_[bucket];
      bucket_head_[bucket] = p;
    }
    return true;
  }
  return false;
}

bool perfect_hash_index::build_with(std::span<const std::uint64_t> hashes, std::size_t table_size) {
  const std::size_t bucket_count = std::max<std::size_t>(1, table_size / 4);
  bucket_displacement_.assign(bucket_count, 0);
  bucket_head_.assign(bucket_count, npos);
  slot_payload_.assign(table_size, npos);
  slot_hash_.assign(table_size, 0);
  slot_next_.assign(table_size, npos);
  count_ = 0;

  // Distinct keys with one 64-bit hash cannot be told apart by any displacement: new seed.
  std::vector<std::uint64_t> sorted(hashes.begin(), hashes.end());
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) return false;

  // Keys by bucket (counting sort), then the largest buckets first: they are the hardest to place.
  std::vector<std::uint32_t> start(bucket_count + 1, 0);
  for (auto h : hashes) ++start[bucket_of(h) + 1];
  std::partial_sum(start.begin(), start.end(), start.begin());
  std::vector<std::uint64_t> bucket_hashes(hashes.size());
  std::vector<std::uint32_t> bucket_payloads(hashes.size());
  {
    std::vector<std::uint32_t> fill(start.begin(), start.end() - 1);
    for (std::uint32_t i = 0; i < hashes.size(); ++i) {
      const std::uint32_t at = fill[bucket_of(hashes[i])]++;
      bucket_hashes[at] = hashes[i];
      bucket_payloads[at] = i;
    }
  }
  std::vector<std::uint32_t> order(bucket_count);
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return start[a + 1] - start[a] > start[b + 1] - start[b]; });
  for (std::uint32_t b : order) {
    const std::uint32_t n = start[b + 1] - start[b];
    if (n == 0) break;
    if (!place_bucket(b, std::span(bucket_hashes).subspan(start[b], n),
                      std::span(bucket_payloads).subspan(start[b], n))) {
      return false;
    }
  }
  count_ = hashes.size();
  return true;
}

bool perfect_hash_index::build(std::span<const key_view> keys, std::size_t capacity) {
  {
    std::vector<key_view> sorted(keys.begin(), keys.end());
    std::sort(sorted.begin(), sorted.end());
    if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) return false;
  }
  // Half full at most: a free slot is then found for a re-displaced bucket in a few tries.
  std::size_t table_size = std::max<std::size_t>(8, 2 * std::max(keys.size(), capacity));
  std::vector<std::uint64_t> hashes(keys.size());
  for (std::uint32_t attempt = 1;; ++attempt) {
    seed_ = mix64(seed_ + attempt);
    for (std::size_t i = 0; i < keys.size(); ++i) hashes[i] = hash(keys[i]);
    if (build_with(hashes, table_size)) return true;
    if (attempt % 4 == 0) table_size *= 2;  // unlucky seeds four times: more room
  }
}

bool perfect_hash_index::insert(std::uint64_t h, std::uint32_t payload) {
  if (slot_payload_.empty() || count_ + 1 > capacity()) return false;
  const std::uint32_t b = bucket_of(h);
  const std::uint32_t p = position(h, bucket_displacement_[b]);
  if (slot_payload_[p] == npos) {
    slot_payload_[p] = payload;
    slot_hash_[p] = h;
    slot_next_[p] = bucket_head_[b];
    bucket_head_[b] = p;
    ++count_;
    return true;
  }
  // Taken: move the whole bucket, new key included, to a new displacement.
  std::vector<std::uint64_t> hashes{h};
  std::vector<std::uint32_t> payloads{payload};
  std::vector<std::uint32_t> old_slots;
  for (std::uint32_t s = bucket_head_[b]; s != npos; s = slot_next_[s]) {
    if (slot_hash_[s] == h) return false;
    hashes.push_back(slot_hash_[s]);
    payloads.push_back(slot_payload_[s]);
    old_slots.push_back(s);
  }
  const std::uint32_t old_displacement = bucket_displacement_[b];
  for (auto s : old_slots) slot_payload_[s] = npos;
  bucket_head_[b] = npos;
  if (place_bucket(b, hashes, payloads)) {
    ++count_;
    return true;
  }
  // Put the bucket back as it was: its old slots are still free.
  bucket_displacement_[b] = old_displacement;
  for (std::size_t i = 0; i < old_slots.size(); ++i) {
    const std::uint32_t s = old_slots[i];
    slot_payload_[s] = payloads[i + 1];
    slot_hash_[s] = hashes[i + 1];
    slot_next_[s] = bucket_head_[b];
    bucket_head_[b] = s;
  }
  return false;
}

void perfect_hash_index::unlink(std::uint32_t bucket, std::uint32_t slot) noexcept {
  std::uint32_t* link = &bucket_head_[bucket];
  while (*link != npos && *link != slot) link = &slot_next_[*link];
  if (*link == slot) *link = slot_next_[slot];
  slot_next_[slot] = npos;
}

bool perfect_hash_index::erase(std::uint64_t h) noexcept {
  if (slot_payload_.empty()) return false;
  const std::uint32_t b = bucket_of(h);
  const std::uint32_t p = position(h, bucket_displacement_[b]);
  if (slot_payload_[p] == npos || slot_hash_[p] != h) return false;
  unlink(b, p);
  slot_payload_[p] = npos;
  --count_;
  return true;
}

bool perfect_hash_index::set_payload(std::uint64_t h, std::uint32_t payload) noexcept {
  if (slot_payload_.empty()) return false;
  const std::uint32_t p = position(h, bucket_displacement_[bucket_of(h)]);
  if (slot_payload_[p] == npos || slot_hash_[p] != h) return false;
  slot_payload_[p] = payload;
  return true;
}

std::size_t perfect_hash_index::memory_bytes() const noexcept {
  return bucket_displacement_.capacity() * 4 + bucket_head_.capacity() * 4 + slot_payload_.capacity() * 4 +
         slot_hash_.capacity() * 8 + slot_next_.capacity() * 4;
}

void perfect_hash_index::clear() noexcept {
  count_ = 0;
  bucket_displacement_.clear();
  bucket_head_.clear();
  slot_payload_.clear();
  slot_hash_.clear();
  slot_next_.clear();
}

}  // namespace switchyard::demux
