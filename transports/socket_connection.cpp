#include "transports/socket_connection.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <string>

#include "transports/transport_errors.h"

namespace switchyard::transports {

namespace {

// Waits until `handle` is ready for `events` (used only when a non-blocking call said EAGAIN).
void wait_ready(native_handle handle, short events) {
  pollfd ready{handle, events, 0};
  while (::poll(&ready, 1, -1) < 0 && errno == EINTR) {
  }
}

bool is_would_block(int error) noexcept { return error == EAGAIN || error == EWOULDBLOCK; }

// Waits until `handle` can take more octets: false once `deadline` has passed first. An error on
// the socket counts as ready: the next send reports it.
bool wait_writable_until(native_handle handle, std::chrono::steady_clock::time_point deadline) noexcept {
  for (;;) {
    const auto left = deadline - std::chrono::steady_clock::now();
    if (left <= std::chrono::steady_clock::duration::zero()) return false;
    // Rounded up: poll() counts milliseconds, and waking before the deadline would only spin.
    const auto ms = std::chrono::ceil<std::chrono::milliseconds>(left).count();
    pollfd ready{handle, POLLOUT, 0};
    const int n = ::poll(&ready, 1, static_cast<int>(std::min<long long>(ms, 1 << 30)));
    if (n > 0 || (n < 0 && errno != EINTR)) return true;
  }
}

}  // namespace

void apply_buffer_sizes(native_handle handle, const transport_options& options, const char* what) {
  if (options.send_buffer_size > 0 &&
      ::setsockopt(handle, SOL_SOCKET, SO_SNDBUF, &options.send_buffer_size, sizeof(int)) != 0)
    throw_errno(SystemExceptionKind::COMM_FAILURE, minor::send_failed, CompletionStatus::no,
                std::string("setting SO_SNDBUF on ") + what, errno);
  if (options.recv_buffer_size > 0 &&
      ::setsockopt(handle, SOL_SOCKET, SO_RCVBUF, &options.recv_buffer_size, sizeof(int)) != 0)
    throw_errno(SystemExceptionKind::COMM_FAILURE, minor::recv_failed, CompletionStatus::no,
                std::string("setting SO_RCVBUF on ") + what, errno);
}

// recv() and sendmsg() without glibc's cancellation-point wrappers: no thread of ours is ever
// cancelled, and the wrappers' two extra calls per system call are a fifth of the user-space
// instructions of a null request's I/O (callgrind; docs/design.md, "The request path"). Same
// results and errno.
ssize_t recv_uncancellable(native_handle handle, void* data, std::size_t capacity) noexcept {
  return ::syscall(SYS_recvfrom, handle, data, capacity, 0, nullptr, nullptr);
}
ssize_t send_uncancellable(native_handle handle, const void* data, std::size_t size) noexcept {
  return ::syscall(SYS_sendto, handle, data, size, MSG_NOSIGNAL, nullptr, 0);
}
ssize_t sendmsg_uncancellable(native_handle handle, const msghdr* message, int flags) noexcept {
  return ::syscall(SYS_sendmsg, handle, message, flags);
}
ssize_t send_with_flags_uncancellable(native_handle handle, const void* data, std::size_t size, int flags) noexcept {
  return ::syscall(SYS_sendto, handle, data, size, flags, nullptr, 0);
}

void set_handle_non_blocking(native_handle handle, bool on, const char* what) {
  const int flags = ::fcntl(handle, F_GETFL, 0);
  const int wanted = on ? (flags | O_NONBLOCK) : (flags & ~O_NONBLOCK);
  if (flags < 0 || (wanted != flags && ::fcntl(handle, F_SETFL, wanted) < 0))
    throw_errno(SystemExceptionKind::COMM_FAILURE, minor::recv_failed, CompletionStatus::no,
                std::string("setting O_NONBLOCK on ") + what, errno);
}

socket_connection::socket_connection(native_handle handle, const transport_options& options, std::string local_address,
                                     std::string peer_address)
    : handle_(handle), local_address_(std::move(local_address)), peer_address_(std::move(peer_address)) {
  // Owned from here on; a throwing constructor runs no destructor, so close it here on failure.
  try {
    set_handle_non_blocking(handle_, false, peer_address_.c_str());
    non_blocking_ = false;
    apply_buffer_sizes(handle_, options, peer_address_.c_str());
  } catch (...) {
    close();
    throw;
  }
}

socket_connection::~socket_connection() { close(); }

void socket_connection::close() noexcept {
  if (handle_ == invalid_handle) return;
  ::close(handle_);  // never retried on EINTR: Linux has released the descriptor either way
  handle_ = invalid_handle;
}

void socket_connection::set_non_blocking(bool on) {
  set_handle_non_blocking(handle_, on, peer_address_.c_str());
  non_blocking_ = on;
}

void socket_connection::shut_down() noexcept {
  if (handle_ != invalid_handle) ::shutdown(handle_, SHUT_RDWR);
}

void socket_connection::shut_down_receiving() noexcept {
  if (handle_ != invalid_handle) ::shutdown(handle_, SHUT_RD);
}

void socket_connection::set_io_timeouts(std::chrono::milliseconds send, std::chrono::milliseconds receive) {
  auto as_timeval = [](std::chrono::milliseconds ms) {
    timeval value{};
    value.tv_sec = static_cast<time_t>(ms.count() / 1000);
    value.tv_usec = static_cast<suseconds_t>((ms.count() % 1000) * 1000);
    return value;
  };
  const timeval send_limit = as_timeval(send);
  const timeval receive_limit = as_timeval(receive);
  if (::setsockopt(handle_, SOL_SOCKET, SO_SNDTIMEO, &send_limit, sizeof send_limit) != 0 ||
      ::setsockopt(handle_, SOL_SOCKET, SO_RCVTIMEO, &receive_limit, sizeof receive_limit) != 0)
    throw_errno(SystemExceptionKind::COMM_FAILURE, minor::recv_failed, CompletionStatus::no,
                "setting the send and receive timeouts of " + peer_address_, errno);
}

std::size_t socket_connection::send_now(std::span<const const_buffer> buffers) {
  constexpr std::size_t batch = 64;
  iovec pieces[batch];
  std::size_t used = 0;
  for (const auto& buffer : buffers) {
    if (buffer.size == 0) continue;
    if (used == batch) break;
    pieces[used++] = {const_cast<void*>(buffer.data), buffer.size};
  }
  if (used == 0) return 0;
  msghdr message{};
  message.msg_iov = pieces;
  message.msg_iovlen = used;
  for (;;) {
    const ssize_t sent = sendmsg_uncancellable(handle_, &message, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (sent >= 0) return static_cast<std::size_t>(sent);
    const int error = errno;
    if (error == EINTR) continue;
    if (is_would_block(error)) return 0;
    throw_errno(SystemExceptionKind::COMM_FAILURE, minor::send_failed, CompletionStatus::maybe,
                "send to " + peer_address_, error);
  }
}

std::ptrdiff_t socket_connection::recv_now(void* data, std::size_t capacity) {
  for (;;) {
    const ssize_t got = recv_uncancellable(handle_, data, capacity);
    if (got >= 0) return got;
    const int error = errno;
    if (error == EINTR) continue;
    if (is_would_block(error)) return connection::would_block;
    throw_errno(SystemExceptionKind::COMM_FAILURE, minor::recv_failed, CompletionStatus::maybe,
                "receive from " + peer_address_, error);
  }
}

void socket_connection::send_gather(std::span<const const_buffer> buffers) {
  // One buffer (a whole small message) that goes out at once: the usual case, one call. A short
  // or failed send goes on in the general loop below, from where it stopped.
  std::size_t offset = 0;  // bytes of buffers[next] already sent
  if (buffers.size() == 1 && buffers[0].size != 0) {
    const ssize_t sent = send_uncancellable(handle_, buffers[0].data, buffers[0].size);
    if (sent == static_cast<ssize_t>(buffers[0].size)) return;
    if (sent > 0) offset = static_cast<std::size_t>(sent);
  }
  // At most this many iovecs per sendmsg(); more buffers are sent in further rounds.
  constexpr std::size_t batch = 64;
  iovec pieces[batch];
  std::size_t next = 0;  // first buffer not yet fully sent
  const std::size_t count = buffers.size();
  while (next < count && buffers[next].size == 0) ++next;
  while (next < count) {
    std::size_t used = 0;
    std::size_t skip = offset;
    for (std::size_t i = next; i < count && used < batch; ++i) {
      if (buffers[i].size > skip) {
        pieces[used].iov_base = const_cast<char*>(static_cast<const char*>(buffers[i].data) + skip);
        pieces[used].iov_len = buffers[i].size - skip;
        ++used;
      }
      skip = 0;
    }
    msghdr message{};
    message.msg_iov = pieces;
    message.msg_iovlen = used;
    const ssize_t sent = sendmsg_uncancellable(handle_, &message, MSG_NOSIGNAL);
    if (sent < 0) {
      const int error = errno;
      if (error == EINTR) continue;
      if (is_would_block(error)) {
        // A blocking socket says EAGAIN only when its send timeout passed without progress.
        if (!non_blocking_)
          throw SystemException(SystemExceptionKind::COMM_FAILURE, minor::send_timed_out, CompletionStatus::maybe,
                                "send to " + peer_address_ + " made no progress within the send timeout");
        wait_ready(handle_, POLLOUT);
        continue;
      }
      if (handle_ == invalid_handle)
        throw SystemException(SystemExceptionKind::COMM_FAILURE, minor::send_failed, CompletionStatus::maybe,
                              "send on a closed connection");
      throw_errno(SystemExceptionKind::COMM_FAILURE, minor::send_failed, CompletionStatus::maybe,
                  "send to " + peer_address_, error);
    }
    // Step over what went out: whole buffers, then part of one.
    auto left = static_cast<std::size_t>(sent);
    while (next < count && left >= buffers[next].size - offset) {
      left -= buffers[next].size - offset;
      ++next;
      offset = 0;
    }
    offset += left;
  }
}

send_result socket_connection::send_gather_until(std::span<const const_buffer> buffers,
                                                 std::chrono::steady_clock::time_point deadline) noexcept {
  // With a deadline every send is non-blocking (MSG_DONTWAIT, the socket's mode untouched): what
  // fits goes out at once, and only a full send buffer is waited on, with poll() until the
  // deadline. Without one the send blocks as send_gather's does.
  // One buffer that goes out at once: the usual case, one call, nothing else.
  if (buffers.size() == 1 && buffers[0].size != 0) [[likely]] {
    const int flags =
        deadline == std::chrono::steady_clock::time_point::max() ? MSG_NOSIGNAL : (MSG_NOSIGNAL | MSG_DONTWAIT);
    const ssize_t sent = send_with_flags_uncancellable(handle_, buffers[0].data, buffers[0].size, flags);
    if (sent == static_cast<ssize_t>(buffers[0].size)) [[likely]]
      return {buffers[0].size, 0};
    return send_rest(buffers, deadline, sent > 0 ? static_cast<std::size_t>(sent) : 0);
  }
  return send_rest(buffers, deadline, 0);
}

send_result socket_connection::send_rest(std::span<const const_buffer> buffers,
                                         std::chrono::steady_clock::time_point deadline,
                                         std::size_t already_sent) noexcept {
  const bool bounded = deadline != std::chrono::steady_clock::time_point::max();
  const int flags = bounded ? (MSG_NOSIGNAL | MSG_DONTWAIT) : MSG_NOSIGNAL;
  send_result result{already_sent, 0};
  // At most this many iovecs per sendmsg(); more buffers are sent in further rounds.
  constexpr std::size_t batch = 64;
  iovec pieces[batch];
  const std::size_t count = buffers.size();
  std::size_t next = 0;               // first buffer not yet fully sent
  std::size_t offset = already_sent;  // bytes of buffers[next] already sent
  while (next < count && offset >= buffers[next].size) offset -= buffers[next++].size;
  while (next < count) {
    std::size_t used = 0;
    std::size_t skip = offset;
    for (std::size_t i = next; i < count && used < batch; ++i) {
      if (buffers[i].size > skip) {
        pieces[used].iov_base = const_cast<char*>(static_cast<const char*>(buffers[i].data) + skip);
        pieces[used].iov_len = buffers[i].size - skip;
        ++used;
      }
      skip = 0;
    }
    msghdr message{};
    message.msg_iov = pieces;
    message.msg_iovlen = used;
    const ssize_t sent = sendmsg_uncancellable(handle_, &message, flags);
    if (sent < 0) {
      const int error = errno;
      if (error == EINTR) continue;
      if (is_would_block(error)) {
        if (!bounded) {
          wait_ready(handle_, POLLOUT);
          continue;
        }
        if (wait_writable_until(handle_, deadline)) continue;
        result.error = ETIMEDOUT;
        return result;
      }
      result.error = error;
      return result;
    }
    result.sent += static_cast<std::size_t>(sent);
    // Step over what went out: whole buffers, then part of one.
    auto left = static_cast<std::size_t>(sent);
    while (next < count && left >= buffers[next].size - offset) {
      left -= buffers[next].size - offset;
      ++next;
      offset = 0;
    }
    offset += left;
  }
  return result;
}

std::size_t socket_connection::try_recv_some(void* data, std::size_t capacity) {
  if (capacity == 0) return 0;
  for (;;) {
    const ssize_t got = recv_uncancellable(handle_, data, capacity);
    if (got >= 0) return static_cast<std::size_t>(got);
    const int error = errno;
    if (error == EINTR) continue;
    if (is_would_block(error)) {
      wait_ready(handle_, POLLIN);
      continue;
    }
    if (handle_ == invalid_handle)
      throw SystemException(SystemExceptionKind::COMM_FAILURE, minor::recv_failed, CompletionStatus::maybe,
                            "receive on a closed connection");
    throw_errno(SystemExceptionKind::COMM_FAILURE, minor::recv_failed, CompletionStatus::maybe,
                "receive from " + peer_address_, error);
  }
}

bool socket_connection::try_recv_exact(void* data, std::size_t size) {
  return receive_exact(data, size, [this](void* at, std::size_t left) { return try_recv_some(at, left); });
}

}  // namespace switchyard::transports
