// The client side of one connection to one endpoint, shared by every object reference to that
// endpoint (the connection cache hands it out). Request ids, sending whole messages, and waiting
// for the reply with a given id. Internal to orb/core.
//
// Replies: the thread waiting for a reply reads the connection itself (leader/followers): the
// first waiter becomes the reader; a reply it reads for another request is copied aside for that
// request's thread, which is woken. A single-threaded client never copies a reply: it reads it
// into the connection's buffer and demarshals it there, and takes no lock to do so.
// Locking: the reader role is `reader_busy_` (an atomic flag); `state_mutex_` guards the stash,
// `abandoned_`, `closed_by_server_` and the condition variable, and `waiters_` / `stashed_` let
// the lone caller skip it (seq_cst: a releasing reader sees a new waiter, or the waiter sees the
// role free); `send_mutex_` serializes senders; the reader's buffer belongs to whichever thread
// holds the reader role.
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
#include "orb/giop/message_header.h"
#include "transports/connection.h"
#include "transports/transport_options.h"

namespace switchyard::core {

class client_connection {
 public:
  client_connection(std::unique_ptr<transports::connection> connection, std::uint32_t max_body_size);
  ~client_connection();
  client_connection(const client_connection&) = delete;
  client_connection& operator=(const client_connection&) = delete;

  std::uint32_t next_request_id() noexcept { return next_request_id_.fetch_add(1, std::memory_order_relaxed); }

  // True once per connection: the first request carries the code sets the client chose.
  bool take_code_sets_turn() noexcept {
    return !code_sets_sent_.load(std::memory_order_relaxed) && !code_sets_sent_.exchange(true);
  }

  // Sends one whole message (any thread). COMM_FAILURE if the connection is broken; the
  // connection is then closed for every user.
  void send(std::span<const std::byte> message);
  // The same for a message in pieces (a request with external chunks): one gather-write.
  void send_gather(std::span<const transports::const_buffer> pieces);

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
      message_ = {};
    }
    const giop::message_view& message() const noexcept { return message_; }

   private:
    friend class client_connection;
    client_connection* owner_ = nullptr;  // set while this reply holds the reader role
    std::vector<std::byte> copy_;          // a reply another thread read for us
    giop::message_view message_{};
  };

  // Waits for the Reply or LocateReply to `request_id` (until `deadline`, if any) and puts it in
  // `into` (cleared first): TIMEOUT when the deadline passes, COMM_FAILURE when the connection
  // breaks or the server closes it (CloseConnection: TRANSIENT, the request was not processed
  // and may be retried).
  void wait_for_reply(std::uint32_t request_id, std::optional<std::chrono::steady_clock::time_point> deadline,
                      reply& into);

  // Forgets a request whose reply will not be waited for (a timed-out call).
  void abandon(std::uint32_t request_id);

  bool is_open() const noexcept { return !closed_.load(std::memory_order_acquire); }
  // Closes the connection; waiting threads get COMM_FAILURE.
  void close() noexcept;
  const std::string& peer_address() const noexcept { return connection_->peer_address(); }

 private:
  // Reads until a whole message is buffered into `out` (given default-constructed); false at
  // `deadline`.
  bool read_message(message_reader::result& out,
                    std::optional<std::chrono::steady_clock::time_point> deadline);
  void release_reader() noexcept;
  [[noreturn]] void fail(std::uint32_t minor, const std::string& why, bool transient = false);

  std::unique_ptr<transports::connection> connection_;
  std::atomic<std::uint32_t> next_request_id_{1};
  std::atomic<bool> closed_{false};
  std::atomic<bool> code_sets_sent_{false};
  std::mutex send_mutex_;

  std::atomic<bool> reader_busy_{false};
  std::atomic<int> waiters_{0};             // threads in the slow path of wait_for_reply
  std::atomic<std::uint32_t> stashed_{0};   // replies in stash_
  std::mutex state_mutex_;
  std::condition_variable state_changed_;
  bool closed_by_server_ = false;
  boost::unordered_flat_map<std::uint32_t, std::vector<std::byte>> stash_;
  boost::unordered_flat_map<std::uint32_t, bool> abandoned_;
  message_reader reader_;
};

}  // namespace switchyard::core
