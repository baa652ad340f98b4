#include "transports/uiop/uiop_acceptor.h"

#include <ace/LSOCK_Acceptor.h>
#include <ace/LSOCK_Connector.h>
#include <ace/LSOCK_Stream.h>
#include <ace/Time_Value.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "transports/transport_errors.h"
#include "transports/uiop/uiop_address.h"

namespace switchyard::transports::uiop {

namespace {

// A socket file nobody listens on is left behind by a server that died; remove it. A live one,
// or a file that is not a socket, stays, and opening fails.
void remove_stale_socket(const endpoint& where) {
  struct stat info {};
  if (::lstat(where.path.c_str(), &info) != 0) return;  // nothing there (or not reachable: bind says)
  if (!S_ISSOCK(info.st_mode))
    throw_bad_endpoint(where.to_string(), "path exists and is not a socket");
  // Only a refused connection proves nobody listens: a busy server's full backlog must not look
  // stale, so any other failure is reported rather than guessed at.
  ACE_LSOCK_Stream probe;
  ACE_LSOCK_Connector connector;
  ACE_Time_Value patience(0, 200 * 1000);
  if (connector.connect(probe, to_unix_addr(where), &patience) == 0) {
    probe.close();
    throw_bad_endpoint(where.to_string(), "another server is listening on this path");
  }
  const int error = errno;
  probe.close();
  if (error != ECONNREFUSED && error != ENOENT)
    throw_errno(SystemExceptionKind::BAD_PARAM, minor::bad_endpoint, CompletionStatus::no,
                "cannot tell whether " + where.to_string() + " is in use", error);
  ::unlink(where.path.c_str());
}

}  // namespace

acceptor::acceptor(const endpoint& where, const transport_options& options)
    : local_(where), options_(options) {
  if (where.kind != protocol::uiop) throw_bad_endpoint(where.to_string(), "not a uiop endpoint");
  remove_stale_socket(where);
  ACE_LSOCK_Acceptor listener;
  if (listener.open(to_unix_addr(where), 0, PF_UNIX, options.listen_backlog) != 0)
    throw_errno(SystemExceptionKind::BAD_PARAM, minor::bad_endpoint, CompletionStatus::no,
                "cannot listen on " + where.to_string(), errno);
  handle_ = listener.get_handle();
  try {
    struct stat info {};
    if (::stat(where.path.c_str(), &info) == 0) {
      file_device_ = info.st_dev;
      file_inode_ = info.st_ino;
    }
    apply_buffer_sizes(handle_, options, "listening socket");
    set_handle_non_blocking(handle_, true, "listening socket");
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
  struct stat info {};
  if (::lstat(local_.path.c_str(), &info) == 0 && info.st_dev == file_device_ &&
      info.st_ino == file_inode_)
    ::unlink(local_.path.c_str());
}

std::unique_ptr<uiop::connection> acceptor::try_accept_connection() {
  ACE_LSOCK_Acceptor listener;
  listener.set_handle(handle_);
  for (;;) {
    ACE_LSOCK_Stream stream;
    if (listener.accept(stream, nullptr, nullptr, 1 /*restart on EINTR*/, 0) == 0) {
      std::string local_text = local_.to_string();
      std::string peer_text = "uiop://(unnamed)";
      return std::make_unique<uiop::connection>(stream.get_handle(), options_,
                                                std::move(local_text), std::move(peer_text));
    }
    const int error = errno;
    if (error == EINTR || error == ECONNABORTED || error == EPROTO) continue;
    if (error == EAGAIN || error == EWOULDBLOCK) return nullptr;
    throw_accept_failure(local_.to_string(), error);
  }
}

std::unique_ptr<uiop::connection> acceptor::accept_connection() {
  for (;;) {
    if (auto accepted = try_accept_connection()) return accepted;
    pollfd ready{handle_, POLLIN, 0};
    if (::poll(&ready, 1, -1) < 0 && errno != EINTR)
      throw_errno(SystemExceptionKind::COMM_FAILURE, minor::recv_failed, CompletionStatus::no,
                  "waiting to accept on " + local_.to_string(), errno);
  }
}

}  // namespace switchyard::transports::uiop
