#include "orb/core/client_connection.h"

#include <poll.h>

#include "orb/giop/messages.h"
#include "orb/giop/protocol.h"
#include "switchyard/exception.h"

namespace switchyard::core {

namespace {

// The request id of a Reply or LocateReply, found as cheaply as its version allows.
std::uint32_t reply_request_id(const giop::message_view& message) {
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

}  // namespace

client_connection::client_connection(std::unique_ptr<transports::connection> connection,
                                     std::uint32_t max_body_size)
    : connection_(std::move(connection)), reader_(max_body_size) {}

client_connection::~client_connection() { close(); }

void client_connection::send(std::span<const std::byte> message) {
  if (!is_open())
    throw SystemException(SystemExceptionKind::COMM_FAILURE, minor::connection_closed,
                          CompletionStatus::no, "connection to " + peer_address() + " is closed");
  std::lock_guard lock(send_mutex_);
  try {
    connection_->send(message.data(), message.size());
  } catch (const SystemException&) {
    close();
    throw;
  }
}

void client_connection::send_gather(std::span<const transports::const_buffer> pieces) {
  if (!is_open())
    throw SystemException(SystemExceptionKind::COMM_FAILURE, minor::connection_closed,
                          CompletionStatus::no, "connection to " + peer_address() + " is closed");
  std::lock_guard lock(send_mutex_);
  try {
    connection_->send_gather(pieces);
  } catch (const SystemException&) {
    close();
    throw;
  }
}

void client_connection::release_reader() noexcept {
  reader_busy_.store(false);
  // A waiter that registered before the store is woken; one that registers after it finds the
  // role free. Nobody waiting (the single-threaded client): no lock at all.
  if (waiters_.load() > 0) {
    std::lock_guard lock(state_mutex_);
    state_changed_.notify_all();
  }
}

void client_connection::fail(std::uint32_t minor_code, const std::string& why, bool transient) {
  close();
  throw SystemException(transient ? SystemExceptionKind::TRANSIENT : SystemExceptionKind::COMM_FAILURE,
                        minor_code, transient ? CompletionStatus::no : CompletionStatus::maybe,
                        why + " (" + peer_address() + ")");
}

bool client_connection::read_message(message_reader::result& out,
                                     std::optional<std::chrono::steady_clock::time_point> deadline) {
  // Nothing buffered (a lone caller's usual case): straight to the socket.
  // `out` comes in fresh (need_more) from the caller.
  if (reader_.has_unread()) out = reader_.next();
  for (;;) {
    if (out.what == message_reader::status::message) return true;
    if (out.what == message_reader::status::bad_header)
      fail(minor::bad_message, "malformed GIOP header from server: " +
                                   std::string(giop::to_string(out.header.status)));
    if (deadline) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(*deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) return false;
      pollfd ready{connection_->handle(), POLLIN, 0};
      int n = ::poll(&ready, 1, static_cast<int>(std::min<long long>(left.count() + 1, 1 << 30)));
      if (n == 0) return false;
    }
    if (!reader_.receive(*connection_)) fail(minor::connection_closed, "server closed the connection");
    out = reader_.next();
  }
}

void client_connection::wait_for_reply(std::uint32_t request_id,
                                       std::optional<std::chrono::steady_clock::time_point> deadline,
                                       reply& into) {
  into.clear();
  // The lone caller: no reader, nothing stashed, the connection open: take the role without
  // the lock. Checked again after taking it: a reader before us may have stashed our reply.
  bool reader = false;
  if (stashed_.load() == 0 && is_open() && !reader_busy_.exchange(true)) {
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
        into.copy_ = std::move(it->second);
        stash_.erase(it);
        stashed_.fetch_sub(1);
        into.message_ = giop::make_message_view(into.copy_, 0xffffffffu);
        return;
      }
      if (closed_by_server_)
        throw SystemException(SystemExceptionKind::TRANSIENT, minor::connection_closed, CompletionStatus::no,
                              "server closed the connection (" + peer_address() + ")");
      if (!is_open())
        throw SystemException(SystemExceptionKind::COMM_FAILURE, minor::connection_closed,
                              CompletionStatus::maybe, "connection to " + peer_address() + " broke");
      if (!reader_busy_.exchange(true)) break;
      if (deadline) {
        if (state_changed_.wait_until(lock, *deadline) == std::cv_status::timeout && reader_busy_.load())
          throw SystemException(SystemExceptionKind::TIMEOUT, minor::omg_minor(0), CompletionStatus::maybe,
                                "no reply within the call timeout");
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
    if (!read_message(got, deadline))
      throw SystemException(SystemExceptionKind::TIMEOUT, minor::omg_minor(0), CompletionStatus::maybe,
                            "no reply within the call timeout");
    const giop::message_view& message = got.message;
    switch (message.header.type) {
      case giop::message_type::reply:
      case giop::message_type::locate_reply: {
        std::uint32_t id = reply_request_id(message);
        if (id == request_id) {
          into.owner_ = this;
          into.message_ = message;
          role.kept = true;
          return;
        }
        std::lock_guard state(state_mutex_);
        if (abandoned_.erase(id) == 0) {
          auto [it, added] =
              stash_.insert_or_assign(id, std::vector<std::byte>(message.bytes.begin(), message.bytes.end()));
          if (added) stashed_.fetch_add(1);
        }
        state_changed_.notify_all();
        break;
      }
      case giop::message_type::close_connection: {
        {
          std::lock_guard state(state_mutex_);
          closed_by_server_ = true;
        }
        close();
        state_changed_.notify_all();
        throw SystemException(SystemExceptionKind::TRANSIENT, minor::connection_closed,
                              CompletionStatus::no, "server closed the connection (" + peer_address() + ")");
      }
      case giop::message_type::message_error:
        fail(minor::bad_message, "server answered MessageError");
      default:
        // Requests from the server (no bidirectional GIOP here), cancels: ignored.
        break;
    }
  }
}

void client_connection::abandon(std::uint32_t request_id) {
  std::lock_guard lock(state_mutex_);
  if (stash_.erase(request_id) != 0) stashed_.fetch_sub(1);
  else abandoned_.insert_or_assign(request_id, true);
}

void client_connection::close() noexcept {
  if (closed_.exchange(true, std::memory_order_acq_rel)) return;
  connection_->close();
  // Through the lock: a waiter between its check of is_open() and its wait must not miss this.
  std::lock_guard lock(state_mutex_);
  state_changed_.notify_all();
}

}  // namespace switchyard::core
