// The server side of one accepted connection: reads requests as the reactor reports the socket
// readable, dispatches them through the object adapter, and writes the replies. Internal to
// orb/core.
//
// Reactive mode (the default): everything runs in the reactor's thread, one request after the
// other, with one reply stream reused for every reply (no allocation per request). Thread-pool
// mode (-ORBThreads N): the reactor's thread reads and frames; each complete request is copied
// and handed to a worker, which dispatches it and sends its reply (sends are serialized).
#pragma once

#include <atomic>
#include <memory>
#include <mutex>

#include "orb/core/message_reader.h"
#include "orb/core/reply_sink.h"
#include "orb/giop/message_header.h"
#include "orb/giop/protocol.h"
#include "switchyard/instrument.h"
#include "transports/connection.h"
#include "transports/reactor.h"

namespace switchyard::core {

class orb_impl;

class server_connection final : public transports::readable_handler,
                                public std::enable_shared_from_this<server_connection> {
 public:
  server_connection(orb_impl& orb, std::unique_ptr<transports::connection> connection);
  ~server_connection() override;

  disposition on_readable(transports::native_handle handle) override;

  // Serves one complete message (a worker calls this with its own copy of the bytes), timing
  // its layers with `timer`.
  void serve(const giop::message_view& message, cdr::output_stream& out, instrument::phase_timer& timer);

  // Thread-per-connection: serves until the peer closes or wake() is called; then closes.
  void serve_blocking(instrument::probe_table& probes) noexcept;
  // Unblocks a thread in serve_blocking (shutdown(2) on the socket; the thread closes it).
  void wake() noexcept;

  // Tells the client we are going (CloseConnection in the version it spoke) and closes.
  void close_gracefully() noexcept;
  // The same, but leaves closing to the connection's own thread (thread-per-connection).
  void say_goodbye() noexcept;
  void close() noexcept;
  bool is_open() const noexcept { return connection_->is_open(); }
  transports::native_handle handle() const noexcept { return handle_; }

 private:
  class request_reply;  // the reply_sink of one request

  void serve_request(const giop::message_view& message, const giop::protocol& protocol, cdr::output_stream& out,
                     instrument::phase_timer& timer);
  void serve_locate_request(const giop::message_view& message, const giop::protocol& protocol,
                            cdr::output_stream& out);
  void send_message_error(const giop::protocol& protocol, cdr::output_stream& out) noexcept;
  // A header that cannot be read further: MessageError where there is a version to say it in.
  void answer_bad_header(const giop::header_result& header) noexcept;
  void send(std::span<const std::byte> message);

  orb_impl& orb_;
  std::unique_ptr<transports::connection> connection_;
  transports::native_handle handle_;
  message_reader reader_;
  cdr::output_stream replies_;  // the reactive mode's reply stream
  std::mutex send_mutex_;
  std::atomic<std::uint8_t> last_minor_{2};  // the GIOP version the client spoke last
};

}  // namespace switchyard::core
