#include "idl_compiler/cxx_typecode.h"

#include <algorithm>
#include <functional>
#include <set>

#include "idl_compiler/cxx_emitter.h"
#include "idl_compiler/cxx_marshal.h"
#include "idl_compiler/cxx_types.h"

namespace switchyard::idl::cxx {

namespace {

const std::string tc = "::switchyard::type_code";

std::string basic(const char* kind) { return tc + "::basic(::switchyard::tc_kind::" + kind + ")"; }

std::string basic_expression(BasicType b) {
  switch (b) {
    case BasicType::short_:
      return basic("tk_short");
    case BasicType::long_:
      return basic("tk_long");
    case BasicType::long_long:
      return basic("tk_longlong");
    case BasicType::unsigned_short:
      return basic("tk_ushort");
    case BasicType::unsigned_long:
      return basic("tk_ulong");
    case BasicType::unsigned_long_long:
      return basic("tk_ulonglong");
    case BasicType::float_:
      return basic("tk_float");
    case BasicType::double_:
      return basic("tk_double");
    case BasicType::long_double:
      return basic("tk_longdouble");
    case BasicType::char_:
      return basic("tk_char");
    case BasicType::wchar:
      return basic("tk_wchar");
    case BasicType::boolean:
      return basic("tk_boolean");
    case BasicType::octet:
      return basic("tk_octet");
    case BasicType::any:
      return basic("tk_any");
    case BasicType::type_code:
      return basic("tk_TypeCode");
    case BasicType::object:
      return tc + "::make_objref(\"IDL:omg.org/CORBA/Object:1.0\", \"Object\")";
    case BasicType::void_:
      return basic("tk_void");
    case BasicType::value_base:  // CORBA::_tc_ValueBase
      return tc +
             "::make_value(\"IDL:omg.org/CORBA/ValueBase:1.0\", \"ValueBase\", ::switchyard::value_modifier::none, " +
             tc + "(), {})";
  }
  return tc + "()";
}

// The discriminator value of a label as the TypeCode stores it.
std::int64_t label_value(const ConstValue& v) {
  switch (v.kind) {
    case ConstKind::enumerator:
      return v.enumerator != nullptr ? v.enumerator->value : 0;
    case ConstKind::boolean:
      return v.boolean ? 1 : 0;
    case ConstKind::character:
    case ConstKind::wide_character:
      return v.character;
    default:
      return v.negative ? v.signed_integer : static_cast<std::int64_t>(v.unsigned_integer | v.signed_integer);
  }
}

// Whether a struct, union, valuetype or box reaches one of `targets` through its members (typedefs,
// sequences, arrays and concrete bases followed): then its TypeCode is part of a recursion.
bool reaches(const Declaration* from, const std::vector<const Declaration*>& targets) {
  std::set<const Declaration*> seen;
  std::function<bool(const TypeSpec&)> type_reaches;
  std::function<bool(const Declaration*)> decl_reaches = [&](const Declaration* d) -> bool {
    if (d == nullptr || !seen.insert(d).second) return false;
    switch (d->kind) {
      case DeclKind::struct_:
        for (const auto& m : static_cast<const Struct*>(d)->members)
          if (type_reaches(*m->type)) return true;
        return false;
      case DeclKind::union_:
        for (const auto& c : static_cast<const Union*>(d)->cases)
          if (type_reaches(*c.member->type)) return true;
        return false;
      case DeclKind::typedef_:
        return type_reaches(*static_cast<const Typedef*>(d)->type);
      case DeclKind::value_type: {
        const auto& v = *definition(static_cast<const ValueType*>(d));
        if (const ValueType* base = concrete_base(v);
            base != nullptr && (std::find(targets.begin(), targets.end(), base) != targets.end() || decl_reaches(base)))
          return true;
        for (const StateMember* m : own_state(v))
          if (type_reaches(*m->type)) return true;
        return false;
      }
      case DeclKind::value_box:
        return type_reaches(*static_cast<const ValueBox*>(d)->type);
      default:
        return false;
    }
  };
  type_reaches = [&](const TypeSpec& t) -> bool {
    switch (t.kind) {
      case TypeKind::sequence:
      case TypeKind::array:
        return t.element && type_reaches(*t.element);
      case TypeKind::named: {
        const Declaration* d = t.resolved && t.resolved->kind == DeclKind::typedef_ ? t.resolved : target_of(t);
        if (std::find(targets.begin(), targets.end(), d) != targets.end()) return true;
        return decl_reaches(d);
      }
      default:
        return false;
    }
  };
  return decl_reaches(from);
}

std::string members_list(const std::vector<std::unique_ptr<Member>>& members, std::vector<const Declaration*>& open) {
  std::string out = "{";
  for (std::size_t k = 0; k < members.size(); ++k)
    out += std::string(k ? ", " : "") + "{" + string_literal(members[k]->name) + ", " +
           type_code_expression(*members[k]->type, open) + "}";
  return out + "}";
}

// The expression for a declaration's TypeCode where a type names it: a recursion's placeholder,
// the TypeCode built in place, or a call to its function.
std::string declaration_expression(const Declaration& d, std::vector<const Declaration*>& open);

// The expression that builds the TypeCode of a type declaration (not a call to its function).
std::string build_expression(const Declaration& d, std::vector<const Declaration*>& open) {
  const std::string id = string_literal(d.repository_id), name = string_literal(d.name);
  switch (d.kind) {
    case DeclKind::struct_: {
      const auto& s = static_cast<const Struct&>(d);
      open.push_back(&d);
      std::string e = tc + "::make_struct(" + id + ", " + name + ", " + members_list(s.members, open) + ")";
      open.pop_back();
      return e;
    }
    case DeclKind::exception: {
      const auto& x = static_cast<const Exception&>(d);
      open.push_back(&d);
      std::string e = tc + "::make_exception(" + id + ", " + name + ", " + members_list(x.members, open) + ")";
      open.pop_back();
      return e;
    }
    case DeclKind::union_: {
      const auto& u = static_cast<const Union&>(d);
      open.push_back(&d);
      std::string members;
      int default_index = -1, index = 0;
      for (const auto& c : u.cases) {
        const std::string type = type_code_expression(*c.member->type, open);
        for (const auto& l : c.labels) {
          if (l.is_default) default_index = index;
          members += std::string(index ? ", " : "") + "{" +
                     (l.is_default ? "0" : std::to_string(label_value(l.value)) + "LL") + ", " +
                     string_literal(c.member->name) + ", " + type + "}";
          ++index;
        }
      }
      std::string e = tc + "::make_union(" + id + ", " + name + ", " + type_code_expression(*u.discriminator, open) +
                      ", " + std::to_string(default_index) + ", {" + members + "})";
      open.pop_back();
      return e;
    }
    case DeclKind::enum_: {
      std::string names;
      for (const auto& e : static_cast<const Enum&>(d).enumerators)
        names += (names.empty() ? "" : ", ") + string_literal(e->name);
      return tc + "::make_enum(" + id + ", " + name + ", {" + names + "})";
    }
    case DeclKind::typedef_:
      return tc + "::make_alias(" + id + ", " + name + ", " +
             type_code_expression(*static_cast<const Typedef&>(d).type, open) + ")";
    case DeclKind::interface:
      return tc + (static_cast<const Interface&>(d).is_abstract ? "::make_abstract_interface(" : "::make_objref(") +
             id + ", " + name + ")";
    case DeclKind::value_type: {
      const auto& v = *definition(static_cast<const ValueType*>(&d));
      open.push_back(&v);
      const char* modifier = v.is_custom        ? "custom"
                             : v.is_abstract    ? "abstract"
                             : v.is_truncatable ? "truncatable"
                                                : "none";
      const ValueType* base = concrete_base(v);
      std::string members;
      for (const StateMember* m : own_state(v))
        members += std::string(members.empty() ? "" : ", ") + "{" + string_literal(m->name) + ", " +
                   type_code_expression(*m->type, open) + ", " + (m->is_public ? "1" : "0") + "}";
      std::string e = tc + "::make_value(" + id + ", " + name + ", ::switchyard::value_modifier::" + modifier + ", " +
                      (base != nullptr ? declaration_expression(*base, open) : tc + "()") + ", {" + members + "})";
      open.pop_back();
      return e;
    }
    case DeclKind::value_box:
      return tc + "::make_value_box(" + id + ", " + name + ", " +
             type_code_expression(*static_cast<const ValueBox&>(d).type, open) + ")";
    default:
      return tc + "()";
  }
}

}  // namespace

std::string type_code_function(const Declaration& declaration) {
  const std::string q = qualified(declaration);
  return q.substr(0, q.size() - identifier(declaration.name).size()) + "_tc_" + declaration.name;
}

namespace {

std::string declaration_expression(const Declaration& d, std::vector<const Declaration*>& open) {
  if (std::find(open.begin(), open.end(), &d) != open.end())
    return tc + "::make_recursive(" + string_literal(d.repository_id) + ")";
  // Inside a recursion, built in place: its function would call back into the one being built.
  if (!open.empty() &&
      (d.kind == DeclKind::struct_ || d.kind == DeclKind::union_ || d.kind == DeclKind::typedef_ ||
       d.kind == DeclKind::value_type || d.kind == DeclKind::value_box) &&
      reaches(&d, open))
    return build_expression(d, open);
  return type_code_function(d) + "()";
}

}  // namespace

std::string type_code_expression(const TypeSpec& type, std::vector<const Declaration*>& open) {
  switch (type.kind) {
    case TypeKind::basic:
      return basic_expression(type.basic);
    case TypeKind::string:
      return tc + "::make_string(" + std::to_string(type.bound) + "u)";
    case TypeKind::wstring:
      return tc + "::make_wstring(" + std::to_string(type.bound) + "u)";
    case TypeKind::sequence:
      return tc + "::make_sequence(" + type_code_expression(*type.element, open) + ", " + std::to_string(type.bound) +
             "u)";
    case TypeKind::fixed:
      return tc + "::make_fixed(" + std::to_string(type.digits) + ", " + std::to_string(type.scale) + ")";
    case TypeKind::array: {
      std::string e = type_code_expression(*type.element, open);
      for (auto it = type.dimensions.rbegin(); it != type.dimensions.rend(); ++it)
        e = tc + "::make_array(" + e + ", " + std::to_string(*it) + "u)";
      return e;
    }
    case TypeKind::named: {
      // Typedefs keep their alias TypeCode; forward declarations give way to their definitions.
      const Declaration* d =
          type.resolved && type.resolved->kind == DeclKind::typedef_ ? type.resolved : target_of(type);
      if (d == nullptr) return tc + "()";
      // An interface only forward-declared in this specification has no _tc_ function anywhere.
      if (d->kind == DeclKind::interface && static_cast<const Interface*>(d)->forward)
        return build_expression(*d, open);
      return declaration_expression(*d, open);
    }
  }
  return tc + "()";
}

namespace {

constexpr std::string_view type_code_function_template = R"(
const ::switchyard::type_code& ${scope}_tc_${name}() {
  static const ::switchyard::type_code _tc = ${expression};
  return _tc;
}

)";

// Structs and unions: the value is what cdr_write writes.
constexpr std::string_view any_operators_template = R"(
void operator<<=(::switchyard::any& _a, const ${type}& _v) {
  _a.replace(${type_code}, [&](::switchyard::cdr::output_stream& _out) { cdr_write(_out, _v); });
}

bool operator>>=(const ::switchyard::any& _a, ${type}& _v) {
  return _a.extract(${type_code}, [&](::switchyard::cdr::input_stream& _in) { cdr_read(_in, _v); });
}

)";

// In an Any an exception is its repository id, then its members.
constexpr std::string_view exception_any_operators_template = R"(
void operator<<=(::switchyard::any& _a, const ${type}& _v) {
  _a.replace(${type_code}, [&](::switchyard::cdr::output_stream& _out) {
    _out.write_string(${type}::_repository_id);
    cdr_write(_out, _v);
  });
}

bool operator>>=(const ::switchyard::any& _a, ${type}& _v) {
  return _a.extract(${type_code}, [&](::switchyard::cdr::input_stream& _in) {
    (void)_in.read_string_view();
    cdr_read(_in, _v);
  });
}

)";

constexpr std::string_view enum_any_operators_template = R"(
void operator<<=(::switchyard::any& _a, ${type} _v) {
  _a.replace(${type_code}, [&](::switchyard::cdr::output_stream& _out) { _out.write_ulong(static_cast<std::uint32_t>(_v)); });
}

bool operator>>=(const ::switchyard::any& _a, ${type}& _v) {
  return _a.extract(${type_code}, [&](::switchyard::cdr::input_stream& _in) {
    const std::uint32_t _e = _in.read_ulong();
    if (_e >= ${enumerator_count}) _in.throw_marshal(::switchyard::minor::bad_enum, "enumerator out of range");
    _v = static_cast<${type}>(_e);
  });
}

)";

// Valuetypes and boxes: the value goes with its header, through a value scope of its own (an
// Any's value is a whole graph, shared with nothing outside it).
constexpr std::string_view value_any_operators_template = R"(
void operator<<=(::switchyard::any& _a, const ::switchyard::value_ref<${type}>& _v) {
  _a.replace(${type_code}, [&](::switchyard::cdr::output_stream& _out) { ::switchyard::write_value(_out, _v); });
}

bool operator>>=(const ::switchyard::any& _a, ::switchyard::value_ref<${type}>& _v) {
  return _a.extract(${type_code}, [&](::switchyard::cdr::input_stream& _in) { ::switchyard::read_value(_in, _v); });
}

)";

// Abstract interfaces: the holder's reference or value, as a parameter goes (the value through a
// value scope of its own, as above).
constexpr std::string_view abstract_any_operators_template = R"(
void operator<<=(::switchyard::any& _a, const ${type}& _v) {
  _a.replace(${type_code}, [&](::switchyard::cdr::output_stream& _out) {
    ::switchyard::write_abstract(_out, _v._reference(), _v._value().get());
  });
}

bool operator>>=(const ::switchyard::any& _a, ${type}& _v) {
  return _a.extract(${type_code}, [&](::switchyard::cdr::input_stream& _in) { ::switchyard::read_abstract(_in, _v); });
}

)";

// Typedefs: named functions, since several typedefs may share one C++ type (docs/idl.md).
constexpr std::string_view typedef_any_functions_template = R"(
void ${scope}insert_${name}(::switchyard::any& _a, const ${type}& _v) {
  _a.replace(${type_code}, [&]([[maybe_unused]] ::switchyard::cdr::output_stream& _out) {
    ${write}
  });
}

bool ${scope}extract_${name}(const ::switchyard::any& _a, ${type}& _v) {
  return _a.extract(${type_code}, [&]([[maybe_unused]] ::switchyard::cdr::input_stream& _in) {
    ${read}
  });
}

)";

}  // namespace

bool has_type_code(const Declaration& d) {
  switch (d.kind) {
    case DeclKind::struct_:
      return !static_cast<const Struct&>(d).forward;
    case DeclKind::union_:
      return !static_cast<const Union&>(d).forward;
    case DeclKind::interface:
      return !static_cast<const Interface&>(d).forward;
    case DeclKind::exception:
    case DeclKind::enum_:
    case DeclKind::typedef_:
    case DeclKind::value_box:
      return true;
    case DeclKind::value_type:
      return !static_cast<const ValueType&>(d).forward;
    default:
      return false;
  }
}

std::string any_friend_declarations(const std::string& name) {
  return "friend void operator<<=(::switchyard::any&, const " + name +
         "&);\n"
         "friend bool operator>>=(const ::switchyard::any&, " +
         name + "&);\n";
}

std::string type_code_declarations(const Declaration& d, bool in_class) {
  const std::string name = identifier(d.name);
  std::string out = "// The TypeCode of " + d.scoped_name() + ".\n";
  out += std::string(in_class ? "static " : "") + "const ::switchyard::type_code& _tc_" + d.name + "();\n";
  if (d.kind == DeclKind::enum_) {
    const std::string f = in_class ? "friend " : "";
    out += f + "void operator<<=(::switchyard::any&, " + name + ");\n";
    out += f + "bool operator>>=(const ::switchyard::any&, " + name + "&);\n";
  } else if (d.kind == DeclKind::value_type || d.kind == DeclKind::value_box) {
    const std::string f = in_class ? "friend " : "";
    out += f + "void operator<<=(::switchyard::any&, const ::switchyard::value_ref<" + name + ">&);\n";
    out += f + "bool operator>>=(const ::switchyard::any&, ::switchyard::value_ref<" + name + ">&);\n";
  } else if (d.kind == DeclKind::interface && static_cast<const Interface&>(d).is_abstract) {
    out += "void operator<<=(::switchyard::any&, const " + name + "&);\n";
    out += "bool operator>>=(const ::switchyard::any&, " + name + "&);\n";
  } else if (d.kind == DeclKind::typedef_) {
    const std::string s = in_class ? "static " : "";
    out += s + "void insert_" + d.name + "(::switchyard::any&, const " + name + "&);\n";
    out += s + "bool extract_" + d.name + "(const ::switchyard::any&, " + name + "&);\n";
  }
  return out;
}

std::string type_code_definitions(const Declaration& d, const std::string& scope) {
  std::vector<const Declaration*> open;
  const std::string type = qualified(d);
  const std::string type_code = scope + "_tc_" + d.name + "()";
  std::string out = fill(type_code_function_template,
                         {{"scope", scope}, {"name", d.name}, {"expression", build_expression(d, open)}});
  switch (d.kind) {
    case DeclKind::struct_:
    case DeclKind::union_:
      return out + fill(any_operators_template, {{"type", type}, {"type_code", type_code}});
    case DeclKind::exception:
      return out + fill(exception_any_operators_template, {{"type", type}, {"type_code", type_code}});
    case DeclKind::enum_:
      return out + fill(enum_any_operators_template,
                        {{"type", type},
                         {"type_code", type_code},
                         {"enumerator_count", std::to_string(static_cast<const Enum&>(d).enumerators.size())}});
    case DeclKind::value_type:
    case DeclKind::value_box:
      return out + fill(value_any_operators_template, {{"type", type}, {"type_code", type_code}});
    case DeclKind::interface:
      if (!static_cast<const Interface&>(d).is_abstract) return out;
      return out + fill(abstract_any_operators_template, {{"type", type}, {"type_code", type_code}});
    case DeclKind::typedef_: {
      const auto& t = static_cast<const Typedef&>(d);
      std::string write, read;
      write_value(write, *t.type, "_v", "");
      read_value(read, *t.type, "_v", "");
      return out + fill(typedef_any_functions_template, {{"scope", scope},
                                                         {"name", d.name},
                                                         {"type", type},
                                                         {"type_code", type_code},
                                                         {"write", write},
                                                         {"read", read}});
    }
    default:
      return out;
  }
}

}  // namespace switchyard::idl::cxx
