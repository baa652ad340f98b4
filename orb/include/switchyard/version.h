// The library's version, as built.
#pragma once

#include <string_view>

namespace switchyard {

// The version of the library this program runs against (may differ from SWITCHYARD_VERSION,
// the one it was compiled against, when linked to a shared libswitchyard).
std::string_view library_version() noexcept;

}  // namespace switchyard
