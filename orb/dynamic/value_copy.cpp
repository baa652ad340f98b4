// Values walked through their TypeCode: what lets an Any carry a value whose type the program
// does not know. Every read is checked by the input stream; lengths are checked against the
// smallest encoding of their elements, so that a sequence of a billion empty things in a short
// message fails at once instead of looping.
#include <algorithm>
#include <cstring>

#include "orb/dynamic/type_code_node.h"
#include "switchyard/any.h"

namespace switchyard {

using detail::type_code_node;

namespace {

// The size of a primitive kind that is copied as a block (0 for the others).
std::size_t block_size(tc_kind k) {
  switch (k) {
    case tc_kind::tk_octet: case tc_kind::tk_char: return 1;
    case tc_kind::tk_short: case tc_kind::tk_ushort: return 2;
    case tc_kind::tk_long: case tc_kind::tk_ulong: case tc_kind::tk_float: return 4;
    case tc_kind::tk_double: case tc_kind::tk_longlong: case tc_kind::tk_ulonglong: return 8;
    default: return 0;
  }
}

const type_code_node& unalias(const type_code_node& n) {
  const type_code_node* p = &n;
  for (int guard = 0; guard < 1000 && p->kind == tc_kind::tk_alias; ++guard) p = &p->content.node();
  return *p;
}

// The fewest octets a value occupies (padding aside), saturated; 0 behind a recursion.
std::uint64_t min_size(const type_code_node& raw, int depth) {
  if (depth > 16) return 0;
  const type_code_node& n = unalias(raw);
  if (std::size_t s = block_size(n.kind)) return s;
  switch (n.kind) {
    case tc_kind::tk_boolean: case tc_kind::tk_wchar: return 1;
    case tc_kind::tk_longdouble: return 16;
    case tc_kind::tk_string: case tc_kind::tk_wstring: case tc_kind::tk_sequence: case tc_kind::tk_Principal:
    case tc_kind::tk_enum: case tc_kind::tk_any: case tc_kind::tk_TypeCode:
      return 4;
    case tc_kind::tk_objref: return 8;
    case tc_kind::tk_fixed: return (n.digits + 2u) / 2u;
    case tc_kind::tk_union: return n.content.shared_node() ? min_size(n.content.node(), depth + 1) : 0;
    case tc_kind::tk_array: {
      if (n.content.shared_node() && n.content.shared_node()->placeholder) return 0;
      return std::min<std::uint64_t>(n.length * min_size(n.content.node(), depth + 1), 1u << 30);
    }
    case tc_kind::tk_struct: case tc_kind::tk_except: {
      std::uint64_t total = n.kind == tc_kind::tk_except ? 4 : 0;
      for (const auto& m : n.member_types)
        if (!(m.shared_node() && m.shared_node()->placeholder)) total += min_size(m.node(), depth + 1);
      return std::min<std::uint64_t>(total, 1u << 30);
    }
    default:
      return 0;
  }
}

void copy_block(cdr::input_stream& in, cdr::output_stream* out, std::size_t size, std::uint32_t count) {
  if (count > in.remaining() / size)
    in.throw_marshal(minor::length_too_large, std::to_string(count) + " elements of " + std::to_string(size) +
                                                  " octets with " + std::to_string(in.remaining()) + " left");
  // No elements, no padding: alignment belongs to the primitives, and there are none.
  if (count == 0) return;
  const std::size_t bytes = std::size_t{count} * size;
  const std::byte* src = in.take_aligned(size, bytes);
  if (out == nullptr) return;
  std::byte* dst = out->reserve_aligned(size, bytes);
  if (size == 1 || !in.swapping()) std::memcpy(dst, src, bytes);
  else cdr::swap_copy(dst, src, count, size);
}

std::int64_t copy_discriminator(const type_code_node& n, cdr::input_stream& in, cdr::output_stream* out) {
  switch (n.kind) {
    case tc_kind::tk_short: { auto v = in.read_short(); if (out) out->write_short(v); return v; }
    case tc_kind::tk_ushort: { auto v = in.read_ushort(); if (out) out->write_ushort(v); return v; }
    case tc_kind::tk_long: { auto v = in.read_long(); if (out) out->write_long(v); return v; }
    case tc_kind::tk_ulong: { auto v = in.read_ulong(); if (out) out->write_ulong(v); return v; }
    case tc_kind::tk_longlong: { auto v = in.read_longlong(); if (out) out->write_longlong(v); return v; }
    case tc_kind::tk_ulonglong: {
      auto v = in.read_ulonglong();
      if (out) out->write_ulonglong(v);
      return static_cast<std::int64_t>(v);
    }
    case tc_kind::tk_boolean: { bool v = in.read_boolean(); if (out) out->write_boolean(v); return v ? 1 : 0; }
    case tc_kind::tk_char: { char v = in.read_char(); if (out) out->write_char(v); return static_cast<unsigned char>(v); }
    case tc_kind::tk_octet: { auto v = in.read_octet(); if (out) out->write_octet(v); return v; }
    case tc_kind::tk_wchar: { char16_t v = in.read_wchar(); if (out) out->write_wchar(v); return v; }
    case tc_kind::tk_enum: {
      auto v = in.read_ulong();
      if (v >= n.member_names.size()) in.throw_marshal(minor::bad_enum, "discriminator enumerator " + std::to_string(v));
      if (out) out->write_ulong(v);
      return v;
    }
    default:
      in.throw_marshal(minor::bad_typecode, "union discriminator of " + std::string(to_string(n.kind)));
  }
}

// Copies (out != nullptr) or skips one value.
void walk(const type_code_node& raw, cdr::input_stream& in, cdr::output_stream* out, int depth) {
  if (depth > max_value_depth)
    in.throw_marshal(minor::typecode_too_deep, "value nested deeper than " + std::to_string(max_value_depth));
  const type_code_node& n = unalias(raw);
  if (std::size_t size = block_size(n.kind)) {
    copy_block(in, out, size, 1);
    return;
  }
  switch (n.kind) {
    case tc_kind::tk_null:
    case tc_kind::tk_void:
      return;
    case tc_kind::tk_boolean: {
      bool v = in.read_boolean();
      if (out) out->write_boolean(v);
      return;
    }
    case tc_kind::tk_wchar: {
      char16_t v = in.read_wchar();
      if (out) out->write_wchar(v);
      return;
    }
    case tc_kind::tk_longdouble: {
      // Copied bit for bit: converting through the native long double would lose precision.
      const std::byte* p = in.take_aligned(8, 16);
      if (out) {
        std::byte* d = out->reserve_aligned(8, 16);
        for (int i = 0; i < 16; ++i) d[i] = in.swapping() ? p[15 - i] : p[i];
      }
      return;
    }
    case tc_kind::tk_fixed: {
      const std::size_t octets = (n.digits + 2u) / 2u;
      const std::byte* p = in.take(octets);
      if (out) out->write_octets(p, octets);
      return;
    }
    case tc_kind::tk_any: {
      type_code inner = read_type_code(in);
      if (out) write_type_code(*out, inner);
      walk(inner.node(), in, out, depth + 1);
      return;
    }
    case tc_kind::tk_TypeCode: {
      type_code inner = read_type_code(in);
      if (out) write_type_code(*out, inner);
      return;
    }
    case tc_kind::tk_Principal: {
      const std::uint32_t count = in.read_length(1);
      if (out) out->write_ulong(count);
      copy_block(in, out, 1, count);
      return;
    }
    case tc_kind::tk_objref: {
      // An IOR: type id, then tagged profiles (tag, octets).
      std::string_view type_id = in.read_string_view();
      if (out) out->write_string(type_id);
      const std::uint32_t profiles = in.read_length(8);
      if (out) out->write_ulong(profiles);
      for (std::uint32_t k = 0; k < profiles; ++k) {
        const std::uint32_t tag = in.read_ulong();
        const std::uint32_t octets = in.read_length(1);
        if (out) {
          out->write_ulong(tag);
          out->write_ulong(octets);
        }
        copy_block(in, out, 1, octets);
      }
      return;
    }
    case tc_kind::tk_string: {
      std::string_view s = in.read_string_view();
      if (n.length != 0 && s.size() > n.length)
        in.throw_marshal(minor::length_over_limit,
                         "string of " + std::to_string(s.size()) + " beyond its bound " + std::to_string(n.length));
      if (out) out->write_string(s);
      return;
    }
    case tc_kind::tk_wstring: {
      std::u16string s = in.read_wstring();
      if (n.length != 0 && s.size() > n.length)
        in.throw_marshal(minor::length_over_limit,
                         "wstring of " + std::to_string(s.size()) + " beyond its bound " + std::to_string(n.length));
      if (out) out->write_wstring(s);
      return;
    }
    case tc_kind::tk_enum: {
      const std::uint32_t v = in.read_ulong();
      if (v >= n.member_names.size())
        in.throw_marshal(minor::bad_enum, "enumerator " + std::to_string(v) + " of " +
                                              std::to_string(n.member_names.size()));
      if (out) out->write_ulong(v);
      return;
    }
    case tc_kind::tk_except: {
      std::string_view id = in.read_string_view();
      if (out) out->write_string(id);
      [[fallthrough]];
    }
    case tc_kind::tk_struct:
      for (const auto& m : n.member_types) walk(m.node(), in, out, depth + 1);
      return;
    case tc_kind::tk_union: {
      const std::int64_t label = copy_discriminator(unalias(n.content.node()), in, out);
      std::int32_t chosen = n.default_index;
      for (std::size_t k = 0; k < n.member_labels.size(); ++k)
        if (static_cast<std::int32_t>(k) != n.default_index && n.member_labels[k] == label) {
          chosen = static_cast<std::int32_t>(k);
          break;
        }
      if (chosen >= 0) walk(n.member_types[static_cast<std::size_t>(chosen)].node(), in, out, depth + 1);
      return;
    }
    case tc_kind::tk_sequence:
    case tc_kind::tk_array: {
      const type_code_node& element = unalias(n.content.node());
      std::uint32_t count = n.length;
      const std::size_t block = block_size(element.kind);
      const auto least = static_cast<std::size_t>(std::max<std::uint64_t>(min_size(element, 0), 1));
      if (n.kind == tc_kind::tk_sequence) {
        count = in.read_length(block != 0 ? block : least);
        if (n.length != 0 && count > n.length)
          in.throw_marshal(minor::length_over_limit, "sequence of " + std::to_string(count) +
                                                         " beyond its bound " + std::to_string(n.length));
        if (out) out->write_ulong(count);
      } else {
        in.check_length(count, block != 0 ? block : least);
      }
      if (block != 0) {
        copy_block(in, out, block, count);
        return;
      }
      for (std::uint32_t k = 0; k < count; ++k) walk(element, in, out, depth + 1);
      return;
    }
    default:
      in.throw_marshal(minor::unsupported_typecode, "no value of " + std::string(to_string(n.kind)));
  }
}

}  // namespace

void copy_value(const type_code& type, cdr::input_stream& in, cdr::output_stream& out) {
  walk(type.node(), in, &out, 0);
}

void skip_value(const type_code& type, cdr::input_stream& in) { walk(type.node(), in, nullptr, 0); }

}  // namespace switchyard
