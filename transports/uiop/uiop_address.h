// Conversions between endpoints and ACE_UNIX_Addr. Uses ACE: included only by uiop/*.cpp.
#pragma once

#include <string>

#include <ace/UNIX_Addr.h>

#include "transports/endpoint.h"

namespace switchyard::transports::uiop {

ACE_UNIX_Addr to_unix_addr(const endpoint& where);
// "uiop:///tmp/sock"; an unnamed socket (the client side, usually) is "uiop://(unnamed)".
std::string to_endpoint_string(const ACE_UNIX_Addr& address);

}  // namespace switchyard::transports::uiop
