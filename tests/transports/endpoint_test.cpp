// Endpoint strings: what parses, how it prints, and that every bad form is a BAD_PARAM naming it.
#include "transports/endpoint.h"

#include <catch2/catch.hpp>

#include <string>

#include "switchyard/exception.h"
#include "transports/transport.h"

using namespace switchyard;
using namespace switchyard::transports;

TEST_CASE("iiop endpoints parse and print back", "[endpoint]") {
  const auto v4 = parse_endpoint("iiop://127.0.0.1:2809");
  CHECK(v4.kind == protocol::iiop);
  CHECK(v4.host == "127.0.0.1");
  CHECK(v4.port == 2809);
  CHECK_FALSE(v4.is_ipv6_literal);
  CHECK(v4.to_string() == "iiop://127.0.0.1:2809");

  const auto v6 = parse_endpoint("iiop://[::1]:0");
  CHECK(v6.host == "::1");
  CHECK(v6.port == 0);
  CHECK(v6.is_ipv6_literal);
  CHECK(v6.to_string() == "iiop://[::1]:0");

  const auto name = parse_endpoint("iiop://my-host.example_1.org:65535");
  CHECK(name.host == "my-host.example_1.org");
  CHECK(name.port == 65535);

  const auto any = parse_endpoint("iiop://:0");
  CHECK(any.host.empty());
  CHECK(any.to_string() == "iiop://:0");

  CHECK(parse_endpoint("iiop://[fe80::1%lo]:1").host == "fe80::1%lo");
}

TEST_CASE("uiop endpoints parse and print back", "[endpoint]") {
  const auto absolute = parse_endpoint("uiop:///tmp/orb.sock");
  CHECK(absolute.kind == protocol::uiop);
  CHECK(absolute.path == "/tmp/orb.sock");
  CHECK(absolute.to_string() == "uiop:///tmp/orb.sock");
  CHECK(parse_endpoint("uiop://relative.sock").path == "relative.sock");
  CHECK(parse_endpoint("uiop://" + std::string(max_uiop_path, 'a')).path.size() == max_uiop_path);
}

TEST_CASE("bad endpoint strings give BAD_PARAM naming the string", "[endpoint]") {
  const std::string bad[] = {
      "",
      "iiop:/host:1",
      "http://host:80",
      "IIOP://host:1",
      "iiop://",
      "iiop://host",
      "iiop://host:",
      "iiop://host:65536",
      "iiop://host:99999999999999999999",
      "iiop://host:12a",
      "iiop://host:-1",
      "iiop://host:+1",
      "iiop://host: 1",
      "iiop://host:1/",
      "iiop://ho st:1",
      "iiop://host/x:1",
      "iiop://::1:80",
      "iiop://[::1",
      "iiop://[::1]",
      "iiop://[::1]80",
      "iiop://[]:80",
      "iiop://[127.0.0.1]:80",
      "iiop://[::1]]:80",
      "iiop://[::1/]:80",
      "iiop://" + std::string(300, 'h') + ":1",
      std::string("iiop://host\x01:1"),
      "uiop://",
      "uiop://" + std::string(max_uiop_path + 1, 'a'),
      std::string("uiop://a\0b", 10),
  };
  for (const auto& text : bad) {
    INFO("endpoint: " << text);
    try {
      parse_endpoint(text);
      FAIL("parsed a bad endpoint");
    } catch (const SystemException& e) {
      CHECK(e.kind() == SystemExceptionKind::BAD_PARAM);
      CHECK(e.minor() == minor::bad_endpoint);
      const std::string message = e.what();
      if (text.size() < 100 && text.find_first_of(std::string("\x01\0", 2)) == std::string::npos)
        CHECK(message.find("'" + text + "'") != std::string::npos);
    }
  }
}

TEST_CASE("control bytes in a bad endpoint are shown escaped", "[endpoint]") {
  try {
    parse_endpoint(std::string("iiop://host\x01:1"));
    FAIL("parsed a bad endpoint");
  } catch (const SystemException& e) {
    CHECK(std::string(e.what()).find("iiop://host\\x01:1") != std::string::npos);
  }
}

TEST_CASE("open_acceptor and connect reject bad strings with BAD_PARAM", "[endpoint]") {
  try {
    open_acceptor("tcp://127.0.0.1:0");
    FAIL("opened a bad endpoint");
  } catch (const SystemException& e) {
    CHECK(e.kind() == SystemExceptionKind::BAD_PARAM);
    CHECK(std::string(e.what()).find("tcp://127.0.0.1:0") != std::string::npos);
  }
  try {
    connect("iiop://127.0.0.1");
    FAIL("connected with a bad endpoint");
  } catch (const SystemException& e) {
    CHECK(e.kind() == SystemExceptionKind::BAD_PARAM);
  }
  // Well-formed but not connectable: no host, or port 0.
  CHECK_THROWS_AS(connect("iiop://:2809"), SystemException);
  CHECK_THROWS_AS(connect("iiop://127.0.0.1:0"), SystemException);
}
