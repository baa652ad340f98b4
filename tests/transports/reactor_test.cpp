// The reactor, both kinds: readable dispatch, idle timeouts, notify and stop from another thread,
// removal (by return value, from inside a handler, by exception), accepting through the reactor.
#include "transports/reactor.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <functional>
#include <string>
#include <thread>

#include "test_support.h"

using namespace switchyard;
using namespace switchyard::transports;
using namespace switchyard::transports::testing;
using namespace std::chrono_literals;

namespace {

// A handler from a lambda, counting its calls.
class lambda_handler final : public readable_handler {
 public:
  explicit lambda_handler(std::function<disposition(native_handle)> body) : body_(std::move(body)) {}
  disposition on_readable(native_handle handle) override {
    ++calls;
    return body_(handle);
  }
  std::atomic<int> calls{0};

 private:
  std::function<disposition(native_handle)> body_;
};

// Runs perform_work() until `done` holds, at most `rounds` times.
template <typename Predicate>
bool pump(reactor& events, Predicate done, int rounds = 200) {
  for (int round = 0; round < rounds && !done(); ++round) events.perform_work(50ms);
  return done();
}

reactor_kind kind_under_test() {
  return GENERATE(reactor_kind::dev_poll, reactor_kind::select);
}

const char* name(reactor_kind kind) { return kind == reactor_kind::dev_poll ? "dev_poll" : "select"; }

}  // namespace

TEST_CASE("the default reactor is epoll-based on Linux", "[reactor]") {
  CHECK(default_reactor_kind() == reactor_kind::dev_poll);
  reactor events;
  CHECK(events.kind() == reactor_kind::dev_poll);
}

TEST_CASE("a readable connection is dispatched to its handler", "[reactor]") {
  const auto kind = kind_under_test();
  INFO(name(kind));
  reactor events(kind);
  auto pair = open_pair("iiop://127.0.0.1:0");
  std::string received;
  lambda_handler handler([&](native_handle) {
    char buffer[64];
    const auto got = pair.server->try_recv_some(buffer, sizeof buffer);
    received.append(buffer, got);
    return readable_handler::disposition::keep;
  });
  events.add_readable(pair.server->handle(), handler);
  CHECK(events.is_registered(pair.server->handle()));
  CHECK(events.handler_count() == 1);

  CHECK(events.perform_work(10ms) == 0);  // idle: the timeout passes, nothing dispatched
  CHECK(handler.calls == 0);
  CHECK_FALSE(events.work_pending());

  pair.client->send("ping", 4);
  CHECK(events.work_pending(2000ms));
  REQUIRE(pump(events, [&] { return received.size() >= 4; }));
  CHECK(received == "ping");

  // A second message on the same registration.
  pair.client->send("pong", 4);
  REQUIRE(pump(events, [&] { return received.size() >= 8; }));
  CHECK(received == "pingpong");

  events.remove(pair.server->handle());
  events.remove(pair.server->handle());  // not registered: nothing happens
  CHECK_FALSE(events.is_registered(pair.server->handle()));
  pair.client->send("more", 4);
  const int calls_before = handler.calls;
  events.perform_work(20ms);
  CHECK(handler.calls == calls_before);
}

TEST_CASE("a handler returning remove is unregistered; a peer close is seen as readable",
          "[reactor]") {
  const auto kind = kind_under_test();
  INFO(name(kind));
  reactor events(kind);
  auto pair = open_pair("iiop://127.0.0.1:0");
  bool saw_close = false;
  lambda_handler handler([&](native_handle) {
    char buffer[16];
    if (pair.server->try_recv_some(buffer, sizeof buffer) == 0) {
      saw_close = true;
      return readable_handler::disposition::remove;
    }
    return readable_handler::disposition::keep;
  });
  events.add_readable(pair.server->handle(), handler);
  pair.client->close();
  REQUIRE(pump(events, [&] { return saw_close; }));
  events.perform_work(0ms);
  CHECK_FALSE(events.is_registered(pair.server->handle()));
  CHECK(handler.calls == 1);
}

TEST_CASE("a handler may remove itself and others from inside the dispatch", "[reactor]") {
  const auto kind = kind_under_test();
  INFO(name(kind));
  reactor events(kind);
  auto first = open_pair("iiop://127.0.0.1:0");
  auto second = open_pair("iiop://127.0.0.1:0");
  lambda_handler other([&](native_handle) { return readable_handler::disposition::keep; });
  lambda_handler self([&](native_handle handle) {
    events.remove(handle);
    events.remove(second.server->handle());
    return readable_handler::disposition::keep;
  });
  events.add_readable(first.server->handle(), self);
  events.add_readable(second.server->handle(), other);
  first.client->send("x", 1);
  REQUIRE(pump(events, [&] { return self.calls > 0; }));
  CHECK(events.handler_count() == 0);
  second.client->send("y", 1);
  events.perform_work(20ms);
  CHECK(other.calls == 0);
}

TEST_CASE("a handler's exception unregisters it and comes out of perform_work", "[reactor]") {
  const auto kind = kind_under_test();
  INFO(name(kind));
  reactor events(kind);
  auto pair = open_pair("iiop://127.0.0.1:0");
  lambda_handler handler([&](native_handle) -> readable_handler::disposition {
    throw SystemException(SystemExceptionKind::MARSHAL, minor::bad_message);
  });
  events.add_readable(pair.server->handle(), handler);
  pair.client->send("z", 1);
  bool thrown = false;
  for (int round = 0; round < 100 && !thrown; ++round) {
    try {
      events.perform_work(50ms);
    } catch (const SystemException& e) {
      CHECK(e.kind() == SystemExceptionKind::MARSHAL);
      thrown = true;
    }
  }
  CHECK(thrown);
  CHECK_FALSE(events.is_registered(pair.server->handle()));
}

TEST_CASE("registering a handle twice is BAD_PARAM", "[reactor]") {
  const auto kind = kind_under_test();
  INFO(name(kind));
  reactor events(kind);
  auto pair = open_pair("iiop://127.0.0.1:0");
  lambda_handler handler([](native_handle) { return readable_handler::disposition::keep; });
  events.add_readable(pair.server->handle(), handler);
  try {
    events.add_readable(pair.server->handle(), handler);
    FAIL("registered twice");
  } catch (const SystemException& e) {
    CHECK(e.kind() == SystemExceptionKind::BAD_PARAM);
  }
  CHECK(events.handler_count() == 1);
}

TEST_CASE("an acceptor's handle is dispatched when a client connects", "[reactor]") {
  const auto kind = kind_under_test();
  INFO(name(kind));
  reactor events(kind);
  temp_dir dir;
  for (const std::string& where : {std::string("iiop://127.0.0.1:0"), "uiop://" + dir.path() + "/r"}) {
    auto listener = open_acceptor(where);
    std::vector<std::unique_ptr<connection>> accepted;
    lambda_handler on_connect([&](native_handle) {
      for (int i = 0; i < 16; ++i) {  // drain what is pending
        auto next = listener->try_accept();
        if (!next) break;
        accepted.push_back(std::move(next));
      }
      return readable_handler::disposition::keep;
    });
    events.add_readable(listener->handle(), on_connect);
    auto one = connect(listener->local_endpoint());
    auto two = connect(listener->local_endpoint());
    REQUIRE(pump(events, [&] { return accepted.size() == 2; }));
    events.remove(listener->handle());
  }
}

TEST_CASE("notify wakes a blocked perform_work from another thread", "[reactor]") {
  const auto kind = kind_under_test();
  INFO(name(kind));
  reactor events(kind);
  std::atomic<bool> returned{false};
  std::atomic<int> dispatched{-1};
  // The long timeout is only a bound: without notify the round would end after a minute.
  std::thread waiter([&] {
    dispatched = events.perform_work(60s);
    returned = true;
  });
  std::this_thread::sleep_for(50ms);
  events.notify();
  waiter.join();
  CHECK(returned);
  CHECK(dispatched >= 0);
}

TEST_CASE("stop ends run from another thread; stop before run returns at once", "[reactor]") {
  const auto kind = kind_under_test();
  INFO(name(kind));
  reactor events(kind);
  std::atomic<bool> finished{false};
  std::thread runner([&] {
    events.run();
    finished = true;
  });
  std::this_thread::sleep_for(20ms);
  events.stop();
  runner.join();
  CHECK(finished);

  events.stop();
  events.run();  // returns at once: the stop was waiting for it
  SUCCEED();
}

TEST_CASE("a handler added from another thread while run blocks is dispatched", "[reactor]") {
  const auto kind = kind_under_test();
  INFO(name(kind));
  reactor events(kind);
  auto pair = open_pair("iiop://127.0.0.1:0");
  std::atomic<bool> dispatched{false};
  lambda_handler handler([&](native_handle) {
    char buffer[8];
    pair.server->try_recv_some(buffer, sizeof buffer);
    dispatched = true;
    events.stop();
    return readable_handler::disposition::remove;
  });
  std::thread runner([&] { events.run(); });
  std::this_thread::sleep_for(20ms);
  events.add_readable(pair.server->handle(), handler);
  pair.client->send("go", 2);
  for (int wait = 0; wait < 500 && !dispatched; ++wait) std::this_thread::sleep_for(10ms);
  events.stop();  // in case the handler never ran: the join below must not hang
  runner.join();
  CHECK(dispatched);
}
