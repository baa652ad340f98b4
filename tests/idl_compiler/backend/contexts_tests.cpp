// IDL contexts through generated code, the DII and the DSI: the properties a context clause
// matches travel after the arguments; the servant sees those and no others; a collocated call
// sees the same; the request body's encoding; a malformed context is MARSHAL.
#include "contexts.h"

#include <catch2/catch.hpp>

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
