// The event loop: readable and writable dispatch, level-triggered without re-arming, interest
// changes, removal from inside a batch (no stale event reaches a new registration of the same
// descriptor number), posted and deferred tasks, hang-ups reported whatever the interest, and the
// connection calls the server's loops use (send_now, recv_now, shut_down).
#include "transports/event_loop.h"

#include <catch2/catch.hpp>

#include <sys/socket.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "test_support.h"

using namespace switchyard;
using namespace switchyard::transports;
using namespace switchyard::transports::testing;
using namespace std::chrono_literals;

namespace {

// A handler from a lambda, counting its calls and remembering the last events.
class lambda_handler final : public io_handler {
 public:
  explicit lambda_handler(std::function<void(native_handle, unsigned)> body) : body_(std::move(body)) {}
  void on_io(native_handle handle, unsigned events) override {
    ++calls;
    last_events = events;
    body_(handle, events);
  }
  int calls = 0;
  unsigned last_events = 0;

 private:
  std::function<void(native_handle, unsigned)> body_;
};

// Runs rounds until `done` holds, at most `rounds` of at most 50 ms.
template <typename Predicate>
bool pump(event_loop& loop, Predicate done, int rounds = 100) {
  for (int round = 0; round < rounds && !done(); ++round) loop.run_once(50ms);
  return done();
}

std::string drain(connection& from) {
  std::string got;
  char buffer[256];
  for (;;) {
    const auto n = from.recv_now(buffer, sizeof buffer);
    if (n <= 0) break;
    got.append(buffer, static_cast<std::size_t>(n));
  }
  return got;
}

}  // namespace

TEST_CASE("a readable connection is dispatched until it is read (level-triggered)", "[event_loop]") {
  event_loop loop;
  auto pair = open_pair("iiop://127.0.0.1:0");
  pair.server->set_non_blocking(true);
  std::string received;
  bool read_it = false;
  lambda_handler handler([&](native_handle, unsigned) {
    if (read_it) received += drain(*pair.server);
  });
  loop.add(pair.server->handle(), handler, io_events::readable);
  CHECK(loop.is_registered(pair.server->handle()));
  CHECK(loop.handler_count() == 1);

  CHECK(loop.run_once(10ms) == 0);  // idle: nothing dispatched
  CHECK_FALSE(loop.work_pending());

  pair.client->send("ping", 4);
  REQUIRE(pump(loop, [&] { return handler.calls > 0; }));
  CHECK((handler.last_events & io_events::readable) != 0);
  // Not read: reported again, without any re-arming.
  const int before = handler.calls;
  CHECK(loop.work_pending());
  loop.run_once(10ms);
  CHECK(handler.calls == before + 1);

  read_it = true;
  REQUIRE(pump(loop, [&] { return received == "ping"; }));
  const int after = handler.calls;
  loop.run_once(10ms);
  CHECK(handler.calls == after);  // read out: quiet

  pair.client->send("pong", 4);
  REQUIRE(pump(loop, [&] { return received == "pingpong"; }));

  loop.remove(pair.server->handle());
  loop.remove(pair.server->handle());  // not registered: nothing happens
  CHECK_FALSE(loop.is_registered(pair.server->handle()));
  pair.client->send("more", 4);
  const int calls_before = handler.calls;
  loop.run_once(20ms);
  CHECK(handler.calls == calls_before);
}

TEST_CASE("interest can change between none, readable and writable", "[event_loop]") {
  event_loop loop;
  auto pair = open_pair("iiop://127.0.0.1:0");
  pair.server->set_non_blocking(true);
  lambda_handler handler([](native_handle, unsigned) {});
  loop.add(pair.server->handle(), handler, io_events::none);
  pair.client->send("x", 1);
  loop.run_once(20ms);
  CHECK(handler.calls == 0);  // data waiting, but nobody asked

  loop.modify(pair.server->handle(), io_events::writable);
  REQUIRE(pump(loop, [&] { return handler.calls > 0; }));
  CHECK(handler.last_events == io_events::writable);  // an empty send buffer is writable

  loop.modify(pair.server->handle(), io_events::readable);
  handler.calls = 0;
  REQUIRE(pump(loop, [&] { return handler.calls > 0; }));
  CHECK((handler.last_events & io_events::readable) != 0);
  CHECK((handler.last_events & io_events::writable) == 0);
}

TEST_CASE("a full socket: send_now takes what fits, writable comes back when the peer reads", "[event_loop]") {
  event_loop loop;
  transport_options small;
  small.send_buffer_size = 4096;
  small.recv_buffer_size = 4096;
  auto pair = open_pair("iiop://127.0.0.1:0", small);
  pair.server->set_non_blocking(true);
  std::vector<char> block(64 * 1024, 'a');
  std::size_t sent = 0;
  for (int i = 0; i < 1000; ++i) {
    const const_buffer piece{block.data(), block.size()};
    const std::size_t took = pair.server->send_now({&piece, 1});
    sent += took;
    if (took == 0) break;
  }
  REQUIRE(sent > 0);
  REQUIRE(sent < 1000 * block.size());  // it filled up and said so, without blocking

  lambda_handler handler([](native_handle, unsigned) {});
  loop.add(pair.server->handle(), handler, io_events::writable);
  loop.run_once(20ms);
  CHECK(handler.calls == 0);  // still full

  std::vector<char> sink(1 << 20);
  std::size_t read = 0;
  while (read < sent) read += pair.client->recv_some(sink.data(), sink.size());
  REQUIRE(pump(loop, [&] { return handler.calls > 0; }));
  CHECK((handler.last_events & io_events::writable) != 0);
}

TEST_CASE("recv_now says would_block, octets, or closed; a receive timeout is would_block", "[event_loop]") {
  auto pair = open_pair("iiop://127.0.0.1:0");
  char buffer[16];
  pair.server->set_non_blocking(true);
  CHECK(pair.server->recv_now(buffer, sizeof buffer) == connection::would_block);
  pair.client->send("abc", 3);
  std::ptrdiff_t got = connection::would_block;
  for (int i = 0; i < 100 && got == connection::would_block; ++i) {
    std::this_thread::sleep_for(5ms);
    got = pair.server->recv_now(buffer, sizeof buffer);
  }
  CHECK(got == 3);

  // Blocking with a receive timeout: nothing arrives, the call comes back as would_block.
  pair.server->set_non_blocking(false);
  pair.server->set_io_timeouts(1000ms, 20ms);
  CHECK(pair.server->recv_now(buffer, sizeof buffer) == connection::would_block);

  pair.client->close();
  CHECK(pair.server->recv_now(buffer, sizeof buffer) == 0);
}

TEST_CASE("shut_down wakes a thread blocked in a receive, and keeps the descriptor", "[event_loop]") {
  auto pair = open_pair("iiop://127.0.0.1:0");
  std::atomic<std::ptrdiff_t> got{-2};
  std::thread reader([&] {
    char buffer[16];
    got = pair.server->recv_now(buffer, sizeof buffer);
  });
  std::this_thread::sleep_for(20ms);
  pair.server->shut_down();
  reader.join();
  CHECK(got == 0);
  CHECK(pair.server->is_open());
  CHECK(pair.server->handle() != invalid_handle);
}

TEST_CASE("a removal inside a batch drops that batch's later events, even for a new registration", "[event_loop]") {
  event_loop loop;
  auto a = open_pair("iiop://127.0.0.1:0");
  auto b = open_pair("iiop://127.0.0.1:0");
  a.server->set_non_blocking(true);
  b.server->set_non_blocking(true);
  int a_calls = 0, b_calls = 0, replacement_calls = 0;
  lambda_handler replacement([&](native_handle, unsigned) { ++replacement_calls; });
  // Whichever runs first removes the other; the removed one must not be called in this batch.
  lambda_handler on_a([&](native_handle, unsigned) {
    ++a_calls;
    drain(*a.server);
    if (loop.is_registered(b.server->handle())) {
      loop.remove(b.server->handle());
      // The same descriptor registered again within the batch: the old event is not its.
      loop.add(b.server->handle(), replacement, io_events::none);
    }
  });
  lambda_handler on_b([&](native_handle, unsigned) {
    ++b_calls;
    drain(*b.server);
    if (loop.is_registered(a.server->handle())) loop.remove(a.server->handle());
  });
  loop.add(a.server->handle(), on_a, io_events::readable);
  loop.add(b.server->handle(), on_b, io_events::readable);
  a.client->send("1", 1);
  b.client->send("2", 1);
  std::this_thread::sleep_for(20ms);  // both ready before the one batch
  loop.run_once(100ms);
  CHECK(a_calls + b_calls == 1);
  CHECK(replacement_calls == 0);
}

TEST_CASE("registering a handle twice is BAD_PARAM", "[event_loop]") {
  event_loop loop;
  auto pair = open_pair("iiop://127.0.0.1:0");
  lambda_handler handler([](native_handle, unsigned) {});
  loop.add(pair.server->handle(), handler, io_events::readable);
  try {
    loop.add(pair.server->handle(), handler, io_events::readable);
    FAIL("no exception");
  } catch (const SystemException& e) {
    CHECK(e.kind() == SystemExceptionKind::BAD_PARAM);
  }
}

TEST_CASE("post wakes the loop from another thread; deferred tasks run after the batch", "[event_loop]") {
  event_loop loop;
  std::atomic<int> ran{0};
  std::thread poster([&] {
    std::this_thread::sleep_for(20ms);
    loop.post([&] { ++ran; });
  });
  REQUIRE(pump(loop, [&] { return ran.load() == 1; }));
  poster.join();
  CHECK(loop.in_loop_thread());

  std::vector<int> order;
  loop.post([&] {
    order.push_back(1);
    loop.defer([&] { order.push_back(3); });
    order.push_back(2);
  });
  loop.run_once(0ms);
  CHECK(order == std::vector<int>{1, 2, 3});
}

TEST_CASE("a hang-up is reported even to a handle with no interest", "[event_loop]") {
  event_loop loop;
  auto pair = open_pair("iiop://127.0.0.1:0");
  pair.server->set_non_blocking(true);
  lambda_handler handler([](native_handle, unsigned) {});
  loop.add(pair.server->handle(), handler, io_events::none);
  // A reset: the peer closes with unread data, so the kernel sends RST.
  pair.server->send("unread", 6);
  linger abort_now{1, 0};
  ::setsockopt(pair.client->handle(), SOL_SOCKET, SO_LINGER, &abort_now, sizeof abort_now);
  pair.client->close();
  REQUIRE(pump(loop, [&] { return handler.calls > 0; }));
  CHECK((handler.last_events & io_events::hangup) != 0);
}
