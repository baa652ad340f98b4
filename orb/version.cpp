#include "switchyard/version.h"

#include "switchyard/config.h"

namespace switchyard {

std::string_view library_version() noexcept { return SWITCHYARD_VERSION; }

}  // namespace switchyard
