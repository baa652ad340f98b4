// syidl --ami's stubs (sendc_, sendp_), reply handlers and pollers, for Integrity::Echo against a
// loopback server of generated skeletons: results of every kind, inout and out values, a
// declared user exception, attributes, the poller's rules; and Contexts::Probe's context
// (tests/idl_compiler/backend/contexts.idl) through sendp_. Every wait is bounded.
#include <catch2/catch.hpp>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "integrity.h"
#include "switchyard/exception.h"
#include "switchyard/orb.h"
#include "tests/core/echo_ami_handler.h"
#include "tests/core/orb_fixture.h"
#include "tests/dynamic_interfaces/echo_servant.h"
#include "tests/idl_compiler/backend/probe_calls.h"

using namespace switchyard;
using namespace std::chrono_literals;
using test::system_exception_of;

namespace {

constexpr auto patience = 10s;

struct echo_setup {
  echo_setup() {
    ior = server.orb->object_to_string(server.orb->root_adapter().activate(servant));
    server.start();
    client = orb_init({});
    echo = Integrity::Echo(client->string_to_object(ior));
  }
  ~echo_setup() {
    if (client) client->destroy();
  }
  std::shared_ptr<test::full_echo_servant> servant = std::make_shared<test::full_echo_servant>();
  test::serving_orb server;
  std::string ior;
  std::shared_ptr<orb> client;
  Integrity::Echo echo;
};

}  // namespace

TEST_CASE("syidl --ami: sendc_ delivers results, inout and out values, user exceptions and attributes to the handler",
          "[core][ami]") {
  echo_setup s;
  auto handler = std::make_shared<test::recording_echo_handler>();
  s.echo.sendc_echo_long(handler, -42);
  s.echo.sendc_echo_string(handler, "forty-two");
  s.echo.sendc_echo_octets(handler, std::vector<std::uint8_t>(100, 7));
  s.echo.sendc_twist(handler, 21, "abc");
  s.echo.sendc_split(handler, Integrity::Nested{"parts", {1, 2, 3}, {}});
  s.echo.sendc_refuse(handler, 9);
  s.echo.sendc_set_label(handler, "labelled");
  REQUIRE(handler->wait_for(7));
  s.echo.sendc_get_label(handler);  // after the set's reply: the label is set
  s.echo.sendc_echo_double(handler, 2.5);
  REQUIRE(handler->wait_for(9));
  CHECK(handler->got("echo_long") == "-42");
  CHECK(handler->got("echo_string") == "forty-two");
  CHECK(handler->got("echo_octets") == "100 octets");
  CHECK(handler->got("twist") == "42 cba");
  CHECK(handler->got("split") == "3 parts 1,2,3,");
  CHECK(handler->got("refuse") == "Refused refused 9");
  CHECK(handler->got("set_label") == "done");
  CHECK(handler->got("get_label") == "labelled");
  CHECK(handler->got("echo_double") == std::to_string(2.5));
}

TEST_CASE("syidl --ami: a nil handler's replies are dropped", "[core][ami]") {
  echo_setup s;
  s.echo.sendc_echo_long(nullptr, 1);
  CHECK(s.echo.echo_long(2) == 2);  // the connection goes on
}

TEST_CASE("syidl --ami: a type-specific poller gives its operation's results once", "[core][ami]") {
  echo_setup s;
  Integrity::AMI_EchoPoller twisted = s.echo.sendp_twist(5, "xyz");
  std::int32_t a = 0;
  std::string text;
  twisted.twist(patience, a, text);
  CHECK(a == 10);
  CHECK(text == "zyx");
  CHECK(system_exception_of([&] { twisted.twist(0ms, a, text); }).kind() == SystemExceptionKind::OBJECT_NOT_EXIST);

  Integrity::AMI_EchoPoller split = s.echo.sendp_split(Integrity::Nested{"n", {4, 5}, {}});
  std::string name;
  Integrity::Longs values;
  CHECK(system_exception_of([&] { (void)split.refuse(patience); }).kind() == SystemExceptionKind::BAD_OPERATION);
  CHECK(split.split(patience, name, values) == 2);
  CHECK(name == "n");
  CHECK(values == Integrity::Longs{4, 5});

  Integrity::AMI_EchoPoller refused = s.echo.sendp_refuse(3);
  CHECK(refused.is_ready(patience));
  CHECK_THROWS_AS(refused.refuse(0ms), Integrity::Refused);

  Integrity::AMI_EchoPoller label = s.echo.sendp_set_label("polled");
  label.set_label(patience);
  CHECK(s.echo.sendp_get_label().get_label(patience) == "polled");
}

TEST_CASE("syidl --ami: an operation's context travels with sendp_", "[core][ami][contexts]") {
  test::serving_orb server;
  auto ior = server.orb->object_to_string(server.orb->root_adapter().activate(std::make_shared<test::probe_servant>()));
  server.start();
  auto client = orb_init({});
  auto probe = Contexts::Probe::_narrow(client->string_to_object(ior));
  const Contexts::Strings expected{"5", "app_=empty suffix", "app_user=ada", "test=hello"};

  // The poller's call copies the context: it may go out again after sendp_ returned.
  auto poller = probe.sendp_seen(5, "ami", test::offered_context());
  std::string note;
  CHECK(poller.seen(5000ms, note) == expected);
  CHECK(note == "ami seen");
}
