#include "demux/demux_strategy.h"

#include <catch2/catch.hpp>
#include <string>

#include <switchyard/exception.h>

using namespace switchyard;
using namespace switchyard::demux;

TEST_CASE("strategy names round trip", "[demux]") {
  for (auto s : {demux_strategy::linear, demux_strategy::dynamic, demux_strategy::perfect,
                 demux_strategy::active}) {
    REQUIRE(try_parse_demux_strategy(to_string(s)) == s);
    REQUIRE(parse_demux_strategy(to_string(s)) == s);
  }
  REQUIRE(to_string(demux_strategy::perfect) == "perfect");
}

TEST_CASE("bad strategy names are refused with a clear error", "[demux]") {
  using namespace std::string_literals;
  for (std::string bad : {""s, "Linear"s, "linear "s, " linear"s, "hash"s, "perfect_hash"s,
                          "activ"s, "activee"s, "dynamic\0"s, "\xff\x01"s, std::string(1000, 'x')}) {
    INFO("name: " << bad);
    REQUIRE_FALSE(try_parse_demux_strategy(bad).has_value());
    try {
      parse_demux_strategy(bad);
      FAIL("no exception");
    } catch (const SystemException& e) {
      REQUIRE(e.kind() == SystemExceptionKind::BAD_PARAM);
      REQUIRE(e.minor() == minor::bad_option);
      std::string what = e.what();
      REQUIRE(what.find("expected linear, dynamic, perfect or active") != std::string::npos);
      REQUIRE(what.size() < 400);  // a long name is cut, not echoed whole
    }
  }
  try {
    parse_demux_strategy("hash\x01");
  } catch (const SystemException& e) {
    REQUIRE(std::string(e.what()).find("'hash\\x01'") != std::string::npos);
  }
}
