#include "orb/core/server_connection.h"

#include <sys/socket.h>

#include <exception>

#include "orb/adapter/adapter_registry.h"
#include "orb/core/object_state.h"
#include "orb/core/orb_impl.h"
#include "orb/core/service_contexts.h"
#include "orb/giop/messages.h"
#include "orb/giop/plain_messages.h"
#include "orb/ior/iiop_profile.h"
#include "orb/ior/ior.h"
#include "orb/ior/tags.h"
#include "switchyard/exception.h"
#include "switchyard/invocation.h"
#include "switchyard/object_io.h"
#include "switchyard/server_request.h"
#include "switchyard/servant.h"

namespace switchyard::core {

namespace {

// Set while a thread runs a servant: ORB::shutdown(true) from there would wait for itself.
thread_local bool in_upcall = false;

// The object key a request names, whatever its addressing: a view for KeyAddr (the common
// case); for ProfileAddr and ReferenceAddr the key is copied out of the profile into `storage`.
std::string_view object_key_of(const giop::target_address& target, std::uint8_t minor,
                               iop::octets& storage) {
  auto as_view = [](std::span<const std::byte> bytes) {
    return std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  };
  switch (target.disposition) {
    case giop::addressing_disposition::key_addr:
      return as_view(target.object_key);
    case giop::addressing_disposition::profile_addr: {
      auto in = target.profile.stream(minor);
      std::uint32_t tag = in.read_ulong();
      std::uint32_t length = in.read_length(1);
      if (tag != iop::tag_internet_iop) return {};
      storage = iop::decode_iiop_profile({in.take(length), length}).object_key;
      return as_view(storage);
    }
    case giop::addressing_disposition::reference_addr: {
      auto in = target.ior.stream(minor);
      iop::ior reference = iop::read_ior(in);
      if (target.selected_profile_index >= reference.profiles.size()) return {};
      const auto& profile = reference.profiles[target.selected_profile_index];
      if (profile.tag != iop::tag_internet_iop) return {};
      storage = iop::decode_iiop_profile(profile.data).object_key;
      return as_view(storage);
    }
  }
  return {};
}

}  // namespace

// The reply_sink of one request: writes the reply header into `out` on demand.
class server_connection::request_reply final : public reply_sink {
 public:
  request_reply(const giop::protocol& protocol, cdr::output_stream& out) noexcept
      : protocol_(protocol), out_(out) {}

  cdr::output_stream& begin_reply(std::uint32_t request_id, reply_status status) override {
    out_.reset();
    mark_ = status == reply_status::no_exception
                ? protocol_.begin_plain_reply(out_, request_id)
                : protocol_.begin_reply(out_, request_id, static_cast<giop::reply_status>(status));
    started_ = true;
    return out_;
  }

  void system_exception(std::uint32_t request_id, const SystemException& e) {
    begin_reply(request_id, reply_status::system_exception);
    giop::write_system_exception(out_, e);
  }

  bool started() const noexcept { return started_; }
  std::span<const std::byte> finish() noexcept { return giop::protocol::finish(out_, mark_); }

 private:
  const giop::protocol& protocol_;
  cdr::output_stream& out_;
  giop::message_mark mark_{};
  bool started_ = false;
};

server_connection::server_connection(orb_impl& orb, std::unique_ptr<transports::connection> connection)
    : orb_(orb),
      connection_(std::move(connection)),
      handle_(connection_->handle()),
      reader_(orb.options().max_message_size),
      replies_(4096) {}

server_connection::~server_connection() { close(); }

transports::readable_handler::disposition server_connection::on_readable(transports::native_handle) {
  instrument::phase_timer timer(orb_.reactor_probes());
  try {
    if (!reader_.receive(*connection_)) {
      close();
      return disposition::remove;
    }
    timer.mark(instrument::layer::read);
    for (;;) {
      auto next = reader_.next();
      if (next.what == message_reader::status::need_more) break;
      if (next.what == message_reader::status::bad_header) {
        answer_bad_header(next.header);
        return disposition::remove;
      }
      if (orb_.hand_to_workers(shared_from_this(), next.message)) continue;
      serve(next.message, replies_, timer);
      if (!connection_->is_open()) return disposition::remove;
      if (!reader_.has_unread()) break;
    }
  } catch (const SystemException&) {
    // A broken connection (COMM_FAILURE) or a fragment protocol error (MARSHAL): this
    // connection is done; the others go on.
    if (connection_->is_open()) send_message_error(giop::highest_protocol(), replies_);
    close();
    return disposition::remove;
  }
  return disposition::keep;
}

void server_connection::answer_bad_header(const giop::header_result& header) noexcept {
  // Not GIOP at all: nothing to answer in. Otherwise MessageError in the version the header
  // names, or the highest we speak when that version is unknown. Either way the connection ends.
  if (header.status != giop::header_status::bad_magic) {
    const giop::protocol* protocol = giop::protocol_for(header.header.ver.minor);
    if (header.header.ver.major != 1 || protocol == nullptr) protocol = &giop::highest_protocol();
    send_message_error(*protocol, replies_);
  }
  close();
}

void server_connection::serve(const giop::message_view& message, cdr::output_stream& out,
                              instrument::phase_timer& timer) {
  const giop::protocol& protocol = *giop::protocol_for(message.header.ver.minor);
  last_minor_.store(message.header.ver.minor, std::memory_order_relaxed);
  try {
    switch (message.header.type) {
      case giop::message_type::request:
        serve_request(message, protocol, out, timer);
        break;
      case giop::message_type::locate_request:
        serve_locate_request(message, protocol, out);
        break;
      case giop::message_type::cancel_request:
        // Requests are served as they arrive; by the time a cancel is read its request is done.
        break;
      case giop::message_type::close_connection:
      case giop::message_type::message_error:
        close();
        break;
      case giop::message_type::reply:
      case giop::message_type::locate_reply:
      case giop::message_type::fragment:
        // Replies to a server, or a stray fragment: a protocol error.
        send_message_error(protocol, out);
        close();
        break;
    }
  } catch (const SystemException& e) {
    // A request header that does not decode: no request id to answer with.
    send_message_error(protocol, out);
    close();
  }
}

void server_connection::serve_request(const giop::message_view& message, const giop::protocol& protocol,
                                      cdr::output_stream& out, instrument::phase_timer& timer) {
  giop::request_header header;
  if (!giop::decode_plain_request(message, header)) header = protocol.decode_request(message);
  iop::octets key_storage;
  std::string_view key = object_key_of(header.target, message.header.ver.minor, key_storage);

  std::uint32_t operation_index = no_operation_index;
  if (!header.service_contexts.empty()) {
    if (auto context = header.service_contexts.find(operation_index_context_id))
      operation_index = read_operation_index(*context).value_or(no_operation_index);
  }

  timer.mark(instrument::layer::parse);

  request_reply sink(protocol, out);
  server_request request(header.body, header.operation, header.request_id, header.response_expected(), sink);
  request.set_timer(&timer);
  adapter::dispatch_target target;
  try {
    const adapter::operation_dispatch* operations = nullptr;
    auto& adapters = orb_.adapters();
    auto status = adapters.find_servant(key, header.operation, target, operations);
    timer.mark(instrument::layer::servant_demux, orb_.servant_demux_label());
    if (status == adapter::lookup_status::found && operations != nullptr) {
      status = adapter::adapter_registry::find_operation(*operations, header.operation, operation_index, target);
      timer.mark(instrument::layer::operation_demux, orb_.operation_demux_label());
    }
    switch (status) {
      case adapter::lookup_status::found: {
        in_upcall = true;
        struct upcall_end {
          ~upcall_end() { in_upcall = false; }
        } end;
        reference_binding_scope references(orb_);  // references in the arguments bind to this ORB
        target.skeleton(*target.target, request);
        break;
      }
      case adapter::lookup_status::no_object:
        throw SystemException(SystemExceptionKind::OBJECT_NOT_EXIST, minor::omg_minor(2), CompletionStatus::no,
                              "no object with this key");
      case adapter::lookup_status::no_operation:
        throw SystemException(SystemExceptionKind::BAD_OPERATION, minor::omg_minor(2), CompletionStatus::no,
                              "no operation '" + std::string(header.operation) + "'");
    }
  } catch (const SystemException& e) {
    if (!header.response_expected()) return;
    sink.system_exception(header.request_id, e);
  } catch (const forward_request& forward) {
    if (!header.response_expected()) return;
    if (forward.target().is_nil()) {
      sink.system_exception(header.request_id, SystemException(SystemExceptionKind::BAD_PARAM, minor::omg_minor(0),
                                                               CompletionStatus::no, "forward to a nil reference"));
    } else {
      auto& out = sink.begin_reply(header.request_id, reply_status::location_forward);
      iop::write_ior(out, forward.target().state()->ior());
    }
  } catch (const std::exception& e) {
    if (!header.response_expected()) return;
    sink.system_exception(header.request_id,
                          SystemException(SystemExceptionKind::UNKNOWN, minor::omg_minor(1),
                                          CompletionStatus::maybe, e.what()));
  } catch (...) {
    if (!header.response_expected()) return;
    sink.system_exception(header.request_id, SystemException(SystemExceptionKind::UNKNOWN, minor::omg_minor(1),
                                                             CompletionStatus::maybe));
  }
  if (!header.response_expected()) return;
  if (!sink.started()) request.reply();  // a void operation: the header is the whole reply
  auto reply = sink.finish();
  timer.mark(instrument::layer::marshal);
  send(reply);
  timer.mark(instrument::layer::write);
}

void server_connection::serve_locate_request(const giop::message_view& message,
                                             const giop::protocol& protocol, cdr::output_stream& out) {
  giop::locate_request_header header = protocol.decode_locate_request(message);
  iop::octets key_storage;
  std::string_view key = object_key_of(header.target, message.header.ver.minor, key_storage);
  bool here = !key.empty() && orb_.adapters().object_exists(key);
  out.reset();
  auto mark = protocol.begin_locate_reply(out, header.request_id,
                                          here ? giop::locate_status::object_here : giop::locate_status::unknown_object);
  send(giop::protocol::finish(out, mark));
}

void server_connection::send_message_error(const giop::protocol& protocol, cdr::output_stream& out) noexcept {
  try {
    out.reset();
    auto mark = protocol.begin_message_error(out);
    send(giop::protocol::finish(out, mark));
  } catch (...) {
    // The peer is gone; nothing more to tell it.
  }
}

void server_connection::send(std::span<const std::byte> message) {
  std::lock_guard lock(send_mutex_);
  connection_->send(message.data(), message.size());
}

void server_connection::serve_blocking(instrument::probe_table& probes) noexcept {
  try {
    for (;;) {
      if (!reader_.receive(*connection_)) break;
      // The read includes the wait for the request: the profile starts after it.
      instrument::phase_timer timer(probes);
      for (;;) {
        auto next = reader_.next();
        if (next.what == message_reader::status::need_more) break;
        if (next.what == message_reader::status::bad_header) {
          answer_bad_header(next.header);
          return;
        }
        serve(next.message, replies_, timer);
        if (!connection_->is_open()) return;
        if (!reader_.has_unread()) break;  // the usual case: one request per receive
        timer.restart();
      }
    }
  } catch (const SystemException&) {
    // Broken connection or a protocol error: this connection is done.
    if (connection_->is_open()) send_message_error(giop::highest_protocol(), replies_);
  }
  close();
}

void server_connection::wake() noexcept { ::shutdown(handle_, SHUT_RDWR); }

void server_connection::say_goodbye() noexcept {
  if (!connection_->is_open()) return;
  try {
    cdr::output_stream out(64);
    const giop::protocol* protocol = giop::protocol_for(last_minor_.load(std::memory_order_relaxed));
    auto mark = protocol->begin_close_connection(out);
    send(giop::protocol::finish(out, mark));
  } catch (...) {
  }
  wake();
}

void server_connection::close_gracefully() noexcept {
  if (!connection_->is_open()) return;
  try {
    cdr::output_stream out(64);
    const giop::protocol* protocol = giop::protocol_for(last_minor_.load(std::memory_order_relaxed));
    auto mark = protocol->begin_close_connection(out);
    send(giop::protocol::finish(out, mark));
  } catch (...) {
  }
  close();
}

void server_connection::close() noexcept {
  // Out of the reactor before the descriptor goes: a closed descriptor cannot be removed from
  // epoll, and the next connection would get its number and this handler's registration.
  if (connection_->is_open()) orb_.reactor().remove(handle_);
  connection_->close();
}

bool server_request_in_upcall() noexcept { return in_upcall; }

}  // namespace switchyard::core
