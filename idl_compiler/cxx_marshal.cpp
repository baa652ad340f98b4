#include "idl_compiler/cxx_marshal.h"

#include "idl_compiler/cxx_emitter.h"
#include "idl_compiler/cxx_fixed_runs.h"

namespace switchyard::idl::cxx {

namespace {

const char* write_method(BasicType b) {
  switch (b) {
    case BasicType::short_:
      return "write_short";
    case BasicType::long_:
      return "write_long";
    case BasicType::long_long:
      return "write_longlong";
    case BasicType::unsigned_short:
      return "write_ushort";
    case BasicType::unsigned_long:
      return "write_ulong";
    case BasicType::unsigned_long_long:
      return "write_ulonglong";
    case BasicType::float_:
      return "write_float";
    case BasicType::double_:
      return "write_double";
    case BasicType::long_double:
      return "write_longdouble";
    case BasicType::char_:
      return "write_char";
    case BasicType::wchar:
      return "write_wchar";
    case BasicType::boolean:
      return "write_boolean";
    case BasicType::octet:
      return "write_octet";
    default:
      return nullptr;
  }
}

const char* read_method(BasicType b) {
  switch (b) {
    case BasicType::short_:
      return "read_short";
    case BasicType::long_:
      return "read_long";
    case BasicType::long_long:
      return "read_longlong";
    case BasicType::unsigned_short:
      return "read_ushort";
    case BasicType::unsigned_long:
      return "read_ulong";
    case BasicType::unsigned_long_long:
      return "read_ulonglong";
    case BasicType::float_:
      return "read_float";
    case BasicType::double_:
      return "read_double";
    case BasicType::long_double:
      return "read_longdouble";
    case BasicType::char_:
      return "read_char";
    case BasicType::wchar:
      return "read_wchar";
    case BasicType::boolean:
      return "read_boolean";
    case BasicType::octet:
      return "read_octet";
    default:
      return nullptr;
  }
}

std::string bad_param(const std::string& what) {
  return "throw ::switchyard::SystemException(::switchyard::SystemExceptionKind::BAD_PARAM, 0, "
         "::switchyard::CompletionStatus::no, \"" +
         what + "\");";
}

std::string marshal_error(const std::string& minor, const std::string& what) {
  return "_in.throw_marshal(::switchyard::minor::" + minor + ", \"" + what + "\");";
}

std::string d(int depth) { return std::to_string(depth); }

// Statements that write or read the elements of a sequence or array of a fixed-size struct:
// `first` its data(), `count` its size, `plan` the struct's (cxx_fixed_runs.h). The elements go
// as a run; what the run does not take (all of them where the C++ layout is not the one the run
// assumes) goes element by element.
void write_elements(std::string& code, const RunPlan& plan, const TypeSpec& element, const std::string& first,
                    const std::string& count, const std::string& indent, int depth) {
  const std::string s = "_s" + d(depth), n = "_n" + d(depth), k = "_k" + d(depth);
  code += indent + "{\n";
  const std::string in = indent + "  ";
  code += in + "const auto* " + s + " = " + first + ";\n";
  code += in + "const std::size_t " + n + " = " + count + ";\n";
  code += in + "std::size_t " + k + " = 0;\n";
  std::string first_element;
  write_value(first_element, element, s + "[0]", "", depth + 1);
  write_run(code, plan, s, n, k, first_element, in);
  code += in + "for (; " + k + " < " + n + "; ++" + k + ") {\n";
  write_value(code, element, s + "[" + k + "]", in + "  ", depth + 1);
  code += in + "}\n" + indent + "}\n";
}

void read_elements(std::string& code, const RunPlan& plan, const TypeSpec& element, const std::string& first,
                   const std::string& count, const std::string& indent, int depth) {
  const std::string s = "_s" + d(depth), n = "_c" + d(depth), k = "_k" + d(depth);
  code += indent + "{\n";
  const std::string in = indent + "  ";
  code += in + "auto* " + s + " = " + first + ";\n";
  code += in + "const std::size_t " + n + " = " + count + ";\n";
  code += in + "std::size_t " + k + " = 0;\n";
  std::string first_element;
  read_value(first_element, element, s + "[0]", "", depth + 1);
  read_run(code, plan, s, n, k, first_element, in);
  code += in + "for (; " + k + " < " + n + "; ++" + k + ") {\n";
  read_value(code, element, s + "[" + k + "]", in + "  ", depth + 1);
  code += in + "}\n" + indent + "}\n";
}

void write_array_dims(std::string& code, const TypeSpec& array, std::size_t dim, const std::string& expr,
                      const std::string& indent, int depth) {
  std::size_t n = array.dimensions[dim];
  const bool last = dim + 1 == array.dimensions.size();
  const TypeSpec& e = unalias(*array.element);
  if (last && e.kind == TypeKind::basic && is_bulk_primitive(e.basic)) {
    code += indent + "_out.write_array(" + expr + ".data(), " + std::to_string(n) + ");\n";
    return;
  }
  if (last)
    if (auto plan = run_plan(*array.element)) {
      write_elements(code, *plan, *array.element, expr + ".data()", std::to_string(n), indent, depth);
      return;
    }
  const std::string i = "_i" + d(depth);
  code += indent + "for (std::size_t " + i + " = 0; " + i + " < " + std::to_string(n) + "; ++" + i + ") {\n";
  if (last) write_value(code, *array.element, expr + "[" + i + "]", indent + "  ", depth + 1);
  else write_array_dims(code, array, dim + 1, expr + "[" + i + "]", indent + "  ", depth + 1);
  code += indent + "}\n";
}

void read_array_dims(std::string& code, const TypeSpec& array, std::size_t dim, const std::string& target,
                     const std::string& indent, int depth) {
  std::size_t n = array.dimensions[dim];
  const bool last = dim + 1 == array.dimensions.size();
  const TypeSpec& e = unalias(*array.element);
  if (last && e.kind == TypeKind::basic && is_bulk_primitive(e.basic)) {
    code += indent + "_in.read_array(" + target + ".data(), " + std::to_string(n) + ");\n";
    return;
  }
  if (last)
    if (auto plan = run_plan(*array.element)) {
      read_elements(code, *plan, *array.element, target + ".data()", std::to_string(n), indent, depth);
      return;
    }
  const std::string i = "_i" + d(depth);
  code += indent + "for (std::size_t " + i + " = 0; " + i + " < " + std::to_string(n) + "; ++" + i + ") {\n";
  if (last) read_value(code, *array.element, target + "[" + i + "]", indent + "  ", depth + 1);
  else read_array_dims(code, array, dim + 1, target + "[" + i + "]", indent + "  ", depth + 1);
  code += indent + "}\n";
}

std::string store_value(const Leaf& leaf, const std::string& object) {
  if (leaf.basic == BasicType::boolean) return "static_cast<std::uint8_t>(" + object + leaf.path + ")";
  if (leaf.enumeration != nullptr) return "static_cast<std::uint32_t>(" + object + leaf.path + ")";
  return object + leaf.path;
}

void fixed_write(std::string& code, const FixedLayout& layout, const std::string& indent) {
  auto stores = [&](const Placement& p, const std::string& in) {
    std::size_t end = 0;
    for (std::size_t k = 0; k < layout.leaves.size(); ++k) {
      if (p.offsets[k] > end)
        code += in + "std::memset(_p + " + std::to_string(end) + ", 0, " + std::to_string(p.offsets[k] - end) + ");\n";
      code += in + "::switchyard::cdr::store(_p + " + std::to_string(p.offsets[k]) + ", " +
              store_value(layout.leaves[k], "_v") + ");\n";
      end = p.offsets[k] + layout.leaves[k].size;
    }
  };
  if (layout.placements.size() == 1) {
    const Placement& p = layout.placements.front();
    code += indent + "std::byte* _p = _out.reserve_aligned(" + std::to_string(layout.alignment) + ", " +
            std::to_string(p.size) + ");\n";
    stores(p, indent);
    return;
  }
  code += indent + "_out.align(" + std::to_string(layout.first_alignment) + ");\n";
  code += indent + "switch (_out.aligned_position() & " + std::to_string(layout.alignment - 1) + ") {\n";
  for (std::size_t k = 0; k < layout.placements.size(); ++k) {
    const Placement& p = layout.placements[k];
    code += indent +
            (k + 1 == layout.placements.size() ? "  default: {\n" : "  case " + std::to_string(p.residue) + ": {\n");
    code += indent + "    std::byte* _p = _out.reserve_aligned(1, " + std::to_string(p.size) + ");\n";
    stores(p, indent + "    ");
    code += indent + "    return;\n" + indent + "  }\n";
  }
  code += indent + "}\n";
}

void fixed_read(std::string& code, const FixedLayout& layout, const std::string& indent) {
  auto loads = [&](const Placement& p, const std::string& in) {
    for (std::size_t k = 0; k < layout.leaves.size(); ++k) {
      const Leaf& leaf = layout.leaves[k];
      const std::string at = "_p + " + std::to_string(p.offsets[k]);
      if (leaf.basic == BasicType::boolean) {
        code += in + "if (std::uint8_t _b = *reinterpret_cast<const std::uint8_t*>(" + at + "); _b <= 1) _v" +
                leaf.path + " = _b == 1;\n" + in + "else " + marshal_error("bad_boolean", "boolean neither 0 nor 1") +
                "\n";
      } else if (leaf.enumeration != nullptr) {
        code += in + "if (std::uint32_t _e = ::switchyard::cdr::load<std::uint32_t>(" + at + ", _swap); _e < " +
                std::to_string(leaf.enumeration->enumerators.size()) + ") _v" + leaf.path + " = static_cast<" +
                qualified(*leaf.enumeration) + ">(_e);\n" + in + "else " +
                marshal_error("bad_enum", "enumerator out of range") + "\n";
      } else {
        TypeSpec t;
        t.basic = leaf.basic;
        code += in + "_v" + leaf.path + " = ::switchyard::cdr::load<" + type_name(t) + ">(" + at + ", _swap);\n";
      }
    }
  };
  // Where each leaf lies at a placement: only a read split between value chunks needs it.
  auto leaves = [&](const Placement& p) {
    std::vector<LayoutLeaf> list;
    for (std::size_t k = 0; k < layout.leaves.size(); ++k)
      list.push_back(
          {p.offsets[k], layout.leaves[k].size, !layout.leaves[k].path.empty() && layout.leaves[k].path.back() == ']'});
    return list;
  };
  code += indent + "[[maybe_unused]] const bool _swap = _in.swapping();\n";
  if (layout.placements.size() == 1) {
    const Placement& p = layout.placements.front();
    code += layout_declaration(leaves(p), p.size, indent);
    code += indent + "const std::byte* _p = _in.take_aligned(" + std::to_string(layout.alignment) + ", " +
            std::to_string(p.size) + ", _layout);\n";
    loads(p, indent);
    return;
  }
  code += indent + "_in.align(" + std::to_string(layout.first_alignment) + ");\n";
  code += indent + "switch (_in.aligned_position() & " + std::to_string(layout.alignment - 1) + ") {\n";
  for (std::size_t k = 0; k < layout.placements.size(); ++k) {
    const Placement& p = layout.placements[k];
    code += indent +
            (k + 1 == layout.placements.size() ? "  default: {\n" : "  case " + std::to_string(p.residue) + ": {\n");
    code += layout_declaration(leaves(p), p.size, indent + "    ");
    code += indent + "    const std::byte* _p = _in.take_struct(" + std::to_string(p.size) + ", _layout);\n";
    loads(p, indent + "    ");
    code += indent + "    return;\n" + indent + "  }\n";
  }
  code += indent + "}\n";
}

}  // namespace

void write_value(std::string& code, const TypeSpec& type, const std::string& expr, const std::string& indent,
                 int depth) {
  const TypeSpec& t = unalias(type);
  switch (t.kind) {
    case TypeKind::basic:
      if (t.basic == BasicType::any) code += indent + "::switchyard::write_any(_out, " + expr + ");\n";
      else if (t.basic == BasicType::type_code) code += indent + "::switchyard::write_type_code(_out, " + expr + ");\n";
      else if (t.basic == BasicType::object) code += indent + "::switchyard::write_object(_out, " + expr + ");\n";
      else if (t.basic == BasicType::value_base) code += indent + "::switchyard::write_value(_out, " + expr + ");\n";
      else if (const char* m = write_method(t.basic)) code += indent + "_out." + m + "(" + expr + ");\n";
      return;
    case TypeKind::string:
    case TypeKind::wstring:
      if (t.bound != 0)
        code += indent + "if (" + expr + ".size() > " + std::to_string(t.bound) + ") " +
                bad_param("string longer than its bound " + std::to_string(t.bound)) + "\n";
      code += indent + (t.kind == TypeKind::string ? "_out.write_string(" : "_out.write_wstring(") + expr + ");\n";
      return;
    case TypeKind::sequence: {
      if (t.bound != 0)
        code += indent + "if (" + expr + ".size() > " + std::to_string(t.bound) + ") " +
                bad_param("sequence longer than its bound " + std::to_string(t.bound)) + "\n";
      const TypeSpec& e = unalias(*t.element);
      if (e.kind == TypeKind::basic && is_bulk_primitive(e.basic)) {
        code += indent + "_out.write_sequence(" + expr + ".data(), " + expr + ".size());\n";
        return;
      }
      code += indent + "_out.write_ulong(static_cast<std::uint32_t>(" + expr + ".size()));\n";
      if (auto plan = run_plan(e)) {
        write_elements(code, *plan, *t.element, expr + ".data()", expr + ".size()", indent, depth);
        return;
      }
      const std::string el = "_e" + d(depth);
      code += indent + "for (const auto& " + el + " : " + expr + ") {\n";
      write_value(code, *t.element, el, indent + "  ", depth + 1);
      code += indent + "}\n";
      return;
    }
    case TypeKind::array:
      write_array_dims(code, t, 0, expr, indent, depth);
      return;
    case TypeKind::named: {
      const Declaration* decl = target_of(t);
      if (decl == nullptr) return;
      switch (decl->kind) {
        case DeclKind::enum_:
          code += indent + "_out.write_ulong(static_cast<std::uint32_t>(" + expr + "));\n";
          return;
        case DeclKind::interface:
          if (static_cast<const Interface*>(decl)->is_abstract)
            code += indent + "::switchyard::write_abstract(_out, " + expr + "._reference(), " + expr +
                    "._value().get());\n";
          else code += indent + "::switchyard::write_object(_out, " + expr + "._reference());\n";
          return;
        case DeclKind::value_type:
        case DeclKind::value_box:
          code += indent + "::switchyard::write_value(_out, " + expr + ");\n";
          return;
        default:
          code += indent + "cdr_write(_out, " + expr + ");\n";
          return;
      }
    }
    case TypeKind::fixed:
      code += indent + "_out.write_fixed(" + expr + ", " + std::to_string(t.digits) + ", " + std::to_string(t.scale) +
              ");\n";
      return;
  }
}

void read_value(std::string& code, const TypeSpec& type, const std::string& target, const std::string& indent,
                int depth) {
  const TypeSpec& t = unalias(type);
  switch (t.kind) {
    case TypeKind::basic:
      if (t.basic == BasicType::any) code += indent + "::switchyard::read_any(_in, " + target + ");\n";
      else if (t.basic == BasicType::type_code) code += indent + "::switchyard::read_type_code(_in, " + target + ");\n";
      else if (t.basic == BasicType::object) code += indent + target + " = ::switchyard::read_object(_in);\n";
      else if (t.basic == BasicType::value_base) code += indent + "::switchyard::read_value(_in, " + target + ");\n";
      else if (const char* m = read_method(t.basic)) code += indent + target + " = _in." + m + "();\n";
      return;
    case TypeKind::string:
      if (t.bound == 0) {
        code += indent + "_in.read_string(" + target + ");\n";
      } else {
        const std::string s = "_s" + d(depth);
        code += indent + "{\n" + indent + "  std::string_view " + s + " = _in.read_string_view();\n";
        code += indent + "  if (" + s + ".size() > " + std::to_string(t.bound) + ") " +
                marshal_error("length_over_limit", "string longer than its bound " + std::to_string(t.bound)) + "\n";
        code += indent + "  " + target + ".assign(" + s + ");\n" + indent + "}\n";
      }
      return;
    case TypeKind::wstring:
      code += indent + target + " = _in.read_wstring();\n";
      if (t.bound != 0)
        code += indent + "if (" + target + ".size() > " + std::to_string(t.bound) + ") " +
                marshal_error("length_over_limit", "wstring longer than its bound " + std::to_string(t.bound)) + "\n";
      return;
    case TypeKind::sequence: {
      const TypeSpec& e = unalias(*t.element);
      const std::string n = "_n" + d(depth);
      code += indent + "{\n";
      const std::string in = indent + "  ";
      code += in + "const std::uint32_t " + n + " = _in.read_length(" +
              std::to_string(std::max<std::size_t>(min_cdr_size(*t.element), 1)) + ");\n";
      if (t.bound != 0)
        code += in + "if (" + n + " > " + std::to_string(t.bound) + ") " +
                marshal_error("length_over_limit", "sequence longer than its bound " + std::to_string(t.bound)) + "\n";
      code += in + target + ".resize(" + n + ");\n";
      if (e.kind == TypeKind::basic && is_bulk_primitive(e.basic)) {
        code += in + "_in.read_array(" + target + ".data(), " + n + ");\n";
        code += indent + "}\n";
        return;
      }
      if (auto plan = run_plan(e)) {
        read_elements(code, *plan, *t.element, target + ".data()", n, in, depth);
        code += indent + "}\n";
        return;
      }
      const std::string i = "_i" + d(depth);
      code += in + "for (std::uint32_t " + i + " = 0; " + i + " < " + n + "; ++" + i + ") {\n";
      read_value(code, *t.element, target + "[" + i + "]", in + "  ", depth + 1);
      code += in + "}\n" + indent + "}\n";
      return;
    }
    case TypeKind::array:
      read_array_dims(code, t, 0, target, indent, depth);
      return;
    case TypeKind::named: {
      const Declaration* decl = target_of(t);
      if (decl == nullptr) return;
      switch (decl->kind) {
        case DeclKind::enum_: {
          const auto* en = static_cast<const Enum*>(decl);
          const std::string v = "_e" + d(depth);
          code += indent + "if (const std::uint32_t " + v + " = _in.read_ulong(); " + v + " < " +
                  std::to_string(en->enumerators.size()) + ") " + target + " = static_cast<" + qualified(*en) + ">(" +
                  v + ");\n" + indent + "else " + marshal_error("bad_enum", "enumerator out of range") + "\n";
          return;
        }
        case DeclKind::interface:
          code += indent + "::switchyard::read_" +
                  (static_cast<const Interface*>(decl)->is_abstract ? "abstract" : "reference") + "(_in, " + target +
                  ");\n";
          return;
        case DeclKind::value_type:
        case DeclKind::value_box:
          code += indent + "::switchyard::read_value(_in, " + target + ");\n";
          return;
        default:
          code += indent + "cdr_read(_in, " + target + ");\n";
          return;
      }
    }
    case TypeKind::fixed:
      code +=
          indent + target + " = _in.read_fixed(" + std::to_string(t.digits) + ", " + std::to_string(t.scale) + ");\n";
      return;
  }
}

void read_octet_view(std::string& code, const TypeSpec& type, const std::string& target, const std::string& indent) {
  const TypeSpec& t = unalias(type);
  code += indent + "{\n" + indent + "  const std::uint32_t _n = _in.read_length(1);\n";
  if (t.bound != 0)
    code += indent + "  if (_n > " + std::to_string(t.bound) + ") " +
            marshal_error("length_over_limit", "sequence longer than its bound " + std::to_string(t.bound)) + "\n";
  code += indent + "  " + target +
          " = std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(_in.take(_n)), _n);\n";
  code += indent + "}\n";
}

namespace {

constexpr std::string_view struct_functions_template = R"(
void cdr_write(::switchyard::cdr::output_stream& _out, const ${type}& _v) {
  ${write_scope}
  ${writes}
}

void cdr_read(::switchyard::cdr::input_stream& _in, ${type}& _v) {
  ${read_scope}
  ${reads}
}
)";

// Values held by members share one scope: a value two members refer to is written once.
constexpr std::string_view write_scope = "::switchyard::value_output_scope _values(_out);";
constexpr std::string_view read_scope = "::switchyard::value_input_scope _values(_in);";

bool members_hold_values(const std::vector<std::unique_ptr<Member>>& members) {
  for (const auto& m : members)
    if (contains_value(*m->type)) return true;
  return false;
}

// An exception without members.
constexpr std::string_view empty_exception_functions_template = R"(
void cdr_write(::switchyard::cdr::output_stream&, const ${type}&) {}

void cdr_read(::switchyard::cdr::input_stream&, ${type}&) {}
)";

// The discriminator, then the active member (variant index 1 + case index; 0: none).
constexpr std::string_view union_functions_template = R"(
void cdr_write(::switchyard::cdr::output_stream& _out, const ${type}& _v) {
  ${write_scope}
  ${write_discriminator}
  switch (_v._v_.index()) {
    ${write_cases}
    default:
      break;
  }
}

void cdr_read(::switchyard::cdr::input_stream& _in, ${type}& _v) {
  ${read_scope}
  ${discriminator} _d{};
  ${read_discriminator}
  switch (${type}::_branch(_d)) {
    ${read_cases}
    default:
      _v._v_.template emplace<0>();
      break;
  }
  _v._d_ = _d;
}
)";

constexpr std::string_view write_case_template = R"(
case ${index}:
  ${write}
  break;
)";

constexpr std::string_view read_case_template = R"(
case ${index}:
  _v._v_.template emplace<${index}>();
  ${read}
  break;
)";

}  // namespace

std::string struct_functions(const Struct& s) {
  std::string writes, reads;
  if (auto layout = fixed_layout(s)) {
    writes = "// Fixed size: one bounds check, stores at offsets precomputed for each alignment.\n";
    fixed_write(writes, *layout, "");
    fixed_read(reads, *layout, "");
  } else {
    for (const auto& m : s.members) {
      write_value(writes, *m->type, "_v." + identifier(m->name), "");
      read_value(reads, *m->type, "_v." + identifier(m->name), "");
    }
  }
  const bool values = members_hold_values(s.members);
  return fill(struct_functions_template, {{"type", qualified(s)},
                                          {"write_scope", values ? std::string(write_scope) : ""},
                                          {"writes", writes},
                                          {"read_scope", values ? std::string(read_scope) : ""},
                                          {"reads", reads}});
}

std::string exception_functions(const Exception& e) {
  std::string writes, reads;
  for (const auto& m : e.members) {
    write_value(writes, *m->type, "_v." + identifier(m->name), "");
    read_value(reads, *m->type, "_v." + identifier(m->name), "");
  }
  const bool values = members_hold_values(e.members);
  return fill(e.members.empty() ? empty_exception_functions_template : struct_functions_template,
              {{"type", qualified(e)},
               {"write_scope", values ? std::string(write_scope) : ""},
               {"writes", writes},
               {"read_scope", values ? std::string(read_scope) : ""},
               {"reads", reads}});
}

std::string union_functions(const Union& u) {
  std::string write_discriminator, read_discriminator, write_cases, read_cases;
  bool values = false;
  write_value(write_discriminator, *u.discriminator, "_v._d_", "");
  read_value(read_discriminator, *u.discriminator, "_d", "");
  for (std::size_t k = 0; k < u.cases.size(); ++k) {
    const std::string index = std::to_string(k + 1);
    std::string write, read;
    write_value(write, *u.cases[k].member->type, "std::get<" + index + ">(_v._v_)", "");
    read_value(read, *u.cases[k].member->type, "std::get<" + index + ">(_v._v_)", "");
    write_cases += fill(write_case_template, {{"index", index}, {"write", write}});
    read_cases += fill(read_case_template, {{"index", index}, {"read", read}});
    values = values || contains_value(*u.cases[k].member->type);
  }
  return fill(union_functions_template, {{"type", qualified(u)},
                                         {"write_scope", values ? std::string(write_scope) : ""},
                                         {"read_scope", values ? std::string(read_scope) : ""},
                                         {"discriminator", type_name(*u.discriminator)},
                                         {"write_discriminator", write_discriminator},
                                         {"read_discriminator", read_discriminator},
                                         {"write_cases", write_cases},
                                         {"read_cases", read_cases}});
}

}  // namespace switchyard::idl::cxx
