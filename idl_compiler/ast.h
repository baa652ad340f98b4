// syidl: the abstract syntax tree, made by the parser and completed by the checks (resolved
// names, constant values, repository ids). Back ends walk it; README.md describes the walk.
// Plain structs with a `kind` and unique_ptr ownership: switch on kind, static_cast, recurse.
// May include diagnostics.h (for SourceLocation) only.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "idl_compiler/diagnostics.h"

namespace switchyard::idl {

struct Declaration;
struct Enumerator;

// A name as written: `A::B`, `::A::B`.
struct ScopedName {
  bool absolute = false;
  std::vector<std::string> parts;
  SourceLocation location;
  std::string text() const;  // as written, e.g. "::A::B"
};

// ---------------------------------------------------------------- constant expressions

enum class ExprKind {
  integer_literal,
  floating_literal,
  fixed_literal,
  char_literal,
  wide_char_literal,
  string_literal,
  wide_string_literal,
  boolean_literal,
  name,
  unary,
  binary,
};

struct Expr {
  ExprKind kind;
  SourceLocation location;
  std::uint64_t integer = 0;          // integer_literal
  long double floating = 0;           // floating_literal, fixed_literal
  std::string text;                   // string literals (UTF-8), fixed_literal digits as written
  std::uint32_t character = 0;        // char literals (code point)
  bool boolean = false;               // boolean_literal
  ScopedName name;                    // name
  std::string op;                     // unary: + - ~ ; binary: | ^ & << >> + - * / %
  std::unique_ptr<Expr> left, right;  // unary uses left
};

enum class ConstKind {
  none,
  integer,
  floating,
  fixed,
  character,
  wide_character,
  string,
  wide_string,
  boolean,
  enumerator,
};

// The value of a checked constant expression, in the category of its type.
struct ConstValue {
  ConstKind kind = ConstKind::none;
  std::int64_t signed_integer = 0;     // integer: use this for signed types
  std::uint64_t unsigned_integer = 0;  // integer: and this for unsigned types (octet too)
  bool negative = false;               // integer: below zero (only signed types)
  long double floating = 0;            // floating, fixed
  std::string text;                    // string, wide_string (UTF-8); fixed: decimal text
  std::uint32_t character = 0;         // character, wide_character
  bool boolean = false;
  const Enumerator* enumerator = nullptr;
};

// ---------------------------------------------------------------- types

enum class BasicType {
  short_,
  long_,
  long_long,
  unsigned_short,
  unsigned_long,
  unsigned_long_long,
  float_,
  double_,
  long_double,
  char_,
  wchar,
  boolean,
  octet,
  any,
  object,
  type_code,
  value_base,
  void_,
};

enum class TypeKind {
  basic,     // `basic`
  string,    // bound (0: unbounded)
  wstring,   // bound
  sequence,  // element, bound
  fixed,     // digits, scale (both 0 for the bare `fixed` of a constant's type)
  array,     // element, dimensions (only on declarators: typedefs, members, attributes never)
  named,     // name; `resolved` after checks (a type declaration, maybe a typedef)
};

struct TypeSpec {
  TypeKind kind = TypeKind::basic;
  SourceLocation location;
  BasicType basic = BasicType::long_;
  std::unique_ptr<TypeSpec> element;
  std::unique_ptr<Expr> bound_expr;
  std::uint64_t bound = 0;
  std::vector<std::unique_ptr<Expr>> dimension_exprs;
  std::vector<std::uint64_t> dimensions;
  std::unique_ptr<Expr> digits_expr, scale_expr;
  std::uint32_t digits = 0, scale = 0;
  ScopedName name;
  Declaration* resolved = nullptr;

  std::unique_ptr<TypeSpec> clone() const;
};

const char* basic_type_name(BasicType type);

// ---------------------------------------------------------------- declarations

enum class DeclKind {
  module,
  interface,
  value_type,
  value_box,
  struct_,
  union_,
  enum_,
  enumerator,
  typedef_,
  constant,
  exception,
  native,
  attribute,
  operation,
  parameter,
  member,
  state_member,
  factory,
  directive,  // #pragma prefix/version/ID, typeprefix, typeid, file boundaries (no name)
};

const char* decl_kind_name(DeclKind kind);

struct Declaration {
  DeclKind kind;
  std::string name;  // without the `_` escape
  SourceLocation location;
  Declaration* parent = nullptr;  // the enclosing scope (the root module for top level)
  bool in_main_file = false;      // declared in the file named on the command line
  std::string repository_id;      // after checks; empty for kinds without one
  bool id_fixed = false;          // set by #pragma ID or typeid: #pragma version may not change it

  explicit Declaration(DeclKind k) : kind(k) {}
  virtual ~Declaration() = default;
  // "::A::B"; "" for the root.
  std::string scoped_name() const;
};

using DeclarationList = std::vector<std::unique_ptr<Declaration>>;

struct Module final : Declaration {
  Module() : Declaration(DeclKind::module) {}
  DeclarationList definitions;
  Module* first = this;  // a reopened module points at its first occurrence (one scope for all)
};

struct Interface final : Declaration {
  Interface() : Declaration(DeclKind::interface) {}
  bool is_abstract = false, is_local = false;
  bool forward = false;             // `interface X;`
  Interface* definition = nullptr;  // forward: the full declaration once seen
  std::vector<ScopedName> base_names;
  std::vector<Interface*> bases;  // resolved, direct
  DeclarationList definitions;    // operations, attributes, types, constants, exceptions
};

struct ValueType final : Declaration {
  ValueType() : Declaration(DeclKind::value_type) {}
  bool is_abstract = false, is_custom = false, is_truncatable = false;
  bool forward = false;
  ValueType* definition = nullptr;
  std::vector<ScopedName> base_names;
  std::vector<ScopedName> supports_names;
  std::vector<ValueType*> bases;     // resolved, direct, definitions (after checks)
  std::vector<Interface*> supports;  // resolved (after checks)
  DeclarationList definitions;       // state members, factories, operations, attributes, types
};

struct ValueBox final : Declaration {
  ValueBox() : Declaration(DeclKind::value_box) {}
  std::unique_ptr<TypeSpec> type;
};

struct Member final : Declaration {
  Member() : Declaration(DeclKind::member) {}
  std::unique_ptr<TypeSpec> type;  // array declarators give kind array
};

struct Struct final : Declaration {
  Struct() : Declaration(DeclKind::struct_) {}
  bool forward = false;
  Struct* definition = nullptr;
  DeclarationList definitions;  // types defined inside, before the member using them
  std::vector<std::unique_ptr<Member>> members;
};

struct Exception final : Declaration {
  Exception() : Declaration(DeclKind::exception) {}
  DeclarationList definitions;
  std::vector<std::unique_ptr<Member>> members;
};

struct CaseLabel {
  bool is_default = false;
  std::unique_ptr<Expr> expr;
  ConstValue value;  // after checks
  SourceLocation location;
};

struct UnionCase {
  std::vector<CaseLabel> labels;
  std::unique_ptr<Member> member;
};

struct Union final : Declaration {
  Union() : Declaration(DeclKind::union_) {}
  bool forward = false;
  Union* definition = nullptr;
  std::unique_ptr<TypeSpec> discriminator;
  DeclarationList definitions;
  std::vector<UnionCase> cases;
};

struct Enumerator final : Declaration {
  Enumerator() : Declaration(DeclKind::enumerator) {}
  std::uint32_t value = 0;
  const struct Enum* owner = nullptr;
};

struct Enum final : Declaration {
  Enum() : Declaration(DeclKind::enum_) {}
  std::vector<std::unique_ptr<Enumerator>> enumerators;
};

struct Typedef final : Declaration {
  Typedef() : Declaration(DeclKind::typedef_) {}
  std::unique_ptr<TypeSpec> type;  // one Typedef per declarator
};

struct Constant final : Declaration {
  Constant() : Declaration(DeclKind::constant) {}
  std::unique_ptr<TypeSpec> type;
  std::unique_ptr<Expr> expr;
  ConstValue value;
};

struct Native final : Declaration {
  Native() : Declaration(DeclKind::native) {}
};

struct Attribute final : Declaration {
  Attribute() : Declaration(DeclKind::attribute) {}
  bool readonly = false;
  std::unique_ptr<TypeSpec> type;  // one Attribute per declarator
  std::vector<ScopedName> get_raises_names, set_raises_names;
  std::vector<Exception*> get_raises, set_raises;  // resolved
};

enum class ParameterDirection { in, out, inout };

struct Parameter final : Declaration {
  Parameter() : Declaration(DeclKind::parameter) {}
  ParameterDirection direction = ParameterDirection::in;
  std::unique_ptr<TypeSpec> type;
};

struct Operation final : Declaration {
  Operation() : Declaration(DeclKind::operation) {}
  bool oneway = false;
  std::unique_ptr<TypeSpec> return_type;  // basic void for `void`
  std::vector<std::unique_ptr<Parameter>> parameters;
  std::vector<ScopedName> raises_names;
  std::vector<Exception*> raises;  // resolved
  std::vector<std::string> contexts;
};

struct StateMember final : Declaration {
  StateMember() : Declaration(DeclKind::state_member) {}
  bool is_public = true;
  std::unique_ptr<TypeSpec> type;
};

struct Factory final : Declaration {
  Factory() : Declaration(DeclKind::factory) {}
  std::vector<std::unique_ptr<Parameter>> parameters;
  std::vector<ScopedName> raises_names;
};

enum class DirectiveKind { pragma_prefix, pragma_version, pragma_id, type_prefix, type_id, file_begin, file_end };

// Where it stands in a definition list matters: repository ids depend on order.
struct Directive final : Declaration {
  Directive() : Declaration(DeclKind::directive) {}
  DirectiveKind directive = DirectiveKind::pragma_prefix;
  ScopedName target;  // version, ID, typeprefix, typeid
  std::string value;  // prefix, id, version ("2.4"); file name for file_begin
};

// The whole input: a root module with no name.
struct Specification {
  Module root;
};

// Text of the declarations with repository ids (syidl --dump): one line each,
// "<kind> <scoped name> <repository id>", indented by nesting. Only main-file declarations
// unless `all`.
std::string dump_declarations(const Specification& specification, bool all);

}  // namespace switchyard::idl
