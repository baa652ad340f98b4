#include "transports/iiop/iiop_acceptor.h"

#include <ace/SOCK_Acceptor.h>
#include <ace/SOCK_Stream.h>
#include <poll.h>
#include <unistd.h>

#include <cerrno>

#include "transports/iiop/iiop_address.h"
#include "transports/transport_errors.h"

namespace switchyard::transports::iiop {

acceptor::acceptor(const endpoint& where, const transport_options& options) : options_(options) {
  if (where.kind != protocol::iiop) throw_bad_endpoint(where.to_string(), "not an iiop endpoint");
  std::string why;
  const std::vector<ACE_INET_Addr> addresses = resolve(where, why);
  if (addresses.empty()) throw_bad_endpoint(where.to_string(), why);
  const ACE_INET_Addr& address = addresses.front();  // a name with several addresses: the first

  ACE_SOCK_Acceptor listener;
  if (listener.open(address, 1 /*reuse_addr*/, PF_UNSPEC, options.listen_backlog) != 0)
    throw_errno(SystemExceptionKind::BAD_PARAM, minor::bad_endpoint, CompletionStatus::no,
                "cannot listen on " + where.to_string(), errno);
  handle_ = listener.get_handle();
  try {
    apply_buffer_sizes(handle_, options, "listening socket");  // accepted sockets inherit them
    set_handle_non_blocking(handle_, true, "listening socket");
    ACE_INET_Addr bound;
    listener.get_local_addr(bound);
    local_ = where;
    local_.port = bound.get_port_number();
  } catch (...) {
    close();
    throw;
  }
}

acceptor::~acceptor() { close(); }

void acceptor::close() noexcept {
  if (handle_ == invalid_handle) return;
  ::close(handle_);
  handle_ = invalid_handle;
}

std::unique_ptr<iiop::connection> acceptor::try_accept_connection() {
  ACE_SOCK_Acceptor listener;
  listener.set_handle(handle_);
  for (;;) {
    ACE_SOCK_Stream stream;
    ACE_INET_Addr peer;
    if (listener.accept(stream, &peer, nullptr, 1 /*restart on EINTR*/, 0) == 0) {
      ACE_INET_Addr local;
      stream.get_local_addr(local);
      std::string local_text = to_endpoint_string(local);
      std::string peer_text = to_endpoint_string(peer);
      return std::make_unique<iiop::connection>(stream.get_handle(), options_,
                                                std::move(local_text), std::move(peer_text));
    }
    const int error = errno;
    // A connection reset before we took it is that client's problem, not the acceptor's.
    if (error == EINTR || error == ECONNABORTED || error == EPROTO) continue;
    if (error == EAGAIN || error == EWOULDBLOCK) return nullptr;
    throw_accept_failure(local_.to_string(), error);
  }
}

std::unique_ptr<iiop::connection> acceptor::accept_connection() {
  for (;;) {
    if (auto accepted = try_accept_connection()) return accepted;
    pollfd ready{handle_, POLLIN, 0};
    if (::poll(&ready, 1, -1) < 0 && errno != EINTR)
      throw_errno(SystemExceptionKind::COMM_FAILURE, minor::recv_failed, CompletionStatus::no,
                  "waiting to accept on " + local_.to_string(), errno);
  }
}

}  // namespace switchyard::transports::iiop
