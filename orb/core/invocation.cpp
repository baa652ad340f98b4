#include "switchyard/invocation.h"

#include <new>
#include <utility>
#include <vector>

#include "orb/core/collocation.h"
#include "orb/core/interception.h"
#include "orb/core/invocation_state.h"
#include "orb/core/orb_impl.h"
#include "orb/core/request_header_cache.h"
#include "orb/core/round_trip_timeout.h"
#include "orb/core/service_contexts.h"
#include "orb/giop/messages.h"
#include "orb/giop/plain_messages.h"
#include "orb/ior/ior.h"
#include "switchyard/exception.h"
#include "switchyard/interceptors.h"
#include "switchyard/object_io.h"

namespace switchyard {

using core::state_of;

namespace {

// Arguments of at least this many octets (a large sequence<octet>, an array of doubles) are not
// copied into the request stream: they go out with the stream's octets in one gather-write
// (docs/cdr.md, "External chunks"). The stub's arguments outlive the send; a LOCATION_FORWARD
// marshals them again.
constexpr std::size_t external_argument_threshold = 8192;

// Requests are marshaled into one stream per thread, reused: no allocation per call once it has
// grown to the largest request. Its external threshold is set once here (reset() keeps it):
// nothing per call.
cdr::output_stream& request_stream() {
  thread_local cdr::output_stream stream = [] {
    cdr::output_stream s(4096);
    s.set_external_threshold(external_argument_threshold);
    return s;
  }();
  return stream;
}

constexpr int max_forwards = 8;

// Finishes the request in `out` and sends it: one buffer, or the pieces around external chunks.
void send_request(core::client_connection& connection, cdr::output_stream& out, const giop::message_mark& mark,
                  core::call_deadline deadline) {
  if (!out.has_external_chunks()) [[likely]] {
    connection.send(giop::protocol::finish(out, mark), deadline);
    return;
  }
  std::span<const std::byte> pieces[giop::protocol::max_gather_pieces];
  const std::size_t count = giop::protocol::finish_gather(out, mark, pieces);
  transports::const_buffer buffers[giop::protocol::max_gather_pieces];
  for (std::size_t i = 0; i < count; ++i) buffers[i] = {pieces[i].data(), pieces[i].size()};
  connection.send({buffers, count}, deadline);
}

// Request ids of collocated calls: no connection to count them; unique in the thread is enough
// (the reply comes back to the call that made the request).
[[gnu::noinline]] std::uint32_t next_collocated_request_id() noexcept {
  thread_local std::uint32_t last = 0;
  return ++last;
}

// A one-way call's response_flags: none, unless its synchronization scope (the reference's, else
// -ORBSyncScope) asks the server for a reply.
std::uint8_t oneway_response_flags(const object_ref& target, sync_scope orb_scope) noexcept {
  switch (target.own_sync_scope().value_or(orb_scope)) {
    case sync_scope::with_server:
      return giop::response_flags::with_server;
    case sync_scope::with_target:
      return giop::response_flags::with_target;
    case sync_scope::none:
    case sync_scope::with_transport:
      break;
  }
  return giop::response_flags::none;
}

}  // namespace

invocation::invocation(const object_ref& target, std::string_view operation, std::uint32_t operation_index)
    : target_(target), operation_(operation), operation_index_(operation_index) {
  static_assert(sizeof(core::invocation_state) <= sizeof(state_), "invocation::state_ is too small");
  static_assert(alignof(core::invocation_state) <= 8);
  if (target_.is_nil())
    throw SystemException(SystemExceptionKind::INV_OBJREF, minor::omg_minor(1), CompletionStatus::no,
                          "invocation of '" + std::string(operation) + "' on a nil reference");
  new (state_) core::invocation_state();
  core::invocation_state& state = state_of(state_);
  core::orb_impl& orb = target_.state()->orb();
  core::orb_impl** slot = core::receiving_orb_slot();
  state.previous_receiving_orb = std::exchange(*slot, &orb);
  state.restore_receiving_orb_to = slot;
  // Counted from here: the reference's round-trip timeout, the thread's, or -ORBCallTimeout.
  if (const auto orb_timeout = orb.options().call_timeout; core::round_trip_timeout_applies(target_, orb_timeout))
      [[unlikely]]
    state.deadline = core::timed_call_deadline(target_.round_trip_timeout_ns(), orb_timeout);
}

invocation::invocation(deferred_call_t, const object_ref& target, std::string_view operation,
                       std::uint32_t operation_index)
    : target_(target), operation_(operation), operation_index_(operation_index) {
  if (target_.is_nil())
    throw SystemException(SystemExceptionKind::INV_OBJREF, minor::omg_minor(1), CompletionStatus::no,
                          "invocation of '" + std::string(operation) + "' on a nil reference");
  new (state_) core::invocation_state();
  state_of(state_).deadline = core::call_deadline_for(target_, target_.state()->orb().options().call_timeout);
}

invocation::~invocation() {
  core::invocation_state& state = state_of(state_);
  if (state.interception != nullptr) [[unlikely]]
    core::destroy(state.interception);
  *state.restore_receiving_orb_to = state.previous_receiving_orb;
  state.~invocation_state();
}

cdr::output_stream& invocation::begin(bool response_expected) {
  core::invocation_state& state = state_of(state_);
  state.reply.clear();
  state.bound = target_.state()->bind(state.deadline);
  state.protocol = giop::protocol_for(state.bound.giop_minor);
  const std::uint8_t response_flags =
      response_expected ? giop::response_flags::with_target
                        : oneway_response_flags(target_, target_.state()->orb().options().oneway_sync_scope);
  state.response_flags = response_flags;
  bool send_code_sets = false;
  bool numbered = false;  // by begin_intercepted
  // Portable interceptors: without them in the process, one load of a global and a test.
  if (core::orb_impl::client_interceptors_anywhere()) [[unlikely]] {
    if (target_.state()->orb().client_interceptors() != nullptr) {
      if (cdr::output_stream* written = begin_intercepted(request_stream(), response_flags, send_code_sets))
        return *written;
      numbered = true;  // no context added: the plain header below
    }
  }
  // The first request on a connection says which code sets we chose (GIOP 1.1 and later). A
  // collocated binding has no connection (this same ORB reads the request): no code sets, and
  // request ids of the thread's own.
  if (!numbered) [[likely]] {
    if (core::client_connection* const connection = state.bound.connection.get()) [[likely]] {
      state.request_id = connection->next_request_id();
      send_code_sets = state.bound.giop_minor >= 1 && connection->take_code_sets_turn();
    } else {
      state.request_id = next_collocated_request_id();
    }
  }

  cdr::output_stream& out = request_stream();
  out.reset();
  out.set_giop_minor(state.bound.giop_minor);

  // Our own servers get the operation's index for active demultiplexing.
  const std::uint32_t sent_index = state.bound.peer_is_switchyard ? operation_index_ : no_operation_index;
  const core::request_header_key key{state.bound.id, operation_, sent_index, response_flags};
  auto& headers = core::request_header_cache::of_this_thread();
  // A replayed header is one copy, no write_octets: the threshold can stay.
  if (!send_code_sets && headers.replay(key, state.request_id, out, state.mark)) return out;

  giop::request_fields fields;
  fields.request_id = state.request_id;
  fields.response_flags = response_flags;
  fields.target = giop::target_address::by_key(*state.bound.object_key);
  fields.operation = operation_;
  giop::service_context contexts[2];
  std::size_t context_count = 0;
  static const core::code_sets_context code_sets;
  if (send_code_sets) contexts[context_count++] = {core::code_sets_context_id, code_sets.data};
  core::operation_index_context index_context;
  if (sent_index != no_operation_index) {
    index_context.set(sent_index);
    contexts[context_count++] = {core::operation_index_context_id, index_context.data};
  }
  fields.service_contexts = {contexts, context_count};
  // The header itself stays contiguous (a long object key must not become a chunk: the header
  // cache copies the stream's octets).
  out.set_external_threshold(0);
  state.mark = state.protocol->begin_request(out, fields);
  out.set_external_threshold(external_argument_threshold);
  if (!send_code_sets) headers.store(key, out, state.mark);
  return out;
}

// Inlined into complete_twoway (and its collocated twin): the stub's path is what it was before
// deferred calls.
[[gnu::always_inline]] inline bool invocation::take_reply(user_exception_raiser raise_user) {
  core::invocation_state& state = state_of(state_);
  core::object_state& target = *target_.state();
  const giop::message_view& reply = state.reply.message();
  if (reply.header.type != giop::message_type::reply)
    throw SystemException(SystemExceptionKind::COMM_FAILURE, minor::bad_message, CompletionStatus::maybe,
                          "a LocateReply answered a Request");
  giop::reply_header header;
  if (!giop::decode_plain_reply(reply, header))
    header = giop::protocol_for(reply.header.ver.minor)->decode_reply(reply);
  switch (header.status) {
    case giop::reply_status::no_exception:
      reply_body_ = header.body;
      return true;
    case giop::reply_status::user_exception: {
      std::string_view id = header.body.read_string_view();
      if (raise_user != nullptr) raise_user(id, header.body);
      throw SystemException(
          SystemExceptionKind::UNKNOWN, minor::omg_minor(1), CompletionStatus::yes,
          "'" + std::string(operation_) + "' raised a user exception it does not declare: " + std::string(id));
    }
    case giop::reply_status::system_exception:
      throw giop::read_system_exception(header.body).to_exception();
    case giop::reply_status::location_forward:
    case giop::reply_status::location_forward_perm: {
      if (++forwards_ > max_forwards)
        throw SystemException(SystemExceptionKind::TRANSIENT, minor::omg_minor(1), CompletionStatus::no,
                              "more than 8 LOCATION_FORWARD replies for one call");
      iop::ior forward = iop::read_ior(header.body);
      state.reply.clear();
      target.forward_to(forward);
      return false;
    }
    case giop::reply_status::needs_addressing_mode:
      throw SystemException(SystemExceptionKind::NO_IMPLEMENT, minor::omg_minor(0), CompletionStatus::no,
                            "the server asks for ProfileAddr or ReferenceAddr addressing, which this client "
                            "does not send");
  }
  throw SystemException(SystemExceptionKind::MARSHAL, minor::bad_enum, CompletionStatus::maybe, "unknown reply status");
}

bool invocation::complete_twoway(user_exception_raiser raise_user) {
  core::invocation_state& state = state_of(state_);
  if (!state.bound.connection) [[unlikely]]
    return complete_collocated_twoway(raise_user);
  try {
    send_request(*state.bound.connection, request_stream(), state.mark, state.deadline);
    state.bound.connection->wait_for_reply(state.request_id, state.deadline, state.reply);
  } catch (const SystemException& e) {
    if (state.interception != nullptr) [[unlikely]]
      return intercepted_failure(e);
    if (send_again(e)) return false;
    throw;
  }
  if (state.interception != nullptr) [[unlikely]]
    intercept_reply();
  return take_reply(raise_user);
}

// Collocated: served in this thread; -ORBCallTimeout does not cut it off.
[[gnu::noinline]] bool invocation::complete_collocated_twoway(user_exception_raiser raise_user) {
  collocated_call(false);
  if (state_of(state_).interception != nullptr) [[unlikely]]
    intercept_reply();
  return take_reply(raise_user);
}

bool invocation::send_twoway() {
  core::invocation_state& state = state_of(state_);
  if (!state.bound.connection) [[unlikely]] {
    // Collocated: served now; the reply is kept (copied) until receive_reply takes it.
    collocated_call(true);
    state.reply_taken = true;
    return true;
  }
  try {
    send_request(*state.bound.connection, request_stream(), state.mark, state.deadline);
  } catch (const SystemException& e) {
    if (send_again(e)) return false;
    throw;
  }
  return true;
}

bool invocation::reply_arrived() {
  core::invocation_state& state = state_of(state_);
  if (state.reply_taken) return true;
  try {
    state.bound.connection->wait_for_reply(state.request_id, std::chrono::steady_clock::now(), state.reply);
  } catch (const SystemException& e) {
    // Nothing yet; or the connection failed, which receive_twoway meets again and reports.
    return e.kind() != SystemExceptionKind::TIMEOUT;
  }
  state.reply_taken = true;
  return true;
}

void invocation::forget_reply() noexcept {
  core::invocation_state& state = state_of(state_);
  const bool waiting = !state.reply_taken;
  state.reply.clear();
  state.reply_taken = false;
  if (!waiting || !state.bound.connection) return;
  try {
    state.bound.connection->abandon(state.request_id);
  } catch (...) {
    // Out of memory for the note: the reply is stashed when it comes, and stays.
  }
}

bool invocation::receive_twoway(user_exception_raiser raise_user) {
  core::invocation_state& state = state_of(state_);
  if (!state.reply_taken) {
    try {
      state.bound.connection->wait_for_reply(state.request_id, state.deadline, state.reply);
    } catch (const SystemException& e) {
      if (send_again(e)) return false;
      throw;
    }
  }
  state.reply_taken = false;
  if (state.interception != nullptr) [[unlikely]]
    intercept_reply();
  return take_reply(raise_user);
}

bool invocation::complete_oneway() {
  core::invocation_state& state = state_of(state_);
  // with_server or with_target: the reply says the request arrived (or what went wrong).
  if (state.response_flags != giop::response_flags::none) [[unlikely]]
    return complete_twoway(nullptr);
  if (!state.bound.connection) [[unlikely]] {
    collocated_call(false);
    if (state.interception != nullptr) [[unlikely]]
      oneway_intercepted();
    return true;
  }
  try {
    send_request(*state.bound.connection, request_stream(), state.mark, state.deadline);
  } catch (const SystemException& e) {
    if (state.interception != nullptr) [[unlikely]]
      return intercepted_failure(e);
    if (send_again(e)) return false;
    throw;
  }
  if (state.interception != nullptr) [[unlikely]]
    oneway_intercepted();
  return true;
}

void invocation::collocated_call(bool copy_reply) {
  core::invocation_state& state = state_of(state_);
  core::object_state& target = *target_.state();
  core::call_collocated(target.orb(), request_stream(), state.mark, state.reply, copy_reply);
  // Direct mode: the generated stub calls the servant itself from now on; not with interceptors,
  // whose points every collocated call must pass.
  if (target.orb().options().collocation == core::collocation_mode::direct &&
      target.orb().client_interceptors() == nullptr && target.orb().server_interceptors() == nullptr)
    target.refresh_direct();
}

bool invocation::send_again(const SystemException& failure) {
  core::invocation_state& state = state_of(state_);
  if (failure.kind() == SystemExceptionKind::TIMEOUT) {
    // A request that went out may still be answered: its reply is dropped when it comes.
    if (failure.completed() != CompletionStatus::no) state.bound.connection->abandon(state.request_id);
    return false;
  }
  // Once: begin() then binds anew (the failed connection is no longer open) and writes the
  // request again, with a new id and the first request's code sets.
  if (core::provably_not_sent(failure) && !state.resent) {
    state.resent = true;
    return true;
  }
  // The target failed: drop any forward too, so the next call starts from the IOR again.
  target_.state()->reset_binding();
  return false;
}

// --- Portable interceptors (orb/core/interception.h): none of this runs without them.

[[gnu::noinline, gnu::cold]] cdr::output_stream* invocation::begin_intercepted(cdr::output_stream& out,
                                                                               std::uint8_t response_flags,
                                                                               bool& send_code_sets) {
  core::invocation_state& state = state_of(state_);
  if (state.interception == nullptr)
    state.interception =
        new core::client_interception(*target_.state()->orb().client_interceptors(), target_, operation_);
  core::client_connection* const connection = state.bound.connection.get();
  state.request_id = connection != nullptr ? connection->next_request_id() : next_collocated_request_id();
  // send_request first: a request an interceptor stops takes no turn to send the code sets.
  state.interception->send_request(state.request_id, response_flags, *state.bound.object_key);
  send_code_sets = connection != nullptr && state.bound.giop_minor >= 1 && connection->take_code_sets_turn();
  if (state.interception->added_contexts().empty()) return nullptr;
  const std::uint32_t sent_index = state.bound.peer_is_switchyard ? operation_index_ : no_operation_index;

  out.reset();
  out.set_giop_minor(state.bound.giop_minor);
  giop::request_fields fields;
  fields.request_id = state.request_id;
  fields.response_flags = response_flags;
  fields.target = giop::target_address::by_key(*state.bound.object_key);
  fields.operation = operation_;
  std::vector<giop::service_context> contexts;
  static const core::code_sets_context code_sets;
  if (send_code_sets) contexts.push_back({core::code_sets_context_id, code_sets.data});
  core::operation_index_context index_context;
  if (sent_index != no_operation_index) {
    index_context.set(sent_index);
    contexts.push_back({core::operation_index_context_id, index_context.data});
  }
  state.interception->added_contexts().append_to(contexts);
  fields.service_contexts = contexts;
  out.set_external_threshold(0);
  state.mark = state.protocol->begin_request(out, fields);
  out.set_external_threshold(external_argument_threshold);
  return &out;
}

// A failed send or wait (called from its catch block): receive_other when the request goes out
// again, receive_exception and the exception (or an interceptor's) otherwise. Kept apart from
// complete_twoway and complete_oneway so that they make no new call of the send or the wait,
// which would change what the compiler inlines on the plain path.
[[gnu::noinline, gnu::cold]] bool invocation::intercepted_failure(const SystemException& failure) {
  core::client_interception& interception = *state_of(state_).interception;
  if (send_again(failure)) {
    interception.finish(interceptor_reply_status::transport_retry);
    return false;
  }
  interception.finish(interceptor_reply_status::system_exception, &failure);
  throw;
}

// A oneway sent: receive_other, reply status successful.
[[gnu::noinline, gnu::cold]] void invocation::oneway_intercepted() {
  state_of(state_).interception->finish(interceptor_reply_status::successful);
}

// The reply's ending points; the caller then takes the reply as without interceptors (unless one
// raised). Not taking it here keeps take_reply's copies, and what they inline, as they were.
[[gnu::noinline, gnu::cold]] void invocation::intercept_reply() {
  core::invocation_state& state = state_of(state_);
  core::client_interception& interception = *state.interception;
  giop::reply_header header;
  try {
    const giop::message_view& reply = state.reply.message();
    if (reply.header.type != giop::message_type::reply)
      throw SystemException(SystemExceptionKind::COMM_FAILURE, minor::bad_message, CompletionStatus::maybe,
                            "a LocateReply answered a Request");
    // The request's protocol, not protocol_for: a further call of that would keep the compiler
    // from inlining it into begin. A server answers in the request's version.
    if (reply.header.ver.minor != state.protocol->minor())
      throw SystemException(SystemExceptionKind::MARSHAL, minor::bad_message, CompletionStatus::maybe,
                            "a reply in another GIOP version than its request");
    header = state.protocol->decode_reply(reply);
  } catch (const SystemException& e) {
    interception.finish(interceptor_reply_status::system_exception, &e);
    throw;
  }
  interception.set_reply_contexts(header.service_contexts);
  switch (header.status) {
    case giop::reply_status::no_exception:
      interception.finish(interceptor_reply_status::successful);
      break;
    case giop::reply_status::user_exception: {
      cdr::input_stream body = header.body;
      interception.finish(interceptor_reply_status::user_exception, nullptr, body.read_string_view());
      break;
    }
    case giop::reply_status::system_exception: {
      cdr::input_stream body = header.body;
      const SystemException received = giop::read_system_exception(body).to_exception();
      interception.finish(interceptor_reply_status::system_exception, &received);
      break;
    }
    case giop::reply_status::location_forward:
    case giop::reply_status::location_forward_perm:
      interception.finish(interceptor_reply_status::location_forward);
      break;
    case giop::reply_status::needs_addressing_mode:
      break;
  }
}

}  // namespace switchyard
