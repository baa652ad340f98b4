// Conversions between endpoints and ACE_INET_Addr. Uses ACE: included only by iiop/*.cpp.
#pragma once

#include <string>

#include <ace/INET_Addr.h>

#include "transports/endpoint.h"

namespace switchyard::transports::iiop {

// Resolves `where` (a name, IPv4 or IPv6 literal; empty host = any IPv4 interface) into `out`,
// which may hold several addresses for a name (ACE_INET_Addr::next()). Returns false, with errno
// or h_errno-style detail in `why`, if it does not resolve.
bool resolve(const endpoint& where, ACE_INET_Addr& out, std::string& why);

// "iiop://127.0.0.1:2809", "iiop://[::1]:2809".
std::string to_endpoint_string(const ACE_INET_Addr& address);
endpoint to_endpoint(const ACE_INET_Addr& address);

}  // namespace switchyard::transports::iiop
