// Valuetypes through the DII and the DSI (values.idl's ValueEcho): a dynamic servant reads value
// arguments through their TypeCodes and answers our generated stub, and a DII client calls it and
// the generated servant. Where neither side has the value's factory, both read it from the
// TypeCode alone (orb/dynamic/dynamic_value.h): a cycle and shared members survive the trip, and
// the result extracts whole once the factory is back.
#include "values.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "switchyard/any.h"
#include "switchyard/dynamic_servant.h"
#include "switchyard/orb.h"
#include "switchyard/request.h"
#include "tests/core/orb_fixture.h"
#include "tests/value/node_graphs.h"
#include "tests/value/value_echo_servant.h"
#include "tests/value/value_testing.h"

using namespace switchyard;
using namespace switchyard::test::values;
using ::test::is_three_cycle;
using ::test::three_cycle;
using ::test::unlink_nodes;
using Values::Node;
using Values::OBV_Node;

namespace {

// ValueEcho's echo operations through the DSI: the argument's TypeCode is the result's.
class dsi_value_echo final : public dynamic_servant {
 public:
  dsi_value_echo() : dynamic_servant({std::string(Values::ValueEcho::_repository_id)}) {}
  void invoke(dynamic_request& request) override {
    const std::string_view operation = request.operation();
    type_code type;
    if (operation == "echo_node") type = Values::_tc_Node();
    else if (operation == "echo_pair") type = Values::_tc_Pair();
    else if (operation == "echo_base") type = Values::_tc_Base();
    else if (operation == "echo_any") type = type_code::basic(tc_kind::tk_any);
    else if (operation == "echo_describable") type = Values::_tc_Describable();
    else throw SystemException(SystemExceptionKind::BAD_OPERATION, 0);
    std::vector<named_value> list(1);
    list[0].value.set_type(type);
    auto& args = request.arguments(std::move(list));
    request.set_result(args[0].value);
  }
};

// echo_node through the DII: the Any's value as the argument, its TypeCode the result's.
any dii_echo_node(const object_ref& target, const any& node) {
  request call(target, "echo_node");
  call.add_in_arg("n") = node;
  call.set_return_type(Values::_tc_Node());
  call.invoke();
  return call.return_value();
}

}  // namespace

// A server on loopback serving `echo_servant`, and a client ORB, both speaking `giop`.
struct value_echo_server {
  value_echo_server(const std::string& giop, std::shared_ptr<servant> echo_servant)
      : server({"-ORBGIOPVersion", giop}) {
    ior = server.orb->object_to_string(server.orb->root_adapter().activate(std::move(echo_servant)));
    server.start();
    client = orb_init({"-ORBGIOPVersion", giop});
    target = client->string_to_object(ior);
  }
  ~value_echo_server() { client->destroy(); }

  ::test::serving_orb server;
  std::string ior;
  std::shared_ptr<orb> client;
  object_ref target;
};

TEST_CASE("a DSI servant reads values through their TypeCodes, for our stub and our DII", "[value][dynamic]") {
  const std::string giop = GENERATE(as<std::string>{}, "1.2", "1.0");
  value_echo_server peers(giop, std::make_shared<dsi_value_echo>());

  SECTION("our stub: a cycle, shared members, a derived value, an Any") {
    auto echo = Values::ValueEcho::_narrow(peers.target);
    const value_ref<Node> a = three_cycle();
    const value_ref<Node> back = echo.echo_node(a);
    unlink_nodes(a);
    CHECK(is_three_cycle(back));
    unlink_nodes(back);
    Values::Pair p;
    p.first = new OBV_Node(5, nullptr);
    p.second = p.first;
    const Values::Pair pair = echo.echo_pair(p);
    REQUIRE(pair.first);
    CHECK(pair.first == pair.second);
    const value_ref<Values::Base> derived = echo.echo_base(new Values::OBV_Derived(4, "kept", nullptr));
    auto* d = dynamic_cast<Values::Derived*>(derived.get());
    REQUIRE(d != nullptr);
    CHECK(d->a() == 4);
    CHECK(d->label() == "kept");
    any held;
    held <<= value_ref<Values::Text>(new Values::Text("in an Any"));
    value_ref<Values::Text> text;
    REQUIRE((echo.echo_any(held) >>= text));
    REQUIRE(text);
    CHECK(text->_value() == "in an Any");
    // An abstract interface: a value (made by Caption's factory on the way), a reference, nil.
    ::test::register_caption_factory();
    Values::Describable described =
        echo.echo_describable(value_ref<::test::caption_impl>(new ::test::caption_impl("dsi")));
    CHECK(described.describe() == "caption: dsi");
    unregister_value_factory(Values::Caption::_static_repository_id());
    const Values::Describable reference = echo.echo_describable(echo);
    REQUIRE(reference._is_object());
    CHECK(peers.client->object_to_string(reference._reference()) == peers.ior);
    CHECK(echo.echo_describable(Values::Describable())._is_nil());
  }
  SECTION("the DII, with the value's factory on neither side") {
    const value_ref<Node> a = three_cycle();
    any sent;
    sent <<= a;
    unlink_nodes(a);
    any result;
    {
      factory_removed unknown(Node::_static_repository_id());
      result = dii_echo_node(peers.target, sent);
      CHECK(result.type().equal(Values::_tc_Node()));
      CHECK(result == sent);
      value_ref<Node> none;
      CHECK(marshal_minor_of([&] { result >>= none; }) == minor::no_value_factory);
    }
    value_ref<Node> back;
    REQUIRE((result >>= back));
    CHECK(is_three_cycle(back));
    unlink_nodes(back);
  }
}

TEST_CASE("the DII calls the generated servant with values", "[value][dynamic]") {
  const std::string giop = GENERATE(as<std::string>{}, "1.2", "1.0");
  value_echo_server peers(giop, std::make_shared<::test::value_echo_servant>());
  const value_ref<Node> a = three_cycle();
  any sent;
  sent <<= a;
  unlink_nodes(a);
  const any result = dii_echo_node(peers.target, sent);
  CHECK(result == sent);
  value_ref<Node> back;
  REQUIRE((result >>= back));
  CHECK(is_three_cycle(back));
  unlink_nodes(back);
}
