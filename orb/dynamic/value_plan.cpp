// Value plans (value_plan.h): built once per TypeCode, then run for every value. Every read is
// checked by the input stream; lengths are checked against the fewest octets their elements take,
// so that a sequence of a billion empty things in a short message fails at once instead of looping.
#include "orb/dynamic/value_plan.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>

#include "orb/dynamic/type_code_node.h"
#include "switchyard/any.h"

namespace switchyard::detail {

namespace {

// Runs longer than this are split (an array of a thousand structs is a loop over one run).
constexpr std::size_t max_run_leaves = 256;
// Plans nest at most this deep while they are built (TypeCodes built in code have no depth limit).
constexpr int max_plan_depth = 1000;

constexpr std::uint64_t saturate(std::uint64_t v) { return std::min<std::uint64_t>(v, 1u << 30); }

[[noreturn]] void bad_typecode(std::string detail) {
  throw SystemException(SystemExceptionKind::BAD_TYPECODE, 0, CompletionStatus::no, std::move(detail));
}

std::uint8_t primitive_size(tc_kind k) {
  switch (k) {
    case tc_kind::tk_octet:
    case tc_kind::tk_char:
    case tc_kind::tk_boolean:
      return 1;
    case tc_kind::tk_short:
    case tc_kind::tk_ushort:
      return 2;
    case tc_kind::tk_long:
    case tc_kind::tk_ulong:
    case tc_kind::tk_float:
    case tc_kind::tk_enum:
      return 4;
    case tc_kind::tk_double:
    case tc_kind::tk_longlong:
    case tc_kind::tk_ulonglong:
      return 8;
    default:
      return 0;
  }
}

const type_code_node& unalias(const type_code_node& n) {
  const type_code_node* p = &n;
  for (int guard = 0; guard < 1000 && p->kind == tc_kind::tk_alias; ++guard) p = &p->content.node();
  return *p;
}

// Where every leaf lies for each start residue, and whether anything between elements of a
// sequence ever needs its padding zeroed.
void lay_out(value_run& run) {
  run.first_alignment = run.leaves.front().size;
  run.alignment = 1;
  run.checked = false;
  run.checked_leaves.clear();
  for (std::size_t i = 0; i < run.leaves.size(); ++i) {
    run.alignment = std::max(run.alignment, run.leaves[i].size);
    if (run.leaves[i].what != run_leaf::check::none) run.checked_leaves.push_back(static_cast<std::uint32_t>(i));
  }
  run.checked = !run.checked_leaves.empty();
  for (std::uint32_t r = 0; r < 8; ++r) {
    run_layout& layout = run.layouts[r];
    layout.offsets.clear();
    layout.padding.clear();
    std::uint32_t position = r;
    for (const auto& leaf : run.leaves) {
      const auto pad = static_cast<std::uint32_t>(cdr::padding_for(position, leaf.size));
      if (pad != 0) layout.padding.push_back({position - r, pad});
      position += pad;
      layout.offsets.push_back(position - r);
      position += leaf.size;
    }
    layout.size = position - r;
    layout.next = static_cast<std::uint8_t>(position & 7);
    // The padding octets, covered greedily by 8-octet windows that stay inside the element.
    layout.padding_windows.clear();
    if (layout.size >= 8) {
      std::vector<bool> padded(layout.size, false);
      for (const auto& gap : layout.padding)
        for (std::uint32_t k = 0; k < gap.length; ++k) padded[gap.offset + k] = true;
      for (std::uint32_t b = 0; b < layout.size; ++b) {
        if (!padded[b]) continue;
        const std::uint32_t start = std::min(b, layout.size - 8);
        // The mask in memory order: octet k of the window is octet k of the mask, in either byte order.
        std::byte keep_octets[8];
        for (std::uint32_t k = 0; k < 8; ++k) {
          keep_octets[k] = padded[start + k] ? std::byte{0} : std::byte{0xff};
          padded[start + k] = false;
        }
        std::uint64_t keep;
        std::memcpy(&keep, keep_octets, 8);
        layout.padding_windows.push_back({start, keep});
        b = start + 7;
      }
    }
  }
  // From each residue, the residues of successive elements until one comes back.
  for (std::uint32_t r = 0; r < 8; ++r) {
    value_run::span_table& table = run.spans[r];
    std::int32_t seen_at[8];
    std::fill(std::begin(seen_at), std::end(seen_at), -1);
    std::uint32_t residue = r;
    table.octets[0] = 0;
    for (std::uint32_t k = 0; k < 9; ++k) {
      if (seen_at[residue] >= 0) {
        table.lead = static_cast<std::uint8_t>(seen_at[residue]);
        table.period = static_cast<std::uint8_t>(k - seen_at[residue]);
        break;
      }
      seen_at[residue] = static_cast<std::int32_t>(k);
      table.octets[k + 1] = table.octets[k] + run.layouts[residue].size;
      residue = run.layouts[residue].next;
    }
  }
}

class plan_builder {
 public:
  explicit plan_builder(compiled_plan& out) : out_(out) {}

  const value_plan* build(const type_code_node& raw, int depth) {
    if (depth > max_plan_depth) bad_typecode("TypeCode nested deeper than " + std::to_string(max_plan_depth));
    const type_code_node& n = unalias(raw);
    for (const auto& [node, plan] : seen_)
      if (node == &n) return plan;
    if (const std::uint8_t size = primitive_size(n.kind)) {
      value_plan* p = add(n, plan_step::run);
      run_leaf leaf{size};
      if (n.kind == tc_kind::tk_boolean) leaf.what = run_leaf::check::boolean;
      if (n.kind == tc_kind::tk_enum) {
        leaf.what = run_leaf::check::enumerator;
        leaf.enumerators = static_cast<std::uint32_t>(n.member_names.size());
      }
      p->run.leaves.push_back(leaf);
      p->run.primitive = true;
      lay_out(p->run);
      p->least_size = size;
      return p;
    }
    switch (n.kind) {
      case tc_kind::tk_null:
      case tc_kind::tk_void:
        return add(n, plan_step::nothing);
      case tc_kind::tk_wchar:
        return simple(n, plan_step::wchar, 1, false);
      case tc_kind::tk_longdouble:
        return simple(n, plan_step::long_double, 16, true);
      case tc_kind::tk_fixed: {
        value_plan* p = simple(n, plan_step::fixed_point, (n.digits + 2u) / 2u, true);
        p->digits = n.digits;
        return p;
      }
      case tc_kind::tk_string: {
        value_plan* p = simple(n, plan_step::string, 4, true);
        p->bound = n.length;
        return p;
      }
      case tc_kind::tk_wstring: {
        value_plan* p = simple(n, plan_step::wstring, 4, false);
        p->bound = n.length;
        return p;
      }
      case tc_kind::tk_any: {
        value_plan* p = simple(n, plan_step::any, 4, false);
        p->holds_values = true;
        return p;
      }
      case tc_kind::tk_TypeCode:
        return simple(n, plan_step::type_code, 4, true);
      case tc_kind::tk_Principal:
        return simple(n, plan_step::principal, 4, true);
      case tc_kind::tk_objref:
        return simple(n, plan_step::object_reference, 8, true);
      case tc_kind::tk_abstract_interface: {
        value_plan* p = simple(n, plan_step::abstract_interface, 5, false);
        p->holds_values = true;
        p->parts.push_back(any_value());
        return p;
      }
      case tc_kind::tk_struct:
      case tc_kind::tk_except:
        return build_members(n, depth);
      case tc_kind::tk_union:
        return build_union(n, depth);
      case tc_kind::tk_sequence:
      case tc_kind::tk_array:
        return build_sequence(n, depth);
      case tc_kind::tk_value:
      case tc_kind::tk_value_box:
        return build_value(n, depth);
      default:
        bad_typecode("no value of " + std::string(to_string(n.kind)));
    }
  }

 private:
  value_plan* add(const type_code_node& n, plan_step step) {
    out_.steps.push_back(std::make_unique<value_plan>());
    value_plan* p = out_.steps.back().get();
    p->step = step;
    seen_.emplace_back(&n, p);
    return p;
  }

  value_plan* simple(const type_code_node& n, plan_step step, std::uint64_t least, bool neutral) {
    value_plan* p = add(n, step);
    p->least_size = least;
    p->version_neutral = neutral;
    return p;
  }

  // ValueBase: any value, read by its own factory (an abstract interface's value; not registered:
  // no node is it).
  value_plan* any_value() {
    out_.steps.push_back(std::make_unique<value_plan>());
    value_plan* p = out_.steps.back().get();
    p->step = plan_step::value;
    p->least_size = 4;
    p->version_neutral = false;
    p->holds_values = true;
    p->truncatable_ids.push_back(value_base::_static_repository_id());
    return p;
  }

  // A run of its own for leaves gathered from several members (not registered: no node is it).
  value_plan* new_run(std::vector<run_leaf> leaves) {
    out_.steps.push_back(std::make_unique<value_plan>());
    value_plan* p = out_.steps.back().get();
    p->step = plan_step::run;
    p->run.leaves = std::move(leaves);
    lay_out(p->run);
    for (const auto& leaf : p->run.leaves) p->least_size += leaf.size;
    return p;
  }

  value_plan* build_members(const type_code_node& n, int depth) {
    value_plan* p = add(n, plan_step::members);
    p->exception_id = n.kind == tc_kind::tk_except;
    std::vector<run_leaf> pending;
    const value_plan* pending_alone = nullptr;  // the one member the pending leaves all come from
    auto flush = [&] {
      if (pending.empty()) return;
      p->parts.push_back(pending_alone != nullptr ? pending_alone : new_run(std::move(pending)));
      pending.clear();
      pending_alone = nullptr;
    };
    std::uint64_t least = p->exception_id ? 4 : 0;
    bool neutral = true;
    bool values = false;
    for (const auto& member : n.member_types) {
      const value_plan* m = build(member.node(), depth + 1);
      least += m->least_size;
      neutral = neutral && m->version_neutral;
      values = values || m->holds_values;
      if (m->step == plan_step::run && pending.size() + m->run.leaves.size() <= max_run_leaves) {
        pending_alone = pending.empty() ? m : nullptr;
        pending.insert(pending.end(), m->run.leaves.begin(), m->run.leaves.end());
        continue;
      }
      flush();
      if (m->step == plan_step::run) {
        pending_alone = m;
        pending = m->run.leaves;
      } else {
        p->parts.push_back(m);
      }
    }
    // Nothing but fixed-size members: the struct is one run.
    if (!p->exception_id && p->parts.empty() && !pending.empty()) {
      p->step = plan_step::run;
      p->run.leaves = std::move(pending);
      lay_out(p->run);
    } else {
      flush();
    }
    p->least_size = saturate(least);
    p->version_neutral = neutral;
    p->holds_values = values;
    return p;
  }

  value_plan* build_union(const type_code_node& n, int depth) {
    value_plan* p = add(n, plan_step::union_);
    const type_code_node& discriminator = unalias(n.content.node());
    p->discriminator = discriminator.kind;
    p->discriminator_enumerators = static_cast<std::uint32_t>(discriminator.member_names.size());
    p->labels = n.member_labels;
    p->default_index = n.default_index;
    bool neutral = discriminator.kind != tc_kind::tk_wchar;
    for (const auto& member : n.member_types) {
      const value_plan* m = build(member.node(), depth + 1);
      neutral = neutral && m->version_neutral;
      p->holds_values = p->holds_values || m->holds_values;
      p->parts.push_back(m);
    }
    p->least_size =
        discriminator.kind == tc_kind::tk_wchar ? 1 : std::max<std::uint8_t>(primitive_size(discriminator.kind), 1);
    p->version_neutral = neutral;
    return p;
  }

  value_plan* build_sequence(const type_code_node& n, int depth) {
    value_plan* p = add(n, n.kind == tc_kind::tk_sequence ? plan_step::sequence : plan_step::array);
    p->bound = n.length;
    const value_plan* element = build(n.content.node(), depth + 1);
    p->version_neutral = element->version_neutral;
    p->holds_values = element->holds_values;
    if (n.kind == tc_kind::tk_sequence) {
      p->element = element;
      p->least_size = 4;
      return p;
    }
    // An array of a short run is a longer run.
    if (element->step == plan_step::run && std::uint64_t{n.length} * element->run.leaves.size() <= max_run_leaves) {
      p->step = plan_step::run;
      for (std::uint32_t k = 0; k < n.length; ++k)
        p->run.leaves.insert(p->run.leaves.end(), element->run.leaves.begin(), element->run.leaves.end());
      if (element->run.primitive)
        for (run_leaf& leaf : p->run.leaves) leaf.in_array = true;
      lay_out(p->run);
      p->least_size = saturate(std::uint64_t{n.length} * element->least_size);
      return p;
    }
    p->element = element;
    p->least_size = saturate(std::uint64_t{n.length} * element->least_size);
    return p;
  }

  // A valuetype's state is its concrete bases' members, the farthest base's first, then its own;
  // a box's is the boxed type. Custom and abstract valuetypes keep an empty state: only their
  // factories can read them.
  value_plan* build_value(const type_code_node& n, int depth) {
    value_plan* p = add(n, plan_step::value);
    p->least_size = 4;  // a null value
    p->version_neutral = false;
    p->holds_values = true;
    p->truncatable_ids.push_back(n.id);
    if (n.kind == tc_kind::tk_value_box) {
      p->dynamic_state = true;
      p->parts.push_back(build(n.content.node(), depth + 1));
      return p;
    }
    const auto modifier = static_cast<value_modifier>(n.modifier);
    // ValueBase (any value at all) says nothing of the state either.
    p->dynamic_state = (modifier == value_modifier::none || modifier == value_modifier::truncatable) &&
                       n.id != value_base::_static_repository_id();
    if (!p->dynamic_state) return p;
    std::vector<const type_code_node*> chain{&n};
    for (const type_code_node* v = &n; unalias(v->content.node()).kind == tc_kind::tk_value;) {
      if (chain.size() > static_cast<std::size_t>(max_plan_depth))
        bad_typecode("valuetype " + n.id + " has more than " + std::to_string(max_plan_depth) + " concrete bases");
      const type_code_node* base = &unalias(v->content.node());
      // The ids a receiver may truncate to go on while each type is truncatable to the next.
      if (static_cast<value_modifier>(v->modifier) == value_modifier::truncatable &&
          p->truncatable_ids.size() == chain.size())
        p->truncatable_ids.push_back(base->id);
      chain.push_back(base);
      v = base;
    }
    for (auto at = chain.rbegin(); at != chain.rend(); ++at)
      for (const auto& member : (*at)->member_types) p->parts.push_back(build(member.node(), depth + 1));
    return p;
  }

  compiled_plan& out_;
  std::vector<std::pair<const type_code_node*, value_plan*>> seen_;
};

// ------------------------------------------------------------------------------------ running

// The octets `count` elements of `run` take from residue `r` on (value_run::spans).
inline std::uint64_t span_of(const value_run& run, std::uint32_t r, std::uint64_t count) {
  const value_run::span_table& t = run.spans[r];
  if (count <= std::uint64_t{t.lead} + t.period) return t.octets[count];
  const std::uint64_t periods = (count - t.lead) / t.period;
  const std::uint64_t rest = (count - t.lead) % t.period;
  return t.octets[t.lead] + periods * (t.octets[t.lead + t.period] - t.octets[t.lead]) +
         (t.octets[t.lead + rest] - t.octets[t.lead]);
}

// Whether any element from residue `r` on has padding to zero.
bool has_gaps(const value_run& run, std::uint32_t r) {
  for (int k = 0; k < 9; ++k) {
    if (!run.layouts[r].padding.empty()) return true;
    r = run.layouts[r].next;
  }
  return false;
}

inline void zero(std::byte* p, std::uint32_t n) {
  for (std::uint32_t i = 0; i < n; ++i) p[i] = std::byte{0};
}

// Zeroes the padding of one element laid out by `layout` at `at`.
inline void zero_padding(const run_layout& layout, std::byte* at) {
  if (layout.padding_windows.empty()) {
    for (const auto& gap : layout.padding) zero(at + gap.offset, gap.length);
    return;
  }
  for (const auto& w : layout.padding_windows) {
    std::uint64_t word;
    std::memcpy(&word, at + w.offset, 8);
    word &= w.keep;
    std::memcpy(at + w.offset, &word, 8);
  }
}

// The depth of the runner that is reading a value on this thread: a dynamic_value's state is
// copied by a runner of its own (through orb/value's reader), which starts there, so that values
// and the structs inside them together nest no deeper than max_value_depth.
thread_local int value_state_depth = 0;

struct nesting_depth {
  explicit nesting_depth(int depth) noexcept : saved(std::exchange(value_state_depth, depth)) {}
  ~nesting_depth() { value_state_depth = saved; }
  nesting_depth(const nesting_depth&) = delete;
  nesting_depth& operator=(const nesting_depth&) = delete;
  int saved;
};

class plan_runner {
 public:
  plan_runner(cdr::input_stream& in, cdr::output_stream* out, copy_mode mode,
              const std::shared_ptr<const type_code_node>& owner, state_values values = {})
      : in_(in), out_(out), mode_(mode), owner_(&owner), values_(values) {}

  void copy(const value_plan& p, int depth) {
    if (depth > max_value_depth)
      in_.throw_marshal(minor::typecode_too_deep, "value nested deeper than " + std::to_string(max_value_depth));
    switch (p.step) {
      case plan_step::nothing:
        return;
      case plan_step::run:
        copy_runs(p.run, 1);
        return;
      case plan_step::wchar: {
        const char16_t v = in_.read_wchar();
        if (out_) out_->write_wchar(v);
        return;
      }
      case plan_step::long_double: {
        // Copied bit for bit: converting through the native long double would lose precision.
        const std::byte* src = in_.take_aligned(8, 16);
        if (out_) {
          std::byte* dst = out_->reserve_aligned(8, 16);
          for (int i = 0; i < 16; ++i) dst[i] = in_.swapping() ? src[15 - i] : src[i];
        }
        return;
      }
      case plan_step::fixed_point: {
        const std::size_t octets = (p.digits + 2u) / 2u;
        const std::byte* src = in_.take(octets);
        // Checks the nibbles (MARSHAL bad_fixed); the scale does not matter for that.
        (void)fixed::from_packed(reinterpret_cast<const std::uint8_t*>(src), p.digits, 0);
        if (out_) out_->write_octets(src, octets);
        return;
      }
      case plan_step::string: {
        const std::string_view s = in_.read_string_view();
        if (p.bound != 0 && s.size() > p.bound)
          in_.throw_marshal(minor::length_over_limit,
                            "string of " + std::to_string(s.size()) + " beyond its bound " + std::to_string(p.bound));
        if (out_) out_->write_string(s);
        return;
      }
      case plan_step::wstring: {
        const std::u16string s = in_.read_wstring();
        if (p.bound != 0 && s.size() > p.bound)
          in_.throw_marshal(minor::length_over_limit,
                            "wstring of " + std::to_string(s.size()) + " beyond its bound " + std::to_string(p.bound));
        if (out_) out_->write_wstring(s);
        return;
      }
      case plan_step::any: {
        const type_code inner = read_type_code(in_);
        if (out_) write_type_code(*out_, inner);
        // The values inside are made from the inner TypeCode's plan, which it keeps alive.
        const std::shared_ptr<const type_code_node>* outer = std::exchange(owner_, &inner.shared_node());
        copy(plan_of(inner.node()), depth + 1);
        owner_ = outer;
        return;
      }
      case plan_step::value: {
        value_ref<value_base> value;
        if (values_.from != nullptr) {
          if (next_value_ >= values_.from->size())
            in_.throw_marshal(minor::bad_value, "a value's state holds fewer values than its type says");
          value = (*values_.from)[next_value_++];
        } else {
          // The value's state is copied by a runner of its own, which goes on from this depth.
          const nesting_depth nested(depth);
          value = read_value_as(p, *owner_, in_);
        }
        if (values_.into != nullptr) values_.into->push_back(std::move(value));
        else if (out_) write_value(*out_, value);
        return;
      }
      case plan_step::type_code: {
        const type_code inner = read_type_code(in_);
        if (out_) write_type_code(*out_, inner);
        return;
      }
      case plan_step::principal: {
        const std::uint32_t count = in_.read_length(1);
        if (out_) out_->write_ulong(count);
        copy_octets(count);
        return;
      }
      case plan_step::object_reference:
        copy_object_reference();
        return;
      case plan_step::abstract_interface: {
        const bool is_object = in_.read_boolean();
        if (out_) out_->write_boolean(is_object);
        if (is_object) copy_object_reference();
        else copy(*p.parts.front(), depth + 1);
        return;
      }
      case plan_step::members:
        if (p.exception_id) {
          const std::string_view id = in_.read_string_view();
          if (out_) out_->write_string(id);
        }
        for (const value_plan* part : p.parts) copy(*part, depth + 1);
        return;
      case plan_step::union_: {
        const std::int64_t label = copy_discriminator(p);
        std::int32_t chosen = p.default_index;
        for (std::size_t k = 0; k < p.labels.size(); ++k)
          if (static_cast<std::int32_t>(k) != p.default_index && p.labels[k] == label) {
            chosen = static_cast<std::int32_t>(k);
            break;
          }
        if (chosen >= 0) copy(*p.parts[static_cast<std::size_t>(chosen)], depth + 1);
        return;
      }
      case plan_step::sequence:
      case plan_step::array: {
        const bool runs = p.element->step == plan_step::run;
        const auto least = static_cast<std::size_t>(std::max<std::uint64_t>(p.element->least_size, 1));
        std::uint32_t count = p.bound;
        if (p.step == plan_step::sequence) {
          count = in_.read_length(least);
          if (p.bound != 0 && count > p.bound)
            in_.throw_marshal(minor::length_over_limit,
                              "sequence of " + std::to_string(count) + " beyond its bound " + std::to_string(p.bound));
          if (out_) out_->write_ulong(count);
        } else {
          in_.check_length(count, least);
        }
        if (runs) {
          copy_runs(p.element->run, count, p.element->run.primitive);
          return;
        }
        for (std::uint32_t k = 0; k < count; ++k) copy(*p.element, depth + 1);
        return;
      }
    }
  }

 private:
  // An IOR: type id, then tagged profiles (tag, octets).
  void copy_object_reference() {
    const std::string_view type_id = in_.read_string_view();
    if (out_) out_->write_string(type_id);
    const std::uint32_t profiles = in_.read_length(8);
    if (out_) out_->write_ulong(profiles);
    for (std::uint32_t k = 0; k < profiles; ++k) {
      const std::uint32_t tag = in_.read_ulong();
      const std::uint32_t octets = in_.read_length(1);
      if (out_) {
        out_->write_ulong(tag);
        out_->write_ulong(octets);
      }
      copy_octets(octets);
    }
  }

  void copy_octets(std::uint32_t count) {
    const std::byte* src = in_.take(count);
    if (out_) out_->write_octets(src, count);
  }

  std::int64_t copy_discriminator(const value_plan& p) {
    switch (p.discriminator) {
      case tc_kind::tk_short: {
        auto v = in_.read_short();
        if (out_) out_->write_short(v);
        return v;
      }
      case tc_kind::tk_ushort: {
        auto v = in_.read_ushort();
        if (out_) out_->write_ushort(v);
        return v;
      }
      case tc_kind::tk_long: {
        auto v = in_.read_long();
        if (out_) out_->write_long(v);
        return v;
      }
      case tc_kind::tk_ulong: {
        auto v = in_.read_ulong();
        if (out_) out_->write_ulong(v);
        return v;
      }
      case tc_kind::tk_longlong: {
        auto v = in_.read_longlong();
        if (out_) out_->write_longlong(v);
        return v;
      }
      case tc_kind::tk_ulonglong: {
        auto v = in_.read_ulonglong();
        if (out_) out_->write_ulonglong(v);
        return static_cast<std::int64_t>(v);
      }
      case tc_kind::tk_boolean: {
        bool v = in_.read_boolean();
        if (out_) out_->write_boolean(v);
        return v ? 1 : 0;
      }
      case tc_kind::tk_char: {
        char v = in_.read_char();
        if (out_) out_->write_char(v);
        return static_cast<unsigned char>(v);
      }
      case tc_kind::tk_octet: {
        auto v = in_.read_octet();
        if (out_) out_->write_octet(v);
        return v;
      }
      case tc_kind::tk_wchar: {
        char16_t v = in_.read_wchar();
        if (out_) out_->write_wchar(v);
        return v;
      }
      case tc_kind::tk_enum: {
        auto v = in_.read_ulong();
        if (v >= p.discriminator_enumerators)
          in_.throw_marshal(minor::bad_enum, "discriminator enumerator " + std::to_string(v));
        if (out_) out_->write_ulong(v);
        return v;
      }
      default:
        in_.throw_marshal(minor::bad_typecode, "union discriminator of " + std::string(to_string(p.discriminator)));
    }
  }

  // Booleans 0 or 1, enumerators in range: the leaves of one element at `at`.
  void check_leaves(const value_run& run, const run_layout& layout, const std::byte* at, bool swap) {
    for (const std::uint32_t i : run.checked_leaves) {
      const run_leaf& leaf = run.leaves[i];
      const std::byte* p = at + layout.offsets[i];
      if (leaf.what == run_leaf::check::boolean) {
        const auto v = std::to_integer<std::uint8_t>(*p);
        if (v > 1) in_.throw_marshal(minor::bad_boolean, "boolean octet " + std::to_string(v));
      } else {
        const auto v = cdr::load<std::uint32_t>(p, swap);
        if (v >= leaf.enumerators)
          in_.throw_marshal(minor::bad_enum,
                            "enumerator " + std::to_string(v) + " of " + std::to_string(leaf.enumerators));
      }
    }
  }

  // `count` elements of a run, each primitive read on its own (kept out of copy_runs' loops).
  [[gnu::cold, gnu::noinline]] void copy_leaf_by_leaf(const value_run& run, std::uint32_t count, bool swap,
                                                      bool array_of_primitives) {
    // An array's 8-octet element read in the next GIOP 1.1 Fragment: its sender may have written
    // the array as one block or element by element (cdr::input_stream::read_array).
    const cdr::chunk_continuation* pieces = in_.continuation();
    const bool guard = pieces != nullptr && pieces->wide_arrays_ambiguous();
    for (std::uint32_t k = 0; k < count; ++k)
      for (const run_leaf& leaf : run.leaves) {
        const std::size_t end = in_.end_position();
        const std::byte* s = in_.take_aligned(leaf.size, leaf.size);
        if (guard && leaf.size == 8 && (leaf.in_array || array_of_primitives) && in_.end_position() != end)
          in_.throw_marshal(minor::split_between_chunks, "an array of 8-octet primitives goes on in the next of the " +
                                                             std::string(pieces->pieces()) +
                                                             ", where its sender may have realigned it or not");
        std::uint64_t v = 0;
        switch (leaf.size) {
          case 1:
            v = std::to_integer<std::uint8_t>(*s);
            break;
          case 2:
            v = cdr::load<std::uint16_t>(s, swap);
            break;
          case 4:
            v = cdr::load<std::uint32_t>(s, swap);
            break;
          default:
            v = cdr::load<std::uint64_t>(s, swap);
            break;
        }
        if (mode_.check && leaf.what == run_leaf::check::boolean && v > 1)
          in_.throw_marshal(minor::bad_boolean, "boolean octet " + std::to_string(v));
        if (mode_.check && leaf.what == run_leaf::check::enumerator && v >= leaf.enumerators)
          in_.throw_marshal(minor::bad_enum,
                            "enumerator " + std::to_string(v) + " of " + std::to_string(leaf.enumerators));
        if (out_ == nullptr) continue;
        std::byte* d = out_->reserve_aligned(leaf.size, leaf.size);
        switch (leaf.size) {
          case 1:
            *d = static_cast<std::byte>(v);
            break;
          case 2:
            cdr::store(d, static_cast<std::uint16_t>(v));
            break;
          case 4:
            cdr::store(d, static_cast<std::uint32_t>(v));
            break;
          default:
            cdr::store(d, v);
            break;
        }
      }
  }

  // `count` elements of a run: one block when the layouts agree, leaf by leaf when not.
  void copy_runs(const value_run& run, std::uint32_t count, bool array_of_primitives = false) {
    // No elements, no padding: alignment belongs to the primitives, and there are none.
    if (count == 0) return;
    const bool swap = in_.swapping();
    in_.align(run.first_alignment);
    const auto rs = static_cast<std::uint32_t>(in_.aligned_position() & 7);
    // Not all here: a value's state that its sender split between chunks (reads of single
    // primitives go on into the next one), or a stream too short (they raise MARSHAL).
    const std::uint64_t total = span_of(run, rs, count);
    if (in_.remaining() < total) [[unlikely]] {
      copy_leaf_by_leaf(run, count, swap, array_of_primitives);
      return;
    }
    if (out_ == nullptr) {
      const std::byte* src = in_.take_struct(total);
      if (mode_.check && run.checked) {
        std::uint32_t r = rs;
        for (std::uint32_t k = 0; k < count; ++k) {
          check_leaves(run, run.layouts[r], src, swap);
          src += run.layouts[r].size;
          r = run.layouts[r].next;
        }
      }
      return;
    }
    out_->align(run.first_alignment);
    const auto rd = static_cast<std::uint32_t>(out_->aligned_position() & 7);
    if (((rs ^ rd) & (run.alignment - 1u)) == 0 && !swap) {
      const std::byte* src = in_.take_struct(total);
      const bool fix_padding = mode_.zero_padding && has_gaps(run, rd);
      const bool check = mode_.check && run.checked;
      if (!fix_padding && !check) {
        // From a canonical value we made (or one as long as an external chunk): one block, which
        // the request stream may send without copying (the Any outlives the send).
        out_->write_octets(src, total);
        return;
      }
      std::byte* dst = out_->reserve_aligned(1, total);
      std::memcpy(dst, src, total);
      std::uint32_t r = rd;
      for (std::uint32_t k = 0; k < count; ++k) {
        const run_layout& layout = run.layouts[r];
        if (fix_padding) zero_padding(layout, dst);
        if (check) check_leaves(run, layout, dst, false);
        dst += layout.size;
        r = layout.next;
      }
      return;
    }
    std::uint32_t r_in = rs;
    std::uint32_t r_out = rd;
    for (std::uint32_t k = 0; k < count; ++k) {
      const run_layout& from = run.layouts[r_in];
      const run_layout& to = run.layouts[r_out];
      const std::byte* src = in_.take_struct(from.size);
      if (mode_.check && run.checked) check_leaves(run, from, src, swap);
      std::byte* dst = out_->reserve_aligned(1, to.size);
      for (const auto& gap : to.padding) zero(dst + gap.offset, gap.length);
      for (std::size_t i = 0; i < run.leaves.size(); ++i) {
        const std::byte* s = src + from.offsets[i];
        std::byte* d = dst + to.offsets[i];
        switch (run.leaves[i].size) {
          case 1:
            *d = *s;
            break;
          case 2:
            cdr::store(d, cdr::load<std::uint16_t>(s, swap));
            break;
          case 4:
            cdr::store(d, cdr::load<std::uint32_t>(s, swap));
            break;
          default:
            cdr::store(d, cdr::load<std::uint64_t>(s, swap));
            break;
        }
      }
      r_in = from.next;
      r_out = to.next;
    }
  }

  cdr::input_stream& in_;
  cdr::output_stream* out_;
  copy_mode mode_;
  const std::shared_ptr<const type_code_node>* owner_;  // keeps the plans of the values made alive
  state_values values_;
  std::size_t next_value_ = 0;  // in values_.from
};

}  // namespace

const value_plan& plan_of(const type_code_node& node) {
  const type_code_node& n = resolve(node);
  if (const compiled_plan* built = n.plan.load(std::memory_order_acquire)) [[likely]]
    return *built->root;
  auto fresh = std::make_unique<compiled_plan>();
  plan_builder builder(*fresh);
  fresh->root = builder.build(n, 0);
  const compiled_plan* expected = nullptr;
  // Another thread may have built it meanwhile: the first one stays, ours goes.
  if (n.plan.compare_exchange_strong(expected, fresh.get(), std::memory_order_acq_rel)) return *fresh.release()->root;
  return *expected->root;
}

void release_plan(const compiled_plan* plan) noexcept { delete plan; }

void run_plan(const value_plan& plan, const type_code& type, cdr::input_stream& in, cdr::output_stream* out,
              copy_mode mode) {
  plan_runner runner(in, out, mode, type.shared_node());
  if (!plan.holds_values) {
    runner.copy(plan, 0);
    return;
  }
  // One scope each way for the whole value: sharing between its values, and indirections, stay
  // inside it (or join the message's, when one is open on the stream). The values are read only
  // to be copied: the scope unlinks them when it ends, so that a cyclic graph is freed (the
  // writer keeps each one it wrote alive while its scope lasts).
  value_input_scope reading(in);
  const std::size_t before = reading.values_read();
  if (out == nullptr) {
    runner.copy(plan, 0);
  } else {
    value_output_scope writing(*out);
    runner.copy(plan, 0);
  }
  reading.copied_only_since(before);
}

void run_value_state(const value_plan& value_step, const std::shared_ptr<const type_code_node>& owner,
                     cdr::input_stream& in, cdr::output_stream& out, copy_mode mode, state_values values) {
  plan_runner runner(in, &out, mode, owner, values);
  for (const value_plan* part : value_step.parts) runner.copy(*part, value_state_depth + 1);
}

}  // namespace switchyard::detail
