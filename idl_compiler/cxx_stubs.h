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

// What a stub's call of one operation is made of, as C++ statements and expressions (shared with
// the AMI stubs, cxx_ami.h).
struct StubCallParts {
  std::string writes;              // the in and inout arguments onto `_out`, by their parameter names
  std::string arguments;           // a lambda of `writes` that the invocation calls with `_out`
  std::string raiser = "nullptr";  // a lambda reading the operation's user exceptions, if any
  // From `_in`: `_result` declared and read (with the valuetype scope, if needed), and the out
  // and inout arguments read into variables of their names.
  std::string result_reads;
  std::string out_reads;
};
StubCallParts stub_call_parts(const OperationEntry& entry);

// The operation index a request carries: `index`, or none without active demultiplexing.
std::string operation_index_literal(std::size_t index, bool operation_indices);

// The definitions, to be placed in the interface's namespace. `operation_indices`: each request
// carries the operation's table index for active demultiplexing (-H all or active).
std::string stub_definitions(const Interface& interface, const std::vector<OperationEntry>& entries,
                             bool operation_indices);

}  // namespace switchyard::idl::cxx
