#include "idl_compiler/cxx_back_end.h"

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <utility>

#include "idl_compiler/cxx_marshal.h"
#include "idl_compiler/cxx_typecode.h"
#include "idl_compiler/cxx_types.h"
#include "idl_compiler/fast_lookup_driver.h"
#include "idl_compiler/gperf_driver.h"

namespace switchyard::idl {

namespace {

using namespace cxx;

// One entry of an interface's operation table, in the order documented in docs/idl.md.
struct OperationEntry {
  std::string wire_name;                 // "echo_long", "_get_label", "_set_label"
  const Operation* operation = nullptr;  // or
  const Attribute* attribute = nullptr;  // with setter
  bool setter = false;
  std::vector<Exception*> raises;
  Requirements requirements;
};

// The C++ namespace (modules only) that holds a declaration: "A::B", or "" at the root.
std::string namespace_of(const Declaration& d) {
  std::vector<std::string> parts;
  for (const Declaration* p = d.parent; p != nullptr && !p->name.empty(); p = p->parent)
    if (p->kind == DeclKind::module) parts.push_back(identifier(p->name));
    else parts.clear();  // only modules above the outermost class count
  std::string out;
  for (auto it = parts.rbegin(); it != parts.rend(); ++it) out += (out.empty() ? "" : "::") + *it;
  return out;
}

// The outermost non-module declaration's chain: "I::S" for struct S in interface I in module M.
std::string relative_name(const Declaration& d) {
  std::string ns = namespace_of(d);
  std::string q = qualified(d);
  std::string prefix = ns.empty() ? "::" : "::" + ns + "::";
  return q.rfind(prefix, 0) == 0 ? q.substr(prefix.size()) : q;
}

std::string open_ns(const std::string& ns) { return ns.empty() ? "" : "namespace " + ns + " {\n\n"; }
std::string close_ns(const std::string& ns) { return ns.empty() ? "\n" : "\n}  // namespace " + ns + "\n\n"; }

bool has_main_content(const Declaration& d) {
  if (d.kind != DeclKind::module) return d.in_main_file && d.kind != DeclKind::directive;
  for (const auto& c : static_cast<const Module&>(d).definitions)
    if (has_main_content(*c)) return true;
  return false;
}

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// Union label bookkeeping: a key per discriminator value, to find an unused default.
std::int64_t label_key(const ConstValue& v) {
  switch (v.kind) {
    case ConstKind::enumerator: return v.enumerator != nullptr ? v.enumerator->value : 0;
    case ConstKind::boolean: return v.boolean ? 1 : 0;
    case ConstKind::character:
    case ConstKind::wide_character: return v.character;
    default: return v.negative ? v.signed_integer : static_cast<std::int64_t>(v.unsigned_integer | v.signed_integer);
  }
}

class Generator {
 public:
  Generator(const Specification& spec, const BackEndOptions& options, Diagnostics& diagnostics)
      : spec_(spec), options_(options), diagnostics_(diagnostics) {}

  bool run();

 private:
  // --- checks
  void check_type(const TypeSpec& t, SourceLocation where);
  void check_declarations(const DeclarationList& list);

  // --- header
  void header_list(const DeclarationList& list, const std::string& indent, bool in_class);
  void header_declaration(const Declaration& d, const std::string& indent, bool in_class);
  void header_struct(const Struct& s, const std::string& indent);
  void header_exception(const Exception& e, const std::string& indent);
  void header_union(const Union& u, const std::string& indent);
  void header_interface(const Interface& i, const std::string& indent);
  // TypeCode and Any declarations after a type's own (cxx_typecode.h).
  void header_type_code(const Declaration& d, const std::string& indent, bool in_class);

  // --- source
  void source_list(const DeclarationList& list);
  void source_interface(const Interface& i);
  void source_type_codes(const DeclarationList& list);
  std::string stub_body(const Interface& i, const OperationEntry& e, std::size_t index);
  std::string skeleton_body(const Interface& i, const OperationEntry& e, std::size_t index);

  std::vector<OperationEntry> operations_of(const Interface& i);
  std::vector<const Interface*> ancestors_of(const Interface& i);  // bases, depth first, each once
  std::string signature(const OperationEntry& e, const std::string& name_prefix, bool skeleton);

  void guarded(std::string& out, const Requirements& r, const std::string& text) {
    if (r.none()) {
      out += text;
    } else {
      out += "#if " + r.condition() + "\n" + text + "#endif\n";
    }
  }

  void map_includes(const DeclarationList& list, std::vector<std::string>& files);

  // Emits a struct, exception or union (`emit` writes it at an indent). Inside an interface, one
  // that holds object references may hold the interface itself, incomplete until the stub class
  // closes (CosNaming's CannotProceed holds a NamingContext): it is only declared there and
  // defined right after the class, as `I::name`.
  struct Deferral {
    std::string owner;   // "NamingContext::"
    std::string indent;  // the interface's
    std::string text;    // the definitions, emitted after the stub class
  };
  void type_definition(const Declaration& d, const char* keyword, const std::string& indent,
                       const std::function<void(const std::string&)>& emit);

  const Specification& spec_;
  const BackEndOptions& options_;
  Diagnostics& diagnostics_;
  std::string h_, cpp_;
  std::set<const Declaration*> used_;
  std::map<const Declaration*, std::string> include_of_;
  std::string gperf_;
  bool failed_ = false;
  bool emit_perfect_ = true;
  bool fast_perfect_ = false;  // -H perfect-fast: the perfect-fast hash instead of gperf's
  bool emit_indices_ = true;
  Deferral* deferral_ = nullptr;    // set directly inside an interface
  std::string definition_prefix_;  // "I::" for the next deferred definition's opening line
};

void Generator::type_definition(const Declaration& d, const char* keyword, const std::string& indent,
                                const std::function<void(const std::string&)>& emit) {
  const Requirements r = requirements_of(d);
  Deferral* deferral = std::exchange(deferral_, nullptr);  // types nested in this one stay inline
  std::string before = std::move(h_);
  h_.clear();
  if (deferral != nullptr && r.object) {
    definition_prefix_ = deferral->owner;
    emit(deferral->indent);
    definition_prefix_.clear();
    guarded(deferral->text, r, h_);
    h_ = indent + keyword + " " + identifier(d.name) + ";\n\n";
  } else {
    emit(indent);
  }
  std::string text = std::move(h_);
  h_ = std::move(before);
  guarded(h_, r, text);
  deferral_ = deferral;
}

void Generator::check_type(const TypeSpec& t, SourceLocation where) {
  switch (t.kind) {
    case TypeKind::fixed:
      diagnostics_.error(t.location.valid() ? t.location : where,
                         "fixed-point types are not supported by the C++ back end yet");
      failed_ = true;
      return;
    case TypeKind::sequence:
    case TypeKind::array:
      if (t.element) check_type(*t.element, where);
      return;
    case TypeKind::named:
      if (t.resolved != nullptr && t.resolved->kind == DeclKind::native) {
        diagnostics_.error(t.location.valid() ? t.location : where,
                           "native types have no C++ mapping in syidl");
        failed_ = true;
      }
      return;
    default:
      return;
  }
}

void Generator::check_declarations(const DeclarationList& list) {
  for (const auto& p : list) {
    const Declaration& d = *p;
    switch (d.kind) {
      case DeclKind::module: check_declarations(static_cast<const Module&>(d).definitions); break;
      case DeclKind::interface: {
        const auto& i = static_cast<const Interface&>(d);
        if (d.in_main_file && (i.is_abstract || i.is_local) && !i.forward)
          diagnostics_.warning(d.location, "abstract and local interfaces are generated as ordinary ones");
        check_declarations(i.definitions);
        break;
      }
      case DeclKind::struct_:
        check_declarations(static_cast<const Struct&>(d).definitions);
        if (d.in_main_file)
          for (const auto& m : static_cast<const Struct&>(d).members) check_type(*m->type, m->location);
        break;
      case DeclKind::exception:
        check_declarations(static_cast<const Exception&>(d).definitions);
        if (d.in_main_file)
          for (const auto& m : static_cast<const Exception&>(d).members) check_type(*m->type, m->location);
        break;
      case DeclKind::union_:
        check_declarations(static_cast<const Union&>(d).definitions);
        if (d.in_main_file)
          for (const auto& c : static_cast<const Union&>(d).cases) check_type(*c.member->type, c.member->location);
        break;
      case DeclKind::typedef_:
        if (d.in_main_file) check_type(*static_cast<const Typedef&>(d).type, d.location);
        break;
      case DeclKind::attribute:
        if (d.in_main_file) check_type(*static_cast<const Attribute&>(d).type, d.location);
        break;
      case DeclKind::operation:
        if (d.in_main_file) {
          const auto& op = static_cast<const Operation&>(d);
          check_type(*op.return_type, d.location);
          for (const auto& prm : op.parameters) check_type(*prm->type, prm->location);
          if (!op.contexts.empty())
            diagnostics_.warning(d.location, "context clause of '" + d.name + "' ignored by the C++ back end");
        }
        break;
      default:
        break;
    }
  }
}

void Generator::map_includes(const DeclarationList& list, std::vector<std::string>& files) {
  for (const auto& p : list) {
    if (p->kind == DeclKind::directive) {
      const auto& dir = static_cast<const Directive&>(*p);
      if (dir.directive == DirectiveKind::file_begin) files.push_back(dir.value);
      else if (dir.directive == DirectiveKind::file_end && !files.empty()) files.pop_back();
      continue;
    }
    if (!files.empty() && !p->in_main_file) include_of_[p.get()] = files.front();
    if (p->kind == DeclKind::module) map_includes(static_cast<const Module&>(*p).definitions, files);
  }
}

std::vector<const Interface*> Generator::ancestors_of(const Interface& i) {
  std::vector<const Interface*> out;
  std::set<const Interface*> seen;
  auto visit = [&](auto&& self, const Interface& x) -> void {
    for (const Interface* b : x.bases) {
      const Interface* base = b->forward && b->definition ? b->definition : b;
      if (!seen.insert(base).second) continue;
      self(self, *base);
      out.push_back(base);
    }
  };
  visit(visit, i);
  return out;
}

std::vector<OperationEntry> Generator::operations_of(const Interface& i) {
  std::vector<const Interface*> chain = ancestors_of(i);
  chain.push_back(&i);
  std::vector<OperationEntry> out;
  for (const Interface* x : chain) {
    for (const auto& p : x->definitions) {
      if (p->kind == DeclKind::operation) {
        const auto& op = static_cast<const Operation&>(*p);
        out.push_back({op.name, &op, nullptr, false, op.raises, requirements_of(op)});
      } else if (p->kind == DeclKind::attribute) {
        const auto& a = static_cast<const Attribute&>(*p);
        Requirements r = requirements_of(*a.type);
        Requirements get_r = r, set_r = r;
        for (const Exception* e : a.get_raises) get_r |= requirements_of(*e);
        for (const Exception* e : a.set_raises) set_r |= requirements_of(*e);
        out.push_back({"_get_" + a.name, nullptr, &a, false, a.get_raises, get_r});
        if (!a.readonly) out.push_back({"_set_" + a.name, nullptr, &a, true, a.set_raises, set_r});
      }
    }
  }
  return out;
}

// "R name(params)" for the stub (name_prefix "") or its definition ("I::").
std::string Generator::signature(const OperationEntry& e, const std::string& name_prefix, bool) {
  if (e.attribute != nullptr) {
    const std::string name = name_prefix + identifier(e.attribute->name);
    if (e.setter)
      return "void " + name + "(" + parameter_type(*e.attribute->type, ParameterDirection::in) + " value)";
    return type_name(*e.attribute->type) + " " + name + "()";
  }
  const Operation& op = *e.operation;
  std::string s = type_name(*op.return_type) + " " + name_prefix + identifier(op.name) + "(";
  for (std::size_t k = 0; k < op.parameters.size(); ++k) {
    const auto& p = *op.parameters[k];
    s += (k ? ", " : "") + parameter_type(*p.type, p.direction) + " " + identifier(p.name);
  }
  return s + ")";
}

// ------------------------------------------------------------------------------------ header

void Generator::header_list(const DeclarationList& list, const std::string& indent, bool in_class) {
  for (const auto& p : list)
    if (has_main_content(*p)) {
      header_declaration(*p, indent, in_class);
      header_type_code(*p, indent, in_class);
    }
}

void Generator::header_declaration(const Declaration& d, const std::string& indent, bool in_class) {
  const std::string name = identifier(d.name);
  switch (d.kind) {
    case DeclKind::module:
      h_ += indent + "namespace " + name + " {\n\n";
      header_list(static_cast<const Module&>(d).definitions, indent, false);
      h_ += indent + "}  // namespace " + name + "\n\n";
      return;
    case DeclKind::interface: {
      const auto& i = static_cast<const Interface&>(d);
      if (i.forward) {
        h_ += indent + "class " + name + ";\n" + indent + "class " + name + "_skeleton;\n\n";
        return;
      }
      header_interface(i, indent);
      return;
    }
    case DeclKind::struct_: {
      const auto& s = static_cast<const Struct&>(d);
      if (s.forward) {
        h_ += indent + "struct " + name + ";\n\n";
        return;
      }
      type_definition(s, "struct", indent, [&](const std::string& at) { header_struct(s, at); });
      return;
    }
    case DeclKind::exception: {
      type_definition(d, "class", indent,
                      [&](const std::string& at) { header_exception(static_cast<const Exception&>(d), at); });
      return;
    }
    case DeclKind::union_: {
      const auto& u = static_cast<const Union&>(d);
      if (u.forward) {
        h_ += indent + "class " + name + ";\n\n";
        return;
      }
      type_definition(u, "class", indent, [&](const std::string& at) { header_union(u, at); });
      return;
    }
    case DeclKind::enum_: {
      const auto& e = static_cast<const Enum&>(d);
      h_ += indent + "// " + e.repository_id + "\n" + indent + "enum class " + name + " : std::uint32_t {";
      for (std::size_t k = 0; k < e.enumerators.size(); ++k)
        h_ += (k ? ", " : " ") + identifier(e.enumerators[k]->name);
      h_ += " };\n\n";
      return;
    }
    case DeclKind::typedef_: {
      const auto& t = static_cast<const Typedef&>(d);
      guarded(h_, requirements_of(*t.type), indent + "using " + name + " = " + type_name(*t.type) + ";\n");
      return;
    }
    case DeclKind::constant: {
      const auto& c = static_cast<const Constant&>(d);
      const TypeSpec& t = unalias(*c.type);
      std::string type = type_name(*c.type);
      std::string declarator = name;
      if (t.kind == TypeKind::string) {
        type = "char";
        declarator += "[]";
      } else if (t.kind == TypeKind::wstring) {
        type = "char16_t";
        declarator += "[]";
      } else if (t.kind == TypeKind::fixed) {
        h_ += indent + "// const " + name + ": fixed-point constants are not generated yet\n";
        return;
      }
      h_ += indent + (in_class ? "static constexpr " : "inline constexpr ") + type + " " + declarator + " = " +
            constant_literal(*c.type, c.value) + ";\n";
      return;
    }
    case DeclKind::native:
      h_ += indent + "// native " + name + ": no C++ mapping\n";
      return;
    default:
      return;  // operations and attributes are emitted by header_interface; directives skipped
  }
}

void Generator::header_struct(const Struct& s, const std::string& indent) {
  const std::string name = identifier(s.name);
  h_ += indent + "// " + s.repository_id + "\n" + indent + "struct " + std::exchange(definition_prefix_, {}) + name +
        " {\n";
  header_list(s.definitions, indent + "  ", true);
  for (const auto& m : s.members) h_ += indent + "  " + type_name(*m->type) + " " + identifier(m->name) + "{};\n";
  h_ += "\n" + indent + "  friend bool operator==(const " + name + "&, const " + name + "&) = default;\n";
  h_ += indent + "  friend void cdr_write(::switchyard::cdr::output_stream&, const " + name + "&);\n";
  h_ += indent + "  friend void cdr_read(::switchyard::cdr::input_stream&, " + name + "&);\n";
  h_ += any_friend_declarations(name, indent + "  ");
  h_ += indent + "};\n\n";
}

void Generator::header_exception(const Exception& e, const std::string& indent) {
  const std::string name = identifier(e.name);
  h_ += indent + "class " + std::exchange(definition_prefix_, {}) + name + " : public ::switchyard::UserException {\n" +
        indent + " public:\n";
  header_list(e.definitions, indent + "  ", true);
  for (const auto& m : e.members) h_ += indent + "  " + type_name(*m->type) + " " + identifier(m->name) + "{};\n";
  h_ += "\n" + indent + "  static constexpr std::string_view _repository_id = " + quoted(e.repository_id) + ";\n";
  h_ += indent + "  " + name + "() = default;\n";
  if (!e.members.empty()) {
    h_ += indent + "  " + (e.members.size() == 1 ? "explicit " : "") + name + "(";
    for (std::size_t k = 0; k < e.members.size(); ++k)
      h_ += (k ? ", " : "") + type_name(*e.members[k]->type) + " " + identifier(e.members[k]->name) + "_";
    h_ += ")\n" + indent + "      : ";
    for (std::size_t k = 0; k < e.members.size(); ++k) {
      const std::string m = identifier(e.members[k]->name);
      h_ += (k ? ", " : "") + m + "(std::move(" + m + "_))";
    }
    h_ += " {}\n";
  }
  h_ += indent + "  std::string_view repository_id() const noexcept override { return _repository_id; }\n";
  h_ += indent + "  const char* what() const noexcept override { return " + quoted(e.scoped_name()) + "; }\n";
  h_ += indent + "  friend void cdr_write(::switchyard::cdr::output_stream&, const " + name + "&);\n";
  h_ += indent + "  friend void cdr_read(::switchyard::cdr::input_stream&, " + name + "&);\n";
  h_ += any_friend_declarations(name, indent + "  ");
  h_ += indent + "};\n\n";
}

void Generator::header_union(const Union& u, const std::string& indent) {
  const std::string name = identifier(u.name);
  const std::string disc = type_name(*u.discriminator);
  const TypeSpec& dt = unalias(*u.discriminator);

  // Labels, the default case, and a value no label has (for the default case or the implicit one).
  std::set<std::int64_t> used;
  int default_case = 0;
  for (std::size_t k = 0; k < u.cases.size(); ++k)
    for (const auto& l : u.cases[k].labels)
      if (l.is_default) default_case = static_cast<int>(k + 1);
      else used.insert(label_key(l.value));
  std::size_t domain = 0;  // 0: too large to cover
  const Enum* en = nullptr;
  if (dt.kind == TypeKind::named && target_of(dt) && target_of(dt)->kind == DeclKind::enum_) {
    en = static_cast<const Enum*>(target_of(dt));
    domain = en->enumerators.size();
  } else if (dt.kind == TypeKind::basic && dt.basic == BasicType::boolean) {
    domain = 2;
  } else if (dt.kind == TypeKind::basic && (dt.basic == BasicType::char_ || dt.basic == BasicType::octet)) {
    domain = 256;
  }
  std::optional<std::string> free_value;
  {
    std::int64_t k = 0;
    for (std::size_t tries = 0; tries <= used.size() + 1 && (domain == 0 || static_cast<std::size_t>(k) < domain);
         ++tries, ++k) {
      if (used.count(k)) continue;
      ConstValue v;
      if (en != nullptr) {
        v.kind = ConstKind::enumerator;
        v.enumerator = en->enumerators[static_cast<std::size_t>(k)].get();
      } else if (dt.kind == TypeKind::basic && dt.basic == BasicType::boolean) {
        v.kind = ConstKind::boolean;
        v.boolean = k == 1;
      } else if (dt.kind == TypeKind::basic && dt.basic == BasicType::char_) {
        v.kind = ConstKind::character;
        v.character = static_cast<std::uint32_t>(k);
      } else {
        v.kind = ConstKind::integer;
        v.signed_integer = k;
        v.unsigned_integer = static_cast<std::uint64_t>(k);
      }
      free_value = label_literal(*u.discriminator, v);
      break;
    }
  }
  auto first_label = [&](std::size_t k) -> std::string {
    for (const auto& l : u.cases[k].labels)
      if (!l.is_default) return label_literal(*u.discriminator, l.value);
    return free_value.value_or(disc + "{}");
  };

  h_ += indent + "// " + u.repository_id + "\n" + indent + "class " + std::exchange(definition_prefix_, {}) + name +
        " {\n" + indent + " public:\n";
  header_list(u.definitions, indent + "  ", true);
  // The initial state: the default case, else the first case.
  const std::size_t initial = default_case != 0 ? static_cast<std::size_t>(default_case) : 1;
  h_ += indent + "  " + name + "() : _d_(" + first_label(initial - 1) + "), _v_(std::in_place_index<" +
        std::to_string(initial) + ">) {}\n\n";
  h_ += indent + "  // The discriminator. Setting it may only choose another label of the active member.\n";
  h_ += indent + "  " + disc + " _d() const noexcept { return _d_; }\n";
  h_ += indent + "  void _d(" + disc + " d) {\n" + indent +
        "    if (_branch(d) != static_cast<int>(_v_.index())) _wrong_member(\"_d\");\n" + indent + "    _d_ = d;\n" +
        indent + "  }\n\n";
  for (std::size_t k = 0; k < u.cases.size(); ++k) {
    const Member& m = *u.cases[k].member;
    const std::string mn = identifier(m.name), t = type_name(*m.type), ks = std::to_string(k + 1);
    h_ += indent + "  const " + t + "& " + mn + "() const {\n" + indent + "    if (_v_.index() != " + ks +
          ") _wrong_member(\"" + mn + "\");\n" + indent + "    return std::get<" + ks + ">(_v_);\n" + indent + "  }\n";
    h_ += indent + "  " + t + "& " + mn + "() {\n" + indent + "    if (_v_.index() != " + ks +
          ") _wrong_member(\"" + mn + "\");\n" + indent + "    return std::get<" + ks + ">(_v_);\n" + indent + "  }\n";
    h_ += indent + "  void " + mn + "(" + t + " value) {\n" + indent + "    _d_ = " + first_label(k) + ";\n" + indent +
          "    _v_.template emplace<" + ks + ">(std::move(value));\n" + indent + "  }\n";
  }
  const bool covered = domain != 0 && used.size() >= domain;
  if (default_case == 0 && !covered && free_value) {
    h_ += indent + "  // No member: the implicit default.\n";
    h_ += indent + "  void _default() {\n" + indent + "    _d_ = " + *free_value + ";\n" + indent +
          "    _v_.template emplace<0>();\n" + indent + "  }\n";
  }
  h_ += "\n" + indent + "  // The case a discriminator value selects: 1 + its index, 0 for none.\n";
  h_ += indent + "  static int _branch(" + disc + " d) noexcept {\n";
  for (std::size_t k = 0; k < u.cases.size(); ++k) {
    std::string cond;
    for (const auto& l : u.cases[k].labels)
      if (!l.is_default) cond += (cond.empty() ? "" : " || ") + std::string("d == ") + label_literal(*u.discriminator, l.value);
    if (!cond.empty()) h_ += indent + "    if (" + cond + ") return " + std::to_string(k + 1) + ";\n";
  }
  h_ += indent + "    (void)d;\n" + indent + "    return " + std::to_string(default_case) + ";\n" + indent + "  }\n\n";
  h_ += indent + "  friend bool operator==(const " + name + "&, const " + name + "&) = default;\n";
  h_ += indent + "  friend void cdr_write(::switchyard::cdr::output_stream&, const " + name + "&);\n";
  h_ += indent + "  friend void cdr_read(::switchyard::cdr::input_stream&, " + name + "&);\n";
  h_ += any_friend_declarations(name, indent + "  ") + "\n";
  h_ += indent + " private:\n";
  h_ += indent + "  [[noreturn]] static void _wrong_member(const char* which) {\n" + indent +
        "    throw ::switchyard::SystemException(::switchyard::SystemExceptionKind::BAD_PARAM, 0,\n" + indent +
        "        ::switchyard::CompletionStatus::no, std::string(\"union " + name +
        ": not the active member: \") + which);\n" + indent + "  }\n";
  h_ += indent + "  " + disc + " _d_;\n" + indent + "  std::variant<std::monostate";
  for (const auto& c : u.cases) h_ += ", " + type_name(*c.member->type);
  h_ += "> _v_;\n" + indent + "};\n\n";
}

void Generator::header_interface(const Interface& i, const std::string& indent) {
  const std::string name = identifier(i.name);
  const auto entries = operations_of(i);
  h_ += indent + "// " + i.repository_id + ": the stub (client side).\n";
  h_ += indent + "class " + name + " {\n" + indent + " public:\n";
  Deferral deferral{name + "::", indent, {}};
  Deferral* outer = std::exchange(deferral_, &deferral);
  header_list(i.definitions, indent + "  ", true);
  deferral_ = outer;
  const std::string in = indent + "  ";
  h_ += in + "static constexpr std::string_view _repository_id = " + quoted(i.repository_id) + ";\n\n";
  h_ += in + name + "() noexcept = default;\n";
  h_ += in + "explicit " + name + "(::switchyard::object_ref reference) noexcept : _ref(std::move(reference)) {}\n";
  h_ += in + "// The reference as this interface, or nil when the object is not one (asks it with _is_a).\n";
  h_ += in + "static " + name + " _narrow(const ::switchyard::object_ref& reference);\n";
  h_ += in + "const ::switchyard::object_ref& _reference() const noexcept { return _ref; }\n";
  h_ += in + "bool _is_nil() const noexcept { return _ref.is_nil(); }\n";
  h_ += in + "explicit operator bool() const noexcept { return !_ref.is_nil(); }\n";
  for (const Interface* a : ancestors_of(i))
    h_ += in + "operator " + qualified(*a) + "() const { return " + qualified(*a) + "(_ref); }\n";
  h_ += "\n";
  for (const auto& e : entries) guarded(h_, e.requirements, in + signature(e, "", false) + ";\n");
  h_ += "\n" + indent + " private:\n" + in + "::switchyard::object_ref _ref;\n" + indent + "};\n\n";
  h_ += deferral.text;

  const std::string skel = name + "_skeleton";
  h_ += indent + "// " + i.repository_id + ": the skeleton (server side). Servants derive from it.\n";
  h_ += indent + "class " + skel + " : public ::switchyard::servant {\n" + indent + " public:\n";
  for (const auto& e : entries) guarded(h_, e.requirements, in + "virtual " + signature(e, "", true) + " = 0;\n");
  h_ += "\n" + in + "const ::switchyard::interface_info& _interface() const noexcept override { return _info; }\n";
  h_ += in + "// The operation table (IDL order, inherited operations first), repository ids, gperf lookup.\n";
  h_ += in + "static const ::switchyard::interface_info _info;\n\n" + indent + " private:\n";
  for (std::size_t k = 0; k < entries.size(); ++k)
    h_ += in + "static void _skel_" + std::to_string(k) + "(::switchyard::servant&, ::switchyard::server_request&);  // " +
          entries[k].wire_name + "\n";
  if (emit_perfect_) h_ += in + "static int _perfect_lookup(const char* name, std::size_t length) noexcept;\n";
  h_ += in + "static const ::switchyard::operation_info _operations[" + std::to_string(std::max<std::size_t>(entries.size(), 1)) + "];\n";
  h_ += in + "static const std::string_view _repository_ids[" + std::to_string(ancestors_of(i).size() + 1) + "];\n";
  h_ += indent + "};\n\n";
}

// ------------------------------------------------------------------------------------ source

void Generator::source_list(const DeclarationList& list) {
  for (const auto& p : list) {
    const Declaration& d = *p;
    if (!has_main_content(d)) continue;
    switch (d.kind) {
      case DeclKind::module:
        source_list(static_cast<const Module&>(d).definitions);
        break;
      case DeclKind::struct_: {
        const auto& s = static_cast<const Struct&>(d);
        source_list(s.definitions);
        if (s.forward) break;
        std::string ns = namespace_of(d);
        guarded(cpp_, requirements_of(d), open_ns(ns) + struct_functions(s) + close_ns(ns));
        break;
      }
      case DeclKind::exception: {
        const auto& e = static_cast<const Exception&>(d);
        source_list(e.definitions);
        std::string ns = namespace_of(d);
        guarded(cpp_, requirements_of(d), open_ns(ns) + exception_functions(e) + close_ns(ns));
        break;
      }
      case DeclKind::union_: {
        const auto& u = static_cast<const Union&>(d);
        source_list(u.definitions);
        if (u.forward) break;
        std::string ns = namespace_of(d);
        guarded(cpp_, requirements_of(d), open_ns(ns) + union_functions(u) + close_ns(ns));
        break;
      }
      case DeclKind::interface: {
        const auto& i = static_cast<const Interface&>(d);
        source_list(i.definitions);
        if (!i.forward) source_interface(i);
        break;
      }
      default:
        break;
    }
  }
}

std::string Generator::stub_body(const Interface& i, const OperationEntry& e, std::size_t index) {
  const std::string cls = relative_name(i);
  std::string code = signature(e, cls + "::", false) + " {\n";
  code += "  ::switchyard::invocation _call(_ref, \"" + e.wire_name + "\", " +
          (emit_indices_ ? std::to_string(index) + "u" : std::string("::switchyard::no_operation_index")) + ");\n";
  // Arguments.
  std::string args;
  const TypeSpec* result = nullptr;
  std::vector<std::pair<const TypeSpec*, std::string>> outputs;
  if (e.attribute != nullptr) {
    if (e.setter) write_value(args, *e.attribute->type, "value", "    ");
    else result = e.attribute->type.get();
  } else {
    const Operation& op = *e.operation;
    if (!(op.return_type->kind == TypeKind::basic && op.return_type->basic == BasicType::void_))
      result = op.return_type.get();
    for (const auto& p : op.parameters) {
      if (p->direction != ParameterDirection::out) write_value(args, *p->type, identifier(p->name), "    ");
      if (p->direction != ParameterDirection::in) outputs.emplace_back(p->type.get(), identifier(p->name));
    }
  }
  const std::string lambda = args.empty() ? "[](::switchyard::cdr::output_stream&) {}"
                                          : "[&](::switchyard::cdr::output_stream& _out) {\n" + args + "  }";
  if (e.operation != nullptr && e.operation->oneway) {
    code += "  _call.invoke_oneway(" + lambda + ");\n}\n\n";
    return code;
  }
  std::string raiser = "nullptr";
  if (!e.raises.empty()) {
    raiser = "[](std::string_view _id, ::switchyard::cdr::input_stream& _in) {\n";
    for (const Exception* x : e.raises) {
      const std::string q = qualified(*x);
      raiser += "    if (_id == " + q + "::_repository_id) {\n      " + q + " _e;\n      cdr_read(_in, _e);\n      throw _e;\n    }\n";
    }
    raiser += "  }";
  }
  const bool reads = result != nullptr || !outputs.empty();
  code += std::string("  ") + (reads ? "::switchyard::cdr::input_stream& _in = " : "") + "_call.invoke(" + lambda +
          ", " + raiser + ");\n";
  if (result != nullptr) {
    code += "  " + type_name(*result) + " _result{};\n";
    read_value(code, *result, "_result", "  ");
  }
  for (const auto& [t, n] : outputs) read_value(code, *t, n, "  ");
  if (result != nullptr) code += "  return _result;\n";
  code += "}\n\n";
  return code;
}

std::string Generator::skeleton_body(const Interface& i, const OperationEntry& e, std::size_t index) {
  const std::string cls = relative_name(i) + "_skeleton";
  std::string code = "void " + cls + "::_skel_" + std::to_string(index) +
                     "(::switchyard::servant& _self, ::switchyard::server_request& _request) {\n";
  std::string body;
  std::string reads, call_args;
  const TypeSpec* result = nullptr;
  std::vector<std::pair<const TypeSpec*, std::string>> outputs;
  std::string call;
  if (e.attribute != nullptr) {
    if (e.setter) {
      reads += "  " + type_name(*e.attribute->type) + " value{};\n";
      read_value(reads, *e.attribute->type, "value", "  ");
      call_args = "value";
    } else {
      result = e.attribute->type.get();
    }
    call = identifier(e.attribute->name);
  } else {
    const Operation& op = *e.operation;
    if (!(op.return_type->kind == TypeKind::basic && op.return_type->basic == BasicType::void_))
      result = op.return_type.get();
    for (const auto& p : op.parameters) {
      const std::string n = identifier(p->name);
      if (p->direction == ParameterDirection::in && is_octet_sequence(*p->type)) {
        reads += "  std::span<const std::uint8_t> " + n + ";\n";
        read_octet_view(reads, *p->type, n, "  ");
      } else {
        reads += "  " + type_name(*p->type) + " " + n + "{};\n";
        if (p->direction != ParameterDirection::out) read_value(reads, *p->type, n, "  ");
      }
      if (p->direction != ParameterDirection::in) outputs.emplace_back(p->type.get(), n);
      call_args += (call_args.empty() ? "" : ", ") + n;
    }
    call = identifier(op.name);
  }
  if (reads.find("_in") != std::string::npos) body += "  ::switchyard::cdr::input_stream& _in = _request.arguments();\n";
  body += reads;
  if (result != nullptr) body += "  " + type_name(*result) + " _result{};\n";
  std::string invoke = std::string(result != nullptr ? "_result = " : "") + "static_cast<" + cls + "&>(_self)." + call +
                       "(" + call_args + ");\n";
  if (e.raises.empty()) {
    body += "  " + invoke;
  } else {
    body += "  try {\n    " + invoke + "  }";
    for (const Exception* x : e.raises) {
      const std::string q = qualified(*x);
      body += " catch (const " + q + "& _e) {\n    if (!_request.response_expected()) return;\n" +
              "    ::switchyard::cdr::output_stream& _out = _request.user_exception_reply();\n" +
              "    _out.write_string(" + q + "::_repository_id);\n    cdr_write(_out, _e);\n    return;\n  }";
    }
    body += "\n";
  }
  if (result != nullptr || !outputs.empty()) {
    body += "  if (!_request.response_expected()) return;\n";
    body += "  ::switchyard::cdr::output_stream& _out = _request.reply();\n";
    if (result != nullptr) write_value(body, *result, "_result", "  ");
    for (const auto& [t, n] : outputs) write_value(body, *t, n, "  ");
  } else if (body.find("_request") == std::string::npos) {
    body += "  (void)_request;\n";
  }
  if (e.requirements.none()) {
    code += body;
  } else {
    code += "#if " + e.requirements.condition() + "\n" + body + "#else\n  (void)_self;\n  (void)_request;\n" +
            "  throw ::switchyard::SystemException(::switchyard::SystemExceptionKind::NO_IMPLEMENT, 0,\n" +
            "      ::switchyard::CompletionStatus::no, \"" + e.wire_name +
            ": generated without <switchyard/any.h> or <switchyard/object_io.h>\");\n#endif\n";
  }
  return code + "}\n\n";
}

void Generator::source_interface(const Interface& i) {
  const std::string ns = namespace_of(i);
  const std::string cls = relative_name(i);
  const auto entries = operations_of(i);
  std::string lookup_name;
  if (emit_perfect_) {
    std::vector<std::string> keys;
    for (const auto& e : entries) keys.push_back(e.wire_name);
    std::string flat = qualified(i).substr(2);
    for (std::size_t p; (p = flat.find("::")) != std::string::npos;) flat.replace(p, 2, "_");
    lookup_name = flat + "_operation_lookup";
    std::string error;
    auto code = fast_perfect_ ? make_fast_lookup(lookup_name, keys, error)
                              : make_gperf_lookup(gperf_, lookup_name, keys, error);
    if (!code) {
      diagnostics_.error(i.location, error);
      failed_ = true;
      return;
    }
    cpp_ += std::string(fast_perfect_ ? "// The perfect-fast hash" : "// gperf's perfect hash") +
            " over the operation names of " + i.scoped_name() + ".\nnamespace {\n" + *code +
            "}  // namespace\n\n";
  }
  std::string text = open_ns(ns);
  text += "// --- " + i.scoped_name() + ": stub\n\n";
  text += cls + " " + cls + "::_narrow(const ::switchyard::object_ref& reference) {\n"
          "  if (reference.is_nil()) return {};\n"
          "  if (reference.repository_id() == _repository_id || reference.is_a(_repository_id))\n"
          "    return " + cls + "(reference);\n  return {};\n}\n\n";
  for (std::size_t k = 0; k < entries.size(); ++k) guarded(text, entries[k].requirements, stub_body(i, entries[k], k));
  text += "// --- " + i.scoped_name() + ": skeleton\n\n";
  for (std::size_t k = 0; k < entries.size(); ++k) text += skeleton_body(i, entries[k], k);
  const std::string skel = cls + "_skeleton";
  text += "const ::switchyard::operation_info " + skel + "::_operations[] = {\n";
  for (std::size_t k = 0; k < entries.size(); ++k)
    text += "    {\"" + entries[k].wire_name + "\", &" + skel + "::_skel_" + std::to_string(k) + "},\n";
  if (entries.empty()) text += "    {\"\", nullptr},\n";
  text += "};\n\n";
  text += "const std::string_view " + skel + "::_repository_ids[] = {\n    " + quoted(i.repository_id);
  for (const Interface* a : ancestors_of(i)) text += ",\n    " + quoted(a->repository_id);
  text += "};\n\n";
  if (emit_perfect_)
    text += "int " + skel + "::_perfect_lookup(const char* name, std::size_t length) noexcept {\n  return ::" +
            lookup_name + "::index_of(name, length);\n}\n\n";
  text += "const ::switchyard::interface_info " + skel + "::_info{\n    " + quoted(i.repository_id) +
          ", _repository_ids,\n    std::span<const ::switchyard::operation_info>(_operations, " +
          std::to_string(entries.size()) + "),\n    " + (emit_perfect_ ? "&_perfect_lookup" : "nullptr") + "};\n";
  text += close_ns(ns);
  cpp_ += text;
}

// ------------------------------------------------------------------------------------ TypeCodes

// The type declarations that get a TypeCode (and Any operators): not forward declarations.
static bool has_type_code(const Declaration& d) {
  switch (d.kind) {
    case DeclKind::struct_: return !static_cast<const Struct&>(d).forward;
    case DeclKind::union_: return !static_cast<const Union&>(d).forward;
    case DeclKind::interface: return !static_cast<const Interface&>(d).forward;
    case DeclKind::exception:
    case DeclKind::enum_:
    case DeclKind::typedef_:
      return true;
    default:
      return false;
  }
}

void Generator::header_type_code(const Declaration& d, const std::string& indent, bool in_class) {
  if (d.in_main_file && has_type_code(d)) h_ += type_code_declarations(d, indent, in_class) + "\n";
}

void Generator::source_type_codes(const DeclarationList& list) {
  for (const auto& p : list) {
    const Declaration& d = *p;
    if (!has_main_content(d)) continue;
    switch (d.kind) {
      case DeclKind::module: source_type_codes(static_cast<const Module&>(d).definitions); continue;
      case DeclKind::struct_: source_type_codes(static_cast<const Struct&>(d).definitions); break;
      case DeclKind::union_: source_type_codes(static_cast<const Union&>(d).definitions); break;
      case DeclKind::exception: source_type_codes(static_cast<const Exception&>(d).definitions); break;
      case DeclKind::interface: source_type_codes(static_cast<const Interface&>(d).definitions); break;
      default: break;
    }
    if (!has_type_code(d)) continue;
    const std::string ns = namespace_of(d);
    const bool nested = d.parent != nullptr && d.parent->kind != DeclKind::module;
    const std::string scope = nested ? relative_name(*d.parent) + "::" : "";
    cpp_ += open_ns(ns) + type_code_definitions(d, scope) + close_ns(ns);
  }
}

bool Generator::run() {
  const std::string& tables = options_.operation_tables;
  fast_perfect_ = tables == "perfect-fast";
  emit_perfect_ = tables.empty() || tables == "all" || tables == "perfect" || fast_perfect_;
  emit_indices_ = tables.empty() || tables == "all" || tables == "active";
  check_declarations(spec_.root.definitions);
  if (failed_) return false;
  if (emit_perfect_ && !fast_perfect_) {
    gperf_ = find_gperf();
    if (gperf_.empty()) {
      diagnostics_.error({}, "gperf not found (set SYIDL_GPERF or install GNU gperf); -H linear, dynamic, "
                             "active or perfect-fast do not need it");
      return false;
    }
  }
  std::vector<std::string> files;
  map_includes(spec_.root.definitions, files);
  set_used_externals(&used_);

  const std::string stem = std::filesystem::path(options_.main_file).stem().string();
  header_list(spec_.root.definitions, "", false);
  std::string body_h = h_;
  source_list(spec_.root.definitions);
  source_type_codes(spec_.root.definitions);
  set_used_externals(nullptr);
  if (failed_) return false;

  // #include "x.h" for every directly included IDL file whose declarations the code names.
  std::set<std::string> includes;
  for (const Declaration* d : used_)
    for (const Declaration* p = d; p != nullptr; p = p->parent)
      if (auto it = include_of_.find(p); it != include_of_.end()) {
        includes.insert(std::filesystem::path(it->second).stem().string());
        break;
      }

  std::string header = "// Generated by syidl from " + std::filesystem::path(options_.main_file).filename().string() +
                       "; do not edit. The mapping: docs/idl.md.\n#pragma once\n\n";
  for (const char* inc : {"<array>", "<cstddef>", "<cstdint>", "<span>", "<string>", "<string_view>", "<utility>",
                          "<variant>", "<vector>", "", "<switchyard/cdr/input_stream.h>",
                          "<switchyard/cdr/output_stream.h>", "<switchyard/exception.h>", "<switchyard/object.h>",
                          "<switchyard/servant.h>", "<switchyard/server_request.h>"})
    header += *inc ? std::string("#include ") + inc + "\n" : "\n";
  header +=
      "\n// Runtime pieces other engineers add later: declarations that need them are generated only\n"
      "// when their headers exist (docs/idl.md, \"Any, TypeCode and object references\").\n"
      "#ifndef SYIDL_HAVE_ANY\n#if __has_include(<switchyard/any.h>)\n#include <switchyard/any.h>\n"
      "#define SYIDL_HAVE_ANY 1\n#else\n#define SYIDL_HAVE_ANY 0\n#endif\n#endif\n"
      "#ifndef SYIDL_HAVE_OBJECT_IO\n#if __has_include(<switchyard/object_io.h>)\n"
      "#include <switchyard/object_io.h>\n#define SYIDL_HAVE_OBJECT_IO 1\n#else\n#define SYIDL_HAVE_OBJECT_IO 0\n"
      "#endif\n#endif\n\n";
  for (const auto& inc : includes) header += "#include \"" + inc + ".h\"\n";
  if (!includes.empty()) header += "\n";
  header += body_h;

  std::string source = "// Generated by syidl from " + std::filesystem::path(options_.main_file).filename().string() +
                       "; do not edit.\n#include \"" + stem + ".h\"\n\n#include <cstddef>\n#include <cstring>\n"
                       "#include <type_traits>\n\n#include <switchyard/invocation.h>\n\n" + cpp_;

  std::error_code ec;
  std::filesystem::create_directories(options_.output_dir, ec);
  for (const auto& [ext, text] : {std::pair<std::string, const std::string*>{".h", &header}, {".cpp", &source}}) {
    const std::filesystem::path path = std::filesystem::path(options_.output_dir) / (stem + ext);
    std::ofstream out(path, std::ios::binary);
    out << *text;
    if (!out) {
      diagnostics_.error({}, "cannot write " + path.string());
      return false;
    }
  }
  return true;
}

class CxxBackEnd final : public BackEnd {
 public:
  const char* name() const override { return "c++"; }
  bool generate(const Specification& specification, const BackEndOptions& options,
                Diagnostics& diagnostics) override {
    Generator generator(specification, options, diagnostics);
    return generator.run();
  }
};

}  // namespace

std::unique_ptr<BackEnd> make_cxx_back_end() { return std::make_unique<CxxBackEnd>(); }

}  // namespace switchyard::idl
