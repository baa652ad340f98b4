#include "orb/adapter/object_key.h"

#include <cstring>

namespace switchyard::adapter {

namespace {
constexpr char magic[4] = {'S', 'Y', 1, 0};
}

std::optional<parsed_object_key> parse_object_key(std::string_view key) noexcept {
  if (key.size() < object_key_header_size || std::memcmp(key.data(), magic, 4) != 0) return std::nullopt;
  auto byte = [&](std::size_t i) { return static_cast<std::uint32_t>(static_cast<unsigned char>(key[i])); };
  std::uint32_t index = byte(4) | byte(5) << 8 | byte(6) << 16 | byte(7) << 24;
  return parsed_object_key{index, key.substr(object_key_header_size)};
}

std::string make_object_key(std::uint32_t adapter_index, std::string_view servant_part) {
  std::string key(magic, 4);
  for (int shift = 0; shift < 32; shift += 8) key += static_cast<char>((adapter_index >> shift) & 0xff);
  key += servant_part;
  return key;
}

}  // namespace switchyard::adapter
