// Value plans: a TypeCode analysed once into what copying one of its values takes, so that an Any
// is not interpreted kind by kind for every value (docs/marshal.md, "Any"). Internal to
// orb/dynamic.
//
// A plan is a tree of steps. Members that have a fixed CDR size (primitives, enums, structs and
// short arrays of them) are merged into runs: a run knows where each of its leaves lies for each
// start position modulo 8, so a run, or a sequence of runs, is copied with one memcpy whenever
// source and destination sit at the same position modulo the run's alignment in the same byte
// order, and leaf by leaf (swapping) otherwise. Reading checks what CDR allows to be wrong
// (booleans, enumerators, lengths, bounds, discriminators) and zeroes the padding it copied.
// Strings, unions, Anys, TypeCodes and the rest are steps of their own.
//
// A plan is built on first use and kept with its TypeCode's description (type_code_node), which
// it outlives never: it holds no pointer to a TypeCode, only what it copied out of one.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "switchyard/cdr/input_stream.h"
#include "switchyard/cdr/output_stream.h"
#include "switchyard/type_code.h"
#include "switchyard/value.h"

namespace switchyard::detail {

struct type_code_node;

// One primitive of a run: 1, 2, 4 or 8 octets (aligned to its size), and what reading it checks.
struct run_leaf {
  enum class check : std::uint8_t { none, boolean, enumerator };
  std::uint8_t size;
  check what = check::none;
  // An element of an array of primitives, which a GIOP 1.1 sender may write as one block
  // (cdr::chunk_continuation::wide_arrays_ambiguous).
  bool in_array = false;
  std::uint32_t enumerators = 0;  // check::enumerator: values below this
};

// Where a run's leaves lie when it starts at a position with a given residue modulo 8, the
// padding before its first leaf included.
struct run_layout {
  std::uint32_t size = 0;              // octets from the start to the end of the last leaf
  std::uint8_t next = 0;               // the residue where the next thing starts
  std::vector<std::uint32_t> offsets;  // of each leaf, from the start
  struct gap {
    std::uint32_t offset;
    std::uint32_t length;
  };
  std::vector<gap> padding;  // before each leaf that needs it
  // The same padding as 8-octet windows inside the element, each with a mask of the octets to
  // keep: zeroing an element's padding is a load, an and and a store per window (a BinStruct has
  // one). Empty when the element is shorter than 8 octets (then `padding` is used).
  struct window {
    std::uint32_t offset;
    std::uint64_t keep;
  };
  std::vector<window> padding_windows;
};

struct value_run {
  std::vector<run_leaf> leaves;
  std::uint8_t first_alignment = 1;           // of the first leaf
  std::uint8_t alignment = 1;                 // the largest leaf: layouts repeat modulo this
  bool checked = false;                       // some leaf is a boolean or an enumerator
  bool primitive = false;                     // the run of one primitive type's plan
  std::vector<std::uint32_t> checked_leaves;  // their indices
  std::array<run_layout, 8> layouts;
  // How many octets k elements take from each start residue, in constant time: the residues
  // repeat after `lead` elements with a period of `period` elements; `octets[k]` is the size of
  // the first k elements, for k up to lead + period.
  struct span_table {
    std::uint8_t lead = 0;
    std::uint8_t period = 1;
    std::array<std::uint64_t, 10> octets{};
  };
  std::array<span_table, 8> spans;
};

enum class plan_step : std::uint8_t {
  nothing,  // tk_null, tk_void
  run,      // fixed-size: primitives, enums, structs and arrays of them
  wchar,
  long_double,
  fixed_point,
  string,
  wstring,
  any,
  type_code,
  principal,
  object_reference,
  members,  // a struct or exception with members that are not all fixed-size
  union_,
  sequence,
  array,
  value,  // a valuetype or value box: read and written through orb/value (dynamic_value.h)
  // A boolean, then an object reference (TRUE) or a value (FALSE; its one part, any value).
  abstract_interface,
};

struct value_plan {
  plan_step step = plan_step::nothing;
  bool exception_id = false;  // members: an exception's repository id comes first
  // No wchar, wstring or Any inside: the canonical bytes are the same in every GIOP version, so a
  // canonical value at the right position is written with one copy.
  bool version_neutral = true;
  std::uint32_t bound = 0;               // string, wstring, sequence: 0 unbounded; array: its length
  std::uint16_t digits = 0;              // fixed
  std::uint64_t least_size = 0;          // the fewest octets a value takes (padding aside); 0 behind a recursion
  value_run run;                         // run; sequence and array of a run: the element's
  const value_plan* element = nullptr;   // sequence, array (nullptr when the element is a run)
  std::vector<const value_plan*> parts;  // members; union: each member's plan
  // union
  tc_kind discriminator = tc_kind::tk_long;
  std::uint32_t discriminator_enumerators = 0;
  std::vector<std::int64_t> labels;
  std::int32_t default_index = -1;
  // value: parts are its state, the members of its concrete bases first (a box: the boxed type)
  std::vector<std::string_view> truncatable_ids;  // its id, then the bases it may be truncated to
  bool dynamic_state = false;                     // not custom nor abstract: readable from the TypeCode
  // A value, or an Any (which may hold one), somewhere inside: the canonical octets are never
  // written as they are, since a value is written through the message's own value scope.
  bool holds_values = false;
};

// A plan and the plans below it, owned together.
struct compiled_plan {
  std::vector<std::unique_ptr<value_plan>> steps;
  const value_plan* root = nullptr;
};

// The plan of a TypeCode's values: built on first use, then shared (thread-safe).
const value_plan& plan_of(const type_code_node& node);
void release_plan(const compiled_plan* plan) noexcept;

// What a copy does besides copying.
struct copy_mode {
  bool check = true;         // check values (the source is not a canonical value we made)
  bool zero_padding = true;  // zero padding copied in blocks (the source may carry garbage there)
};

// Copies (out != nullptr) or reads past one value of `type`, whose plan is `plan`. Values inside
// are read through a value scope on `in` (their factories, or dynamic_value where none is
// registered) and written through one on `out`, opened here unless open already.
void run_plan(const value_plan& plan, const type_code& type, cdr::input_stream& in, cdr::output_stream* out,
              copy_mode mode);

// The state of a value (a plan_step::value), read from `in` into `out` or written from `in` to
// `out`: how a dynamic_value keeps it. `owner` keeps the plan alive (a TypeCode above it). The
// values inside the state go into `values_into` when it is not null (else to `out`), and come
// from `values_from` when it is not null (else from `in`), in the order the plan meets them.
struct state_values {
  const std::vector<value_ref<value_base>>* from = nullptr;
  std::vector<value_ref<value_base>>* into = nullptr;
};
void run_value_state(const value_plan& value_step, const std::shared_ptr<const type_code_node>& owner,
                     cdr::input_stream& in, cdr::output_stream& out, copy_mode mode, state_values values);

// Reads a value where `value_step`'s type is expected: through its factory, or as a dynamic_value
// when it has none and its state can be read from the TypeCode.
value_ref<value_base> read_value_as(const value_plan& value_step, const std::shared_ptr<const type_code_node>& owner,
                                    cdr::input_stream& in);

}  // namespace switchyard::detail
