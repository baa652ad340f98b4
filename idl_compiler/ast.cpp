#include "idl_compiler/ast.h"

namespace switchyard::idl {

std::string ScopedName::text() const {
  std::string out = absolute ? "::" : "";
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i != 0) out += "::";
    out += parts[i];
  }
  return out;
}

namespace {
std::unique_ptr<Expr> clone_expr(const Expr* e) {
  if (e == nullptr) return nullptr;
  auto c = std::make_unique<Expr>();
  c->kind = e->kind;
  c->location = e->location;
  c->integer = e->integer;
  c->floating = e->floating;
  c->text = e->text;
  c->character = e->character;
  c->boolean = e->boolean;
  c->name = e->name;
  c->op = e->op;
  c->left = clone_expr(e->left.get());
  c->right = clone_expr(e->right.get());
  return c;
}
}  // namespace

std::unique_ptr<TypeSpec> TypeSpec::clone() const {
  auto c = std::make_unique<TypeSpec>();
  c->kind = kind;
  c->location = location;
  c->basic = basic;
  if (element) c->element = element->clone();
  c->bound_expr = clone_expr(bound_expr.get());
  c->bound = bound;
  for (const auto& d : dimension_exprs) c->dimension_exprs.push_back(clone_expr(d.get()));
  c->dimensions = dimensions;
  c->digits_expr = clone_expr(digits_expr.get());
  c->scale_expr = clone_expr(scale_expr.get());
  c->digits = digits;
  c->scale = scale;
  c->name = name;
  c->resolved = resolved;
  return c;
}

const char* basic_type_name(BasicType type) {
  switch (type) {
    case BasicType::short_:
      return "short";
    case BasicType::long_:
      return "long";
    case BasicType::long_long:
      return "long long";
    case BasicType::unsigned_short:
      return "unsigned short";
    case BasicType::unsigned_long:
      return "unsigned long";
    case BasicType::unsigned_long_long:
      return "unsigned long long";
    case BasicType::float_:
      return "float";
    case BasicType::double_:
      return "double";
    case BasicType::long_double:
      return "long double";
    case BasicType::char_:
      return "char";
    case BasicType::wchar:
      return "wchar";
    case BasicType::boolean:
      return "boolean";
    case BasicType::octet:
      return "octet";
    case BasicType::any:
      return "any";
    case BasicType::object:
      return "Object";
    case BasicType::type_code:
      return "TypeCode";
    case BasicType::value_base:
      return "ValueBase";
    case BasicType::void_:
      return "void";
  }
  return "?";
}

const char* decl_kind_name(DeclKind kind) {
  switch (kind) {
    case DeclKind::module:
      return "module";
    case DeclKind::interface:
      return "interface";
    case DeclKind::value_type:
      return "valuetype";
    case DeclKind::value_box:
      return "valuebox";
    case DeclKind::struct_:
      return "struct";
    case DeclKind::union_:
      return "union";
    case DeclKind::enum_:
      return "enum";
    case DeclKind::enumerator:
      return "enumerator";
    case DeclKind::typedef_:
      return "typedef";
    case DeclKind::constant:
      return "const";
    case DeclKind::exception:
      return "exception";
    case DeclKind::native:
      return "native";
    case DeclKind::attribute:
      return "attribute";
    case DeclKind::operation:
      return "operation";
    case DeclKind::parameter:
      return "parameter";
    case DeclKind::member:
      return "member";
    case DeclKind::state_member:
      return "state member";
    case DeclKind::factory:
      return "factory";
    case DeclKind::directive:
      return "directive";
  }
  return "?";
}

std::string Declaration::scoped_name() const {
  if (parent == nullptr) return "";
  return parent->scoped_name() + "::" + name;
}

namespace {

const DeclarationList* children(const Declaration& d) {
  switch (d.kind) {
    case DeclKind::module:
      return &static_cast<const Module&>(d).definitions;
    case DeclKind::interface:
      return &static_cast<const Interface&>(d).definitions;
    case DeclKind::value_type:
      return &static_cast<const ValueType&>(d).definitions;
    case DeclKind::struct_:
      return &static_cast<const Struct&>(d).definitions;
    case DeclKind::union_:
      return &static_cast<const Union&>(d).definitions;
    case DeclKind::exception:
      return &static_cast<const Exception&>(d).definitions;
    default:
      return nullptr;
  }
}

bool is_forward(const Declaration& d) {
  switch (d.kind) {
    case DeclKind::interface:
      return static_cast<const Interface&>(d).forward;
    case DeclKind::value_type:
      return static_cast<const ValueType&>(d).forward;
    case DeclKind::struct_:
      return static_cast<const Struct&>(d).forward;
    case DeclKind::union_:
      return static_cast<const Union&>(d).forward;
    default:
      return false;
  }
}

void dump(const DeclarationList& list, bool all, int depth, std::string& out) {
  for (const auto& d : list) {
    if (d->kind == DeclKind::directive) continue;
    if (!all && !d->in_main_file && d->kind != DeclKind::module) continue;
    std::string line(static_cast<std::size_t>(depth) * 2, ' ');
    line += decl_kind_name(d->kind);
    if (is_forward(*d)) line += " (forward)";
    line += ' ';
    line += d->scoped_name();
    if (!d->repository_id.empty()) line += ' ' + d->repository_id;
    std::string inner;
    if (const DeclarationList* c = children(*d)) dump(*c, all, depth + 1, inner);
    // A module from an included file shows only when it holds main-file declarations.
    if (!all && !d->in_main_file && inner.empty()) continue;
    out += line + '\n' + inner;
  }
}

}  // namespace

std::string dump_declarations(const Specification& specification, bool all) {
  std::string out;
  dump(specification.root.definitions, all, 0, out);
  return out;
}

}  // namespace switchyard::idl
