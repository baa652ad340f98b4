// The shared body of every socket-based connection (iiop, uiop): the send and receive loops on a
// stream socket handle. The handle is owned here; ACE opened it (ACE_SOCK_Stream or
// ACE_LSOCK_Stream, which are thin wrappers over it), and the hot path makes the system calls on
// it itself (recvfrom, sendto, sendmsg through syscall(2), without glibc's cancellation-point
// wrappers: socket_connection.cpp says why) so that it can pass MSG_NOSIGNAL and account for
// partial writes itself. No ACE.
#pragma once

#include <string>

#include "transports/connection.h"
#include "transports/transport_options.h"

namespace switchyard::transports {

class socket_connection : public connection {
 public:
  ~socket_connection() override;

  void send_gather(std::span<const const_buffer> buffers) final;
  send_result send_gather_until(std::span<const const_buffer> buffers,
                                std::chrono::steady_clock::time_point deadline) noexcept final;
  bool try_recv_exact(void* data, std::size_t size) final;
  std::size_t try_recv_some(void* data, std::size_t capacity) final;
  std::size_t send_now(std::span<const const_buffer> buffers) final;
  std::ptrdiff_t recv_now(void* data, std::size_t capacity) final;
  void set_io_timeouts(std::chrono::milliseconds send, std::chrono::milliseconds receive) final;
  void shut_down() noexcept final;
  void shut_down_receiving() noexcept final;
  void close() noexcept final;
  bool is_open() const noexcept final { return handle_ != invalid_handle; }
  native_handle handle() const noexcept final { return handle_; }
  void set_non_blocking(bool on) final;
  const std::string& local_address() const noexcept final { return local_address_; }
  const std::string& peer_address() const noexcept final { return peer_address_; }

 protected:
  // Takes ownership of `handle` (a connected stream socket), puts it in blocking mode and applies
  // the buffer sizes of `options`.
  socket_connection(native_handle handle, const transport_options& options, std::string local_address,
                    std::string peer_address);

 private:
  // send_gather_until past its first write: from `already_sent` octets on, to the end.
  send_result send_rest(std::span<const const_buffer> buffers, std::chrono::steady_clock::time_point deadline,
                        std::size_t already_sent) noexcept;

  native_handle handle_;
  bool non_blocking_ = false;
  std::string local_address_;
  std::string peer_address_;
};

// Helpers shared by the connections and acceptors of every socket transport. Both throw
// COMM_FAILURE naming `what` on failure.
void apply_buffer_sizes(native_handle handle, const transport_options& options, const char* what);
void set_handle_non_blocking(native_handle handle, bool on, const char* what);

}  // namespace switchyard::transports
