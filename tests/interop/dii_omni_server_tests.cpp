// Our DII (switchyard/request.h) against omniORB's server (omni_server, started here on
// loopback): every Integrity::Echo operation built from TypeCodes and Anys, under each GIOP
// version our client speaks; deferred requests outstanding together on one connection; Anys of
// several kinds crossing to omniORB and back; and the same against omniORB's DSI Echo
// (omni_server --echo dsi). OMNI_PEER_SERVER names the server; without it the cases warn and
// pass.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <string>
#include <vector>

#include "integrity.h"
#include "switchyard/orb.h"
#include "switchyard/request.h"
#include "tests/dynamic_interfaces/echo_dii_calls.h"
#include "tests/interop/omni_server_process.h"

using namespace switchyard;

namespace {

const char* program(const char* variable) {
  const char* p = std::getenv(variable);
  return p != nullptr && *p != '\0' ? p : nullptr;
}

void check_deferred(const object_ref& echo) {
  std::vector<request> calls;
  for (std::int32_t k = 0; k < 8; ++k) {
    calls.emplace_back(echo, k % 2 == 0 ? "echo_long" : "echo_records");
    if (k % 2 == 0) {
      calls.back().add_in_arg() <<= k * 3;
      calls.back().set_return_type(type_code::basic(tc_kind::tk_long));
    } else {
      Integrity::Records records(static_cast<std::size_t>(k) * 10, sample_record());
      Integrity::insert_Records(calls.back().add_in_arg(), records);
      calls.back().set_return_type(Integrity::_tc_Records());
    }
  }
  for (auto& call : calls) call.send_deferred();
  for (std::size_t k = calls.size(); k-- > 0;) calls[k].get_response();
  for (std::int32_t k = 0; k < 8; ++k) {
    const request& call = calls[static_cast<std::size_t>(k)];
    if (k % 2 == 0) {
      std::int32_t got = -1;
      REQUIRE((call.return_value() >>= got));
      CHECK(got == k * 3);
    } else {
      Integrity::Records got;
      REQUIRE(Integrity::extract_Records(call.return_value(), got));
      CHECK(got == Integrity::Records(static_cast<std::size_t>(k) * 10, sample_record()));
    }
  }
}

// Anys whose members sit at every alignment: the Nested's name, of each length, moves what follows
// it. omniORB reads each and writes it back; ours must read omniORB's encoding.
void check_anys(const object_ref& echo) {
  for (std::size_t pad = 0; pad < 8; ++pad) {
    CAPTURE(pad);
    any a;
    Integrity::Nested nested = sample_nested();
    nested.name = std::string(pad, 'p');
    a <<= nested;
    test::check_echo(echo, "echo_any", [&] {
      any outer;
      outer <<= a;
      return outer;
    }());
    any records;
    Integrity::insert_Records(records, sample_records());
    any outer;
    outer <<= records;
    test::check_echo(echo, "echo_any", outer);
  }
}

}  // namespace

TEST_CASE("DII: our request calls every Echo operation on omniORB's server", "[interop][dii]") {
  const char* server_program = program("OMNI_PEER_SERVER");
  if (server_program == nullptr) {
    WARN("OMNI_PEER_SERVER is not set: omniORB's peer was not built; nothing checked");
    return;
  }
  auto giop = GENERATE("1.0", "1.1", "1.2");
  CAPTURE(giop);
  test::omni_server server(server_program);
  auto client = orb_init({"-ORBGIOPVersion", giop});
  const object_ref echo = client->string_to_object(server.ior("echo"));
  // omniORB sends and takes wstrings in GIOP 1.2 only.
  test::check_every_echo_operation(echo, std::string_view(giop) == "1.2");
  check_deferred(echo);
  check_anys(echo);
  client->destroy();
  CHECK(server.stop() == 0);
}

TEST_CASE("DII: our request calls omniORB's dynamic (DSI) Echo", "[interop][dii][dsi]") {
  const char* server_program = program("OMNI_PEER_SERVER");
  if (server_program == nullptr) {
    WARN("OMNI_PEER_SERVER is not set: omniORB's peer was not built; nothing checked");
    return;
  }
  auto giop = GENERATE("1.0", "1.2");
  CAPTURE(giop);
  test::omni_server server(server_program, 1, {"--echo", "dsi"});
  auto client = orb_init({"-ORBGIOPVersion", giop});
  const object_ref echo = client->string_to_object(server.ior("echo"));
  test::check_every_echo_operation(echo, std::string_view(giop) == "1.2");
  check_deferred(echo);
  // And our generated stub against the same dynamic servant.
  auto stub = Integrity::Echo::_narrow(echo);
  REQUIRE_FALSE(stub._is_nil());
  CHECK(stub.echo_record(sample_record()) == sample_record());
  client->destroy();
  CHECK(server.stop() == 0);
}
