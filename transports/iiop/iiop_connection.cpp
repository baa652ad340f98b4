#include "transports/iiop/iiop_connection.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include <cerrno>

#include "transports/transport_errors.h"

namespace switchyard::transports::iiop {

connection::connection(native_handle handle, const transport_options& options, std::string local_address,
                       std::string peer_address)
    : socket_connection(handle, options, std::move(local_address), std::move(peer_address)) {
  const int on = options.tcp_nodelay ? 1 : 0;
  if (::setsockopt(this->handle(), IPPROTO_TCP, TCP_NODELAY, &on, sizeof on) != 0)
    throw_errno(SystemExceptionKind::COMM_FAILURE, minor::send_failed, CompletionStatus::no,
                "setting TCP_NODELAY on " + this->peer_address(), errno);
}

}  // namespace switchyard::transports::iiop
