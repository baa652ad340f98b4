// syidl -H perfect-fast: an interface's operation names to a perfect-fast lookup (demux's
// generator, demux/fast_lookup_source.h) instead of gperf's, the same shape as gperf_driver.h's,
// for the C++ back end to put into X.cpp. Includes only the standard library; links
// demux_generator_dep (standard library only, not the ORB).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace switchyard::idl {

// Code defining, in the current scope, a class `class_name` with
//   static int index_of(const char* name, std::size_t length) noexcept;  // index in keys or -1
// (and key_count, key_at), over `keys` as bytes (operation names), distinct. It needs <cstddef>,
// <cstdint>, <cstring> and <string_view>. nullopt and `error` set when the keys are refused.
std::optional<std::string> make_fast_lookup(const std::string& class_name, const std::vector<std::string>& keys,
                                            std::string& error);

}  // namespace switchyard::idl
