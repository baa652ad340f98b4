#include "orb/core/server_connection.h"

#include <exception>
#include <utility>

#include "orb/adapter/adapter_registry.h"
#include "orb/core/message_trace.h"
#include "orb/core/object_state.h"
#include "orb/core/orb_impl.h"
#include "orb/core/request_dispatch.h"
#include "orb/core/server.h"
#include "orb/core/server_loop.h"
#include "orb/core/service_contexts.h"
#include "orb/core/worker_pool.h"
#include "orb/giop/messages.h"
#include "orb/giop/plain_messages.h"
#include "orb/ior/iiop_profile.h"
#include "orb/ior/ior.h"
#include "orb/ior/tags.h"
#include "switchyard/exception.h"
#include "switchyard/invocation.h"
#include "switchyard/object_io.h"
#include "switchyard/servant.h"
#include "switchyard/server_request.h"

namespace switchyard::core {

// Set while a thread serves a request of a connection: a reply wait inside the servant keeps
// what the thread drives moving (upcall_wait).
constinit thread_local upcall_frame* current_upcall = nullptr;

namespace {

// A connection's requests queued or being served in the pool at once; beyond it, the connection
// is not read until one finishes (one peer cannot take the whole queue).
constexpr std::uint32_t max_in_flight_per_connection = 32;

// The first receive buffer of a connection: a small request fits many times over; larger
// messages grow it as their octets arrive.
constexpr std::size_t initial_receive_capacity = 8 * 1024;

// Hands the complete messages buffered, one by one, to `take` until none is left or `go_on()`
// says stop; `bad_header` gets a header that cannot be read. False when the connection must end
// (a bad header, or `take` said so). `took_one` is set when a message came out (the message
// timeout then starts again for what is still partial). Every driver serves through it.
template <class GoOn, class Take, class BadHeader>
bool take_buffered(message_reader& reader, instrument::phase_timer& timer, GoOn go_on, Take take, BadHeader bad_header,
                   bool& took_one) {
  while (go_on()) {
    auto next = reader.next();
    if (next.what == message_reader::status::need_more) return true;
    if (next.what == message_reader::status::bad_header) {
      bad_header(next.header);
      return false;
    }
    took_one = true;
    if (!take(next.message)) return false;
    if (!reader.has_unread()) return true;  // the usual case: one request per receive
    timer.restart();
  }
  return true;
}

}  // namespace

server_connection::server_connection(server& owner, std::unique_ptr<transports::connection> connection)
    : owner_(owner),
      connection_(std::move(connection)),
      handle_(connection_->handle()),
      reader_(owner.options().max_message_size, initial_receive_capacity, &owner.budget()),
      trace_messages_(owner.orb().trace().messages()),
      buffers_input_(connection_->kind() == transports::protocol::ssliop),
      accepted_at_(std::chrono::steady_clock::now()) {}

server_connection::~server_connection() {
  if (pending_reserved_ != 0) owner_.budget().release(pending_reserved_);
  connection_->close();
}

// ---- Serving one message (any driver) ----------------------------------------------------------

bool server_connection::serve(const giop::message_view& message, cdr::output_stream& out,
                              instrument::phase_timer& timer) {
  if (trace_messages_) [[unlikely]]
    owner_.orb().trace().message("server", true, peer_address(), message.bytes);
  const giop::protocol& protocol = *giop::protocol_for(message.header.ver.minor);
  last_minor_.store(message.header.ver.minor, std::memory_order_relaxed);
  try {
    switch (message.header.type) {
      case giop::message_type::request:
        serve_request(message, protocol, out, timer);
        return true;
      case giop::message_type::locate_request:
        serve_locate_request(message, protocol, out);
        return true;
      case giop::message_type::cancel_request:
        // Requests are served as they arrive; by the time a cancel is read its request is done.
        return true;
      case giop::message_type::close_connection:
        end_reason_ = "CloseConnection from the peer";
        return false;
      case giop::message_type::message_error:
        end_reason_ = "MessageError from the peer";
        return false;
      case giop::message_type::reply:
      case giop::message_type::locate_reply:
      case giop::message_type::fragment:
        // Replies to a server, or a stray fragment: a protocol error.
        send_message_error(protocol);
        end_reason_ = "a reply or a stray fragment sent to a server";
        return false;
    }
  } catch (const SystemException& e) {
    // A request header that does not decode (no request id to answer with), or a reply the peer
    // would not take (the send timeout, the budget): the connection is done.
    if (e.minor() != minor::send_timed_out && e.minor() != minor::send_failed) send_message_error(protocol);
    trace_end(e.what());
    return false;
  }
  return false;
}

void server_connection::serve_request(const giop::message_view& message, const giop::protocol& protocol,
                                      cdr::output_stream& out, instrument::phase_timer& timer) {
  std::span<const std::byte> reply;
  {
    // What a reply wait inside the servant keeps moving (upcall_wait), innermost first; served
    // inline by a loop that hands over, the servant code is marked so that a watchdog may hand
    // the loop to a spare thread while it runs (server_loop, "Leadership").
    struct upcall_scope {
      upcall_frame frame;
      server_loop* leads;
      upcall_frame* outer = std::exchange(current_upcall, &frame);
      ~upcall_scope() {
        current_upcall = outer;
        if (leads != nullptr) leads->servant_ends(frame.servant_mark);
      }
    } scope{{*this}, marking_loop_};
    if (scope.leads != nullptr) scope.frame.servant_mark = scope.leads->servant_begins(*this);
    reply = dispatch_request(owner_.orb(), message, protocol, out, timer, connection_.get(), this);
  }
  if (reply.empty()) return;  // a oneway
  send(reply);
  timer.mark(instrument::layer::write);
}

void server_connection::serve_locate_request(const giop::message_view& message, const giop::protocol& protocol,
                                             cdr::output_stream& out) {
  giop::locate_request_header header = protocol.decode_locate_request(message);
  iop::octets key_storage;
  std::string_view key = object_key_of(header.target, message.header.ver.minor, key_storage);
  bool here = !key.empty() && owner_.orb().adapters().object_exists(key);
  out.reset();
  auto mark = protocol.begin_locate_reply(
      out, header.request_id, here ? giop::locate_status::object_here : giop::locate_status::unknown_object);
  send(giop::protocol::finish(out, mark));
}

// ---- Sending -----------------------------------------------------------------------------------

void server_connection::send(std::span<const std::byte> message) {
  if (trace_messages_) [[unlikely]]
    owner_.orb().trace().message("server", false, peer_address(), message);
  if (loop_ == nullptr) {
    // A dedicated thread: the only one that sends on its connection, blocking, each wait
    // bounded by the send timeout (SO_SNDTIMEO).
    connection_->send(message.data(), message.size());
    return;
  }
  // An event loop's connection: workers (the thread pool) send beside the loop; served inline,
  // the loop's thread alone sends.
  std::unique_lock lock(send_mutex_, std::defer_lock);
  if (owner_.pool() != nullptr) lock.lock();
  std::size_t sent = 0;
  if (pending_sent_ == pending_.size()) {
    const transports::const_buffer whole{message.data(), message.size()};
    sent = connection_->send_now({&whole, 1});
    if (sent == message.size()) return;
  }
  // The socket is full: keep the rest (drawn from the budget) and stop reading this peer until
  // it takes it.
  if (pending_sent_ != 0) {
    pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(pending_sent_));
    pending_sent_ = 0;
  }
  // The first octets kept are the connection's floor; beyond them they draw on the budget.
  const std::size_t rest = message.size() - sent;
  if (pending_.size() + rest > pending_reserved_ + initial_receive_capacity) {
    const std::size_t more = pending_.size() + rest - pending_reserved_ - initial_receive_capacity;
    if (!owner_.budget().try_reserve(more))
      throw SystemException(SystemExceptionKind::IMP_LIMIT, minor::buffer_limit, CompletionStatus::yes,
                            "no room for a reply to " + peer_address() + " that does not read its replies");
    pending_reserved_ += more;
  }
  pending_.insert(pending_.end(), message.begin() + static_cast<std::ptrdiff_t>(sent), message.end());
  if (output_blocked_.exchange(true)) return;
  if (lock.owns_lock()) lock.unlock();
  if (loop_->events().in_loop_thread()) {
    output_blocked_since_ = loop_->events().batch_time();
    update_interest();
  } else {
    loop_->events().post([self = shared_from_this()] {
      if (!self->is_open()) return;
      self->output_blocked_since_ = std::chrono::steady_clock::now();
      self->update_interest();
    });
  }
}

bool server_connection::flush_pending() noexcept {
  {
    std::lock_guard lock(send_mutex_);
    while (pending_sent_ < pending_.size()) {
      const transports::const_buffer rest{pending_.data() + pending_sent_, pending_.size() - pending_sent_};
      std::size_t sent = 0;
      try {
        sent = connection_->send_now({&rest, 1});
      } catch (const SystemException&) {
        return false;
      }
      if (sent == 0) break;
      pending_sent_ += sent;
      output_blocked_since_ = loop_->events().batch_time();  // progress: the send timeout starts again
    }
    if (pending_sent_ < pending_.size()) return true;
    pending_.clear();
    pending_sent_ = 0;
    if (pending_.capacity() > initial_receive_capacity) {
      owner_.budget().release(pending_reserved_);
      pending_reserved_ = 0;
      decltype(pending_)().swap(pending_);
    }
    output_blocked_.store(false);
  }
  // The peer took everything: read (and serve what waited meanwhile) again.
  if (unreadable_waits_ != 0) return true;
  try {
    return serve_buffered();
  } catch (const SystemException&) {
    return false;
  }
}

void server_connection::send_message_error(const giop::protocol& protocol) noexcept {
  try {
    cdr::output_stream out(64);
    auto mark = protocol.begin_message_error(out);
    auto message = giop::protocol::finish(out, mark);
    if (message_trace& trace = owner_.orb().trace(); trace.messages())
      trace.message("server", false, peer_address(), message);
    const transports::const_buffer whole{message.data(), message.size()};
    // Best effort, never waiting: the peer is about to be disconnected anyway. Only a worker
    // may be sending beside us (the lock is free otherwise).
    std::unique_lock lock(send_mutex_, std::try_to_lock);
    if (lock.owns_lock() && pending_sent_ == pending_.size()) connection_->send_now({&whole, 1});
  } catch (...) {
  }
}

void server_connection::send_close_connection() noexcept {
  if (goodbye_sent_.exchange(true)) return;
  try {
    cdr::output_stream out(64);
    const giop::protocol* protocol = giop::protocol_for(last_minor_.load(std::memory_order_relaxed));
    auto mark = protocol->begin_close_connection(out);
    auto message = giop::protocol::finish(out, mark);
    if (message_trace& trace = owner_.orb().trace(); trace.messages())
      trace.message("server", false, peer_address(), message);
    const transports::const_buffer whole{message.data(), message.size()};
    std::unique_lock lock(send_mutex_, std::try_to_lock);
    // Never after half a reply: the peer would read CloseConnection as the reply's rest.
    if (lock.owns_lock() && pending_sent_ == pending_.size()) connection_->send_now({&whole, 1});
  } catch (...) {
  }
}

void server_connection::answer_bad_header(const giop::header_result& header) noexcept {
  end_reason_ = giop::to_string(header.status).data();  // a literal: null-terminated
  // Not GIOP at all: nothing to answer in. Otherwise MessageError in the version the header
  // names, or the highest we speak when that version is unknown. Either way the connection ends.
  if (header.status == giop::header_status::bad_magic) return;
  const giop::protocol* protocol = giop::protocol_for(header.header.ver.minor);
  if (header.header.ver.major != 1 || protocol == nullptr) protocol = &giop::highest_protocol();
  send_message_error(*protocol);
}

// ---- Dedicated thread --------------------------------------------------------------------------

void server_connection::serve_dedicated(instrument::probe_table& probes, cdr::output_stream& replies) noexcept {
  const server_limits& limits = owner_.limits();
  const std::chrono::milliseconds tick = owner_.tick_interval();
  std::chrono::milliseconds idle_for{0};
  bool timing_message = false;
  std::chrono::steady_clock::time_point message_started;
  bool graceful = false;
  bool moving = false;  // to an event loop (adaptive, crowded), between requests
  dedicated_probes_ = &probes;
  try {
    connection_->set_io_timeouts(limits.send_timeout, tick);
    for (;;) {
      const auto got = reader_.receive_now(*connection_);
      // Asked to close (the asker ended our receiving): before the peer's close, which it looks like.
      if (close_requested_.load()) {
        graceful = close_gracefully_.load();
        end_reason_ = "asked to close";
        break;
      }
      if (got == message_reader::received::closed) {
        end_reason_ = "closed by the peer";
        break;
      }
      if (got == message_reader::received::nothing) {
        // A tick without octets: deadlines.
        if (handshake_overdue(std::chrono::steady_clock::now())) {
          end_reason_ = "TLS handshake timeout";
          break;
        }
        if (reader_.inside_message()) {
          if (limits.message_timeout.count() > 0 &&
              std::chrono::steady_clock::now() - message_started > limits.message_timeout) {
            end_reason_ = "message timeout";
            break;
          }
        } else {
          idle_for += tick;
          if (limits.idle_timeout.count() > 0 && idle_for >= limits.idle_timeout) {
            graceful = true;
            end_reason_ = "idle timeout";
            break;
          }
          reader_.trim();
          if (owner_.crowded()) {
            moving = true;
            break;
          }
        }
        continue;
      }
      idle_for = std::chrono::milliseconds{0};
      // The read includes the wait for the request: the profile starts after it.
      instrument::phase_timer timer(probes);
      serving_.store(true);
      if (close_requested_.load()) {
        // Asked to close before this request was looked at: not served, so the peer, told
        // CloseConnection, may send it again elsewhere.
        serving_.store(false);
        graceful = close_gracefully_.load();
        end_reason_ = "asked to close";
        break;
      }
      bool took_one = false;
      const bool keep = take_buffered(
          reader_, timer, [] { return true; },
          [&](const giop::message_view& message) { return serve(message, replies, timer); },
          [&](const giop::header_result& header) { answer_bad_header(header); }, took_one);
      serving_.store(false);
      if (!retired_buffers_.empty()) [[unlikely]]
        retired_buffers_.clear();  // the requests that nested waits set aside are done
      if (!keep) break;
      if (close_requested_.load()) {
        graceful = close_gracefully_.load();
        end_reason_ = "asked to close";
        break;
      }
      if (!reader_.inside_message() && owner_.crowded()) {
        moving = true;
        break;
      }
      // The timeout bounds how long one message takes to arrive, not a stream of them: a peer
      // that sends without pause may end every read inside its next message.
      if (took_one) timing_message = false;
      if (reader_.inside_message()) {
        const auto now = std::chrono::steady_clock::now();
        if (!timing_message) {
          timing_message = true;
          message_started = now;
        } else if (limits.message_timeout.count() > 0 && now - message_started > limits.message_timeout) {
          end_reason_ = "message timeout";
          break;
        }
      } else {
        timing_message = false;
      }
    }
  } catch (const SystemException& e) {
    // A broken connection, a reply the peer would not take, a protocol error, the budget.
    if (e.minor() != minor::send_timed_out && e.minor() != minor::send_failed && e.minor() != minor::recv_failed)
      send_message_error(giop::highest_protocol());
    trace_end(e.what());
    moving = false;
  }
  if (moving) {
    try {
      owner_.move_to_loop(shared_from_this());
      return;  // the loop drives it from now on; this thread parks
    } catch (...) {
      end_reason_ = "could not move to an event loop";  // no memory for the task: it ends here
    }
  }
  if (graceful) send_close_connection();
  if (!ended_.exchange(true)) {
    trace_end(end_reason_.load());
    connection_->shut_down();
    owner_.connection_ended();
  }
}

void server_connection::trace_end(std::string_view why) noexcept {
  message_trace& trace = owner_.orb().trace();
  if (!trace.connections() || traced_end_.exchange(true)) return;
  try {
    trace.connection("server", "ended", peer_address(), why);
  } catch (...) {
  }
}

// ---- Event loop --------------------------------------------------------------------------------

void server_connection::attach(server_loop& loop) {
  loop_ = &loop;
  if (loop.hands_over()) marking_loop_ = &loop;
  connection_->set_non_blocking(true);
  last_activity_ = loop.events().batch_time();
  interest_ = transports::io_events::readable;
  loop.events().add(handle_, *this, interest_);
}

void server_connection::on_io(transports::native_handle, unsigned events) {
  try {
    // Paused (the interest is none or writable only), epoll still reports a hang-up or an error:
    // the peer is gone, and level-triggered it would be reported for ever.
    if ((events & transports::io_events::hangup) && interest_ != transports::io_events::readable &&
        !(events & transports::io_events::writable)) {
      end(false, "the peer hung up");
      return;
    }
    if ((events & transports::io_events::writable) && !flush_pending()) {
      end(false, "the peer is gone");
      return;
    }
    if ((events & transports::io_events::readable) && !on_readable()) end(false);
  } catch (const SystemException& e) {
    // A protocol error (MARSHAL), the budget (IMP_LIMIT), a broken connection: this connection
    // is done; the others go on.
    if (e.minor() != minor::recv_failed && e.minor() != minor::send_failed)
      send_message_error(giop::highest_protocol());
    trace_end(e.what());
    end(false);
  }
}

bool server_connection::on_readable() {
  if (output_blocked_.load(std::memory_order_relaxed) || paused_for_pool_ || paused_for_shutdown_ ||
      unreadable_waits_ != 0)
    return true;  // an event from before the pause
  instrument::phase_timer timer(loop_->probes());
  const auto got = reader_.receive_now(*connection_);
  if (got == message_reader::received::closed) {
    end_reason_ = "closed by the peer";
    return false;
  }
  if (got == message_reader::received::nothing) {
    if (buffers_input_ && connection_->read_waits_for_output()) [[unlikely]]
      wait_for_output_to_read();
    return true;
  }
  last_activity_ = loop_->events().batch_time();
  timer.mark(instrument::layer::read);
  return serve_buffered(timer);
}

bool server_connection::serve_buffered() {
  instrument::phase_timer timer(loop_->probes());
  return serve_buffered(timer);
}

bool server_connection::serve_buffered(instrument::phase_timer& timer) {
  worker_pool* pool = owner_.pool();
  // Read on while the peer takes our replies, and, for the pool, while it has room.
  auto go_on = [&] {
    if (output_blocked_.load(std::memory_order_relaxed) || paused_for_shutdown_) return false;
    if (pool == nullptr) return true;
    if (in_flight_.load() >= max_in_flight_per_connection) {
      waiting_for_pool_.store(true);
      // A worker may have finished between the load and the store: look again.
      if (in_flight_.load() >= max_in_flight_per_connection || !waiting_for_pool_.exchange(false)) {
        paused_for_pool_ = true;
        return false;
      }
    }
    if (pool->has_room(*this)) return true;
    paused_for_pool_ = true;
    return false;
  };
  auto take = [&](const giop::message_view& message) {
    if (pool == nullptr) return serve(message, loop_->replies(), timer);
    in_flight_.fetch_add(1);
    if (pool->submit(shared_from_this(), message)) return true;
    in_flight_.fetch_sub(1);
    send_message_error(*giop::protocol_for(message.header.ver.minor));
    return false;
  };
  bool took_one = false;
  if (!take_buffered(
          reader_, timer, go_on, take, [&](const giop::header_result& header) { answer_bad_header(header); }, took_one))
    return false;
  note_message_progress(loop_->events().batch_time(), took_one);
  update_interest();
  return true;
}

void server_connection::note_message_progress(std::chrono::steady_clock::time_point now, bool took_one) noexcept {
  const bool inside = reader_.inside_message();
  if (inside && (!inside_message_ || took_one)) message_started_ = now;
  inside_message_ = inside;
}

void server_connection::update_interest() {
  if (ended_.load(std::memory_order_relaxed)) return;
  const bool blocked = output_blocked_.load(std::memory_order_relaxed);
  unsigned wanted = transports::io_events::none;
  if (blocked) wanted |= transports::io_events::writable;
  else if (!paused_for_pool_ && !paused_for_shutdown_ && unreadable_waits_ == 0)
    wanted |= transports::io_events::readable;
  if (buffers_input_ && (wanted & transports::io_events::readable)) [[unlikely]]
    read_buffered_soon();
  if (wanted == interest_) return;
  loop_->events().modify(handle_, wanted);
  interest_ = wanted;
}

void server_connection::wait_for_output_to_read() {
  // TLS: reading needs the peer to take what the read must write first (a handshake message, a
  // key update). As for a reply it does not read: wait for writable, bounded by the send timeout.
  {
    std::unique_lock lock(send_mutex_, std::defer_lock);
    if (owner_.pool() != nullptr) lock.lock();
    if (output_blocked_.exchange(true)) return;
  }
  output_blocked_since_ = loop_->events().batch_time();
  update_interest();
}

void server_connection::read_buffered_soon() {
  // TLS read ahead of what the reader took: the socket may never be readable again for it.
  if (reread_posted_ || !connection_->has_buffered_input()) return;
  reread_posted_ = true;
  loop_->events().post([self = shared_from_this()] {
    self->reread_posted_ = false;
    if (!self->ended_.load()) self->on_io(self->handle_, transports::io_events::readable);
  });
}

void server_connection::pause_reading() noexcept {
  paused_for_shutdown_ = true;
  try {
    update_interest();
  } catch (...) {
  }
}

void server_connection::resume_reading() noexcept {
  if (ended_.load() || paused_for_shutdown_) return;
  paused_for_pool_ = false;
  try {
    if (!serve_buffered()) end(false);
  } catch (const SystemException&) {
    end(false);
  }
}

bool server_connection::handshake_overdue(std::chrono::steady_clock::time_point now) const noexcept {
  return buffers_input_ && !connection_->handshake_done() && now - accepted_at_ > owner_.limits().handshake_timeout;
}

void server_connection::check_deadlines(std::chrono::steady_clock::time_point now) noexcept {
  const server_limits& limits = owner_.limits();
  if (handshake_overdue(now)) {
    end(false, "TLS handshake timeout");
    return;
  }
  if (output_blocked_.load(std::memory_order_relaxed)) {
    if (now - output_blocked_since_ > limits.send_timeout) end(false, "send timeout: the peer does not read");
    return;
  }
  if (nested_waits_ != 0) return;  // a request in progress: it is not idle
  if (inside_message_) {
    if (limits.message_timeout.count() > 0 && now - message_started_ > limits.message_timeout)
      end(false, "message timeout");
    return;
  }
  if (in_flight_.load(std::memory_order_relaxed) != 0) return;
  const auto idle = now - last_activity_;
  if (limits.idle_timeout.count() > 0 && idle > limits.idle_timeout) {
    end(true, "idle timeout");
    return;
  }
  if (idle > std::chrono::seconds(1)) reader_.trim();
}

void server_connection::end(bool graceful, std::string_view why) noexcept {
  if (ended_.exchange(true)) return;
  trace_end(why.empty() ? std::string_view(end_reason_.load()) : why);
  // CloseConnection only when every request read has been answered: the peer may send again
  // whatever has no reply (GIOP), so nothing it sent may be in progress.
  if (graceful && in_flight_.load() == 0 && nested_waits_ == 0) send_close_connection();
  loop_->events().remove(handle_);
  interest_ = transports::io_events::none;
  connection_->shut_down();
  loop_->forget(*this);
  owner_.connection_ended();
}

// ---- Nested waits ------------------------------------------------------------------------------

void server_connection::suspend_for_nested_wait(page_block& retired) noexcept {
  ++nested_waits_;
  if (unreadable_waits_ == 0 && reader_.retire_buffer(retired)) return;
  if (unreadable_waits_++ != 0) return;
  try {
    update_interest();
  } catch (...) {
    // epoll refused (out of memory): on_readable reads nothing while it waits anyway.
  }
}

void server_connection::resume_after_nested_wait() noexcept {
  --nested_waits_;
  if (unreadable_waits_ == 0 || --unreadable_waits_ != 0) return;
  try {
    update_interest();
  } catch (...) {
    end(false, "could not read again after a nested wait");
  }
}

bool server_connection::begin_dedicated_wait() noexcept {
  ++nested_waits_;
  if (unreadable_waits_ == 0) {
    try {
      retired_buffers_.emplace_back();
      if (reader_.retire_buffer(retired_buffers_.back())) return true;
    } catch (...) {
    }
  }
  ++unreadable_waits_;
  return false;
}

void server_connection::end_dedicated_wait() noexcept {
  --nested_waits_;
  if (unreadable_waits_ != 0) --unreadable_waits_;
}

bool server_connection::serve_while_waiting(cdr::output_stream& replies) noexcept {
  try {
    // Polled readable: a blocking socket returns at once.
    const auto got = reader_.receive_now(*connection_);
    if (got == message_reader::received::closed) return false;  // the outer request's driver sees it too
    if (got == message_reader::received::nothing) return true;
    instrument::phase_timer timer(*dedicated_probes_);
    bool took_one = false;
    if (take_buffered(
            reader_, timer, [] { return true; },
            [&](const giop::message_view& message) { return serve(message, replies, timer); },
            [&](const giop::header_result& header) { answer_bad_header(header); }, took_one))
      return true;
  } catch (const SystemException& e) {
    trace_end(e.what());
  }
  // A bad message, CloseConnection from the peer, a failed read or reply: no more reading here.
  connection_->shut_down();
  return false;
}

// ---- Workers -----------------------------------------------------------------------------------

void server_connection::serve_queued(const giop::message_view& message, cdr::output_stream& replies,
                                     instrument::phase_timer& timer) noexcept {
  bool keep = false;
  if (is_open()) {
    try {
      keep = serve(message, replies, timer);
    } catch (...) {
    }
  }
  if (!keep) request_close(false);
  in_flight_.fetch_sub(1);
  if (waiting_for_pool_.exchange(false)) post_resume();
}

void server_connection::post_resume() noexcept {
  try {
    loop_->events().post([self = shared_from_this()] { self->resume_reading(); });
  } catch (...) {
    // Out of memory for the task: the connection stays paused until its deadlines end it.
  }
}

// ---- Any thread --------------------------------------------------------------------------------

void server_connection::request_close(bool graceful) noexcept {
  if (ended_.load()) return;
  if (server_loop* loop = assigned_loop_.load(std::memory_order_acquire)) {
    // The task may run before the adoption (posted after the loop was assigned, by a dedicated
    // thread handing the connection over): then the adoption ends it.
    auto close = [self = shared_from_this(), graceful] {
      if (self->loop_ == nullptr) {
        self->close_gracefully_.store(graceful);
        self->close_requested_.store(true);
        return;
      }
      self->end(graceful, "asked to close");
    };
    if (loop->events().in_loop_thread()) {
      close();
    } else {
      try {
        loop->events().post(std::move(close));
      } catch (...) {
        connection_->shut_down();  // out of memory for the task: the loop sees the end by itself
      }
    }
    return;
  }
  // A dedicated thread: it ends the connection itself, after the request it is serving if any,
  // and says CloseConnection itself (it alone sends). Waking it ends only its receiving.
  close_gracefully_.store(graceful);
  close_requested_.store(true);
  if (!serving_.load()) {
    if (graceful) connection_->shut_down_receiving();
    else connection_->shut_down();
  }
}

}  // namespace switchyard::core
