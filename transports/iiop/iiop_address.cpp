#include "transports/iiop/iiop_address.h"

#include <netdb.h>
#include <sys/socket.h>

#include <cstring>

namespace switchyard::transports::iiop {

std::vector<ACE_INET_Addr> resolve(const endpoint& where, std::string& why) {
  std::vector<ACE_INET_Addr> found;
  if (where.host.empty()) {
    found.emplace_back(where.port, static_cast<ACE_UINT32>(INADDR_ANY));
    return found;
  }
  // getaddrinfo() rather than ACE_INET_Addr::set(port, name): this ACE is built with
  // ACE_USES_IPV4_IPV6_MIGRATION and would turn IPv4 addresses into IPv4-mapped IPv6 ones.
  addrinfo hints{};
  hints.ai_family = where.is_ipv6_literal ? AF_INET6 : AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = where.is_ipv6_literal ? AI_NUMERICHOST : 0;
  addrinfo* results = nullptr;
  const std::string port = std::to_string(where.port);
  const int status = ::getaddrinfo(where.host.c_str(), port.c_str(), &hints, &results);
  if (status != 0) {
    why = "cannot resolve host '" + where.host + "': " + ::gai_strerror(status);
    return found;
  }
  for (const addrinfo* at = results; at != nullptr; at = at->ai_next) {
    if (at->ai_family != AF_INET && at->ai_family != AF_INET6) continue;
    ACE_INET_Addr address;
    if (address.set(reinterpret_cast<const sockaddr_in*>(at->ai_addr), static_cast<int>(at->ai_addrlen)) == 0)
      found.push_back(address);
  }
  ::freeaddrinfo(results);
  if (found.empty()) why = "host '" + where.host + "' has no IPv4 or IPv6 address";
  return found;
}

endpoint to_endpoint(const ACE_INET_Addr& address) {
  endpoint result;
  result.kind = protocol::iiop;
  char text[INET6_ADDRSTRLEN + 16] = {};
  if (address.get_host_addr(text, sizeof text) != nullptr) result.host = text;
  result.port = address.get_port_number();
  result.is_ipv6_literal = address.get_type() == AF_INET6;
  // A dual-stack IPv6 socket reports IPv4 peers as ::ffff:a.b.c.d; show them as IPv4.
  constexpr std::string_view mapped = "::ffff:";
  if (result.is_ipv6_literal && result.host.size() > mapped.size() &&
      std::string_view(result.host).substr(0, mapped.size()) == mapped && result.host.find('.') != std::string::npos) {
    result.host.erase(0, mapped.size());
    result.is_ipv6_literal = false;
  }
  return result;
}

std::string to_endpoint_string(const ACE_INET_Addr& address) { return to_endpoint(address).to_string(); }

}  // namespace switchyard::transports::iiop
