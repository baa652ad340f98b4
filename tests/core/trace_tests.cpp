// -ORBTrace: connections and messages traced to a file, at each level, by server and client.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>

#include "tests/core/orb_fixture.h"

using namespace switchyard;

namespace {

using test::read_all;
using test::trace_file;

}  // namespace

TEST_CASE("-ORBTrace 2 writes a line per connection event and per message, both sides", "[core][trace]") {
  trace_file server_trace, client_trace;
  auto model = GENERATE("adaptive", "reactive");
  INFO(model);
  {
    test::serving_orb server({"-ORBTrace", "2", "-ORBTraceFile", server_trace.path, "-ORBConcurrency", model});
    auto ior = server.orb->object_to_string(server.orb->root_adapter().activate(std::make_shared<test::test_probe>()));
    server.start();
    auto client = orb_init({"-ORBTrace", "2", "-ORBTraceFile", client_trace.path});
    hand::probe_stub stub(client->string_to_object(ior));
    CHECK(stub.echo_long(42) == 42);
    CHECK(stub.echo_string("x") == "x");
    client->destroy();
  }
  const std::string server_lines = read_all(server_trace.path);
  const std::string client_lines = read_all(client_trace.path);
  INFO("server:\n" << server_lines << "client:\n" << client_lines);
  CHECK_THAT(server_lines, Catch::Contains("server accepted iiop://127.0.0.1:"));
  CHECK_THAT(server_lines, Catch::Contains("server in  iiop://127.0.0.1:"));
  CHECK_THAT(server_lines, Catch::Contains("GIOP 1.2 Request"));
  CHECK_THAT(server_lines, Catch::Contains("op 'echo_long'"));
  CHECK_THAT(server_lines, Catch::Contains("op 'echo_string'"));
  CHECK_THAT(server_lines, Catch::Contains("server out iiop://127.0.0.1:"));
  CHECK_THAT(server_lines, Catch::Contains("Reply 28 octets"));  // echo_long's reply: 24 + a long
  CHECK_THAT(server_lines, Catch::Contains("NO_EXCEPTION"));
  CHECK_THAT(server_lines, Catch::Contains("server ended iiop://127.0.0.1:"));
  CHECK_THAT(client_lines, Catch::Contains("client connected iiop://127.0.0.1:"));
  CHECK_THAT(client_lines, Catch::Contains("client out iiop://127.0.0.1:"));
  CHECK_THAT(client_lines, Catch::Contains("client in  iiop://127.0.0.1:"));
  CHECK_THAT(client_lines, Catch::Contains("client ended"));
  CHECK(server_lines.find("\n    47494f50") == std::string::npos);  // no octets below level 3
}

TEST_CASE("-ORBTrace 1 traces connections only; 3 adds the octets; 0 nothing", "[core][trace]") {
  const int level = GENERATE(0, 1, 3);
  INFO("level " << level);
  trace_file server_trace;
  {
    test::serving_orb server({"-ORBTrace", std::to_string(level), "-ORBTraceFile", server_trace.path});
    auto ior = server.orb->object_to_string(server.orb->root_adapter().activate(std::make_shared<test::test_probe>()));
    server.start();
    auto client = orb_init(std::vector<std::string>{});
    CHECK(hand::probe_stub(client->string_to_object(ior)).echo_long(7) == 7);
    client->destroy();
  }
  const std::string lines = read_all(server_trace.path);
  INFO(lines);
  if (level == 0) {
    CHECK(lines.empty());
  } else {
    CHECK_THAT(lines, Catch::Contains("server accepted"));
    CHECK((lines.find("op 'echo_long'") != std::string::npos) == (level >= 2));
    // The request's octets start with the GIOP magic.
    CHECK((lines.find("\n    47494f50") != std::string::npos) == (level >= 3));
  }
}

TEST_CASE("-ORBTraceFile that cannot be opened, and a level out of range, are BAD_PARAM", "[core][trace][errors]") {
  auto e = test::system_exception_of([] {
    orb_init({"-ORBTrace", "1", "-ORBTraceFile", "/nonexistent-dir/trace.txt"});
  });
  CHECK(e.kind() == SystemExceptionKind::BAD_PARAM);
  CHECK_THAT(std::string(e.what()), Catch::Contains("/nonexistent-dir/trace.txt"));
  auto range = test::system_exception_of([] { orb_init({"-ORBTrace", "4"}); });
  CHECK(range.kind() == SystemExceptionKind::BAD_PARAM);
  CHECK_THAT(std::string(range.what()), Catch::Contains("-ORBTrace"));
}

TEST_CASE("adaptive: past twice its dedicated threads, their connections move to the loops and are served on",
          "[core][trace]") {
  trace_file server_trace;
  {
    // One dedicated thread: crowded past two connections.
    test::serving_orb server({"-ORBTrace", "1", "-ORBTraceFile", server_trace.path, "-ORBDedicatedThreads", "1"});
    auto ior = server.orb->object_to_string(server.orb->root_adapter().activate(std::make_shared<test::test_probe>()));
    server.start();
    auto first = orb_init({"-ORBCallTimeout", "5000"});
    hand::probe_stub a(first->string_to_object(ior));
    CHECK(a.echo_long(1) == 1);  // on the dedicated thread
    {
      auto second = orb_init({"-ORBCallTimeout", "5000"});
      auto third = orb_init({"-ORBCallTimeout", "5000"});
      hand::probe_stub b(second->string_to_object(ior));
      hand::probe_stub c(third->string_to_object(ior));
      CHECK(b.echo_long(2) == 2);
      CHECK(c.echo_long(3) == 3);  // three open: crowded
      // The first connection moves after its next request (or its next idle tick); every
      // connection is served on.
      for (int i = 0; i < 20; ++i) {
        REQUIRE(a.echo_long(i) == i);
        REQUIRE(b.echo_string("b") == "b");
        REQUIRE(c.echo_long(-i) == -i);
      }
      second->destroy();
      third->destroy();
    }
    CHECK_THAT(read_all(server_trace.path), Catch::Contains("moved to an event loop"));
    // Fewer connections again: a new one is served (on a thread of its own once the server has
    // counted the two ends), and the moved one stays with its loop.
    auto fourth = orb_init({"-ORBCallTimeout", "5000"});
    hand::probe_stub d(fourth->string_to_object(ior));
    CHECK(d.echo_long(4) == 4);
    fourth->destroy();
    CHECK(a.echo_string("still") == "still");
    first->destroy();
  }
  // Exactly one connection moved: the first; the others were placed on loops from the start.
  const std::string lines = read_all(server_trace.path);
  INFO(lines);
  std::size_t moves = 0;
  for (auto at = lines.find("moved to an event loop"); at != std::string::npos;
       at = lines.find("moved to an event loop", at + 1))
    ++moves;
  CHECK(moves == 1);
}
