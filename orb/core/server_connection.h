// The server side of one accepted connection: reads requests, dispatches them through the object
// adapter, writes the replies, and enforces the server's limits on its peer. Internal to orb/core.
//
// Who drives it (chosen when the server places the connection):
//   - a dedicated thread (serve_dedicated): blocking receives bounded by a tick, blocking sends
//     bounded by the send timeout; the thread-per-connection model and adaptive's first N. When
//     adaptive's server is crowded, the thread hands the connection to a loop between requests
//     (server::move_to_loop) and parks; it never goes back;
//   - an event loop (server_loop): non-blocking; requests are served inline (reactive, adaptive
//     beyond N) or handed to the worker pool (-ORBThreads N), whose workers send the replies.
//
// One owner for its life: the driving thread alone reads, changes the event-loop registration
// and ends the connection; any other thread only asks (request_close). The descriptor is closed
// by the destructor, when no thread can still hold the connection, so a descriptor number is
// never reused while a worker could still send on it.
//
// Locking: `send_mutex_` serializes sends and guards `pending_` (replies the socket did not take
// at once). Everything else belongs to the driving thread; `in_flight_` and `close_requested_`
// are atomics any thread may read.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "orb/base/page_allocator.h"
#include "orb/core/message_reader.h"
#include "orb/core/request_dispatch.h"
#include "orb/giop/message_header.h"
#include "orb/giop/protocol.h"
#include "switchyard/cdr/output_stream.h"
#include "switchyard/instrument.h"
#include "transports/connection.h"
#include "transports/event_loop.h"

namespace switchyard::core {

class server;
class server_loop;
class server_connection;

// A request whose servant this thread is running: its connection, and, served inline by an event
// loop that hands over (server_loop, "Leadership"), the mark of its servant code.
struct upcall_frame {
  server_connection& connection;
  std::uint64_t servant_mark = 0;
};

// The innermost request this thread's servant is running (a nested upcall saves and restores
// it); null outside servants. A reply wait reads it to learn what it must keep moving
// (upcall_wait).
extern constinit thread_local upcall_frame* current_upcall;

// A one-way request with SyncScope WITH_SERVER is answered before its upcall (early_reply_channel).
class server_connection final : public transports::io_handler,
                                public early_reply_channel,
                                public std::enable_shared_from_this<server_connection> {
 public:
  server_connection(server& owner, std::unique_ptr<transports::connection> connection);
  ~server_connection() override;

  // ---- Dedicated thread ----
  // Serves in the calling thread until the peer leaves, a limit ends the connection, or
  // request_close(); then ends it. `replies` is the thread's reply stream.
  void serve_dedicated(instrument::probe_table& probes, cdr::output_stream& replies) noexcept;

  // ---- Event loop (the loop's thread) ----
  // Joins `loop`: non-blocking from now on, registered for reading.
  void attach(server_loop& loop);
  void on_io(transports::native_handle handle, unsigned events) override;
  // Ends the connection if one of its deadlines has passed.
  void check_deadlines(std::chrono::steady_clock::time_point now) noexcept;
  // Ends the connection now: CloseConnection first if `graceful` and no reply is half-sent.
  // `why` (or the reason noted when the decision was made) goes to the trace (-ORBTrace).
  void end(bool graceful, std::string_view why = {}) noexcept;
  // Stops reading for good (a drain before shutdown); requests in progress go on.
  void pause_reading() noexcept;
  // Reads again after a pause for the worker pool (it has room, or this connection's requests
  // in progress went down).
  void resume_reading() noexcept;
  // Any thread: resume_reading() in the loop's thread.
  void post_resume() noexcept;

  // ---- Nested waits (upcall_wait) ----
  // Event loop: while its upcall waits for a reply and the loop runs nested rounds meanwhile: not timed out,
  // not told CloseConnection (a request is in progress); read and served on (GIOP lets a peer
  // send requests without waiting for replies, and a nested call may come back on this very
  // connection), once the buffer holding the waiting request is set aside in `retired` (kept
  // until the outermost round ends). If it cannot be (a reassembled request), the connection is
  // not read until the wait ends. Counted: nested waits stack.
  void suspend_for_nested_wait(page_block& retired) noexcept;
  void resume_after_nested_wait() noexcept;
  // Dedicated thread: the same for its own connection, which it then reads itself while it waits
  // (serve_while_waiting); false if it cannot be read meanwhile.
  bool begin_dedicated_wait() noexcept;
  void end_dedicated_wait() noexcept;
  // Dedicated thread, its connection readable during a nested wait: reads and serves what came,
  // replies through `replies`. False when the connection cannot be read further (it is shut
  // down; serve_dedicated ends it after the outer request).
  bool serve_while_waiting(cdr::output_stream& replies) noexcept;

  // ---- Workers (-ORBThreads) ----
  // Serves one request a loop copied into the pool; the worker's own reply stream and timer.
  void serve_queued(const giop::message_view& message, cdr::output_stream& replies,
                    instrument::phase_timer& timer) noexcept;

  // ---- Any thread ----
  // Asks the driving thread to end the connection (CloseConnection first if `graceful`); once a
  // dedicated thread has finished the request it is serving.
  void request_close(bool graceful) noexcept;
  // Shuts the socket down now, whoever drives it (a stop that leaves its servant running: the
  // peer learns at once that no reply will come).
  void cut_off() noexcept { connection_->shut_down(); }
  bool is_open() const noexcept { return !ended_.load(std::memory_order_acquire); }
  transports::native_handle handle() const noexcept { return handle_; }
  const std::string& peer_address() const noexcept { return connection_->peer_address(); }

 private:
  // Serves one complete message; false when the connection must end.
  bool serve(const giop::message_view& message, cdr::output_stream& out, instrument::phase_timer& timer);
  void serve_request(const giop::message_view& message, const giop::protocol& protocol, cdr::output_stream& out,
                     instrument::phase_timer& timer);
  void serve_locate_request(const giop::message_view& message, const giop::protocol& protocol, cdr::output_stream& out);
  void send_message_error(const giop::protocol& protocol) noexcept;
  void send_close_connection() noexcept;
  // A header that cannot be read further: MessageError where there is a version to say it in.
  void answer_bad_header(const giop::header_result& header) noexcept;
  // Sends one whole message as the driver allows: blocking (bounded) for a dedicated thread,
  // what the socket takes now plus a pending rest for an event loop.
  void send(std::span<const std::byte> message);
  void send_early(std::span<const std::byte> reply) override { send(reply); }

  // Event loop: reads and serves (or queues) what arrived; false when the connection must end.
  bool on_readable();
  bool flush_pending() noexcept;  // false when the connection must end
  // Serves or queues the complete messages buffered (timed from `timer`'s start).
  bool serve_buffered(instrument::phase_timer& timer);
  bool serve_buffered();
  void update_interest();
  void read_buffered_soon();
  void wait_for_output_to_read();
  bool handshake_overdue(std::chrono::steady_clock::time_point now) const noexcept;
  // Starts the message clock when a partial message is buffered and none was before, or a
  // message came out (`took_one`) and the next is already partial.
  void note_message_progress(std::chrono::steady_clock::time_point now, bool took_one) noexcept;
  // -ORBTrace: the connection ended, and why (once).
  void trace_end(std::string_view why) noexcept;

  server& owner_;
  std::unique_ptr<transports::connection> connection_;
  transports::native_handle handle_;
  message_reader reader_;
  const bool trace_messages_;                // -ORBTrace 2 or more: fixed for the ORB's life, one load to test
  std::atomic<std::uint8_t> last_minor_{2};  // the GIOP version the client spoke last
  std::atomic<bool> ended_{false};
  std::atomic<bool> close_requested_{false};
  std::atomic<bool> close_gracefully_{false};
  std::atomic<bool> goodbye_sent_{false};  // CloseConnection sent (at most once)
  // Why it is ending, for the trace: static, null-terminated strings only. Atomic: with the pool,
  // a worker notes what it read (CloseConnection) while the loop may note a closed socket.
  std::atomic<const char*> end_reason_{""};
  std::atomic<bool> traced_end_{false};  // a worker (an exception) or the driver traces the end, once
  std::atomic<bool> serving_{false};     // dedicated: inside a request (seq_cst with close_requested_)

  std::mutex send_mutex_;
  // Event loop: reply octets the socket has not taken yet.
  std::vector<std::byte, page_allocator<std::byte>> pending_;
  std::size_t pending_sent_ = 0;      // of pending_, already sent
  std::size_t pending_reserved_ = 0;  // drawn from the budget for pending_
  std::atomic<bool> output_blocked_{false};

  // The loop that drives it, or will once its adoption runs; null while a dedicated thread does.
  // Any thread reads it (request_close); set before the adoption is posted.
  std::atomic<server_loop*> assigned_loop_{nullptr};
  // Event loop state (its thread only).
  server_loop* loop_ = nullptr;
  server_loop* marking_loop_ = nullptr;  // loop_, if it serves inline and marks servant code
  std::size_t loop_index_ = 0;           // place in the loop's list
  unsigned interest_ = transports::io_events::none;
  bool paused_for_pool_ = false;
  bool paused_for_shutdown_ = false;
  // TLS: input may wait in the connection, read ahead (read_buffered_soon); the handshake is timed.
  const bool buffers_input_;
  bool reread_posted_ = false;
  const std::chrono::steady_clock::time_point accepted_at_;
  std::chrono::steady_clock::time_point last_activity_{};
  std::chrono::steady_clock::time_point message_started_{};
  std::chrono::steady_clock::time_point output_blocked_since_{};
  bool inside_message_ = false;
  unsigned nested_waits_ = 0;      // upcalls of this connection waiting in nested loop rounds
  unsigned unreadable_waits_ = 0;  // of those, the ones whose buffer could not be set aside
  // Dedicated thread: its probes, and request buffers set aside by nested waits (released
  // between requests).
  instrument::probe_table* dedicated_probes_ = nullptr;
  std::vector<page_block> retired_buffers_;

  // Worker pool: requests of this connection queued or being served.
  std::atomic<std::uint32_t> in_flight_{0};
  std::atomic<bool> waiting_for_pool_{false};

  friend class server_loop;
  friend class upcall_wait;
};

}  // namespace switchyard::core
