// syidl C++ back end: an interface as the generated code sees it. Its bases, flattened, and its
// operations in the order of the operation table (docs/idl.md, "The operation table"), each with
// the name of its skeleton's dispatch function. The header, stub, skeleton and operation-table
// files all walk this one list. May include ast.h and cxx_types.h.
#pragma once

#include <string>
#include <vector>

#include "idl_compiler/ast.h"

namespace switchyard::idl::cxx {

// One entry of an interface's operation table: an operation, or an attribute's getter or setter.
struct OperationEntry {
  std::string wire_name;                 // the name in a request: "greet", "_get_label", "_set_label"
  std::string dispatch_name;             // the skeleton's function: "_dispatch_greet", "_dispatch_get_label"
  const Operation* operation = nullptr;  // or
  const Attribute* attribute = nullptr;
  bool setter = false;
  std::vector<Exception*> raises;

  // The result's type; null for void and setters.
  const TypeSpec* result() const;
  bool oneway() const { return operation != nullptr && operation->oneway; }
};

// The bases of `interface`, depth first and left to right, each once (not the interface itself).
std::vector<const Interface*> ancestors_of(const Interface& interface);

// The operation table: each ancestor's operations and attributes in declaration order, then the
// interface's own; an attribute `x` as _get_x, then _set_x unless readonly. Each entry's index is
// the operation index a stub sends for active demultiplexing.
std::vector<OperationEntry> operations_of(const Interface& interface);

// An operation's context clause as a C++ expression that converts to
// std::span<const std::string_view>: `std::array<std::string_view, 2>{"a", "b*"}`.
std::string context_patterns(const Operation& op);

// "R name(params)" of the C++ member function (a trailing `const ::switchyard::context& _ctx`
// when the operation has a context clause), its name prefixed with `name_prefix` ("I::" for
// an out-of-class definition).
std::string signature(const OperationEntry& entry, const std::string& name_prefix = "");

}  // namespace switchyard::idl::cxx
