// syidl's generated stubs against omniORB's server built from the same IDL (omni_server,
// started here on loopback): every Integrity::Echo operation and every IDL construct it carries
// comes back from omniORB unchanged, under each GIOP version our client speaks; and the
// papers' ttcp_sequence. OMNI_PEER_SERVER names the server; without it the cases warn and pass.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string>

#include "integrity.h"
#include "switchyard/exception.h"
#include "switchyard/orb.h"
#include "tests/idl_compiler/backend/echo_round_trips.h"
#include "tests/interop/omni_server_process.h"
#include "ttcp_sequence.h"

using namespace switchyard;

namespace {

const char* omni_server_program() { return std::getenv("OMNI_PEER_SERVER"); }

}  // namespace

TEST_CASE("generated Integrity stubs: omniORB's Echo returns every value unchanged", "[interop][generated]") {
  if (omni_server_program() == nullptr) {
    WARN("OMNI_PEER_SERVER is not set: omniORB's peer was not built; nothing checked");
    return;
  }
  auto giop = GENERATE("1.0", "1.1", "1.2");
  CAPTURE(giop);
  test::omni_server server(omni_server_program());
  auto client = orb_init({"-ORBGIOPVersion", giop});
  auto echo = Integrity::Echo::_narrow(client->string_to_object(server.ior("echo")));
  REQUIRE_FALSE(echo._is_nil());

  // omniORB sends wstrings in GIOP 1.2 only (it refuses them below).
  test::check_echo_round_trips(echo, std::string_view(giop) == "1.2");
  CHECK(echo.calls() > 30);
  CHECK(server.stop() == 0);
}

TEST_CASE("generated ttcp_sequence stubs against omniORB", "[interop][generated]") {
  if (omni_server_program() == nullptr) {
    WARN("OMNI_PEER_SERVER is not set: omniORB's peer was not built; nothing checked");
    return;
  }
  auto giop = GENERATE("1.0", "1.2");
  CAPTURE(giop);
  test::omni_server server(omni_server_program());
  auto client = orb_init({"-ORBGIOPVersion", giop});
  auto ttcp = ttcp_sequence::_narrow(client->string_to_object(server.ior("ttcp/0")));
  REQUIRE_FALSE(ttcp._is_nil());
  ttcp.sendNoParams_2way();
  ttcp.sendNoParams_1way();
  ttcp_sequence::StructSeq structs;
  for (int i = 0; i < 1024; ++i)
    structs.push_back(BinStruct{static_cast<std::int16_t>(i), 'b', i * 3, static_cast<std::uint8_t>(i), i / 7.0});
  ttcp.sendStructSeq_2way(structs);
  std::vector<std::uint8_t> octets(65536, 0x5a);
  ttcp.sendOctetSeq_2way(octets);
  ttcp.sendNoParams_2way();
  CHECK(server.stop() == 0);
}
