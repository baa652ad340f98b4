// syidl C++ back end, --ami: asynchronous method invocation as CORBA Messaging maps it, in the
// style of the rest of the mapping (docs/idl.md, "AMI"). For an interface I:
//   - AMI_IHandler, the reply handler base: per two-way operation op (and attribute getter
//     get_x, setter set_x) `op(result, out and inout values)` and `op_excep(exception_holder)`;
//   - AMI_IPoller, the type-specific poller: `is_ready(timeout)` and
//     `R op(timeout, out and inout references)`;
//   - on the stub, `sendc_op(handler, in and inout values)` and `sendp_op(...)` -> AMI_IPoller.
// Over switchyard/ami.h. May include ast.h and the cxx_* headers below it (emitter, types,
// interfaces, stubs).
#pragma once

#include <string>
#include <vector>

#include "idl_compiler/ast.h"
#include "idl_compiler/cxx_interfaces.h"

namespace switchyard::idl::cxx {

// In the header, before the stub class: the handler and poller, declared.
std::string ami_forward_declarations(const Interface& interface);
// In the stub class: sendc_ and sendp_ per two-way operation and attribute.
std::string ami_stub_declarations(const Interface& interface, const std::vector<OperationEntry>& entries);
// In the header, after the skeleton: the handler and poller classes.
std::string ami_class_definitions(const Interface& interface, const std::vector<OperationEntry>& entries);
// In the source: sendc_, sendp_ and the poller's operations.
std::string ami_definitions(const Interface& interface, const std::vector<OperationEntry>& entries,
                            bool operation_indices);

}  // namespace switchyard::idl::cxx
