#include "demux/demux_strategy.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include <switchyard/exception.h>

using namespace switchyard;
using namespace switchyard::demux;

TEST_CASE("strategy names round trip", "[demux]") {
  std::vector<std::string_view> seen;
  for (auto s : all_demux_strategies) {
    REQUIRE(try_parse_demux_strategy(to_string(s)) == s);
    REQUIRE(parse_demux_strategy(to_string(s)) == s);
    REQUIRE(std::find(seen.begin(), seen.end(), to_string(s)) == seen.end());
    REQUIRE(demux_strategy_names().find(to_string(s)) != std::string_view::npos);
    seen.push_back(to_string(s));
  }
  REQUIRE(to_string(demux_strategy::perfect) == "perfect");
  REQUIRE(to_string(demux_strategy::perfect_fast) == "perfect-fast");
  REQUIRE(to_string(demux_strategy::binary) == "binary");
}

TEST_CASE("bad strategy names are refused with a clear error", "[demux]") {
  using namespace std::string_literals;
  for (std::string bad :
       {""s, "Linear"s, "linear "s, " linear"s, "hash"s, "perfect_hash"s, "activ"s, "activee"s, "perfect_fast"s,
        "perfect-Fast"s, "binary-search"s, "dynamic\0"s, "\xff\x01"s, std::string(1000, 'x')}) {
    INFO("name: " << bad);
    REQUIRE_FALSE(try_parse_demux_strategy(bad).has_value());
    try {
      parse_demux_strategy(bad);
      FAIL("no exception");
    } catch (const SystemException& e) {
      REQUIRE(e.kind() == SystemExceptionKind::BAD_PARAM);
      REQUIRE(e.minor() == minor::bad_option);
      std::string what = e.what();
      REQUIRE(what.find("expected linear, binary, dynamic, perfect, perfect-fast or active") != std::string::npos);
      REQUIRE(what.size() < 400);  // a long name is cut, not echoed whole
    }
  }
  try {
    parse_demux_strategy("hash\x01");
  } catch (const SystemException& e) {
    REQUIRE(std::string(e.what()).find("'hash\\x01'") != std::string::npos);
  }
}
