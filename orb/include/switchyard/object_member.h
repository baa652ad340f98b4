// An object reference held in a generated data type (struct, union or exception member, sequence
// or array element) where its interface's stub class is not complete yet: the interface is only
// forward-declared there (`interface IDLType; struct StructMember { IDLType type_def; };`), or
// the type is nested in the interface itself (`interface NamingContext { exception
// CannotProceed { NamingContext cxt; }; };`). A C++ class cannot hold a member of an incomplete
// class, so syidl declares such a member as object_member<I> (docs/idl.md). It holds the
// reference and converts to and from the stub class I wherever I is complete.
#pragma once

#include <utility>

#include "switchyard/cdr/input_stream.h"
#include "switchyard/object.h"
#include "switchyard/object_io.h"

namespace switchyard {

template <class Interface>
class object_member {
 public:
  object_member() noexcept = default;  // nil
  explicit object_member(object_ref reference) noexcept : reference_(std::move(reference)) {}
  // From and to the stub class; each needs Interface complete only where it is used.
  object_member(const Interface& stub) : reference_(stub._reference()) {}  // NOLINT: implicit on purpose
  operator Interface() const { return Interface(reference_); }             // NOLINT: implicit on purpose

  const object_ref& _reference() const noexcept { return reference_; }
  bool _is_nil() const noexcept { return reference_.is_nil(); }
  explicit operator bool() const noexcept { return !reference_.is_nil(); }

 private:
  object_ref reference_;
};

// Reads a reference into a stub class or an object_member (generated code): both are made from
// an object_ref, and neither needs the stub class complete for this.
template <class Reference>
void read_reference(cdr::input_stream& in, Reference& target) {
  target = Reference(read_object(in));
}

}  // namespace switchyard
