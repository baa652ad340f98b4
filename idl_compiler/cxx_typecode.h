// syidl C++ back end: TypeCodes and Any operators for generated types (docs/idl.md, "TypeCodes and
// Any"). For every struct, union, exception, enum, typedef, interface, valuetype and box X the
// generated code has `_tc_X()` (a function returning a TypeCode built once), and for every struct,
// union, exception and enum `operator<<=` / `operator>>=` with ::switchyard::any; typedefs get
// `insert_X` / `extract_X`.
// May include ast.h, cxx_emitter.h, cxx_types.h and cxx_marshal.h.
#pragma once

#include <string>
#include <vector>

#include "idl_compiler/ast.h"

namespace switchyard::idl::cxx {

// "::A::B::_tc_X": the TypeCode function of a type declaration.
std::string type_code_function(const Declaration& declaration);

// A C++ expression of type ::switchyard::type_code for `type`. `open` holds the structs and unions
// whose TypeCode the expression is part of: a reference to one of them is a recursive placeholder,
// and a type that reaches one is built in line instead of through its function (no re-entry).
std::string type_code_expression(const TypeSpec& type, std::vector<const Declaration*>& open);

// The type declarations that get a TypeCode (and Any operators): structs, unions, exceptions,
// enums, typedefs and interfaces, not forward declarations.
bool has_type_code(const Declaration& d);

// Header: what declares the TypeCode and Any functions of `d`. `in_class`: `d` is nested in a
// class (static functions, friend operators there).
std::string type_code_declarations(const Declaration& d, bool in_class);
// Header, inside the body of a struct, union or exception named `name`: the Any operators as friends.
std::string any_friend_declarations(const std::string& name);

// Source: the definitions for `d`, to be placed in d's namespace; `scope` is the class prefix of
// nested declarations as seen from there ("S::" or "").
std::string type_code_definitions(const Declaration& d, const std::string& scope);

}  // namespace switchyard::idl::cxx
