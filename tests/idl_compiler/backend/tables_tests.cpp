// Operation tables: IDL order (inherited operations first, attributes as _get_/_set_), repository
// ids for _is_a, and the gperf perfect hash agreeing with the order, for 4 and 100 operations.
#include "constructs.h"
#include "ops100.h"
#include "ttcp_sequence.h"
#ifdef SYIDL_HAVE_COS_NAMING
#include "CosNaming.h"
#endif

#include <catch2/catch.hpp>

#include <string>
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

}  // namespace

TEST_CASE("ttcp_sequence's table is the IDL order with a perfect hash", "[idl_compiler][backend]") {
  const auto& info = ttcp_sequence_skeleton::_info;
  CHECK(info.repository_id == "IDL:ttcp_sequence:1.0");
  CHECK(names_of(info) == std::vector<std::string>{"sendStructSeq_2way", "sendOctetSeq_2way",
                                                   "sendNoParams_2way", "sendNoParams_1way"});
  check_perfect_hash(info);
}

TEST_CASE("100 operations: every name found at its index", "[idl_compiler][backend]") {
  const auto& info = demux_ops_skeleton::_info;
  REQUIRE(info.operations.size() == 100);
  for (std::size_t k = 0; k < 100; ++k) CHECK(info.operations[k].name == "op_" + std::to_string(k));
  check_perfect_hash(info);
}

TEST_CASE("inheritance: bases' operations first, each base once, ids of all", "[idl_compiler][backend]") {
  const auto& info = Constructs::Derived_skeleton::_info;
  CHECK(names_of(info) == std::vector<std::string>{
                              "base_op", "_get_base_attr", "_set_base_attr",  // Base (once)
                              "middle_op",                                    // Middle
                              "_get_name",                                    // Other (readonly)
                              "notify", "inout_out", "echo_outer", "echo_everything", "echo_inners",
                              "echo_flats", "echo_few", "with_context", "self"});
  std::vector<std::string> ids(info.repository_ids.begin(), info.repository_ids.end());
  CHECK(ids == std::vector<std::string>{"IDL:Constructs/Derived:1.0", "IDL:Constructs/Base:1.0",
                                        "IDL:Constructs/Middle:1.0", "IDL:Constructs/Other:1.0"});
  check_perfect_hash(info);
  // A derived stub converts to its bases' stubs.
  Constructs::Derived d;
  Constructs::Base b = d;
  CHECK(b._is_nil());
}

#ifdef SYIDL_HAVE_COS_NAMING
TEST_CASE("CosNaming compiles; its tables carry omg.org ids", "[idl_compiler][backend]") {
  const auto& info = CosNaming::NamingContextExt_skeleton::_info;
  CHECK(info.repository_id == "IDL:omg.org/CosNaming/NamingContextExt:1.0");
  CHECK(info.operations.size() == 14);  // 10 of NamingContext, 4 of its own
  check_perfect_hash(info);
  CosNaming::NameComponent c{"id", "kind"};
  CHECK(c == CosNaming::NameComponent{"id", "kind"});
}
#endif
