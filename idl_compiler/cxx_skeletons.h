// syidl C++ back end: the skeleton's dispatch functions in X.cpp, one per operation table entry,
// named after the operation (_dispatch_greet). Each reads the arguments from the request (an
// `in sequence<octet>` as a view into the receive buffer), calls the servant's virtual function,
// and writes the result and the out and inout arguments into the reply, or a user exception the
// operation raises. Each marks the end of demarshal and of upcall for the request-path profile. May include ast.h and
// the cxx_* headers below it (emitter, types, marshal, interfaces).
#pragma once

#include <string>
#include <vector>

#include "idl_compiler/ast.h"
#include "idl_compiler/cxx_interfaces.h"

namespace switchyard::idl::cxx {

// The definitions, to be placed in the interface's namespace.
std::string skeleton_definitions(const Interface& interface, const std::vector<OperationEntry>& entries);

}  // namespace switchyard::idl::cxx
