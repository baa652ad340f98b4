// TypeCodes in CDR (CORBA 3.0, 15.3.5.1): simple kinds as their TCKind alone or with parameters in
// line (string and wstring bound, fixed digits and scale), complex kinds with their parameters in
// an encapsulation, and indirections (TCKind 0xffffffff, then a long offset from that long to an
// earlier TypeCode's TCKind) for recursive and repeated TypeCodes.
//
// Neither direction interprets a TypeCode it has seen before: each description keeps its own CDR
// once written (type_code_node::encoding), and each thread keeps the TypeCodes it read last, by
// their octets, so that the same TypeCode arriving with every request is parsed once.
#include <array>
#include <cstring>
#include <span>
#include <utility>
#include <vector>

#include "orb/dynamic/type_code_node.h"
#include "switchyard/cdr/input_stream.h"
#include "switchyard/cdr/output_stream.h"
#include "switchyard/type_code.h"

namespace switchyard {

using detail::type_code_node;

namespace {

constexpr std::uint32_t indirection_kind = 0xffffffffu;

bool has_encapsulation(tc_kind k) {
  switch (k) {
    case tc_kind::tk_objref:
    case tc_kind::tk_abstract_interface:
    case tc_kind::tk_struct:
    case tc_kind::tk_union:
    case tc_kind::tk_enum:
    case tc_kind::tk_sequence:
    case tc_kind::tk_array:
    case tc_kind::tk_alias:
    case tc_kind::tk_except:
    case tc_kind::tk_value:
    case tc_kind::tk_value_box:
      return true;
    default:
      return false;
  }
}

bool is_simple(tc_kind k) {
  switch (k) {
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

// ------------------------------------------------------------------------------------ writing

class type_code_writer {
 public:
  explicit type_code_writer(cdr::output_stream& out) : out_(out) {}
  // Whether a wchar label was written (its CDR depends on the GIOP version).
  bool wrote_wchar_labels() const noexcept { return wchar_labels_; }

  void write(const type_code& tc) {
    const auto& shared = tc.shared_node();
    if (shared && shared->placeholder) {
      const type_code_node& target = detail::resolve(*shared);
      for (const auto& [node, position] : open_)
        if (node == &target) {
          out_.write_ulong(indirection_kind);
          out_.align(4);
          const auto here = static_cast<std::int64_t>(out_.size());
          out_.write_long(static_cast<std::int32_t>(static_cast<std::int64_t>(position) - here));
          return;
        }
      write_node(target);  // written apart from its enclosing type: in full
      return;
    }
    write_node(tc.node());
  }

 private:
  void write_node(const type_code_node& n) {
    out_.align(4);
    const std::size_t position = out_.size();
    out_.write_ulong(static_cast<std::uint32_t>(n.kind));
    if (is_simple(n.kind)) return;
    switch (n.kind) {
      case tc_kind::tk_string:
      case tc_kind::tk_wstring:
        out_.write_ulong(n.length);
        return;
      case tc_kind::tk_fixed:
        out_.write_ushort(n.digits);
        out_.write_short(n.scale);
        return;
      default:
        break;
    }
    if (!has_encapsulation(n.kind))
      throw SystemException(SystemExceptionKind::BAD_TYPECODE, minor::unsupported_typecode, CompletionStatus::no,
                            "cannot marshal a TypeCode of " + std::string(to_string(n.kind)));
    open_.emplace_back(&n, position);
    auto token = out_.begin_encapsulation();
    switch (n.kind) {
      case tc_kind::tk_objref:
      case tc_kind::tk_abstract_interface:
        out_.write_string(n.id);
        out_.write_string(n.name);
        break;
      case tc_kind::tk_struct:
      case tc_kind::tk_except:
        out_.write_string(n.id);
        out_.write_string(n.name);
        out_.write_ulong(static_cast<std::uint32_t>(n.member_types.size()));
        for (std::size_t k = 0; k < n.member_types.size(); ++k) {
          out_.write_string(n.member_names[k]);
          write(n.member_types[k]);
        }
        break;
      case tc_kind::tk_union: {
        out_.write_string(n.id);
        out_.write_string(n.name);
        write(n.content);
        out_.write_long(n.default_index);
        out_.write_ulong(static_cast<std::uint32_t>(n.member_types.size()));
        const tc_kind disc = n.content.unaliased().kind();
        for (std::size_t k = 0; k < n.member_types.size(); ++k) {
          if (static_cast<std::int32_t>(k) == n.default_index) out_.write_octet(0);
          else write_label(disc, n.member_labels[k]);
          out_.write_string(n.member_names[k]);
          write(n.member_types[k]);
        }
        break;
      }
      case tc_kind::tk_enum:
        out_.write_string(n.id);
        out_.write_string(n.name);
        out_.write_ulong(static_cast<std::uint32_t>(n.member_names.size()));
        for (const auto& name : n.member_names) out_.write_string(name);
        break;
      case tc_kind::tk_sequence:
      case tc_kind::tk_array:
        write(n.content);
        out_.write_ulong(n.length);
        break;
      case tc_kind::tk_alias:
      case tc_kind::tk_value_box:
        out_.write_string(n.id);
        out_.write_string(n.name);
        write(n.content);
        break;
      case tc_kind::tk_value:
        out_.write_string(n.id);
        out_.write_string(n.name);
        out_.write_short(n.modifier);
        write(n.content);  // the concrete base, or tk_null
        out_.write_ulong(static_cast<std::uint32_t>(n.member_types.size()));
        for (std::size_t k = 0; k < n.member_types.size(); ++k) {
          out_.write_string(n.member_names[k]);
          write(n.member_types[k]);
          out_.write_short(n.visibilities[k]);
        }
        break;
      default:
        break;
    }
    out_.end_encapsulation(token);
    open_.pop_back();
  }

  void write_label(tc_kind disc, std::int64_t label) {
    switch (disc) {
      case tc_kind::tk_short:
        out_.write_short(static_cast<std::int16_t>(label));
        return;
      case tc_kind::tk_ushort:
        out_.write_ushort(static_cast<std::uint16_t>(label));
        return;
      case tc_kind::tk_long:
        out_.write_long(static_cast<std::int32_t>(label));
        return;
      case tc_kind::tk_ulong:
      case tc_kind::tk_enum:
        out_.write_ulong(static_cast<std::uint32_t>(label));
        return;
      case tc_kind::tk_longlong:
        out_.write_longlong(label);
        return;
      case tc_kind::tk_ulonglong:
        out_.write_ulonglong(static_cast<std::uint64_t>(label));
        return;
      case tc_kind::tk_boolean:
        out_.write_boolean(label != 0);
        return;
      case tc_kind::tk_char:
        out_.write_char(static_cast<char>(label));
        return;
      case tc_kind::tk_octet:
        out_.write_octet(static_cast<std::uint8_t>(label));
        return;
      case tc_kind::tk_wchar:
        out_.write_wchar(static_cast<char16_t>(label));
        wchar_labels_ = true;
        return;
      default:
        throw SystemException(SystemExceptionKind::BAD_TYPECODE, 0, CompletionStatus::no,
                              "union discriminator of " + std::string(to_string(disc)));
    }
  }

  cdr::output_stream& out_;
  bool wchar_labels_ = false;
  // The complex TypeCodes being written, with the offset of their TCKind in the buffer: the
  // targets of indirections.
  std::vector<std::pair<const type_code_node*, std::size_t>> open_;
};

// ------------------------------------------------------------------------------------ reading

class type_code_reader {
 public:
  type_code read(cdr::input_stream& in, int depth) {
    if (depth > max_type_code_depth)
      in.throw_marshal(minor::typecode_too_deep, "TypeCode nested deeper than " + std::to_string(max_type_code_depth));
    const std::byte* at = in.take_aligned(4, 4);
    const auto raw_kind = cdr::load<std::uint32_t>(at, in.swapping());
    if (raw_kind == indirection_kind) return read_indirection(in);
    if (raw_kind > static_cast<std::uint32_t>(tc_kind::tk_event))
      in.throw_marshal(minor::bad_typecode, "unknown TCKind " + std::to_string(raw_kind));
    const auto kind = static_cast<tc_kind>(raw_kind);
    if (raw_kind > static_cast<std::uint32_t>(tc_kind::tk_value_box) && kind != tc_kind::tk_abstract_interface)
      in.throw_marshal(minor::unsupported_typecode,
                       "TypeCode of " + std::string(to_string(kind)) + " is not supported");
    if (is_simple(kind)) return type_code::basic(kind);
    auto n = std::make_shared<type_code_node>();
    n->kind = kind;
    switch (kind) {
      case tc_kind::tk_string:
      case tc_kind::tk_wstring:
        n->length = in.read_ulong();
        return type_code(std::move(n));
      case tc_kind::tk_fixed:
        n->digits = in.read_ushort();
        n->scale = in.read_short();
        if (n->digits == 0 || n->digits > 31 || n->scale < 0 || n->scale > static_cast<std::int16_t>(n->digits))
          in.throw_marshal(minor::bad_typecode,
                           "fixed<" + std::to_string(n->digits) + "," + std::to_string(n->scale) + "> is not valid");
        return type_code(std::move(n));
      default:
        break;
    }
    cdr::input_stream inner = in.read_encapsulation();
    open_.push_back({at, {}});
    switch (kind) {
      case tc_kind::tk_objref:
      case tc_kind::tk_abstract_interface:
        inner.read_string(n->id);
        inner.read_string(n->name);
        break;
      case tc_kind::tk_struct:
      case tc_kind::tk_except: {
        inner.read_string(n->id);
        inner.read_string(n->name);
        // A member is at least a name (a length) and a TypeCode (a kind): 8 octets.
        const std::uint32_t count = inner.read_length(8);
        // IDL structs have members; an empty one would make arrays of nothing that cost no octets.
        if (count == 0 && kind == tc_kind::tk_struct)
          inner.throw_marshal(minor::bad_typecode, "struct without members");
        for (std::uint32_t k = 0; k < count; ++k) {
          n->member_names.push_back(inner.read_string());
          n->member_types.push_back(read(inner, depth + 1));
          check_member(inner, n->member_types.back(),
                       kind == tc_kind::tk_struct ? "struct member" : "exception member");
        }
        break;
      }
      case tc_kind::tk_union: {
        inner.read_string(n->id);
        inner.read_string(n->name);
        n->content = read(inner, depth + 1);
        const tc_kind disc = n->content.unaliased().kind();
        if (!valid_discriminator(disc))
          inner.throw_marshal(minor::bad_typecode, "union discriminator of " + std::string(to_string(disc)));
        n->default_index = inner.read_long();
        const std::uint32_t count = inner.read_length(9);
        if (n->default_index < -1 || (n->default_index >= 0 && static_cast<std::uint32_t>(n->default_index) >= count))
          inner.throw_marshal(minor::bad_typecode, "union default index " + std::to_string(n->default_index) +
                                                       " with " + std::to_string(count) + " members");
        for (std::uint32_t k = 0; k < count; ++k) {
          if (static_cast<std::int32_t>(k) == n->default_index) {
            inner.read_octet();
            n->member_labels.push_back(0);
          } else {
            n->member_labels.push_back(read_label(inner, disc));
          }
          n->member_names.push_back(inner.read_string());
          n->member_types.push_back(read(inner, depth + 1));
          check_member(inner, n->member_types.back(), "union member");
        }
        if (disc == tc_kind::tk_enum) {
          const auto enumerators = n->content.unaliased().member_count();
          for (std::uint32_t k = 0; k < count; ++k)
            if (static_cast<std::int32_t>(k) != n->default_index &&
                static_cast<std::uint64_t>(n->member_labels[k]) >= enumerators)
              inner.throw_marshal(minor::bad_typecode,
                                  "union label " + std::to_string(n->member_labels[k]) + " is not an enumerator");
        }
        break;
      }
      case tc_kind::tk_enum: {
        inner.read_string(n->id);
        inner.read_string(n->name);
        const std::uint32_t count = inner.read_length(4);
        if (count == 0) inner.throw_marshal(minor::bad_typecode, "enum without enumerators");
        for (std::uint32_t k = 0; k < count; ++k) n->member_names.push_back(inner.read_string());
        break;
      }
      case tc_kind::tk_sequence:
      case tc_kind::tk_array:
        n->content = read(inner, depth + 1);
        check_member(inner, n->content, kind == tc_kind::tk_sequence ? "sequence element" : "array element");
        n->length = inner.read_ulong();
        if (kind == tc_kind::tk_array && n->length == 0) inner.throw_marshal(minor::bad_typecode, "array of length 0");
        break;
      case tc_kind::tk_alias:
        inner.read_string(n->id);
        inner.read_string(n->name);
        n->content = read(inner, depth + 1);
        check_member(inner, n->content, "alias");
        break;
      case tc_kind::tk_value_box: {
        inner.read_string(n->id);
        inner.read_string(n->name);
        n->content = read(inner, depth + 1);
        check_member(inner, n->content, "value box");
        break;
      }
      case tc_kind::tk_value: {
        inner.read_string(n->id);
        inner.read_string(n->name);
        n->modifier = inner.read_short();
        if (n->modifier < 0 || n->modifier > 3)
          inner.throw_marshal(minor::bad_typecode, "value type modifier " + std::to_string(n->modifier));
        n->content = read(inner, depth + 1);
        const auto& base = n->content.shared_node();
        if (!(base && base->placeholder) && n->content.kind() != tc_kind::tk_null &&
            n->content.unaliased().kind() != tc_kind::tk_value)
          inner.throw_marshal(minor::bad_typecode,
                              "concrete base of " + std::string(to_string(n->content.unaliased().kind())));
        // A member is at least a name (a length), a TypeCode (a kind) and a visibility: 10 octets.
        const std::uint32_t count = inner.read_length(10);
        for (std::uint32_t k = 0; k < count; ++k) {
          n->member_names.push_back(inner.read_string());
          n->member_types.push_back(read(inner, depth + 1));
          check_member(inner, n->member_types.back(), "value member");
          const std::int16_t visibility = inner.read_short();
          if (visibility != 0 && visibility != 1)
            inner.throw_marshal(minor::bad_typecode, "value member visibility " + std::to_string(visibility));
          n->visibilities.push_back(visibility);
        }
        break;
      }
      default:
        break;
    }
    std::shared_ptr<const type_code_node> done = std::move(n);
    for (const auto& placeholder : open_.back().waiting) placeholder->target = done;
    open_.pop_back();
    done_.emplace_back(at, done);
    return type_code(std::move(done));
  }

 private:
  type_code read_indirection(cdr::input_stream& in) {
    const std::byte* offset_at = in.take_aligned(4, 4);
    const auto offset = cdr::load<std::int32_t>(offset_at, in.swapping());
    // Compared as integers: the target is only ever looked up among TypeCodes already read.
    const auto target = static_cast<std::uintptr_t>(reinterpret_cast<std::uintptr_t>(offset_at) +
                                                    static_cast<std::uintptr_t>(static_cast<std::intptr_t>(offset)));
    if (offset < 0) {
      for (auto& entry : open_)
        if (reinterpret_cast<std::uintptr_t>(entry.at) == target) {
          auto placeholder = std::make_shared<type_code_node>();
          placeholder->placeholder = true;
          entry.waiting.push_back(placeholder);
          return type_code(std::move(placeholder));
        }
      for (const auto& [at, node] : done_)
        if (reinterpret_cast<std::uintptr_t>(at) == target) return type_code(node);
    }
    in.throw_marshal(minor::bad_indirection,
                     "TypeCode indirection of offset " + std::to_string(offset) + " points to no TypeCode before it");
  }

  // Members and elements of void (or of an exception) are not types a value can have.
  static void check_member(cdr::input_stream& in, const type_code& t, const char* what) {
    if (t.shared_node() && t.shared_node()->placeholder) return;
    const tc_kind k = t.kind();
    if (k == tc_kind::tk_void || k == tc_kind::tk_except || k == tc_kind::tk_null)
      in.throw_marshal(minor::bad_typecode, std::string(what) + " of " + std::string(to_string(k)));
  }

  static std::int64_t read_label(cdr::input_stream& in, tc_kind disc) {
    switch (disc) {
      case tc_kind::tk_short:
        return in.read_short();
      case tc_kind::tk_ushort:
        return in.read_ushort();
      case tc_kind::tk_long:
        return in.read_long();
      case tc_kind::tk_ulong:
      case tc_kind::tk_enum:
        return in.read_ulong();
      case tc_kind::tk_longlong:
        return in.read_longlong();
      case tc_kind::tk_ulonglong:
        return static_cast<std::int64_t>(in.read_ulonglong());
      case tc_kind::tk_boolean:
        return in.read_boolean() ? 1 : 0;
      case tc_kind::tk_char:
        return static_cast<unsigned char>(in.read_char());
      case tc_kind::tk_octet:
        return in.read_octet();
      case tc_kind::tk_wchar:
        return in.read_wchar();
      default:
        in.throw_marshal(minor::bad_typecode, "union discriminator of " + std::string(to_string(disc)));
    }
  }

  struct open_entry {
    const std::byte* at;
    std::vector<std::shared_ptr<type_code_node>> waiting;  // placeholders to bind once complete
  };
  std::vector<open_entry> open_;
  std::vector<std::pair<const std::byte*, std::shared_ptr<const type_code_node>>> done_;
};

// The encoding of a complex TypeCode, made on first use and kept with its description.
const detail::type_code_encoding& encoding_of(const type_code_node& n) {
  if (const auto* kept = n.encoding.load(std::memory_order_acquire)) [[likely]]
    return *kept;
  cdr::output_stream out(256, 2);
  type_code_writer writer(out);
  writer.write(type_code(std::shared_ptr<const type_code_node>(std::shared_ptr<const type_code_node>(), &n)));
  auto made = std::make_unique<detail::type_code_encoding>();
  made->octets.assign(out.bytes().begin(), out.bytes().end());
  made->wchar_labels = writer.wrote_wchar_labels();
  const detail::type_code_encoding* expected = nullptr;
  if (n.encoding.compare_exchange_strong(expected, made.get(), std::memory_order_acq_rel)) return *made.release();
  return *expected;
}

// The TypeCodes this thread read last, by their octets (kind, then the encapsulation), so that a
// TypeCode that comes with every request (an Any's, a DII request's) is parsed once. Small and
// searched in order: a hit is a few length compares and one memcmp.
class read_cache {
 public:
  static read_cache& of_this_thread() {
    thread_local read_cache cache;
    return cache;
  }
  // Encapsulations longer than this are parsed every time (and never kept).
  static constexpr std::size_t max_octets = 16384;

  const type_code* find(std::uint32_t kind, std::uint8_t minor, std::span<const std::byte> octets) const noexcept {
    for (const auto& e : entries_)
      if (e.octets.size() == octets.size() && e.kind == kind && e.minor == minor && !e.octets.empty() &&
          std::memcmp(e.octets.data(), octets.data(), octets.size()) == 0)
        return &e.type;
    return nullptr;
  }
  void add(std::uint32_t kind, std::uint8_t minor, std::span<const std::byte> octets, const type_code& type) {
    entry& e = entries_[next_];
    next_ = (next_ + 1) % entries_.size();
    e.kind = kind;
    e.minor = minor;
    e.octets.assign(octets.begin(), octets.end());
    e.type = type;
  }

 private:
  struct entry {
    std::uint32_t kind = 0;
    std::uint8_t minor = 0;
    std::vector<std::byte> octets;
    type_code type;
  };
  std::array<entry, 16> entries_;
  std::size_t next_ = 0;
};

type_code parse_type_code(cdr::input_stream& in) {
  type_code_reader reader;
  try {
    return reader.read(in, 0);
  } catch (const SystemException& e) {
    if (e.kind() == SystemExceptionKind::MARSHAL) throw;
    // A discriminator of the wrong kind, an unbound recursion: malformed input all the same.
    in.throw_marshal(minor::bad_typecode, e.detail());
  }
}

}  // namespace

void write_type_code(cdr::output_stream& out, const type_code& tc) {
  const type_code_node& n = tc.node();
  if (is_simple(n.kind)) {
    out.write_ulong(static_cast<std::uint32_t>(n.kind));
    return;
  }
  if (has_encapsulation(n.kind)) {
    const detail::type_code_encoding& encoding = encoding_of(n);
    if (!encoding.wchar_labels || out.giop_minor() >= 2) {
      std::byte* at = out.reserve_aligned(4, encoding.octets.size());
      std::memcpy(at, encoding.octets.data(), encoding.octets.size());
      return;
    }
  }
  type_code_writer writer(out);
  writer.write(tc);
}

type_code read_type_code(cdr::input_stream& in) {
  // Kind and encapsulation length first, on a copy: a TypeCode read before is not parsed again.
  cdr::input_stream ahead = in;
  ahead.align(4);
  if (ahead.remaining() >= 8) {
    const std::uint32_t kind = ahead.read_ulong();
    if (kind <= static_cast<std::uint32_t>(tc_kind::tk_fixed) && has_encapsulation(static_cast<tc_kind>(kind))) {
      const std::uint32_t length = ahead.read_ulong();
      if (length <= ahead.remaining() && length <= read_cache::max_octets) {
        const std::span<const std::byte> octets(ahead.take(length), length);
        read_cache& cache = read_cache::of_this_thread();
        if (const type_code* known = cache.find(kind, in.giop_minor(), octets)) {
          in = ahead;
          return *known;
        }
        type_code read = parse_type_code(in);
        cache.add(kind, in.giop_minor(), octets, read);
        return read;
      }
    }
  }
  return parse_type_code(in);
}

void read_type_code(cdr::input_stream& in, type_code& out) { out = read_type_code(in); }

}  // namespace switchyard
