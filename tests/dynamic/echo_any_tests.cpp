// Integrity::Echo::echo_any through generated stubs and skeletons: against our own ORB (a server
// in a thread on loopback) and against omniORB's omni_server (started here as a child process
// when OMNI_PEER_SERVER names it; every case warns and passes unchecked otherwise). Anys holding a
// long, a string, a Record, a Nested and a sequence of Records come back equal; so do an empty
// sequence of doubles before a long (no padding) and an Any in an Any. A string holding a NUL
// never comes back: the stub and the DII refuse to send it (BAD_PARAM), and a request that
// carries one anyway (as another ORB's client may) gets MARSHAL from our server. (omniORB's
// server echoes such a string, read as its length says: only our side is checked against it.)
#include "integrity.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>

#include "switchyard/any.h"
#include "switchyard/exception.h"
#include "switchyard/invocation.h"
#include "switchyard/orb.h"
#include "switchyard/request.h"
#include "tests/core/orb_fixture.h"
#include "tests/dynamic/generated_samples.h"
#include "tests/interop/omni_server_process.h"

using namespace switchyard;

namespace {

// Echo's every operation returns what it got; only echo_any matters here.
struct echo_servant final : Integrity::Echo_skeleton {
  std::atomic<int> anys{0};
  bool echo_boolean(bool v) override { return v; }
  std::uint8_t echo_octet(std::uint8_t v) override { return v; }
  char echo_char(char v) override { return v; }
  std::int16_t echo_short(std::int16_t v) override { return v; }
  std::uint16_t echo_ushort(std::uint16_t v) override { return v; }
  std::int32_t echo_long(std::int32_t v) override { return v; }
  std::uint32_t echo_ulong(std::uint32_t v) override { return v; }
  std::int64_t echo_longlong(std::int64_t v) override { return v; }
  std::uint64_t echo_ulonglong(std::uint64_t v) override { return v; }
  float echo_float(float v) override { return v; }
  double echo_double(double v) override { return v; }
  std::string echo_string(const std::string& v) override { return v; }
  std::u16string echo_wstring(const std::u16string& v) override { return v; }
  Integrity::Color echo_color(Integrity::Color v) override { return v; }
  Integrity::Record echo_record(const Integrity::Record& v) override { return v; }
  Integrity::NARecord echo_narecord(const Integrity::NARecord& v) override { return v; }
  Integrity::Variant echo_variant(const Integrity::Variant& v) override { return v; }
  Integrity::Matrix echo_matrix(const Integrity::Matrix& v) override { return v; }
  Integrity::Nested echo_nested(const Integrity::Nested& v) override { return v; }
  Integrity::Octets echo_octets(std::span<const std::uint8_t> v) override { return {v.begin(), v.end()}; }
  Integrity::Longs echo_longs(const Integrity::Longs& v) override { return v; }
  Integrity::Doubles echo_doubles(const Integrity::Doubles& v) override { return v; }
  Integrity::Records echo_records(const Integrity::Records& v) override { return v; }
  Integrity::NARecords echo_narecords(const Integrity::NARecords& v) override { return v; }
  Integrity::Strings echo_strings(const Integrity::Strings& v) override { return v; }
  any echo_any(const any& v) override {
    ++anys;
    return v;
  }
  void twist(std::int32_t&, std::string&) override {}
  std::int32_t split(const Integrity::Nested&, std::string&, Integrity::Longs&) override { return 0; }
  std::int32_t refuse(std::int32_t) override { return 0; }
  std::string label() override { return {}; }
  void label(const std::string&) override {}
  std::uint32_t calls() override { return 0; }
};

// The five Anys the issue names, each checked after the trip.
void check_echo_any(Integrity::Echo& echo) {
  any a;
  a <<= std::int32_t{-123456};
  std::int32_t l = 0;
  REQUIRE((echo.echo_any(a) >>= l));
  CHECK(l == -123456);

  a <<= "über any";
  std::string s;
  REQUIRE((echo.echo_any(a) >>= s));
  CHECK(s == "über any");

  a <<= sample_record();
  Integrity::Record r{};
  REQUIRE((echo.echo_any(a) >>= r));
  CHECK(r == sample_record());

  a <<= sample_nested();
  Integrity::Nested n;
  any back = echo.echo_any(a);
  CHECK(back.type().equivalent(Integrity::_tc_Nested()));
  REQUIRE((back >>= n));
  CHECK(n == sample_nested());

  Integrity::insert_Records(a, sample_records());
  Integrity::Records records;
  REQUIRE(Integrity::extract_Records(echo.echo_any(a), records));
  CHECK(records == sample_records());

  // An empty sequence of doubles before a long, at both alignments: an empty sequence has no
  // padding after its length.
  for (bool leading : {false, true}) {
    std::vector<type_code_member> members;
    if (leading) members.push_back({"lead", type_code::basic(tc_kind::tk_long)});
    members.push_back({"none", type_code::make_sequence(type_code::basic(tc_kind::tk_double))});
    members.push_back({"after", type_code::basic(tc_kind::tk_long)});
    type_code empty_then_long = type_code::make_struct("IDL:Test/EmptyThenLong:1.0", "EmptyThenLong", members);
    a.replace(empty_then_long, [&](cdr::output_stream& o) {
      if (leading) o.write_long(1);
      o.write_ulong(0);
      o.write_long(77);
    });
    any echoed = echo.echo_any(a);
    CHECK(echoed.type() == empty_then_long);
    auto in = echoed.value_stream();
    if (leading) CHECK(in.read_long() == 1);
    CHECK(in.read_ulong() == 0);
    CHECK(in.read_long() == 77);
  }

  // And one that needs every part of the walk: an Any in an Any, a union, an enum.
  any inner;
  inner <<= Integrity::Color::blue;
  a <<= inner;
  any inner_back;
  REQUIRE((echo.echo_any(a) >>= inner_back));
  Integrity::Color color{};
  REQUIRE((inner_back >>= color));
  CHECK(color == Integrity::Color::blue);
}

using test::omni_server;  // omni_server as a child process (tests/interop)

using namespace std::string_literals;

// A string holding a NUL through every way out of this client; with `server_refuses`, also
// written by hand onto the wire, for `echo`'s server to refuse.
void check_nul_strings_refused(Integrity::Echo& echo, bool server_refuses) {
  // The stub: BAD_PARAM before anything is sent.
  auto stub = test::system_exception_of([&] { echo.echo_string("string\0null"s); });
  CHECK(stub.kind() == SystemExceptionKind::BAD_PARAM);
  CHECK(stub.minor() == minor::nul_in_string_argument);
  CHECK(stub.completed() == CompletionStatus::no);
  CHECK(test::system_exception_of([&] { echo.echo_wstring(u"wide\0null"s); }).kind() == SystemExceptionKind::BAD_PARAM);
  // The DII: an Any holding one, as the argument and inside an Any argument.
  auto dii = test::system_exception_of([&] {
    request call(echo._reference(), "echo_string");
    call.add_in_arg("v") <<= "string\0null"s;
    call.set_return_type(type_code::basic(tc_kind::tk_string));
    call.invoke();
  });
  CHECK(dii.kind() == SystemExceptionKind::BAD_PARAM);
  if (!server_refuses) return;
  // On the wire anyway, written by hand: the server refuses to read it.
  auto wire = test::system_exception_of([&] {
    invocation call(echo._reference(), "echo_string");
    call.invoke([](cdr::output_stream& args) {
      const char text[] = "string\0null";  // 12 octets with the terminating NUL
      args.write_ulong(sizeof text);
      args.write_octets(text, sizeof text);
    });
  });
  CHECK(wire.kind() == SystemExceptionKind::MARSHAL);
  // The connection serves on.
  CHECK(echo.echo_string("string") == "string");
}

}  // namespace

TEST_CASE("echo_any through our ORB: Anys of every kind come back equal", "[dynamic][end_to_end]") {
  auto giop = GENERATE("1.0", "1.1", "1.2");
  CAPTURE(giop);
  test::serving_orb server({"-ORBGIOPVersion", giop});
  auto servant = std::make_shared<echo_servant>();
  auto ior = server.orb->object_to_string(server.orb->root_adapter().activate(servant));
  server.start();
  auto client = orb_init({"-ORBGIOPVersion", giop});
  auto echo = Integrity::Echo::_narrow(client->string_to_object(ior));
  REQUIRE_FALSE(echo._is_nil());
  check_echo_any(echo);
  CHECK(servant->anys == 8);
  client->destroy();
}

TEST_CASE("a string holding a NUL is refused on the way out and on the way in, by our ORB", "[dynamic][end_to_end]") {
  auto giop = GENERATE("1.0", "1.2");
  CAPTURE(giop);
  test::serving_orb server({"-ORBGIOPVersion", giop});
  auto ior = server.orb->object_to_string(server.orb->root_adapter().activate(std::make_shared<echo_servant>()));
  server.start();
  auto client = orb_init({"-ORBGIOPVersion", giop});
  auto echo = Integrity::Echo::_narrow(client->string_to_object(ior));
  REQUIRE_FALSE(echo._is_nil());
  check_nul_strings_refused(echo, true);
  client->destroy();
}

TEST_CASE("echo_any against omniORB's server", "[dynamic][interop]") {
  const char* program = std::getenv("OMNI_PEER_SERVER");
  if (program == nullptr || *program == '\0' || !std::filesystem::exists(program)) {
    WARN("OMNI_PEER_SERVER is not set or not built (omniORB not found at configure time): not checked");
    return;
  }
  omni_server server(program);
  auto giop = GENERATE("1.0", "1.2");
  CAPTURE(giop);
  auto client = orb_init({"-ORBGIOPVersion", giop});
  auto echo = Integrity::Echo::_narrow(client->string_to_object(server.ior("echo")));
  REQUIRE_FALSE(echo._is_nil());
  check_echo_any(echo);
  check_nul_strings_refused(echo, false);
  client->destroy();
}
