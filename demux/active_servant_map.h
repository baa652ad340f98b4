// Servant map by active demultiplexing (figure 30(D)): the map chooses the key. It is a slot index
// and a generation count, 8 bytes that the adapter puts inside the object key; a lookup decodes
// the index, checks the bound and the generation, and never compares a key. A stale key (slot
// erased, or erased and reused: the generation moved on) or a forged key (wrong length, index out
// of range, generation not the slot's) finds nothing, never another servant.
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <utility>
#include <vector>

#include "demux/key_hash.h"

namespace switchyard::demux {

// The wire form of an active key: index then generation, 4 bytes each, little-endian, so a key
// means the same on every host.
inline constexpr std::size_t active_key_size = 8;

struct active_handle {
  std::uint32_t index;
  std::uint32_t generation;
};

inline std::array<char, active_key_size> encode_active_key(active_handle h) noexcept {
  std::array<char, active_key_size> out{};
  for (int i = 0; i < 4; ++i) {
    out[i] = static_cast<char>((h.index >> (8 * i)) & 0xff);
    out[4 + i] = static_cast<char>((h.generation >> (8 * i)) & 0xff);
  }
  return out;
}

// Nothing unless `key` is exactly active_key_size bytes.
inline std::optional<active_handle> decode_active_key(key_view key) noexcept {
  if (key.size() != active_key_size) return std::nullopt;
  std::uint32_t index, generation;
  std::memcpy(&index, key.data(), 4);
  std::memcpy(&generation, key.data() + 4, 4);
  if constexpr (std::endian::native == std::endian::big) {
    index = __builtin_bswap32(index);
    generation = __builtin_bswap32(generation);
  }
  return active_handle{index, generation};
}

// Value must be default-constructible and movable (a pointer, typically); free slots hold Value{}.
template <class Value>
class active_servant_map {
 public:
  using value_type = Value;

  // Adds `value` in a free slot (the most recently freed first, else a new one) and returns its
  // key: a view of 8 bytes kept in the slot, valid until the next insert or erase. `id` is not
  // used for lookups (the adapter keeps its own id -> key record if it needs one); it is accepted
  // so that every servant map has the same insert. Never fails but for lack of memory.
  std::optional<key_view> insert(key_view /*id*/, Value value) {
    std::uint32_t index;
    if (free_head_ != no_slot) {
      index = free_head_;
      free_head_ = slots_[index].next_free;
    } else {
      index = static_cast<std::uint32_t>(slots_.size());
      slots_.emplace_back();
    }
    slot& s = slots_[index];
    ++s.generation;  // even (free) -> odd (live)
    s.value = std::move(value);
    s.key = encode_active_key({index, s.generation});
    ++size_;
    return key_view(s.key.data(), s.key.size());
  }

  // Frees the slot `key` names, if live. Its generation moves on, so `key` goes stale. A slot
  // whose generation would wrap is retired instead of reused: no key ever comes back to life.
  bool erase(key_view key) {
    slot* s = live_slot(key);
    if (s == nullptr) return false;
    ++s->generation;  // odd -> even
    s->value = Value{};
    s->key = {};
    --size_;
    if (s->generation != max_generation) {
      auto index = static_cast<std::uint32_t>(s - slots_.data());
      s->next_free = free_head_;
      free_head_ = index;
    }
    return true;
  }

  Value* find(key_view key) noexcept {
    slot* s = live_slot(key);
    return s == nullptr ? nullptr : &s->value;
  }
  const Value* find(key_view key) const noexcept { return const_cast<active_servant_map*>(this)->find(key); }

  std::size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  void clear() noexcept {
    // Keep the slots and their generations: keys handed out before stay stale for ever.
    for (std::size_t i = 0; i < slots_.size(); ++i) {
      if (slots_[i].generation & 1u) erase(key_view(slots_[i].key.data(), slots_[i].key.size()));
    }
  }
  void reserve(std::size_t n) { slots_.reserve(n); }
  std::size_t memory_bytes() const noexcept { return slots_.capacity() * sizeof(slot); }
  // Slots ever made (live, free and retired); keys index into them.
  std::size_t slot_count() const noexcept { return slots_.size(); }

 private:
  static constexpr std::uint32_t no_slot = 0xffffffffu;
  static constexpr std::uint32_t max_generation = 0xfffffffeu;  // even: the last free state
  struct slot {
    Value value{};
    std::uint32_t generation = 0;  // odd while live
    std::uint32_t next_free = no_slot;
    std::array<char, active_key_size> key{};
  };

  slot* live_slot(key_view key) noexcept {
    auto h = decode_active_key(key);
    if (!h || h->index >= slots_.size()) return nullptr;
    slot& s = slots_[h->index];
    // A live slot has an odd generation, so an even one in a key never matches a live slot.
    return s.generation == h->generation && (h->generation & 1u) ? &s : nullptr;
  }

  std::vector<slot> slots_;
  std::uint32_t free_head_ = no_slot;
  std::size_t size_ = 0;
};

}  // namespace switchyard::demux
