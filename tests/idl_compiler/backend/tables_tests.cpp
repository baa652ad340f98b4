// Operation tables: IDL order (inherited operations first, attributes as _get_/_set_), repository
// ids for _is_a, and the gperf perfect hash agreeing with the order, for 4, 100 and 708 operations
// (alpha_increment_ops.idl: names that make gperf 3.1 cut its hash index to 8 bits).
#include "alpha_increment_ops.h"
#include "constructs.h"
#include "ops100.h"
#include "ttcp_sequence.h"
#ifdef SYIDL_HAVE_COS_NAMING
#include "CosNaming.h"
#endif

#include <catch2/catch.hpp>

#include <cstddef>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

std::vector<std::string> names_of(const switchyard::interface_info& info) {
  std::vector<std::string> names;
  for (const auto& op : info.operations) names.emplace_back(op.name);
  return names;
}

void check_perfect_hash(const switchyard::interface_info& info) {
  REQUIRE(info.perfect_lookup != nullptr);
  for (std::size_t k = 0; k < info.operations.size(); ++k) {
    const auto name = info.operations[k].name;
    CHECK(info.perfect_lookup(name.data(), name.size()) == static_cast<int>(k));
    CHECK(info.operations[k].skeleton != nullptr);
  }
  for (std::string bad : {"", "x", "op_100", "sendNoParams_2wa", "_get_", "sendNoParams_2wayy"})
    CHECK(info.perfect_lookup(bad.data(), bad.size()) == -1);
}

// Every operation is found by its own name and only by it: each name with one byte replaced by
// any of the 256 (bad input included), cut short by one or one byte longer finds -1, or the
// operation that has exactly that name. Counts failures so that a broken table reports once.
void check_found_only_by_own_name(const switchyard::interface_info& info) {
  REQUIRE(info.perfect_lookup != nullptr);
  std::unordered_map<std::string, int> index_of;
  for (std::size_t k = 0; k < info.operations.size(); ++k)
    index_of.emplace(std::string(info.operations[k].name), static_cast<int>(k));
  auto expected = [&](const std::string& name) {
    auto it = index_of.find(name);
    return it == index_of.end() ? -1 : it->second;
  };
  std::size_t not_found = 0, wrongly_found = 0;
  std::string first_problem;
  auto check = [&](const std::string& name, std::size_t& failures) {
    if (info.perfect_lookup(name.data(), name.size()) == expected(name)) return;
    if (failures++ == 0 && first_problem.empty()) first_problem = name;
  };
  for (const auto& [own, k] : index_of) {
    check(own, not_found);
    for (std::size_t at = 0; at < own.size(); ++at) {
      std::string other = own;
      for (int byte = 0; byte < 256; ++byte) {
        other[at] = static_cast<char>(byte);
        if (other != own) check(other, wrongly_found);
      }
    }
    check(own.substr(0, own.size() - 1), wrongly_found);
    check(own + own.back(), wrongly_found);
  }
  INFO("first problem: " << first_problem);
  CHECK(not_found == 0);
  CHECK(wrongly_found == 0);
}

}  // namespace

TEST_CASE("ttcp_sequence's table is the IDL order with a perfect hash", "[idl_compiler][backend]") {
  const auto& info = ttcp_sequence_skeleton::_info;
  CHECK(info.repository_id == "IDL:ttcp_sequence:1.0");
  CHECK(names_of(info) ==
        std::vector<std::string>{"sendStructSeq_2way", "sendOctetSeq_2way", "sendNoParams_2way", "sendNoParams_1way"});
  check_perfect_hash(info);
  check_found_only_by_own_name(info);
}

TEST_CASE("100 operations: every name found at its index", "[idl_compiler][backend]") {
  const auto& info = demux_ops_skeleton::_info;
  REQUIRE(info.operations.size() == 100);
  for (std::size_t k = 0; k < 100; ++k) CHECK(info.operations[k].name == "op_" + std::to_string(k));
  check_perfect_hash(info);
  check_found_only_by_own_name(info);
}

TEST_CASE("gperf's 8-bit index truncation: 708 names needing an alpha increment >= 146 all found",
          "[idl_compiler][backend]") {
  // gperf 3.1 writes asso_values[static_cast<unsigned char>(str[i]+inc)]: without syidl's fix,
  // about half of these names hashed to the wrong slot and were not found.
  const auto& info = alpha_increment_ops_skeleton::_info;
  REQUIRE(info.operations.size() == 708);
  CHECK(info.operations.front().name == "k0ym");
  check_found_only_by_own_name(info);  // counts: 309 names were not found before the fix
}

TEST_CASE("inheritance: bases' operations first, each base once, ids of all", "[idl_compiler][backend]") {
  const auto& info = Constructs::Derived_skeleton::_info;
  CHECK(names_of(info) == std::vector<std::string>{"base_op", "_get_base_attr", "_set_base_attr",  // Base (once)
                                                   "middle_op",                                    // Middle
                                                   "_get_name",                                    // Other (readonly)
                                                   "notify", "inout_out", "echo_outer", "echo_everything",
                                                   "echo_inners", "echo_flats", "echo_few", "with_context", "self"});
  std::vector<std::string> ids(info.repository_ids.begin(), info.repository_ids.end());
  CHECK(ids == std::vector<std::string>{"IDL:Constructs/Derived:1.0", "IDL:Constructs/Base:1.0",
                                        "IDL:Constructs/Middle:1.0", "IDL:Constructs/Other:1.0"});
  check_perfect_hash(info);
  check_found_only_by_own_name(info);
  // A derived stub converts to its bases' stubs.
  Constructs::Derived d;
  Constructs::Base b = d;
  CHECK(b._is_nil());
}

TEST_CASE("dispatch functions are named after their operations, and never clash", "[idl_compiler][backend]") {
  const auto& info = Constructs::Collide_skeleton::_info;
  CHECK(names_of(info) == std::vector<std::string>{"_get_tally", "_set_tally", "get_tally"});
  // _dispatch_get_tally, _dispatch_set_tally, _dispatch_get_tally_2: three functions.
  CHECK(info.operations[0].skeleton != info.operations[1].skeleton);
  CHECK(info.operations[0].skeleton != info.operations[2].skeleton);
  CHECK(info.operations[1].skeleton != info.operations[2].skeleton);
  check_found_only_by_own_name(info);
}

#ifdef SYIDL_HAVE_COS_NAMING
TEST_CASE("CosNaming compiles; its tables carry omg.org ids", "[idl_compiler][backend]") {
  const auto& info = CosNaming::NamingContextExt_skeleton::_info;
  CHECK(info.repository_id == "IDL:omg.org/CosNaming/NamingContextExt:1.0");
  CHECK(info.operations.size() == 14);  // 10 of NamingContext, 4 of its own
  check_perfect_hash(info);
  check_found_only_by_own_name(info);
  CosNaming::NameComponent c{"id", "kind"};
  CHECK(c == CosNaming::NameComponent{"id", "kind"});
}
#endif
