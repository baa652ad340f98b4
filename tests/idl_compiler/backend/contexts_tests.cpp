// IDL contexts through generated code, the DII and the DSI: the properties a context clause
// matches travel after the arguments; the servant sees those and no others; a collocated call
// sees the same; the request body's encoding; a malformed context is MARSHAL.
#include "contexts.h"

#include <catch2/catch.hpp>

#include <array>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "switchyard/dynamic_servant.h"
#include "switchyard/request.h"
#include "tests/core/orb_fixture.h"
#include "tests/idl_compiler/backend/probe_calls.h"

using namespace switchyard;

TEST_CASE("context properties and patterns", "[idl_compiler][backend][contexts]") {
  context ctx = test::offered_context();
  CHECK(ctx.get_values("app_*").size() == 2);
  CHECK(ctx.get_values("test").size() == 1);
  CHECK(ctx.get_values("tes").empty());
  CHECK(*ctx.value("test") == "hello");
  ctx.set_one_value("test", "again");
  CHECK(*ctx.value("test") == "again");
  ctx.delete_values("app*");
  CHECK(ctx.value("apple") == nullptr);
  CHECK(ctx.size() == 3);
  try {
    ctx.delete_values("app*");
    FAIL("deleted nothing");
  } catch (const SystemException& e) {
    CHECK(e.kind() == SystemExceptionKind::BAD_CONTEXT);
  }
  CHECK_THROWS_AS(ctx.set_one_value("", "x"), SystemException);
  CHECK_THROWS_AS(ctx.set_one_value("a*", "x"), SystemException);
}

TEST_CASE("a context chain: a child hides its parent's values; scopes restrict and start lookups",
          "[idl_compiler][backend][contexts]") {
  auto root = std::make_shared<context>("defaults", nullptr);
  root->set_one_value("test", "from the root");
  root->set_one_value("app_user", "root user");
  context child("session", root);
  child.set_one_value("test", "from the child");
  child.set_one_value("app_mode", "fast");

  CHECK(child.name() == "session");
  CHECK(child.parent() == root);
  CHECK(*child.value("test") == "from the child");
  CHECK(*child.value("app_user") == "root user");
  using values = std::vector<std::pair<std::string, std::string>>;
  CHECK(child.get_values("app_*") == values{{"app_mode", "fast"}, {"app_user", "root user"}});
  CHECK(child.get_values("app_*", context::scope::this_context) == values{{"app_mode", "fast"}});
  CHECK(child.get_values("defaults", "test", context::scope::chain) == values{{"test", "from the root"}});
  CHECK(child.get_values("session", "test", context::scope::this_context) == values{{"test", "from the child"}});
  try {
    (void)child.get_values("nowhere", "*", context::scope::chain);
    FAIL("found a scope");
  } catch (const SystemException& e) {
    CHECK(e.kind() == SystemExceptionKind::BAD_CONTEXT);
  }
  // The parent is shared: what it holds at the lookup is what the child sees.
  root->set_one_value("late", "seen");
  CHECK(*child.value("late") == "seen");
  // delete_values touches the child only: the parent's value shows again.
  child.delete_values("test");
  CHECK(*child.value("test") == "from the root");
  CHECK_THROWS_AS(child.delete_values("app_user"), SystemException);
  CHECK(child.size() == 1);
  CHECK(child.all_properties().size() == 4);

  // create_child: a child of a copy, so later changes to the original do not show.
  context base;
  base.set_one_value("a", "1");
  context copy_child = base.create_child("copy");
  base.set_one_value("a", "2");
  CHECK(*copy_child.value("a") == "1");
  CHECK_FALSE(copy_child == base.create_child("copy"));  // the parents differ: 1 and 2
  const context same = copy_child;
  CHECK(same == copy_child);
  CHECK(copy_child.matching(std::array<std::string_view, 1>{"*"}).properties() == context::property_map{{"a", "1"}});
}

TEST_CASE("a context on the wire: names and values alternating, matched properties only",
          "[idl_compiler][backend][contexts]") {
  cdr::output_stream out;
  const std::string_view patterns[] = {"test", "app_*"};
  write_context(out, test::offered_context(), patterns);
  cdr::input_stream in(out.bytes(), cdr::native_byte_order);
  CHECK(in.read_ulong() == 6);
  CHECK(in.read_string() == "app_");
  CHECK(in.read_string() == "empty suffix");
  CHECK(in.read_string() == "app_user");
  CHECK(in.read_string() == "ada");
  CHECK(in.read_string() == "test");
  CHECK(in.read_string() == "hello");
  CHECK(in.remaining() == 0);

  cdr::input_stream again(out.bytes(), cdr::native_byte_order);
  CHECK(read_context(again) == test::offered_context().matching(patterns));

  // A child sends its chain's properties, its own hiding its parent's.
  auto parent = std::make_shared<context>(test::offered_context());
  context child("child", parent);
  child.set_one_value("test", "from the child");
  cdr::output_stream chained;
  write_context(chained, child, patterns);
  cdr::input_stream chained_in(chained.bytes(), cdr::native_byte_order);
  const context sent = read_context(chained_in);
  CHECK(sent.properties() ==
        context::property_map{{"app_", "empty suffix"}, {"app_user", "ada"}, {"test", "from the child"}});
  CHECK(sent == child.matching(patterns));

  // Three strings cannot pair up.
  cdr::output_stream odd;
  odd.write_ulong(3);
  for (int k = 0; k < 3; ++k) odd.write_string("x");
  cdr::input_stream odd_in(odd.bytes(), cdr::native_byte_order);
  try {
    (void)read_context(odd_in);
    FAIL("read");
  } catch (const SystemException& e) {
    CHECK(e.kind() == SystemExceptionKind::MARSHAL);
  }
}

TEST_CASE("generated stubs and skeletons carry contexts end to end", "[idl_compiler][backend][contexts]") {
  auto giop = GENERATE("1.0", "1.1", "1.2");
  CAPTURE(giop);
  test::serving_orb server({"-ORBGIOPVersion", giop});
  auto ior = server.orb->object_to_string(server.orb->root_adapter().activate(std::make_shared<test::probe_servant>()));
  server.start();
  auto client = orb_init({"-ORBGIOPVersion", giop});
  auto probe = Contexts::Probe::_narrow(client->string_to_object(ior));
  REQUIRE_FALSE(probe._is_nil());
  test::check_probe_calls(probe);
  // A child context: the servant sees the chain's matched properties.
  context child("call", std::make_shared<const context>(test::offered_context()));
  child.set_one_value("app_user", "grace");
  std::string note = "chain";
  CHECK(probe.seen(3, note, child) == Contexts::Strings{"3", "app_=empty suffix", "app_user=grace", "test=hello"});
}

TEST_CASE("a collocated call passes the servant what a remote one would", "[idl_compiler][backend][contexts]") {
  auto orb = orb_init({"-ORBCollocation", "direct"});
  auto probe = Contexts::Probe(orb->root_adapter().activate(std::make_shared<test::probe_servant>()));
  test::check_probe_calls(probe);
  orb->destroy();
}

TEST_CASE("the DII sends a context, the DSI reads one", "[idl_compiler][backend][contexts]") {
  // A DSI Probe that answers seen_none with what arrived.
  struct dynamic_probe final : dynamic_servant {
    dynamic_probe() : dynamic_servant({std::string(Contexts::Probe::_repository_id)}) {}
    void invoke(dynamic_request& request) override {
      if (request.operation() != "seen_none") throw SystemException(SystemExceptionKind::BAD_OPERATION, 0);
      std::vector<named_value> list(1);
      list[0].value.set_type(type_code::make_string());
      std::string label;
      (void)(request.arguments(std::move(list))[0].value >>= label);
      any result;
      Contexts::insert_Strings(result, test::listed(label, request.ctx()));
      request.set_result(result);
    }
  };
  test::serving_orb server;
  auto generated = server.orb->root_adapter().activate(std::make_shared<test::probe_servant>());
  auto dynamic = server.orb->root_adapter().activate(std::make_shared<dynamic_probe>());
  const std::string generated_ior = server.orb->object_to_string(generated);
  const std::string dynamic_ior = server.orb->object_to_string(dynamic);
  server.start();
  auto client = orb_init({});

  // DII to the generated skeleton.
  request call(client->string_to_object(generated_ior), "seen");
  call.add_in_arg("tag") <<= std::int32_t{9};
  call.add_inout_arg("note") <<= std::string("dii");
  call.set_return_type(Contexts::_tc_Strings());
  call.ctx() = test::offered_context();
  call.contexts() = {"test", "app_*"};
  call.invoke();
  Contexts::Strings seen;
  REQUIRE(Contexts::extract_Strings(call.return_value(), seen));
  CHECK(seen == Contexts::Strings{"9", "app_=empty suffix", "app_user=ada", "test=hello"});
  std::string note;
  REQUIRE((call.argument(1).value >>= note));
  CHECK(note == "dii seen");

  // The generated stub to the DSI servant.
  auto probe = Contexts::Probe::_narrow(client->string_to_object(dynamic_ior));
  CHECK(probe.seen_none("dsi", test::offered_context()) ==
        Contexts::Strings{"dsi", "nothing=only seen_none's pattern matches nothing*"});
}
