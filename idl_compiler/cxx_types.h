// syidl C++ back end: what each IDL type becomes in C++ (names, parameter passing), and the facts
// about it the marshaling code needs (minimal CDR size, fixed CDR layouts). docs/idl.md describes
// the mapping. May include ast.h and cxx_emitter.h.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "idl_compiler/ast.h"

namespace switchyard::idl::cxx {

// Whether C++ is generated for `declaration`: a declaration of the main file, or a module that
// holds one (reopened modules and #include'd files hold others' too).
bool has_main_content(const Declaration& declaration);
// The definitions nested in a module, interface, valuetype, struct, union or exception; null for others.
const DeclarationList* nested_definitions(const Declaration& declaration);

// An IDL identifier as a C++ identifier: C++ keywords get a `_cxx_` prefix.
std::string identifier(const std::string& idl_name);

// "::A::B" with every part escaped.
std::string qualified(const Declaration& declaration);
// The C++ namespace (modules only) that holds a declaration: "A::B", or "" at the root.
std::string namespace_of(const Declaration& declaration);
// The name seen from namespace_of: "I::S" for struct S in interface I in module M.
std::string relative_name(const Declaration& declaration);

// Follows typedefs (and forward declarations) to the type that gives the representation.
const TypeSpec& unalias(const TypeSpec& type);
// The declaration a named type stands for, forward declarations replaced by their definition.
const Declaration* target_of(const TypeSpec& type);

// The C++ type as written in generated code (typedef names kept).
std::string type_name(const TypeSpec& type);

// Where each declaration stands in the specification (depth first, in source order, included
// files too): tells whether an interface's stub class is complete at a point of the header.
class DeclarationOrder {
 public:
  explicit DeclarationOrder(const Specification& specification);
  // Whether the definition of `interface` ends before `where` begins (false when the interface
  // is only forward-declared, or `where` is inside it).
  bool defined_before(const Declaration& interface, const Declaration& where) const;

 private:
  void number(const Declaration& declaration);
  struct Span {
    std::size_t first = 0, last = 0;  // the declaration's number, and its last nested one's
  };
  std::unordered_map<const Declaration*, Span> spans_;
  std::size_t next_ = 0;
};

// The C++ type of a member of the struct, union or exception `where`, or of the typedef `where`
// (`as_member` false: only sequence and array elements count as members). An object reference
// whose stub class is not complete there is a ::switchyard::object_member<I> (docs/idl.md).
std::string member_type_name(const TypeSpec& type, const Declaration& where, const DeclarationOrder& order,
                             bool as_member = true);
// Parameter types: in (by value for primitives and enums, std::span<const std::uint8_t> for
// sequence<octet>, const& otherwise), out and inout (T&).
std::string parameter_type(const TypeSpec& type, ParameterDirection direction);

// Arithmetic types written as one block by write_array / read_array (not boolean, wchar, long double).
bool is_bulk_primitive(BasicType type);
// Primitive: passed by value.
bool is_primitive(const TypeSpec& type);
// A valuetype, box or ValueBase, or a type holding one (through structs, unions, exceptions,
// sequences, arrays and typedefs): its marshaling needs a value scope (switchyard/value.h).
bool contains_value(const TypeSpec& type);
// A valuetype's definition (itself, or what a forward declaration names); its own state members
// in order; the concrete valuetype it inherits, or null.
const ValueType* definition(const ValueType* value);
std::vector<const StateMember*> own_state(const ValueType& value);
const ValueType* concrete_base(const ValueType& value);
// sequence<octet>, possibly through typedefs.
bool is_octet_sequence(const TypeSpec& type);
// The fewest octets a value of the type occupies in CDR (checked against a length before sizing).
std::size_t min_cdr_size(const TypeSpec& type);

// A fixed-size struct's CDR layout: leaves (primitive members, nested struct and array members
// flattened) at precomputed offsets, for each start position modulo its alignment.
struct Leaf {
  std::string path;  // ".s", ".inner.x", ".grid[1][2]"
  BasicType basic = BasicType::long_;
  const Enum* enumeration = nullptr;  // an enum leaf (a ulong on the wire)
  std::size_t size = 0;               // CDR size = CDR alignment
};
struct Placement {
  std::size_t residue = 0;           // start position modulo alignment
  std::vector<std::size_t> offsets;  // per leaf, from the first octet of the struct
  std::size_t size = 0;              // octets from the first leaf to the end of the last
};
struct FixedLayout {
  std::vector<Leaf> leaves;
  std::size_t alignment = 1;          // largest leaf size
  std::size_t first_alignment = 1;    // the first leaf's
  std::vector<Placement> placements;  // one per residue that is a multiple of first_alignment
  std::size_t max_size = 0;
};
std::optional<FixedLayout> fixed_layout(const Struct& s);
// Statements declaring `_layout`, a ::switchyard::cdr::struct_layout of leaves {offset, size}
// repeated every `stride` octets: what the reader needs only should a value chunk split the struct
// or run (switchyard/cdr/input_stream.h).
struct LayoutLeaf {
  std::size_t offset = 0, size = 0;
  bool in_array = false;  // an element of an array of primitives
};
std::string layout_declaration(const std::vector<LayoutLeaf>& leaves, std::size_t stride, const std::string& indent);

// The discriminator value literal of a union label, in the discriminator's C++ type.
std::string label_literal(const TypeSpec& discriminator, const ConstValue& value);
// A constant's value as a C++ expression.
std::string constant_literal(const TypeSpec& type, const ConstValue& value);

}  // namespace switchyard::idl::cxx
