// Valuetypes inside an Any (values.idl's generated code): inserted and extracted, sent through a
// message and read back with sharing and cycles intact; read without a factory from the Any's
// TypeCode alone (orb/dynamic/dynamic_value.h) and sent on unchanged, truncated where the type
// allows it; and refused with MARSHAL where the TypeCode cannot say how to read the value.
#include "values.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "switchyard/any.h"
#include "switchyard/exception.h"
#include "switchyard/type_code.h"
#include "switchyard/value.h"
#include "tests/value/node_graphs.h"
#include "tests/value/value_testing.h"

using namespace switchyard;
using namespace switchyard::test::values;
using ::test::is_three_cycle;
using ::test::three_cycle;
using ::test::unlink_nodes;
using Values::Node;
using Values::OBV_Node;

namespace {

// An Any through a message: a long before it, so that the value does not start where it did.
std::vector<std::byte> message_of(const any& a) {
  cdr::output_stream out;
  out.write_octet(9);
  write_any(out, a);
  return bytes_of(out);
}

any any_of(const std::vector<std::byte>& message) {
  auto in = reader_of(message);
  CHECK(in.read_octet() == 9);
  any a;
  read_any(in, a);
  CHECK(in.at_end());
  return a;
}

value_ref<Values::Bulk> sample_bulk(std::size_t n) {
  Values::NameSeq names;
  Values::PointSeq points;
  Values::DoubleSeq weights;
  Values::ReadingSeq readings;
  for (std::size_t i = 0; i < n; ++i) {
    names.push_back("name " + std::to_string(i));
    points.push_back({static_cast<std::int32_t>(i), -static_cast<std::int32_t>(i)});
    weights.push_back(static_cast<double>(i) / 4);
    readings.push_back({static_cast<std::uint8_t>(i), static_cast<double>(i) * 1.5, static_cast<std::int32_t>(i)});
  }
  return new Values::OBV_Bulk(21, names, points, weights, readings, {-1.5, 1e9});
}

void check_same_bulk(const value_ref<Values::Bulk>& got, const value_ref<Values::Bulk>& sent) {
  REQUIRE(got);
  CHECK(got->a() == sent->a());
  CHECK(got->names() == sent->names());
  CHECK(got->points() == sent->points());
  CHECK(got->weights() == sent->weights());
  CHECK(got->readings() == sent->readings());
  CHECK(got->range() == sent->range());
}

}  // namespace

TEST_CASE("an Any holds a generated value: inserted, sent, read and extracted whole", "[value][any]") {
  SECTION("a cycle") {
    const value_ref<Node> sent = three_cycle();
    any a;
    a <<= sent;
    CHECK(a.type().equal(Values::_tc_Node()));
    const any b = any_of(message_of(a));
    CHECK(b.type().equal(Values::_tc_Node()));
    value_ref<Node> n;
    REQUIRE((b >>= n));
    CHECK(is_three_cycle(n));
    value_ref<Values::Base> wrong;
    CHECK_FALSE((b >>= wrong));
    unlink_nodes(n);
    value_ref<Node> inserted;
    REQUIRE((a >>= inserted));
    unlink_nodes(inserted);
    unlink_nodes(sent);
  }
  SECTION("a struct whose two members share a value: shared after the trip") {
    Values::Pair p;
    p.first = new OBV_Node(4, nullptr);
    p.second = p.first;
    any a;
    a <<= p;
    Values::Pair back;
    REQUIRE((any_of(message_of(a)) >>= back));
    REQUIRE(back.first);
    CHECK(back.first->id() == 4);
    CHECK(back.first == back.second);
  }
  SECTION("null") {
    any a;
    a <<= value_ref<Node>();
    value_ref<Node> n = new OBV_Node(1, nullptr);
    REQUIRE((any_of(message_of(a)) >>= n));
    CHECK_FALSE(n);
  }
  SECTION("a box") {
    any a;
    a <<= value_ref<Values::Text>(new Values::Text("boxed"));
    value_ref<Values::Text> t;
    REQUIRE((any_of(message_of(a)) >>= t));
    REQUIRE(t);
    CHECK(t->_value() == "boxed");
  }
  SECTION("an Any inside an Any") {
    const value_ref<Node> sent = three_cycle();
    any inner;
    inner <<= sent;
    any outer;
    outer <<= inner;
    any inner_back;
    REQUIRE((any_of(message_of(outer)) >>= inner_back));
    value_ref<Node> n;
    REQUIRE((inner_back >>= n));
    CHECK(is_three_cycle(n));
    unlink_nodes(n);
    REQUIRE((inner >>= n));
    unlink_nodes(n);
    unlink_nodes(sent);
  }
}

TEST_CASE("a value whose factory is unknown is read from the Any's TypeCode and sent on unchanged", "[value][any]") {
  SECTION("a cycle and a shared value, written back octet for octet") {
    Values::Pair p;
    p.first = three_cycle();
    p.second = p.first->next();
    any a;
    a <<= p;
    const std::vector<std::byte> sent = message_of(a);
    std::vector<std::byte> forwarded;
    {
      factory_removed unknown(Node::_static_repository_id());
      const any relayed = any_of(sent);
      forwarded = message_of(relayed);
      Values::Pair no_factory;
      CHECK(marshal_minor_of([&] { relayed >>= no_factory; }) == minor::no_value_factory);
    }
    CHECK(forwarded == sent);
    Values::Pair back;
    REQUIRE((any_of(forwarded) >>= back));
    CHECK(is_three_cycle(back.first));
    CHECK(back.second == back.first->next());
    unlink_nodes(back.first);
    unlink_nodes(p.first);
  }
  SECTION("a chunked value holding a value, written back octet for octet") {
    const value_ref<Values::Derived> derived = new Values::OBV_Derived(7, "kept", new OBV_Node(8, nullptr));
    any a;
    a <<= derived;
    const std::vector<std::byte> sent = message_of(a);
    std::vector<std::byte> forwarded;
    {
      factory_removed unknown(Values::Derived::_static_repository_id());
      forwarded = message_of(any_of(sent));
    }
    CHECK(forwarded == sent);
    value_ref<Values::Derived> back;
    REQUIRE((any_of(forwarded) >>= back));
    REQUIRE(back);
    CHECK(back->label() == "kept");
    REQUIRE(back->extra());
    CHECK(back->extra()->id() == 8);
  }
  SECTION("a chunked value with runs, strings and doubles") {
    for (std::size_t n : {0u, 3u, 400u}) {
      INFO(n << " elements of each sequence");
      const value_ref<Values::Bulk> sent = sample_bulk(n);
      any a;
      a <<= sent;
      std::vector<std::byte> forwarded;
      {
        factory_removed unknown(Values::Bulk::_static_repository_id());
        forwarded = message_of(any_of(message_of(a)));
      }
      value_ref<Values::Bulk> back;
      REQUIRE((any_of(forwarded) >>= back));
      check_same_bulk(back, sent);
    }
  }
  SECTION("a box") {
    any a;
    a <<= value_ref<Values::Text>(new Values::Text("boxed"));
    std::vector<std::byte> forwarded;
    {
      factory_removed unknown(Values::Text::_static_repository_id());
      forwarded = message_of(any_of(message_of(a)));
    }
    value_ref<Values::Text> t;
    REQUIRE((any_of(forwarded) >>= t));
    REQUIRE(t);
    CHECK(t->_value() == "boxed");
  }
  SECTION("a derived value the receiver does not know is truncated to the Any's type") {
    value_ref<Values::Base> derived = new Values::OBV_Derived(7, "dropped", three_cycle());
    any a;
    a <<= derived;
    CHECK(a.type().equal(Values::_tc_Base()));
    std::vector<std::byte> forwarded;
    {
      factory_removed no_derived(Values::Derived::_static_repository_id());
      factory_removed no_base(Values::Base::_static_repository_id());
      forwarded = message_of(any_of(message_of(a)));
    }
    value_ref<Values::Base> back;
    REQUIRE((any_of(forwarded) >>= back));
    REQUIRE(back);
    CHECK(back->a() == 7);
    CHECK(back->_repository_id() == Values::Base::_static_repository_id());
    unlink_nodes(static_cast<Values::Derived&>(*derived).extra());
  }
}

TEST_CASE("a value after an Any that is an indirection into it keeps the graph whole", "[value][any]") {
  // An Any of a self-cycle, then, in the same value scope, the node again: an indirection to the
  // Any's value (as a sender sharing one value between an Any and another argument writes it).
  const value_ref<Node> self = new OBV_Node(1, nullptr);
  self->next(self);
  cdr::output_stream out;
  {
    value_output_scope scope(out);
    write_type_code(out, Values::_tc_Node());
    write_value(out, self);
    write_value(out, self);
  }
  self->next(nullptr);
  const std::vector<std::byte> bytes = bytes_of(out);
  value_ref<Node> after;
  any a;
  {
    auto in = reader_of(bytes);
    value_input_scope scope(in);
    read_any(in, a);
    read_value(in, after);
    CHECK(in.at_end());
  }
  REQUIRE(after);
  CHECK(after->id() == 1);
  CHECK(after->next() == after);  // not unlinked with the Any's copy
  after->next(nullptr);
  value_ref<Node> extracted;
  REQUIRE((a >>= extracted));
  REQUIRE(extracted);
  CHECK(extracted->next() == extracted);
  extracted->next(nullptr);
}

TEST_CASE("a value an Any cannot read from its TypeCode raises MARSHAL, named", "[value][any]") {
  SECTION("a value of a type the receiver does not know, where the TypeCode says ValueBase") {
    Values::Holder h;
    h.held = new OBV_Node(1, nullptr);
    any a;
    a <<= h;
    const std::vector<std::byte> sent = message_of(a);
    factory_removed unknown(Node::_static_repository_id());
    try {
      any_of(sent);
      FAIL("no exception");
    } catch (const SystemException& e) {
      CHECK(e.kind() == SystemExceptionKind::MARSHAL);
      CHECK(e.minor() == minor::no_value_factory);
      CHECK(std::string(e.what()).find(std::string(Node::_static_repository_id())) != std::string::npos);
    }
  }
  SECTION("custom marshaling and abstract valuetypes have no state in their TypeCode") {
    for (const value_modifier modifier : {value_modifier::custom, value_modifier::abstract}) {
      const type_code tc = type_code::make_value("IDL:Test/Opaque:1.0", "Opaque", modifier, type_code(), {});
      cdr::output_stream value;
      value.write_ulong(0x7fffff02);  // a value tag with one repository id
      value.write_string("IDL:Test/Opaque:1.0");
      value.write_long(1);
      const std::vector<std::byte> bytes = bytes_of(value);
      auto in = reader_of(bytes);
      any a;
      try {
        a.assign_from(tc, in);
        FAIL("no exception");
      } catch (const SystemException& e) {
        CHECK(e.kind() == SystemExceptionKind::MARSHAL);
        CHECK(e.minor() == minor::no_value_factory);
        CHECK(std::string(e.what()).find("IDL:Test/Opaque:1.0") != std::string::npos);
      }
    }
  }
  SECTION("a value cut short, at every length") {
    any a;
    a <<= sample_bulk(3);
    const std::vector<std::byte> whole = message_of(a);
    factory_removed unknown(Values::Bulk::_static_repository_id());
    for (std::size_t length = 1; length < whole.size(); ++length) {
      INFO("the first " << length << " octets");
      const std::vector<std::byte> cut(whole.begin(), whole.begin() + static_cast<std::ptrdiff_t>(length));
      auto in = reader_of(cut);
      (void)in.read_octet();
      any b;
      CHECK_THROWS_AS(read_any(in, b), SystemException);
    }
  }
}

namespace {

// valuetype Deep { Level99 s; }, struct Level_k { Level_k-1 s; }, struct Level0 { Deep v; }: each
// Deep value 100 structs deeper than the one holding it.
const type_code& deep_value_type() {
  static const type_code deep = [] {
    type_code inner = type_code::make_struct("IDL:Test/Level0:1.0", "Level0",
                                             {{"v", type_code::make_recursive("IDL:Test/Deep:1.0")}});
    for (int k = 1; k < 100; ++k) {
      const std::string name = "Level" + std::to_string(k);
      inner = type_code::make_struct("IDL:Test/" + name + ":1.0", name, {{"s", inner}});
    }
    return type_code::make_value("IDL:Test/Deep:1.0", "Deep", value_modifier::none, type_code(), {{"s", inner, 1}});
  }();
  return deep;
}

}  // namespace

TEST_CASE("values and the structs inside them nest no deeper than max_value_depth together", "[value][any]") {
  // The plan is made here first (a null value), then 300 Deep values nested (each a tag without
  // type information, then the next) are read on a 1 MiB stack: MARSHAL, no overflow. Were each
  // value's structs counted from 0, the reader would go 256 values x 100 structs deep.
  const std::vector<std::byte> null_value(4, std::byte{0});
  auto null_in = reader_of(null_value);
  any a;
  a.assign_from(deep_value_type(), null_in);
  on_small_stack(
      [] {
        cdr::output_stream out;
        for (int k = 0; k < 300; ++k) out.write_ulong(0x7fffff00);
        out.write_ulong(0);
        const std::vector<std::byte> bytes = bytes_of(out);
        auto in = reader_of(bytes);
        any deep;
        CHECK(marshal_minor_of([&] { deep.assign_from(deep_value_type(), in); }) == minor::typecode_too_deep);
      },
      1024 * 1024);
}

TEST_CASE("a message of more values than the limit raises MARSHAL before it costs more", "[value][any]") {
  // A sequence of Nodes, each a tag without type information, an id and a null next (12 octets):
  // at the limit it is read, one more is refused.
  auto nodes = [](std::size_t n) {
    cdr::output_stream out;
    write_type_code(out, Values::_tc_NodeSeq());
    out.write_ulong(static_cast<std::uint32_t>(n));
    for (std::size_t i = 0; i < n; ++i) {
      out.write_ulong(0x7fffff00);
      out.write_long(static_cast<std::int32_t>(i));
      out.write_ulong(0);
    }
    return bytes_of(out);
  };
  const std::vector<std::byte> at_limit = nodes(max_values_per_message);
  auto in = reader_of(at_limit);
  any a;
  read_any(in, a);
  CHECK(in.at_end());
  const std::vector<std::byte> beyond = nodes(max_values_per_message + 1);
  auto more = reader_of(beyond);
  CHECK(marshal_minor_of([&] { read_any(more, a); }) == minor::too_many_values);
}
