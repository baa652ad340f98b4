// An ssliop connection: GIOP over TLS (OpenSSL 3) on a TCP connection. The TCP socket is always
// non-blocking underneath; the blocking calls wait with poll() outside any lock, so a handshake
// never holds a thread of the event loop and one thread may send while another receives (OpenSSL
// needs every call on one SSL object serialized: a mutex, never held across a wait).
//
// Server side: the handshake runs inside the first receives (SSL_accept's work done by
// SSL_read), so an event loop drives it like any other input; handshake_done() tells the server's
// deadline check when it has finished. Client side: connect() runs the handshake to the end, or
// throws, before the connection is used.
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "transports/connection.h"
#include "transports/iiop/iiop_connection.h"

struct ssl_st;      // OpenSSL's SSL
struct ssl_ctx_st;  // OpenSSL's SSL_CTX

namespace switchyard::transports::ssliop {

class connection final : public transports::connection {
  using clock_point = std::chrono::steady_clock::time_point;

 public:
  enum class side : std::uint8_t { client, server };
  // Takes the TCP connection over. Throws COMM_FAILURE if OpenSSL cannot make its state.
  connection(std::unique_ptr<iiop::connection> tcp, ssl_ctx_st* context, side which);
  ~connection() override;

  // Client: the whole handshake, verifying the server's certificate for `host` (a name or an IP
  // address) when `verify` is set. Throws NO_PERMISSION minor::peer_not_verified when the
  // certificate does not verify, TRANSIENT minor::tls_handshake_failed for any other failure or
  // when `deadline` passes first.
  void handshake_as_client(const std::string& host, bool verify, std::chrono::steady_clock::time_point deadline);

  void send_gather(std::span<const const_buffer> buffers) override;
  send_result send_gather_until(std::span<const const_buffer> buffers,
                                std::chrono::steady_clock::time_point deadline) noexcept override;
  bool try_recv_exact(void* data, std::size_t size) override;
  std::size_t try_recv_some(void* data, std::size_t capacity) override;
  std::size_t send_now(std::span<const const_buffer> buffers) override;
  std::ptrdiff_t recv_now(void* data, std::size_t capacity) override;
  void set_io_timeouts(std::chrono::milliseconds send, std::chrono::milliseconds receive) override;
  void close() noexcept override;
  bool is_open() const noexcept override { return tcp_->is_open(); }
  native_handle handle() const noexcept override { return tcp_->handle(); }
  void set_non_blocking(bool on) override { blocking_ = !on; }
  void shut_down() noexcept override { tcp_->shut_down(); }
  void shut_down_receiving() noexcept override { tcp_->shut_down_receiving(); }
  const std::string& local_address() const noexcept override { return local_address_; }
  const std::string& peer_address() const noexcept override { return peer_address_; }
  protocol kind() const noexcept override { return protocol::ssliop; }

  bool has_buffered_input() const noexcept override;
  bool read_waits_for_output() const noexcept override { return read_wants_write_.load(std::memory_order_relaxed); }
  bool handshake_done() const noexcept override { return handshake_done_.load(std::memory_order_acquire); }
  const peer_identity* verified_peer() const noexcept override {
    return handshake_done() && has_peer_ ? &peer_ : nullptr;
  }

  // What our socket BIO works with (its data), under mutex_: the socket (-1 once cut off), and
  // whether the record being written is followed by more of the same message (sent with MSG_MORE).
  struct bio_state {
    int handle = -1;
    bool more = false;
  };

 private:
  // How one OpenSSL call ended: octets (> 0), or what to wait for, or the end.
  enum class outcome : std::uint8_t { done, want_read, want_write, closed, failed };
  struct step {
    outcome what;
    std::size_t octets = 0;
    std::string error;  // for failed
  };
  // recv_now and try_recv_some: waits (when `waits`) until `deadline`; would_block after it.
  std::ptrdiff_t receive(void* data, std::size_t capacity, bool waits, clock_point deadline);
  step read_step(void* data, std::size_t capacity);
  // One record of at most max_record octets; `after`: octets of the message after these `size`.
  step write_step(const void* data, std::size_t size, std::size_t after);
  static constexpr std::size_t max_record = 16384;  // TLS's largest plaintext record
  step classify(int result, const char* doing);     // under mutex_
  // OpenSSL's message callback: counts the peer's handshake messages after the handshake.
  static void on_tls_message(int write_p, int version, int content_type, const void* data, std::size_t size,
                             ssl_st* ssl, void* self);
  void notice_handshake() noexcept;     // under mutex_: the first time it has finished,
  void note_handshake_done() noexcept;  // the peer's identity is taken
  // Waits for the socket until `deadline`; false when it passed first.
  bool wait_for(outcome what, std::chrono::steady_clock::time_point deadline) const noexcept;
  // Sends everything, waiting up to `deadline` for room: how far it got.
  send_result send_all(std::span<const const_buffer> buffers, std::chrono::steady_clock::time_point deadline,
                       std::string& error) noexcept;
  [[noreturn]] void throw_receive_failure(const std::string& error) const;

  std::unique_ptr<iiop::connection> tcp_;
  ssl_st* ssl_ = nullptr;
  mutable std::mutex mutex_;  // every call on ssl_
  bio_state bio_state_;
  std::atomic<bool> blocking_{true};
  std::chrono::milliseconds send_timeout_{0};
  std::chrono::milliseconds receive_timeout_{0};
  std::atomic<bool> handshake_done_{false};
  std::atomic<bool> read_wants_write_{false};  // the last read_step stopped on SSL_ERROR_WANT_WRITE
  clock_point storm_window_{};                 // under mutex_: the second post_handshake_messages_ counts in
  int post_handshake_messages_ = 0;            // under mutex_
  // Under mutex_: the end (close_notify, an alert) read ahead with the last octets returned; the
  // next read_step reports it, and until then it counts as buffered input (the socket may never
  // be readable again).
  std::optional<step> end_read_ahead_;
  bool has_peer_ = false;
  peer_identity peer_;  // written once, before handshake_done_ is set
  std::string local_address_;
  std::string peer_address_;
};

}  // namespace switchyard::transports::ssliop
