#include "idl_compiler/cxx_types.h"

#include <cinttypes>
#include <cstdio>
#include <functional>
#include <set>

#include "idl_compiler/cxx_emitter.h"

namespace switchyard::idl::cxx {

namespace {

const std::set<std::string>& cxx_keywords() {
  static const std::set<std::string> words = {
      "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break", "case", "catch", "char",
      "char8_t", "char16_t", "char32_t", "class", "compl", "concept", "const", "consteval", "constexpr", "constinit",
      "const_cast", "continue", "co_await", "co_return", "co_yield", "decltype", "default", "delete", "do", "double",
      "dynamic_cast", "else", "enum", "explicit", "export", "extern", "false", "float", "for", "friend", "goto", "if",
      "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq", "nullptr", "operator", "or",
      "or_eq", "private", "protected", "public", "register", "reinterpret_cast", "requires", "return", "short",
      "signed", "sizeof", "static", "static_assert", "static_cast", "struct", "switch", "template", "this",
      "thread_local", "throw", "true", "try", "typedef", "typeid", "typename", "union", "unsigned", "using", "virtual",
      "void", "volatile", "wchar_t", "while", "xor", "xor_eq",
      // names the generated code itself uses in the scopes IDL names land in
      "cdr_write", "cdr_read", "std", "switchyard", "NULL", "assert", "errno", "offsetof"};
  return words;
}

std::string integer_literal(const TypeSpec& type, const ConstValue& value) {
  BasicType b = type.basic;
  bool is_signed = b == BasicType::short_ || b == BasicType::long_ || b == BasicType::long_long;
  std::string text;
  if (is_signed) {
    if (value.signed_integer == INT64_MIN) return "(-9223372036854775807LL - 1)";
    text = std::to_string(value.signed_integer) + "LL";
  } else {
    text = std::to_string(value.unsigned_integer) + "ULL";
  }
  return "static_cast<" + type_name(type) + ">(" + text + ")";
}

}  // namespace

bool has_main_content(const Declaration& declaration) {
  if (declaration.kind != DeclKind::module) return declaration.in_main_file && declaration.kind != DeclKind::directive;
  for (const auto& c : static_cast<const Module&>(declaration).definitions)
    if (has_main_content(*c)) return true;
  return false;
}

const DeclarationList* nested_definitions(const Declaration& declaration) {
  switch (declaration.kind) {
    case DeclKind::module:
      return &static_cast<const Module&>(declaration).definitions;
    case DeclKind::interface:
      return &static_cast<const Interface&>(declaration).definitions;
    case DeclKind::struct_:
      return &static_cast<const Struct&>(declaration).definitions;
    case DeclKind::union_:
      return &static_cast<const Union&>(declaration).definitions;
    case DeclKind::exception:
      return &static_cast<const Exception&>(declaration).definitions;
    case DeclKind::value_type:
      return &static_cast<const ValueType&>(declaration).definitions;
    default:
      return nullptr;
  }
}

std::string identifier(const std::string& idl_name) {
  return cxx_keywords().count(idl_name) ? "_cxx_" + idl_name : idl_name;
}

std::string qualified(const Declaration& declaration) {
  std::string out;
  for (const Declaration* d = &declaration; d != nullptr && !d->name.empty(); d = d->parent)
    out = "::" + identifier(d->name) + out;
  return out;
}

std::string namespace_of(const Declaration& declaration) {
  std::vector<std::string> parts;
  for (const Declaration* p = declaration.parent; p != nullptr && !p->name.empty(); p = p->parent)
    if (p->kind == DeclKind::module) parts.push_back(identifier(p->name));
    else parts.clear();  // only modules above the outermost class count
  std::string out;
  for (auto it = parts.rbegin(); it != parts.rend(); ++it) out += (out.empty() ? "" : "::") + *it;
  return out;
}

std::string relative_name(const Declaration& declaration) {
  const std::string ns = namespace_of(declaration);
  const std::string q = qualified(declaration);
  const std::string prefix = ns.empty() ? "::" : "::" + ns + "::";
  return q.rfind(prefix, 0) == 0 ? q.substr(prefix.size()) : q;
}

const Declaration* target_of(const TypeSpec& type) {
  const Declaration* d = type.resolved;
  if (d == nullptr) return nullptr;
  switch (d->kind) {
    case DeclKind::interface: {
      auto* i = static_cast<const Interface*>(d);
      return i->forward && i->definition != nullptr ? i->definition : i;
    }
    case DeclKind::struct_: {
      auto* s = static_cast<const Struct*>(d);
      return s->forward && s->definition != nullptr ? s->definition : s;
    }
    case DeclKind::union_: {
      auto* u = static_cast<const Union*>(d);
      return u->forward && u->definition != nullptr ? u->definition : u;
    }
    case DeclKind::value_type: {
      auto* v = static_cast<const ValueType*>(d);
      return v->forward && v->definition != nullptr ? v->definition : v;
    }
    default:
      return d;
  }
}

const ValueType* definition(const ValueType* value) {
  return value->forward && value->definition ? value->definition : value;
}

std::vector<const StateMember*> own_state(const ValueType& value) {
  std::vector<const StateMember*> out;
  for (const auto& d : value.definitions)
    if (d->kind == DeclKind::state_member) out.push_back(static_cast<const StateMember*>(d.get()));
  return out;
}

const ValueType* concrete_base(const ValueType& value) {
  for (const ValueType* b : value.bases)
    if (!definition(b)->is_abstract) return definition(b);
  return nullptr;
}

const TypeSpec& unalias(const TypeSpec& type) {
  const TypeSpec* t = &type;
  for (int guard = 0;
       guard < 1000 && t->kind == TypeKind::named && t->resolved != nullptr && t->resolved->kind == DeclKind::typedef_;
       ++guard)
    t = static_cast<const Typedef*>(t->resolved)->type.get();
  return *t;
}

static std::string basic_name(BasicType b) {
  switch (b) {
    case BasicType::short_:
      return "std::int16_t";
    case BasicType::long_:
      return "std::int32_t";
    case BasicType::long_long:
      return "std::int64_t";
    case BasicType::unsigned_short:
      return "std::uint16_t";
    case BasicType::unsigned_long:
      return "std::uint32_t";
    case BasicType::unsigned_long_long:
      return "std::uint64_t";
    case BasicType::float_:
      return "float";
    case BasicType::double_:
      return "double";
    case BasicType::long_double:
      return "long double";
    case BasicType::char_:
      return "char";
    case BasicType::wchar:
      return "char16_t";
    case BasicType::boolean:
      return "bool";
    case BasicType::octet:
      return "std::uint8_t";
    case BasicType::any:
      return "::switchyard::any";
    case BasicType::object:
      return "::switchyard::object_ref";
    case BasicType::type_code:
      return "::switchyard::type_code";
    case BasicType::value_base:
      return "::switchyard::value_ref<::switchyard::value_base>";
    case BasicType::void_:
      return "void";
  }
  return "void";
}

std::string type_name(const TypeSpec& type) {
  switch (type.kind) {
    case TypeKind::basic:
      return basic_name(type.basic);
    case TypeKind::string:
      return "std::string";
    case TypeKind::wstring:
      return "std::u16string";
    case TypeKind::sequence:
      return "std::vector<" + type_name(*type.element) + ">";
    case TypeKind::fixed:
      return "::switchyard::fixed";
    case TypeKind::array: {
      std::string t = type_name(*type.element);
      for (auto it = type.dimensions.rbegin(); it != type.dimensions.rend(); ++it)
        t = "std::array<" + t + ", " + std::to_string(*it) + ">";
      return t;
    }
    case TypeKind::named: {
      const Declaration* d = target_of(type);
      if (d == nullptr) return "void";
      // An interface this specification only forward-declares has no stub class to complete.
      if (d->kind == DeclKind::interface && static_cast<const Interface*>(d)->forward)
        return "::switchyard::object_member<" + qualified(*d) + ">";
      if (d->kind == DeclKind::value_type || d->kind == DeclKind::value_box)
        return "::switchyard::value_ref<" + qualified(*d) + ">";
      return qualified(*d);
    }
  }
  return "void";
}

DeclarationOrder::DeclarationOrder(const Specification& specification) { number(specification.root); }

void DeclarationOrder::number(const Declaration& d) {
  const std::size_t first = next_++;
  const DeclarationList* nested = nullptr;
  switch (d.kind) {
    case DeclKind::module:
      nested = &static_cast<const Module&>(d).definitions;
      break;
    case DeclKind::interface:
      nested = &static_cast<const Interface&>(d).definitions;
      break;
    case DeclKind::value_type:
      nested = &static_cast<const ValueType&>(d).definitions;
      break;
    case DeclKind::struct_:
      nested = &static_cast<const Struct&>(d).definitions;
      break;
    case DeclKind::union_:
      nested = &static_cast<const Union&>(d).definitions;
      break;
    case DeclKind::exception:
      nested = &static_cast<const Exception&>(d).definitions;
      break;
    default:
      break;
  }
  if (nested != nullptr)
    for (const auto& child : *nested) number(*child);
  spans_[&d] = {first, next_ - 1};
}

bool DeclarationOrder::defined_before(const Declaration& interface, const Declaration& where) const {
  if (interface.kind == DeclKind::interface && static_cast<const Interface&>(interface).forward) return false;
  const auto defined = spans_.find(&interface);
  const auto at = spans_.find(&where);
  return defined != spans_.end() && at != spans_.end() && defined->second.last < at->second.first;
}

std::string member_type_name(const TypeSpec& type, const Declaration& where, const DeclarationOrder& order,
                             bool as_member) {
  switch (type.kind) {
    case TypeKind::sequence:
      return "std::vector<" + member_type_name(*type.element, where, order) + ">";
    case TypeKind::array: {
      std::string t = member_type_name(*type.element, where, order);
      for (auto it = type.dimensions.rbegin(); it != type.dimensions.rend(); ++it)
        t = "std::array<" + t + ", " + std::to_string(*it) + ">";
      return t;
    }
    case TypeKind::named: {
      const TypeSpec& t = unalias(type);
      const Declaration* target = t.kind == TypeKind::named ? target_of(t) : nullptr;
      if (as_member && target != nullptr && target->kind == DeclKind::interface &&
          !static_cast<const Interface*>(target)->forward && !order.defined_before(*target, where))
        return "::switchyard::object_member<" + type_name(type) + ">";
      return type_name(type);
    }
    default:
      return type_name(type);
  }
}

bool is_primitive(const TypeSpec& type) {
  const TypeSpec& t = unalias(type);
  if (t.kind == TypeKind::basic)
    return t.basic != BasicType::any && t.basic != BasicType::object && t.basic != BasicType::type_code &&
           t.basic != BasicType::value_base;
  return t.kind == TypeKind::named && target_of(t) != nullptr && target_of(t)->kind == DeclKind::enum_;
}

static bool contains_value_impl(const TypeSpec& type, std::vector<const Declaration*>& seen) {
  const TypeSpec& t = unalias(type);
  switch (t.kind) {
    case TypeKind::basic:
      return t.basic == BasicType::value_base;
    case TypeKind::sequence:
    case TypeKind::array:
      return contains_value_impl(*t.element, seen);
    case TypeKind::named: {
      const Declaration* d = target_of(t);
      if (d == nullptr) return false;
      if (d->kind == DeclKind::value_type || d->kind == DeclKind::value_box) return true;
      if (d->kind == DeclKind::interface && static_cast<const Interface*>(d)->is_abstract) return true;  // or a value
      for (const Declaration* s : seen)
        if (s == d) return false;
      seen.push_back(d);
      if (d->kind == DeclKind::struct_) {
        for (const auto& m : static_cast<const Struct*>(d)->members)
          if (contains_value_impl(*m->type, seen)) return true;
      } else if (d->kind == DeclKind::exception) {
        for (const auto& m : static_cast<const Exception*>(d)->members)
          if (contains_value_impl(*m->type, seen)) return true;
      } else if (d->kind == DeclKind::union_) {
        for (const auto& c : static_cast<const Union*>(d)->cases)
          if (contains_value_impl(*c.member->type, seen)) return true;
      }
      return false;
    }
    default:
      return false;
  }
}

bool contains_value(const TypeSpec& type) {
  std::vector<const Declaration*> seen;
  return contains_value_impl(type, seen);
}

bool is_octet_sequence(const TypeSpec& type) {
  const TypeSpec& t = unalias(type);
  if (t.kind != TypeKind::sequence) return false;
  const TypeSpec& e = unalias(*t.element);
  return e.kind == TypeKind::basic && e.basic == BasicType::octet;
}

std::string parameter_type(const TypeSpec& type, ParameterDirection direction) {
  if (direction != ParameterDirection::in) return type_name(type) + "&";
  if (is_primitive(type)) return type_name(type);
  if (is_octet_sequence(type)) return "std::span<const std::uint8_t>";
  return "const " + type_name(type) + "&";
}

bool is_bulk_primitive(BasicType b) {
  switch (b) {
    case BasicType::short_:
    case BasicType::long_:
    case BasicType::long_long:
    case BasicType::unsigned_short:
    case BasicType::unsigned_long:
    case BasicType::unsigned_long_long:
    case BasicType::float_:
    case BasicType::double_:
    case BasicType::char_:
    case BasicType::octet:
      return true;
    default:
      return false;
  }
}

static std::size_t basic_size(BasicType b) {
  switch (b) {
    case BasicType::short_:
    case BasicType::unsigned_short:
    case BasicType::wchar:
      return 2;
    case BasicType::long_:
    case BasicType::unsigned_long:
    case BasicType::float_:
      return 4;
    case BasicType::long_long:
    case BasicType::unsigned_long_long:
    case BasicType::double_:
      return 8;
    case BasicType::long_double:
      return 16;
    case BasicType::char_:
    case BasicType::boolean:
    case BasicType::octet:
      return 1;
    default:
      return 4;
  }
}

static std::size_t min_size_impl(const TypeSpec& type, int depth) {
  if (depth > 64) return 0;
  const TypeSpec& t = unalias(type);
  switch (t.kind) {
    case TypeKind::basic:
      if (t.basic == BasicType::wchar) return 1;  // GIOP 1.2: an octet length first
      return basic_size(t.basic);
    case TypeKind::string:
      return 5;  // length and NUL
    case TypeKind::wstring:
      return 4;  // GIOP 1.2: no NUL
    case TypeKind::sequence:
      return 4;
    case TypeKind::fixed:
      return (t.digits + 2) / 2;  // packed decimal
    case TypeKind::array: {
      std::size_t n = min_size_impl(*t.element, depth + 1);
      for (auto d : t.dimensions) n *= d;
      return n;
    }
    case TypeKind::named: {
      const Declaration* d = target_of(t);
      if (d == nullptr) return 0;
      std::size_t n = 0;
      if (d->kind == DeclKind::struct_)
        for (const auto& m : static_cast<const Struct*>(d)->members) n += min_size_impl(*m->type, depth + 1);
      else if (d->kind == DeclKind::exception)
        for (const auto& m : static_cast<const Exception*>(d)->members) n += min_size_impl(*m->type, depth + 1);
      else if (d->kind == DeclKind::union_) n = min_size_impl(*static_cast<const Union*>(d)->discriminator, depth + 1);
      else n = 4;  // enum, interface (an IOR is longer)
      return n;
    }
  }
  return 0;
}

std::size_t min_cdr_size(const TypeSpec& type) { return min_size_impl(type, 0); }

namespace {

constexpr std::size_t max_leaves = 64;

bool flatten(const TypeSpec& type, const std::string& path, std::vector<Leaf>& leaves, int depth) {
  if (depth > 16 || leaves.size() > max_leaves) return false;
  const TypeSpec& t = unalias(type);
  switch (t.kind) {
    case TypeKind::basic:
      if (t.basic == BasicType::boolean || is_bulk_primitive(t.basic)) {
        leaves.push_back({path, t.basic, nullptr, basic_size(t.basic)});
        return true;
      }
      return false;  // wchar (depends on the GIOP version), long double, any, Object
    case TypeKind::array: {
      std::size_t total = 1;
      for (auto d : t.dimensions) total *= d;
      if (total > max_leaves) return false;
      std::vector<std::size_t> index(t.dimensions.size(), 0);
      for (std::size_t k = 0; k < total; ++k) {
        std::string p = path;
        for (auto i : index) p += "[" + std::to_string(i) + "]";
        if (!flatten(*t.element, p, leaves, depth + 1)) return false;
        for (std::size_t d = index.size(); d-- > 0;) {
          if (++index[d] < t.dimensions[d]) break;
          index[d] = 0;
        }
      }
      return true;
    }
    case TypeKind::named: {
      const Declaration* d = target_of(t);
      if (d == nullptr) return false;
      if (d->kind == DeclKind::enum_) {
        leaves.push_back({path, BasicType::unsigned_long, static_cast<const Enum*>(d), 4});
        return true;
      }
      if (d->kind == DeclKind::struct_) {
        for (const auto& m : static_cast<const Struct*>(d)->members)
          if (!flatten(*m->type, path + "." + identifier(m->name), leaves, depth + 1)) return false;
        return true;
      }
      return false;
    }
    default:
      return false;
  }
}

}  // namespace

std::optional<FixedLayout> fixed_layout(const Struct& s) {
  FixedLayout layout;
  for (const auto& m : s.members)
    if (!flatten(*m->type, "." + identifier(m->name), layout.leaves, 0)) return std::nullopt;
  if (layout.leaves.empty() || layout.leaves.size() > max_leaves) return std::nullopt;
  for (const Leaf& l : layout.leaves) layout.alignment = std::max(layout.alignment, l.size);
  layout.first_alignment = layout.leaves.front().size;
  for (std::size_t r = 0; r < layout.alignment; r += layout.first_alignment) {
    Placement p;
    p.residue = r;
    std::size_t pos = r;
    for (const Leaf& l : layout.leaves) {
      pos += (l.size - pos % l.size) % l.size;
      p.offsets.push_back(pos - r);
      pos += l.size;
    }
    p.size = pos - r;
    layout.max_size = std::max(layout.max_size, p.size);
    layout.placements.push_back(std::move(p));
  }
  return layout;
}

std::string layout_declaration(const std::vector<LayoutLeaf>& leaves, std::size_t stride, const std::string& indent) {
  std::string list;
  for (const LayoutLeaf& leaf : leaves)
    list += (list.empty() ? "{" : ", {") + std::to_string(leaf.offset) + ", " + std::to_string(leaf.size) +
            (leaf.in_array ? ", true}" : "}");
  return indent + "static constexpr ::switchyard::cdr::struct_leaf _leaves[] = {" + list + "};\n" + indent +
         "static constexpr ::switchyard::cdr::struct_layout _layout{_leaves, " + std::to_string(stride) + "};\n";
}

std::string label_literal(const TypeSpec& discriminator, const ConstValue& value) {
  return constant_literal(discriminator, value);
}

std::string constant_literal(const TypeSpec& type, const ConstValue& value) {
  const TypeSpec& t = unalias(type);
  switch (value.kind) {
    case ConstKind::integer:
      if (t.kind == TypeKind::basic) return integer_literal(t, value);
      return std::to_string(value.signed_integer);
    case ConstKind::floating: {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.21Lg", value.floating);
      std::string text = buf;
      if (text.find_first_of(".eEn") == std::string::npos) text += ".0";
      if (t.kind == TypeKind::basic && t.basic == BasicType::float_) return "static_cast<float>(" + text + ")";
      if (t.kind == TypeKind::basic && t.basic == BasicType::long_double) return text + "L";
      return text;
    }
    case ConstKind::fixed:
      return "::switchyard::fixed(" + string_literal(value.text) + ")";
    case ConstKind::character:
      return "static_cast<char>(" + std::to_string(value.character) + ")";
    case ConstKind::wide_character:
      return "static_cast<char16_t>(" + std::to_string(value.character) + ")";
    case ConstKind::string:
      return string_literal(value.text);
    case ConstKind::wide_string:
      return u16_string_literal(value.text);
    case ConstKind::boolean:
      return value.boolean ? "true" : "false";
    case ConstKind::enumerator:
      if (value.enumerator != nullptr && value.enumerator->owner != nullptr)
        return qualified(*value.enumerator->owner) + "::" + identifier(value.enumerator->name);
      return "{}";
    case ConstKind::none:
      break;
  }
  return "{}";
}

}  // namespace switchyard::idl::cxx
