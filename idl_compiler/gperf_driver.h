// syidl: runs GNU gperf at generation time over an interface's operation names and returns C++
// code for a perfect-hash lookup, as the TAO paper does for operation demultiplexing. The C++
// back end (cxx_back_end.cpp) puts the code into X.cpp. Includes only the standard library.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace switchyard::idl {

// Where gperf is: $SYIDL_GPERF if set, else the path Meson found at build time (SYIDL_GPERF),
// else "gperf" on PATH. Empty when none can be run.
std::string find_gperf();

// Code defining, in the current scope, a class `class_name` with
//   static int index_of(const char* name, std::size_t length) noexcept;  // index in keys or -1
// made by gperf (-L C++, struct entries holding the index, lengths compared before memcmp).
// Keys are identifiers (operation names) or C string literals (object ids), distinct. gperf 3.1's
// 8-bit truncation of its hash index is undone here (gperf_driver.cpp), so every key is found by
// its own lookup. nullopt and `error` set when gperf fails.
std::optional<std::string> make_gperf_lookup(const std::string& gperf, const std::string& class_name,
                                             const std::vector<std::string>& keys, std::string& error);

}  // namespace switchyard::idl
