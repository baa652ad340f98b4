// Collocated calls (-ORBCollocation, orb/core/collocation.h): a reference to an object of the
// same ORB is called in the caller's thread without a socket, through the server's own dispatch
// (thru-adapter), and every semantic of a remote call is kept; `none` goes through the socket.
// Over syidl's stubs and skeletons of integrity.idl and ttcp_sequence.idl.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <atomic>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "integrity.h"
#include "orb/core/orb_impl.h"
#include "switchyard/exception.h"
#include "switchyard/instrument.h"
#include "switchyard/orb.h"
#include "switchyard/request.h"
#include "tests/core/orb_fixture.h"
#include "tests/dynamic_interfaces/dsi_echo_servant.h"
#include "tests/dynamic_interfaces/echo_dii_calls.h"
#include "tests/dynamic_interfaces/echo_servant.h"
#include "ttcp_sequence.h"

using namespace switchyard;

namespace {

using test::read_all;
using test::trace_file;

// Integrity::Echo as the IDL says, plus what the tests look at: the thread of the last call, a
// system exception on request (echo_long(-1)), and, in echo_octets, a nested call to `inner`.
class watching_echo : public test::full_echo_servant {
 public:
  std::int32_t echo_long(std::int32_t v) override {
    last_thread = std::this_thread::get_id();
    if (v == -1)
      throw SystemException(SystemExceptionKind::NO_RESOURCES, 7, CompletionStatus::yes, "servant out of resources");
    return full_echo_servant::echo_long(v);
  }
  // The arguments stay views into the request while the upcall calls out: a nested collocated
  // call must leave them alone.
  Integrity::Octets echo_octets(std::span<const std::uint8_t> v) override {
    if (inner) {
      const Integrity::Octets other(300, 0x5a);
      nested_ok = inner.echo_octets(other) == other && inner.echo_long(41) == 41;
    }
    return full_echo_servant::echo_octets(v);
  }

  std::thread::id last_thread;
  Integrity::Echo inner;
  bool nested_ok = false;
};

class counting_ttcp final : public ttcp_sequence_skeleton {
 public:
  void sendStructSeq_2way(const ttcp_sequence::StructSeq&) override {}
  void sendOctetSeq_2way(std::span<const std::uint8_t>) override {}
  void sendNoParams_2way() override { ++twoway; }
  void sendNoParams_1way() override { ++oneway; }
  int twoway = 0;
  int oneway = 0;
};

// An ORB that listens on loopback and is never run(): a collocated call needs no server thread.
std::shared_ptr<orb> listening_orb(std::vector<std::string> args = {}) {
  args.push_back("-ORBListenEndpoints");
  args.push_back("iiop://127.0.0.1:0");
  return orb_init(std::move(args));
}

// The reference as another process would get it: through its string form.
object_ref through_string(orb& o, const object_ref& reference) {
  return o.string_to_object(o.object_to_string(reference));
}

std::uint64_t calls(const instrument::probe_snapshot& snapshot, instrument::layer l) {
  std::uint64_t n = 0;
  for (std::size_t s = 0; s < instrument::strategy_count; ++s)
    n += snapshot.at(l, static_cast<instrument::strategy>(s)).calls;
  return n;
}

}  // namespace

TEST_CASE("thru-adapter: in, out, inout and return values, in the caller's thread", "[core][collocation]") {
  auto o = listening_orb();
  auto servant = std::make_shared<watching_echo>();
  Integrity::Echo echo(through_string(*o, o->root_adapter().activate(servant)));

  CHECK(echo.echo_long(42) == 42);
  CHECK(servant->last_thread == std::this_thread::get_id());
  CHECK(echo.echo_string("collocated") == "collocated");
  CHECK(echo.echo_double(2.5) == 2.5);
  std::int32_t a = 21;
  std::string s = "abc";
  echo.twist(a, s);
  CHECK(a == 42);
  CHECK(s == "cba");
  Integrity::Nested nested;
  nested.name = "n";
  nested.values = {1, 2, 3};
  std::string name;
  Integrity::Longs values;
  CHECK(echo.split(nested, name, values) == 3);
  CHECK(name == "n");
  CHECK(values == Integrity::Longs{1, 2, 3});
  // Large enough to leave the request stream as an external chunk: copied into the request.
  const Integrity::Octets big(100'000, 0x17);
  CHECK(echo.echo_octets(big) == big);
  echo.label("set");
  CHECK(echo.label() == "set");
  CHECK(servant->served() >= 8);
  o->destroy();
}

TEST_CASE("thru-adapter: exceptions arrive as from a server", "[core][collocation]") {
  auto o = listening_orb();
  auto servant = std::make_shared<watching_echo>();
  const object_ref reference = o->root_adapter().activate(servant);
  Integrity::Echo echo(reference);

  SECTION("a user exception arrives as that exception, with its members") {
    try {
      echo.refuse(9);
      FAIL("no exception");
    } catch (const Integrity::Refused& e) {
      CHECK(e.reason == "refused");
      CHECK(e.code == 9);
    }
    CHECK(echo.refuse(0) == 0);
  }
  SECTION("a system exception arrives with its kind, minor and completion") {
    try {
      echo.echo_long(-1);
      FAIL("no exception");
    } catch (const SystemException& e) {
      CHECK(e.kind() == SystemExceptionKind::NO_RESOURCES);
      CHECK(e.minor() == 7u);
      CHECK(e.completed() == CompletionStatus::yes);
    }
    CHECK(echo.echo_long(1) == 1);
  }
  SECTION("a deactivated object raises OBJECT_NOT_EXIST") {
    CHECK(echo.echo_long(3) == 3);
    REQUIRE(o->root_adapter().deactivate(reference));
    try {
      echo.echo_long(3);
      FAIL("no exception");
    } catch (const SystemException& e) {
      CHECK(e.kind() == SystemExceptionKind::OBJECT_NOT_EXIST);
      CHECK(e.minor() == minor::omg_minor(2));
      CHECK(e.completed() == CompletionStatus::no);
    }
    CHECK(reference.non_existent());
  }
  o->destroy();
}

TEST_CASE("thru-adapter: a servant's forward_request is followed", "[core][collocation]") {
  struct forwarding_echo final : watching_echo {
    std::int32_t echo_long(std::int32_t) override { throw forward_request(elsewhere); }
    object_ref elsewhere;
  };
  auto o = listening_orb();
  auto there = std::make_shared<watching_echo>();
  auto here = std::make_shared<forwarding_echo>();
  here->elsewhere = o->root_adapter().activate(there);
  Integrity::Echo echo(through_string(*o, o->root_adapter().activate(here)));
  CHECK(echo.echo_long(6) == 6);  // answered by `there`
  CHECK(echo.echo_long(7) == 7);  // sent there directly
  CHECK(there->served() == 2);
  here->elsewhere = {};
  o->destroy();
}

TEST_CASE("thru-adapter: one-way calls are served before they return", "[core][collocation]") {
  auto o = listening_orb();
  auto servant = std::make_shared<counting_ttcp>();
  ttcp_sequence ttcp(through_string(*o, o->root_adapter().activate(servant)));
  for (int i = 0; i < 5; ++i) ttcp.sendNoParams_1way();
  CHECK(servant->oneway == 5);
  ttcp.sendNoParams_2way();
  CHECK(servant->twoway == 1);
  o->destroy();
}

TEST_CASE("thru-adapter: a collocated call from inside an upcall nests", "[core][collocation]") {
  auto o = listening_orb();
  auto outer = std::make_shared<watching_echo>();
  auto inner = std::make_shared<watching_echo>();
  const object_ref inner_reference = o->root_adapter().activate(inner);
  outer->inner = Integrity::Echo(inner_reference);
  Integrity::Echo echo(o->root_adapter().activate(outer));
  Integrity::Octets sent(1000);
  for (std::size_t i = 0; i < sent.size(); ++i) sent[i] = static_cast<std::uint8_t>(i * 7);
  CHECK(echo.echo_octets(sent) == sent);  // the outer request survived the nested one
  CHECK(outer->nested_ok);
  // Three levels: the inner servant calls a third one from inside its own upcall.
  auto third = std::make_shared<watching_echo>();
  inner->inner = Integrity::Echo(o->root_adapter().activate(third));
  outer->nested_ok = false;
  CHECK(echo.echo_octets(sent) == sent);
  CHECK(outer->nested_ok);
  CHECK(inner->nested_ok);
  outer->inner = {};  // breaks the cycles servant -> reference -> ORB -> servant
  inner->inner = {};
  o->destroy();
}

TEST_CASE("thru-adapter: the server's probes count the request", "[core][collocation][instrument]") {
  auto o = listening_orb({"-ORBInstrument", "-ORBInstrumentFile", "/dev/null"});
  auto servant = std::make_shared<watching_echo>();
  Integrity::Echo echo(through_string(*o, o->root_adapter().activate(servant)));
  for (int i = 0; i < 5; ++i) CHECK(echo.echo_long(i) == i);
  const instrument::probe_snapshot snapshot = o->impl().probe_snapshot();
  if (instrument::probes_compiled_in) {
    CHECK(calls(snapshot, instrument::layer::servant_demux) == 5);
    CHECK(calls(snapshot, instrument::layer::operation_demux) == 5);
    CHECK(calls(snapshot, instrument::layer::upcall) == 5);
    CHECK(calls(snapshot, instrument::layer::marshal) == 5);
    CHECK(calls(snapshot, instrument::layer::write) == 0);  // no socket
  } else {
    CHECK(snapshot.total_calls() == 0);
  }
  o->destroy();
}

TEST_CASE("-ORBTrace shows a collocated call, and no connection", "[core][collocation][trace]") {
  trace_file trace;
  {
    auto o = listening_orb({"-ORBTrace", "2", "-ORBTraceFile", trace.path});
    Integrity::Echo echo(through_string(*o, o->root_adapter().activate(std::make_shared<watching_echo>())));
    CHECK(echo.echo_long(5) == 5);
    o->destroy();
  }
  const std::string lines = read_all(trace.path);
  INFO(lines);
  CHECK_THAT(lines, Catch::Contains("collocated in  this ORB: GIOP 1.2 Request"));
  CHECK_THAT(lines, Catch::Contains("op 'echo_long'"));
  CHECK_THAT(lines, Catch::Contains("collocated out this ORB: GIOP 1.2 Reply"));
  CHECK(lines.find("connected") == std::string::npos);
}

TEST_CASE("-ORBCollocation none goes through a socket", "[core][collocation][trace]") {
  trace_file trace;
  {
    test::serving_orb server({"-ORBCollocation", "none", "-ORBTrace", "2", "-ORBTraceFile", trace.path});
    auto servant = std::make_shared<watching_echo>();
    Integrity::Echo echo(through_string(*server.orb, server.orb->root_adapter().activate(servant)));
    server.start();
    CHECK(echo.echo_long(5) == 5);
    CHECK(servant->last_thread != std::this_thread::get_id());
    server.stop();
  }
  const std::string lines = read_all(trace.path);
  INFO(lines);
  CHECK_THAT(lines, Catch::Contains("client connected iiop://127.0.0.1:"));
  CHECK_THAT(lines, Catch::Contains("server accepted iiop://127.0.0.1:"));
  CHECK(lines.find("collocated") == std::string::npos);
}

TEST_CASE("thru-adapter: the DII, deferred calls and a DSI servant", "[core][collocation][dynamic]") {
  auto o = listening_orb();
  SECTION("the DII against a generated skeleton") {
    auto servant = std::make_shared<watching_echo>();
    const object_ref echo = through_string(*o, o->root_adapter().activate(servant));
    test::check_every_echo_operation(echo, true);
    CHECK(servant->last_thread == std::this_thread::get_id());

    switchyard::request first = test::echo_request(echo, "echo_long", [] {
      any a;
      a <<= std::int32_t{11};
      return a;
    }());
    switchyard::request second = test::echo_request(echo, "echo_string", [] {
      any a;
      a <<= std::string("later");
      return a;
    }());
    first.send_deferred();
    second.send_deferred();
    CHECK(second.poll_response());
    second.get_response();
    first.get_response();
    std::int32_t l = 0;
    std::string text;
    CHECK((first.return_value() >>= l));
    CHECK(l == 11);
    CHECK((second.return_value() >>= text));
    CHECK(text == "later");
  }
  SECTION("a DSI servant, called through a stub and through the DII") {
    const object_ref echo = through_string(*o, o->root_adapter().activate(std::make_shared<test::dsi_echo_servant>()));
    Integrity::Echo stub(echo);
    CHECK(stub.echo_long(77) == 77);
    std::int32_t a = 4;
    std::string s = "xy";
    stub.twist(a, s);
    CHECK(a == 8);
    CHECK(s == "yx");
    CHECK_THROWS_AS(stub.refuse(3), Integrity::Refused);
    test::check_every_echo_operation(echo, true);
  }
  o->destroy();
}

TEST_CASE("thru-adapter: servants of child adapters, from references made in the same ORB", "[core][collocation]") {
  trace_file trace;
  {
    auto o = listening_orb({"-ORBCollocation", "thru-adapter", "-ORBTrace", "1", "-ORBTraceFile", trace.path});
    object_adapter& child = o->root_adapter().create_child("child");
    object_adapter& grandchild = child.create_child("grandchild");
    auto first = std::make_shared<counting_ttcp>();
    auto second = std::make_shared<counting_ttcp>();
    ttcp_sequence a(through_string(*o, child.activate(first)));
    ttcp_sequence b(grandchild.activate_with_id("b", second));
    for (int i = 0; i < 3; ++i) {
      a.sendNoParams_2way();
      b.sendNoParams_2way();
    }
    CHECK(first->twoway == 3);
    CHECK(second->twoway == 3);
    o->destroy();
  }
  CHECK(read_all(trace.path).find("connected") == std::string::npos);
}

TEST_CASE("direct: the stub calls the servant's method itself, past the adapter", "[core][collocation][direct]") {
  auto o = listening_orb({"-ORBCollocation", "direct", "-ORBInstrument", "-ORBInstrumentFile", "/dev/null"});
  auto servant = std::make_shared<watching_echo>();
  const object_ref reference = o->root_adapter().activate(servant);
  Integrity::Echo echo(through_string(*o, reference));
  // The first call goes through the adapter and finds the servant for the reference.
  CHECK(echo.echo_long(1) == 1);
  const auto demuxed = calls(o->impl().probe_snapshot(), instrument::layer::servant_demux);
  CHECK(demuxed == (instrument::probes_compiled_in ? 1u : 0u));

  CHECK(echo.echo_long(42) == 42);
  CHECK(servant->last_thread == std::this_thread::get_id());
  std::int32_t a = 21;
  std::string s = "abc";
  echo.twist(a, s);
  CHECK(a == 42);
  CHECK(s == "cba");
  const Integrity::Octets big(20'000, 0x17);
  CHECK(echo.echo_octets(big) == big);
  CHECK_THROWS_AS(echo.refuse(2), Integrity::Refused);
  try {
    echo.echo_long(-1);
    FAIL("no exception");
  } catch (const SystemException& e) {
    CHECK(e.kind() == SystemExceptionKind::NO_RESOURCES);
    CHECK(e.minor() == 7u);
  }
  // None of these went through the adapter: the probes saw only the first call.
  CHECK(calls(o->impl().probe_snapshot(), instrument::layer::servant_demux) == demuxed);

  SECTION("a deactivated object raises OBJECT_NOT_EXIST, as the server would send it") {
    REQUIRE(o->root_adapter().deactivate(reference));
    for (int i = 0; i < 2; ++i) {
      try {
        echo.echo_long(3);
        FAIL("no exception");
      } catch (const SystemException& e) {
        CHECK(e.kind() == SystemExceptionKind::OBJECT_NOT_EXIST);
        CHECK(e.minor() == minor::omg_minor(2));
        CHECK(e.completed() == CompletionStatus::no);
      }
    }
  }
  SECTION("another object's deactivation is noticed, and the call still goes direct") {
    auto other = o->root_adapter().activate(std::make_shared<watching_echo>());
    REQUIRE(o->root_adapter().deactivate(other));
    CHECK(echo.echo_long(5) == 5);
    CHECK(calls(o->impl().probe_snapshot(), instrument::layer::servant_demux) == demuxed);
  }
  o->destroy();
}

TEST_CASE("direct: a DSI servant and the DII go through the adapter", "[core][collocation][direct][dynamic]") {
  auto o = listening_orb({"-ORBCollocation", "direct", "-ORBInstrument", "-ORBInstrumentFile", "/dev/null"});
  const object_ref echo = through_string(*o, o->root_adapter().activate(std::make_shared<test::dsi_echo_servant>()));
  Integrity::Echo stub(echo);
  for (int i = 0; i < 3; ++i) CHECK(stub.echo_long(i) == i);
  test::check_echo(echo, "echo_string", [] {
    any a;
    a <<= std::string("dii");
    return a;
  }());
  if (instrument::probes_compiled_in) CHECK(calls(o->impl().probe_snapshot(), instrument::layer::servant_demux) == 4);
  // One-way calls go direct too.
  auto ttcp_servant = std::make_shared<counting_ttcp>();
  ttcp_sequence ttcp(o->root_adapter().activate(ttcp_servant));
  for (int i = 0; i < 3; ++i) ttcp.sendNoParams_1way();
  CHECK(ttcp_servant->oneway == 3);
  o->destroy();
}

TEST_CASE("collocated calls from several threads at once, through one reference", "[core][collocation][threads]") {
  const std::string mode = GENERATE("thru-adapter", "direct");
  INFO(mode);
  auto o = listening_orb({"-ORBCollocation", mode, "-ORBInstrument", "-ORBInstrumentFile", "/dev/null"});
  auto servant = std::make_shared<watching_echo>();
  Integrity::Echo echo(through_string(*o, o->root_adapter().activate(servant)));
  constexpr int threads = 3, calls_each = 200;
  std::vector<std::thread> callers;
  std::atomic<int> right{0};
  for (int t = 0; t < threads; ++t)
    callers.emplace_back([&, t] {
      for (int i = 0; i < calls_each; ++i)
        if (echo.echo_string(std::to_string(t * 1000 + i)) == std::to_string(t * 1000 + i)) ++right;
    });
  for (auto& caller : callers) caller.join();
  CHECK(right == threads * calls_each);
  CHECK(servant->served() == static_cast<std::uint32_t>(threads * calls_each));
  o->destroy();
}
