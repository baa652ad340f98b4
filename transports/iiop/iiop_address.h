// Conversions between endpoints and ACE_INET_Addr. Uses ACE: included only by iiop/*.cpp.
#pragma once

#include <string>
#include <vector>

#include <ace/INET_Addr.h>

#include "transports/endpoint.h"

namespace switchyard::transports::iiop {

// Resolves `where` (a name, IPv4 or IPv6 literal; empty host = any IPv4 interface) into every
// address it names, in getaddrinfo() order, each in its own family (never IPv4-mapped IPv6).
// Returns an empty vector, with the reason in `why`, if it does not resolve.
std::vector<ACE_INET_Addr> resolve(const endpoint& where, std::string& why);

// "iiop://127.0.0.1:2809", "iiop://[::1]:2809".
std::string to_endpoint_string(const ACE_INET_Addr& address);
endpoint to_endpoint(const ACE_INET_Addr& address);

}  // namespace switchyard::transports::iiop
