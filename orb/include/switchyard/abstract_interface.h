// Abstract interfaces (CORBA 3.x part 1, "Abstract Interfaces"; the encoding: part 2, CDR,
// "Abstract Interfaces"): a parameter of an abstract interface type is an object reference or a
// value, chosen by the sender at run time. On the wire it is a union on a boolean: TRUE and the
// IOR, or FALSE and the value. Nil goes as FALSE and a null value, as omniORB sends it; a reader
// accepts a nil IOR too.
//
// syidl makes a holder class for each abstract interface (docs/idl.md, "Abstract interfaces"):
// it holds a reference or a value that supports the interface, calls the operations remotely on
// the one and locally on the other, and marshals through these two functions.
#pragma once

#include <string>
#include <type_traits>  // generated holders' constructor from a value
#include <utility>

#include "switchyard/cdr/input_stream.h"
#include "switchyard/cdr/output_stream.h"
#include "switchyard/object.h"
#include "switchyard/object_io.h"
#include "switchyard/value.h"

namespace switchyard {

// Writes the value when there is one, else the reference; neither is nil (a null value).
inline void write_abstract(cdr::output_stream& out, const object_ref& reference, const value_base* value) {
  if (value == nullptr && !reference.is_nil()) {
    out.write_boolean(true);
    write_object(out, reference);
    return;
  }
  out.write_boolean(false);
  write_value(out, value);
}

// Reads one into a holder: Holder(object_ref) for a reference, Holder::_narrow(value) for a value
// (any value type: the one sent, or the first base of it that has a factory). Raises MARSHAL
// minor::value_type_mismatch for a value that does not support the interface, and whatever
// read_object and read_value raise.
template <class Holder>
void read_abstract(cdr::input_stream& in, Holder& target) {
  if (in.read_boolean()) {
    target = Holder(read_object(in));
    return;
  }
  value_ref<value_base> value = read_value(in, value_base::_static_repository_id());
  if (!value) {
    target = Holder();
    return;
  }
  Holder narrowed = Holder::_narrow(value);
  if (narrowed._is_nil()) [[unlikely]]
    in.throw_marshal(minor::value_type_mismatch, "value of type " + std::string(value->_repository_id()) +
                                                     " does not support " + std::string(Holder::_repository_id));
  target = std::move(narrowed);
}

}  // namespace switchyard
