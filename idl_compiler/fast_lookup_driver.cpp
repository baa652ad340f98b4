#include "idl_compiler/fast_lookup_driver.h"

#include <exception>

#include "demux/fast_lookup_source.h"

namespace switchyard::idl {

std::optional<std::string> make_fast_lookup(const std::string& class_name, const std::vector<std::string>& keys,
                                            std::string& error) {
  try {
    return demux::fast_lookup_struct(class_name, keys);
  } catch (const std::exception& e) {
    error = std::string("perfect-fast hash: ") + e.what();
    return std::nullopt;
  }
}

}  // namespace switchyard::idl
