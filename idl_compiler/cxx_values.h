// syidl C++ back end: valuetypes and boxes (docs/idl.md, "Valuetypes"). The class in X.h (state
// accessors, operations, the marshaling hooks of switchyard::value_base), the default
// implementation class OBV_<Name> and the factory class <Name>_init; in X.cpp the hooks and the
// registration of default factories. May include ast.h, cxx_emitter.h, cxx_interfaces.h,
// cxx_marshal.h and cxx_types.h.
#pragma once

#include <string>

#include "idl_compiler/ast.h"
#include "idl_compiler/cxx_types.h"

namespace switchyard::idl::cxx {

// X.h: the classes of a valuetype; `nested` is the C++ of the declarations inside it.
std::string value_type_classes(const ValueType& value, const std::string& nested, const DeclarationOrder& order);
// X.h: the class of a box.
std::string value_box_class(const ValueBox& box, const DeclarationOrder& order);
// X.cpp: the marshaling hooks and, for a concrete valuetype with no operations (or a box), the
// registration of its default factory.
std::string value_type_functions(const ValueType& value);
std::string value_box_functions(const ValueBox& box);
// Whether a valuetype has an operation or attribute, its own or inherited (then its users
// implement it, and syidl writes no OBV_ class nor default factory).
bool has_value_operations(const ValueType& value);

}  // namespace switchyard::idl::cxx
