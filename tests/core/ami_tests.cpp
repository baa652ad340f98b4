// Asynchronous calls (switchyard/ami.h): the callback and polling models against a loopback
// server in every concurrency model, and collocated. Replies reach their handlers once each,
// with their own results; exceptions, user and system, through the exception holder; a call past
// its round-trip timeout completes with TIMEOUT; shutdown completes what is left with
// BAD_INV_ORDER; a handler may call again. Every wait is bounded (`patience`); nothing here
// looks at how long anything took.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "switchyard/ami.h"
#include "switchyard/exception.h"
#include "switchyard/orb.h"
#include "tests/core/hand_interfaces.h"
#include "tests/core/orb_fixture.h"

using namespace switchyard;
using namespace std::chrono_literals;
using test::system_exception_of;

namespace {

constexpr auto patience = 10s;

// What the handlers of a test's calls received, by call number.
class outcomes {
 public:
  // A handler for call `n` of echo_long (results: one long).
  ami::reply_callback for_echo(int n) {
    return [this, n](cdr::input_stream* results, const exception_holder* raised) {
      std::optional<std::int32_t> value;
      std::string failure;
      if (raised != nullptr) failure = describe(*raised);
      else value = results->read_long();
      record(n, value, failure);
    };
  }
  // A handler for an operation without results.
  ami::reply_callback for_void(int n) {
    return [this, n](cdr::input_stream*, const exception_holder* raised) {
      record(n, std::nullopt, raised != nullptr ? describe(*raised) : "");
    };
  }
  bool wait_for(std::size_t count) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, patience, [&] { return completions_ >= count; });
  }
  std::size_t completions() {
    std::lock_guard lock(mutex_);
    return completions_;
  }
  std::optional<std::int32_t> value(int n) {
    std::lock_guard lock(mutex_);
    return values_[n];
  }
  std::string failure(int n) {
    std::lock_guard lock(mutex_);
    return failures_[n];
  }
  int times_completed(int n) {
    std::lock_guard lock(mutex_);
    return static_cast<int>(times_[n]);
  }
  std::thread::id thread_of(int n) {
    std::lock_guard lock(mutex_);
    return threads_[n];
  }

  // "KIND" for a system exception, "refused CODE" for the test's user exception.
  static std::string describe(const exception_holder& raised) {
    try {
      raised.raise_exception();
    } catch (const SystemException& e) {
      return std::string(SystemException::name(e.kind())) + (e.completed() == CompletionStatus::maybe ? " maybe" : "");
    } catch (const hand::refused& e) {
      return "refused " + std::to_string(e.code);
    } catch (...) {
    }
    return "other";
  }

 private:
  void record(int n, std::optional<std::int32_t> value, const std::string& failure) {
    std::lock_guard lock(mutex_);
    values_[n] = value;
    failures_[n] = failure;
    ++times_[n];
    threads_[n] = std::this_thread::get_id();
    ++completions_;
    changed_.notify_all();
  }

  std::mutex mutex_;
  std::condition_variable changed_;
  std::size_t completions_ = 0;
  std::map<int, std::optional<std::int32_t>> values_;
  std::map<int, std::string> failures_;
  std::map<int, std::size_t> times_;
  std::map<int, std::thread::id> threads_;
};

ami::argument_writer long_argument(std::int32_t v) {
  return [v](cdr::output_stream& args) { args.write_long(v); };
}

// What hand::probe_stub::raise_user throws for the test's user exception.
void raise_refused(std::string_view id, cdr::input_stream& body) {
  if (id == "IDL:test/refused:1.0") {
    hand::refused e;
    e.code = body.read_long();
    throw e;
  }
}

// A probe served on loopback, and a client ORB with a reference to it.
struct probe_setup {
  explicit probe_setup(std::vector<std::string> server_options = {}, std::vector<std::string> client_options = {})
      : server(std::move(server_options)) {
    ior = server.orb->object_to_string(server.orb->root_adapter().activate(probe));
    server.start();
    client = orb_init(std::move(client_options));
    reference = client->string_to_object(ior);
  }
  ~probe_setup() {
    probe->release();
    if (client) client->destroy();
  }
  std::shared_ptr<test::test_probe> probe = std::make_shared<test::test_probe>();
  test::serving_orb server;
  std::string ior;
  std::shared_ptr<orb> client;
  object_ref reference;
};

}  // namespace

TEST_CASE("AMI callbacks: 64 calls outstanding on one connection each complete once with their own result",
          "[core][ami]") {
  auto model = GENERATE(values<std::vector<std::string>>(
      {{}, {"-ORBConcurrency", "reactive"}, {"-ORBConcurrency", "thread-per-connection"}, {"-ORBThreads", "4"}}));
  auto giop = GENERATE("1.0", "1.2");
  probe_setup s(model, {"-ORBGIOPVersion", giop});
  outcomes got;
  constexpr int calls = 64;
  for (int n = 0; n < calls; ++n)
    ami::send_callback(s.reference, "echo_long", long_argument(1000 + n), got.for_echo(n), nullptr, 0);
  REQUIRE(got.wait_for(calls));
  for (int n = 0; n < calls; ++n) {
    CHECK(got.value(n) == 1000 + n);
    CHECK(got.times_completed(n) == 1);
    CHECK(got.thread_of(n) != std::this_thread::get_id());
  }
  // The connection serves synchronous calls as before.
  CHECK(hand::probe_stub(s.reference).echo_long(7) == 7);
}

TEST_CASE("AMI callbacks: user and system exceptions reach the handler through the exception holder", "[core][ami]") {
  probe_setup s;
  outcomes got;
  ami::send_callback(s.reference, "raise_user", long_argument(42), got.for_void(0), &raise_refused, 5);
  ami::send_callback(s.reference, "raise_user", long_argument(0), got.for_void(1), &raise_refused, 5);
  ami::send_callback(s.reference, "raise_system", {}, got.for_void(2), nullptr, 2);
  ami::send_callback(s.reference, "raise_standard", {}, got.for_void(3), nullptr, 3);
  ami::send_callback(s.reference, "no_such_operation", {}, got.for_void(4));
  REQUIRE(got.wait_for(5));
  CHECK(got.failure(0) == "refused 42");
  CHECK(got.failure(1).empty());
  CHECK(got.failure(2) == "NO_RESOURCES");
  CHECK(got.failure(3) == "UNKNOWN maybe");  // the servant ran
  CHECK(got.failure(4) == "BAD_OPERATION");
}

TEST_CASE("AMI: what fails before the request is sent is raised by the send itself", "[core][ami]") {
  probe_setup s;
  outcomes got;
  CHECK(system_exception_of([&] {
          ami::send_callback(object_ref(), "echo_long", long_argument(1), got.for_echo(0));
        }).kind() == SystemExceptionKind::INV_OBJREF);
  // Nothing listens at this reference's endpoint any more.
  auto gone = std::make_unique<test::serving_orb>();
  const std::string gone_ior = gone->orb->object_to_string(gone->orb->root_adapter().activate(s.probe));
  gone.reset();
  const object_ref unreachable = s.client->string_to_object(gone_ior);
  CHECK(system_exception_of([&] {
          ami::send_callback(unreachable, "echo_long", long_argument(1), got.for_echo(1));
        }).kind() == SystemExceptionKind::TRANSIENT);
  CHECK(got.completions() == 0);
}

TEST_CASE("AMI polling: a poller is ready once its reply has come, and gives its results once", "[core][ami]") {
  probe_setup s({"-ORBThreads", "4"});  // the pool serves a connection's requests side by side
  ami::poller blocked = ami::send_poller(s.reference, "wait_for_release", {}, nullptr, 4);
  REQUIRE(s.probe->wait_until_waiting(patience));
  CHECK_FALSE(blocked.is_ready(0ms));
  CHECK(system_exception_of([&] { blocked.results(0ms); }).kind() == SystemExceptionKind::TIMEOUT);

  ami::poller echo = ami::send_poller(s.reference, "echo_long", long_argument(99), nullptr, 0);
  CHECK(echo.results(patience).read_long() == 99);  // not held up by the blocked call before it
  CHECK(system_exception_of([&] { echo.results(0ms); }).kind() == SystemExceptionKind::OBJECT_NOT_EXIST);

  s.probe->release();
  CHECK(blocked.is_ready(patience));
  CHECK_NOTHROW(blocked.results(0ms));

  ami::poller refused = ami::send_poller(s.reference, "raise_user", long_argument(3), &raise_refused, 5);
  CHECK_THROWS_AS(refused.results(ami::poller::forever), hand::refused);
  // A poller dropped before its reply comes costs nothing but the reply's reading.
  { ami::poller dropped = ami::send_poller(s.reference, "echo_long", long_argument(1), nullptr, 0); }
  CHECK(ami::send_poller(s.reference, "echo_long", long_argument(2), nullptr, 0).results(patience).read_long() == 2);
}

TEST_CASE("AMI: a call past its round-trip timeout completes with TIMEOUT, and its late reply is dropped",
          "[core][ami]") {
  probe_setup s({"-ORBThreads", "4"});
  outcomes got;
  ami::send_callback(s.reference.with_round_trip_timeout(50ms), "wait_for_release", {}, got.for_void(0), nullptr, 4);
  ami::send_callback(s.reference, "echo_long", long_argument(5), got.for_echo(1), nullptr, 0);
  REQUIRE(got.wait_for(2));
  CHECK(got.failure(0) == "TIMEOUT maybe");
  CHECK(got.value(1) == 5);
  s.probe->release();
  // The blocked call's reply comes after its handler ran: dropped, not delivered again.
  CHECK(hand::probe_stub(s.reference).echo_long(6) == 6);
  ami::send_callback(s.reference, "echo_long", long_argument(7), got.for_echo(2), nullptr, 0);
  REQUIRE(got.wait_for(3));
  CHECK(got.value(2) == 7);
  CHECK(got.times_completed(0) == 1);
}

TEST_CASE("AMI: a reply handler may call again, synchronously and asynchronously, on the same connection",
          "[core][ami]") {
  probe_setup s;
  outcomes got;
  std::atomic<std::int32_t> nested_sync{0};
  ami::send_callback(
      s.reference, "echo_long", long_argument(1),
      [&](cdr::input_stream* results, const exception_holder*) {
        const std::int32_t first = results->read_long();
        nested_sync = hand::probe_stub(s.reference).echo_long(first + 10);
        ami::send_callback(s.reference, "echo_long", long_argument(first + 20), got.for_echo(1), nullptr, 0);
        got.for_void(0)(nullptr, nullptr);
      },
      nullptr, 0);
  REQUIRE(got.wait_for(2));
  CHECK(nested_sync == 11);
  CHECK(got.value(1) == 21);
}

TEST_CASE("AMI: a handler that throws stops nothing else", "[core][ami]") {
  probe_setup s;
  outcomes got;
  ami::send_callback(
      s.reference, "echo_long", long_argument(1),
      [](cdr::input_stream*, const exception_holder*) { throw std::runtime_error("handler bug"); }, nullptr, 0);
  ami::send_callback(s.reference, "echo_long", long_argument(2), got.for_echo(0), nullptr, 0);
  REQUIRE(got.wait_for(1));
  CHECK(got.value(0) == 2);
}

TEST_CASE("AMI: synchronous callers on other threads share the connection with outstanding calls", "[core][ami]") {
  probe_setup s({"-ORBThreads", "4"});
  outcomes got;
  constexpr int per_thread = 200;
  std::atomic<int> sync_wrong{0};
  std::vector<std::thread> callers;
  for (int t = 0; t < 2; ++t)
    callers.emplace_back([&, t] {
      hand::probe_stub probe(s.reference);
      for (int i = 0; i < per_thread; ++i) {
        const int n = t * per_thread + i;
        ami::send_callback(s.reference, "echo_long", long_argument(n), got.for_echo(n), nullptr, 0);
        if (probe.echo_long(-n) != -n) ++sync_wrong;
      }
    });
  for (auto& caller : callers) caller.join();
  REQUIRE(got.wait_for(2 * per_thread));
  CHECK(sync_wrong == 0);
  for (int n = 0; n < 2 * per_thread; ++n) CHECK(got.value(n) == n);
}

TEST_CASE("AMI: one call at a time, synchronous calls between them, and a connection the server closed between them",
          "[core][ami]") {
  // The reply thread keeps polling a connection after its call completes (reply_dispatcher.h):
  // a synchronous reply, or the server's CloseConnection, on it must neither be taken from its
  // caller nor keep the thread busy, and the next asynchronous call must still be seen.
  probe_setup s({"-ORBIdleTimeout", "100"});
  outcomes got;
  hand::probe_stub probe(s.reference);
  constexpr int rounds = 100;
  for (int n = 0; n < rounds; ++n) {
    ami::send_callback(s.reference, "echo_long", long_argument(n), got.for_echo(n), nullptr, 0);
    REQUIRE(got.wait_for(static_cast<std::size_t>(n) + 1));
    CHECK(got.value(n) == n);
    if (n % 2 == 0) CHECK(probe.echo_long(-n) == -n);
  }
  // Idle past the server's timeout: it closes the connection the reply thread still polls.
  std::this_thread::sleep_for(400ms);
  ami::send_callback(s.reference, "echo_long", long_argument(rounds), got.for_echo(rounds), nullptr, 0);
  REQUIRE(got.wait_for(rounds + 1));
  CHECK(got.value(rounds) == rounds);
  CHECK(probe.echo_long(5) == 5);
}

TEST_CASE("AMI: calls on several connections at once", "[core][ami]") {
  probe_setup first;
  probe_setup second;
  const object_ref other = first.client->string_to_object(second.ior);
  outcomes got;
  ami::send_callback(first.reference, "wait_for_release", {}, got.for_void(0), nullptr, 4);
  REQUIRE(first.probe->wait_until_waiting(patience));
  // The second server's reply comes while the first connection's is still awaited.
  ami::send_callback(other, "echo_long", long_argument(8), got.for_echo(1), nullptr, 0);
  REQUIRE(got.wait_for(1));
  CHECK(got.value(1) == 8);
  first.probe->release();
  REQUIRE(got.wait_for(2));
  CHECK(got.failure(0).empty());
}

TEST_CASE("AMI: collocated calls complete on the reply thread too", "[core][ami]") {
  auto collocation = GENERATE("thru-adapter", "direct");
  test::serving_orb server({"-ORBCollocation", collocation});
  auto probe = std::make_shared<test::test_probe>();
  const object_ref local = server.orb->root_adapter().activate(probe);
  server.start();
  outcomes got;
  ami::send_callback(local, "echo_long", long_argument(3), got.for_echo(0), nullptr, 0);
  ami::poller polled = ami::send_poller(local, "raise_user", long_argument(4), &raise_refused, 5);
  REQUIRE(got.wait_for(1));
  CHECK(got.value(0) == 3);
  CHECK(got.thread_of(0) != std::this_thread::get_id());
  CHECK_THROWS_AS(polled.results(patience), hand::refused);
}

TEST_CASE("AMI: shutdown completes what is outstanding with BAD_INV_ORDER; no call is taken after it", "[core][ami]") {
  probe_setup s;
  outcomes got;
  ami::send_callback(s.reference, "wait_for_release", {}, got.for_void(0), nullptr, 4);
  ami::poller polled = ami::send_poller(s.reference, "wait_for_release", {}, nullptr, 4);
  REQUIRE(s.probe->wait_until_waiting(patience));
  s.client->shutdown(false);
  REQUIRE(got.wait_for(1));
  CHECK(got.failure(0) == "BAD_INV_ORDER maybe");
  CHECK(system_exception_of([&] { polled.results(patience); }).kind() == SystemExceptionKind::BAD_INV_ORDER);
  CHECK(system_exception_of([&] {
          ami::send_callback(s.reference, "echo_long", long_argument(1), got.for_echo(1));
        }).kind() == SystemExceptionKind::BAD_INV_ORDER);
}
