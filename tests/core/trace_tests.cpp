// -ORBTrace: connections and messages traced to a file, at each level, by server and client.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>

#include "tests/core/orb_fixture.h"

using namespace switchyard;

namespace {

std::string read_all(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

struct trace_file {
  trace_file() {
    char pattern[] = "/tmp/sy_trace_XXXXXX";
    const int fd = ::mkstemp(pattern);
    ::close(fd);
    path = pattern;
  }
  ~trace_file() { ::unlink(path.c_str()); }
  std::string path;
};

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
  auto e = test::system_exception_of([] { orb_init({"-ORBTrace", "1", "-ORBTraceFile", "/nonexistent-dir/trace.txt"}); });
  CHECK(e.kind() == SystemExceptionKind::BAD_PARAM);
  CHECK_THAT(std::string(e.what()), Catch::Contains("/nonexistent-dir/trace.txt"));
  auto range = test::system_exception_of([] { orb_init({"-ORBTrace", "4"}); });
  CHECK(range.kind() == SystemExceptionKind::BAD_PARAM);
  CHECK_THAT(std::string(range.what()), Catch::Contains("-ORBTrace"));
}
