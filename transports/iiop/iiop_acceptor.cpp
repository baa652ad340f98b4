#include "transports/iiop/iiop_acceptor.h"

#include <ace/SOCK_Acceptor.h>
#include <sys/socket.h>

#include <cerrno>

#include "transports/iiop/iiop_address.h"
#include "transports/transport_errors.h"

namespace switchyard::transports::iiop {

acceptor::acceptor(const endpoint& where, const transport_options& options) : socket_acceptor(where, options) {
  if (where.kind != protocol::iiop) throw_bad_endpoint(where.to_string(), "not an iiop endpoint");
  std::string why;
  const std::vector<ACE_INET_Addr> addresses = resolve(where, why);
  if (addresses.empty()) throw_bad_endpoint(where.to_string(), why);
  const ACE_INET_Addr& address = addresses.front();  // a name with several addresses: the first

  ACE_SOCK_Acceptor listener;
  if (listener.open(address, 1 /*reuse_addr*/, PF_UNSPEC, options.listen_backlog) != 0)
    throw_errno(SystemExceptionKind::BAD_PARAM, minor::bad_endpoint, CompletionStatus::no,
                "cannot listen on " + where.to_string(), errno);
  adopt_listener(listener.get_handle());
  ACE_INET_Addr bound;
  listener.get_local_addr(bound);
  local_.port = bound.get_port_number();
}

std::unique_ptr<iiop::connection> acceptor::accepted(native_handle socket) {
  ACE_INET_Addr local, peer;
  sockaddr_storage address{};
  socklen_t size = sizeof address;
  // The names are for logs and errors; a socket that cannot say them is still served.
  if (::getsockname(socket, reinterpret_cast<sockaddr*>(&address), &size) == 0)
    local.set(reinterpret_cast<sockaddr_in*>(&address), static_cast<int>(size));
  size = sizeof address;
  if (::getpeername(socket, reinterpret_cast<sockaddr*>(&address), &size) == 0)
    peer.set(reinterpret_cast<sockaddr_in*>(&address), static_cast<int>(size));
  return std::make_unique<iiop::connection>(socket, options_, to_endpoint_string(local), to_endpoint_string(peer));
}

}  // namespace switchyard::transports::iiop
