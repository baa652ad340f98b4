#include "idl_compiler/cxx_values.h"

#include <algorithm>
#include <vector>

#include "idl_compiler/cxx_emitter.h"
#include "idl_compiler/cxx_interfaces.h"
#include "idl_compiler/cxx_marshal.h"

namespace switchyard::idl::cxx {

namespace {

constexpr std::string_view concrete_template = R"(
// ${repository_id}
class ${name} : ${bases} {
 public:
  ${nested}
  static std::string_view _static_repository_id() noexcept { return ${repository_id_literal}; }
  std::string_view _repository_id() const noexcept override { return _static_repository_id(); }
  std::span<const std::string_view> _truncatable_ids() const noexcept override;

  ${accessors}
  ${operations}
  void _write_state(::switchyard::cdr::output_stream& _out) const override;
  void _read_state(::switchyard::cdr::input_stream& _in) override;
  void _release_values() noexcept override;

 protected:
  ${name}() = default;
  ${private_accessors}

 private:
  ${storage}
};

)";

constexpr std::string_view abstract_template = R"(
// ${repository_id}: an abstract valuetype (no state; a concrete valuetype may inherit it).
class ${name} : ${bases} {
 public:
  ${nested}
  static std::string_view _static_repository_id() noexcept { return ${repository_id_literal}; }
  ${operations}

 protected:
  ${name}() = default;
};

)";

// The default implementation: what a receiver makes, and what a sender may construct.
constexpr std::string_view obv_template = R"(
// ${repository_id}: the default implementation (it has no operations to implement).
class OBV_${name} : public ${name} {
 public:
  OBV_${name}() = default;
  ${constructor}
};

)";

constexpr std::string_view obv_constructor_template = R"(
${explicit}OBV_${name}(${parameters}) {
  ${assignments}
}
)";

constexpr std::string_view init_template = R"(
// ${repository_id}: its initializers. Implement them, and create_for_unmarshal, in a class of
// yours, and register it: switchyard::register_value_factory(${name}::_static_repository_id(), ...).
class ${name}_init : public ::switchyard::value_factory {
 public:
  ${initializers}
};

)";

// A valuetype that supports an interface: a servant of it whose state is the value's.
constexpr std::string_view supports_skeleton_template = R"(
// ${repository_id}: a ${name} that is also a servant of ${interface} (it supports it). Implement
// the operations in a class of yours; activate one with switchyard::value_servant(value), and
// pass it by value as any ${name}.
class ${name}_skeleton : public ${interface}_skeleton, public virtual ${name} {
 protected:
  ${name}_skeleton() = default;
};

)";

constexpr std::string_view box_template = R"(
// ${repository_id}: a value box.
class ${name} final : public virtual ::switchyard::value_base {
 public:
  ${name}() = default;
  explicit ${name}(${type} value) : _s_value(std::move(value)) {}
  static std::string_view _static_repository_id() noexcept { return ${repository_id_literal}; }
  std::string_view _repository_id() const noexcept override { return _static_repository_id(); }
  std::span<const std::string_view> _truncatable_ids() const noexcept override;

  const ${type}& _value() const noexcept { return _s_value; }
  ${type}& _value() noexcept { return _s_value; }
  void _value(${type} value) { _s_value = std::move(value); }

  void _write_state(::switchyard::cdr::output_stream& _out) const override;
  void _read_state(::switchyard::cdr::input_stream& _in) override;
  void _release_values() noexcept override;

 private:
  ${type} _s_value{};
};

)";

constexpr std::string_view functions_template = R"(
std::span<const std::string_view> ${class}::_truncatable_ids() const noexcept {
  static constexpr std::array<std::string_view, ${id_count}> _ids{${ids}};
  return _ids;
}

void ${class}::_write_state(::switchyard::cdr::output_stream& _out) const {
  ${writes}
  (void)_out;
}

void ${class}::_read_state(::switchyard::cdr::input_stream& _in) {
  ${reads}
  (void)_in;
}

void ${class}::_release_values() noexcept {
  ${releases}
}
${registration}
)";

// Before main: what a receiver makes for this id unless the application registers another.
constexpr std::string_view registration_template = R"(
[[maybe_unused]] static const bool _registered_${flat} =
    (::switchyard::register_value_factory(${repository_id_literal},
                                          std::make_shared<::switchyard::default_value_factory<${made}>>()),
     true);
)";

// Every state member, the concrete bases' first.
void all_state(const ValueType& v, std::vector<const StateMember*>& out, int depth = 0) {
  if (depth > 64) return;
  if (const ValueType* base = concrete_base(v)) all_state(*base, out, depth + 1);
  for (const StateMember* m : own_state(v)) out.push_back(m);
}

std::vector<std::string> truncatable_ids(const ValueType& v) {
  std::vector<std::string> ids{v.repository_id};
  const ValueType* x = &v;
  for (int guard = 0; guard < 64 && x->is_truncatable; ++guard) {
    x = concrete_base(*x);
    if (x == nullptr) break;
    ids.push_back(x->repository_id);
  }
  return ids;
}

std::vector<OperationEntry> own_operations(const ValueType& v) {
  std::vector<OperationEntry> out;
  for (const auto& p : v.definitions) {
    if (p->kind == DeclKind::operation) {
      const auto& op = static_cast<const Operation&>(*p);
      out.push_back({op.name, "", &op, nullptr, false, op.raises});
    } else if (p->kind == DeclKind::attribute) {
      const auto& a = static_cast<const Attribute&>(*p);
      out.push_back({"_get_" + a.name, "", nullptr, &a, false, a.get_raises});
      if (!a.readonly) out.push_back({"_set_" + a.name, "", nullptr, &a, true, a.set_raises});
    }
  }
  return out;
}

// The operations of the interfaces `v` itself supports (each one's bases first), which the value
// class declares as its skeleton does.
std::vector<OperationEntry> supported_operations(const ValueType& v) {
  std::vector<OperationEntry> out;
  for (const Interface* i : v.supports)
    for (OperationEntry& e : operations_of(*i)) out.push_back(std::move(e));
  return out;
}

std::string accessors_of(const StateMember& m, const std::string& type) {
  const std::string name = identifier(m.name);
  if (is_primitive(*m.type))
    return type + " " + name + "() const noexcept { return _s_" + m.name + "; }\n" + "void " + name + "(" + type +
           " value) noexcept { _s_" + m.name + " = value; }\n";
  return "const " + type + "& " + name + "() const noexcept { return _s_" + m.name + "; }\n" + type + "& " + name +
         "() noexcept { return _s_" + m.name + "; }\n" + "void " + name + "(" + type + " value) { _s_" + m.name +
         " = std::move(value); }\n";
}

// "M_Base" for ::M::Base: a name for a file-scope variable.
std::string flat_name(const Declaration& d) {
  std::string q = qualified(d).substr(2), out;
  for (std::size_t k = 0; k < q.size(); ++k)
    if (q[k] == ':') out += q[++k] == ':' ? "_" : "";
    else out += q[k];
  return out;
}

std::string id_list(const std::vector<std::string>& ids) {
  std::string out;
  for (const std::string& id : ids)
    out += (out.empty() ? "" : ", ") + std::string("std::string_view{") + string_literal(id) + "}";
  return out;
}

}  // namespace

bool has_value_operations(const ValueType& value) {
  std::vector<const ValueType*> todo{&value};
  for (std::size_t k = 0; k < todo.size() && k < 256; ++k) {
    if (!own_operations(*todo[k]).empty() || !supported_operations(*todo[k]).empty()) return true;
    for (const ValueType* b : todo[k]->bases) todo.push_back(definition(b));
  }
  return false;
}

std::string value_type_classes(const ValueType& v, const std::string& nested, const DeclarationOrder& order) {
  const std::string name = identifier(v.name);
  if (v.forward) return "class " + name + ";\n\n";
  std::string bases;
  const ValueType* concrete = v.is_abstract ? nullptr : concrete_base(v);
  if (concrete != nullptr) bases = "public " + qualified(*concrete);
  for (const ValueType* b : v.bases)
    if (definition(b) != concrete)
      bases += (bases.empty() ? "" : ", ") + std::string("public virtual ") + qualified(*definition(b));
  if (concrete == nullptr) bases = "public virtual ::switchyard::value_base" + (bases.empty() ? "" : ", " + bases);
  // An abstract interface it supports: a holder of that interface can hold it.
  for (const Interface* i : v.supports)
    if (i->is_abstract) bases += ", public virtual " + qualified(*i) + "_operations";

  std::string operations;
  for (const OperationEntry& e : own_operations(v)) operations += "virtual " + signature(e) + " = 0;\n";
  std::string supported;
  for (const Interface* i : v.supports) supported += (supported.empty() ? "" : ", ") + qualified(*i);
  if (!supported.empty())
    operations += "// The operations of the interfaces " + identifier(v.name) + " supports: " + supported + "\n";
  for (const OperationEntry& e : supported_operations(v)) operations += "virtual " + signature(e) + " = 0;\n";
  const std::string id_literal = string_literal(v.repository_id);
  if (v.is_abstract)
    return fill(abstract_template, {{"repository_id", v.repository_id},
                                    {"name", name},
                                    {"bases", bases},
                                    {"nested", nested},
                                    {"repository_id_literal", id_literal},
                                    {"operations", operations}});

  std::string accessors, private_accessors, storage;
  for (const StateMember* m : own_state(v)) {
    const std::string type = member_type_name(*m->type, v, order);
    (m->is_public ? accessors : private_accessors) += accessors_of(*m, type);
    storage += type + " _s_" + m->name + "{};\n";
  }
  std::string out = fill(concrete_template, {{"repository_id", v.repository_id},
                                             {"name", name},
                                             {"bases", bases},
                                             {"nested", nested},
                                             {"repository_id_literal", id_literal},
                                             {"accessors", accessors},
                                             {"operations", operations},
                                             {"private_accessors", private_accessors},
                                             {"storage", storage}});
  if (!has_value_operations(v)) {
    std::vector<const StateMember*> state;
    all_state(v, state);
    std::string constructor;
    if (!state.empty()) {
      std::string parameters, assignments;
      for (const StateMember* m : state) {
        const std::string p = identifier(m->name) + "_";
        parameters += (parameters.empty() ? "" : ", ") + type_name(*m->type) + " " + p;
        assignments += "this->" + identifier(m->name) + "(std::move(" + p + "));\n";
      }
      constructor = fill(obv_constructor_template, {{"explicit", state.size() == 1 ? "explicit " : ""},
                                                    {"name", name},
                                                    {"parameters", parameters},
                                                    {"assignments", assignments}});
    }
    out += fill(obv_template, {{"repository_id", v.repository_id}, {"name", name}, {"constructor", constructor}});
  }
  std::string initializers;
  for (const auto& d : v.definitions) {
    if (d->kind != DeclKind::factory) continue;
    const auto& f = static_cast<const Factory&>(*d);
    std::string s = "virtual ::switchyard::value_ref<" + name + "> " + identifier(f.name) + "(";
    for (std::size_t k = 0; k < f.parameters.size(); ++k)
      s += (k ? ", " : "") + parameter_type(*f.parameters[k]->type, ParameterDirection::in) + " " +
           identifier(f.parameters[k]->name);
    initializers += s + ") = 0;\n";
  }
  if (!initializers.empty())
    out += fill(init_template, {{"repository_id", v.repository_id}, {"name", name}, {"initializers", initializers}});
  // One servant base: CORBA lets a value support one interface that is not abstract (the checks
  // refuse a second).
  for (const Interface* i : v.supports)
    if (!i->is_abstract)
      out += fill(supports_skeleton_template,
                  {{"repository_id", v.repository_id}, {"name", name}, {"interface", qualified(*i)}});
  return out;
}

std::string value_box_class(const ValueBox& box, const DeclarationOrder& order) {
  return fill(box_template, {{"repository_id", box.repository_id},
                             {"name", identifier(box.name)},
                             {"type", member_type_name(*box.type, box, order)},
                             {"repository_id_literal", string_literal(box.repository_id)}});
}

std::string value_type_functions(const ValueType& v) {
  if (v.forward || v.is_abstract) return {};
  std::string writes, reads, releases;
  if (const ValueType* base = concrete_base(v)) {
    writes += qualified(*base) + "::_write_state(_out);\n";
    reads += qualified(*base) + "::_read_state(_in);\n";
    releases += qualified(*base) + "::_release_values();\n";
  }
  for (const StateMember* m : own_state(v)) {
    write_value(writes, *m->type, "_s_" + m->name, "");
    read_value(reads, *m->type, "_s_" + m->name, "");
    if (contains_value(*m->type)) releases += "_s_" + m->name + " = {};\n";
  }
  const std::vector<std::string> ids = truncatable_ids(v);
  std::string registration;
  if (!has_value_operations(v) && !std::any_of(v.definitions.begin(), v.definitions.end(),
                                               [](const auto& d) { return d->kind == DeclKind::factory; }))
    registration = fill(registration_template,
                        {{"flat", flat_name(v)},
                         {"repository_id_literal", string_literal(v.repository_id)},
                         {"made", relative_name(v).substr(0, relative_name(v).size() - identifier(v.name).size()) +
                                      "OBV_" + identifier(v.name)}});
  return fill(functions_template, {{"class", relative_name(v)},
                                   {"id_count", std::to_string(ids.size())},
                                   {"ids", id_list(ids)},
                                   {"writes", writes},
                                   {"reads", reads},
                                   {"releases", releases},
                                   {"registration", registration}});
}

std::string value_box_functions(const ValueBox& box) {
  std::string writes, reads;
  write_value(writes, *box.type, "_s_value", "");
  read_value(reads, *box.type, "_s_value", "");
  const std::string registration =
      fill(registration_template, {{"flat", flat_name(box)},
                                   {"repository_id_literal", string_literal(box.repository_id)},
                                   {"made", relative_name(box)}});
  return fill(functions_template, {{"class", relative_name(box)},
                                   {"id_count", "1"},
                                   {"ids", id_list({box.repository_id})},
                                   {"writes", writes},
                                   {"reads", reads},
                                   {"releases", contains_value(*box.type) ? "_s_value = {};" : ""},
                                   {"registration", registration}});
}

}  // namespace switchyard::idl::cxx
