// syidl --ami's stubs (sendc_, sendp_) against omniORB's server built from the same IDL
// (omni_server, started here on loopback), under each GIOP version our client speaks: results,
// inout and out values, a user exception omniORB raises, attributes, many calls outstanding on
// one connection, pollers. OMNI_PEER_SERVER names the server; without it the case warns and passes.
#include <catch2/catch.hpp>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>

#include "integrity.h"
#include "switchyard/exception.h"
#include "switchyard/orb.h"
#include "tests/core/echo_ami_handler.h"
#include "tests/interop/omni_server_process.h"

using namespace switchyard;
using namespace std::chrono_literals;

TEST_CASE("AMI stubs: omniORB's Echo answers sendc_ and sendp_ calls", "[interop][ami]") {
  const char* program = std::getenv("OMNI_PEER_SERVER");
  if (program == nullptr) {
    WARN("OMNI_PEER_SERVER is not set: omniORB's peer was not built; nothing checked");
    return;
  }
  auto giop = GENERATE("1.0", "1.1", "1.2");
  CAPTURE(giop);
  test::omni_server server(program);
  auto client = orb_init({"-ORBGIOPVersion", giop});
  auto echo = Integrity::Echo::_narrow(client->string_to_object(server.ior("echo")));
  REQUIRE_FALSE(echo._is_nil());

  auto handler = std::make_shared<test::recording_echo_handler>();
  constexpr int outstanding = 32;
  for (int i = 0; i < outstanding; ++i) echo.sendc_echo_long(handler, 7);
  echo.sendc_echo_string(handler, "from switchyard");
  echo.sendc_twist(handler, 21, "abc");
  echo.sendc_split(handler, Integrity::Nested{"parts", {1, 2, 3}, {}});
  echo.sendc_refuse(handler, 9);
  echo.sendc_set_label(handler, "labelled");
  REQUIRE(handler->wait_for(outstanding + 5));
  echo.sendc_get_label(handler);
  REQUIRE(handler->wait_for(outstanding + 6));
  CHECK(handler->got("echo_long") == "7");
  CHECK(handler->got("echo_string") == "from switchyard");
  CHECK(handler->got("twist") == "42 cba");
  CHECK(handler->got("split") == "3 parts 1,2,3,");
  CHECK(handler->got("refuse") == "Refused refused 9");
  CHECK(handler->got("set_label") == "done");
  CHECK(handler->got("get_label") == "labelled");

  Integrity::AMI_EchoPoller split = echo.sendp_split(Integrity::Nested{"n", {4, 5}, {}});
  std::string name;
  Integrity::Longs values;
  CHECK(split.split(10s, name, values) == 2);
  CHECK(name == "n");
  CHECK(values == Integrity::Longs{4, 5});
  CHECK_THROWS_AS(echo.sendp_refuse(3).refuse(10s), Integrity::Refused);

  client->destroy();
  CHECK(server.stop() == 0);
}
