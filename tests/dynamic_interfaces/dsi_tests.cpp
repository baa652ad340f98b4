// The DSI (switchyard/dynamic_servant.h) on our own ORB: a dynamic Echo servant answers our
// generated stub and our DII for every operation, under every demultiplexing strategy and GIOP
// version; the built-in operations answer from its ids; and a servant's mistakes (arguments read
// twice, a value that does not match its TypeCode, no value for an out argument, an exception Any
// that holds no exception) come back to the client as the system exceptions they are.
#include "switchyard/dynamic_servant.h"

#include <catch2/catch.hpp>

#include <functional>

#include "switchyard/orb.h"
#include "tests/core/orb_fixture.h"
#include "tests/dynamic_interfaces/dsi_echo_servant.h"
#include "tests/dynamic_interfaces/echo_dii_calls.h"

using namespace switchyard;

namespace {

void require_system(SystemExceptionKind kind, const std::function<void()>& call) {
  try {
    call();
    FAIL("no exception");
  } catch (const SystemException& e) {
    CHECK(e.kind() == kind);
  }
}

struct dsi_server {
  explicit dsi_server(std::vector<std::string> server_args = {}, std::vector<std::string> client_args = {})
      : server(std::move(server_args)) {
    const object_ref reference = server.orb->root_adapter().activate(servant);
    ior = server.orb->object_to_string(reference);
    server.start();
    client = orb_init(std::move(client_args));
    target = client->string_to_object(ior);
  }
  ~dsi_server() { client->destroy(); }

  std::shared_ptr<test::dsi_echo_servant> servant = std::make_shared<test::dsi_echo_servant>();
  test::serving_orb server;
  std::string ior;
  std::shared_ptr<orb> client;
  object_ref target;
};

// Every Echo operation through the generated stub.
void check_stub(Integrity::Echo& echo) {
  CHECK(echo.echo_boolean(true));
  CHECK(echo.echo_octet(0x5a) == 0x5a);
  CHECK(echo.echo_char('q') == 'q');
  CHECK(echo.echo_short(-3) == -3);
  CHECK(echo.echo_ushort(65000) == 65000);
  CHECK(echo.echo_long(-70000) == -70000);
  CHECK(echo.echo_ulong(4000000000u) == 4000000000u);
  CHECK(echo.echo_longlong(-(1LL << 40)) == -(1LL << 40));
  CHECK(echo.echo_ulonglong(1ULL << 63) == 1ULL << 63);
  CHECK(echo.echo_float(0.25f) == 0.25f);
  CHECK(echo.echo_double(1e-300) == 1e-300);
  CHECK(echo.echo_string("dsi") == "dsi");
  CHECK(echo.echo_wstring(u"w\u00e9") == u"w\u00e9");
  CHECK(echo.echo_color(Integrity::Color::blue) == Integrity::Color::blue);
  CHECK(echo.echo_record(sample_record()) == sample_record());
  CHECK(echo.echo_narecord(sample_narecord()) == sample_narecord());
  Integrity::Variant v;
  v.d(2.5);
  CHECK(echo.echo_variant(v) == v);
  Integrity::Matrix m{};
  m[2][3] = 23;
  CHECK(echo.echo_matrix(m) == m);
  CHECK(echo.echo_nested(sample_nested()) == sample_nested());
  const Integrity::Octets octets(3000, 7);
  CHECK(echo.echo_octets(octets) == octets);
  CHECK(echo.echo_longs({1, 2, 3}) == Integrity::Longs{1, 2, 3});
  CHECK(echo.echo_doubles({0.5}) == Integrity::Doubles{0.5});
  CHECK(echo.echo_records(sample_records()) == sample_records());
  CHECK(echo.echo_narecords({sample_narecord()}) == Integrity::NARecords{sample_narecord()});
  CHECK(echo.echo_strings({"a", "b"}) == Integrity::Strings{"a", "b"});
  any a;
  a <<= sample_nested();
  Integrity::Nested n;
  REQUIRE((echo.echo_any(a) >>= n));
  CHECK(n == sample_nested());
  std::int32_t x = 8;
  std::string s = "abc";
  echo.twist(x, s);
  CHECK(x == 16);
  CHECK(s == "cba");
  std::string name;
  Integrity::Longs values;
  CHECK(echo.split(sample_nested(), name, values) == 3);
  CHECK(name == sample_nested().name);
  CHECK(values == sample_nested().values);
  CHECK(echo.refuse(0) == 0);
  try {
    echo.refuse(9);
    FAIL("no exception");
  } catch (const Integrity::Refused& e) {
    CHECK(e.reason == "refused");
    CHECK(e.code == 9);
  }
  echo.label("dsi label");
  CHECK(echo.label() == "dsi label");
  const std::uint32_t first = echo.calls();
  CHECK(echo.calls() == first + 1);
}

}  // namespace

TEST_CASE("DSI: our stub and our DII call a dynamic servant for every Echo operation", "[dsi]") {
  auto giop = GENERATE("1.0", "1.1", "1.2");
  CAPTURE(giop);
  dsi_server s({"-ORBGIOPVersion", giop}, {"-ORBGIOPVersion", giop});
  auto echo = Integrity::Echo::_narrow(s.target);
  REQUIRE_FALSE(echo._is_nil());
  check_stub(echo);
  test::check_every_echo_operation(s.target, true);
}

TEST_CASE("DSI: a dynamic servant is found under every demultiplexing strategy", "[dsi]") {
  auto strategy = GENERATE("linear", "dynamic", "perfect", "active");
  CAPTURE(strategy);
  dsi_server s({"-ORBServantDemux", strategy, "-ORBOperationDemux", strategy});
  // Beside a generated servant in the same adapter, and with several dynamic ones.
  auto more = std::make_shared<test::dsi_echo_servant>();
  const std::string more_ior = s.server.orb->object_to_string(s.server.orb->root_adapter().activate(more));
  auto echo = Integrity::Echo::_narrow(s.target);
  CHECK(echo.echo_long(5) == 5);  // the stub sends the operation's index: not in the empty table
  auto other = Integrity::Echo::_narrow(s.client->string_to_object(more_ior));
  CHECK(other.echo_string("other") == "other");
  CHECK(more->served() == 1);
  request call(s.target, "echo_double");
  call.add_in_arg() <<= 4.5;
  call.set_return_type(type_code::basic(tc_kind::tk_double));
  call.invoke();
  double d = 0;
  REQUIRE((call.return_value() >>= d));
  CHECK(d == 4.5);
}

TEST_CASE("DSI: the built-in operations answer from the servant's ids", "[dsi]") {
  dsi_server s;
  CHECK(s.target.repository_id() == "IDL:Integrity/Echo:1.0");
  CHECK(s.target.is_a("IDL:Integrity/Echo:1.0"));
  CHECK(s.target.is_a("IDL:omg.org/CORBA/Object:1.0"));
  CHECK_FALSE(s.target.is_a("IDL:ttcp_sequence:1.0"));
  CHECK_FALSE(s.target.non_existent());
  request id(s.target, "_repository_id");
  id.set_return_type(type_code::make_string());
  id.invoke();
  std::string got;
  REQUIRE((id.return_value() >>= got));
  CHECK(got == "IDL:Integrity/Echo:1.0");
  // Several interfaces: every id is one _is_a knows.
  struct two_faced final : dynamic_servant {
    two_faced() : dynamic_servant({"IDL:Derived:1.0", "IDL:Base:1.0"}) {}
    void invoke(dynamic_request&) override { throw SystemException(SystemExceptionKind::NO_IMPLEMENT, 0); }
  };
  auto both = s.server.orb->root_adapter().activate(std::make_shared<two_faced>());
  auto remote = s.client->string_to_object(s.server.orb->object_to_string(both));
  CHECK(remote.repository_id() == "IDL:Derived:1.0");
  CHECK(remote.is_a("IDL:Base:1.0"));
  request nothing(remote, "anything");
  require_system(SystemExceptionKind::NO_IMPLEMENT, [&] { nothing.invoke(); });
  // A dynamic servant needs an id.
  struct nameless final : dynamic_servant {
    nameless() : dynamic_servant({}) {}
    void invoke(dynamic_request&) override {}
  };
  require_system(SystemExceptionKind::BAD_PARAM, [] { nameless n; });
}

namespace {

// A servant that makes one mistake per operation.
struct clumsy final : dynamic_servant {
  clumsy() : dynamic_servant({"IDL:Clumsy:1.0"}) {}
  void invoke(dynamic_request& request) override {
    std::vector<named_value> args(1);
    args[0].value.set_type(type_code::make_string());
    if (request.operation() == "twice") {
      request.arguments(args);
      request.arguments(args);
    } else if (request.operation() == "wrong_type") {
      request.arguments(args);  // the client sent a long of 0x7fffffff: a string of that length
    } else if (request.operation() == "out_without_value") {
      args[0].mode = arg_mode::out;
      request.arguments(args);
    } else if (request.operation() == "not_an_exception") {
      any a;
      a <<= std::int32_t{1};
      request.set_exception(a);
    } else if (request.operation() == "thrown_user_exception") {
      any refused;
      refused <<= Integrity::Refused("thrown", 3);
      throw unknown_user_exception(refused);
    } else if (request.operation() == "oneway_note") {
      request.arguments(args)[0].value >>= note;
    }
  }
  std::string note;
};

}  // namespace

TEST_CASE("DSI: a servant's mistakes reach the client as system exceptions", "[dsi]") {
  test::serving_orb server;
  auto servant = std::make_shared<clumsy>();
  const std::string ior = server.orb->object_to_string(server.orb->root_adapter().activate(servant));
  server.start();
  auto client = orb_init({});
  object_ref target = client->string_to_object(ior);
  auto call = [&](const char* operation, std::function<void(request&)> setup = {}) {
    request r(target, operation);
    if (setup) setup(r);
    r.invoke();
  };
  require_system(SystemExceptionKind::BAD_INV_ORDER,
                 [&] { call("twice", [](request& r) { r.add_in_arg() <<= "x"; }); });
  require_system(SystemExceptionKind::MARSHAL,
                 [&] { call("wrong_type", [](request& r) { r.add_in_arg() <<= std::int32_t{0x7fffffff}; }); });
  require_system(SystemExceptionKind::BAD_PARAM, [&] { call("out_without_value"); });
  require_system(SystemExceptionKind::BAD_PARAM, [&] { call("not_an_exception"); });
  try {
    call("thrown_user_exception", [](request& r) { r.add_exception(Integrity::_tc_Refused()); });
    FAIL("no exception");
  } catch (const unknown_user_exception& e) {
    Integrity::Refused refused;
    REQUIRE((e.exception() >>= refused));
    CHECK(refused.reason == "thrown");
  }
  // One-way: no reply, the servant still runs.
  request note(target, "oneway_note");
  note.add_in_arg() <<= "noted";
  note.send_oneway();
  request twice(target, "twice");
  twice.add_in_arg() <<= "y";
  require_system(SystemExceptionKind::BAD_INV_ORDER, [&] { twice.invoke(); });  // after the one-way
  CHECK(servant->note == "noted");
  client->destroy();
}
