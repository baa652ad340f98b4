#include "transports/socket_acceptor.h"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>

#include "transports/transport_errors.h"

namespace switchyard::transports {

native_handle accept_now(native_handle listener, const endpoint& where) {
  for (;;) {
    const native_handle accepted = ::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
    if (accepted >= 0) return accepted;
    const int error = errno;
    // A connection reset before we took it is that client's problem, not the acceptor's.
    if (error == EINTR || error == ECONNABORTED || error == EPROTO) continue;
    if (error == EAGAIN || error == EWOULDBLOCK) return invalid_handle;
    throw_accept_failure(where.to_string(), error);
  }
}

void wait_for_connection(native_handle listener, const endpoint& where) {
  pollfd ready{listener, POLLIN, 0};
  if (::poll(&ready, 1, -1) < 0 && errno != EINTR)
    throw_errno(SystemExceptionKind::COMM_FAILURE, minor::recv_failed, CompletionStatus::no,
                "waiting to accept on " + where.to_string(), errno);
}

void close_handle(native_handle handle) noexcept { ::close(handle); }

}  // namespace switchyard::transports
