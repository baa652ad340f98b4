// syidl C++ back end: the stub class's member functions in X.cpp. _narrow, and per operation a
// function that marshals the in and inout arguments into a request (switchyard::invocation),
// sends it, and reads the result, the out and inout arguments, or a user exception the
// operation raises. May include ast.h and the cxx_* headers below it (emitter, types, marshal,
// interfaces).
#pragma once

#include <string>
#include <vector>

#include "idl_compiler/ast.h"
#include "idl_compiler/cxx_interfaces.h"

namespace switchyard::idl::cxx {

// The definitions, to be placed in the interface's namespace. `operation_indices`: each request
// carries the operation's table index for active demultiplexing (-H all or active).
std::string stub_definitions(const Interface& interface, const std::vector<OperationEntry>& entries,
                             bool operation_indices);

}  // namespace switchyard::idl::cxx
