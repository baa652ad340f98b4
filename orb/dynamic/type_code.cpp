#include "switchyard/type_code.h"

#include <array>
#include <set>
#include <utility>

#include "orb/dynamic/type_code_node.h"
#include "orb/dynamic/value_plan.h"

namespace switchyard {

namespace detail {

namespace {

[[noreturn]] void bad_typecode(std::string detail) {
  throw SystemException(SystemExceptionKind::BAD_TYPECODE, 0, CompletionStatus::no, std::move(detail));
}

// Kinds without parameters share one node each: building them never allocates.
const std::shared_ptr<const type_code_node>& basic_node(tc_kind kind) {
  static const std::array<std::shared_ptr<const type_code_node>, 29> nodes = [] {
    std::array<std::shared_ptr<const type_code_node>, 29> out;
    for (std::uint32_t k = 0; k < out.size(); ++k) {
      auto n = std::make_shared<type_code_node>();
      n->kind = static_cast<tc_kind>(k);
      out[k] = std::move(n);
    }
    return out;
  }();
  return nodes[static_cast<std::uint32_t>(kind)];
}

bool is_basic(tc_kind kind) {
  switch (kind) {
    case tc_kind::tk_null:
    case tc_kind::tk_void:
    case tc_kind::tk_short:
    case tc_kind::tk_long:
    case tc_kind::tk_ushort:
    case tc_kind::tk_ulong:
    case tc_kind::tk_float:
    case tc_kind::tk_double:
    case tc_kind::tk_boolean:
    case tc_kind::tk_char:
    case tc_kind::tk_octet:
    case tc_kind::tk_any:
    case tc_kind::tk_TypeCode:
    case tc_kind::tk_Principal:
    case tc_kind::tk_longlong:
    case tc_kind::tk_ulonglong:
    case tc_kind::tk_longdouble:
    case tc_kind::tk_wchar:
      return true;
    default:
      return false;
  }
}

// Binds the unbound placeholders for `id` below `node` to `owner`. Placeholders are leaves, so the
// walk never follows a cycle; `seen` keeps shared subtrees from being walked twice.
void bind_placeholders(const type_code_node& node, const std::string& id,
                       const std::shared_ptr<const type_code_node>& owner, std::set<const type_code_node*>& seen) {
  auto visit = [&](const type_code& child) {
    const auto& p = child.shared_node();
    if (!p) return;
    if (p->placeholder) {
      if (p->id == id && p->target.expired()) p->target = owner;
      return;
    }
    if (seen.insert(p.get()).second) bind_placeholders(*p, id, owner, seen);
  };
  for (const auto& m : node.member_types) visit(m);
  visit(node.content);
}

}  // namespace

type_code_node::~type_code_node() {
  release_plan(plan.load(std::memory_order_acquire));
  delete encoding.load(std::memory_order_acquire);
}

const type_code_node& resolve(const type_code_node& node) {
  if (!node.placeholder) return node;
  auto target = node.target.lock();
  if (!target) bad_typecode("recursive TypeCode reference to " + node.id + " is not bound to its enclosing type");
  // The target is owned by whoever holds the enclosing type, which outlives this call.
  return *target;
}

std::shared_ptr<const type_code_node> resolve_shared(const std::shared_ptr<const type_code_node>& node) {
  if (!node || !node->placeholder) return node;
  auto target = node->target.lock();
  if (!target) bad_typecode("recursive TypeCode reference to " + node->id + " is not bound to its enclosing type");
  return target;
}

}  // namespace detail

using detail::type_code_node;

std::string_view to_string(tc_kind kind) noexcept {
  static constexpr std::string_view names[] = {"tk_null",
                                               "tk_void",
                                               "tk_short",
                                               "tk_long",
                                               "tk_ushort",
                                               "tk_ulong",
                                               "tk_float",
                                               "tk_double",
                                               "tk_boolean",
                                               "tk_char",
                                               "tk_octet",
                                               "tk_any",
                                               "tk_TypeCode",
                                               "tk_Principal",
                                               "tk_objref",
                                               "tk_struct",
                                               "tk_union",
                                               "tk_enum",
                                               "tk_string",
                                               "tk_sequence",
                                               "tk_array",
                                               "tk_alias",
                                               "tk_except",
                                               "tk_longlong",
                                               "tk_ulonglong",
                                               "tk_longdouble",
                                               "tk_wchar",
                                               "tk_wstring",
                                               "tk_fixed",
                                               "tk_value",
                                               "tk_value_box",
                                               "tk_native",
                                               "tk_abstract_interface",
                                               "tk_local_interface",
                                               "tk_component",
                                               "tk_home",
                                               "tk_event"};
  auto k = static_cast<std::uint32_t>(kind);
  return k < std::size(names) ? names[k] : std::string_view("tk_<unknown>");
}

type_code::type_code() noexcept = default;
type_code::type_code(std::shared_ptr<const type_code_node> node) noexcept : node_(std::move(node)) {}

const type_code_node& type_code::node() const {
  static const type_code_node null_node;
  if (!node_) return null_node;
  return detail::resolve(*node_);
}

type_code type_code::basic(tc_kind kind) {
  if (!detail::is_basic(kind))
    throw SystemException(SystemExceptionKind::BAD_PARAM, 0, CompletionStatus::no,
                          std::string(to_string(kind)) + " needs parameters: not a basic TypeCode");
  return type_code(detail::basic_node(kind));
}

namespace {

std::shared_ptr<type_code_node> new_node(tc_kind kind) {
  auto n = std::make_shared<type_code_node>();
  n->kind = kind;
  return n;
}

void check_element(const type_code& element, const char* what) {
  tc_kind k = element.shared_node() && element.shared_node()->placeholder ? tc_kind::tk_struct : element.kind();
  if (k == tc_kind::tk_void || k == tc_kind::tk_except)
    throw SystemException(SystemExceptionKind::BAD_TYPECODE, 0, CompletionStatus::no,
                          std::string(what) + " of " + std::string(to_string(k)));
}

}  // namespace

type_code type_code::make_string(std::uint32_t bound) {
  if (bound == 0) {
    // The unbounded string is common (every string member): one shared node.
    static const std::shared_ptr<const type_code_node> unbounded = new_node(tc_kind::tk_string);
    return type_code(unbounded);
  }
  auto n = new_node(tc_kind::tk_string);
  n->length = bound;
  return type_code(std::move(n));
}

type_code type_code::make_wstring(std::uint32_t bound) {
  auto n = new_node(tc_kind::tk_wstring);
  n->length = bound;
  return type_code(std::move(n));
}

type_code type_code::make_fixed(std::uint16_t digits, std::int16_t scale) {
  if (digits == 0 || digits > 31 || scale > static_cast<std::int16_t>(digits) || scale < 0)
    throw SystemException(SystemExceptionKind::BAD_TYPECODE, 0, CompletionStatus::no,
                          "fixed<" + std::to_string(digits) + "," + std::to_string(scale) + "> is not valid");
  auto n = new_node(tc_kind::tk_fixed);
  n->digits = digits;
  n->scale = scale;
  return type_code(std::move(n));
}

type_code type_code::make_sequence(const type_code& element, std::uint32_t bound) {
  check_element(element, "sequence");
  auto n = new_node(tc_kind::tk_sequence);
  n->content = element;
  n->length = bound;
  return type_code(std::move(n));
}

type_code type_code::make_array(const type_code& element, std::uint32_t length) {
  check_element(element, "array");
  if (length == 0)
    throw SystemException(SystemExceptionKind::BAD_TYPECODE, 0, CompletionStatus::no, "array of length 0");
  auto n = new_node(tc_kind::tk_array);
  n->content = element;
  n->length = length;
  return type_code(std::move(n));
}

type_code type_code::make_alias(std::string id, std::string name, const type_code& original) {
  auto n = new_node(tc_kind::tk_alias);
  n->id = std::move(id);
  n->name = std::move(name);
  n->content = original;
  return type_code(std::move(n));
}

type_code type_code::make_objref(std::string id, std::string name) {
  auto n = new_node(tc_kind::tk_objref);
  n->id = std::move(id);
  n->name = std::move(name);
  return type_code(std::move(n));
}

type_code type_code::make_abstract_interface(std::string id, std::string name) {
  auto n = new_node(tc_kind::tk_abstract_interface);
  n->id = std::move(id);
  n->name = std::move(name);
  return type_code(std::move(n));
}

type_code type_code::make_enum(std::string id, std::string name, std::vector<std::string> enumerators) {
  if (enumerators.empty())
    throw SystemException(SystemExceptionKind::BAD_TYPECODE, 0, CompletionStatus::no, "enum without enumerators");
  auto n = new_node(tc_kind::tk_enum);
  n->id = std::move(id);
  n->name = std::move(name);
  n->member_names = std::move(enumerators);
  return type_code(std::move(n));
}

namespace {

type_code make_members(tc_kind kind, std::string id, std::string name, std::vector<type_code_member> members) {
  auto n = new_node(kind);
  n->id = std::move(id);
  n->name = std::move(name);
  for (auto& m : members) {
    if (kind == tc_kind::tk_struct) check_element(m.type, "struct member");
    n->member_names.push_back(std::move(m.name));
    n->member_types.push_back(std::move(m.type));
  }
  std::shared_ptr<const type_code_node> shared = std::move(n);
  std::set<const type_code_node*> seen;
  if (!shared->id.empty()) detail::bind_placeholders(*shared, shared->id, shared, seen);
  return type_code(std::move(shared));
}

bool valid_discriminator(tc_kind k) {
  switch (k) {
    case tc_kind::tk_short:
    case tc_kind::tk_long:
    case tc_kind::tk_ushort:
    case tc_kind::tk_ulong:
    case tc_kind::tk_longlong:
    case tc_kind::tk_ulonglong:
    case tc_kind::tk_boolean:
    case tc_kind::tk_char:
    case tc_kind::tk_wchar:
    case tc_kind::tk_enum:
    case tc_kind::tk_octet:
      return true;
    default:
      return false;
  }
}

}  // namespace

type_code type_code::make_struct(std::string id, std::string name, std::vector<type_code_member> members) {
  if (members.empty())
    throw SystemException(SystemExceptionKind::BAD_TYPECODE, 0, CompletionStatus::no, "struct without members");
  return make_members(tc_kind::tk_struct, std::move(id), std::move(name), std::move(members));
}

type_code type_code::make_exception(std::string id, std::string name, std::vector<type_code_member> members) {
  return make_members(tc_kind::tk_except, std::move(id), std::move(name), std::move(members));
}

type_code type_code::make_union(std::string id, std::string name, const type_code& discriminator,
                                std::int32_t default_index, std::vector<type_code_union_member> members) {
  if (!valid_discriminator(discriminator.unaliased().kind()))
    throw SystemException(SystemExceptionKind::BAD_TYPECODE, 0, CompletionStatus::no,
                          "union discriminator of " + std::string(to_string(discriminator.unaliased().kind())));
  if (default_index < -1 || (default_index >= 0 && static_cast<std::size_t>(default_index) >= members.size()))
    throw SystemException(SystemExceptionKind::BAD_TYPECODE, 0, CompletionStatus::no,
                          "union default index " + std::to_string(default_index) + " out of range");
  auto n = new_node(tc_kind::tk_union);
  n->id = std::move(id);
  n->name = std::move(name);
  n->content = discriminator;
  n->default_index = default_index;
  for (std::size_t k = 0; k < members.size(); ++k) {
    auto& m = members[k];
    check_element(m.type, "union member");
    n->member_labels.push_back(static_cast<std::int32_t>(k) == default_index ? 0 : m.label);
    n->member_names.push_back(std::move(m.name));
    n->member_types.push_back(std::move(m.type));
  }
  std::shared_ptr<const type_code_node> shared = std::move(n);
  std::set<const type_code_node*> seen;
  if (!shared->id.empty()) detail::bind_placeholders(*shared, shared->id, shared, seen);
  return type_code(std::move(shared));
}

type_code type_code::make_value(std::string id, std::string name, value_modifier modifier,
                                const type_code& concrete_base, std::vector<type_code_value_member> members) {
  const tc_kind base = concrete_base.shared_node() && concrete_base.shared_node()->placeholder
                           ? tc_kind::tk_value
                           : concrete_base.unaliased().kind();
  if (base != tc_kind::tk_null && base != tc_kind::tk_value)
    throw SystemException(SystemExceptionKind::BAD_TYPECODE, 0, CompletionStatus::no,
                          "concrete base of " + std::string(to_string(base)));
  auto n = new_node(tc_kind::tk_value);
  n->id = std::move(id);
  n->name = std::move(name);
  n->modifier = static_cast<std::int16_t>(modifier);
  n->content = concrete_base;
  for (auto& m : members) {
    check_element(m.type, "value member");
    if (m.visibility != 0 && m.visibility != 1)
      throw SystemException(SystemExceptionKind::BAD_TYPECODE, 0, CompletionStatus::no,
                            "value member visibility " + std::to_string(m.visibility));
    n->member_names.push_back(std::move(m.name));
    n->member_types.push_back(std::move(m.type));
    n->visibilities.push_back(m.visibility);
  }
  std::shared_ptr<const type_code_node> shared = std::move(n);
  std::set<const type_code_node*> seen;
  if (!shared->id.empty()) detail::bind_placeholders(*shared, shared->id, shared, seen);
  return type_code(std::move(shared));
}

type_code type_code::make_value_box(std::string id, std::string name, const type_code& boxed) {
  check_element(boxed, "value box");
  const tc_kind k = boxed.shared_node() && boxed.shared_node()->placeholder ? tc_kind::tk_struct : boxed.kind();
  if (k == tc_kind::tk_value || k == tc_kind::tk_value_box || k == tc_kind::tk_null)
    throw SystemException(SystemExceptionKind::BAD_TYPECODE, 0, CompletionStatus::no,
                          "value box of " + std::string(to_string(k)));
  auto n = new_node(tc_kind::tk_value_box);
  n->id = std::move(id);
  n->name = std::move(name);
  n->content = boxed;
  return type_code(std::move(n));
}

type_code type_code::make_recursive(std::string id) {
  auto n = new_node(tc_kind::tk_null);
  n->placeholder = true;
  n->id = std::move(id);
  return type_code(std::move(n));
}

// --- access

namespace {

[[noreturn]] void bad_kind(tc_kind kind, const char* what) {
  throw SystemException(SystemExceptionKind::BAD_TYPECODE, 0, CompletionStatus::no,
                        std::string(to_string(kind)) + " has no " + what);
}

bool has_id(tc_kind k) {
  return k == tc_kind::tk_objref || k == tc_kind::tk_struct || k == tc_kind::tk_union || k == tc_kind::tk_enum ||
         k == tc_kind::tk_alias || k == tc_kind::tk_except || k == tc_kind::tk_value || k == tc_kind::tk_value_box ||
         k == tc_kind::tk_abstract_interface;
}

bool has_members(tc_kind k) {
  return k == tc_kind::tk_struct || k == tc_kind::tk_union || k == tc_kind::tk_enum || k == tc_kind::tk_except ||
         k == tc_kind::tk_value;
}

void check_index(const type_code_node& n, std::uint32_t index) {
  if (index >= n.member_names.size())
    throw SystemException(SystemExceptionKind::BAD_PARAM, 0, CompletionStatus::no,
                          "member " + std::to_string(index) + " of " + std::to_string(n.member_names.size()));
}

}  // namespace

tc_kind type_code::kind() const { return node().kind; }

const std::string& type_code::id() const {
  const auto& n = node();
  if (!has_id(n.kind)) bad_kind(n.kind, "repository id");
  return n.id;
}

const std::string& type_code::name() const {
  const auto& n = node();
  if (!has_id(n.kind)) bad_kind(n.kind, "name");
  return n.name;
}

std::uint32_t type_code::member_count() const {
  const auto& n = node();
  if (!has_members(n.kind)) bad_kind(n.kind, "members");
  return static_cast<std::uint32_t>(n.member_names.size());
}

const std::string& type_code::member_name(std::uint32_t index) const {
  const auto& n = node();
  if (!has_members(n.kind)) bad_kind(n.kind, "members");
  check_index(n, index);
  return n.member_names[index];
}

// A child handle shares ownership with this handle (aliasing): a member reached from an enclosing
// recursive type keeps that type, and so its placeholders' targets, alive.
static type_code child_of(const std::shared_ptr<const type_code_node>& owner, const type_code& child) {
  auto resolved = detail::resolve_shared(child.shared_node());
  if (!resolved || !owner) return type_code(std::move(resolved));
  return type_code(std::shared_ptr<const type_code_node>(owner, resolved.get()));
}

type_code type_code::member_type(std::uint32_t index) const {
  const auto& n = node();
  if (n.kind != tc_kind::tk_struct && n.kind != tc_kind::tk_union && n.kind != tc_kind::tk_except &&
      n.kind != tc_kind::tk_value)
    bad_kind(n.kind, "member types");
  check_index(n, index);
  return child_of(node_, n.member_types[index]);
}

std::int16_t type_code::member_visibility(std::uint32_t index) const {
  const auto& n = node();
  if (n.kind != tc_kind::tk_value) bad_kind(n.kind, "member visibility");
  check_index(n, index);
  return n.visibilities[index];
}

value_modifier type_code::type_modifier() const {
  const auto& n = node();
  if (n.kind != tc_kind::tk_value) bad_kind(n.kind, "type modifier");
  return static_cast<value_modifier>(n.modifier);
}

type_code type_code::concrete_base_type() const {
  const auto& n = node();
  if (n.kind != tc_kind::tk_value) bad_kind(n.kind, "concrete base");
  return child_of(node_, n.content);
}

std::int64_t type_code::member_label(std::uint32_t index) const {
  const auto& n = node();
  if (n.kind != tc_kind::tk_union) bad_kind(n.kind, "labels");
  check_index(n, index);
  return n.member_labels[index];
}

type_code type_code::discriminator_type() const {
  const auto& n = node();
  if (n.kind != tc_kind::tk_union) bad_kind(n.kind, "discriminator");
  return child_of(node_, n.content);
}

std::int32_t type_code::default_index() const {
  const auto& n = node();
  if (n.kind != tc_kind::tk_union) bad_kind(n.kind, "default index");
  return n.default_index;
}

std::uint32_t type_code::length() const {
  const auto& n = node();
  if (n.kind != tc_kind::tk_string && n.kind != tc_kind::tk_wstring && n.kind != tc_kind::tk_sequence &&
      n.kind != tc_kind::tk_array)
    bad_kind(n.kind, "length");
  return n.length;
}

type_code type_code::content_type() const {
  const auto& n = node();
  if (n.kind != tc_kind::tk_sequence && n.kind != tc_kind::tk_array && n.kind != tc_kind::tk_alias &&
      n.kind != tc_kind::tk_value_box)
    bad_kind(n.kind, "content type");
  return child_of(node_, n.content);
}

std::uint16_t type_code::fixed_digits() const {
  const auto& n = node();
  if (n.kind != tc_kind::tk_fixed) bad_kind(n.kind, "digits");
  return n.digits;
}

std::int16_t type_code::fixed_scale() const {
  const auto& n = node();
  if (n.kind != tc_kind::tk_fixed) bad_kind(n.kind, "scale");
  return n.scale;
}

type_code type_code::unaliased() const {
  type_code t = *this;
  // Alias chains cannot be cyclic (an alias is never a placeholder's target); bounded anyway.
  for (int guard = 0; guard < 1000 && t.kind() == tc_kind::tk_alias; ++guard) t = t.content_type();
  return t;
}

// --- comparison

namespace {

// Placeholders are compared by what they name: the walk never follows a recursion.
bool compare(const type_code& a, const type_code& b, bool equivalence, int depth) {
  if (depth > 2 * max_type_code_depth) return false;
  const auto& pa = a.shared_node();
  const auto& pb = b.shared_node();
  if (pa == pb) return true;
  if ((pa && pa->placeholder) || (pb && pb->placeholder)) {
    const type_code_node& ra = a.node();
    const type_code_node& rb = b.node();
    return ra.kind == rb.kind && ra.id == rb.id && (equivalence || ra.name == rb.name);
  }
  const type_code x = equivalence ? a.unaliased() : a;
  const type_code y = equivalence ? b.unaliased() : b;
  const type_code_node& n = x.node();
  const type_code_node& m = y.node();
  if (&n == &m) return true;
  if (n.kind != m.kind) return false;
  if (equivalence) {
    if (has_id(n.kind) && !n.id.empty() && !m.id.empty()) return n.id == m.id;
  } else {
    if (n.id != m.id || n.name != m.name || n.member_names != m.member_names) return false;
  }
  if (n.length != m.length || n.digits != m.digits || n.scale != m.scale || n.default_index != m.default_index ||
      n.member_labels != m.member_labels || n.member_types.size() != m.member_types.size() ||
      n.member_names.size() != m.member_names.size() || n.visibilities != m.visibilities || n.modifier != m.modifier)
    return false;
  if (n.kind == tc_kind::tk_sequence || n.kind == tc_kind::tk_array || n.kind == tc_kind::tk_alias ||
      n.kind == tc_kind::tk_union || n.kind == tc_kind::tk_value || n.kind == tc_kind::tk_value_box)
    if (!compare(n.content, m.content, equivalence, depth + 1)) return false;
  for (std::size_t k = 0; k < n.member_types.size(); ++k)
    if (!compare(n.member_types[k], m.member_types[k], equivalence, depth + 1)) return false;
  return true;
}

}  // namespace

bool type_code::equal(const type_code& other) const { return compare(*this, other, false, 0); }
bool type_code::equivalent(const type_code& other) const { return compare(*this, other, true, 0); }

}  // namespace switchyard
