#include "idl_compiler/cxx_fixed_runs.h"

#include <algorithm>

#include "idl_compiler/cxx_emitter.h"

namespace switchyard::idl::cxx {

namespace {

std::size_t round_up(std::size_t n, std::size_t alignment) { return (n + alignment - 1) / alignment * alignment; }

std::string num(std::size_t n) { return std::to_string(n); }

// The C++ layout the generated types get with natural alignment (each primitive aligned to its
// size, as on x86-64 and AArch64): per leaf (in fixed_layout's order) its offset, and the whole
// size and alignment. The generated code checks it with offsetof and sizeof (`conditions`).
struct NativeShape {
  std::vector<std::size_t> offsets;
  std::size_t size = 0;
  std::size_t alignment = 1;
};

struct ShapeWalk {
  std::vector<std::string> conditions;
  std::vector<const Struct*> seen;
  bool boolean_seen = false;

  bool shape(const TypeSpec& type, NativeShape& out, int depth) {
    if (depth > 16) return false;
    const TypeSpec& t = unalias(type);
    switch (t.kind) {
      case TypeKind::basic: {
        std::size_t size = 0;
        switch (t.basic) {
          case BasicType::boolean:
            boolean_seen = true;
            size = 1;
            break;
          case BasicType::octet:
          case BasicType::char_:
            size = 1;
            break;
          case BasicType::short_:
          case BasicType::unsigned_short:
            size = 2;
            break;
          case BasicType::long_:
          case BasicType::unsigned_long:
          case BasicType::float_:
            size = 4;
            break;
          case BasicType::long_long:
          case BasicType::unsigned_long_long:
          case BasicType::double_:
            size = 8;
            break;
          default:
            return false;
        }
        out = {{0}, size, size};
        return true;
      }
      case TypeKind::array: {
        NativeShape element;
        if (!shape(*t.element, element, depth + 1)) return false;
        std::size_t total = 1;
        for (auto d : t.dimensions) total *= d;
        out = {{}, total * element.size, element.alignment};
        for (std::size_t k = 0; k < total; ++k)
          for (std::size_t o : element.offsets) out.offsets.push_back(k * element.size + o);
        return true;
      }
      case TypeKind::named: {
        const Declaration* d = target_of(t);
        if (d == nullptr) return false;
        if (d->kind == DeclKind::enum_) {  // enum class : std::uint32_t
          out = {{0}, 4, 4};
          return true;
        }
        if (d->kind != DeclKind::struct_) return false;
        const auto& s = *static_cast<const Struct*>(d);
        const std::string q = qualified(s);
        const bool first_time = std::find(seen.begin(), seen.end(), &s) == seen.end();
        if (first_time) seen.push_back(&s);
        out = {};
        for (const auto& m : s.members) {
          NativeShape member;
          if (!shape(*m->type, member, depth + 1)) return false;
          const std::size_t offset = round_up(out.size, member.alignment);
          if (first_time) {
            conditions.push_back("offsetof(" + q + ", " + identifier(m->name) + ") == " + num(offset));
            if (unalias(*m->type).kind == TypeKind::array)  // std::array: no padding inside
              conditions.push_back("sizeof(" + q + "::" + identifier(m->name) + ") == " + num(member.size));
          }
          for (std::size_t o : member.offsets) out.offsets.push_back(offset + o);
          out.size = offset + member.size;
          out.alignment = std::max(out.alignment, member.alignment);
        }
        out.size = round_up(out.size, out.alignment);
        if (first_time) conditions.push_back("sizeof(" + q + ") == " + num(out.size));
        return true;
      }
      default:
        return false;
    }
  }
};

std::string padding_stores(const RunPlan& plan, const std::string& at, const std::string& indent) {
  std::string code;
  for (const auto& [offset, count] : plan.padding)
    code += indent + "std::memset(" + at + " + " + num(offset) + ", 0, " + num(count) + ");\n";
  return code;
}

std::string checks(const RunPlan& plan, const std::string& at, const std::string& indent) {
  std::string code;
  for (const auto& c : plan.checks) {
    if (c.enumerators == 0)
      code +=
          indent + "if (std::to_integer<std::uint8_t>(" + at + "[" + num(c.cdr) +
          "]) > 1) [[unlikely]] _in.throw_marshal(::switchyard::minor::bad_boolean, \"boolean neither 0 nor 1\");\n";
    else
      code += indent + "if (::switchyard::cdr::load<std::uint32_t>(" + at + " + " + num(c.cdr) +
              ", false) >= " + num(c.enumerators) +
              ") [[unlikely]] _in.throw_marshal(::switchyard::minor::bad_enum, \"enumerator out of range\");\n";
  }
  return code;
}

// The common head of write_run and read_run: aligned to the first leaf; the first element by
// itself unless it already starts at the steady phase; `_bytes` octets for the rest.
std::string head(const RunPlan& plan, const std::string& stream, const std::string& n, const std::string& k,
                 const std::string& first_element, const std::string& indent) {
  std::string code;
  const std::string align = plan.first_alignment > 1 ? stream + ".align(" + num(plan.first_alignment) + ");" : "";
  if (!align.empty()) code += indent + align + "\n";
  if (!plan.one_phase) {
    code += indent + "if ((" + stream + ".aligned_position() & " + num(plan.alignment - 1) + ") != " + num(plan.phase) +
            ") {\n";
    code += indented(first_element, indent + "  ");
    code += indent + "  " + k + " = 1;\n";
    if (!align.empty()) code += indent + "  if (" + n + " > 1) " + align + "\n";
    code += indent + "}\n";
  }
  code += indent + "if (" + k + " < " + n + ") {\n";
  code += indent + "  // Every element from here starts at " + num(plan.phase) + " mod " + num(plan.alignment) + ", " +
          num(plan.stride) + " octets after the one before" +
          (plan.tail != 0 ? " (the last without its " + num(plan.tail) + " octets of padding)" : "") + ".\n";
  code += indent + "  const std::size_t _bytes = (" + n + " - " + k + ") * " + num(plan.stride) +
          (plan.tail != 0 ? " - " + num(plan.tail) : "") + ";\n";
  return code;
}

}  // namespace

std::optional<RunPlan> run_plan(const TypeSpec& element) {
  const TypeSpec& e = unalias(element);
  if (e.kind != TypeKind::named) return std::nullopt;
  const Declaration* decl = target_of(e);
  if (decl == nullptr || decl->kind != DeclKind::struct_) return std::nullopt;
  const auto& s = *static_cast<const Struct*>(decl);
  const auto layout = fixed_layout(s);
  if (!layout) return std::nullopt;

  RunPlan plan;
  plan.type = qualified(s);
  plan.first_alignment = layout->first_alignment;
  plan.alignment = layout->alignment;
  plan.one_phase = layout->placements.size() == 1;
  // Where the next element starts after one that started at residue r: the same for every r,
  // since the first leaf of the largest alignment fixes the rest (checked, not assumed).
  auto next = [&](const Placement& p) { return round_up(p.residue + p.size, plan.first_alignment) % plan.alignment; };
  plan.phase = next(layout->placements.front());
  for (const Placement& p : layout->placements)
    if (next(p) != plan.phase) return std::nullopt;
  const Placement* at = nullptr;
  for (const Placement& p : layout->placements)
    if (p.residue == plan.phase) at = &p;
  if (at == nullptr) return std::nullopt;
  plan.stride = round_up(plan.phase + at->size, plan.first_alignment) - plan.phase;
  plan.tail = plan.stride - at->size;

  ShapeWalk walk;
  NativeShape native;
  if (!walk.shape(element, native, 0) || native.offsets.size() != layout->leaves.size()) return std::nullopt;

  std::size_t end = 0;
  for (std::size_t k = 0; k < layout->leaves.size(); ++k) {
    const Leaf& leaf = layout->leaves[k];
    const std::size_t cdr = at->offsets[k], cxx = native.offsets[k];
    if (cdr > end) plan.padding.emplace_back(end, cdr - end);
    end = cdr + leaf.size;
    if (!plan.copies.empty() && plan.copies.back().native + (cdr - plan.copies.back().cdr) == cxx)
      plan.copies.back().size = end - plan.copies.back().cdr;
    else plan.copies.push_back({cdr, cxx, leaf.size});
    if (leaf.basic == BasicType::boolean) plan.checks.push_back({cdr, 0});
    if (leaf.enumeration != nullptr) plan.checks.push_back({cdr, leaf.enumeration->enumerators.size()});
    RunPlan::Load load{cdr, leaf.path, "", 0, leaf.basic == BasicType::boolean, leaf.size};
    if (leaf.enumeration != nullptr) {
      load.type = qualified(*leaf.enumeration);
      load.enumerators = leaf.enumeration->enumerators.size();
    } else if (!load.boolean) {
      TypeSpec t;
      t.basic = leaf.basic;
      load.type = type_name(t);
    }
    plan.loads.push_back(std::move(load));
  }
  if (plan.stride > end) plan.padding.emplace_back(end, plan.stride - end);
  plan.one_block =
      plan.copies.size() == 1 && plan.copies[0].cdr == 0 && plan.copies[0].native == 0 && native.size == plan.stride;

  plan.condition = "std::is_trivially_copyable_v<" + plan.type + ">";
  if (walk.boolean_seen) plan.condition += " && sizeof(bool) == 1";
  for (const std::string& c : walk.conditions) plan.condition += " && " + c;
  return plan;
}

void write_run(std::string& code, const RunPlan& plan, const std::string& first, const std::string& n,
               const std::string& k, const std::string& first_element, const std::string& indent) {
  code += indent + "if constexpr (" + plan.condition + ") {\n";
  const std::string in = indent + "  ";
  code += in + "if (" + n + " != 0) {\n";
  code += head(plan, "_out", n, k, first_element, in + "  ");
  const std::string body = in + "    ";
  if (plan.tail != 0)  // the last element's trailing padding is zeroed too, in the buffer past the message
    code += body + "_out.ensure(_bytes + " + num(plan.tail) + ");\n";
  code += body + "std::byte* _p = _out.reserve_aligned(1, _bytes);\n";
  if (plan.one_block) {
    code += body + "std::memcpy(_p, static_cast<const void*>(" + first + " + " + k + "), _bytes);\n";
    if (!plan.padding.empty())
      code += body + "for (std::byte* _q = _p; _q < _p + _bytes; _q += " + num(plan.stride) + ") {\n" +
              padding_stores(plan, "_q", body + "  ") + body + "}\n";
  } else {
    code += body + "for (const " + plan.type + "* _e = " + first + " + " + k + "; _e != " + first + " + " + n +
            "; ++_e, _p += " + num(plan.stride) + ") {\n";
    code += body + "  const auto* _b = reinterpret_cast<const std::byte*>(_e);\n";
    for (const auto& c : plan.copies)
      code += body + "  std::memcpy(_p + " + num(c.cdr) + ", _b + " + num(c.native) + ", " + num(c.size) + ");\n";
    code += padding_stores(plan, "_p", body + "  ");
    code += body + "}\n";
  }
  code += body + k + " = " + n + ";\n";
  code += in + "  }\n" + in + "}\n" + indent + "}\n";
}

void read_run(std::string& code, const RunPlan& plan, const std::string& first, const std::string& n,
              const std::string& k, const std::string& first_element, const std::string& indent) {
  code += indent + "if constexpr (" + plan.condition + ") {\n";
  const std::string in = indent + "  ";
  code += in + "if (" + n + " != 0) {\n";
  code += head(plan, "_in", n, k, first_element, in + "  ");
  const std::string body = in + "    ";
  // Split between value chunks, the run is rejoined leaf by leaf with its layout.
  std::vector<LayoutLeaf> leaves;
  for (const auto& l : plan.loads) leaves.push_back({l.cdr, l.size, !l.path.empty() && l.path.back() == ']'});
  code += layout_declaration(leaves, plan.stride, body);
  if (plan.one_phase && plan.first_alignment == plan.alignment)
    code += body + "const std::byte* _p = _in.take_aligned(" + num(plan.alignment) + ", _bytes, _layout);\n";
  else code += body + "const std::byte* _p = _in.take_struct(_bytes, _layout);\n";
  code += body + "if (!_in.swapping()) {\n";
  const std::string copy = body + "  ";
  if (plan.one_block) {
    if (!plan.checks.empty())
      code += copy + "for (const std::byte* _q = _p; _q < _p + _bytes; _q += " + num(plan.stride) + ") {\n" +
              checks(plan, "_q", copy + "  ") + copy + "}\n";
    code += copy + "std::memcpy(static_cast<void*>(" + first + " + " + k + "), _p, _bytes);\n";
  } else {
    code += copy + "for (" + plan.type + "* _e = " + first + " + " + k + "; _e != " + first + " + " + n +
            "; ++_e, _p += " + num(plan.stride) + ") {\n";
    code += checks(plan, "_p", copy + "  ");
    code += copy + "  auto* _b = reinterpret_cast<std::byte*>(_e);\n";
    for (const auto& c : plan.copies)
      code += copy + "  std::memcpy(_b + " + num(c.native) + ", _p + " + num(c.cdr) + ", " + num(c.size) + ");\n";
    code += copy + "}\n";
  }
  // The other byte order: each leaf loaded and swapped, at the same offsets.
  code += body + "} else {\n";
  code += copy + "for (" + plan.type + "* _e = " + first + " + " + k + "; _e != " + first + " + " + n +
          "; ++_e, _p += " + num(plan.stride) + ") {\n";
  const std::string leaf_indent = copy + "  ";
  for (const auto& l : plan.loads) {
    const std::string at = "_p + " + num(l.cdr);
    if (l.boolean) {
      code += leaf_indent + "if (const std::uint8_t _o = std::to_integer<std::uint8_t>(_p[" + num(l.cdr) +
              "]); _o <= 1) (*_e)" + l.path + " = _o == 1;\n";
      code += leaf_indent + "else _in.throw_marshal(::switchyard::minor::bad_boolean, \"boolean neither 0 nor 1\");\n";
    } else if (l.enumerators != 0) {
      code += leaf_indent + "if (const std::uint32_t _o = ::switchyard::cdr::load<std::uint32_t>(" + at +
              ", true); _o < " + num(l.enumerators) + ") (*_e)" + l.path + " = static_cast<" + l.type + ">(_o);\n";
      code += leaf_indent + "else _in.throw_marshal(::switchyard::minor::bad_enum, \"enumerator out of range\");\n";
    } else {
      code += leaf_indent + "(*_e)" + l.path + " = ::switchyard::cdr::load<" + l.type + ">(" + at + ", true);\n";
    }
  }
  code += copy + "}\n";
  code += body + "}\n";
  code += body + k + " = " + n + ";\n";
  code += in + "  }\n" + in + "}\n" + indent + "}\n";
}

}  // namespace switchyard::idl::cxx
