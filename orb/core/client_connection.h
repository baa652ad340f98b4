// The client side of one connection to one endpoint, shared by every object reference to that
// endpoint (the connection cache hands it out). Request ids, sending whole messages, and waiting
// for the reply with a given id. Internal to orb/core.
//
// Replies: the thread waiting for a reply reads the connection itself (leader/followers): the
// first waiter becomes the reader; a reply it reads for another request is copied aside for that
// request's thread, which is woken. A single-threaded client never copies a reply: it reads it
// into the connection's buffer and demarshals it there, and takes no lock to do so.
//
// Failures (docs/orb.md, "Errors"): a connection that breaks (end of stream, reset, a failed
// send, CloseConnection, MessageError, a malformed message, half a request written) is closed at
// once and leaves the connection cache, so the next request connects anew and every reference
// bound to it rebinds. A request that provably never reached the server fails with TRANSIENT,
// completed NO, minor connection_closed or send_failed: the invocation sends it again on a new
// connection. Closing shuts the socket down, which wakes every thread blocked on it, and keeps
// the descriptor until the object goes: no thread ever reads or polls a descriptor number the
// kernel has meanwhile given to another file.
//
// Locking: the reader role is `reader_busy_` (an atomic flag); `state_mutex_` guards the stash,
// `abandoned_`, `closed_by_server_` and the condition variable, and `waiters_` / `stashed_` let
// the lone caller skip it (seq_cst: a releasing reader sees a new waiter, or the waiter sees the
// role free); `send_mutex_` serializes senders and guards `last_send_`; the reader's buffer
// belongs to whichever thread holds the reader role. Order: `send_mutex_`, then the reader role,
// then `state_mutex_`; the cache's lock is never taken while holding `state_mutex_`.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <boost/unordered/unordered_flat_map.hpp>

#include "orb/core/message_reader.h"
#include "orb/core/message_trace.h"
#include "orb/giop/fragment_continuation.h"
#include "orb/giop/message_header.h"
#include "switchyard/exception.h"
#include "transports/connection.h"
#include "transports/transport_options.h"

namespace switchyard::core {

class connection_cache;
class message_trace;
struct upcall_frame;

// When a call must be done by (its round-trip timeout: orb/core/round_trip_timeout.h); none: no
// limit.
using call_deadline = std::optional<std::chrono::steady_clock::time_point>;

// Whether a failure that send() or wait_for_reply() raised proves that the server never had the
// request (TRANSIENT, completed NO, minor connection_closed or send_failed): it was not sent
// because the connection was found closed, its send failed before the first octet, or the server
// said CloseConnection before answering it (CORBA 3.0, 15.4.7: it processes nothing after that).
// Such a request may be sent again on a new connection.
bool provably_not_sent(const SystemException& failure) noexcept;

// Told when a connection stashes a reply, or a reader lets go of the connection with messages
// read ahead in its buffer (client_connection::tell_stashes_to): either leaves the socket quiet.
class stash_listener {
 public:
  virtual void reply_stashed() noexcept = 0;

 protected:
  ~stash_listener() = default;
};

class client_connection {
 public:
  // `owner`, if any, is told when the connection breaks (it must outlive the connection: every
  // holder of a connection holds the ORB that owns the cache).
  client_connection(std::unique_ptr<transports::connection> connection, std::uint32_t max_body_size,
                    connection_cache* owner = nullptr, message_trace* trace = nullptr);
  ~client_connection();
  client_connection(const client_connection&) = delete;
  client_connection& operator=(const client_connection&) = delete;

  std::uint32_t next_request_id() noexcept { return next_request_id_.fetch_add(1, std::memory_order_relaxed); }

  // True once per connection: the first request carries the code sets the client chose.
  bool take_code_sets_turn() noexcept {
    return !code_sets_sent_.load(std::memory_order_relaxed) && !code_sets_sent_.exchange(true);
  }

  // Sends one whole request (any thread; one gather-write), waiting for the send lock and for
  // room in the socket's send buffer only until `deadline`. Throws:
  //  - TRANSIENT completed NO, minor connection_closed or send_failed, when none of it went out
  //    (the connection was closed, was found closed by the server after being idle, or the send
  //    failed before its first octet): it may be sent again on a new connection;
  //  - COMM_FAILURE completed MAYBE, minor send_failed, when the send failed part way;
  //  - TIMEOUT when the deadline passed: completed NO if none of it went out (the connection
  //    stays usable), MAYBE otherwise (the connection is closed: half a message is on it).
  void send(std::span<const transports::const_buffer> pieces, call_deadline deadline) {
    if (deadline) [[unlikely]] {
      send_until(pieces, *deadline);
      return;
    }
    if (trace_messages_) [[unlikely]]
      trace_request(pieces);
    std::lock_guard lock(send_mutex_);
    // Back-to-back calls skip the look at the socket: only a connection idle for a while has had
    // the time to be closed by its server unnoticed. A connection no longer open is shut down for
    // sending at least: the send fails before its first octet.
    const std::uint32_t now = idle_clock();
    if (now - last_send_ > idle_threshold) [[unlikely]]
      before_send();
    last_send_ = now;
    const transports::send_result result =
        connection_->send_gather_until(pieces, std::chrono::steady_clock::time_point::max());
    if (result.error != 0) [[unlikely]]
      raise_send_failure(result);
  }
  void send(std::span<const std::byte> message, call_deadline deadline) {
    const transports::const_buffer one{message.data(), message.size()};
    send({&one, 1}, deadline);
  }

  // A received reply (Reply or LocateReply) for one request. Holds the reader role or an owned
  // copy until cleared or destroyed; `message` stays valid until then. Kept in the invocation
  // and filled in place: nothing is moved per call.
  class reply {
   public:
    reply() = default;
    reply(const reply&) = delete;
    reply& operator=(const reply&) = delete;
    ~reply() { clear(); }
    // Gives back the reader role (or forgets the copy); the message is gone.
    void clear() noexcept {
      if (owner_ != nullptr) std::exchange(owner_, nullptr)->release_reader();
      copy_.clear();
      fragments_.reset();
      message_ = {};
    }
    const giop::message_view& message() const noexcept { return message_; }
    // A reply that crossed no connection (a collocated call, orb/core/collocation.h): a view of
    // the caller's buffer, valid while that buffer is; or, for a reply taken later, a copy.
    void hold(const giop::message_view& message) noexcept {
      clear();
      message_ = message;
    }
    // Keeps the message as an owned copy and gives the reader role back, so that others read on
    // while this reply waits to be read (the reply thread of asynchronous calls).
    void keep_copy() {
      if (owner_ == nullptr) return;
      copy_.assign(message_.bytes.begin(), message_.bytes.end());
      if (message_.fragments != nullptr) [[unlikely]]
        fragments_ = giop::copy_fragments(*message_.fragments);
      message_ = giop::make_message_view(copy_, 0xffffffffu);
      message_.fragments = fragments_.get();
      std::exchange(owner_, nullptr)->release_reader();
    }
    void hold_copy(std::span<const std::byte> message) {
      clear();
      copy_.assign(message.begin(), message.end());
      message_ = giop::make_message_view(copy_, 0xffffffffu);
    }

   private:
    friend class client_connection;
    client_connection* owner_ = nullptr;  // set while this reply holds the reader role
    std::vector<std::byte> copy_;         // a reply another thread read for us
    giop::owned_fragments fragments_;     // the copy's 1.1 Fragment boundaries
    giop::message_view message_{};
  };

  // Waits for the Reply or LocateReply to `request_id` (until `deadline`, if any) and puts it in
  // `into` (cleared first). Throws TIMEOUT (completed MAYBE) when the deadline passes;
  // TRANSIENT completed NO (minor connection_closed) when the server sent CloseConnection before
  // answering (it did not process the request: CORBA 3.0, 15.4.7); COMM_FAILURE completed MAYBE
  // when the connection ends, breaks or brings a malformed message (it is then closed).
  //
  // Called from inside a servant (current_upcall), it keeps what the thread drives moving while
  // it waits (upcall_wait: the event loop it runs, its dedicated connection, the pool's queue),
  // serving requests nested in this thread, so that a call back into this server, or a ring of
  // servers back to it, completes (TAO's wait-on-reactor). The reader role is then held only
  // while this thread polls the connection, never while it serves.
  void wait_for_reply(std::uint32_t request_id, call_deadline deadline, reply& into);

  // Forgets a request whose reply will not be waited for (a timed-out call).
  void abandon(std::uint32_t request_id);

  // For the reply thread of asynchronous calls (orb/core/reply_dispatcher.h), which waits on many
  // connections at once: the reply to `request_id` if a reader stashed it (throws as
  // wait_for_reply if the connection ended meanwhile); the socket to poll; and, since a reply
  // another thread reads and stashes (or reads ahead) leaves the socket quiet, a listener told of
  // every stash and read-ahead.
  bool take_stashed_reply(std::uint32_t request_id, reply& into) {
    into.clear();
    return take_stashed(request_id, into);
  }
  transports::native_handle handle() const noexcept { return connection_->handle(); }
  void tell_stashes_to(std::weak_ptr<stash_listener> listener);
  bool tells_stashes() const noexcept { return has_stash_listener_.load(std::memory_order_relaxed); }

  // Whether new requests may be sent here (false once closed, or retired: see check_after_idle).
  bool is_open() const noexcept { return link_.load(std::memory_order_acquire) == link::open; }
  // Closes the connection (shuts the socket down); waiting threads get COMM_FAILURE, or
  // TRANSIENT completed NO if the server said CloseConnection.
  void close(bool closed_by_server = false) noexcept;
  const std::string& peer_address() const noexcept { return connection_->peer_address(); }

 private:
  enum class link : std::uint8_t {
    open,     // takes requests
    retired,  // takes no new requests; a thread reading it reads on to the end, then closes it
    closed,   // shut down
  };
  // What the reader did with a message that was not its own reply.
  enum class filed : std::uint8_t { kept, close_connection, message_error };

  bool is_closed() const noexcept { return link_.load(std::memory_order_acquire) == link::closed; }
  // Closes the connection and removes it from the cache: it broke.
  void drop(bool closed_by_server = false) noexcept;
  // Takes no new requests (shut down for sending) and leaves the cache; stays readable.
  void retire() noexcept;
  // A sender's look at a connection that has been idle: if the server has closed or reset it
  // meanwhile, retires it (reading what came before the end if nobody else is reading, then
  // closing it) and throws TRANSIENT completed NO.
  void check_after_idle();
  // A clock for "has this connection been idle", read on every send: bits 16 to 47 of the
  // time-stamp counter where there is one (two instructions, no system call), else of
  // steady_clock's nanoseconds; a unit is 16 to 66 us, and the 32 bits wrap after a day or more.
  // It is only compared with a threshold of about a millisecond, so a counter that differs
  // between cores costs at most one needless look at the socket, or one missed.
#if defined(__x86_64__) || defined(__i386__)
  static std::uint32_t idle_clock() noexcept {
    std::uint32_t units;
    // (edx:eax >> 16) in one more instruction: __rdtsc() would join the halves first.
    asm volatile("rdtsc\n\tshrd $16, %%edx, %%eax" : "=a"(units) : : "edx", "cc");
    return units;
  }
  static constexpr std::uint32_t idle_threshold = 32;  // 2^21 ticks: 0.5 to 2 ms at 1 to 4 GHz
#else
  static std::uint32_t idle_clock() noexcept {
    const auto ns =
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch());
    return static_cast<std::uint32_t>(static_cast<std::uint64_t>(ns.count()) >> 16);
  }
  static constexpr std::uint32_t idle_threshold = 16;  // about 1 ms
#endif

  // send() with a deadline: the send lock and a full send buffer are waited on until then.
  void send_until(std::span<const transports::const_buffer> pieces, std::chrono::steady_clock::time_point deadline);
  // With send_mutex_ held, before writing on a connection that has been idle (or retired):
  // raises TRANSIENT completed NO if it is not open, or found closed by the server (see
  // check_after_idle); returns otherwise.
  void before_send();
  // By value: the result stays in registers on the send path.
  [[noreturn]] void raise_send_failure(transports::send_result result);
  [[noreturn]] void raise_closed();
  [[noreturn]] void raise_bad_header(giop::header_status status);
  [[noreturn]] void raise_end_of_stream();
  [[noreturn]] void raise_closed_by_server();
  [[noreturn]] void raise_no_reply_in_time();
  // Reads until a whole message is buffered into `out` (given default-constructed); false at
  // `deadline`. Throws COMM_FAILURE (completed MAYBE) at the end of the stream, on a receive
  // error or a malformed header; MARSHAL from reassembly. Needs the reader role.
  bool read_message(message_reader::result& out, call_deadline deadline);
  // Stashes another request's reply (`reply_id`) for its thread, or drops it if abandoned; says
  // whether the message ends the connection. Needs the reader role.
  filed file_message(const giop::message_view& message, std::uint32_t reply_id);
  // The reader, for a message that is not its own reply: file_message, and a CloseConnection or
  // MessageError ends the connection and raises (TRANSIENT or COMM_FAILURE).
  void file_or_raise(const giop::message_view& message, std::uint32_t reply_id);
  // Reads and files every message up to the end of the stream (the server has closed it): true
  // if it ended with CloseConnection.
  bool read_to_end() noexcept;
  void release_reader() noexcept;
  // release_reader on a connection whose stashes a listener hears of (kept out of the lone
  // caller's path).
  [[gnu::cold, gnu::noinline]] void release_reader_telling_listener() noexcept;
  // wait_for_reply inside the upcall of `upcall`, in the thread that serves it.
  void wait_in_upcall(std::uint32_t request_id, call_deadline deadline, reply& into, upcall_frame& upcall);
  // The reply to `request_id` if another thread (or an earlier round) stashed it: true, in
  // `into`. Throws if the connection closed meanwhile. Takes state_mutex_.
  bool take_stashed(std::uint32_t request_id, reply& into);
  // -ORBTrace: a request going out (its first piece holds the header).
  void trace_request(std::span<const transports::const_buffer> pieces) noexcept;

  std::unique_ptr<transports::connection> connection_;
  connection_cache* owner_;
  message_trace* trace_;
  const bool trace_messages_;  // -ORBTrace 2 or more: fixed for the ORB's life, one load to test
  std::atomic<std::uint32_t> next_request_id_{1};
  std::atomic<link> link_{link::open};
  std::atomic<bool> code_sets_sent_{false};
  std::timed_mutex send_mutex_;
  std::uint32_t last_send_;  // idle_clock() at the last send, under send_mutex_

  std::atomic<bool> reader_busy_{false};
  std::atomic<int> waiters_{0};            // threads in the slow path of wait_for_reply
  std::atomic<std::uint32_t> stashed_{0};  // replies in stash_
  std::mutex state_mutex_;
  std::condition_variable state_changed_;
  bool closed_by_server_ = false;
  // A reply read for another thread: its octets, and its 1.1 Fragment boundaries if any.
  struct stashed_reply {
    std::vector<std::byte> bytes;
    giop::owned_fragments fragments;
  };
  // Takes `stashed` into `into` (under state_mutex_).
  static void take_into(stashed_reply& stashed, reply& into);
  boost::unordered_flat_map<std::uint32_t, stashed_reply> stash_;
  boost::unordered_flat_map<std::uint32_t, bool> abandoned_;
  std::atomic<bool> has_stash_listener_{false};
  std::weak_ptr<stash_listener> stash_listener_;  // under state_mutex_
  message_reader reader_;
};

}  // namespace switchyard::core
