// Valuetypes against omniORB: our generated stubs (tests/value/values.idl) call omniORB's
// ValueEcho (omni_value_peer server, built by omniidl from the same file without Derived and
// with PeerDerived). Null, a self-cycle and a 3-cycle, a struct whose members share one value,
// a sequence repeating one, boxes, a Derived omniORB must truncate to Base, a PeerDerived we
// must truncate, a value larger than omniORB's buffer, which it chunks wherever it fills
// (GIOP 1.2), values inside Anys, one of them relayed by a client without its factory, and an
// abstract interface holding a value, a reference or nothing. The peer is started and stopped by
// the test; every wait is bounded.
#include "values.h"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <string>

#include "switchyard/any.h"
#include "switchyard/orb.h"
#include "tests/interop/omni_server_process.h"
#include "tests/value/node_graphs.h"
#include "tests/value/value_echo_servant.h"
#include "tests/value/value_testing.h"

using namespace switchyard;
using Values::Node;
using Values::OBV_Node;

namespace {

std::string peer_program() {
  const char* p = std::getenv("OMNI_VALUE_PEER");
  return p ? p : "";
}

}  // namespace

TEST_CASE("valuetypes to omniORB's server and back", "[interop][value]") {
  if (peer_program().empty()) {
    WARN("OMNI_VALUE_PEER is not set: omniORB's value peer was not built");
    return;
  }
  const std::string giop = GENERATE(as<std::string>{}, "1.2", "1.1", "1.0");
  ::test::omni_server peer(peer_program(), 1, {"server"});
  auto client = orb_init({"-ORBGIOPVersion", giop});
  auto echo = Values::ValueEcho::_narrow(client->string_to_object(peer.ior("echo")));
  REQUIRE_FALSE(echo._is_nil());

  SECTION("null") {
    CHECK(!echo.echo_node(nullptr));
    CHECK(!echo.echo_text(nullptr));
    CHECK(echo.type_of(nullptr).empty());
  }
  SECTION("a self-cycle and a 3-cycle") {
    value_ref<Node> self = new OBV_Node(1, nullptr);
    self->next(self);
    value_ref<Node> back = echo.echo_node(self);
    ::test::unlink_nodes(self);
    REQUIRE(back);
    CHECK(back->id() == 1);
    CHECK(back->next() == back);
    ::test::unlink_nodes(back);

    value_ref<Node> a = ::test::three_cycle();
    back = echo.echo_node(a);
    ::test::unlink_nodes(a);
    CHECK(::test::is_three_cycle(back));
    ::test::unlink_nodes(back);
  }
  SECTION("sharing: a struct's two members, a sequence") {
    Values::Pair p;
    p.first = new OBV_Node(5, nullptr);
    p.second = p.first;
    Values::Pair back = echo.echo_pair(p);
    REQUIRE(back.first);
    CHECK(back.first == back.second);
    CHECK(back.first->id() == 5);
    value_ref<Node> x = new OBV_Node(1, nullptr), y = new OBV_Node(2, nullptr);
    Values::NodeSeq seq = echo.echo_nodes({x, y, x, nullptr});
    REQUIRE(seq.size() == 4);
    REQUIRE(seq[0]);
    CHECK(seq[0] == seq[2]);
    CHECK(seq[0] != seq[1]);
    CHECK(!seq[3]);
  }
  SECTION("boxes") {
    value_ref<Values::Text> t = echo.echo_text(new Values::Text("boxed"));
    REQUIRE(t);
    CHECK(t->_value() == "boxed");
    value_ref<Values::BoxedPoint> p = echo.echo_point(new Values::BoxedPoint(Values::Point{-3, 4}));
    REQUIRE(p);
    CHECK(p->_value() == Values::Point{-3, 4});
  }
  SECTION("truncation both ways") {
    // omniORB does not know Derived: it reads the Base in it and skips the rest.
    value_ref<Values::Base> d = new Values::OBV_Derived(11, "unknown there", new OBV_Node(12, nullptr));
    CHECK(echo.type_of(d) == std::string(Values::Base::_static_repository_id()));
    value_ref<Values::Base> back = echo.echo_base(d);
    REQUIRE(back);
    CHECK(dynamic_cast<Values::Derived*>(back.get()) == nullptr);
    CHECK(back->_repository_id() == Values::Base::_static_repository_id());
    CHECK(back->a() == 11);
    // We do not know PeerDerived: we read its Base.
    value_ref<Values::Base> made = echo.make_derived();
    REQUIRE(made);
    CHECK(made->_repository_id() == Values::Base::_static_repository_id());
    CHECK(made->a() == 7);
  }
  SECTION("a value larger than omniORB's buffer comes back chunked where the buffer filled") {
    // About 26 KiB of state: omniORB ends a chunk wherever its 8 KiB buffer fills, between two
    // strings, two members of a point or of a Reading (9.6 KiB of them: split at least once),
    // and we read on into the next chunk, rejoining the Readings with their layouts. Our chunks
    // end after each array that crosses a KiB, as omniORB's reader needs (docs/cdr.md, "Chunks
    // we write"). Only GIOP 1.2 carries it: omniORB cannot write a chunked value larger than its
    // buffer in 1.0 (it raises MARSHAL), and in 1.1 it fragments the reply at boundaries we
    // cannot read unambiguously (MARSHAL: docs/design.md, "GIOP 1.1 fragments").
    // Then, in 1.2, other shapes that move every array across omniORB's buffers differently,
    // up to about 80 KiB: a long sequence of strings, a long one of doubles, points and
    // Readings, everything at once, nearly nothing.
    struct shape {
      int names, points, weights, readings;
    };
    const shape shapes[] = {{400, 1000, 300, 600}, {2000, 10, 10, 10},   {5, 10, 7000, 5},
                            {3, 4000, 900, 2500},  {700, 700, 700, 700}, {1, 1, 1, 1}};
    for (const shape& s : shapes) {
      CAPTURE(s.names, s.points, s.weights, s.readings);
      Values::NameSeq names;
      Values::PointSeq points;
      Values::DoubleSeq weights;
      Values::ReadingSeq readings;
      for (int i = 0; i < s.names; ++i) names.push_back("name-" + std::to_string(i));
      for (int i = 0; i < s.points; ++i) points.push_back(Values::Point{i, -i});
      for (int i = 0; i < s.weights; ++i) weights.push_back(i * 0.5);
      for (int i = 0; i < s.readings; ++i) readings.push_back(Values::Reading{std::uint8_t(i % 256), i * 0.25, -i});
      const Values::Span range{-1.5, 1e9};
      value_ref<Values::Base> sent = new Values::OBV_Bulk(21, names, points, weights, readings, range);
      if (giop != "1.2") {
        CHECK_THROWS_AS(echo.echo_base(sent), SystemException);
        break;
      }
      value_ref<Values::Base> back = echo.echo_base(sent);
      auto* bulk = dynamic_cast<Values::Bulk*>(back.get());
      REQUIRE(bulk != nullptr);
      CHECK(bulk->a() == 21);
      CHECK(bulk->names() == names);
      CHECK(bulk->points() == points);
      CHECK(bulk->weights() == weights);
      CHECK(bulk->readings() == readings);
      CHECK(bulk->range() == range);
    }
  }
  SECTION("values inside Anys, and a value relayed without its factory") {
    value_ref<Node> a = ::test::three_cycle();
    any cycle;
    cycle <<= a;
    ::test::unlink_nodes(a);
    value_ref<Node> back;
    REQUIRE((echo.echo_any(cycle) >>= back));
    CHECK(::test::is_three_cycle(back));
    ::test::unlink_nodes(back);

    Values::Pair p;
    p.first = new OBV_Node(6, nullptr);
    p.second = p.first;
    any pair;
    pair <<= p;
    Values::Pair pair_back;
    REQUIRE((echo.echo_any(pair) >>= pair_back));
    REQUIRE(pair_back.first);
    CHECK(pair_back.first == pair_back.second);

    any text;
    text <<= value_ref<Values::Text>(new Values::Text("boxed"));
    value_ref<Values::Text> text_back;
    REQUIRE((echo.echo_any(text) >>= text_back));
    REQUIRE(text_back);
    CHECK(text_back->_value() == "boxed");

    // A Bulk comes back from omniORB (chunked where its buffer filled, when large) to a client
    // without Bulk's factory, which reads it from the Any's TypeCode, sends it again as it read
    // it, and extracts what omniORB returns once the factory is back. Large only in GIOP 1.2
    // (omniORB's limits above).
    const int n = giop == "1.2" ? 600 : 3;
    Values::NameSeq names;
    Values::PointSeq points;
    Values::DoubleSeq weights;
    Values::ReadingSeq readings;
    for (int i = 0; i < n; ++i) {
      names.push_back("name-" + std::to_string(i));
      points.push_back(Values::Point{i, -i});
      weights.push_back(i * 0.5);
      readings.push_back(Values::Reading{std::uint8_t(i % 256), i * 0.25, -i});
    }
    any bulk;
    bulk <<= value_ref<Values::Bulk>(new Values::OBV_Bulk(21, names, points, weights, readings, {-1.5, 1e9}));
    any relayed;
    {
      switchyard::test::values::factory_removed unknown(Values::Bulk::_static_repository_id());
      relayed = echo.echo_any(echo.echo_any(bulk));
    }
    value_ref<Values::Bulk> bulk_back;
    REQUIRE((relayed >>= bulk_back));
    REQUIRE(bulk_back);
    CHECK(bulk_back->a() == 21);
    CHECK(bulk_back->names() == names);
    CHECK(bulk_back->points() == points);
    CHECK(bulk_back->weights() == weights);
    CHECK(bulk_back->readings() == readings);
    CHECK(bulk_back->range() == Values::Span{-1.5, 1e9});
  }
  SECTION("an abstract interface holding a value, a reference, nothing; and one in an Any") {
    ::test::register_caption_factory();
    const value_ref<::test::caption_impl> caption = new ::test::caption_impl("to omniORB");
    CHECK(echo.describe_here(caption) == "caption: to omniORB");  // omniORB calls it locally
    Values::Describable back = echo.echo_describable(caption);
    REQUIRE(back._value());
    CHECK(back.describe() == "caption: to omniORB");

    CHECK(echo.describe_here(echo) == "a reference");
    back = echo.echo_describable(echo);
    REQUIRE(back._is_object());
    CHECK(back.describe() == "ValueEcho");  // a remote call to omniORB

    CHECK(echo.describe_here(Values::Describable()).empty());
    CHECK(echo.echo_describable(Values::Describable())._is_nil());

    any held;
    held <<= Values::Describable(caption);
    Values::Describable from_any;
    REQUIRE((echo.echo_any(held) >>= from_any));
    CHECK(from_any.describe() == "caption: to omniORB");
    unregister_value_factory(Values::Caption::_static_repository_id());
  }
  echo.shutdown();
  CHECK(peer.stop() == 0);
}
