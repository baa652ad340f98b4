#include "switchyard/object_io.h"

#include <utility>

#include "orb/core/invocation_state.h"
#include "orb/core/object_state.h"
#include "orb/core/orb_impl.h"
#include "orb/ior/ior.h"
#include "switchyard/exception.h"
#include "switchyard/orb.h"

namespace switchyard {

namespace {

// The ORB that read_object(in) binds to on this thread. A raw pointer: every scope that sets it
// lives inside something that keeps the ORB alive (an invocation's target, a server connection).
thread_local core::orb_impl* receiving_orb = nullptr;

}  // namespace

void write_object(cdr::output_stream& out, const object_ref& reference) {
  if (reference.is_nil()) {
    static const iop::ior nil;
    iop::write_ior(out, nil);
    return;
  }
  iop::write_ior(out, reference.state()->ior());
}

object_ref read_object(cdr::input_stream& in, core::orb_impl& receiver) {
  iop::ior reference = iop::read_ior(in);
  if (reference.is_nil()) return {};
  return receiver.reference_from_ior(std::move(reference));
}

object_ref read_object(cdr::input_stream& in, orb& receiver) { return read_object(in, receiver.impl()); }

object_ref read_object(cdr::input_stream& in) {
  if (receiving_orb == nullptr)
    throw SystemException(SystemExceptionKind::BAD_INV_ORDER, minor::omg_minor(0), CompletionStatus::no,
                          "an object reference read outside a request or reply has no ORB to bind to: use "
                          "read_object(stream, orb) or a reference_binding_scope");
  return read_object(in, *receiving_orb);
}

core::orb_impl* current_receiving_orb() noexcept { return receiving_orb; }

namespace core {
orb_impl** receiving_orb_slot() noexcept { return &receiving_orb; }
}  // namespace core

core::orb_impl* exchange_receiving_orb(core::orb_impl* receiver) noexcept {
  return std::exchange(receiving_orb, receiver);
}

reference_binding_scope::reference_binding_scope(core::orb_impl& receiver) noexcept
    : previous_(exchange_receiving_orb(&receiver)) {}

reference_binding_scope::reference_binding_scope(orb& receiver) noexcept : reference_binding_scope(receiver.impl()) {}

reference_binding_scope::~reference_binding_scope() { receiving_orb = previous_; }

}  // namespace switchyard
