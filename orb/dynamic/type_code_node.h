// The description behind a switchyard::type_code. Internal to orb/dynamic: the public header
// keeps it opaque so that the layout can change without touching generated code.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "switchyard/type_code.h"

namespace switchyard::detail {

struct compiled_plan;  // value_plan.h

// The TypeCode's own CDR, as write_type_code writes it at a 4-aligned position (its kind, then its
// parameters or its encapsulation): position-independent, so written again with one copy.
struct type_code_encoding {
  std::vector<std::byte> octets;
  bool wchar_labels = false;  // a union with wchar labels inside: valid for GIOP 1.2 streams only
};

struct type_code_node {
  type_code_node() = default;
  type_code_node(const type_code_node&) = delete;
  type_code_node& operator=(const type_code_node&) = delete;
  ~type_code_node();

  tc_kind kind = tc_kind::tk_null;
  std::string id, name;
  std::vector<std::string> member_names;    // struct, union, enum, except
  std::vector<type_code> member_types;      // struct, union, except
  std::vector<std::int64_t> member_labels;  // union
  std::vector<std::int16_t> visibilities;   // value
  std::int16_t modifier = 0;                // value
  type_code content;  // sequence, array, alias: element; union: discriminator; value: concrete base; value_box: boxed
  std::int32_t default_index = -1;  // union
  std::uint32_t length = 0;         // string, wstring, sequence bound; array length
  std::uint16_t digits = 0;         // fixed
  std::int16_t scale = 0;

  // A recursive reference (make_recursive, or an indirection read to an enclosing TypeCode): `id`
  // names the enclosing type, `target` is bound once that type exists. Weak: no reference cycle.
  bool placeholder = false;
  mutable std::weak_ptr<const type_code_node> target;

  // Computed on first use and kept: the plan that copies values of this type (value_plan.h), and
  // the encoding (GIOP 1.2 rules for wchar labels: a TypeCode with such labels uses it in GIOP 1.2
  // streams only). Set once with a compare-and-swap; freed with the node.
  mutable std::atomic<const compiled_plan*> plan{nullptr};
  mutable std::atomic<const type_code_encoding*> encoding{nullptr};
};

// The node a placeholder stands for (or the node itself); BAD_TYPECODE when it is unbound or its
// enclosing type is gone.
const type_code_node& resolve(const type_code_node& node);
std::shared_ptr<const type_code_node> resolve_shared(const std::shared_ptr<const type_code_node>& node);

}  // namespace switchyard::detail
