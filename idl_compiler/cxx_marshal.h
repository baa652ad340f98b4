// syidl C++ back end: the marshaling statements generated code runs (docs/idl.md, "Marshaling").
// Streams are named `_out` (switchyard::cdr::output_stream) and `_in` (input_stream) in the
// generated code. May include ast.h, cxx_emitter.h, cxx_fixed_runs.h and cxx_types.h.
#pragma once

#include <string>

#include "idl_compiler/ast.h"
#include "idl_compiler/cxx_types.h"

namespace switchyard::idl::cxx {

// Statements that write `expr` (of IDL type `type`) to `_out`; `depth` keeps loop variables apart.
void write_value(std::string& code, const TypeSpec& type, const std::string& expr, const std::string& indent,
                 int depth = 0);
// Statements that read a value of `type` from `_in` into the lvalue `target`.
void read_value(std::string& code, const TypeSpec& type, const std::string& target, const std::string& indent,
                int depth = 0);
// Reads a sequence<octet> as a view into the receive buffer (skeleton in-parameters).
void read_octet_view(std::string& code, const TypeSpec& type, const std::string& target, const std::string& indent);

// Definitions of the hidden-friend marshaling functions `cdr_write` / `cdr_read` of a struct,
// exception or union (declared inside the generated class).
std::string struct_functions(const Struct& s);
std::string exception_functions(const Exception& e);
std::string union_functions(const Union& u);

}  // namespace switchyard::idl::cxx
