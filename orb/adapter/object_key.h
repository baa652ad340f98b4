// The layout of the object keys Switchyard's adapters make. Internal to orb/adapter and orb/core.
//
//   0  'S' 'Y' 0x01 0x00   magic and format version
//   4  adapter index       ulong, little-endian: one indexed lookup finds the adapter
//   8  servant part        the adapter's servant-map key: with active demultiplexing the 8-byte
//                          slot and generation (a hint: when it is stale or forged, the object
//                          id after it decides, by hash), then the object id; otherwise the
//                          object id
//
// Keys are opaque octets to clients. A key without the magic is not ours (it may name an object
// bound by a plain name: see adapter_registry::bind_key).
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

namespace switchyard::adapter {

inline constexpr std::size_t object_key_header_size = 8;
inline constexpr char object_key_magic[4] = {'S', 'Y', 1, 0};

struct parsed_object_key {
  std::uint32_t adapter_index;
  std::string_view servant_part;
};

// The parts of one of our keys, or nothing when it is not one (too short, other magic). Inline:
// the request path (adapter_registry::find_servant) calls it once per request.
inline std::optional<parsed_object_key> parse_object_key(std::string_view key) noexcept {
  if (key.size() < object_key_header_size || std::memcmp(key.data(), object_key_magic, 4) != 0) return std::nullopt;
  auto byte = [&](std::size_t i) { return static_cast<std::uint32_t>(static_cast<unsigned char>(key[i])); };
  std::uint32_t index = byte(4) | byte(5) << 8 | byte(6) << 16 | byte(7) << 24;
  return parsed_object_key{index, key.substr(object_key_header_size)};
}

std::string make_object_key(std::uint32_t adapter_index, std::string_view servant_part);

}  // namespace switchyard::adapter
