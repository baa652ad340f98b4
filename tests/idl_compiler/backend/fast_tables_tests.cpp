// syidl -H perfect-fast: the interfaces' perfect lookups made by the perfect-fast hash (demux's
// generator) instead of gperf, for 4, 100 and 708 operations (the 708 that drove gperf 3.1 to its
// 8-bit truncation): every name found at its index and only by itself, against every one-byte
// change, a byte less and a byte more; no operation indices in the stubs (as -H perfect).
#include "alpha_increment_ops.h"
#include "ops100.h"
#include "ttcp_sequence.h"

#include <catch2/catch.hpp>

#include <cstddef>
#include <string>
#include <unordered_map>

namespace {

void check_found_only_by_own_name(const switchyard::interface_info& info) {
  REQUIRE(info.perfect_lookup != nullptr);
  std::unordered_map<std::string, int> index_of;
  for (std::size_t k = 0; k < info.operations.size(); ++k)
    index_of.emplace(std::string(info.operations[k].name), static_cast<int>(k));
  auto expected = [&](const std::string& name) {
    auto it = index_of.find(name);
    return it == index_of.end() ? -1 : it->second;
  };
  std::size_t wrong = 0;
  std::string first_problem;
  auto check = [&](const std::string& name) {
    if (info.perfect_lookup(name.data(), name.size()) == expected(name)) return;
    if (wrong++ == 0) first_problem = name;
  };
  for (const auto& [own, k] : index_of) {
    check(own);
    for (std::size_t at = 0; at < own.size(); ++at) {
      std::string other = own;
      for (int byte = 0; byte < 256; ++byte) {
        other[at] = static_cast<char>(byte);
        check(other);
      }
    }
    check(own.substr(0, own.size() - 1));
    check(own + own.back());
  }
  for (std::string stranger : {std::string(), std::string("x"), std::string("op_100"), std::string(300, 'k')})
    check(stranger);
  INFO("first problem: " << first_problem);
  CHECK(wrong == 0);
}

}  // namespace

TEST_CASE("-H perfect-fast: every operation found by its own name only", "[idl_compiler][backend]") {
  check_found_only_by_own_name(ttcp_sequence_skeleton::_info);
  check_found_only_by_own_name(demux_ops_skeleton::_info);
  REQUIRE(alpha_increment_ops_skeleton::_info.operations.size() == 708);
  check_found_only_by_own_name(alpha_increment_ops_skeleton::_info);
}
