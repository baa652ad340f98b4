#include "transports/uiop/uiop_acceptor.h"

#include <ace/LSOCK_Acceptor.h>
#include <ace/LSOCK_Connector.h>
#include <ace/LSOCK_Stream.h>
#include <ace/Time_Value.h>
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
  if (!S_ISSOCK(info.st_mode)) throw_bad_endpoint(where.to_string(), "path exists and is not a socket");
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

acceptor::acceptor(const endpoint& where, const transport_options& options) : socket_acceptor(where, options) {
  if (where.kind != protocol::uiop) throw_bad_endpoint(where.to_string(), "not a uiop endpoint");
  remove_stale_socket(where);
  ACE_LSOCK_Acceptor listener;
  if (listener.open(to_unix_addr(where), 0, PF_UNIX, options.listen_backlog) != 0)
    throw_errno(SystemExceptionKind::BAD_PARAM, minor::bad_endpoint, CompletionStatus::no,
                "cannot listen on " + where.to_string(), errno);
  struct stat info {};
  if (::stat(where.path.c_str(), &info) == 0) {
    file_device_ = info.st_dev;
    file_inode_ = info.st_ino;
  }
  adopt_listener(listener.get_handle());
}

void acceptor::on_close() noexcept {
  struct stat info {};
  if (::lstat(local_.path.c_str(), &info) == 0 && info.st_dev == file_device_ && info.st_ino == file_inode_)
    ::unlink(local_.path.c_str());
}

std::unique_ptr<uiop::connection> acceptor::accepted(native_handle socket) {
  return std::make_unique<uiop::connection>(socket, options_, local_.to_string(), "uiop://(unnamed)");
}

}  // namespace switchyard::transports::uiop
