// syidl C++ back end: sequences and arrays of a fixed-size struct marshaled as runs (docs/idl.md,
// "Marshaling"). After the first element, every element of such a run starts at the same position
// modulo the struct's alignment (the end of an element, modulo that alignment, does not depend on
// where it started), so the generated code handles the first element by itself, checks bounds
// once for the rest and copies each element's members in blocks at offsets computed here; where
// the CDR layout at that position is the C++ layout, the rest is one copy. Copies in native byte
// order only: byte-swapped input is loaded leaf by leaf at the same offsets. May include ast.h,
// cxx_emitter.h and cxx_types.h.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "idl_compiler/ast.h"
#include "idl_compiler/cxx_types.h"

namespace switchyard::idl::cxx {

struct RunPlan {
  std::string type;                 // the struct's qualified C++ name
  std::size_t first_alignment = 1;  // the first leaf's CDR alignment
  std::size_t alignment = 1;        // the largest leaf's
  bool one_phase = false;           // alignment == first_alignment: every element at phase 0
  std::size_t phase = 0;            // where every element after the first starts, modulo alignment
  std::size_t stride = 0;           // octets from one element to the next at that phase
  std::size_t tail = 0;             // the padding between two elements (not after the last)
  // Consecutive members whose CDR offsets at that phase and C++ offsets differ by the same amount:
  // one memcpy each (with the padding between them, which a write then zeroes).
  struct Copy {
    std::size_t cdr = 0, native = 0, size = 0;
  };
  std::vector<Copy> copies;
  std::vector<std::pair<std::size_t, std::size_t>> padding;  // CDR octets to zero: offset, count
  // Leaves to check when read: booleans (0 or 1) and enums (below `enumerators`).
  struct Check {
    std::size_t cdr = 0;
    std::size_t enumerators = 0;  // 0: a boolean
  };
  std::vector<Check> checks;
  // Every leaf at that phase, for input in the other byte order (loaded and swapped one by one).
  struct Load {
    std::size_t cdr = 0;
    std::string path;             // ".l", ".p.s", ".cells[1][2]"
    std::string type;             // the C++ type loaded: "std::int32_t", or the enum's
    std::size_t enumerators = 0;  // an enum's count; 0 otherwise
    bool boolean = false;
    std::size_t size = 0;  // CDR size = alignment
  };
  std::vector<Load> loads;
  bool one_block = false;  // the CDR layout at that phase is the C++ layout, stride == sizeof
  // A C++ constant expression: the C++ layout is the one the copies assume (natural alignment).
  std::string condition;
};

// The plan for a sequence or array element of type `element`, or nullopt when it is not a
// fixed-size struct (its elements then go one by one).
std::optional<RunPlan> run_plan(const TypeSpec& element);

// Statements that write elements `k` to `n` - 1 of the C++ array at `first` (names of variables
// of the generated code: a pointer, a std::size_t count, a std::size_t index), `first_element`
// being the statements (not indented) that write `first`[0] by itself. Leaves `k` at `n` when they wrote the
// elements, as it was when the C++ layout is not the one expected (the caller's element loop
// follows). Writes no padding when `n` is 0.
void write_run(std::string& code, const RunPlan& plan, const std::string& first, const std::string& n,
               const std::string& k, const std::string& first_element, const std::string& indent);
// Likewise for reading into `first`[k..n) (already sized): copies in the stream's byte order,
// loads with swaps in the other.
void read_run(std::string& code, const RunPlan& plan, const std::string& first, const std::string& n,
              const std::string& k, const std::string& first_element, const std::string& indent);

}  // namespace switchyard::idl::cxx
