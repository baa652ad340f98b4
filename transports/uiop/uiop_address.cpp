#include "transports/uiop/uiop_address.h"

namespace switchyard::transports::uiop {

ACE_UNIX_Addr to_unix_addr(const endpoint& where) { return ACE_UNIX_Addr(where.path.c_str()); }

std::string to_endpoint_string(const ACE_UNIX_Addr& address) {
  const char* path = address.get_path_name();
  std::string out = "uiop://";
  out += (path != nullptr && path[0] != '\0') ? path : "(unnamed)";
  return out;
}

}  // namespace switchyard::transports::uiop
