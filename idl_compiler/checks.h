// syidl stage 4: semantic checks. Walks the parsed AST in declaration order with scope tables
// (IDL's case-insensitive names), resolves every name, evaluates constant expressions, checks
// unions, inheritance and recursion rules, and gives every declaration its repository id
// (CORBA 3.0 section 10.7: #pragma prefix/version/ID, typeprefix, typeid). One error per problem:
// a name that failed to resolve is not reported again through what uses it.
// May include ast.h, diagnostics.h.
#pragma once

#include "idl_compiler/ast.h"
#include "idl_compiler/diagnostics.h"

namespace switchyard::idl {

struct CheckOptions {
  // A back end will generate code from the main file. Then valuetypes declared in the main
  // file, and main-file declarations that use a valuetype (or ValueBase) as a type, are errors
  // (the back ends do not support them). Without a back end they are only warnings, so that
  // every file omniidl accepts is accepted. Valuetypes in included files that the main file
  // does not use are never reported.
  bool generating = false;
};

// True when no error was found.
bool check(Specification& specification, Diagnostics& diagnostics, CheckOptions options = {});

}  // namespace switchyard::idl
