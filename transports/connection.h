// The transport interface the ORB core uses for one byte stream: gather-send, receive into the
// caller's memory, close, the OS handle for a reactor, addresses. Internal header of transports/
// for the core; no ACE. One virtual call per system call, never per byte: code that knows its
// transport names the concrete class (iiop::connection, final) and the calls devirtualize.
//
// Thread rules: one thread may send while another receives; two concurrent senders (or two
// concurrent receivers) on one connection must be serialized by the caller.
#pragma once

#include <chrono>
#include <cstddef>
#include <span>
#include <string>

#include "switchyard/security.h"
#include "transports/endpoint.h"

namespace switchyard::transports {

using native_handle = int;  // ACE_HANDLE on POSIX
inline constexpr native_handle invalid_handle = -1;

// One piece of a gather-send (the same two words as struct iovec).
struct const_buffer {
  const void* data;
  std::size_t size;
};

// Who is at the other end of a TLS connection (switchyard/security.h: a plain struct).
using switchyard::peer_identity;

// How far a send_gather_until got: whole when `error` is 0.
struct send_result {
  std::size_t sent = 0;  // octets the kernel took, whatever happened after
  // ETIMEDOUT: the deadline passed before the last octet went out; else the errno that stopped
  // the send (the connection is then broken).
  int error = 0;
};

class connection {
 public:
  virtual ~connection();
  connection(const connection&) = delete;
  connection& operator=(const connection&) = delete;

  // Sends every byte of every buffer, in order, looping over partial writes, EINTR and EAGAIN.
  // Throws COMM_FAILURE (minor::send_failed). Never raises SIGPIPE.
  virtual void send_gather(std::span<const const_buffer> buffers) = 0;
  void send(const void* data, std::size_t size) {
    const const_buffer one{data, size};
    send_gather({&one, 1});
  }
  // The client's send: as send_gather, but it waits for room in a full send buffer only until
  // `deadline` (time_point::max(): as long as it takes) and never throws: the result says how
  // many octets went out and why it stopped, which the caller needs to know whether the peer may
  // have the message. Whatever fits goes out at once: no extra system call for a deadline.
  virtual send_result send_gather_until(std::span<const const_buffer> buffers,
                                        std::chrono::steady_clock::time_point deadline) noexcept = 0;

  // Reads exactly `size` bytes into `data`. Returns false if the peer closed the connection
  // cleanly before the first byte (a clean end between messages); throws COMM_FAILURE
  // minor::connection_closed if it closed after some bytes, minor::recv_failed on errors.
  virtual bool try_recv_exact(void* data, std::size_t size) = 0;
  // Reads at least one byte and at most `capacity` (waits for the first). Returns 0 when the peer
  // has closed cleanly (or capacity is 0); throws COMM_FAILURE minor::recv_failed on errors.
  virtual std::size_t try_recv_some(void* data, std::size_t capacity) = 0;

  // As above, but a close by the peer throws COMM_FAILURE minor::connection_closed.
  void recv_exact(void* data, std::size_t size) {
    if (!try_recv_exact(data, size)) throw_closed_by_peer();
  }
  std::size_t recv_some(void* data, std::size_t capacity) {
    const std::size_t got = try_recv_some(data, capacity);
    if (got == 0 && capacity != 0) throw_closed_by_peer();
    return got;
  }

  // Without waiting (the server's event loops): what the socket takes now, possibly 0 (it is
  // full). Throws COMM_FAILURE minor::send_failed on errors (a peer gone: EPIPE, ECONNRESET).
  virtual std::size_t send_now(std::span<const const_buffer> buffers) = 0;
  // Without waiting: bytes read (> 0), 0 when the peer has closed cleanly, would_block when
  // nothing is there now (or, on a blocking socket, when the receive timeout passed). Throws
  // COMM_FAILURE minor::recv_failed on errors.
  static constexpr std::ptrdiff_t would_block = -1;
  virtual std::ptrdiff_t recv_now(void* data, std::size_t capacity) = 0;

  // Bounds each blocking send and receive (SO_SNDTIMEO, SO_RCVTIMEO; zero: no bound). A send
  // that makes no progress for `send` throws COMM_FAILURE minor::send_timed_out; a receive that
  // gets nothing for `receive` returns would_block from recv_now.
  virtual void set_io_timeouts(std::chrono::milliseconds send, std::chrono::milliseconds receive) = 0;

  // Closes the socket (idempotent). Remove the handle from any event loop first.
  virtual void close() noexcept = 0;
  virtual bool is_open() const noexcept = 0;
  // The OS handle, for registration with an event loop; invalid_handle once closed.
  virtual native_handle handle() const noexcept = 0;

  // Switches the socket between blocking and non-blocking mode. The calls above behave the same
  // in both: in non-blocking mode they wait with poll() where they would have blocked.
  virtual void set_non_blocking(bool on) = 0;
  // Ends both directions now without releasing the descriptor (shutdown(2)): a thread blocked in
  // a receive or send on it returns. Any thread; the descriptor stays the connection's.
  virtual void shut_down() noexcept = 0;
  // Ends receiving only (shutdown(2) SHUT_RD): a blocked receive returns as if the peer had
  // closed, and the connection can still send (a goodbye).
  virtual void shut_down_receiving() noexcept = 0;

  // Endpoint-style strings for logs and errors: "iiop://127.0.0.1:40112", "uiop:///tmp/s".
  virtual const std::string& local_address() const noexcept = 0;
  virtual const std::string& peer_address() const noexcept = 0;
  virtual protocol kind() const noexcept = 0;

  // TLS (ssliop) only; plain connections keep these defaults.
  // Octets read from the socket but not yet returned by a receive: the socket may not be readable
  // while they wait, so an event loop must read again without waiting for it.
  virtual bool has_buffered_input() const noexcept { return false; }
  // The last receive found nothing because it must first write (the peer does not take our
  // octets): wait for writable, not readable, before receiving again.
  virtual bool read_waits_for_output() const noexcept { return false; }
  // False until the handshake has finished (a server bounds how long that may take).
  virtual bool handshake_done() const noexcept { return true; }
  // The peer's verified certificate, once the handshake is done; nullptr when it sent none.
  virtual const peer_identity* verified_peer() const noexcept { return nullptr; }

 protected:
  connection() = default;

  // try_recv_exact over a connection's own try_recv_some (`some`, called directly so that a
  // final class's calls devirtualize): false at a clean end before the first byte, COMM_FAILURE
  // minor::connection_closed at an end after some.
  template <class Some>
  bool receive_exact(void* data, std::size_t size, Some&& some) {
    auto* at = static_cast<char*>(data);
    std::size_t done = 0;
    while (done < size) {
      const std::size_t got = some(at + done, size - done);
      if (got == 0) {
        if (done == 0) return false;
        throw_closed_part_way(done, size);
      }
      done += got;
    }
    return true;
  }

 private:
  [[noreturn]] void throw_closed_by_peer() const;
  [[noreturn]] void throw_closed_part_way(std::size_t done, std::size_t size) const;
};

}  // namespace switchyard::transports
