#include "orb/adapter/object_key.h"

#include <cstring>

namespace switchyard::adapter {

std::string make_object_key(std::uint32_t adapter_index, std::string_view servant_part) {
  std::string key(object_key_magic, 4);
  for (int shift = 0; shift < 32; shift += 8) key += static_cast<char>((adapter_index >> shift) & 0xff);
  key += servant_part;
  return key;
}

}  // namespace switchyard::adapter
