#include "idl_compiler/cxx_includes.h"

#include <filesystem>
#include <map>
#include <set>

#include "idl_compiler/cxx_interfaces.h"
#include "idl_compiler/cxx_types.h"

namespace switchyard::idl::cxx {

namespace {

// The IDL file that declares each declaration of an #include'd file (the innermost one: a
// declaration of corbaidl.idl reached through poa_include.idl belongs to corbaidl.idl).
void map_files(const DeclarationList& list, std::vector<std::string>& files,
               std::map<const Declaration*, std::string>& file_of) {
  for (const auto& p : list) {
    if (p->kind == DeclKind::directive) {
      const auto& directive = static_cast<const Directive&>(*p);
      if (directive.directive == DirectiveKind::file_begin) files.push_back(directive.value);
      else if (directive.directive == DirectiveKind::file_end && !files.empty()) files.pop_back();
      continue;
    }
    if (!files.empty() && !p->in_main_file) file_of[p.get()] = files.back();
    if (p->kind == DeclKind::module) map_files(static_cast<const Module&>(*p).definitions, files, file_of);
  }
}

// Collects the declarations the generated code names.
class NamedDeclarations {
 public:
  std::set<const Declaration*> found;

  void add(const Declaration* d) {
    if (d != nullptr) found.insert(d);
  }

  void type(const TypeSpec& t) {
    switch (t.kind) {
      case TypeKind::sequence:
      case TypeKind::array:
        type(*t.element);
        return;
      case TypeKind::named:
        // The name as written (maybe a typedef), and what it stands for.
        for (const TypeSpec* x = &t; x != nullptr;) {
          add(target_of(*x));
          x = x->resolved != nullptr && x->resolved->kind == DeclKind::typedef_
                  ? static_cast<const Typedef*>(x->resolved)->type.get()
                  : nullptr;
          if (x != nullptr && x->kind != TypeKind::named) {
            type(*x);
            x = nullptr;
          }
        }
        return;
      default:
        return;
    }
  }

  void value(const ConstValue& v) {
    if (v.kind == ConstKind::enumerator && v.enumerator != nullptr) add(v.enumerator->owner);
  }

  void entry(const OperationEntry& e) {
    if (e.attribute != nullptr) type(*e.attribute->type);
    if (e.operation != nullptr) {
      type(*e.operation->return_type);
      for (const auto& p : e.operation->parameters) type(*p->type);
    }
    for (const Exception* x : e.raises) add(x);
  }

  void declarations(const DeclarationList& list) {
    for (const auto& p : list)
      if (p->in_main_file || p->kind == DeclKind::module) declaration(*p);
  }

  void declaration(const Declaration& d) {
    switch (d.kind) {
      case DeclKind::module:
        declarations(static_cast<const Module&>(d).definitions);
        return;
      case DeclKind::interface: {
        const auto& i = static_cast<const Interface&>(d);
        declarations(i.definitions);
        if (i.forward) return;
        for (const Interface* base : ancestors_of(i)) add(base);
        for (const OperationEntry& e : operations_of(i)) entry(e);
        return;
      }
      case DeclKind::struct_: {
        const auto& s = static_cast<const Struct&>(d);
        declarations(s.definitions);
        for (const auto& m : s.members) type(*m->type);
        return;
      }
      case DeclKind::exception: {
        const auto& e = static_cast<const Exception&>(d);
        declarations(e.definitions);
        for (const auto& m : e.members) type(*m->type);
        return;
      }
      case DeclKind::union_: {
        const auto& u = static_cast<const Union&>(d);
        declarations(u.definitions);
        if (u.discriminator) type(*u.discriminator);
        for (const auto& c : u.cases) {
          type(*c.member->type);
          for (const auto& label : c.labels) value(label.value);
        }
        return;
      }
      case DeclKind::typedef_:
        type(*static_cast<const Typedef&>(d).type);
        return;
      case DeclKind::value_type: {
        const auto& v = static_cast<const ValueType&>(d);
        declarations(v.definitions);
        for (const ValueType* base : v.bases) add(base);
        for (const auto& p : v.definitions) {
          if (p->kind == DeclKind::state_member) type(*static_cast<const StateMember&>(*p).type);
          if (p->kind == DeclKind::operation) {
            const auto& op = static_cast<const Operation&>(*p);
            type(*op.return_type);
            for (const auto& prm : op.parameters) type(*prm->type);
            for (const Exception* x : op.raises) add(x);
          }
          if (p->kind == DeclKind::attribute) type(*static_cast<const Attribute&>(*p).type);
          if (p->kind == DeclKind::factory)
            for (const auto& prm : static_cast<const Factory&>(*p).parameters) type(*prm->type);
        }
        return;
      }
      case DeclKind::value_box:
        type(*static_cast<const ValueBox&>(d).type);
        return;
      case DeclKind::constant: {
        const auto& c = static_cast<const Constant&>(d);
        type(*c.type);
        value(c.value);
        return;
      }
      default:
        return;
    }
  }
};

}  // namespace

std::vector<std::string> included_headers(const Specification& specification) {
  std::map<const Declaration*, std::string> file_of;
  std::vector<std::string> files;
  map_files(specification.root.definitions, files, file_of);
  NamedDeclarations named;
  named.declarations(specification.root.definitions);
  std::set<std::string> headers;
  for (const Declaration* d : named.found) {
    if (d->in_main_file) continue;
    for (const Declaration* p = d; p != nullptr; p = p->parent)
      if (auto it = file_of.find(p); it != file_of.end()) {
        headers.insert(std::filesystem::path(it->second).stem().string());
        break;
      }
  }
  return {headers.begin(), headers.end()};
}

}  // namespace switchyard::idl::cxx
