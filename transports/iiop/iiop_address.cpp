#include "transports/iiop/iiop_address.h"

#include <netdb.h>
#include <sys/socket.h>

#include <cerrno>

namespace switchyard::transports::iiop {

bool resolve(const endpoint& where, ACE_INET_Addr& out, std::string& why) {
  int result = 0;
  errno = 0;
  if (where.host.empty()) {
    result = out.set(where.port, static_cast<ACE_UINT32>(INADDR_ANY));
  } else {
    const int family = where.is_ipv6_literal ? AF_INET6 : AF_UNSPEC;
    result = out.set(where.port, where.host.c_str(), 1, family);
  }
  if (result != 0) {
    why = "cannot resolve host '" + where.host + "'";
    return false;
  }
  return true;
}

endpoint to_endpoint(const ACE_INET_Addr& address) {
  endpoint result;
  result.kind = protocol::iiop;
  char text[INET6_ADDRSTRLEN + 16] = {};
  if (address.get_host_addr(text, sizeof text) != nullptr) result.host = text;
  result.port = address.get_port_number();
  result.is_ipv6_literal = address.get_type() == AF_INET6;
  return result;
}

std::string to_endpoint_string(const ACE_INET_Addr& address) {
  return to_endpoint(address).to_string();
}

}  // namespace switchyard::transports::iiop
