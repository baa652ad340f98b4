// TypeCodes (CORBA 3.0, 4.11 and CDR 15.3.5.1): immutable, reference-counted descriptions of IDL
// types. A `type_code` is a cheap handle (one shared pointer); copies share the description.
// Generated code builds them with the make_* functions (syidl emits `_tc_<Name>()`, docs/idl.md);
// the ORB reads and writes them with read_type_code / write_type_code.
//
// Every kind up to tk_fixed is supported, tk_Principal included, and tk_value, tk_value_box and
// tk_abstract_interface. The others after them (tk_native, tk_local_interface, tk_component,
// tk_home, tk_event) are rejected: BAD_TYPECODE when built, MARSHAL minor::unsupported_typecode
// when read. An Any holds values and boxes as their CDR (a graph of its own: sharing and cycles
// inside it survive); one whose factory is not registered is read from the TypeCode alone and
// sent on unchanged (orb/dynamic/dynamic_value.h). Custom and abstract valuetypes need their
// factory (MARSHAL minor::no_value_factory without it).
//
// Recursive types (struct Node { sequence<Node> children; }, valuetype Node { public Node next; })
// are built with make_recursive(id) in place of the enclosing type; make_struct / make_union /
// make_value bind every such placeholder with their id below them. The placeholder refers to its enclosing type without
// owning it, so there is no reference cycle: a type_code reached by navigating from the enclosing one keeps the whole
// tree alive.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "switchyard/exception.h"

namespace switchyard {

namespace cdr {
class input_stream;
class output_stream;
}  // namespace cdr

// TCKind, with the values the wire carries.
enum class tc_kind : std::uint32_t {
  tk_null = 0,
  tk_void = 1,
  tk_short = 2,
  tk_long = 3,
  tk_ushort = 4,
  tk_ulong = 5,
  tk_float = 6,
  tk_double = 7,
  tk_boolean = 8,
  tk_char = 9,
  tk_octet = 10,
  tk_any = 11,
  tk_TypeCode = 12,
  tk_Principal = 13,
  tk_objref = 14,
  tk_struct = 15,
  tk_union = 16,
  tk_enum = 17,
  tk_string = 18,
  tk_sequence = 19,
  tk_array = 20,
  tk_alias = 21,
  tk_except = 22,
  tk_longlong = 23,
  tk_ulonglong = 24,
  tk_longdouble = 25,
  tk_wchar = 26,
  tk_wstring = 27,
  tk_fixed = 28,
  tk_value = 29,
  tk_value_box = 30,
  tk_native = 31,  // this one and those after it are rejected, tk_abstract_interface aside
  tk_abstract_interface = 32,
  tk_local_interface = 33,
  tk_component = 34,
  tk_home = 35,
  tk_event = 36,
};

// "tk_struct"; "tk_<n>" for a number that names no kind.
std::string_view to_string(tc_kind kind) noexcept;

namespace minor {
// MARSHAL while reading a TypeCode or a value described by one (vendor codes 0x53590040...).
inline constexpr std::uint32_t bad_typecode = vendor_base | 0x40;          // malformed TypeCode
inline constexpr std::uint32_t unsupported_typecode = vendor_base | 0x41;  // tk_native, tk_local_interface...
inline constexpr std::uint32_t bad_indirection = vendor_base | 0x42;       // indirection to nowhere
inline constexpr std::uint32_t typecode_too_deep = vendor_base | 0x43;     // nesting beyond the limit
}  // namespace minor

namespace detail {
struct type_code_node;
}

struct type_code_member;
struct type_code_union_member;
struct type_code_value_member;

// A valuetype's type modifier (CORBA 3.0, 4.11.1: ValueModifier).
enum class value_modifier : std::int16_t { none = 0, custom = 1, abstract = 2, truncatable = 3 };

class type_code {
 public:
  // tk_null.
  type_code() noexcept;
  explicit type_code(std::shared_ptr<const detail::type_code_node> node) noexcept;

  // --- building
  // A kind without parameters: tk_null ... tk_TypeCode, tk_Principal, tk_longlong ... tk_wchar.
  // Never allocates. BAD_PARAM for a kind that needs parameters.
  static type_code basic(tc_kind kind);
  static type_code make_string(std::uint32_t bound = 0);
  static type_code make_wstring(std::uint32_t bound = 0);
  static type_code make_fixed(std::uint16_t digits, std::int16_t scale);
  static type_code make_sequence(const type_code& element, std::uint32_t bound = 0);
  // One dimension; `long m[3][4]` is array(array(long, 4), 3).
  static type_code make_array(const type_code& element, std::uint32_t length);
  static type_code make_alias(std::string id, std::string name, const type_code& original);
  static type_code make_objref(std::string id, std::string name);
  // An abstract interface: its values are an object reference or a valuetype (CDR: a boolean,
  // TRUE and an IOR, or FALSE and a value).
  static type_code make_abstract_interface(std::string id, std::string name);
  static type_code make_enum(std::string id, std::string name, std::vector<std::string> enumerators);
  static type_code make_struct(std::string id, std::string name, std::vector<type_code_member> members);
  static type_code make_exception(std::string id, std::string name, std::vector<type_code_member> members);
  // default_index: the member that is the default case, or -1.
  static type_code make_union(std::string id, std::string name, const type_code& discriminator,
                              std::int32_t default_index, std::vector<type_code_union_member> members);
  // concrete_base: the TypeCode of the concrete valuetype it inherits, or tk_null.
  static type_code make_value(std::string id, std::string name, value_modifier modifier, const type_code& concrete_base,
                              std::vector<type_code_value_member> members);
  static type_code make_value_box(std::string id, std::string name, const type_code& boxed);
  // A reference to the enclosing struct, union or valuetype `id` that is being built (see above).
  static type_code make_recursive(std::string id);

  // --- access (BAD_TYPECODE when the kind has no such thing, BAD_PARAM for an index out of range)
  tc_kind kind() const;
  const std::string& id() const;       // objref, struct, union, enum, alias, except, value, value_box,
                                       // abstract_interface
  const std::string& name() const;     // the same kinds
  std::uint32_t member_count() const;  // struct, union, enum, except, value
  const std::string& member_name(std::uint32_t index) const;
  type_code member_type(std::uint32_t index) const;      // struct, union, except, value
  std::int64_t member_label(std::uint32_t index) const;  // union
  // value: PRIVATE_MEMBER 0, PUBLIC_MEMBER 1
  std::int16_t member_visibility(std::uint32_t index) const;
  value_modifier type_modifier() const;  // value
  type_code concrete_base_type() const;  // value: tk_null when it has none
  type_code discriminator_type() const;  // union
  std::int32_t default_index() const;    // union: -1 for none
  std::uint32_t length() const;          // string, wstring, sequence (bound, 0: unbounded), array
  type_code content_type() const;        // sequence, array, alias, value_box
  std::uint16_t fixed_digits() const;
  std::int16_t fixed_scale() const;
  // Aliases followed to the type they name.
  type_code unaliased() const;

  // Equal: the same description, names included (CORBA TypeCode::equal).
  bool equal(const type_code& other) const;
  // Equivalent: aliases, names and member names ignored; types with repository ids on both sides
  // are equivalent when the ids are (TypeCode::equivalent). What Any extraction checks.
  bool equivalent(const type_code& other) const;
  friend bool operator==(const type_code& a, const type_code& b) { return a.equal(b); }

  // For the CDR code and the Any: the description, placeholders resolved.
  const detail::type_code_node& node() const;
  const std::shared_ptr<const detail::type_code_node>& shared_node() const noexcept { return node_; }

 private:
  std::shared_ptr<const detail::type_code_node> node_;
};

// A struct or exception member, as make_struct / make_exception take them.
struct type_code_member {
  std::string name;
  type_code type;
};

// A valuetype's state member, as make_value takes them.
struct type_code_value_member {
  std::string name;
  type_code type;
  std::int16_t visibility;  // 0: private, 1: public
};

// A union member: its label (the discriminator value as an integer: enumerator index, 0/1 for
// boolean, character code for char), name and type. The default member's label is ignored.
struct type_code_union_member {
  std::int64_t label;
  std::string name;
  type_code type;
};

// CDR (15.3.5.1): the kind, then simple parameters in line or complex ones in an encapsulation.
// Recursive references are written as indirections (0xffffffff, then a negative offset);
// repeated, non-recursive TypeCodes are written in full.
void write_type_code(cdr::output_stream& out, const type_code& tc);
// Reads one TypeCode, indirections included. Every length is checked against what remains,
// nesting is limited (max_type_code_depth), and anything malformed raises MARSHAL.
type_code read_type_code(cdr::input_stream& in);
void read_type_code(cdr::input_stream& in, type_code& out);

inline constexpr int max_type_code_depth = 64;

}  // namespace switchyard
