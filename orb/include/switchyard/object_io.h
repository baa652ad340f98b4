// Object references on the wire: an `Object` or interface-typed value in CDR is an IOR (type id,
// tagged profiles); a nil reference is the nil IOR (type id "" and no profiles). For generated
// code and the ORB.
//
// A reference read from a message must be bound to the ORB that received it (its connections,
// its options). Generated code only has the stream, so the ORB comes from the thread: the core
// opens a `reference_binding_scope` around every skeleton upcall (server side: the arguments) and
// for the lifetime of every `invocation` (client side: the stub reads results and user
// exceptions while its invocation lives). Code that demarshals by hand outside of both passes
// the ORB explicitly, or opens a scope itself.
#pragma once

#include "switchyard/cdr/input_stream.h"
#include "switchyard/cdr/output_stream.h"
#include "switchyard/object.h"

namespace switchyard {

class orb;
namespace core {
class orb_impl;
}

// Writes the reference's IOR (the one it was made from, not a LOCATION_FORWARD target); nil as
// the nil IOR.
void write_object(cdr::output_stream& out, const object_ref& reference);

// Reads an IOR: the nil IOR gives a nil reference, anything else a reference bound to the
// thread's current ORB (above). Raises MARSHAL for a malformed IOR or IIOP profile, and
// BAD_INV_ORDER when no ORB is current on this thread (nothing is read then).
object_ref read_object(cdr::input_stream& in);
// The same, bound to `receiver`.
object_ref read_object(cdr::input_stream& in, orb& receiver);
object_ref read_object(cdr::input_stream& in, core::orb_impl& receiver);

// Makes `receiver` the thread's current ORB for read_object while the scope lives, and restores
// the previous one (scopes nest: a servant that calls out opens an invocation inside an upcall).
class reference_binding_scope {
 public:
  explicit reference_binding_scope(orb& receiver) noexcept;
  explicit reference_binding_scope(core::orb_impl& receiver) noexcept;
  ~reference_binding_scope();
  reference_binding_scope(const reference_binding_scope&) = delete;
  reference_binding_scope& operator=(const reference_binding_scope&) = delete;

 private:
  core::orb_impl* previous_;
};

// The thread's current ORB (nullptr outside every scope), and the primitive the scopes use: sets
// it and returns the one before. For the core, which keeps the previous value in storage it
// already has (an invocation's state) instead of a scope object.
core::orb_impl* current_receiving_orb() noexcept;
core::orb_impl* exchange_receiving_orb(core::orb_impl* receiver) noexcept;

}  // namespace switchyard
