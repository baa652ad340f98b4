// Valuetypes on the wire (switchyard/value.h, orb/value): round trips of null, single, shared and
// cyclic graphs, boxes, inheritance and truncation; byte-exact encodings against the
// specification's rules; and every malformed encoding answered with MARSHAL, never a crash.
// The value classes are written by hand here in the shape syidl generates them.
#include "switchyard/value.h"

#include <catch2/catch.hpp>

#include <array>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "switchyard/exception.h"
#include "tests/cdr/hex.h"
#include "tests/value/value_testing.h"

using namespace switchyard;
using switchyard::test::from_hex;
using switchyard::test::to_hex;
using namespace switchyard::test::values;

namespace {

// valuetype Node { public long id; public Node next; };
class Node : public virtual value_base {
 public:
  static constexpr std::string_view repository_id = "IDL:Node:1.0";
  static std::string_view _static_repository_id() noexcept { return repository_id; }
  std::string_view _repository_id() const noexcept override { return repository_id; }
  std::span<const std::string_view> _truncatable_ids() const noexcept override {
    static constexpr std::array<std::string_view, 1> ids{repository_id};
    return ids;
  }
  void _write_state(cdr::output_stream& out) const override {
    out.write_long(id);
    write_value(out, next);
  }
  void _read_state(cdr::input_stream& in) override {
    id = in.read_long();
    read_value(in, next);
  }
  void _release_values() noexcept override { next.reset(); }

  std::int32_t id = 0;
  value_ref<Node> next;
};

// valuetype Base { public long a; }; valuetype Derived : truncatable Base { public string s; public Node n; };
class Base : public virtual value_base {
 public:
  static constexpr std::string_view repository_id = "IDL:Base:1.0";
  static std::string_view _static_repository_id() noexcept { return repository_id; }
  std::string_view _repository_id() const noexcept override { return repository_id; }
  std::span<const std::string_view> _truncatable_ids() const noexcept override {
    static constexpr std::array<std::string_view, 1> ids{repository_id};
    return ids;
  }
  void _write_state(cdr::output_stream& out) const override { out.write_long(a); }
  void _read_state(cdr::input_stream& in) override { a = in.read_long(); }
  std::int32_t a = 0;
};

class Derived : public Base {
 public:
  static constexpr std::string_view repository_id = "IDL:Derived:1.0";
  static std::string_view _static_repository_id() noexcept { return repository_id; }
  std::string_view _repository_id() const noexcept override { return repository_id; }
  std::span<const std::string_view> _truncatable_ids() const noexcept override {
    static constexpr std::array<std::string_view, 2> ids{repository_id, Base::repository_id};
    return ids;
  }
  void _write_state(cdr::output_stream& out) const override {
    Base::_write_state(out);
    out.write_string(s);
    write_value(out, n);
  }
  void _read_state(cdr::input_stream& in) override {
    Base::_read_state(in);
    s = in.read_string();
    read_value(in, n);
  }
  void _release_values() noexcept override { n.reset(); }
  std::string s;
  value_ref<Node> n;
};

// valuetype StringValue string;
class StringValue : public virtual value_base {
 public:
  static constexpr std::string_view repository_id = "IDL:omg.org/CORBA/StringValue:1.0";
  static std::string_view _static_repository_id() noexcept { return repository_id; }
  std::string_view _repository_id() const noexcept override { return repository_id; }
  std::span<const std::string_view> _truncatable_ids() const noexcept override {
    static constexpr std::array<std::string_view, 1> ids{repository_id};
    return ids;
  }
  void _write_state(cdr::output_stream& out) const override { out.write_string(value); }
  void _read_state(cdr::input_stream& in) override { value = in.read_string(); }
  std::string value;
};

// Reads a Node from hex (little-endian longs as written below).
value_ref<Node> node_from_hex(std::string_view hex) {
  auto bytes = from_hex(hex);
  auto in = reader_of(bytes);
  value_ref<Node> n;
  read_value(in, n);
  return n;
}

}  // namespace

TEST_CASE("a null value is the tag 0", "[value]") {
  cdr::output_stream out;
  write_value(out, value_ref<Node>());
  CHECK(to_hex(out.bytes()) == "00 00 00 00");
  auto bytes = bytes_of(out);
  auto in = reader_of(bytes);
  value_ref<Node> n(new Node);
  read_value(in, n);
  CHECK(!n);
}

TEST_CASE("a single value: tag with one repository id, then its state, byte for byte", "[value]") {
  auto registered = factories::of<Node>();
  value_ref<Node> n(new Node);
  n->id = 7;
  cdr::output_stream out;
  write_value(out, n);
  // 0x7fffff02 (one repository id), "IDL:Node:1.0" (13 with its NUL), 3 padding, id 7, next null.
  CHECK(to_hex(out.bytes()) ==
        "02 ff ff 7f 0d 00 00 00 49 44 4c 3a 4e 6f 64 65 3a 31 2e 30 00 00 00 00 07 00 00 00 00 00 00 00");
  auto bytes = bytes_of(out);
  auto in = reader_of(bytes);
  value_ref<Node> back;
  read_value(in, back);
  REQUIRE(back);
  CHECK(back->id == 7);
  CHECK(!back->next);
  CHECK(in.at_end());
}

TEST_CASE("a value met twice is written once, then as an indirection to its tag", "[value]") {
  auto registered = factories::of<Node>();
  value_ref<Node> shared(new Node);
  shared->id = 1;
  cdr::output_stream out;
  {
    value_output_scope scope(out);
    write_value(out, shared);
    write_value(out, shared);
  }
  // The first is 32 octets at offset 0; the second: 0xffffffff at 32, offset field at 36: -36.
  CHECK(to_hex(std::span(out.data() + 32, 8)) == "ff ff ff ff dc ff ff ff");
  auto bytes = bytes_of(out);
  auto in = reader_of(bytes);
  value_ref<Node> first, second;
  {
    value_input_scope scope(in);
    read_value(in, first);
    read_value(in, second);
  }
  REQUIRE(first);
  CHECK(first == second);  // identity, not a copy
  CHECK(in.at_end());
}

TEST_CASE("without a common scope two writes are two values", "[value]") {
  auto registered = factories::of<Node>();
  value_ref<Node> shared(new Node);
  cdr::output_stream out;
  write_value(out, shared);
  write_value(out, shared);
  CHECK(out.size() == 64);
}

TEST_CASE("repository ids are indirected the second time", "[value]") {
  auto registered = factories::of<Node>();
  value_ref<Node> a(new Node), b(new Node);
  a->next = b;
  cdr::output_stream out;
  write_value(out, a);
  // b's tag at 28, then an id indirection: 0xffffffff at 32, the offset field at 36 points back
  // to the id's length at 4: -32.
  CHECK(to_hex(std::span(out.data() + 28, 12)) == "02 ff ff 7f ff ff ff ff e0 ff ff ff");
  auto bytes = bytes_of(out);
  auto in = reader_of(bytes);
  value_ref<Node> back;
  read_value(in, back);
  REQUIRE(back);
  REQUIRE(back->next);
  CHECK(!back->next->next);
  CHECK(in.at_end());
}

TEST_CASE("cycles round-trip: a node that is its own next, and a cycle of three", "[value]") {
  auto registered = factories::of<Node>();
  SECTION("self") {
    value_ref<Node> n(new Node);
    n->id = 5;
    n->next = n;
    cdr::output_stream out;
    write_value(out, n);
    n->next.reset();  // break the cycle, or it leaks
    auto bytes = bytes_of(out);
    auto in = reader_of(bytes);
    value_ref<Node> back;
    read_value(in, back);
    REQUIRE(back);
    CHECK(back->next == back);
    CHECK(back->id == 5);
    back->next.reset();
  }
  SECTION("three") {
    value_ref<Node> a(new Node), b(new Node), c(new Node);
    a->id = 1, b->id = 2, c->id = 3;
    a->next = b, b->next = c, c->next = a;
    cdr::output_stream out;
    write_value(out, a);
    c->next.reset();
    auto bytes = bytes_of(out);
    auto in = reader_of(bytes);
    value_ref<Node> back;
    read_value(in, back);
    REQUIRE(back);
    REQUIRE(back->next);
    REQUIRE(back->next->next);
    CHECK(back->next->id == 2);
    CHECK(back->next->next->id == 3);
    CHECK(back->next->next->next == back);
    back->next->next->next.reset();
  }
}

TEST_CASE("a boxed string round-trips, and a box without a repository id reads as the expected type", "[value]") {
  auto registered = factories::of<StringValue>();
  value_ref<StringValue> s(new StringValue);
  s->value = "hello";
  cdr::output_stream out;
  write_value(out, s);
  auto bytes = bytes_of(out);
  auto in = reader_of(bytes);
  value_ref<StringValue> back;
  read_value(in, back);
  REQUIRE(back);
  CHECK(back->value == "hello");

  // 0x7fffff00: no type information; the reader goes by what it expects.
  auto bare = from_hex("00 ff ff 7f 03 00 00 00 68 69 00");
  auto in2 = reader_of(bare);
  read_value(in2, back);
  REQUIRE(back);
  CHECK(back->value == "hi");
}

TEST_CASE("a truncatable value is chunked, with its id list and an end tag", "[value]") {
  auto registered = factories::of<Base, Derived, Node>();
  value_ref<Derived> d(new Derived);
  d->a = 3;
  d->s = "x";
  cdr::output_stream out;
  write_value(out, d);
  // tag 0x7fffff0e (list, chunked), count 2, "IDL:Derived:1.0" (16), "IDL:Base:1.0" (13) + 3
  // padding, a chunk of 16 (a = 3, "x", then null for n), end tag -1.
  CHECK(to_hex(out.bytes()) ==
        "0e ff ff 7f 02 00 00 00 10 00 00 00 49 44 4c 3a 44 65 72 69 76 65 64 3a 31 2e 30 00 "
        "0d 00 00 00 49 44 4c 3a 42 61 73 65 3a 31 2e 30 00 00 00 00 "
        "10 00 00 00 03 00 00 00 02 00 00 00 78 00 00 00 00 00 00 00 ff ff ff ff");
  auto bytes = bytes_of(out);
  SECTION("read as itself") {
    auto in = reader_of(bytes);
    value_ref<Base> back;
    read_value(in, back);  // derived where its base is expected
    auto* derived = dynamic_cast<Derived*>(back.get());
    REQUIRE(derived != nullptr);
    CHECK(derived->a == 3);
    CHECK(derived->s == "x");
    CHECK(in.at_end());
  }
  SECTION("truncated to its base when the receiver has no factory for it") {
    unregister_value_factory(Derived::repository_id);
    auto in = reader_of(bytes);
    value_ref<Base> back;
    read_value(in, back);
    REQUIRE(back);
    CHECK(dynamic_cast<Derived*>(back.get()) == nullptr);
    CHECK(back->a == 3);
    CHECK(in.at_end());
    register_value_factory(Derived::repository_id, std::make_shared<default_value_factory<Derived>>());
  }
}

TEST_CASE("values nested in a chunked value are chunked; the truncated rest is skipped, nested values too", "[value]") {
  auto registered = factories::of<Base, Derived, Node>();
  value_ref<Derived> d(new Derived);
  d->a = 9;
  d->s = "tail";
  d->n = new Node;
  d->n->id = 4;
  cdr::output_stream out;
  {
    value_output_scope scope(out);
    write_value(out, d);
    write_value(out, d->n);  // after the value: an indirection into its skipped part
  }
  auto bytes = bytes_of(out);
  SECTION("whole") {
    auto in = reader_of(bytes);
    value_input_scope scope(in);
    value_ref<Derived> back;
    value_ref<Node> node;
    read_value(in, back);
    read_value(in, node);
    REQUIRE(back);
    REQUIRE(back->n);
    CHECK(back->n->id == 4);
    CHECK(back->s == "tail");
    CHECK(node == back->n);
    CHECK(in.at_end());
  }
  SECTION("truncated: the nested node is read all the same, so the indirection to it works") {
    unregister_value_factory(Derived::repository_id);
    auto in = reader_of(bytes);
    value_input_scope scope(in);
    value_ref<Base> back;
    value_ref<Node> node;
    read_value(in, back);
    read_value(in, node);
    REQUIRE(back);
    CHECK(back->a == 9);
    REQUIRE(node);
    CHECK(node->id == 4);
    CHECK(in.at_end());
    register_value_factory(Derived::repository_id, std::make_shared<default_value_factory<Derived>>());
  }
}

TEST_CASE("one end tag closes the nested values that end together, read and written (as omniORB does)", "[value]") {
  auto registered = factories::of<Base, Derived, Node>();
  // Derived{a = 1, s = "", n = Node{id = 2, next = null}}: the node's end tag -2 folded into the
  // outer's -1. Hand-written: tag, list indirection-free ids, chunk (a, s), nested node, -1.
  auto bytes = from_hex(
      "0e ff ff 7f 02 00 00 00 10 00 00 00 49 44 4c 3a 44 65 72 69 76 65 64 3a 31 2e 30 00 "
      "0d 00 00 00 49 44 4c 3a 42 61 73 65 3a 31 2e 30 00 00 00 00 "
      "09 00 00 00 01 00 00 00 01 00 00 00 00 00 00 00 "  // chunk of 9: a = 1, "" (length 1, NUL)
      "0a ff ff 7f 0d 00 00 00 49 44 4c 3a 4e 6f 64 65 3a 31 2e 30 00 00 00 00 "
      "08 00 00 00 02 00 00 00 00 00 00 00 "  // chunk of 8: id = 2, next null
      "ff ff ff ff");                         // end tag -1: the node and the Derived
  SECTION("read") {
    auto in = reader_of(bytes);
    value_ref<Derived> back;
    read_value(in, back);
    REQUIRE(back);
    CHECK(back->a == 1);
    REQUIRE(back->n);
    CHECK(back->n->id == 2);
    CHECK(in.at_end());
  }
  SECTION("written: omniORB's reader of an Any's value needs the one tag") {
    value_ref<Derived> d(new Derived);
    d->a = 1;
    d->n = new Node;
    d->n->id = 2;
    cdr::output_stream out;
    write_value(out, d);
    CHECK(to_hex(out.bytes()) == to_hex(bytes));
  }
}

TEST_CASE("an unknown value type with no truncatable base raises MARSHAL, no factory", "[value]") {
  value_ref<Node> n(new Node);
  cdr::output_stream out;
  write_value(out, n);
  auto bytes = bytes_of(out);
  CHECK(marshal_minor_of([&] {
          auto in = reader_of(bytes);
          value_ref<Node> back;
          read_value(in, back);
        }) == minor::no_value_factory);
}

TEST_CASE("a value of another type than expected raises MARSHAL", "[value]") {
  auto registered = factories::of<Node, StringValue>();
  value_ref<StringValue> s(new StringValue);
  cdr::output_stream out;
  write_value(out, s);
  auto bytes = bytes_of(out);
  CHECK(marshal_minor_of([&] {
          auto in = reader_of(bytes);
          value_ref<Node> back;
          read_value(in, back);
        }) == minor::value_type_mismatch);
}

TEST_CASE("malformed value encodings raise MARSHAL, never crash", "[value]") {
  auto registered = factories::of<Node, Base, Derived>();
  const std::string node = "02 ff ff 7f 0d 00 00 00 49 44 4c 3a 4e 6f 64 65 3a 31 2e 30 00 00 00 00 ";
  auto minor_of = [&](std::string hex) {
    return marshal_minor_of([&] {
      value_ref<Node> n = node_from_hex(hex);
      if (n) n->_release_values();
    });
  };
  SECTION("a tag that is no value tag") { CHECK(minor_of("05 00 00 00") == minor::bad_value); }
  SECTION("type information bits 10") { CHECK(minor_of("04 ff ff 7f") == minor::bad_value); }
  SECTION("an indirection pointing forward") { CHECK(minor_of("ff ff ff ff 08 00 00 00") == minor::bad_value); }
  SECTION("an indirection of offset 0") { CHECK(minor_of("ff ff ff ff 00 00 00 00") == minor::bad_value); }
  SECTION("an indirection outside the message") { CHECK(minor_of("ff ff ff ff 00 ff ff ff") == minor::bad_value); }
  SECTION("an indirection into a value's middle") {
    // Node{id 1, next = indirection to offset 4 (the repository id), not a value's tag}.
    CHECK(minor_of(node + "01 00 00 00 ff ff ff ff e4 ff ff ff") == minor::bad_value);
  }
  SECTION("a repository id indirection to no id") {
    CHECK(minor_of("02 ff ff 7f ff ff ff ff f8 ff ff ff") == minor::bad_value);
  }
  SECTION("an indirection to a value of the wrong type") {
    // A Base (via its factory) holding... : Node{id, next = indirection to a StringValue} cannot be
    // built with these types; instead: read a Node where the indirection lands on a Base.
    cdr::output_stream out;
    value_ref<Base> b(new Base);
    {
      value_output_scope scope(out);
      write_value(out, b);
      write_value(out, b);
    }
    auto bytes = bytes_of(out);
    auto in = reader_of(bytes);
    value_input_scope scope(in);
    value_ref<Base> first;
    read_value(in, first);
    value_ref<Node> second;
    CHECK(marshal_minor_of([&] { read_value(in, second); }) == minor::value_type_mismatch);
  }
  SECTION("truncated in the middle of the state") { CHECK(minor_of(node + "01 00") == minor::read_past_end); }
  SECTION("a chunk longer than the message") {
    CHECK(minor_of("0a ff ff 7f 0d 00 00 00 49 44 4c 3a 4e 6f 64 65 3a 31 2e 30 00 00 00 00 "
                   "00 01 00 00 01 00 00 00") == minor::bad_value);
  }
  SECTION("a chunk of length 0") {
    CHECK(minor_of("0a ff ff 7f 0d 00 00 00 49 44 4c 3a 4e 6f 64 65 3a 31 2e 30 00 00 00 00 "
                   "00 00 00 00") == minor::bad_value);
  }
  SECTION("a chunk that ends inside the state") {
    CHECK(minor_of("0a ff ff 7f 0d 00 00 00 49 44 4c 3a 4e 6f 64 65 3a 31 2e 30 00 00 00 00 "
                   "02 00 00 00 01 00 00 00 00 00 00 00 ff ff ff ff") != 0);
  }
  SECTION("an end tag deeper than the value") {
    CHECK(minor_of("0a ff ff 7f 0d 00 00 00 49 44 4c 3a 4e 6f 64 65 3a 31 2e 30 00 00 00 00 "
                   "08 00 00 00 01 00 00 00 00 00 00 00 fe ff ff ff") == minor::bad_value);
  }
  SECTION("a chunked value that never ends") {
    CHECK(minor_of("0a ff ff 7f 0d 00 00 00 49 44 4c 3a 4e 6f 64 65 3a 31 2e 30 00 00 00 00 "
                   "08 00 00 00 01 00 00 00 00 00 00 00") == minor::read_past_end);
  }
  SECTION("an unchunked value inside a chunked one") {
    CHECK(minor_of("0a ff ff 7f 0d 00 00 00 49 44 4c 3a 4e 6f 64 65 3a 31 2e 30 00 00 00 00 "
                   "04 00 00 00 01 00 00 00 " +
                   node + "01 00 00 00 00 00 00 00 ff ff ff ff") == minor::bad_value);
  }
  SECTION("a value tag inside a chunk") {
    CHECK(minor_of("0a ff ff 7f 0d 00 00 00 49 44 4c 3a 4e 6f 64 65 3a 31 2e 30 00 00 00 00 "
                   "08 00 00 00 01 00 00 00 02 ff ff 7f ff ff ff ff") == minor::bad_value);
  }
  SECTION("a repository id list longer than the message") {
    CHECK(minor_of("06 ff ff 7f 00 00 01 00") == minor::length_too_large);
  }
}

TEST_CASE("nesting is bounded on both sides: MARSHAL, no stack overflow", "[value]") {
  auto registered = factories::of<Node>();
  SECTION("reading 100000 nested values") {
    // Each: an unchunked Node tag, an id indirection after the first, its id, then the next.
    std::string hex = "02 ff ff 7f 0d 00 00 00 49 44 4c 3a 4e 6f 64 65 3a 31 2e 30 00 00 00 00 01 00 00 00 ";
    std::vector<std::byte> bytes = from_hex(hex);
    for (int i = 1; i < 100000; ++i) {
      // tag, id indirection (0xffffffff, offset back to position 4), id.
      std::size_t here = bytes.size();
      auto more = from_hex("02 ff ff 7f ff ff ff ff 00 00 00 00 01 00 00 00");
      std::int32_t offset = 4 - static_cast<std::int32_t>(here + 8);
      std::memcpy(more.data() + 8, &offset, 4);
      bytes.insert(bytes.end(), more.begin(), more.end());
    }
    auto in = reader_of(bytes);
    value_ref<Node> n;
    CHECK(marshal_minor_of([&] { read_value(in, n); }) == minor::value_nesting);
  }
  SECTION("writing a chain longer than the bound") {
    value_ref<Node> head(new Node);
    Node* tail = head.get();
    for (int i = 0; i < max_value_nesting + 10; ++i) {
      tail->next = new Node;
      tail = tail->next.get();
    }
    cdr::output_stream out;
    CHECK(marshal_minor_of([&] { write_value(out, head); }) == minor::value_nesting);
    // Freed link by link: a 266-deep recursive destructor is fine, but be kind.
    while (head) head = head->next;
  }
  SECTION("a chain at the bound round-trips") {
    value_ref<Node> head(new Node);
    Node* tail = head.get();
    for (int i = 1; i < max_value_nesting; ++i) {
      tail->next = new Node;
      tail = tail->next.get();
      tail->id = i;
    }
    cdr::output_stream out;
    write_value(out, head);
    auto bytes = bytes_of(out);
    auto in = reader_of(bytes);
    value_ref<Node> back;
    read_value(in, back);
    int count = 0;
    for (Node* n = back.get(); n != nullptr && count < 1000; n = n->next.get()) ++count;
    CHECK(count == max_value_nesting);
    while (head) head = head->next;
    while (back) back = back->next;
  }
}

TEST_CASE("value factories: register returns the previous one, unregister of none is BAD_PARAM", "[value]") {
  auto first = std::make_shared<default_value_factory<Node>>();
  auto second = std::make_shared<default_value_factory<Node>>();
  CHECK(register_value_factory("IDL:Test/Factory:1.0", first) == nullptr);
  CHECK(register_value_factory("IDL:Test/Factory:1.0", second) == first);
  CHECK(lookup_value_factory("IDL:Test/Factory:1.0") == second);
  unregister_value_factory("IDL:Test/Factory:1.0");
  CHECK(lookup_value_factory("IDL:Test/Factory:1.0") == nullptr);
  try {
    unregister_value_factory("IDL:Test/Factory:1.0");
    FAIL("no BAD_PARAM");
  } catch (const SystemException& e) {
    CHECK(e.kind() == SystemExceptionKind::BAD_PARAM);
  }
}

TEST_CASE("every octet of a nested chunked encoding mutated: a value or MARSHAL, never a crash", "[value]") {
  auto registered = factories::of<Base, Derived, Node>();
  value_ref<Derived> d(new Derived);
  d->a = 1;
  d->s = "abc";
  d->n = new Node;
  d->n->id = 2;
  d->n->next = d->n;  // a cycle inside the chunked value
  cdr::output_stream out;
  {
    value_output_scope scope(out);
    write_value(out, d);
    write_value(out, d->n);
  }
  d->n->next.reset();
  const auto original = bytes_of(out);
  int values = 0, refused = 0;
  for (std::size_t at = 0; at < original.size(); ++at) {
    for (std::uint8_t replacement : {0x00, 0x01, 0x7f, 0x80, 0xfe, 0xff}) {
      auto bytes = original;
      bytes[at] = static_cast<std::byte>(replacement);
      auto in = reader_of(bytes);
      try {
        value_input_scope scope(in);
        value_ref<Base> first;
        value_ref<Node> second;
        read_value(in, first);
        read_value(in, second);
        ++values;
        // Break what the mutation may have wired into a cycle: the scope releases on throw.
        throw std::logic_error("done");
      } catch (const SystemException& e) {
        REQUIRE(e.kind() == SystemExceptionKind::MARSHAL);
        ++refused;
      } catch (const std::logic_error&) {
      }
    }
  }
  CHECK(values > 0);
  CHECK(refused > 0);
}

TEST_CASE("a chain of a quarter of a million values or more is freed without recursion (no stack overflow)",
          "[value]") {
  auto registered = factories::of<Node>();
  SECTION("built here, freed on a 256 KiB stack") {
    on_small_stack([] {
      value_ref<Node> head(new Node);
      for (int i = 0; i < 300000; ++i) {
        value_ref<Node> n(new Node);
        n->next = std::move(head);
        head = std::move(n);
      }
      head.reset();
    });
    SUCCEED("freed");
  }
  SECTION("read from a message: each node's next an indirection to the one before") {
    // Node 0: its tag and id, next null; node i: tag, id indirection, id, next -> node i-1.
    std::vector<std::byte> bytes =
        from_hex("02 ff ff 7f 0d 00 00 00 49 44 4c 3a 4e 6f 64 65 3a 31 2e 30 00 00 00 00 00 00 00 00 00 00 00 00");
    std::vector<std::size_t> tags{0};
    constexpr int count = static_cast<int>(max_values_per_message);  // as many as one message may hold
    for (int i = 1; i < count; ++i) {
      std::size_t here = bytes.size();
      auto more = from_hex("02 ff ff 7f ff ff ff ff 00 00 00 00 00 00 00 00 ff ff ff ff 00 00 00 00");
      std::int32_t id_offset = 4 - static_cast<std::int32_t>(here + 8);
      std::int32_t id = i;
      std::int32_t value_offset = static_cast<std::int32_t>(tags.back()) - static_cast<std::int32_t>(here + 20);
      std::memcpy(more.data() + 8, &id_offset, 4);
      std::memcpy(more.data() + 12, &id, 4);
      std::memcpy(more.data() + 20, &value_offset, 4);
      bytes.insert(bytes.end(), more.begin(), more.end());
      tags.push_back(here);
    }
    auto in = reader_of(bytes);
    std::vector<value_ref<Node>> nodes(count);
    {
      value_input_scope scope(in);
      for (auto& n : nodes) read_value(in, n);
    }
    CHECK(in.at_end());
    REQUIRE(nodes.back());
    CHECK(nodes.back()->id == count - 1);
    CHECK(nodes.back()->next == nodes[count - 2]);
    // The vector frees its elements first to last: each but the last only loses a count, and the
    // last then frees the whole chain behind it.
    nodes.clear();
  }
}
