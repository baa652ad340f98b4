#include "demux/fast_perfect_hash.h"

#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>
#include <tuple>

namespace switchyard::demux {

namespace {

// What the windows read of a key: equal signatures mean equal hashes under every seed.
struct signature {
  std::size_t length;
  std::uint64_t a, b;
  friend bool operator==(const signature&, const signature&) = default;
  friend bool operator<(const signature& x, const signature& y) {
    return std::tie(x.length, x.a, x.b) < std::tie(y.length, y.a, y.b);
  }
};

signature signature_of(key_view key, std::uint32_t front, std::uint32_t back) {
  // The same reads as fast_key_hash.
  const std::size_t n = key.size();
  if (n < 8) return {n, detail::load_short(key.data(), n), 0};
  return {n, detail::load64(key.data() + std::min<std::size_t>(front, n - 8)),
          detail::load64(key.data() + (n - 8 - std::min<std::size_t>(back, n - 8)))};
}

bool distinct_signatures(std::span<const key_view> keys, std::span<const std::uint32_t> which, std::uint32_t front,
                         std::uint32_t back, std::vector<signature>& scratch) {
  scratch.clear();
  for (auto i : which) scratch.push_back(signature_of(keys[i], front, back));
  std::sort(scratch.begin(), scratch.end());
  return std::adjacent_find(scratch.begin(), scratch.end()) == scratch.end();
}

// Keys that share their signature with another under the windows (0, 0).
std::vector<std::uint32_t> colliding_keys(std::span<const key_view> keys) {
  std::vector<std::pair<signature, std::uint32_t>> all;
  all.reserve(keys.size());
  for (std::uint32_t i = 0; i < keys.size(); ++i) all.emplace_back(signature_of(keys[i], 0, 0), i);
  std::sort(all.begin(), all.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<std::uint32_t> out;
  for (std::size_t i = 0; i < all.size(); ++i) {
    const bool same_as_previous = i > 0 && all[i].first == all[i - 1].first;
    const bool same_as_next = i + 1 < all.size() && all[i].first == all[i + 1].first;
    if (same_as_previous || same_as_next) out.push_back(all[i].second);
  }
  return out;
}

// Windows (front, back) under which every key has its own signature, or nothing. Keys of up to 16
// bytes are read whole by (0, 0), so the search only runs for longer keys that tie there: first
// one window moved (over every offset), then both (over the first 128 offsets each). A candidate
// is tried on the keys that tied at (0, 0) first, then on all of them.
std::optional<std::pair<std::uint32_t, std::uint32_t>> choose_windows(std::span<const key_view> keys) {
  const std::vector<std::uint32_t> tied = colliding_keys(keys);
  if (tied.empty()) return std::pair<std::uint32_t, std::uint32_t>{0, 0};
  std::vector<std::uint32_t> everyone(keys.size());
  std::iota(everyone.begin(), everyone.end(), 0u);
  std::size_t longest = 0;
  for (auto k : keys) longest = std::max(longest, k.size());
  // Offsets past longest - 8 clamp to the same window for every key.
  const auto last_offset = static_cast<std::uint32_t>(std::min<std::size_t>(longest - 8, 0xffff));
  std::vector<signature> scratch;
  auto separates = [&](std::uint32_t front, std::uint32_t back) {
    return distinct_signatures(keys, tied, front, back, scratch) &&
           distinct_signatures(keys, everyone, front, back, scratch);
  };
  for (std::uint32_t offset = 1; offset <= last_offset; ++offset) {
    if (separates(offset, 0)) return std::pair{offset, 0u};
    if (separates(0, offset)) return std::pair{0u, offset};
  }
  // Both windows moved: bounded work (tied keys times pairs tried).
  const std::uint32_t pair_limit = std::min<std::uint32_t>(last_offset, 128);
  std::size_t budget = std::size_t{1} << 24;
  for (std::uint32_t front = 1; front <= pair_limit; ++front) {
    for (std::uint32_t back = 1; back <= pair_limit; ++back) {
      if (budget < tied.size()) return std::nullopt;
      budget -= tied.size();
      if (separates(front, back)) return std::pair{front, back};
    }
  }
  return std::nullopt;
}

// Places every key; false when some bucket finds no displacement (the caller tries another seed).
bool place_all(fast_perfect_hash& function, std::span<const std::uint64_t> hashes,
               std::vector<std::uint32_t>& slot_of_key) {
  const std::size_t bucket_count = function.bucket_count();
  // Keys by bucket (counting sort), then the largest buckets first: they are the hardest to place.
  std::vector<std::uint32_t> start(bucket_count + 1, 0);
  for (auto h : hashes) ++start[function.bucket_of(h) + 1];
  std::partial_sum(start.begin(), start.end(), start.begin());
  std::vector<std::uint64_t> bucket_hashes(hashes.size());
  std::vector<std::uint32_t> bucket_keys(hashes.size());
  {
    std::vector<std::uint32_t> fill(start.begin(), start.end() - 1);
    for (std::uint32_t i = 0; i < hashes.size(); ++i) {
      const std::uint32_t at = fill[function.bucket_of(hashes[i])]++;
      bucket_hashes[at] = hashes[i];
      bucket_keys[at] = i;
    }
  }
  std::vector<std::uint32_t> order(bucket_count);
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::uint32_t x, std::uint32_t y) { return start[x + 1] - start[x] > start[y + 1] - start[y]; });
  std::vector<std::uint8_t> taken(function.slot_count(), 0);
  std::vector<std::uint32_t> slots;
  function.displacements.assign(bucket_count, 0);
  slot_of_key.assign(hashes.size(), 0);
  for (std::uint32_t b : order) {
    const std::uint32_t n = start[b + 1] - start[b];
    if (n == 0) break;
    slots.resize(n);
    // Every shift is tried: a bucket fails only when none fits it (then a new seed).
    auto d = find_fast_displacement(
        function, std::span(bucket_hashes).subspan(start[b], n), [&](std::uint32_t slot) { return taken[slot] == 0; },
        std::span(slots), function.slot_count());
    if (!d) return false;
    function.displacements[b] = *d;
    for (std::uint32_t i = 0; i < n; ++i) {
      taken[slots[i]] = 1;
      slot_of_key[bucket_keys[start[b] + i]] = slots[i];
    }
  }
  return true;
}

// The smallest power of two at least n (n >= 1), and its base-2 logarithm.
std::pair<std::size_t, unsigned> power_of_two_at_least(std::size_t n) {
  std::size_t p = 1;
  unsigned bits = 0;
  while (p < n) {
    p <<= 1;
    ++bits;
  }
  return {p, bits};
}

}  // namespace

bool windows_separate(std::span<const key_view> keys, const fast_key_hash& hash) {
  if (hash.whole_key) return true;
  std::vector<std::uint32_t> everyone(keys.size());
  std::iota(everyone.begin(), everyone.end(), 0u);
  std::vector<signature> scratch;
  return distinct_signatures(keys, everyone, hash.front, hash.back, scratch);
}

fast_perfect_layout build_fast_perfect_hash(std::span<const key_view> keys, const fast_perfect_options& options) {
  if (keys.size() > (std::size_t{1} << 31)) throw std::invalid_argument("perfect-fast hash: more than 2^31 keys");
  {
    std::vector<key_view> sorted(keys.begin(), keys.end());
    std::sort(sorted.begin(), sorted.end());
    if (auto it = std::adjacent_find(sorted.begin(), sorted.end()); it != sorted.end())
      throw std::invalid_argument("perfect-fast hash: duplicate key of " + std::to_string(it->size()) + " bytes");
  }
  fast_perfect_layout layout;
  fast_perfect_hash& f = layout.function;
  if (auto windows = choose_windows(keys)) {
    f.hash.front = static_cast<std::uint16_t>(windows->first);
    f.hash.back = static_cast<std::uint16_t>(windows->second);
  } else {
    f.hash.whole_key = true;
  }
  const double load = std::clamp(options.max_load, 0.05, 1.0);
  const std::size_t room = std::max<std::size_t>({keys.size(), options.min_capacity, 1});
  auto [slots, slot_bits] =
      power_of_two_at_least(static_cast<std::size_t>(std::ceil(static_cast<double>(room) / load)));
  // About three keys per bucket (one displacement word for three keys), the buckets a power of
  // two taken from the top bits of the hash (at most 2^24 of them).
  const auto [buckets, bucket_bits] =
      power_of_two_at_least(std::min<std::size_t>(std::size_t{1} << 24, std::max<std::size_t>(1, room / 3)));
  f.bucket_mask = static_cast<std::uint32_t>(buckets - 1);
  f.bucket_shift = static_cast<std::uint8_t>(bucket_bits == 0 ? 63 : 64 - bucket_bits);
  (void)slot_bits;

  std::vector<std::uint64_t> hashes(keys.size()), sorted_hashes;
  std::uint64_t seed = options.seed;
  for (std::uint32_t attempt = 1;; ++attempt) {
    if (slots > (std::size_t{1} << 32)) throw std::invalid_argument("perfect-fast hash: table too large");
    f.slot_mask = static_cast<std::uint32_t>(slots - 1);
    seed = mix64(seed + attempt);
    f.hash.seed = seed;
    f.hash.length_multiplier = mix64(seed ^ detail::k1) | 1;
    for (std::size_t i = 0; i < keys.size(); ++i) hashes[i] = f.hash(keys[i]);
    sorted_hashes = hashes;
    std::sort(sorted_hashes.begin(), sorted_hashes.end());
    const bool distinct = std::adjacent_find(sorted_hashes.begin(), sorted_hashes.end()) == sorted_hashes.end();
    if (distinct && place_all(f, hashes, layout.slot_of_key)) return layout;
    // Unlucky seeds eight times in a row: twice the room.
    if (attempt % 8 == 0) slots *= 2;
  }
}

}  // namespace switchyard::demux
