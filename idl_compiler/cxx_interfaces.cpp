#include "idl_compiler/cxx_interfaces.h"

#include <set>

#include "idl_compiler/cxx_emitter.h"
#include "idl_compiler/cxx_types.h"

namespace switchyard::idl::cxx {

const TypeSpec* OperationEntry::result() const {
  if (attribute != nullptr) return setter ? nullptr : attribute->type.get();
  const TypeSpec& type = *operation->return_type;
  return type.kind == TypeKind::basic && type.basic == BasicType::void_ ? nullptr : &type;
}

std::string context_patterns(const Operation& op) {
  std::string list;
  for (const std::string& pattern : op.contexts) list += (list.empty() ? "" : ", ") + string_literal(pattern);
  return "std::array<std::string_view, " + std::to_string(op.contexts.size()) + ">{" + list + "}";
}

std::vector<const Interface*> ancestors_of(const Interface& interface) {
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
  visit(visit, interface);
  return out;
}

std::vector<OperationEntry> operations_of(const Interface& interface) {
  std::vector<const Interface*> chain = ancestors_of(interface);
  chain.push_back(&interface);
  std::vector<OperationEntry> out;
  for (const Interface* x : chain) {
    for (const auto& p : x->definitions) {
      if (p->kind == DeclKind::operation) {
        const auto& op = static_cast<const Operation&>(*p);
        out.push_back({op.name, "_dispatch_" + op.name, &op, nullptr, false, op.raises});
      } else if (p->kind == DeclKind::attribute) {
        const auto& a = static_cast<const Attribute&>(*p);
        out.push_back({"_get_" + a.name, "_dispatch_get_" + a.name, nullptr, &a, false, a.get_raises});
        if (!a.readonly) out.push_back({"_set_" + a.name, "_dispatch_set_" + a.name, nullptr, &a, true, a.set_raises});
      }
    }
  }
  // An operation get_x beside an attribute x would share a dispatch name: the later one gets its
  // table index appended (IDL names are unique in an interface, so this is rare).
  std::set<std::string> taken;
  for (std::size_t k = 0; k < out.size(); ++k)
    while (!taken.insert(out[k].dispatch_name).second) out[k].dispatch_name += "_" + std::to_string(k);
  return out;
}

std::string signature(const OperationEntry& entry, const std::string& name_prefix) {
  if (entry.attribute != nullptr) {
    const std::string name = name_prefix + identifier(entry.attribute->name);
    if (entry.setter)
      return "void " + name + "(" + parameter_type(*entry.attribute->type, ParameterDirection::in) + " value)";
    return type_name(*entry.attribute->type) + " " + name + "()";
  }
  const Operation& op = *entry.operation;
  std::string s = type_name(*op.return_type) + " " + name_prefix + identifier(op.name) + "(";
  for (std::size_t k = 0; k < op.parameters.size(); ++k) {
    const auto& p = *op.parameters[k];
    s += (k ? ", " : "") + parameter_type(*p.type, p.direction) + " " + identifier(p.name);
  }
  if (!op.contexts.empty()) s += std::string(op.parameters.empty() ? "" : ", ") + "const ::switchyard::context& _ctx";
  return s + ")";
}

}  // namespace switchyard::idl::cxx
