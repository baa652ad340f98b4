// Abstract interfaces (values.idl's Describable): the holder syidl generates, which holds an
// object reference or a value that supports the interface; their encoding (a boolean, then an IOR
// or a value); the generated stubs and skeletons end to end; TypeCodes and Anys.
#include "values.h"

#include <catch2/catch.hpp>

#include <string>

#include "switchyard/abstract_interface.h"
#include "switchyard/any.h"
#include "switchyard/exception.h"
#include "switchyard/object_io.h"
#include "switchyard/orb.h"
#include "switchyard/request.h"
#include "switchyard/type_code.h"
#include "tests/cdr/hex.h"
#include "tests/core/orb_fixture.h"
#include "tests/value/value_echo_servant.h"
#include "tests/value/value_testing.h"

using namespace switchyard;
using namespace switchyard::test::values;
using Values::Describable;

namespace {

value_ref<::test::caption_impl> caption(std::string text) { return new ::test::caption_impl(std::move(text)); }

// A ValueEcho served on loopback (it is a Describable: describe() gives "ValueEcho"), and a
// client ORB with its reference.
struct echo_peers {
  explicit echo_peers(const std::string& giop = "1.2") : server({"-ORBGIOPVersion", giop}) {
    ::test::register_caption_factory();
    ior = server.orb->object_to_string(server.orb->root_adapter().activate(servant));
    server.start();
    client = orb_init({"-ORBGIOPVersion", giop});
    echo = Values::ValueEcho::_narrow(client->string_to_object(ior));
  }
  ~echo_peers() {
    client->destroy();
    unregister_value_factory(Values::Caption::_static_repository_id());
  }

  std::shared_ptr<::test::value_echo_servant> servant = std::make_shared<::test::value_echo_servant>();
  ::test::serving_orb server;
  std::string ior;
  std::shared_ptr<orb> client;
  Values::ValueEcho echo;
};

std::vector<std::byte> written(const Describable& d) {
  cdr::output_stream out;
  write_abstract(out, d._reference(), d._value().get());
  return bytes_of(out);
}

Describable read_back(const std::vector<std::byte>& bytes, orb& receiver) {
  cdr::input_stream in = reader_of(bytes);
  const reference_binding_scope binding(receiver);
  Describable d;
  read_abstract(in, d);
  CHECK(in.at_end());
  return d;
}

}  // namespace

TEST_CASE("an abstract interface holds a value that supports it, a reference, or nothing", "[value][abstract]") {
  SECTION("nothing") {
    const Describable nil;
    CHECK(nil._is_nil());
    CHECK_FALSE(static_cast<bool>(nil));
    CHECK_FALSE(nil._is_object());
    CHECK_FALSE(nil._value());
    CHECK(nil._reference().is_nil());
  }
  SECTION("a value: its operations are calls on it, with no ORB at all") {
    const value_ref<::test::caption_impl> c = caption("local");
    Describable d = c;
    CHECK_FALSE(d._is_nil());
    CHECK_FALSE(d._is_object());
    CHECK(d._value().get() == c.get());
    CHECK(d.describe() == "caption: local");
    // Narrowing a value: to the interface when its type supports it, else nil.
    CHECK(Describable::_narrow(value_ref<value_base>(c)).describe() == "caption: local");
    CHECK(Describable::_narrow(value_ref<value_base>(new Values::OBV_Node(1, nullptr)))._is_nil());
    CHECK(Describable::_narrow(value_ref<value_base>())._is_nil());
  }
  SECTION("a reference: its operations are remote calls") {
    echo_peers peers;
    Describable d = peers.echo;  // a ValueEcho is a Describable
    CHECK(d._is_object());
    CHECK_FALSE(d._value());
    CHECK(d.describe() == "ValueEcho");
    CHECK(Describable::_narrow(peers.echo._reference()).describe() == "ValueEcho");
  }
}

TEST_CASE("an abstract interface in CDR: FALSE and a value, TRUE and an IOR, nil as a null value",
          "[value][abstract]") {
  echo_peers peers;
  SECTION("nil: FALSE, padding, the null value tag (as omniORB writes it)") {
    CHECK(switchyard::test::to_hex(written(Describable())) == "00 00 00 00 00 00 00 00");
    CHECK(read_back(written(Describable()), *peers.client)._is_nil());
  }
  SECTION("a value") {
    const auto bytes = written(Describable(caption("sent")));
    REQUIRE(bytes.size() > 8);
    CHECK(bytes[0] == std::byte{0});
    const Describable back = read_back(bytes, *peers.client);
    REQUIRE(back._value());
    CHECK(dynamic_cast<::test::caption_impl*>(back._value().get()) != nullptr);
    CHECK(Describable(back).describe() == "caption: sent");
  }
  SECTION("a reference, and a nil IOR read as nil") {
    const auto bytes = written(Describable(peers.echo));
    CHECK(bytes[0] == std::byte{1});
    Describable back = read_back(bytes, *peers.client);
    REQUIRE(back._is_object());
    CHECK(peers.client->object_to_string(back._reference()) == peers.ior);
    CHECK(back.describe() == "ValueEcho");
    cdr::output_stream nil_ior;
    nil_ior.write_boolean(true);
    write_object(nil_ior, object_ref());
    CHECK(read_back(bytes_of(nil_ior), *peers.client)._is_nil());
  }
  SECTION("refused: a bad boolean, a value that does not support it, one without a factory, any cut") {
    const auto good = written(Describable(caption("cut")));
    auto bad = good;
    bad[0] = std::byte{2};
    CHECK(marshal_minor_of([&] { read_back(bad, *peers.client); }) == minor::bad_boolean);
    cdr::output_stream node;
    node.write_boolean(false);
    write_value(node, value_ref<Values::Node>(new Values::OBV_Node(1, nullptr)));
    CHECK(marshal_minor_of([&] { read_back(bytes_of(node), *peers.client); }) == minor::value_type_mismatch);
    {
      factory_removed unknown(Values::Caption::_static_repository_id());
      CHECK(marshal_minor_of([&] { read_back(good, *peers.client); }) == minor::no_value_factory);
    }
    for (const auto& whole : {good, written(Describable(peers.echo))})
      for (std::size_t length = 0; length < whole.size(); ++length) {
        const std::vector<std::byte> cut(whole.begin(), whole.begin() + static_cast<std::ptrdiff_t>(length));
        marshal_minor_of([&] { read_back(cut, *peers.client); });
      }
  }
}

TEST_CASE("abstract interfaces through generated stubs and skeletons, end to end", "[value][abstract]") {
  const std::string giop = GENERATE(as<std::string>{}, "1.2", "1.0");
  echo_peers peers(giop);
  SECTION("a value goes as a value: the server calls it locally, and it comes back a copy") {
    const value_ref<::test::caption_impl> c = caption("by value");
    CHECK(peers.echo.describe_here(c) == "caption: by value");
    Describable back = peers.echo.echo_describable(c);
    REQUIRE(back._value());
    CHECK(back._value().get() != c.get());
    CHECK(back.describe() == "caption: by value");
  }
  SECTION("a reference goes as a reference: calls on what comes back are remote") {
    CHECK(peers.echo.describe_here(peers.echo) == "a reference");
    Describable back = peers.echo.echo_describable(peers.echo);
    REQUIRE(back._is_object());
    CHECK(back.describe() == "ValueEcho");
    CHECK(peers.echo.describe() == "ValueEcho");  // the operation ValueEcho inherits
  }
  SECTION("nil") {
    CHECK(peers.echo.describe_here(Describable()).empty());
    CHECK(peers.echo.echo_describable(Describable())._is_nil());
  }
}

TEST_CASE("an abstract interface's TypeCode, and Anys holding one", "[value][abstract]") {
  const type_code& tc = Values::_tc_Describable();
  CHECK(tc.kind() == tc_kind::tk_abstract_interface);
  CHECK(tc.id() == "IDL:switchyard.test/Values/Describable:1.0");
  CHECK(tc.name() == "Describable");
  {
    cdr::output_stream out;
    write_type_code(out, tc);
    auto bytes = bytes_of(out);
    CHECK(bytes[0] == std::byte{32});  // tk_abstract_interface, little-endian
    cdr::input_stream in = reader_of(bytes);
    CHECK(read_type_code(in).equal(tc));
    CHECK(in.at_end());
  }
  echo_peers peers;
  SECTION("insertion and extraction: a value, nil, a reference") {
    any a;
    a <<= Describable(caption("in an Any"));
    CHECK(a.type().equal(tc));
    Describable back;
    REQUIRE((a >>= back));
    CHECK(back.describe() == "caption: in an Any");
    a <<= Describable();
    REQUIRE((a >>= back));
    CHECK(back._is_nil());
    a <<= Describable(peers.echo);
    const reference_binding_scope binding(*peers.client);
    REQUIRE((a >>= back));
    CHECK(back.describe() == "ValueEcho");
  }
  SECTION("the server copies one through its TypeCode (echo_any) and a DII request sends one") {
    any a;
    a <<= Describable(caption("echoed"));
    Describable back;
    REQUIRE((peers.echo.echo_any(a) >>= back));
    CHECK(back.describe() == "caption: echoed");
    request call(peers.echo._reference(), "describe_here");
    call.add_in_arg("d") = a;
    call.set_return_type(type_code::make_string());
    call.invoke();
    std::string described;
    REQUIRE((call.return_value() >>= described));
    CHECK(described == "caption: echoed");
  }
  SECTION("an Any reads one through its TypeCode and refuses what the encoding does not allow") {
    const auto value = written(Describable(caption("read")));
    any a;
    cdr::input_stream in = reader_of(value);
    a.assign_from(tc, in);
    Describable back;
    REQUIRE((a >>= back));
    CHECK(back.describe() == "caption: read");
    auto bad = value;
    bad[0] = std::byte{2};
    CHECK(marshal_minor_of([&] {
            cdr::input_stream bad_in = reader_of(bad);
            a.assign_from(tc, bad_in);
          }) == minor::bad_boolean);
    for (std::size_t length = 0; length < value.size(); ++length) {
      const std::vector<std::byte> cut(value.begin(), value.begin() + static_cast<std::ptrdiff_t>(length));
      marshal_minor_of([&] {
        cdr::input_stream cut_in = reader_of(cut);
        a.assign_from(tc, cut_in);
      });
    }
    factory_removed unknown(Values::Caption::_static_repository_id());
    CHECK(marshal_minor_of([&] {
            cdr::input_stream again = reader_of(value);
            a.assign_from(tc, again);
          }) == minor::no_value_factory);
  }
}
