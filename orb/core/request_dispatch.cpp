#include "orb/core/request_dispatch.h"

#include <algorithm>
#include <exception>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "orb/adapter/adapter_registry.h"
#include "orb/adapter/object_key.h"
#include "orb/core/interception.h"
#include "orb/core/object_state.h"
#include "orb/core/orb_impl.h"
#include "orb/core/reply_sink.h"
#include "orb/core/service_contexts.h"
#include "orb/giop/messages.h"
#include "orb/giop/plain_messages.h"
#include "orb/ior/iiop_profile.h"
#include "orb/ior/ior.h"
#include "orb/ior/tags.h"
#include "switchyard/exception.h"
#include "switchyard/interceptors.h"
#include "switchyard/invocation.h"
#include "switchyard/object_io.h"
#include "switchyard/security.h"
#include "switchyard/servant.h"
#include "switchyard/server_request.h"
#include "transports/connection.h"

namespace switchyard::core {

namespace {

// The servant this thread runs (nullptr: none; ORB::shutdown(true) from one would wait for
// itself) came from: the connection its request came on, or `collocated_caller`.
constinit thread_local const transports::connection* upcall_from = nullptr;
// Stands for "a collocated call" in upcall_from; never dereferenced.
const char collocated_marker = 0;
const transports::connection* const collocated_caller =
    reinterpret_cast<const transports::connection*>(&collocated_marker);

// The reply_sink of one request: writes the reply header into `out` on demand.
class request_reply final : public reply_sink {
 public:
  request_reply(const giop::protocol& protocol, cdr::output_stream& out) noexcept : protocol_(protocol), out_(out) {}

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

// SyncScope WITH_SERVER: the target is found, so the caller may go on. What the upcall raises
// after this is no one's, as for any one-way call.
[[gnu::cold]] void reply_before_upcall(giop::request_header& header, request_reply& sink, early_reply_channel& early) {
  header.response_flags = giop::response_flags::none;
  sink.begin_reply(header.request_id, reply_status::no_exception);
  early.send_early(sink.finish());
}

}  // namespace

std::string_view object_key_of(const giop::target_address& target, std::uint8_t minor, iop::octets& storage) {
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

namespace {

// An adapter with an access policy lets in only the callers it names (switchyard/security.h).
void check_caller(const access_policy& policy, const transports::connection* from) {
  if (from == nullptr) {
    if (policy.allow_collocated) return;
    throw SystemException(SystemExceptionKind::NO_PERMISSION, minor::peer_not_allowed, CompletionStatus::no,
                          "collocated calls are not allowed on this adapter");
  }
  const peer_identity* caller = from->verified_peer();
  if (caller != nullptr) {
    auto listed = [](const std::vector<std::string>& names, const std::string& name) {
      return std::find(names.begin(), names.end(), name) != names.end();
    };
    if (listed(policy.allowed_subjects, caller->subject) || listed(policy.allowed_common_names, caller->common_name))
      return;
    if (policy.allow && policy.allow(*caller)) return;
  }
  throw SystemException(SystemExceptionKind::NO_PERMISSION, minor::peer_not_allowed, CompletionStatus::no,
                        caller == nullptr ? "a caller without a verified certificate may not call this object"
                                          : "caller '" + caller->subject + "' may not call this object");
}

}  // namespace

namespace {

// The request's header, its object key and the operation index our clients send.
struct decoded_request {
  giop::request_header header;
  iop::octets key_storage;
  std::string_view key;
  std::uint32_t operation_index = no_operation_index;
};

// `plain_first`: try the straight-line decoder of the common header first (the plain path only:
// a second call of it, from the intercepted path, would keep the compiler from inlining it).
template <bool plain_first>
[[gnu::always_inline]] inline void decode(const giop::message_view& message, const giop::protocol& protocol,
                                          decoded_request& request) {
  giop::request_header& header = request.header;
  if (!plain_first || !giop::decode_plain_request(message, header)) header = protocol.decode_request(message);
  request.key = object_key_of(header.target, message.header.ver.minor, request.key_storage);
  if (!header.service_contexts.empty()) {
    if (auto context = header.service_contexts.find(operation_index_context_id))
      request.operation_index = read_operation_index(*context).value_or(no_operation_index);
  }
}

// Finds the servant and the skeleton, and runs it; raises OBJECT_NOT_EXIST or BAD_OPERATION
// when there is none. `before_upcall` runs once both are found (the interceptors'
// receive_request; nothing without them).
template <class BeforeUpcall>
[[gnu::always_inline]] inline void find_and_run(orb_impl& orb, const decoded_request& decoded, server_request& request,
                                                instrument::phase_timer& timer, const transports::connection* from,
                                                BeforeUpcall&& before_upcall) {
  const giop::request_header& header = decoded.header;
  adapter::dispatch_target target;
  const adapter::operation_dispatch* operations = nullptr;
  auto& adapters = orb.adapters();
  auto status = adapters.find_servant(decoded.key, header.operation, target, operations);
  timer.mark(instrument::layer::servant_demux, instrument::strategy_label(target.servant_demux));
  if (status == adapter::lookup_status::found && operations != nullptr) {
    status = adapter::adapter_registry::find_operation(*operations, header.operation, decoded.operation_index, target);
    timer.mark(instrument::layer::operation_demux, instrument::strategy_label(target.operation_demux));
  }
  switch (status) {
    case adapter::lookup_status::found: {
      if (target.access != nullptr) [[unlikely]]
        check_caller(*target.access, from);
      before_upcall();
      // A collocated call made from inside an upcall nests: the outer upcall goes on after it.
      struct upcall_scope {
        const transports::connection* outer;
        explicit upcall_scope(const transports::connection* from) noexcept
            : outer(std::exchange(upcall_from, from != nullptr ? from : collocated_caller)) {}
        ~upcall_scope() { upcall_from = outer; }
      } upcall(from);
      reference_binding_scope references(orb);  // references in the arguments bind to this ORB
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
}

std::span<const std::byte> dispatch_intercepted(orb_impl& orb, const giop::message_view& message,
                                                const giop::protocol& protocol, cdr::output_stream& out,
                                                instrument::phase_timer& timer, const transports::connection* from);

}  // namespace

std::span<const std::byte> dispatch_request(orb_impl& orb, const giop::message_view& message,
                                            const giop::protocol& protocol, cdr::output_stream& out,
                                            instrument::phase_timer& timer, const transports::connection* from,
                                            early_reply_channel* early) {
  // Portable interceptors: the ORB's pointer is null without them, and this is all they cost.
  if (orb.server_interceptors() != nullptr) [[unlikely]]
    return dispatch_intercepted(orb, message, protocol, out, timer, from);
  decoded_request decoded;
  decode<true>(message, protocol, decoded);
  giop::request_header& header = decoded.header;

  timer.mark(instrument::layer::parse);

  request_reply sink(protocol, out);
  // The skeleton marshals results only for a two-way call's reply (WITH_SERVER's comes before it).
  server_request request(header.body, header.operation, header.request_id,
                         header.response_flags == giop::response_flags::with_target, sink, timer);
  try {
    find_and_run(orb, decoded, request, timer, from, [&] {
      if (header.response_flags == giop::response_flags::with_server && early != nullptr) [[unlikely]]
        reply_before_upcall(header, sink, *early);
    });
  } catch (const SystemException& e) {
    if (!header.response_expected()) return {};
    sink.system_exception(header.request_id, e);
  } catch (const forward_request& forward) {
    if (!header.response_expected()) return {};
    if (forward.target().is_nil()) {
      sink.system_exception(header.request_id, SystemException(SystemExceptionKind::BAD_PARAM, minor::omg_minor(0),
                                                               CompletionStatus::no, "forward to a nil reference"));
    } else {
      auto& reply = sink.begin_reply(header.request_id, reply_status::location_forward);
      iop::write_ior(reply, forward.target().state()->ior());
    }
  } catch (const std::exception& e) {
    if (!header.response_expected()) return {};
    sink.system_exception(header.request_id, SystemException(SystemExceptionKind::UNKNOWN, minor::omg_minor(1),
                                                             CompletionStatus::maybe, e.what()));
  } catch (...) {
    if (!header.response_expected()) return {};
    sink.system_exception(header.request_id,
                          SystemException(SystemExceptionKind::UNKNOWN, minor::omg_minor(1), CompletionStatus::maybe));
  }
  if (!header.response_expected()) return {};
  if (!sink.started()) request.reply();  // a void operation: the header is the whole reply
  auto reply = sink.finish();
  timer.mark(instrument::layer::marshal);
  return reply;
}

namespace {

// The reply sink with portable interceptors: the reply header carries the contexts the
// interceptors added so far.
class intercepted_reply final : public reply_sink {
 public:
  intercepted_reply(const giop::protocol& protocol, cdr::output_stream& out,
                    const server_interception& interception) noexcept
      : protocol_(protocol), out_(out), interception_(interception) {}

  cdr::output_stream& begin_reply(std::uint32_t request_id, reply_status status) override {
    out_.reset();
    written_changes_ = interception_.reply_contexts().changes();
    if (status == reply_status::no_exception && interception_.reply_contexts().empty()) {
      // No context yet: the plain reply's header (rewritten if one comes in send_reply).
      mark_ = protocol_.begin_plain_reply(out_, request_id);
    } else {
      contexts_.clear();
      interception_.reply_contexts().append_to(contexts_);
      mark_ = protocol_.begin_reply(out_, request_id, static_cast<giop::reply_status>(status), contexts_);
    }
    status_ = status;
    started_ = true;
    return out_;
  }

  void system_exception(std::uint32_t request_id, const SystemException& e) {
    begin_reply(request_id, reply_status::system_exception);
    giop::write_system_exception(out_, e);
  }

  // The repository id a USER_EXCEPTION reply's body starts with.
  std::string user_exception_id() const {
    const std::size_t end = out_.size();
    if (mark_.body_start + 4 > end) return {};
    const std::uint32_t length = cdr::load<std::uint32_t>(out_.data() + mark_.body_start, false);
    if (length == 0 || mark_.body_start + 4 + length > end) return {};
    return std::string(reinterpret_cast<const char*>(out_.data() + mark_.body_start + 4), length - 1);
  }

  // Writes the header again when an ending point added contexts after it was written. Only
  // where the body's alignment does not depend on the header (GIOP 1.2: it starts 8-aligned).
  void rewrite_header_if_needed(std::uint32_t request_id) {
    if (!started_ || interception_.reply_contexts().changes() == written_changes_ || protocol_.minor() < 2) return;
    const std::vector<std::byte> body(out_.data() + mark_.body_start, out_.data() + out_.size());
    begin_reply(request_id, status_);
    out_.align(8);
    out_.write_octets(body.data(), body.size());
  }

  bool started() const noexcept { return started_; }
  reply_status status() const noexcept { return status_; }
  std::span<const std::byte> finish() noexcept { return giop::protocol::finish(out_, mark_); }

 private:
  const giop::protocol& protocol_;
  cdr::output_stream& out_;
  const server_interception& interception_;
  std::vector<giop::service_context> contexts_;
  std::uint64_t written_changes_ = 0;
  giop::message_mark mark_{};
  reply_status status_ = reply_status::no_exception;
  bool started_ = false;
};

// dispatch_request with the server's interceptors (orb/core/interception.h for the flow rules).
[[gnu::noinline, gnu::cold]] std::span<const std::byte> dispatch_intercepted(
    orb_impl& orb, const giop::message_view& message, const giop::protocol& protocol, cdr::output_stream& out,
    instrument::phase_timer& timer, const transports::connection* from) {
  decoded_request decoded;
  decode<false>(message, protocol, decoded);
  const giop::request_header& header = decoded.header;
  timer.mark(instrument::layer::parse);

  const std::span<const std::byte> key_octets(reinterpret_cast<const std::byte*>(decoded.key.data()),
                                              decoded.key.size());
  std::span<const std::byte> object_id;
  if (const auto parsed = adapter::parse_object_key(decoded.key))
    object_id = {reinterpret_cast<const std::byte*>(parsed->servant_part.data()), parsed->servant_part.size()};
  server_interception interception(*orb.server_interceptors(), header.request_id, header.operation,
                                   header.response_flags, header.service_contexts, key_octets, object_id);
  intercepted_reply sink(protocol, out, interception);
  server_request request(header.body, header.operation, header.request_id,
                         header.response_flags == giop::response_flags::with_target, sink, timer);

  std::optional<SystemException> failure;
  object_ref forward_target;
  try {
    interception.receive_request_service_contexts();
    find_and_run(orb, decoded, request, timer, from, [&] { interception.receive_request(); });
  } catch (const SystemException& e) {
    failure = e;
  } catch (const forward_request& forward) {
    if (forward.target().is_nil())
      failure = SystemException(SystemExceptionKind::BAD_PARAM, minor::omg_minor(0), CompletionStatus::no,
                                "forward to a nil reference");
    else forward_target = forward.target();
  } catch (const std::exception& e) {
    failure = SystemException(SystemExceptionKind::UNKNOWN, minor::omg_minor(1), CompletionStatus::maybe, e.what());
  } catch (...) {
    failure = SystemException(SystemExceptionKind::UNKNOWN, minor::omg_minor(1), CompletionStatus::maybe);
  }

  // The ending points, in reverse; an interceptor's exception becomes the reply.
  const SystemException* replaced = nullptr;
  if (failure) replaced = interception.finish(interceptor_reply_status::system_exception, &*failure);
  else if (!forward_target.is_nil()) replaced = interception.finish(interceptor_reply_status::location_forward);
  else if (sink.started() && sink.status() == reply_status::user_exception)
    replaced = interception.finish(interceptor_reply_status::user_exception, nullptr, sink.user_exception_id());
  else replaced = interception.finish(interceptor_reply_status::successful);

  if (!header.response_expected()) return {};
  if (replaced != nullptr) {
    sink.system_exception(header.request_id, *replaced);
  } else if (failure) {
    sink.system_exception(header.request_id, *failure);
  } else if (!forward_target.is_nil()) {
    auto& reply = sink.begin_reply(header.request_id, reply_status::location_forward);
    iop::write_ior(reply, forward_target.state()->ior());
  } else if (!sink.started()) {
    request.reply();  // a void operation: the header is the whole reply
  } else {
    sink.rewrite_header_if_needed(header.request_id);
  }
  auto reply = sink.finish();
  timer.mark(instrument::layer::marshal);
  return reply;
}

}  // namespace

bool server_request_in_upcall() noexcept { return upcall_from != nullptr; }

}  // namespace switchyard::core

namespace switchyard {

const peer_identity* current_caller() noexcept {
  const transports::connection* from = core::upcall_from;
  return from != nullptr && from != core::collocated_caller ? from->verified_peer() : nullptr;
}

}  // namespace switchyard
