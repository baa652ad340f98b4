#include "idl_compiler/checks.h"

#include <cctype>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>

namespace switchyard::idl {

namespace {

using Int = __int128;
constexpr Int int_min = -(static_cast<Int>(1) << 63);
constexpr Int int_max = (static_cast<Int>(1) << 64) - 1;  // largest unsigned long long

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string to_string(Int v) {
  if (v == 0) return "0";
  const bool negative = v < 0;
  unsigned __int128 u = negative ? static_cast<unsigned __int128>(-(v + 1)) + 1 : static_cast<unsigned __int128>(v);
  std::string out;
  while (u != 0) {
    out.insert(out.begin(), static_cast<char>('0' + static_cast<int>(u % 10)));
    u /= 10;
  }
  return negative ? "-" + out : out;
}

// Fixed-point constant expressions, computed exactly in decimal as IDL says (syidl does not link
// the ORB's switchyard::fixed): magnitude / 10^scale. Quotients stop at 31 digits (truncated);
// an intermediate beyond 128 bits gives nullopt.
struct Decimal {
  bool negative = false;
  unsigned __int128 magnitude = 0;
  int scale = 0;
};

constexpr unsigned __int128 decimal_limit = static_cast<unsigned __int128>(1) << 120;

Decimal parse_decimal(std::string_view text) {
  Decimal d;
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) {
    d.negative = text[0] == '-';
    text.remove_prefix(1);
  }
  bool fraction = false;
  for (char c : text) {
    if (c == '.') {
      fraction = true;
    } else if (c >= '0' && c <= '9' && d.magnitude < decimal_limit / 10) {
      d.magnitude = d.magnitude * 10 + static_cast<unsigned>(c - '0');
      d.scale += fraction ? 1 : 0;
    }
  }
  return d;
}

std::string format_decimal(Decimal d) {
  int digits = 0;
  for (unsigned __int128 m = d.magnitude; m != 0; m /= 10) ++digits;
  for (; digits > 31 && d.scale > 0; --digits, --d.scale) d.magnitude /= 10;  // IDL truncates past 31 digits
  while (d.scale > 0 && d.magnitude % 10 == 0) {
    d.magnitude /= 10;
    --d.scale;
  }
  std::string text;
  for (unsigned __int128 m = d.magnitude; m != 0; m /= 10)
    text.insert(text.begin(), static_cast<char>('0' + static_cast<int>(m % 10)));
  const auto scale = static_cast<std::size_t>(d.scale);
  if (text.size() <= scale) text.insert(0, scale + 1 - text.size(), '0');
  if (scale > 0) text.insert(text.size() - scale, ".");
  return (d.negative && d.magnitude != 0 ? "-" : "") + text;
}

bool rescale(Decimal& d, int scale) {
  for (; d.scale < scale; ++d.scale) {
    if (d.magnitude >= decimal_limit / 10) return false;
    d.magnitude *= 10;
  }
  return true;
}

std::optional<Decimal> decimal_arithmetic(char op, Decimal a, Decimal b) {
  if (op == '+' || op == '-') {
    if (op == '-') b.negative = !b.negative;
    const int scale = std::max(a.scale, b.scale);
    if (!rescale(a, scale) || !rescale(b, scale)) return std::nullopt;
    Decimal r{a.negative, 0, scale};
    if (a.negative == b.negative) {
      r.magnitude = a.magnitude + b.magnitude;
    } else if (a.magnitude >= b.magnitude) {
      r.magnitude = a.magnitude - b.magnitude;
    } else {
      r.magnitude = b.magnitude - a.magnitude;
      r.negative = b.negative;
    }
    return r;
  }
  if (op == '*') {
    if (a.magnitude != 0 && b.magnitude > decimal_limit / a.magnitude) return std::nullopt;
    return Decimal{a.negative != b.negative, a.magnitude * b.magnitude, a.scale + b.scale};
  }
  // Long division: the integer part, then fraction digits until 31 digits in all.
  const int scale = std::max(a.scale, b.scale);
  if (!rescale(a, scale) || !rescale(b, scale) || b.magnitude == 0) return std::nullopt;
  Decimal r{a.negative != b.negative, a.magnitude / b.magnitude, 0};
  unsigned __int128 rest = a.magnitude % b.magnitude;
  int digits = 0;
  for (unsigned __int128 m = r.magnitude; m != 0; m /= 10) ++digits;
  for (; rest != 0 && digits < 31; ++r.scale) {
    if (rest >= decimal_limit / 10) return std::nullopt;
    rest *= 10;
    r.magnitude = r.magnitude * 10 + rest / b.magnitude;
    rest %= b.magnitude;
    if (r.magnitude != 0) ++digits;
  }
  return r;
}

// What kind of value a constant of some type holds.
enum class Category {
  invalid,
  integer,
  floating,
  fixed,
  character,
  wide_character,
  boolean,
  string,
  wide_string,
  enumeration
};

struct Target {
  Category category = Category::invalid;
  Int min = 0, max = 0;       // integer
  bool is_signed = true;      // integer
  long double float_max = 0;  // floating
  std::uint64_t bound = 0;    // string, wide_string
  const Enum* enumeration = nullptr;
  std::string type_name;
};

// A value during evaluation.
struct Value {
  ConstKind kind = ConstKind::none;
  Int integer = 0;
  long double floating = 0;
  std::string text;
  std::uint32_t character = 0;
  bool boolean = false;
  const Enumerator* enumerator = nullptr;
};

const char* kind_phrase(ConstKind kind) {
  switch (kind) {
    case ConstKind::integer:
      return "an integer";
    case ConstKind::floating:
      return "a floating-point value";
    case ConstKind::fixed:
      return "a fixed-point value";
    case ConstKind::character:
      return "a character";
    case ConstKind::wide_character:
      return "a wide character";
    case ConstKind::string:
      return "a string";
    case ConstKind::wide_string:
      return "a wide string";
    case ConstKind::boolean:
      return "a boolean";
    case ConstKind::enumerator:
      return "an enumerator";
    case ConstKind::none:
      break;
  }
  return "nothing";
}

bool is_scope_kind(DeclKind k) {
  return k == DeclKind::module || k == DeclKind::interface || k == DeclKind::value_type || k == DeclKind::struct_ ||
         k == DeclKind::union_ || k == DeclKind::exception;
}

bool is_type_kind(DeclKind k) {
  return k == DeclKind::interface || k == DeclKind::value_type || k == DeclKind::value_box || k == DeclKind::struct_ ||
         k == DeclKind::union_ || k == DeclKind::enum_ || k == DeclKind::typedef_ || k == DeclKind::native;
}

bool has_repository_id(DeclKind k) {
  return is_scope_kind(k) || is_type_kind(k) || k == DeclKind::constant || k == DeclKind::attribute ||
         k == DeclKind::operation;
}

const Declaration* canonical(const Declaration* d) {
  if (d != nullptr && d->kind == DeclKind::module) return static_cast<const Module*>(d)->first;
  return d;
}

class Checker {
 public:
  Checker(Diagnostics& diagnostics, CheckOptions options) : diagnostics_(diagnostics), options_(options) {}

  void run(Specification& spec) {
    root_ = &spec.root;
    prefixes_.push_back(PrefixFrame{"", root_, false, root_});
    walk(spec.root.definitions, &spec.root);
  }

 private:
  struct PrefixFrame {
    std::string prefix;
    const Declaration* base;  // ids are scoped names relative to this scope
    bool file;                // opened by an #include'd file (else by a scope)
    const Declaration* scope;
  };
  struct TypeUse {
    bool in_sequence = false;
    bool member = false;  // member of a struct/union/exception (completeness matters)
  };

  // ------------------------------------------------------------ reporting

  void error(SourceLocation at, std::string message) { diagnostics_.error(at, std::move(message)); }
  void note(SourceLocation at, std::string message) { diagnostics_.note(at, std::move(message)); }

  // Custom valuetypes marshal themselves through user code (CustomMarshal), which the back end
  // does not support: an error when code is generated for one, a warning when only checking.
  void custom_valuetype_used(SourceLocation at, const std::string& name) {
    if (!current_in_main_) return;
    const std::string what = "custom valuetypes are not supported: " + name + " (custom marshaling)";
    if (options_.generating) error(at, what);
    else diagnostics_.warning(at, what + " (accepted for checking only)");
  }
  static bool is_custom_value(const Declaration* d) {
    return d != nullptr && d->kind == DeclKind::value_type && static_cast<const ValueType*>(d)->is_custom;
  }

  // ------------------------------------------------------------ scopes and names

  std::unordered_map<std::string, Declaration*>& table(const Declaration* scope) { return scopes_[canonical(scope)]; }

  // Adds `d` to `scope`. Handles reopened modules and forward declarations; reports clashes.
  bool declare(Declaration& d, const Declaration* scope) {
    if (d.name.empty()) return false;
    if (scope != root_ && lower(scope->name) == lower(d.name) && d.kind != DeclKind::enumerator &&
        is_scope_kind(scope->kind)) {
      error(d.location, "'" + d.name + "' clashes with the name of its enclosing scope '" + scope->name + "'");
      note(scope->location, "'" + scope->name + "' is declared here");
      return false;
    }
    auto& entries = table(scope);
    auto [it, inserted] = entries.emplace(lower(d.name), &d);
    if (inserted) return true;
    Declaration* previous = it->second;
    if (previous->name != d.name) {
      error(d.location, "'" + d.name + "' clashes with '" + previous->name +
                            "' (IDL names that differ only in case are the same name)");
      note(previous->location, "'" + previous->name + "' is declared here");
      return false;
    }
    if (previous->kind == d.kind) {
      switch (d.kind) {
        case DeclKind::module:
          static_cast<Module&>(d).first = static_cast<Module*>(previous)->first;
          return true;
        case DeclKind::interface: {
          auto& now = static_cast<Interface&>(d);
          auto& before = static_cast<Interface&>(*previous);
          if (now.is_abstract != before.is_abstract || now.is_local != before.is_local) {
            error(d.location, "interface '" + d.name + "' does not match its earlier declaration (abstract or local)");
            note(previous->location, "earlier declaration is here");
            return false;
          }
          if (now.forward) {
            now.definition = before.forward ? before.definition : &before;
            return true;
          }
          if (before.forward) {
            before.definition = &now;
            it->second = &d;
            return true;
          }
          break;
        }
        case DeclKind::struct_:
        case DeclKind::union_:
        case DeclKind::value_type: {
          const bool now_forward = is_forward(d), before_forward = is_forward(*previous);
          if (now_forward) {
            set_definition(d, before_forward ? definition_of(*previous) : previous);
            return true;
          }
          if (before_forward) {
            set_definition(*previous, &d);
            it->second = &d;
            return true;
          }
          break;
        }
        default:
          break;
      }
    }
    error(d.location, "redefinition of '" + d.name + "'");
    note(previous->location, "previous declaration of '" + previous->name + "' is here");
    return false;
  }

  static bool is_forward(const Declaration& d) {
    switch (d.kind) {
      case DeclKind::interface:
        return static_cast<const Interface&>(d).forward;
      case DeclKind::struct_:
        return static_cast<const Struct&>(d).forward;
      case DeclKind::union_:
        return static_cast<const Union&>(d).forward;
      case DeclKind::value_type:
        return static_cast<const ValueType&>(d).forward;
      default:
        return false;
    }
  }
  // The full declaration behind `d` (itself unless a forward one); nullptr when not yet defined.
  static Declaration* definition_of(Declaration& d) {
    if (!is_forward(d)) return &d;
    switch (d.kind) {
      case DeclKind::interface:
        return static_cast<Interface&>(d).definition;
      case DeclKind::struct_:
        return static_cast<Struct&>(d).definition;
      case DeclKind::union_:
        return static_cast<Union&>(d).definition;
      case DeclKind::value_type:
        return static_cast<ValueType&>(d).definition;
      default:
        return &d;
    }
  }
  static void set_definition(Declaration& forward, Declaration* full) {
    switch (forward.kind) {
      case DeclKind::struct_:
        static_cast<Struct&>(forward).definition = static_cast<Struct*>(full);
        break;
      case DeclKind::union_:
        static_cast<Union&>(forward).definition = static_cast<Union*>(full);
        break;
      case DeclKind::value_type:
        static_cast<ValueType&>(forward).definition = static_cast<ValueType*>(full);
        break;
      default:
        break;
    }
  }

  // One name in one scope, including what interfaces and valuetypes inherit (breadth first,
  // each base once: a lattice of diamonds must not cost exponential time).
  Declaration* find_in(const Declaration* scope, const std::string& key) {
    auto& entries = table(scope);
    auto found = entries.find(key);
    if (found != entries.end()) return found->second;
    if (scope->kind != DeclKind::interface && scope->kind != DeclKind::value_type) return nullptr;
    std::vector<const Declaration*> queue{scope};
    std::set<const Declaration*> seen{scope};
    for (std::size_t next = 0; next < queue.size(); ++next) {
      const Declaration* s = queue[next];
      if (s != scope) {
        auto& t = table(s);
        auto hit = t.find(key);
        if (hit != t.end()) return hit->second;
      }
      if (s->kind == DeclKind::interface) {
        for (const Interface* base : static_cast<const Interface*>(s)->bases)
          if (seen.insert(base).second) queue.push_back(base);
      } else if (s->kind == DeclKind::value_type) {
        for (const Declaration* base : value_bases_[s])
          if (seen.insert(base).second) queue.push_back(base);
      }
    }
    return nullptr;
  }

  Declaration* lookup(const ScopedName& name, const Declaration* from, bool report = true) {
    if (name.parts.empty()) return nullptr;
    Declaration* found = nullptr;
    const std::string first = lower(name.parts[0]);
    if (name.absolute) {
      found = find_in(root_, first);
    } else {
      for (const Declaration* s = from; s != nullptr && found == nullptr; s = s->parent) found = find_in(s, first);
    }
    std::size_t i = 0;
    while (true) {
      if (found == nullptr) {
        if (report) {
          if (i == 0) error(name.location, "undefined name '" + name.text() + "'");
          else error(name.location, "'" + name.parts[i] + "' is not declared in '" + name.parts[i - 1] + "'");
        }
        return nullptr;
      }
      if (found->name != name.parts[i]) {
        if (report) {
          error(name.location, "'" + name.parts[i] + "' does not match the case of '" + found->name +
                                   "' (IDL names that differ only in case are the same name)");
          note(found->location, "'" + found->name + "' is declared here");
        }
        return nullptr;
      }
      if (++i == name.parts.size()) return found;
      Declaration* scope = definition_of(*found);
      if (scope == nullptr || !is_scope_kind(scope->kind)) {
        if (report)
          error(name.location, "'" + found->name + "' is not a scope, so '" + name.text() + "' names nothing");
        return nullptr;
      }
      found = find_in(scope, lower(name.parts[i]));
    }
  }

  // ------------------------------------------------------------ repository ids

  void enter_scope(const Declaration* scope) {
    PrefixFrame frame = prefixes_.back();
    frame.file = false;
    frame.scope = scope;
    auto tp = type_prefixes_.find(canonical(scope));
    if (tp != type_prefixes_.end()) {
      frame.prefix = tp->second;
      frame.base = scope->parent;
    }
    prefixes_.push_back(frame);
  }
  void leave_scope(const Declaration* scope) {
    while (prefixes_.size() > 1) {
      const bool mine = !prefixes_.back().file && prefixes_.back().scope == scope;
      prefixes_.pop_back();
      if (mine) break;
    }
  }

  void assign_repository_id(Declaration& d) {
    if (!has_repository_id(d.kind)) return;
    const PrefixFrame& frame = prefixes_.back();
    std::vector<const std::string*> names;
    const Declaration* base = canonical(frame.base);
    bool reached = false;
    for (const Declaration* s = &d; s != nullptr && s->parent != nullptr; s = s->parent) {
      if (s != &d && canonical(s) == base) {
        reached = true;
        break;
      }
      names.push_back(&s->name);
    }
    (void)reached;
    std::string id = "IDL:";
    if (!frame.prefix.empty()) id += frame.prefix + "/";
    for (auto it = names.rbegin(); it != names.rend(); ++it) {
      if (it != names.rbegin()) id += '/';
      id += **it;
    }
    id += ":1.0";
    d.repository_id = std::move(id);
  }

  // A full declaration takes the id its forward declaration was given by #pragma ID/version.
  void inherit_forward_id(Declaration& d, Declaration* forward) {
    if (forward == nullptr || forward == &d) return;
    if (forward->id_fixed || versioned_.count(forward) != 0) {
      d.repository_id = forward->repository_id;
      d.id_fixed = forward->id_fixed;
      if (versioned_.count(forward) != 0) versioned_.insert(&d);
    }
  }

  void directive(Directive& d, Declaration* scope) {
    switch (d.directive) {
      case DirectiveKind::file_begin:
        prefixes_.push_back(PrefixFrame{"", scope, true, scope});
        return;
      case DirectiveKind::file_end:
        if (prefixes_.size() > 1 && prefixes_.back().file) prefixes_.pop_back();
        return;
      case DirectiveKind::pragma_prefix:
        prefixes_.back().prefix = d.value;
        prefixes_.back().base = scope;
        return;
      case DirectiveKind::type_prefix: {
        Declaration* target = lookup(d.target, scope);
        if (target == nullptr) return;
        if (!is_scope_kind(target->kind) && !is_type_kind(target->kind)) {
          error(d.target.location, "typeprefix needs a module or a type, and '" + d.target.text() + "' is neither");
          return;
        }
        type_prefixes_[canonical(target)] = d.value;
        if (canonical(target) == canonical(scope)) {
          prefixes_.back().prefix = d.value;
          prefixes_.back().base = scope->parent;
        }
        return;
      }
      case DirectiveKind::pragma_id:
      case DirectiveKind::type_id: {
        Declaration* target = lookup(d.target, scope);
        if (target == nullptr) return;
        if (target->repository_id.empty()) {
          error(d.target.location, "'" + d.target.text() + "' has no repository id to set");
          return;
        }
        if (d.value.find(':') == std::string::npos || d.value.front() == ':') {
          error(d.location, "'" + d.value + "' is not a repository id (expected a form like IDL:name:1.0)");
          return;
        }
        if (target->id_fixed && target->repository_id != d.value) {
          error(d.location, "repository id of '" + d.target.text() + "' is already '" + target->repository_id + "'");
          return;
        }
        target->repository_id = d.value;
        target->id_fixed = true;
        return;
      }
      case DirectiveKind::pragma_version: {
        Declaration* target = lookup(d.target, scope);
        if (target == nullptr) return;
        std::string& id = target->repository_id;
        if (id.empty()) {
          error(d.target.location, "'" + d.target.text() + "' has no repository id to version");
          return;
        }
        if (id.rfind("IDL:", 0) != 0) {
          error(d.location, "#pragma version cannot apply to '" + d.target.text() + "', whose repository id '" + id +
                                "' is not in IDL format");
          return;
        }
        const std::size_t colon = id.rfind(':');
        const std::string old_version = id.substr(colon + 1);
        if (versioned_.count(target) != 0 && old_version != d.value) {
          error(d.location, "version of '" + d.target.text() + "' is already " + old_version);
          return;
        }
        if (target->id_fixed && old_version != d.value) {
          error(d.location,
                "repository id of '" + d.target.text() + "' was set by #pragma ID; its version cannot change");
          return;
        }
        id = id.substr(0, colon + 1) + d.value;
        versioned_.insert(target);
        return;
      }
    }
  }

  // ------------------------------------------------------------ types

  // Follows typedefs to the type behind a name (nullptr when unresolved).
  const TypeSpec* unalias(const TypeSpec* type) {
    for (int guard = 0; type != nullptr && guard < 1000; ++guard) {
      if (type->kind != TypeKind::named) return type;
      if (type->resolved == nullptr) return nullptr;
      if (type->resolved->kind != DeclKind::typedef_) return type;
      type = static_cast<const Typedef*>(type->resolved)->type.get();
    }
    return nullptr;
  }

  bool is_incomplete(Declaration* d) {
    if (d->kind != DeclKind::struct_ && d->kind != DeclKind::union_) return false;
    Declaration* full = definition_of(*d);
    if (full == nullptr) return true;
    return being_defined_.count(full) != 0;
  }

  // Checks a type where it is used. False when something in it failed (already reported).
  bool check_type(TypeSpec& type, Declaration* scope, TypeUse use) {
    switch (type.kind) {
      case TypeKind::basic:
        return true;
      case TypeKind::string:
      case TypeKind::wstring:
        if (type.bound_expr) return positive(type.bound_expr.get(), scope, type.bound, "bound");
        return true;
      case TypeKind::sequence: {
        TypeUse inner = use;
        inner.in_sequence = true;
        bool ok = check_type(*type.element, scope, inner);
        if (type.bound_expr) ok = positive(type.bound_expr.get(), scope, type.bound, "bound") && ok;
        return ok;
      }
      case TypeKind::array: {
        bool ok = check_type(*type.element, scope, use);
        type.dimensions.clear();
        for (auto& e : type.dimension_exprs) {
          std::uint64_t n = 0;
          ok = positive(e.get(), scope, n, "array dimension") && ok;
          type.dimensions.push_back(n);
        }
        return ok;
      }
      case TypeKind::fixed: {
        std::uint64_t digits = 0, scale = 0;
        if (!type.digits_expr) return true;  // bare `fixed` of a constant
        bool ok = positive(type.digits_expr.get(), scope, digits, "number of digits");
        ok = ok && non_negative(type.scale_expr.get(), scope, scale);
        if (!ok) return false;
        if (digits > 31) {
          error(type.digits_expr->location, "fixed-point types have at most 31 digits, not " + std::to_string(digits));
          return false;
        }
        if (scale > digits) {
          error(type.scale_expr->location, "the scale " + std::to_string(scale) +
                                               " of a fixed-point type exceeds its " + std::to_string(digits) +
                                               " digits");
          return false;
        }
        type.digits = static_cast<std::uint32_t>(digits);
        type.scale = static_cast<std::uint32_t>(scale);
        return true;
      }
      case TypeKind::named:
        break;
    }
    if (type.resolved == nullptr) {
      type.resolved = lookup(type.name, scope, false);
      if (type.resolved == nullptr) {
        // TypeCode is built in (omniidl's corbaidl.idl uses it without a declaration).
        const auto& p = type.name.parts;
        if ((p.size() == 1 && p[0] == "TypeCode" && !type.name.absolute) ||
            (p.size() == 2 && p[0] == "CORBA" && p[1] == "TypeCode")) {
          type.kind = TypeKind::basic;
          type.basic = BasicType::type_code;
          return true;
        }
        lookup(type.name, scope, true);  // report why
        return false;
      }
    }
    Declaration* d = type.resolved;
    if (!is_type_kind(d->kind)) {
      error(type.name.location, "'" + type.name.text() + "' is not a type (it is " +
                                    (d->kind == DeclKind::enumerator ? "an " : "a ") + decl_kind_name(d->kind) + ")");
      type.resolved = nullptr;
      return false;
    }
    if (is_custom_value(definition_of(*d)) || is_custom_value(d)) {
      custom_valuetype_used(type.name.location, type.name.text());
    } else if (d->kind == DeclKind::typedef_) {
      const TypeSpec* behind = unalias(&type);
      if (behind != nullptr && behind->kind == TypeKind::named && behind->resolved != nullptr &&
          (is_custom_value(behind->resolved) || is_custom_value(definition_of(*behind->resolved))))
        custom_valuetype_used(type.name.location, type.name.text());
    }
    if (!use.in_sequence && is_incomplete(d)) {
      Declaration* full = definition_of(*d);
      if (full != nullptr)
        error(type.name.location, "'" + type.name.text() + "' is used recursively; a " + decl_kind_name(d->kind) +
                                      " can contain itself only through a sequence");
      else
        error(type.name.location, "'" + type.name.text() +
                                      "' is only forward-declared here; it can be used only as "
                                      "the element type of a sequence until it is defined");
      return false;
    }
    return true;
  }

  // ------------------------------------------------------------ constants

  Target target_of(const TypeSpec& type) {
    Target t;
    const TypeSpec* real = unalias(&type);
    if (real == nullptr) return t;
    if (real->kind == TypeKind::string || real->kind == TypeKind::wstring) {
      t.category = real->kind == TypeKind::string ? Category::string : Category::wide_string;
      t.bound = real->bound;
      t.type_name = real->kind == TypeKind::string ? "string" : "wstring";
      return t;
    }
    if (real->kind == TypeKind::fixed) {
      t.category = Category::fixed;
      t.type_name = "fixed";
      return t;
    }
    if (real->kind == TypeKind::named && real->resolved != nullptr && real->resolved->kind == DeclKind::enum_) {
      t.category = Category::enumeration;
      t.enumeration = static_cast<const Enum*>(real->resolved);
      t.type_name = real->resolved->name;
      return t;
    }
    if (real->kind != TypeKind::basic) return t;
    t.type_name = basic_type_name(real->basic);
    const auto integer = [&](Int min, Int max, bool is_signed) {
      t.category = Category::integer;
      t.min = min;
      t.max = max;
      t.is_signed = is_signed;
    };
    switch (real->basic) {
      case BasicType::short_:
        integer(-32768, 32767, true);
        break;
      case BasicType::long_:
        integer(INT32_MIN, INT32_MAX, true);
        break;
      case BasicType::long_long:
        integer(INT64_MIN, INT64_MAX, true);
        break;
      case BasicType::unsigned_short:
        integer(0, 65535, false);
        break;
      case BasicType::unsigned_long:
        integer(0, UINT32_MAX, false);
        break;
      case BasicType::unsigned_long_long:
        integer(0, UINT64_MAX, false);
        break;
      case BasicType::octet:
        integer(0, 255, false);
        break;
      case BasicType::float_:
        t.category = Category::floating;
        t.float_max = FLT_MAX;
        break;
      case BasicType::double_:
        t.category = Category::floating;
        t.float_max = DBL_MAX;
        break;
      case BasicType::long_double:
        t.category = Category::floating;
        t.float_max = LDBL_MAX;
        break;
      case BasicType::char_:
        t.category = Category::character;
        break;
      case BasicType::wchar:
        t.category = Category::wide_character;
        break;
      case BasicType::boolean:
        t.category = Category::boolean;
        break;
      default:
        break;
    }
    return t;
  }

  static ConstKind expected_kind(Category c) {
    switch (c) {
      case Category::integer:
        return ConstKind::integer;
      case Category::floating:
        return ConstKind::floating;
      case Category::fixed:
        return ConstKind::fixed;
      case Category::character:
        return ConstKind::character;
      case Category::wide_character:
        return ConstKind::wide_character;
      case Category::boolean:
        return ConstKind::boolean;
      case Category::string:
        return ConstKind::string;
      case Category::wide_string:
        return ConstKind::wide_string;
      case Category::enumeration:
        return ConstKind::enumerator;
      case Category::invalid:
        break;
    }
    return ConstKind::none;
  }

  static Value from_const(const ConstValue& c) {
    Value v;
    v.kind = c.kind;
    v.integer = c.negative ? static_cast<Int>(c.signed_integer) : static_cast<Int>(c.unsigned_integer);
    v.floating = c.floating;
    v.text = c.text;
    v.character = c.character;
    v.boolean = c.boolean;
    v.enumerator = c.enumerator;
    return v;
  }

  static ConstValue to_const(const Value& v) {
    ConstValue c;
    c.kind = v.kind;
    c.negative = v.integer < 0;
    c.signed_integer = static_cast<std::int64_t>(v.integer);
    c.unsigned_integer = static_cast<std::uint64_t>(v.integer);
    c.floating = v.floating;
    c.text = v.text;
    c.character = v.character;
    c.boolean = v.boolean;
    c.enumerator = v.enumerator;
    return c;
  }

  // Evaluates `e` for a constant of `target`. nullopt: reported.
  std::optional<Value> evaluate(const Expr* e, Declaration* scope, const Target& target, int depth = 0) {
    if (depth > 200) {
      error(e->location, "constant expression nested too deeply");
      return std::nullopt;
    }
    Value v;
    const auto mismatch = [&](ConstKind found) -> std::optional<Value> {
      error(e->location, std::string("expected ") + kind_phrase(expected_kind(target.category)) +
                             " for a constant of type '" + target.type_name + "', found " + kind_phrase(found));
      return std::nullopt;
    };
    switch (e->kind) {
      case ExprKind::integer_literal:
        v.kind = ConstKind::integer;
        v.integer = e->integer;
        if (target.category == Category::floating || target.category == Category::fixed) {
          v.kind = target.category == Category::floating ? ConstKind::floating : ConstKind::fixed;
          v.floating = static_cast<long double>(e->integer);
          v.text = std::to_string(e->integer);
          return v;
        }
        if (target.category != Category::integer) return mismatch(v.kind);
        return v;
      case ExprKind::floating_literal:
        if (target.category != Category::floating) return mismatch(ConstKind::floating);
        v.kind = ConstKind::floating;
        v.floating = e->floating;
        return v;
      case ExprKind::fixed_literal:
        if (target.category != Category::fixed) return mismatch(ConstKind::fixed);
        v.kind = ConstKind::fixed;
        v.floating = e->floating;
        v.text = e->text;
        return v;
      case ExprKind::char_literal:
      case ExprKind::wide_char_literal:
        v.kind = e->kind == ExprKind::char_literal ? ConstKind::character : ConstKind::wide_character;
        v.character = e->character;
        if (target.category == Category::wide_character) {
          v.kind = ConstKind::wide_character;
          return v;
        }
        if (target.category != Category::character || v.kind != ConstKind::character) return mismatch(v.kind);
        if (v.character > 0xFF) {
          error(e->location, "character does not fit in a char");
          return std::nullopt;
        }
        return v;
      case ExprKind::string_literal:
      case ExprKind::wide_string_literal:
        v.kind = e->kind == ExprKind::string_literal ? ConstKind::string : ConstKind::wide_string;
        v.text = e->text;
        if (target.category == Category::wide_string) {
          v.kind = ConstKind::wide_string;
          return v;
        }
        if (target.category != Category::string || v.kind != ConstKind::string) return mismatch(v.kind);
        return v;
      case ExprKind::boolean_literal:
        if (target.category != Category::boolean) return mismatch(ConstKind::boolean);
        v.kind = ConstKind::boolean;
        v.boolean = e->boolean;
        return v;
      case ExprKind::name: {
        Declaration* d = lookup(e->name, scope);
        if (d == nullptr) return std::nullopt;
        if (d->kind == DeclKind::enumerator) {
          v.kind = ConstKind::enumerator;
          v.enumerator = static_cast<const Enumerator*>(d);
          if (target.category != Category::enumeration) return mismatch(v.kind);
          if (v.enumerator->owner != target.enumeration) {
            error(e->location, "'" + e->name.text() + "' is not an enumerator of '" + target.type_name + "'");
            return std::nullopt;
          }
          return v;
        }
        if (d->kind != DeclKind::constant) {
          error(e->location, "'" + e->name.text() + "' is not a constant (it is " +
                                 (d->kind == DeclKind::interface ? "an " : "a ") + decl_kind_name(d->kind) + ")");
          return std::nullopt;
        }
        const auto* c = static_cast<const Constant*>(d);
        if (c->value.kind == ConstKind::none) return std::nullopt;  // its own error was reported
        v = from_const(c->value);
        if (v.kind == ConstKind::integer &&
            (target.category == Category::floating || target.category == Category::fixed)) {
          v.kind = target.category == Category::floating ? ConstKind::floating : ConstKind::fixed;
          v.floating = static_cast<long double>(v.integer);
          v.text = to_string(v.integer);
          return v;
        }
        if (v.kind == ConstKind::character && target.category == Category::wide_character) {
          v.kind = ConstKind::wide_character;
          return v;
        }
        if (v.kind == ConstKind::string && target.category == Category::wide_string) {
          v.kind = ConstKind::wide_string;
          return v;
        }
        if (v.kind != expected_kind(target.category)) return mismatch(v.kind);
        if (v.kind == ConstKind::enumerator && v.enumerator->owner != target.enumeration) {
          error(e->location, "'" + e->name.text() + "' is not an enumerator of '" + target.type_name + "'");
          return std::nullopt;
        }
        return v;
      }
      case ExprKind::unary: {
        std::optional<Value> x = evaluate(e->left.get(), scope, target, depth + 1);
        if (!x) return std::nullopt;
        if (x->kind == ConstKind::integer) {
          if (e->op == "-") x->integer = -x->integer;
          else if (e->op == "~") x->integer = target.is_signed ? -(x->integer + 1) : target.max - x->integer;
          return in_range(*x, e->location);
        }
        if (x->kind == ConstKind::floating || x->kind == ConstKind::fixed) {
          if (e->op == "~") return bad_operator(e, *x);
          if (e->op == "-") {
            x->floating = -x->floating;
            if (x->kind == ConstKind::fixed)
              x->text = x->text.empty() || x->text[0] != '-' ? "-" + x->text : x->text.substr(1);
          }
          return x;
        }
        return bad_operator(e, *x);
      }
      case ExprKind::binary: {
        std::optional<Value> a = evaluate(e->left.get(), scope, target, depth + 1);
        if (!a) return std::nullopt;
        std::optional<Value> b = evaluate(e->right.get(), scope, target, depth + 1);
        if (!b) return std::nullopt;
        const std::string& op = e->op;
        if (a->kind == ConstKind::integer && b->kind == ConstKind::integer) {
          Int x = a->integer, y = b->integer, r = 0;
          if (op == "+") r = x + y;
          else if (op == "-") r = x - y;
          else if (op == "*") {
            const Int limit = static_cast<Int>(1) << 65;
            if ((x > limit || x < -limit) && y != 0 && y != 1 && y != -1) return overflow(e);
            if ((y > limit || y < -limit) && x != 0 && x != 1 && x != -1) return overflow(e);
            r = x * y;
          } else if (op == "/" || op == "%") {
            if (y == 0) {
              error(e->location, "division by zero in constant expression");
              return std::nullopt;
            }
            r = op == "/" ? x / y : x % y;
          } else if (op == "<<" || op == ">>") {
            if (y < 0 || y > 63) {
              error(e->location, "shift count " + to_string(y) + " is outside 0..63");
              return std::nullopt;
            }
            if (op == ">>") r = x >> static_cast<int>(y);
            else {
              if (x > (int_max >> static_cast<int>(y)) || x < (int_min >> static_cast<int>(y))) return overflow(e);
              r = x << static_cast<int>(y);
            }
          } else if (op == "&") r = x & y;
          else if (op == "|") r = x | y;
          else if (op == "^") r = x ^ y;
          a->integer = r;
          return in_range(*a, e->location);
        }
        if ((a->kind == ConstKind::floating || a->kind == ConstKind::fixed) && a->kind == b->kind) {
          if (op != "+" && op != "-" && op != "*" && op != "/") return bad_operator(e, *a);
          long double x = a->floating, y = b->floating;
          if (op == "/" && y == 0) {
            error(e->location, "division by zero in constant expression");
            return std::nullopt;
          }
          a->floating = op == "+" ? x + y : op == "-" ? x - y : op == "*" ? x * y : x / y;
          if (a->kind == ConstKind::fixed) {
            const std::optional<Decimal> exact =
                decimal_arithmetic(op[0], parse_decimal(a->text), parse_decimal(b->text));
            if (!exact) {
              error(e->location, "fixed-point constant expression needs more than 36 digits");
              return std::nullopt;
            }
            a->text = format_decimal(*exact);
          }
          return a;
        }
        return bad_operator(e, *a);
      }
    }
    return std::nullopt;
  }

  std::optional<Value> bad_operator(const Expr* e, const Value& v) {
    error(e->location, "operator '" + e->op + "' cannot be applied to " + kind_phrase(v.kind));
    return std::nullopt;
  }
  std::optional<Value> overflow(const Expr* e) {
    error(e->location, "constant expression overflows");
    return std::nullopt;
  }
  std::optional<Value> in_range(Value v, SourceLocation at) {
    if (v.integer < int_min || v.integer > int_max) {
      error(at, "constant expression overflows");
      return std::nullopt;
    }
    return v;
  }

  // Evaluates and range-checks for `target`; the value, or nullopt when reported.
  std::optional<Value> constant_value(const Expr* e, Declaration* scope, const Target& target) {
    std::optional<Value> v = evaluate(e, scope, target);
    if (!v) return std::nullopt;
    switch (target.category) {
      case Category::integer:
        if (v->integer < target.min || v->integer > target.max) {
          error(e->location, "value " + to_string(v->integer) + " is out of range for type '" + target.type_name +
                                 "' (" + to_string(target.min) + ".." + to_string(target.max) + ")");
          return std::nullopt;
        }
        break;
      case Category::floating:
        if (!std::isfinite(v->floating) || std::fabs(v->floating) > target.float_max) {
          error(e->location, "value is out of range for type '" + target.type_name + "'");
          return std::nullopt;
        }
        break;
      case Category::string:
      case Category::wide_string:
        if (target.bound != 0 && v->text.size() > target.bound) {
          error(e->location, "string of " + std::to_string(v->text.size()) + " characters exceeds the bound " +
                                 std::to_string(target.bound) + " of type '" + target.type_name + "'");
          return std::nullopt;
        }
        break;
      case Category::fixed: {
        std::size_t digits = 0;  // significant ones: leading zeros do not count
        for (char c : v->text) digits += (c >= '1' && c <= '9') || (c == '0' && digits > 0) ? 1 : 0;
        if (digits > 31) {
          error(e->location, "fixed-point constant has more than 31 digits");
          return std::nullopt;
        }
        break;
      }
      default:
        break;
    }
    return v;
  }

  bool positive(const Expr* e, Declaration* scope, std::uint64_t& out, const char* what) {
    Target t;
    t.category = Category::integer;
    t.min = 1;
    t.max = UINT32_MAX;
    t.is_signed = false;
    t.type_name = "unsigned long";
    std::optional<Value> v = evaluate(e, scope, t);
    if (!v) return false;
    if (v->integer < 1 || v->integer > UINT32_MAX) {
      error(e->location, std::string("the ") + what + " must be a positive integer, not " + to_string(v->integer));
      return false;
    }
    out = static_cast<std::uint64_t>(v->integer);
    return true;
  }
  bool non_negative(const Expr* e, Declaration* scope, std::uint64_t& out) {
    Target t;
    t.category = Category::integer;
    t.max = UINT32_MAX;
    t.is_signed = false;
    t.type_name = "unsigned short";
    std::optional<Value> v = evaluate(e, scope, t);
    if (!v) return false;
    if (v->integer < 0 || v->integer > 65535) {
      error(e->location, "the scale must be between 0 and 31, not " + to_string(v->integer));
      return false;
    }
    out = static_cast<std::uint64_t>(v->integer);
    return true;
  }

  // ------------------------------------------------------------ declarations

  void walk(DeclarationList& list, Declaration* scope) {
    for (auto& d : list) check_declaration(*d, scope);
  }

  void check_declaration(Declaration& d, Declaration* scope) {
    if (d.kind == DeclKind::directive) {
      directive(static_cast<Directive&>(d), scope);
      return;
    }
    const bool saved_main = current_in_main_;
    current_in_main_ = d.in_main_file;
    if (d.kind != DeclKind::enumerator) assign_repository_id(d);
    switch (d.kind) {
      case DeclKind::module: {
        auto& m = static_cast<Module&>(d);
        declare(m, scope);
        enter_scope(&m);
        walk(m.definitions, &m);
        leave_scope(&m);
        break;
      }
      case DeclKind::interface:
        check_interface(static_cast<Interface&>(d), scope);
        break;
      case DeclKind::value_type:
        check_value_type(static_cast<ValueType&>(d), scope);
        break;
      case DeclKind::value_box: {
        auto& box = static_cast<ValueBox&>(d);
        declare(box, scope);
        const bool saved = inside_value_;
        inside_value_ = true;
        check_type(*box.type, scope, TypeUse{});
        inside_value_ = saved;
        break;
      }
      case DeclKind::struct_:
        check_struct(static_cast<Struct&>(d), scope);
        break;
      case DeclKind::union_:
        check_union(static_cast<Union&>(d), scope);
        break;
      case DeclKind::exception: {
        auto& e = static_cast<Exception&>(d);
        declare(e, scope);
        enter_scope(&e);
        walk(e.definitions, &e);
        check_members(e.members, &e);
        leave_scope(&e);
        break;
      }
      case DeclKind::enum_: {
        auto& e = static_cast<Enum&>(d);
        declare(e, scope);
        for (auto& en : e.enumerators) declare(*en, scope);
        break;
      }
      case DeclKind::typedef_: {
        auto& t = static_cast<Typedef&>(d);
        check_type(*t.type, scope, TypeUse{});
        declare(t, scope);
        break;
      }
      case DeclKind::native:
        declare(d, scope);
        break;
      case DeclKind::constant:
        check_constant(static_cast<Constant&>(d), scope);
        break;
      case DeclKind::attribute:
        check_attribute(static_cast<Attribute&>(d), scope);
        break;
      case DeclKind::operation:
        check_operation(static_cast<Operation&>(d), scope);
        break;
      case DeclKind::state_member: {
        auto& m = static_cast<StateMember&>(d);
        check_type(*m.type, scope, TypeUse{});
        declare(m, scope);
        break;
      }
      case DeclKind::factory: {
        auto& f = static_cast<Factory&>(d);
        declare(f, scope);
        check_parameters(f.parameters, scope);
        for (auto& name : f.raises_names) check_exception(name, scope);
        break;
      }
      default:
        break;
    }
    current_in_main_ = saved_main;
  }

  void check_interface(Interface& i, Declaration* scope) {
    Declaration* before = find_in(scope, lower(i.name));
    Declaration* forward = before != nullptr && before->kind == DeclKind::interface ? before : nullptr;
    if (!declare(i, scope)) return;
    if (i.forward) return;
    inherit_forward_id(i, forward);
    std::set<const Interface*> direct;
    for (const ScopedName& name : i.base_names) {
      Declaration* b = lookup(name, scope);
      if (b == nullptr) continue;
      if (b == &i) {
        error(name.location, "interface '" + i.name + "' cannot inherit from itself");
        continue;
      }
      if (b->kind != DeclKind::interface) {
        error(name.location, "'" + name.text() + "' is not an interface (it is " +
                                 (b->kind == DeclKind::enum_ ? "an " : "a ") + decl_kind_name(b->kind) + ")");
        continue;
      }
      auto* base = static_cast<Interface*>(b);
      if (base->forward) base = base->definition;
      if (base == nullptr) {
        error(name.location, "interface '" + i.name + "' cannot inherit from '" + name.text() +
                                 "', which is only forward-declared at this point");
        note(b->location, "'" + b->name + "' is forward-declared here");
        continue;
      }
      if (!direct.insert(base).second) {
        error(name.location, "'" + name.text() + "' appears twice in the bases of '" + i.name + "'");
        continue;
      }
      if (i.is_abstract && !base->is_abstract) {
        error(name.location,
              "abstract interface '" + i.name + "' cannot inherit from non-abstract interface '" + name.text() + "'");
        continue;
      }
      if (!i.is_local && base->is_local) {
        error(name.location,
              "interface '" + i.name + "' must be local to inherit from local interface '" + name.text() + "'");
        continue;
      }
      i.bases.push_back(base);
    }
    // Operations and attributes inherited along different paths must not clash.
    std::map<std::string, std::pair<Declaration*, const Interface*>> inherited;
    std::set<const Interface*> visited;
    std::vector<const Interface*> pending(i.bases.begin(), i.bases.end());
    bool clash = false;
    for (std::size_t next_base = 0; next_base < pending.size() && visited.size() < 100000; ++next_base) {
      const Interface* b = pending[next_base];  // breadth first, in declaration order
      if (!visited.insert(b).second) continue;
      for (const auto& member : b->definitions) {
        if (member->kind != DeclKind::operation && member->kind != DeclKind::attribute) continue;
        auto [it, inserted] = inherited.emplace(lower(member->name), std::make_pair(member.get(), b));
        if (!inserted && it->second.first != member.get() && !clash) {
          error(i.location, "interface '" + i.name + "' inherits '" + member->name + "' from both '" +
                                it->second.second->scoped_name().substr(2) + "' and '" + b->scoped_name().substr(2) +
                                "'");
          clash = true;
        }
      }
      for (const Interface* next : b->bases) pending.push_back(next);
    }
    inherited_.swap(inherited);
    enter_scope(&i);
    walk(i.definitions, &i);
    leave_scope(&i);
    inherited_.clear();
  }

  void check_inherited_clash(Declaration& d) {
    auto it = inherited_.find(lower(d.name));
    if (it == inherited_.end()) return;
    error(d.location, std::string(decl_kind_name(d.kind)) + " '" + d.name + "' clashes with '" +
                          it->second.first->name + "' inherited from '" + it->second.second->scoped_name().substr(2) +
                          "'");
  }

  void check_value_type(ValueType& v, Declaration* scope) {
    Declaration* before = find_in(scope, lower(v.name));
    if (!declare(v, scope)) return;
    if (v.forward) return;
    if (before != nullptr && before->kind == DeclKind::value_type) inherit_forward_id(v, before);
    if (v.is_custom) {
      current_in_main_ = v.in_main_file;
      custom_valuetype_used(v.location, v.scoped_name().substr(2));
    }
    for (const ScopedName& name : v.base_names) {
      Declaration* b = lookup(name, scope);
      if (b == nullptr) continue;
      if (b->kind != DeclKind::value_type) {
        error(name.location, "'" + name.text() + "' is not a valuetype");
        continue;
      }
      Declaration* full = definition_of(*b);
      if (full == nullptr || full == &v) {
        error(name.location, "valuetype '" + v.name + "' cannot inherit from '" + name.text() +
                                 "', which is not defined at this point");
        continue;
      }
      value_bases_[&v].push_back(full);
      v.bases.push_back(static_cast<ValueType*>(full));
    }
    const Interface* concrete_supported = nullptr;
    for (const ScopedName& name : v.supports_names) {
      Declaration* b = lookup(name, scope);
      if (b == nullptr) continue;
      if (b->kind != DeclKind::interface) {
        error(name.location, "'" + name.text() + "' is not an interface");
        continue;
      }
      auto* supported = static_cast<Interface*>(b);
      if (supported->forward) supported = supported->definition;
      if (supported == nullptr) {
        error(name.location, "valuetype '" + v.name + "' cannot support '" + name.text() +
                                 "', which is only forward-declared at this point");
        continue;
      }
      if (!supported->is_abstract && concrete_supported != nullptr) {
        error(name.location, "valuetype '" + v.name + "' supports two interfaces that are not abstract ('" +
                                 concrete_supported->name + "' and '" + supported->name + "')");
        continue;
      }
      if (!supported->is_abstract) concrete_supported = supported;
      v.supports.push_back(supported);
    }
    const bool saved = inside_value_;
    inside_value_ = true;
    enter_scope(&v);
    walk(v.definitions, &v);
    leave_scope(&v);
    inside_value_ = saved;
  }

  // The unqualified type names members of one struct, union or exception used so far: a name
  // used in a scope is introduced into it, so no member may then take it, in any case (IDL's
  // scoping rules; omniidl: "Instance identifier 'rate' clashes with use of identifier 'Rate'").
  using UsedNames = std::unordered_map<std::string, const TypeSpec*>;

  bool declare_member(Member& m, Declaration* scope, UsedNames& used) {
    const TypeSpec* t = m.type.get();
    while (t != nullptr && (t->kind == TypeKind::sequence || t->kind == TypeKind::array)) t = t->element.get();
    if (t != nullptr && t->kind == TypeKind::named && t->name.parts.size() == 1 && !t->name.absolute)
      used.emplace(lower(t->name.parts[0]), t);
    if (auto it = used.find(lower(m.name)); it != used.end()) {
      error(m.location, "member '" + m.name + "' clashes with '" + it->second->name.text() +
                            "', a name used in this scope (IDL names that differ only in case are the same name)");
      note(it->second->name.location, "'" + it->second->name.text() + "' is used here");
      return false;
    }
    return declare(m, scope);
  }

  void check_members(std::vector<std::unique_ptr<Member>>& members, Declaration* scope) {
    UsedNames used;
    for (auto& m : members) {
      current_in_main_ = m->in_main_file;
      check_type(*m->type, scope, TypeUse{false, true});
      declare_member(*m, scope, used);
    }
  }

  void check_struct(Struct& s, Declaration* scope) {
    Declaration* before = find_in(scope, lower(s.name));
    if (!declare(s, scope)) return;
    if (s.forward) return;
    if (before != nullptr && before->kind == DeclKind::struct_) inherit_forward_id(s, before);
    being_defined_.insert(&s);
    enter_scope(&s);
    walk(s.definitions, &s);
    check_members(s.members, &s);
    leave_scope(&s);
    being_defined_.erase(&s);
  }

  void check_union(Union& u, Declaration* scope) {
    Declaration* before = find_in(scope, lower(u.name));
    if (!declare(u, scope)) return;
    if (u.forward) return;
    if (before != nullptr && before->kind == DeclKind::union_) inherit_forward_id(u, before);
    being_defined_.insert(&u);
    enter_scope(&u);
    walk(u.definitions, &u);
    Target target;
    if (check_type(*u.discriminator, &u, TypeUse{})) {
      target = target_of(*u.discriminator);
      const TypeSpec* real = unalias(u.discriminator.get());
      const bool octet_or_integer = target.category == Category::integer;
      const bool allowed = octet_or_integer || target.category == Category::character ||
                           target.category == Category::wide_character || target.category == Category::boolean ||
                           target.category == Category::enumeration;
      if (!allowed || real == nullptr) {
        error(u.discriminator->location, "the discriminator of union '" + u.name +
                                             "' must be an integer, char, wchar, boolean, octet or enum type");
        target.category = Category::invalid;
      }
    }
    std::map<Int, SourceLocation> seen;
    const CaseLabel* first_default = nullptr;
    UsedNames used;
    for (UnionCase& c : u.cases) {
      for (CaseLabel& label : c.labels) {
        if (label.is_default) {
          if (first_default != nullptr) {
            error(label.location, "union '" + u.name + "' has more than one default label");
            note(first_default->location, "the first default label is here");
          } else {
            first_default = &label;
          }
          continue;
        }
        if (target.category == Category::invalid) continue;
        std::optional<Value> v = constant_value(label.expr.get(), &u, target);
        if (!v) continue;
        label.value = to_const(*v);
        Int key = v->integer;
        std::string shown = to_string(v->integer);
        if (v->kind == ConstKind::boolean) {
          key = v->boolean ? 1 : 0;
          shown = v->boolean ? "TRUE" : "FALSE";
        } else if (v->kind == ConstKind::character || v->kind == ConstKind::wide_character) {
          key = v->character;
          shown = "character " + std::to_string(v->character);
        } else if (v->kind == ConstKind::enumerator) {
          key = v->enumerator->value;
          shown = v->enumerator->name;
        }
        auto [it, inserted] = seen.emplace(key, label.location);
        if (!inserted) {
          error(label.expr->location, "duplicate case label " + shown + " in union '" + u.name + "'");
          note(it->second, "the same label is first used here");
        }
      }
      current_in_main_ = c.member->in_main_file;
      check_type(*c.member->type, &u, TypeUse{false, true});
      declare_member(*c.member, &u, used);
    }
    if (first_default != nullptr) {
      std::size_t all = 0;
      if (target.category == Category::boolean) all = 2;
      if (target.category == Category::enumeration) all = target.enumeration->enumerators.size();
      if (all != 0 && seen.size() >= all)
        error(first_default->location, "union '" + u.name +
                                           "' has a default label, but its cases already cover "
                                           "every value of the discriminator");
    }
    leave_scope(&u);
    being_defined_.erase(&u);
  }

  void check_constant(Constant& c, Declaration* scope) {
    const bool type_ok = check_type(*c.type, scope, TypeUse{});
    declare(c, scope);
    if (!type_ok) return;
    Target target = target_of(*c.type);
    if (target.category == Category::invalid) {
      error(c.type->location,
            "a constant cannot have type '" +
                (c.type->kind == TypeKind::named ? c.type->name.text() : std::string(basic_type_name(c.type->basic))) +
                "'");
      return;
    }
    std::optional<Value> v = constant_value(c.expr.get(), scope, target);
    if (v) c.value = to_const(*v);
  }

  bool check_exception(const ScopedName& name, Declaration* scope, Exception** out = nullptr) {
    Declaration* d = lookup(name, scope);
    if (d == nullptr) return false;
    if (d->kind != DeclKind::exception) {
      error(name.location, "'" + name.text() + "' is not an exception");
      return false;
    }
    if (out != nullptr) *out = static_cast<Exception*>(d);
    return true;
  }

  void check_parameters(std::vector<std::unique_ptr<Parameter>>& parameters, Declaration* scope) {
    std::map<std::string, const Parameter*> names;
    for (auto& p : parameters) {
      check_type(*p->type, scope, TypeUse{});
      auto [it, inserted] = names.emplace(lower(p->name), p.get());
      if (!inserted) {
        if (it->second->name != p->name)
          error(p->location, "parameter '" + p->name + "' clashes with '" + it->second->name +
                                 "' (IDL names that differ only in case are the same name)");
        else error(p->location, "parameter '" + p->name + "' is declared twice");
      }
    }
  }

  void check_operation(Operation& op, Declaration* scope) {
    if (declare(op, scope)) check_inherited_clash(op);
    check_type(*op.return_type, scope, TypeUse{});
    check_parameters(op.parameters, scope);
    for (const ScopedName& name : op.raises_names) {
      Exception* e = nullptr;
      if (check_exception(name, scope, &e)) op.raises.push_back(e);
    }
    if (op.oneway) {
      const bool is_void = op.return_type->kind == TypeKind::basic && op.return_type->basic == BasicType::void_;
      if (!is_void) error(op.return_type->location, "oneway operation '" + op.name + "' must return void");
      for (auto& p : op.parameters)
        if (p->direction != ParameterDirection::in) {
          error(p->location, "oneway operation '" + op.name + "' can have only 'in' parameters");
          break;
        }
      if (!op.raises_names.empty())
        error(op.raises_names.front().location, "oneway operation '" + op.name + "' cannot raise user exceptions");
    }
    for (const std::string& context : op.contexts) {
      bool ok = !context.empty() && std::isalpha(static_cast<unsigned char>(context[0]));
      for (std::size_t k = 0; ok && k < context.size(); ++k) {
        const char ch = context[k];
        ok = std::isalnum(static_cast<unsigned char>(ch)) || ch == '.' || ch == '_' ||
             (ch == '*' && k + 1 == context.size());
      }
      if (!ok) error(op.location, "'" + context + "' is not a valid context name");
    }
  }

  void check_attribute(Attribute& a, Declaration* scope) {
    if (declare(a, scope)) check_inherited_clash(a);
    check_type(*a.type, scope, TypeUse{});
    for (const ScopedName& name : a.get_raises_names) {
      Exception* e = nullptr;
      if (check_exception(name, scope, &e)) a.get_raises.push_back(e);
    }
    for (const ScopedName& name : a.set_raises_names) {
      Exception* e = nullptr;
      if (check_exception(name, scope, &e)) a.set_raises.push_back(e);
    }
  }

  Diagnostics& diagnostics_;
  CheckOptions options_;
  Declaration* root_ = nullptr;
  std::unordered_map<const Declaration*, std::unordered_map<std::string, Declaration*>> scopes_;
  std::unordered_map<const Declaration*, std::vector<Declaration*>> value_bases_;
  std::unordered_map<const Declaration*, std::string> type_prefixes_;
  std::vector<PrefixFrame> prefixes_;
  std::set<const Declaration*> being_defined_;
  std::set<const Declaration*> versioned_;
  std::map<std::string, std::pair<Declaration*, const Interface*>> inherited_;
  bool current_in_main_ = false;
  bool inside_value_ = false;
};

}  // namespace

bool check(Specification& specification, Diagnostics& diagnostics, CheckOptions options) {
  const std::size_t errors_before = diagnostics.error_count();
  Checker checker(diagnostics, options);
  checker.run(specification);
  return diagnostics.error_count() == errors_before;
}

}  // namespace switchyard::idl
