// The DII (switchyard/request.h) against our own ORB on loopback: every Echo operation in GIOP
// 1.0, 1.1 and 1.2, a request invoked again with new values, one-way sends, deferred requests
// outstanding together on one connection and collected in any order, polling, system and user
// exceptions, and the misuses that raise BAD_INV_ORDER or BAD_PARAM.
#include "switchyard/request.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

#include "switchyard/orb.h"
#include "tests/core/orb_fixture.h"
#include "tests/dynamic_interfaces/echo_dii_calls.h"
#include "tests/dynamic_interfaces/echo_servant.h"

using namespace switchyard;

namespace {

template <class Kind>
void require_system(Kind kind, const std::function<void()>& call) {
  try {
    call();
    FAIL("no exception");
  } catch (const SystemException& e) {
    CHECK(e.kind() == kind);
  }
}

struct echo_server {
  explicit echo_server(std::vector<std::string> args = {},
                       std::shared_ptr<test::full_echo_servant> with = std::make_shared<test::full_echo_servant>())
      : servant(std::move(with)), server(args) {
    reference_ior = server.orb->object_to_string(server.orb->root_adapter().activate(servant));
    server.start();
    client = orb_init(std::move(args));
    echo = client->string_to_object(reference_ior);
  }
  ~echo_server() { client->destroy(); }

  std::shared_ptr<test::full_echo_servant> servant;
  test::serving_orb server;
  std::string reference_ior;
  std::shared_ptr<orb> client;
  object_ref echo;
};

// Waits (bounded: 5 s) until poll_response says the reply has come.
bool poll_until_answered(request& call) {
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (std::chrono::steady_clock::now() < give_up) {
    if (call.poll_response()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return false;
}

}  // namespace

TEST_CASE("DII: every Echo operation through our ORB", "[dii]") {
  auto giop = GENERATE("1.0", "1.1", "1.2");
  CAPTURE(giop);
  echo_server s({"-ORBGIOPVersion", giop});
  test::check_every_echo_operation(s.echo, true);
}

TEST_CASE("DII: a request is invoked again with new values without being rebuilt", "[dii]") {
  echo_server s;
  request call(s.echo, "echo_long");
  call.add_in_arg("v") <<= std::int32_t{0};
  call.set_return_type(type_code::basic(tc_kind::tk_long));
  for (std::int32_t k = 1; k <= 50; ++k) {
    call.argument(0).value <<= k * 1000;
    call.invoke();
    std::int32_t got = 0;
    REQUIRE((call.return_value() >>= got));
    CHECK(got == k * 1000);
  }
  // And a request per call, as the paper's Orbix builds one.
  for (std::int32_t k = 0; k < 10; ++k) {
    request once(s.echo, "echo_string");
    once.add_in_arg() <<= std::to_string(k);
    once.set_return_type(type_code::make_string());
    once.invoke();
    std::string got;
    REQUIRE((once.return_value() >>= got));
    CHECK(got == std::to_string(k));
  }
  // A servant of Echo with the operation's index for active demultiplexing.
  request indexed(s.echo, "echo_short");
  indexed.set_operation_index(3);
  indexed.add_in_arg() <<= std::int16_t{-3};
  indexed.set_return_type(type_code::basic(tc_kind::tk_short));
  indexed.invoke();
  std::int16_t got = 0;
  REQUIRE((indexed.return_value() >>= got));
  CHECK(got == -3);
}

TEST_CASE("DII: send_oneway is served without a reply", "[dii]") {
  echo_server s;
  // _set_label sent one-way: the server runs it and answers nothing; a two-way call after it on
  // the same connection is served after it.
  request set(s.echo, "_set_label");
  set.add_in_arg() <<= "one-way";
  set.send_oneway();
  request get(s.echo, "_get_label");
  get.set_return_type(type_code::make_string());
  get.invoke();
  std::string label;
  REQUIRE((get.return_value() >>= label));
  CHECK(label == "one-way");
}

TEST_CASE("DII: deferred requests outstanding together on one connection", "[dii]") {
  auto giop = GENERATE("1.0", "1.2");
  CAPTURE(giop);
  echo_server s({"-ORBGIOPVersion", giop});
  std::vector<request> calls;
  for (std::int32_t k = 0; k < 6; ++k) {
    calls.emplace_back(s.echo, "echo_long");
    calls.back().add_in_arg() <<= k * 11;
    calls.back().set_return_type(type_code::basic(tc_kind::tk_long));
  }
  for (auto& call : calls) call.send_deferred();
  for (auto& call : calls) CHECK(call.outstanding());
  // A synchronous call in between reads past the deferred replies (they are kept for their requests).
  request sync(s.echo, "echo_string");
  sync.add_in_arg() <<= "between";
  sync.set_return_type(type_code::make_string());
  sync.invoke();
  std::string between;
  REQUIRE((sync.return_value() >>= between));
  CHECK(between == "between");
  // Collected in another order: last, first, then by polling.
  calls[5].get_response();
  calls[0].get_response();
  for (std::size_t k = 1; k < 5; ++k) REQUIRE(poll_until_answered(calls[k]));
  for (std::size_t k = 1; k < 5; ++k) calls[k].get_response();
  for (std::int32_t k = 0; k < 6; ++k) {
    std::int32_t got = -1;
    REQUIRE((calls[static_cast<std::size_t>(k)].return_value() >>= got));
    CHECK(got == k * 11);
    CHECK_FALSE(calls[static_cast<std::size_t>(k)].outstanding());
  }
  // The same requests again.
  calls[2].argument(0).value <<= std::int32_t{-2};
  calls[2].send_deferred();
  calls[2].get_response();
  std::int32_t got = 0;
  REQUIRE((calls[2].return_value() >>= got));
  CHECK(got == -2);
}

// echo_double waits (5 s at most) until the test opens the gate.
struct gated_echo final : test::full_echo_servant {
  std::mutex mutex;
  std::condition_variable changed;
  bool open = false;
  bool entered = false;
  double echo_double(double v) override {
    std::unique_lock lock(mutex);
    entered = true;
    changed.notify_all();
    changed.wait_for(lock, std::chrono::seconds(5), [&] { return open; });
    return v;
  }
};

TEST_CASE("DII: deferred requests are collected on other threads, several at once", "[dii]") {
  echo_server s({"-ORBThreads", "2"});
  constexpr int threads = 4;
  constexpr int per_thread = 25;
  // Each thread sends its requests deferred, then hands them to the next thread, which collects
  // them while its own are outstanding on the same connection.
  std::vector<std::vector<request>> sent(threads);
  for (int t = 0; t < threads; ++t)
    for (int k = 0; k < per_thread; ++k) {
      sent[t].emplace_back(s.echo, "echo_long");
      sent[t].back().add_in_arg() <<= std::int32_t{t * 1000 + k};
      sent[t].back().set_return_type(type_code::basic(tc_kind::tk_long));
    }
  std::atomic<int> wrong{0};
  std::vector<std::thread> workers;
  std::mutex handed_mutex;
  std::condition_variable handed;
  int sent_by = 0;
  for (int t = 0; t < threads; ++t)
    workers.emplace_back([&, t] {
      for (auto& call : sent[t]) call.send_deferred();
      {
        std::unique_lock lock(handed_mutex);
        ++sent_by;
        handed.notify_all();
        // Bounded: every thread sends before any collects (5 s at most).
        handed.wait_for(lock, std::chrono::seconds(5), [&] { return sent_by == threads; });
      }
      const int other = (t + 1) % threads;
      for (int k = 0; k < per_thread; ++k) {
        auto& call = sent[other][k];
        call.get_response();
        std::int32_t got = -1;
        if (!(call.return_value() >>= got) || got != other * 1000 + k) ++wrong;
      }
    });
  for (auto& w : workers) w.join();
  CHECK(wrong == 0);
  CHECK(sent_by == threads);
}

TEST_CASE("DII: poll_response says no until the reply has come", "[dii]") {
  auto gate = std::make_shared<gated_echo>();
  echo_server s({}, gate);
  request call(s.echo, "echo_double");
  call.add_in_arg() <<= 0.75;
  call.set_return_type(type_code::basic(tc_kind::tk_double));
  call.send_deferred();
  {
    std::unique_lock lock(gate->mutex);
    REQUIRE(gate->changed.wait_for(lock, std::chrono::seconds(5), [&] { return gate->entered; }));
  }
  // The servant has the request and has not answered.
  CHECK_FALSE(call.poll_response());
  CHECK_FALSE(call.poll_response());
  {
    std::lock_guard lock(gate->mutex);
    gate->open = true;
  }
  gate->changed.notify_all();
  REQUIRE(poll_until_answered(call));
  CHECK(call.poll_response());  // once answered, it stays so
  call.get_response();
  double got = 0;
  REQUIRE((call.return_value() >>= got));
  CHECK(got == 0.75);
}

TEST_CASE("DII: deferred requests raise what their replies carry at get_response", "[dii]") {
  echo_server s;
  request refuse(s.echo, "refuse");
  refuse.add_in_arg() <<= std::int32_t{5};
  refuse.set_return_type(type_code::basic(tc_kind::tk_long));
  refuse.add_exception(Integrity::_tc_Refused());
  request missing(s.echo, "no_such_operation");
  refuse.send_deferred();
  missing.send_deferred();
  REQUIRE(poll_until_answered(missing));
  require_system(SystemExceptionKind::BAD_OPERATION, [&] { missing.get_response(); });
  try {
    refuse.get_response();
    FAIL("no exception");
  } catch (const unknown_user_exception& e) {
    Integrity::Refused r;
    REQUIRE((e.exception() >>= r));
    CHECK(r.code == 5);
  }
  // A request dropped while outstanding: its reply is dropped when it comes; the connection serves on.
  {
    request dropped(s.echo, "echo_long");
    dropped.add_in_arg() <<= std::int32_t{1};
    dropped.set_return_type(type_code::basic(tc_kind::tk_long));
    dropped.send_deferred();
  }
  request after(s.echo, "echo_long");
  after.add_in_arg() <<= std::int32_t{2};
  after.set_return_type(type_code::basic(tc_kind::tk_long));
  after.invoke();
  std::int32_t two = 0;
  REQUIRE((after.return_value() >>= two));
  CHECK(two == 2);
}

TEST_CASE("DII: system exceptions and misuse", "[dii]") {
  echo_server s;
  request unknown(s.echo, "no_such_operation");
  require_system(SystemExceptionKind::BAD_OPERATION, [&] { unknown.invoke(); });
  // A deactivated object.
  s.server.orb->root_adapter().deactivate(s.echo);
  request gone(s.echo, "echo_long");
  gone.add_in_arg() <<= std::int32_t{1};
  require_system(SystemExceptionKind::OBJECT_NOT_EXIST, [&] { gone.invoke(); });
  // Nil target, an argument without a value, deferred-call order.
  request nil(object_ref(), "echo_long");
  require_system(SystemExceptionKind::INV_OBJREF, [&] { nil.invoke(); });
  request empty(s.echo, "echo_long");
  empty.add_in_arg();
  require_system(SystemExceptionKind::BAD_PARAM, [&] { empty.invoke(); });
  request order(s.echo, "echo_long");
  require_system(SystemExceptionKind::BAD_INV_ORDER, [&] { order.get_response(); });
  require_system(SystemExceptionKind::BAD_INV_ORDER, [&] { order.poll_response(); });
  require_system(SystemExceptionKind::BAD_PARAM, [&] { order.add_exception(type_code::basic(tc_kind::tk_long)); });
}
