// The table behind the perfect-fast strategy: slots in the order fast_perfect_hash places keys,
// each holding the key (up to 16 bytes; a longer one's first 8 and a pointer to its copy), its
// length and the value, so that a lookup reads one displacement and one slot (one cache line
// each; keys over 16 bytes read a third line, the rest of their copy) and compares the key there. Built whole from a
// key set (operation tables), or grown one key at a time (servant maps): an insert takes its slot when free, else
// re-displaces its bucket, else rebuilds the table (larger when past three quarters full). Internal to demux/.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "demux/fast_perfect_hash.h"
#include "demux/key_hash.h"
#include "demux/memory_bytes.h"

namespace switchyard::demux {

// Aligned on a cache line: slot_data_ and the function, all a lookup reads before the
// displacement, then lie in one line.
template <class Value>
class alignas(64) fast_perfect_table {
 public:
  static constexpr std::uint32_t free_length = 0xffffffffu;
  // The longest key a table takes (its length must not read as free_length).
  static constexpr std::size_t max_key_length = free_length - 1;

  // 32 bytes, aligned on 32 for values of up to 8 bytes: a slot never straddles two cache lines.
  struct alignas(sizeof(Value) <= 8 ? 32 : alignof(Value)) slot {
    // Up to 16 bytes: the key, zero-padded. Longer: its first 8 bytes, then a pointer to the
    // table's copy of the whole key (long_keys_).
    char head[16] = {};
    std::uint32_t length = free_length;
    std::uint32_t payload = 0;  // the owner's number for the key (an operation's index)
    Value value{};
  };

  fast_perfect_table() { reset(); }
  // Slots point into long_keys_: a copy points into its own.
  fast_perfect_table(const fast_perfect_table& other)
      : function_(other.function_),
        slots_(other.slots_),
        long_keys_(other.long_keys_),
        slot_hash_(other.slot_hash_),
        slot_next_(other.slot_next_),
        bucket_head_(other.bucket_head_),
        count_(other.count_),
        capacity_(other.capacity_),
        rebuilds_(other.rebuilds_) {
    slot_data_ = slots_.data();
    for (std::size_t i = 0; i < slots_.size(); ++i) {
      if (slots_[i].length != free_length && slots_[i].length > 16) {
        const char* copy = long_keys_[i].data();
        std::memcpy(slots_[i].head + 8, &copy, sizeof copy);
      }
    }
  }
  // Moving keeps the copies' heap blocks, so the slots' pointers stay right.
  fast_perfect_table(fast_perfect_table&&) noexcept = default;
  fast_perfect_table& operator=(fast_perfect_table other) noexcept {
    swap(other);
    return *this;
  }
  void swap(fast_perfect_table& other) noexcept {
    std::swap(slot_data_, other.slot_data_);
    std::swap(function_, other.function_);
    slots_.swap(other.slots_);
    long_keys_.swap(other.long_keys_);
    slot_hash_.swap(other.slot_hash_);
    slot_next_.swap(other.slot_next_);
    bucket_head_.swap(other.bucket_head_);
    std::swap(count_, other.count_);
    std::swap(capacity_, other.capacity_);
    std::swap(rebuilds_, other.rebuilds_);
  }

  // Replaces the contents with keys[i] -> (values[i], payloads[i]); std::invalid_argument on a
  // duplicate or overlong key (the table is then empty).
  void assign(std::span<const key_view> keys, std::span<Value> values, std::span<const std::uint32_t> payloads,
              const fast_perfect_options& options = {}) {
    for (auto k : keys)
      if (k.size() > max_key_length) throw std::invalid_argument("perfect-fast table: key too long");
    fast_perfect_layout layout;
    try {
      layout = build_fast_perfect_hash(keys, options);
    } catch (...) {
      reset();
      throw;
    }
    function_ = std::move(layout.function);
    slots_.assign(function_.slot_count(), slot{});
    slot_data_ = slots_.data();
    long_keys_.clear();
    slot_hash_.assign(function_.slot_count(), 0);
    slot_next_.assign(function_.slot_count(), no_slot);
    bucket_head_.assign(function_.bucket_count(), no_slot);
    count_ = 0;
    for (std::size_t i = 0; i < keys.size(); ++i) {
      const std::uint64_t h = function_.hash(keys[i]);
      put(layout.slot_of_key[i], keys[i], h, std::move(values[i]), payloads[i]);
    }
    capacity_ = static_cast<std::size_t>(static_cast<double>(function_.slot_count()) * 0.75);
    ++rebuilds_;
  }

  const slot* find(key_view key) const noexcept {
    const slot& s = slot_data_[function_.slot_of(key)];
    return matches(s, key) ? &s : nullptr;
  }
  slot* find(key_view key) noexcept {
    return const_cast<slot*>(static_cast<const fast_perfect_table*>(this)->find(key));
  }

  // Adds a key the caller knows is absent (and at most max_key_length long); returns its slot
  // (valid until the next insert or erase).
  slot& insert(key_view key, Value value, std::uint32_t payload) {
    if (count_ + 1 > capacity_) return rebuild_with(key, std::move(value), payload);
    const std::uint64_t h = function_.hash(key);
    const std::uint32_t bucket = function_.bucket_of(h);
    const std::uint32_t p = function_.position(h, function_.displacements[bucket]);
    if (slots_[p].length == free_length) return put(p, key, h, std::move(value), payload);

    // Taken: move the bucket, the new key included, to another displacement.
    std::vector<std::uint32_t> members;
    std::vector<std::uint64_t> hashes{h};
    for (std::uint32_t s = bucket_head_[bucket]; s != no_slot; s = slot_next_[s]) {
      members.push_back(s);
      hashes.push_back(slot_hash_[s]);
    }
    std::vector<std::uint32_t> positions(hashes.size());
    auto is_free = [&](std::uint32_t s) {
      return slots_[s].length == free_length || std::find(members.begin(), members.end(), s) != members.end();
    };
    auto d = find_fast_displacement(function_, hashes, is_free, positions);
    if (!d) return rebuild_with(key, std::move(value), payload);
    // Take the members out, then put them back at their new places (which may be each other's).
    struct moved {
      slot content;
      std::string long_key;
      std::uint64_t hash;
    };
    std::vector<moved> out;
    for (auto s : members) {
      out.push_back(moved{std::move(slots_[s]), long_key_at(s), slot_hash_[s]});
      clear_slot(s);
    }
    bucket_head_[bucket] = no_slot;
    function_.displacements[bucket] = *d;
    count_ -= members.size();
    for (std::size_t i = 0; i < out.size(); ++i) {
      const std::uint32_t to = positions[i + 1];
      const key_view moved_key =
          out[i].content.length > 16 ? key_view(out[i].long_key) : key_view(out[i].content.head, out[i].content.length);
      put(to, moved_key, out[i].hash, std::move(out[i].content.value), out[i].content.payload);
    }
    return put(positions[0], key, h, std::move(value), payload);
  }

  bool erase(key_view key) {
    const std::uint32_t i = function_.slot_of(key);
    if (!matches(slots_[i], key)) return false;
    const std::uint32_t bucket = function_.bucket_of(slot_hash_[i]);
    std::uint32_t* link = &bucket_head_[bucket];
    while (*link != no_slot && *link != i) link = &slot_next_[*link];
    if (*link == i) *link = slot_next_[i];
    clear_slot(i);
    --count_;
    // Shrink when an eighth full, so that memory follows the number of keys.
    if (function_.slot_count() > 64 && count_ * 8 < function_.slot_count()) rebuild_with_nothing_new();
    return true;
  }

  std::size_t size() const noexcept { return count_; }
  void clear() noexcept { reset(); }
  // The key in a live slot (a view into the table, valid until the next insert or erase).
  key_view key_of(const slot& s) const noexcept {
    const auto i = static_cast<std::size_t>(&s - slots_.data());
    return s.length > 16 ? key_view(long_keys_[i]) : key_view(s.head, s.length);
  }
  // Every live slot, in slot order.
  template <class F>
  void for_each(F&& f) const {
    for (const auto& s : slots_)
      if (s.length != free_length) f(s);
  }
  const fast_perfect_hash& function() const noexcept { return function_; }
  std::size_t slot_count() const noexcept { return slots_.size(); }
  // Whole-table builds so far (the first one included).
  std::size_t rebuild_count() const noexcept { return rebuilds_; }
  std::size_t memory_bytes() const noexcept {
    std::size_t n = slots_.capacity() * sizeof(slot) + long_keys_.capacity() * sizeof(std::string) +
                    slot_hash_.capacity() * 8 + slot_next_.capacity() * 4 + bucket_head_.capacity() * 4 +
                    function_.displacements.capacity() * 4;
    for (auto& k : long_keys_) n += string_heap_bytes(k);
    return n;
  }

 private:
  static constexpr std::uint32_t no_slot = 0xffffffffu;

  // One length compare, then the bytes: two 8-byte compares in the slot for keys of 8..16 bytes,
  // one for shorter ones (the slot's head is zero-padded); for longer ones the first 8 bytes in
  // the slot, then the rest of the copy. A free slot's length equals only a key of free_length
  // bytes, which then meets a null copy.
  static bool matches(const slot& s, key_view key) noexcept {
    using detail::load64;
    const std::size_t n = key.size();
    const char* p = key.data();
    if (s.length != n) return false;
    if (n > 16) return load64(s.head) == load64(p) && same_long(long_copy(s), p, n);
    if (n >= 8) return load64(s.head) == load64(p) && load64(s.head + n - 8) == load64(p + n - 8);
    return load64(s.head) == detail::load_short(p, n);
  }
  static const char* long_copy(const slot& s) noexcept {
    const char* copy;
    std::memcpy(&copy, s.head + 8, sizeof copy);
    return copy;
  }
  // Bytes 8..n of two keys of n > 16 bytes (the first 8 are equal): overlapping 8-byte loads up
  // to 32 bytes, memcmp beyond. Out of line: the short keys' path keeps no registers for it.
  [[gnu::noinline]] static bool same_long(const char* copy, const char* p, std::size_t n) noexcept {
    using detail::load64;
    if (copy == nullptr) return false;
    if (n <= 24) return load64(copy + 8) == load64(p + 8) && load64(copy + n - 8) == load64(p + n - 8);
    if (n <= 32)
      return load64(copy + 8) == load64(p + 8) && load64(copy + 16) == load64(p + 16) &&
             load64(copy + n - 8) == load64(p + n - 8);
    return std::memcmp(copy + 8, p + 8, n - 8) == 0;
  }

  slot& put(std::uint32_t i, key_view key, std::uint64_t h, Value value, std::uint32_t payload) {
    slot& s = slots_[i];
    std::fill(std::begin(s.head), std::end(s.head), '\0');
    s.length = static_cast<std::uint32_t>(key.size());
    s.payload = payload;
    s.value = std::move(value);
    if (key.size() > 16) {
      // The copy is a heap block of its own (longer than any short-string buffer): its address
      // stays when long_keys_ grows or its strings move.
      if (long_keys_.size() < slots_.size()) long_keys_.resize(slots_.size());
      long_keys_[i].assign(key.data(), key.size());
      const char* copy = long_keys_[i].data();
      std::copy_n(key.data(), 8, s.head);
      std::memcpy(s.head + 8, &copy, sizeof copy);
    } else {
      std::copy_n(key.data(), key.size(), s.head);
    }
    slot_hash_[i] = h;
    const std::uint32_t bucket = function_.bucket_of(h);
    slot_next_[i] = bucket_head_[bucket];
    bucket_head_[bucket] = i;
    ++count_;
    return s;
  }

  void clear_slot(std::uint32_t i) {
    slots_[i] = slot{};
    if (i < long_keys_.size()) std::string().swap(long_keys_[i]);
    slot_next_[i] = no_slot;
  }

  std::string long_key_at(std::uint32_t i) const { return slots_[i].length > 16 ? long_keys_[i] : std::string(); }

  // Builds anew over every key, plus (key, value, payload) when `key` is given; returns that
  // key's slot (or the first slot).
  slot& rebuild_with(key_view key, Value value, std::uint32_t payload) {
    return rebuild(&key, std::move(value), payload);
  }
  void rebuild_with_nothing_new() { rebuild(nullptr, Value{}, 0); }

  slot& rebuild(const key_view* added, Value added_value, std::uint32_t added_payload) {
    std::vector<std::string> keys;
    std::vector<Value> values;
    std::vector<std::uint32_t> payloads;
    keys.reserve(count_ + 1);
    values.reserve(count_ + 1);
    payloads.reserve(count_ + 1);
    for (auto& s : slots_) {
      if (s.length == free_length) continue;
      keys.emplace_back(key_of(s));
      values.push_back(std::move(s.value));
      payloads.push_back(s.payload);
    }
    if (added != nullptr) {
      keys.emplace_back(*added);
      values.push_back(std::move(added_value));
      payloads.push_back(added_payload);
    }
    std::vector<key_view> views(keys.begin(), keys.end());
    fast_perfect_options options;
    options.max_load = 0.5;
    options.min_capacity = keys.size() + keys.size() / 2;
    options.seed = function_.hash.seed ^ (rebuilds_ + 1);
    assign(views, values, payloads, options);
    return added != nullptr ? *find(*added) : slots_.front();
  }

  void reset() {
    function_ = fast_perfect_hash{};
    slots_.assign(1, slot{});
    slot_data_ = slots_.data();
    long_keys_.clear();
    slot_hash_.assign(1, 0);
    slot_next_.assign(1, no_slot);
    bucket_head_.assign(1, no_slot);
    count_ = 0;
    capacity_ = 0;
  }

  // What a lookup reads first, in one cache line: the slots' address, then the function (whose
  // displacements' address lies within its first 48 bytes).
  slot* slot_data_ = nullptr;  // slots_.data()
  fast_perfect_hash function_;
  std::vector<slot> slots_;
  std::vector<std::string> long_keys_;  // per slot, only once a key over 16 bytes came
  // For inserts and erases only (never read by find): each slot's hash, its bucket's chain.
  std::vector<std::uint64_t> slot_hash_;
  std::vector<std::uint32_t> slot_next_;
  std::vector<std::uint32_t> bucket_head_;
  std::size_t count_ = 0;
  std::size_t capacity_ = 0;  // keys taken before the next insert rebuilds larger
  std::size_t rebuilds_ = 0;
};

}  // namespace switchyard::demux
