// object_ref's operations that talk to the object: _is_a, _non_existent, LocateRequest.
#include "switchyard/object.h"

#include "orb/core/object_state.h"
#include "orb/core/orb_impl.h"
#include "orb/core/round_trip_timeout.h"
#include "orb/giop/messages.h"
#include "orb/giop/protocol.h"
#include "orb/ior/ior.h"
#include "switchyard/exception.h"
#include "switchyard/invocation.h"

namespace switchyard {

std::string_view object_ref::repository_id() const noexcept {
  return state_ ? std::string_view(state_->ior().type_id) : std::string_view();
}

bool object_ref::is_a(std::string_view id) const {
  if (!state_) return false;
  if (id == repository_id() || id == "IDL:omg.org/CORBA/Object:1.0") return true;
  invocation call(*this, "_is_a");
  return call.invoke([&](cdr::output_stream& args) { args.write_string(id); }).read_boolean();
}

bool object_ref::non_existent() const {
  if (!state_) return true;
  // Servers that do not know the key answer the request itself with OBJECT_NOT_EXIST (omniORB
  // does); that is the authoritative "gone" _non_existent reports as true (CORBA 3.3, 8.3.5).
  try {
    invocation call(*this, "_non_existent");
    return call.invoke().read_boolean();
  } catch (const SystemException& e) {
    if (e.kind() == SystemExceptionKind::OBJECT_NOT_EXIST) return true;
    throw;
  }
}

bool object_ref::is_equivalent(const object_ref& other) const noexcept {
  if (state_ == other.state_) return true;
  if (!state_ || !other.state_) return false;
  return state_->ior() == other.state_->ior();
}

bool object_ref::locate() const {
  if (!state_) return false;
  // The same rules as an invocation's: the round-trip timeout (the reference's, the thread's or
  // -ORBCallTimeout) bounds it all, and a LocateRequest that provably never reached the server
  // is sent once more on a new connection.
  const core::call_deadline deadline = core::call_deadline_for(*this, state_->orb().options().call_timeout);
  bool resent = false;
  for (int forwards = 0; forwards <= 8;) {
    core::binding bound = state_->bind(deadline);
    const giop::protocol& protocol = *giop::protocol_for(bound.giop_minor);
    std::uint32_t id = bound.connection->next_request_id();
    cdr::output_stream out(256, bound.giop_minor);
    auto mark = protocol.begin_locate_request(out, id, giop::target_address::by_key(*bound.object_key));
    core::client_connection::reply reply;
    try {
      bound.connection->send(giop::protocol::finish(out, mark), deadline);
      bound.connection->wait_for_reply(id, deadline, reply);
    } catch (const SystemException& e) {
      if (e.kind() == SystemExceptionKind::TIMEOUT) {
        if (e.completed() != CompletionStatus::no) bound.connection->abandon(id);
        throw;
      }
      if (!resent && core::provably_not_sent(e)) {
        resent = true;
        continue;
      }
      state_->reset_binding();
      throw;
    }
    ++forwards;
    auto header = giop::protocol_for(reply.message().header.ver.minor)->decode_locate_reply(reply.message());
    switch (header.status) {
      case giop::locate_status::object_here:
        return true;
      case giop::locate_status::unknown_object:
        return false;
      case giop::locate_status::object_forward:
      case giop::locate_status::object_forward_perm:
        state_->forward_to(iop::read_ior(header.body));
        continue;
      case giop::locate_status::loc_system_exception:
        throw giop::read_system_exception(header.body).to_exception();
      case giop::locate_status::loc_needs_addressing_mode:
        throw SystemException(SystemExceptionKind::NO_IMPLEMENT, minor::omg_minor(0), CompletionStatus::no,
                              "the server asks for an addressing mode this client does not send");
    }
  }
  throw SystemException(SystemExceptionKind::TRANSIENT, minor::omg_minor(1), CompletionStatus::no,
                        "too many forwards answering a LocateRequest");
}

}  // namespace switchyard
