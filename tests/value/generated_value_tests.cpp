// The code syidl generates for valuetypes (tests/value/values.idl): state accessors, default
// implementations and factories, boxes, truncation, a struct whose two members share a value,
// and the stubs and skeletons end to end through the ORB on loopback (one scope per message).
#include "values.h"

#include <catch2/catch.hpp>

#include <string>

#include "switchyard/any.h"
#include "switchyard/exception.h"
#include "switchyard/orb.h"
#include "switchyard/type_code.h"
#include "tests/cdr/hex.h"
#include "tests/core/orb_fixture.h"
#include "tests/value/node_graphs.h"
#include "tests/value/value_echo_servant.h"

using namespace switchyard;
using ::test::is_three_cycle;
using ::test::three_cycle;
using ::test::unlink_nodes;
using Values::Node;
using Values::OBV_Node;

namespace {

std::vector<std::byte> bytes_of(const cdr::output_stream& out) { return {out.data(), out.data() + out.size()}; }

}  // namespace

TEST_CASE("generated valuetypes: accessors, the default implementation, its factory", "[value][generated]") {
  value_ref<Node> n = new OBV_Node(5, nullptr);
  CHECK(n->id() == 5);
  n->id(6);
  CHECK(n->id() == 6);
  CHECK(n->_repository_id() == "IDL:switchyard.test/Values/Node:1.0");
  // syidl registered a factory making OBV_Node.
  auto factory = lookup_value_factory(Node::_static_repository_id());
  REQUIRE(factory);
  CHECK(dynamic_cast<OBV_Node*>(factory->create_for_unmarshal().get()) != nullptr);
  // Label has an operation: no default factory, no OBV_ class.
  CHECK(lookup_value_factory(Values::Label::_static_repository_id()) == nullptr);
}

TEST_CASE("generated valuetypes round-trip: a 3-cycle, a self-cycle", "[value][generated]") {
  value_ref<Node> a = three_cycle();
  value_ref<Node> self = new OBV_Node(9, nullptr);
  self->next(self);
  cdr::output_stream out;
  write_value(out, a);
  write_value(out, self);
  unlink_nodes(a);
  unlink_nodes(self);
  auto bytes = bytes_of(out);
  cdr::input_stream in(bytes, cdr::native_byte_order);
  value_ref<Node> back, back_self;
  read_value(in, back);
  read_value(in, back_self);
  CHECK(is_three_cycle(back));
  REQUIRE(back_self);
  CHECK(back_self->next() == back_self);
  unlink_nodes(back);
  unlink_nodes(back_self);
}

TEST_CASE("a struct whose two members are one value reads back as one value", "[value][generated]") {
  Values::Pair p;
  p.first = new OBV_Node(1, nullptr);
  p.second = p.first;
  cdr::output_stream out;
  cdr_write(out, p);
  cdr::output_stream alone;
  write_value(alone, p.first);
  CHECK(out.size() == alone.size() + 8);  // the second member is an 8-octet indirection
  auto bytes = bytes_of(out);
  cdr::input_stream in(bytes, cdr::native_byte_order);
  Values::Pair back;
  cdr_read(in, back);
  REQUIRE(back.first);
  CHECK(back.first == back.second);
}

TEST_CASE("a union's branch whose elements are one value reads back as one value", "[value][generated]") {
  Values::NodesOrCount u;
  value_ref<Node> x = new OBV_Node(3, nullptr);
  u.nodes({x, x});
  cdr::output_stream out;
  cdr_write(out, u);
  auto bytes = bytes_of(out);
  cdr::input_stream in(bytes, cdr::native_byte_order);
  Values::NodesOrCount back;
  cdr_read(in, back);
  REQUIRE(back.nodes().size() == 2);
  REQUIRE(back.nodes()[0]);
  CHECK(back.nodes()[0]->id() == 3);
  CHECK(back.nodes()[0] == back.nodes()[1]);
  CHECK(in.at_end());
}

TEST_CASE("a generated truncatable value: read whole, or truncated to its base", "[value][generated]") {
  value_ref<Values::Base> d = new Values::OBV_Derived(3, "three", new OBV_Node(4, nullptr));
  cdr::output_stream out;
  write_value(out, d);
  auto bytes = bytes_of(out);
  {
    cdr::input_stream in(bytes, cdr::native_byte_order);
    value_ref<Values::Base> back;
    read_value(in, back);
    auto* derived = dynamic_cast<Values::Derived*>(back.get());
    REQUIRE(derived != nullptr);
    CHECK(derived->a() == 3);
    CHECK(derived->label() == "three");
    REQUIRE(derived->extra());
    CHECK(derived->extra()->id() == 4);
  }
  auto saved = lookup_value_factory(Values::Derived::_static_repository_id());
  unregister_value_factory(Values::Derived::_static_repository_id());
  {
    cdr::input_stream in(bytes, cdr::native_byte_order);
    value_ref<Values::Base> back;
    read_value(in, back);
    REQUIRE(back);
    CHECK(dynamic_cast<Values::Derived*>(back.get()) == nullptr);
    CHECK(back->_repository_id() == Values::Base::_static_repository_id());
    CHECK(back->a() == 3);
    CHECK(in.at_end());
  }
  register_value_factory(Values::Derived::_static_repository_id(), saved);
}

TEST_CASE("generated boxes and a valuetype with private state and a user factory", "[value][generated]") {
  ::test::register_label_factory();
  value_ref<Values::Text> t = new Values::Text("boxed");
  value_ref<Values::BoxedPoint> p = new Values::BoxedPoint(Values::Point{3, 4});
  value_ref<Values::Label> l = new ::test::label_impl("private");
  cdr::output_stream out;
  write_value(out, t);
  write_value(out, p);
  write_value(out, l);
  auto bytes = bytes_of(out);
  cdr::input_stream in(bytes, cdr::native_byte_order);
  value_ref<Values::Text> t2;
  value_ref<Values::BoxedPoint> p2;
  value_ref<Values::Label> l2;
  read_value(in, t2);
  read_value(in, p2);
  read_value(in, l2);
  REQUIRE(t2);
  CHECK(t2->_value() == "boxed");
  REQUIRE(p2);
  CHECK(p2->_value() == Values::Point{3, 4});
  REQUIRE(l2);
  CHECK(l2->name() == "private");
  unregister_value_factory(Values::Label::_static_repository_id());
}

namespace {

// Account supports Greeter: the value class declares greet(), and Account_skeleton makes an
// Account that is also a Greeter servant.
class account final : public Values::Account_skeleton {
 public:
  std::string greet() override { return "hello, " + owner(); }
};

class account_factory final : public Values::Account_init {
 public:
  value_ref<Values::Account> open(const std::string& owner) override {
    value_ref<Values::Account> a = new account;
    a->owner(owner);
    return a;
  }
  value_ref<value_base> create_for_unmarshal() const override { return new account; }
};

}  // namespace

TEST_CASE("a value that supports an interface serves it, and still travels by value", "[value][generated]") {
  ::test::serving_orb server;
  value_ref<account> ada = new account;
  ada->owner("ada");
  auto reference = server.orb->root_adapter().activate(value_servant(ada));
  server.start();
  account* const active = ada.get();
  ada.reset();  // the adapter keeps it alive while it is active
  auto client = orb_init({"-ORBGIOPVersion", "1.2"});
  auto greeter = Values::Greeter::_narrow(client->string_to_object(server.orb->object_to_string(reference)));
  REQUIRE_FALSE(greeter._is_nil());
  CHECK(greeter.greet() == "hello, ada");

  // The same object by value: its state goes, and the receiver's factory makes its own.
  auto factory = std::make_shared<account_factory>();
  register_value_factory(Values::Account::_static_repository_id(), factory);
  cdr::output_stream out;
  write_value(out, value_ref<Values::Account>(active));
  auto bytes = bytes_of(out);
  cdr::input_stream in(bytes, cdr::native_byte_order);
  value_ref<Values::Account> back;
  read_value(in, back);
  REQUIRE(back);
  CHECK(back.get() != active);
  CHECK(back->greet() == "hello, ada");
  unregister_value_factory(Values::Account::_static_repository_id());
}

TEST_CASE("a valuetype with an initializer and a supported interface", "[value][generated]") {
  // An initializer: no default factory; the application registers its Account_init.
  CHECK(lookup_value_factory(Values::Account::_static_repository_id()) == nullptr);
  auto factory = std::make_shared<account_factory>();
  register_value_factory(Values::Account::_static_repository_id(), factory);
  value_ref<Values::Account> a = factory->open("ada");
  a->balance(-5);
  cdr::output_stream out;
  write_value(out, a);
  auto bytes = bytes_of(out);
  cdr::input_stream in(bytes, cdr::native_byte_order);
  value_ref<Values::Account> back;
  read_value(in, back);
  REQUIRE(back);
  CHECK(back->owner() == "ada");
  CHECK(back->balance() == -5);
  unregister_value_factory(Values::Account::_static_repository_id());
}

TEST_CASE("valuetypes through generated stubs and skeletons, end to end", "[value][generated]") {
  const std::string giop = GENERATE(as<std::string>{}, "1.2", "1.0");
  ::test::serving_orb server({"-ORBGIOPVersion", giop});
  auto servant = std::make_shared<::test::value_echo_servant>();
  auto ior = server.orb->object_to_string(server.orb->root_adapter().activate(servant));
  server.start();
  auto client = orb_init({"-ORBGIOPVersion", giop});
  auto echo = Values::ValueEcho::_narrow(client->string_to_object(ior));
  REQUIRE_FALSE(echo._is_nil());

  SECTION("null") {
    CHECK(!echo.echo_node(nullptr));
    CHECK(!echo.echo_text(nullptr));
    CHECK(echo.type_of(nullptr).empty());
  }
  SECTION("a 3-cycle and a self-cycle") {
    value_ref<Node> a = three_cycle();
    value_ref<Node> back = echo.echo_node(a);
    unlink_nodes(a);
    CHECK(is_three_cycle(back));
    unlink_nodes(back);
    value_ref<Node> self = new OBV_Node(1, nullptr);
    self->next(self);
    back = echo.echo_node(self);
    unlink_nodes(self);
    REQUIRE(back);
    CHECK(back->next() == back);
    unlink_nodes(back);
  }
  SECTION("sharing within a struct and across a sequence") {
    Values::Pair p;
    p.first = new OBV_Node(1, nullptr);
    p.second = p.first;
    Values::Pair back = echo.echo_pair(p);
    REQUIRE(back.first);
    CHECK(back.first == back.second);
    value_ref<Node> x = new OBV_Node(1, nullptr), y = new OBV_Node(2, nullptr);
    Values::NodeSeq seq = echo.echo_nodes({x, y, x, nullptr});
    REQUIRE(seq.size() == 4);
    CHECK(seq[0] == seq[2]);
    CHECK(seq[0] != seq[1]);
    CHECK(!seq[3]);
  }
  SECTION("boxes") {
    value_ref<Values::Text> t = echo.echo_text(new Values::Text("hi"));
    REQUIRE(t);
    CHECK(t->_value() == "hi");
    value_ref<Values::BoxedPoint> p = echo.echo_point(new Values::BoxedPoint(Values::Point{-1, 2}));
    REQUIRE(p);
    CHECK(p->_value() == Values::Point{-1, 2});
  }
  SECTION("a derived value where its base is expected") {
    value_ref<Values::Base> b = echo.echo_base(new Values::OBV_Derived(1, "one", nullptr));
    REQUIRE(dynamic_cast<Values::Derived*>(b.get()) != nullptr);
    CHECK(echo.type_of(new Values::OBV_Base(2)) == std::string(Values::Base::_static_repository_id()));
    CHECK(echo.type_of(new Values::OBV_Derived(2, "", nullptr)) ==
          std::string(Values::Derived::_static_repository_id()));
    value_ref<Values::Base> made = echo.make_derived();
    auto* derived = dynamic_cast<Values::Derived*>(made.get());
    REQUIRE(derived != nullptr);
    CHECK(derived->a() == 7);
    REQUIRE(derived->extra());
    CHECK(derived->extra()->id() == 8);
  }
  SECTION("an Any holding a cycle, and one holding a struct whose members share a value") {
    value_ref<Node> a = three_cycle();
    any sent;
    sent <<= a;
    unlink_nodes(a);
    value_ref<Node> back;
    REQUIRE((echo.echo_any(sent) >>= back));
    CHECK(is_three_cycle(back));
    unlink_nodes(back);
    Values::Pair p;
    p.first = new OBV_Node(6, nullptr);
    p.second = p.first;
    any pair;
    pair <<= p;
    Values::Pair pair_back;
    REQUIRE((echo.echo_any(pair) >>= pair_back));
    REQUIRE(pair_back.first);
    CHECK(pair_back.first->id() == 6);
    CHECK(pair_back.first == pair_back.second);
  }
}

TEST_CASE("generated TypeCodes of valuetypes and boxes", "[value][generated]") {
  SECTION("a recursive valuetype") {
    const type_code& node = Values::_tc_Node();
    CHECK(node.kind() == tc_kind::tk_value);
    CHECK(node.id() == "IDL:switchyard.test/Values/Node:1.0");
    CHECK(node.name() == "Node");
    CHECK(node.type_modifier() == value_modifier::none);
    CHECK(node.concrete_base_type().kind() == tc_kind::tk_null);
    REQUIRE(node.member_count() == 2);
    CHECK(node.member_name(0) == "id");
    CHECK(node.member_type(0).kind() == tc_kind::tk_long);
    CHECK(node.member_visibility(0) == 1);
    CHECK(node.member_name(1) == "next");
    CHECK(node.member_type(1).kind() == tc_kind::tk_value);
    CHECK(node.member_type(1).id() == node.id());  // the recursion, resolved
  }
  SECTION("truncatable, with its concrete base; private state; abstract") {
    const type_code& derived = Values::_tc_Derived();
    CHECK(derived.type_modifier() == value_modifier::truncatable);
    CHECK(derived.concrete_base_type().equal(Values::_tc_Base()));
    REQUIRE(derived.member_count() == 2);
    CHECK(derived.member_name(0) == "label");
    CHECK(derived.member_type(1).equal(Values::_tc_Node()));
    CHECK(Values::_tc_Label().member_visibility(0) == 0);
    CHECK(Values::_tc_Named().type_modifier() == value_modifier::abstract);
    CHECK(Values::_tc_Named().member_count() == 0);
  }
  SECTION("boxes, and a struct holding values") {
    CHECK(Values::_tc_Text().kind() == tc_kind::tk_value_box);
    CHECK(Values::_tc_Text().content_type().kind() == tc_kind::tk_string);
    CHECK(Values::_tc_BoxedPoint().content_type().equal(Values::_tc_Point()));
    CHECK(Values::_tc_Pair().member_type(0).equal(Values::_tc_Node()));
    const type_code held = Values::_tc_Holder().member_type(0);  // ValueBase
    CHECK(held.kind() == tc_kind::tk_value);
    CHECK(held.id() == "IDL:omg.org/CORBA/ValueBase:1.0");
    CHECK(held.member_count() == 0);
  }
  SECTION("in CDR: byte for byte (Base), and read back equal (recursive and derived)") {
    cdr::output_stream out;
    write_type_code(out, Values::_tc_Base());
    // tk_value (29), an encapsulation of 78 octets: byte order, id, name "Base", a padding octet
    // and modifier 0, tk_null, one member: "a", padding, tk_long (3), public (1).
    CHECK(switchyard::test::to_hex(out.bytes()) ==
          "1d 00 00 00 4e 00 00 00 01 00 00 00 "
          "24 00 00 00 49 44 4c 3a 73 77 69 74 63 68 79 61 72 64 2e 74 65 73 74 2f 56 61 6c 75 65 73 2f 42 61 "
          "73 65 3a 31 2e 30 00 "
          "05 00 00 00 42 61 73 65 00 00 00 00 00 00 00 00 01 00 00 00 02 00 00 00 61 00 00 00 03 00 00 00 "
          "01 00");
    for (const type_code* tc :
         {&Values::_tc_Node(), &Values::_tc_Derived(), &Values::_tc_Text(), &Values::_tc_Holder()}) {
      cdr::output_stream o;
      write_type_code(o, *tc);
      auto bytes = bytes_of(o);
      cdr::input_stream in(bytes, cdr::native_byte_order);
      CHECK(read_type_code(in).equal(*tc));
      CHECK(in.at_end());
    }
  }
}
