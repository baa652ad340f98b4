#include "orb/core/client_connection.h"

#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <system_error>

#include "orb/core/connection_cache.h"
#include "orb/core/server_connection.h"
#include "orb/core/upcall_wait.h"
#include "orb/giop/messages.h"
#include "orb/giop/protocol.h"
#include "switchyard/exception.h"

namespace switchyard::core {

namespace {

bool is_reply(const giop::message_view& message) noexcept {
  return message.header.type == giop::message_type::reply || message.header.type == giop::message_type::locate_reply;
}

// The request id of a Reply or LocateReply, found as cheaply as its version allows.
[[gnu::always_inline]] inline std::uint32_t reply_request_id(const giop::message_view& message) {
  // 1.2: the first octets of the body, whatever the type.
  if (message.header.ver.minor == 2 && message.bytes.size() >= giop::header_size + 4)
    return cdr::load<std::uint32_t>(message.bytes.data() + giop::header_size,
                                    message.header.order != cdr::native_byte_order);
  const giop::protocol* protocol = giop::protocol_for(message.header.ver.minor);
  std::uint32_t id = 0;
  if (protocol->leading_request_id(message, id)) return id;
  if (message.header.type == giop::message_type::reply) return protocol->decode_reply(message).request_id;
  return protocol->decode_locate_reply(message).request_id;
}

SystemException timeout(CompletionStatus completed, std::string why) {
  return SystemException(SystemExceptionKind::TIMEOUT, minor::omg_minor(0), completed, std::move(why));
}

}  // namespace

bool provably_not_sent(const SystemException& failure) noexcept {
  return failure.kind() == SystemExceptionKind::TRANSIENT && failure.completed() == CompletionStatus::no &&
         (failure.minor() == minor::connection_closed || failure.minor() == minor::send_failed);
}

client_connection::client_connection(std::unique_ptr<transports::connection> connection, std::uint32_t max_body_size,
                                     connection_cache* owner, message_trace* trace)
    : connection_(std::move(connection)),
      owner_(owner),
      trace_(trace),
      trace_messages_(trace != nullptr && trace->messages()),
      last_send_(idle_clock()),
      reader_(max_body_size) {
  if (trace_ != nullptr && trace_->connections()) trace_->connection("client", "connected", peer_address());
}

void client_connection::trace_request(std::span<const transports::const_buffer> pieces) noexcept {
  if (pieces.empty()) return;
  try {
    trace_->message("client", false, peer_address(), {static_cast<const std::byte*>(pieces[0].data), pieces[0].size});
  } catch (...) {
  }
}

client_connection::~client_connection() { close(); }

void client_connection::send_until(std::span<const transports::const_buffer> pieces,
                                   std::chrono::steady_clock::time_point deadline) {
  std::unique_lock lock(send_mutex_, std::try_to_lock);
  // The wait for another sender runs on the system clock: libstdc++ waits for a steady_clock
  // deadline with pthread_mutex_clocklock, which GCC 12's ThreadSanitizer does not intercept (it
  // then reports this lock's sections as races and its unlock as wrong). A clock step can only
  // lengthen or shorten this wait; the send keeps the steady deadline.
  if (!lock.owns_lock() &&
      !lock.try_lock_until(std::chrono::system_clock::now() + (deadline - std::chrono::steady_clock::now())))
    throw timeout(CompletionStatus::no,
                  "the call timeout passed while another request was being sent to " + peer_address());
  if (trace_messages_) trace_request(pieces);
  const std::uint32_t now = idle_clock();
  if (now - last_send_ > idle_threshold) before_send();
  last_send_ = now;
  const transports::send_result result = connection_->send_gather_until(pieces, deadline);
  if (result.error != 0) raise_send_failure(result);
}

void client_connection::before_send() {
  if (!is_open()) raise_closed();
  check_after_idle();
}

void client_connection::raise_closed() {
  throw SystemException(SystemExceptionKind::TRANSIENT, minor::connection_closed, CompletionStatus::no,
                        "connection to " + peer_address() + " is closed (request not sent)");
}

void client_connection::raise_send_failure(transports::send_result result) {
  const std::string sent = std::to_string(result.sent) + " octets of the request";
  if (result.error == ETIMEDOUT) {
    if (result.sent == 0)
      throw timeout(CompletionStatus::no, "the call timeout passed before any of the request could be sent to " +
                                              peer_address() + " (its send buffer stayed full)");
    // Half a message is on it: it cannot carry another, and the server, which serves only whole
    // messages, will never serve this one (completed NO, as omniORB says too).
    drop();
    throw timeout(CompletionStatus::no,
                  "the call timeout passed with " + sent + " sent to " + peer_address() + "; the connection is closed");
  }
  if (result.sent == 0 && !is_open()) raise_closed();  // shut down by another thread: EPIPE
  drop();
  const std::string why = std::generic_category().message(result.error);
  if (result.sent == 0)
    throw SystemException(SystemExceptionKind::TRANSIENT, minor::send_failed, CompletionStatus::no,
                          "send to " + peer_address() + " failed before any octet went out: " + why);
  // Part of it went out and the connection is gone: the server never had the whole message, so
  // it did not serve it (completed NO). Not resent (only TRANSIENT is): a peer that fails us in
  // the middle of a message is not one to try again at once.
  throw SystemException(SystemExceptionKind::COMM_FAILURE, minor::send_failed, CompletionStatus::no,
                        "send to " + peer_address() + " failed after " + sent + ": " + why);
}

void client_connection::check_after_idle() {
  pollfd probe{connection_->handle(), POLLIN | POLLRDHUP, 0};
  if (::poll(&probe, 1, 0) <= 0 || (probe.revents & (POLLRDHUP | POLLHUP | POLLERR)) == 0) return;
  // The server has closed or reset the connection: a request sent now would never be answered.
  retire();
  // Replies sent before the end may be waiting for threads whose requests went out earlier:
  // if nobody is reading, read them aside now (the end is there, so reading never blocks), then
  // close. Otherwise the reader meets the end and closes the connection itself.
  if (!reader_busy_.exchange(true)) {
    close(read_to_end());
    release_reader();
  }
  throw SystemException(SystemExceptionKind::TRANSIENT, minor::connection_closed, CompletionStatus::no,
                        "server closed the connection to " + peer_address() + " while it was idle (request not sent)");
}

void client_connection::release_reader() noexcept {
  if (has_stash_listener_.load(std::memory_order_relaxed)) [[unlikely]] {
    release_reader_telling_listener();
    return;
  }
  reader_busy_.store(false);
  // A waiter that registered before the store is woken; one that registers after it finds the
  // role free. Nobody waiting (the single-threaded client): no lock at all.
  if (waiters_.load() > 0) {
    std::lock_guard lock(state_mutex_);
    state_changed_.notify_all();
  }
}

void client_connection::release_reader_telling_listener() noexcept {
  // Whole messages read ahead stay in our buffer, where no poll on the socket sees them: the
  // listener (the reply thread of asynchronous calls) must be told, or a reply read ahead for it
  // would wait for the socket's next event. Looked at before letting the buffer go.
  const bool left_unread = reader_.has_unread() || connection_->has_buffered_input();
  reader_busy_.store(false);
  if (left_unread) {
    std::lock_guard lock(state_mutex_);
    if (auto listener = stash_listener_.lock()) listener->reply_stashed();
  }
  if (waiters_.load() > 0) {
    std::lock_guard lock(state_mutex_);
    state_changed_.notify_all();
  }
}

bool client_connection::read_message(message_reader::result& out, call_deadline deadline) {
  // Nothing buffered (a lone caller's usual case): straight to the socket.
  // `out` comes in fresh (need_more) from the caller.
  if (reader_.has_unread()) out = reader_.next();
  for (;;) {
    if (out.what == message_reader::status::message) {
      if (trace_messages_) [[unlikely]]
        trace_->message("client", true, peer_address(), out.message.bytes);
      return true;
    }
    if (out.what == message_reader::status::bad_header) raise_bad_header(out.header.status);
    // TLS may hold octets read ahead: those are there without the socket being readable.
    if (deadline && !connection_->has_buffered_input()) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(*deadline - std::chrono::steady_clock::now());
      // At the deadline, one look without waiting: a deferred call's poll asks with a deadline of now.
      pollfd ready{connection_->handle(), POLLIN, 0};
      int n =
          ::poll(&ready, 1, left.count() <= 0 ? 0 : static_cast<int>(std::min<long long>(left.count() + 1, 1 << 30)));
      if (n == 0) return false;
      if (n < 0 && errno == EINTR) continue;
    }
    if (!reader_.receive(*connection_)) raise_end_of_stream();
    out = reader_.next();
  }
}

void client_connection::raise_bad_header(giop::header_status status) {
  throw SystemException(
      SystemExceptionKind::COMM_FAILURE, minor::bad_message, CompletionStatus::maybe,
      "malformed GIOP header from server " + peer_address() + ": " + std::string(giop::to_string(status)));
}

void client_connection::raise_end_of_stream() {
  throw SystemException(SystemExceptionKind::COMM_FAILURE, minor::connection_closed, CompletionStatus::maybe,
                        is_closed() ? "connection to " + peer_address() + " was closed by this client"
                                    : "server " + peer_address() + " closed the connection");
}

client_connection::filed client_connection::file_message(const giop::message_view& message, std::uint32_t reply_id) {
  switch (message.header.type) {
    case giop::message_type::reply:
    case giop::message_type::locate_reply: {
      std::lock_guard state(state_mutex_);
      if (abandoned_.erase(reply_id) == 0) {
        stashed_reply stashed{std::vector<std::byte>(message.bytes.begin(), message.bytes.end()), nullptr};
        if (message.fragments != nullptr) [[unlikely]]
          stashed.fragments = giop::copy_fragments(*message.fragments);
        auto [it, added] = stash_.insert_or_assign(reply_id, std::move(stashed));
        if (added) stashed_.fetch_add(1);
        if (has_stash_listener_.load(std::memory_order_relaxed))
          if (auto listener = stash_listener_.lock()) listener->reply_stashed();
      }
      state_changed_.notify_all();
      return filed::kept;
    }
    case giop::message_type::close_connection:
      return filed::close_connection;
    case giop::message_type::message_error:
      return filed::message_error;
    default:
      // Requests from the server (no bidirectional GIOP here), cancels: ignored.
      return filed::kept;
  }
}

void client_connection::file_or_raise(const giop::message_view& message, std::uint32_t reply_id) {
  switch (file_message(message, reply_id)) {
    case filed::kept:
      return;
    case filed::close_connection:
      drop(true);
      raise_closed_by_server();
    case filed::message_error:
      drop();
      throw SystemException(SystemExceptionKind::COMM_FAILURE, minor::bad_message, CompletionStatus::maybe,
                            "server " + peer_address() + " answered MessageError");
  }
}

bool client_connection::read_to_end() noexcept {
  try {
    for (;;) {
      message_reader::result got;
      if (!read_message(got, std::nullopt)) return false;
      const std::uint32_t id = is_reply(got.message) ? reply_request_id(got.message) : 0;
      switch (file_message(got.message, id)) {
        case filed::kept:
          break;
        case filed::close_connection:
          return true;
        case filed::message_error:
          return false;
      }
    }
  } catch (...) {
    // The end of the stream (what this reads up to), a reset or a malformed message: what came
    // before it is filed.
  }
  return false;
}

void client_connection::wait_for_reply(std::uint32_t request_id, call_deadline deadline, reply& into) {
  into.clear();
  // Inside a servant: the wait keeps what this thread drives moving.
  if (upcall_frame* upcall = current_upcall) [[unlikely]] {
    wait_in_upcall(request_id, deadline, into, *upcall);
    return;
  }
  // The lone caller: no reader, nothing stashed, the connection readable: take the role without
  // the lock. Checked again after taking it: a reader before us may have stashed our reply.
  bool reader = false;
  if (stashed_.load() == 0 && !is_closed() && !reader_busy_.exchange(true)) {
    if (stashed_.load() == 0) reader = true;
    else release_reader();
  }
  if (!reader) {
    std::unique_lock lock(state_mutex_);
    waiters_.fetch_add(1);
    struct waiting {
      std::atomic<int>& count;
      ~waiting() { count.fetch_sub(1); }
    } registered{waiters_};
    for (;;) {
      if (auto it = stash_.find(request_id); it != stash_.end()) {
        take_into(it->second, into);
        stash_.erase(it);
        stashed_.fetch_sub(1);
        return;
      }
      if (closed_by_server_) raise_closed_by_server();
      if (is_closed())
        throw SystemException(SystemExceptionKind::COMM_FAILURE, minor::connection_closed, CompletionStatus::maybe,
                              "connection to " + peer_address() + " broke");
      if (!reader_busy_.exchange(true)) break;
      if (deadline) {
        if (state_changed_.wait_until(lock, *deadline) == std::cv_status::timeout && reader_busy_.load())
          raise_no_reply_in_time();
      } else {
        state_changed_.wait(lock);
      }
    }
  }

  // This thread holds the reader role and reads until its own reply comes.
  struct reader_role {
    client_connection* self;
    bool kept = false;
    ~reader_role() {
      if (!kept) self->release_reader();
    }
  } role{this};

  for (;;) {
    message_reader::result got;
    bool have = false;
    std::uint32_t id = 0;
    try {
      have = read_message(got, deadline);
      if (have && is_reply(got.message)) id = reply_request_id(got.message);
    } catch (const SystemException&) {
      // The stream cannot be read further (and a reply whose id cannot be read would leave its
      // thread waiting): every request on the connection fails.
      drop();
      throw;
    }
    if (!have) raise_no_reply_in_time();
    const giop::message_view& message = got.message;
    if (id == request_id && is_reply(message)) {
      into.owner_ = this;
      into.message_ = message;
      role.kept = true;
      return;
    }
    file_or_raise(message, id);
  }
}

void client_connection::take_into(stashed_reply& stashed, reply& into) {
  into.copy_ = std::move(stashed.bytes);
  into.fragments_ = std::move(stashed.fragments);
  into.message_ = giop::make_message_view(into.copy_, 0xffffffffu);
  into.message_.fragments = into.fragments_.get();
}

void client_connection::tell_stashes_to(std::weak_ptr<stash_listener> listener) {
  std::lock_guard lock(state_mutex_);
  stash_listener_ = std::move(listener);
  has_stash_listener_.store(true, std::memory_order_relaxed);
}

bool client_connection::take_stashed(std::uint32_t request_id, reply& into) {
  std::lock_guard lock(state_mutex_);
  if (auto it = stash_.find(request_id); it != stash_.end()) {
    take_into(it->second, into);
    stash_.erase(it);
    stashed_.fetch_sub(1);
    return true;
  }
  if (closed_by_server_) raise_closed_by_server();
  if (is_closed())
    throw SystemException(SystemExceptionKind::COMM_FAILURE, minor::connection_closed, CompletionStatus::maybe,
                          "connection to " + peer_address() + " broke");
  return false;
}

void client_connection::wait_in_upcall(std::uint32_t request_id, call_deadline deadline, reply& into,
                                       upcall_frame& upcall) {
  upcall_wait moving(upcall);
  // The longest one poll waits: nested rounds tick a loop's deadlines; a thread that is not the
  // reader looks at the stash this often (a stash does not wake a poll), and a worker at the
  // pool's queue (which has no descriptor).
  const int reader_poll_ms = moving.handle() < 0 ? 2 : 100;
  constexpr int follower_poll_ms = 2;
  auto poll_ms = [&](int longest) {
    if (!deadline) return longest;
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(*deadline - std::chrono::steady_clock::now()).count();
    return static_cast<int>(std::clamp<long long>(left + 1, 0, longest));
  };
  for (;;) {
    bool served_ready = false;
    if ((stashed_.load() != 0 || !is_open()) && take_stashed(request_id, into)) return;
    if (!reader_busy_.exchange(true)) {
      struct reader_role {
        client_connection* self;
        bool kept = false;
        ~reader_role() {
          if (!kept) self->release_reader();
        }
      } role{this};
      // A reader before us may have stashed it between the look and the role.
      if (stashed_.load() != 0 && take_stashed(request_id, into)) return;
      // Every whole message buffered or readable now, without blocking: ours ends the wait
      // (true; this thread keeps the reader role for it), others' are stashed.
      auto drain = [&] {
        for (;;) {
          message_reader::result got;
          bool have = false;
          std::uint32_t id = 0;
          try {
            have = read_message(got, std::chrono::steady_clock::now());
            if (have && is_reply(got.message)) id = reply_request_id(got.message);
          } catch (const SystemException&) {
            drop();
            throw;
          }
          if (!have) return false;
          if (id == request_id && is_reply(got.message)) {
            into.owner_ = this;
            into.message_ = got.message;
            role.kept = true;
            return true;
          }
          file_or_raise(got.message, id);
        }
      };
      if (drain()) return;
      pollfd ready[2] = {{connection_->handle(), POLLIN, 0}, {moving.handle(), POLLIN, 0}};
      if (::poll(ready, 2, poll_ms(reader_poll_ms)) > 0 && ready[0].revents != 0 && drain()) return;
      served_ready = ready[1].revents != 0;
    } else {
      pollfd ready{moving.handle(), POLLIN, 0};
      served_ready = ::poll(&ready, 1, poll_ms(follower_poll_ms)) > 0 && ready.revents != 0;
    }
    if (deadline && std::chrono::steady_clock::now() >= *deadline) raise_no_reply_in_time();
    // The reader role is free again: a call made by a request served now may read.
    moving.run(served_ready);
  }
}

void client_connection::raise_closed_by_server() {
  throw SystemException(SystemExceptionKind::TRANSIENT, minor::connection_closed, CompletionStatus::no,
                        "server " + peer_address() +
                            " closed the connection (CloseConnection) before answering: the request was not processed");
}

void client_connection::raise_no_reply_in_time() {
  throw timeout(CompletionStatus::maybe, "no reply from " + peer_address() + " within the call timeout");
}

void client_connection::abandon(std::uint32_t request_id) {
  std::lock_guard lock(state_mutex_);
  if (stash_.erase(request_id) != 0) stashed_.fetch_sub(1);
  else abandoned_.insert_or_assign(request_id, true);
}

void client_connection::retire() noexcept {
  link expected = link::open;
  if (!link_.compare_exchange_strong(expected, link::retired, std::memory_order_acq_rel)) return;
  // A sender that finds it idle no longer sees it open; one that does not fails to send.
  ::shutdown(connection_->handle(), SHUT_WR);
  if (owner_ != nullptr) owner_->forget(this);
}

void client_connection::drop(bool closed_by_server) noexcept {
  close(closed_by_server);
  if (owner_ != nullptr) owner_->forget(this);
}

void client_connection::close(bool closed_by_server) noexcept {
  {
    // Under the lock, both at once: a waiter sees the connection open, or closed and whether the
    // server said so; and one between its check and its wait does not miss the notification.
    std::lock_guard lock(state_mutex_);
    if (link_.exchange(link::closed, std::memory_order_acq_rel) == link::closed) return;
    closed_by_server_ = closed_by_server;
    state_changed_.notify_all();
  }
  if (trace_ != nullptr && trace_->connections()) {
    try {
      trace_->connection("client", "ended", peer_address(), closed_by_server ? "CloseConnection from the server" : "");
    } catch (...) {
    }
  }
  // shutdown(2) rather than close(2): it wakes a thread blocked in recv, send or poll on the
  // socket, and the descriptor stays ours until the transport connection goes with this object.
  connection_->shut_down();
}

}  // namespace switchyard::core
