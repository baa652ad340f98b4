// Round-trip timeouts as policies (docs/orb.md, "Timeouts"): on a copy of a reference, on the
// calling thread, and ORB-wide (-ORBCallTimeout); the reference's overrides the thread's, which
// overrides the ORB's. Over syidl's stubs of ttcp_sequence.idl, a loopback server whose servant
// blocks until the test lets it go (at most 10 s): the tests look at what is raised, never at
// how long anything took.
#include <catch2/catch.hpp>

#include <chrono>
#include <condition_variable>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "switchyard/exception.h"
#include "switchyard/orb.h"
#include "switchyard/policies.h"
#include "switchyard/request.h"
#include "tests/core/orb_fixture.h"
#include "ttcp_sequence.h"

using namespace switchyard;
using namespace std::chrono_literals;
using test::serving_orb;
using test::system_exception_of;

namespace {

// Every wait in these tests ends by itself after this.
constexpr auto patience = 10s;
// The timeout of calls that must time out: far shorter than the servant's block, long enough for
// a request on a warm connection to go out before it passes, even on a loaded machine.
constexpr auto short_timeout = 50ms;
// The timeout of calls that must not: longer than any wait here.
constexpr auto long_timeout = 30s;

// sendNoParams_2way blocks until release() (or `patience`); sendOctetSeq_2way returns at once;
// sendStructSeq_2way sleeps seq[0].l milliseconds (for collocated calls, which run in the
// caller's thread).
class gated_ttcp final : public ttcp_sequence_skeleton {
 public:
  void sendNoParams_2way() override {
    std::unique_lock lock(mutex_);
    const int generation = releases_;
    ++waiting_;
    changed_.notify_all();
    changed_.wait_for(lock, patience, [&] { return releases_ != generation; });
    --waiting_;
    changed_.notify_all();
  }
  void sendOctetSeq_2way(std::span<const std::uint8_t>) override {}
  void sendStructSeq_2way(const ttcp_sequence::StructSeq& seq) override {
    if (!seq.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(seq[0].l));
  }
  void sendNoParams_1way() override {}

  // Lets every blocked call return, and waits (bounded) until they have.
  void release() {
    std::unique_lock lock(mutex_);
    ++releases_;
    changed_.notify_all();
    changed_.wait_for(lock, patience, [&] { return waiting_ == 0; });
  }
  bool wait_until_blocked() {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, patience, [&] { return waiting_ > 0; });
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  int releases_ = 0;
  int waiting_ = 0;
};

// A server with the gated servant; each connection served by its own thread, one request at a
// time, so that a blocked call holds up the requests behind it on its connection.
struct gated_server {
  gated_server() : server({"-ORBConcurrency", "thread-per-connection"}) {
    ior = server.orb->object_to_string(server.orb->root_adapter().activate(servant));
    server.start();
  }
  ~gated_server() {
    servant->release();
    server.stop();
  }
  std::shared_ptr<gated_ttcp> servant = std::make_shared<gated_ttcp>();
  serving_orb server;
  std::string ior;
};

// A client ORB and its reference to the server, its connection made (so that a short timeout
// is spent waiting for the reply, not connecting).
struct client {
  explicit client(const gated_server& server, std::vector<std::string> args = {})
      : orb(orb_init(std::move(args))), reference(orb->string_to_object(server.ior)) {
    ttcp_sequence(reference).sendOctetSeq_2way({});
  }
  ~client() { orb->destroy(); }
  std::shared_ptr<switchyard::orb> orb;
  object_ref reference;
};

// The exception a blocking call through `reference` raises, the servant released after it.
SystemException blocked_call_fails(gated_server& server, const object_ref& reference) {
  auto e = system_exception_of([&] { ttcp_sequence(reference).sendNoParams_2way(); });
  server.servant->release();
  return e;
}

// A blocking call through `reference`, made in this thread (whose timeout may apply), completes:
// another thread releases the servant only once the short timeout has passed with the call still
// waiting.
void blocked_call_completes(gated_server& server, const object_ref& reference) {
  auto releaser = std::async(std::launch::async, [&] {
    const bool blocked = server.servant->wait_until_blocked();
    std::this_thread::sleep_for(2 * short_timeout);
    server.servant->release();
    return blocked;
  });
  CHECK_NOTHROW(ttcp_sequence(reference).sendNoParams_2way());
  REQUIRE(releaser.wait_for(patience) == std::future_status::ready);
  CHECK(releaser.get());
}

void check_timeout_maybe(const SystemException& e) {
  CHECK(e.kind() == SystemExceptionKind::TIMEOUT);
  CHECK(e.completed() == CompletionStatus::maybe);  // the request went out; the reply was awaited
}

}  // namespace

TEST_CASE("a reference's round-trip timeout: a copy carries it, the original none", "[core][timeout]") {
  gated_server server;
  client c(server);
  const object_ref timed = c.reference.with_round_trip_timeout(short_timeout);

  CHECK(timed.round_trip_timeout() == std::optional<std::chrono::nanoseconds>(short_timeout));
  CHECK_FALSE(c.reference.round_trip_timeout());
  CHECK(timed.state() == c.reference.state());  // one binding, one connection
  CHECK(timed.is_equivalent(c.reference));
  CHECK_FALSE(timed.without_round_trip_timeout().round_trip_timeout());
  // Not part of the IOR: the string is the original's, and a reference read from it has none.
  CHECK(c.orb->object_to_string(timed) == c.orb->object_to_string(c.reference));
  CHECK_FALSE(c.orb->string_to_object(c.orb->object_to_string(timed)).round_trip_timeout());

  SECTION("a stub made from the copy times out, one made from the original completes") {
    check_timeout_maybe(blocked_call_fails(server, timed));
    blocked_call_completes(server, c.reference);
    // The timed-out call left the connection usable.
    CHECK_NOTHROW(ttcp_sequence(timed).sendOctetSeq_2way({}));
  }
  SECTION("_narrow and the stub keep the copy's policy") {
    ttcp_sequence narrowed = ttcp_sequence::_narrow(timed);
    REQUIRE(narrowed);
    CHECK(narrowed._reference().round_trip_timeout() == std::optional<std::chrono::nanoseconds>(short_timeout));
    check_timeout_maybe(system_exception_of([&] { narrowed.sendNoParams_2way(); }));
    server.servant->release();
  }
  SECTION("bad values raise BAD_PARAM") {
    CHECK(system_exception_of([&] { (void)c.reference.with_round_trip_timeout(0ns); }).kind() ==
          SystemExceptionKind::BAD_PARAM);
    CHECK(system_exception_of([&] { (void)c.reference.with_round_trip_timeout(-1ms); }).kind() ==
          SystemExceptionKind::BAD_PARAM);
    CHECK(system_exception_of([&] {
            (void)c.reference.with_round_trip_timeout(max_round_trip_timeout + 1ns);
          }).kind() == SystemExceptionKind::BAD_PARAM);
    CHECK(system_exception_of([&] { thread_round_trip_timeout guard(0ns); }).kind() == SystemExceptionKind::BAD_PARAM);
    CHECK_FALSE(thread_round_trip_timeout::current());
  }
}

TEST_CASE("the thread's round-trip timeout applies in its scope and its thread only", "[core][timeout]") {
  gated_server server;
  client c(server);
  CHECK_FALSE(thread_round_trip_timeout::current());
  {
    thread_round_trip_timeout guard(short_timeout);
    CHECK(thread_round_trip_timeout::current() == std::optional<std::chrono::nanoseconds>(short_timeout));
    check_timeout_maybe(blocked_call_fails(server, c.reference));
    // Another thread, meanwhile, has no timeout.
    std::optional<std::chrono::nanoseconds> there = short_timeout;
    std::thread([&] { there = thread_round_trip_timeout::current(); }).join();
    CHECK_FALSE(there);
    auto other = std::async(std::launch::async, [&] { blocked_call_completes(server, c.reference); });
    REQUIRE(other.wait_for(patience) == std::future_status::ready);
    other.get();
    {
      thread_round_trip_timeout inner(long_timeout);
      CHECK(thread_round_trip_timeout::current() == std::optional<std::chrono::nanoseconds>(long_timeout));
    }
    CHECK(thread_round_trip_timeout::current() == std::optional<std::chrono::nanoseconds>(short_timeout));
  }
  CHECK_FALSE(thread_round_trip_timeout::current());
  blocked_call_completes(server, c.reference);
}

TEST_CASE("a reference's round-trip timeout overrides the thread's", "[core][timeout]") {
  gated_server server;
  client c(server);
  SECTION("a long one on the reference, a short one on the thread: the call completes") {
    thread_round_trip_timeout guard(short_timeout);
    blocked_call_completes(server, c.reference.with_round_trip_timeout(long_timeout));
  }
  SECTION("a short one on the reference, a long one on the thread: TIMEOUT") {
    thread_round_trip_timeout guard(long_timeout);
    check_timeout_maybe(blocked_call_fails(server, c.reference.with_round_trip_timeout(short_timeout)));
  }
}

TEST_CASE("-ORBCallTimeout applies when neither the reference nor the thread sets one", "[core][timeout]") {
  gated_server server;
  client c(server, {"-ORBCallTimeout", "50"});
  SECTION("neither: the ORB's") { check_timeout_maybe(blocked_call_fails(server, c.reference)); }
  SECTION("the thread's overrides it") {
    thread_round_trip_timeout guard(long_timeout);
    blocked_call_completes(server, c.reference);
  }
  SECTION("the reference's overrides it") {
    blocked_call_completes(server, c.reference.with_round_trip_timeout(long_timeout));
  }
}

TEST_CASE("the DII, is_a, non_existent and locate keep a reference's round-trip timeout", "[core][timeout]") {
  gated_server server;
  client c(server);
  const object_ref timed = c.reference.with_round_trip_timeout(short_timeout);

  SECTION("a DII request made from the copy") {
    switchyard::request call(timed, "sendNoParams_2way");
    check_timeout_maybe(system_exception_of([&] { call.invoke(); }));
    server.servant->release();
  }
  SECTION("a deferred DII request made from the copy") {
    switchyard::request call(timed, "sendNoParams_2way");
    call.send_deferred();
    REQUIRE(server.servant->wait_until_blocked());
    check_timeout_maybe(system_exception_of([&] { call.get_response(); }));
    server.servant->release();
  }
  SECTION("a DII request made from the original completes") {
    auto done = std::async(std::launch::async, [&] {
      switchyard::request call(c.reference, "sendNoParams_2way");
      call.invoke();
    });
    REQUIRE(server.servant->wait_until_blocked());
    std::this_thread::sleep_for(2 * short_timeout);
    server.servant->release();
    REQUIRE(done.wait_for(patience) == std::future_status::ready);
    CHECK_NOTHROW(done.get());
  }
  // The object-level operations: a blocked call holds up the connection (one request at a time
  // on it), so their replies do not come before the copy's timeout passes.
  SECTION("is_a, non_existent and locate") {
    auto blocker = std::async(std::launch::async, [&] { ttcp_sequence(c.reference).sendNoParams_2way(); });
    REQUIRE(server.servant->wait_until_blocked());
    check_timeout_maybe(system_exception_of([&] { (void)timed.is_a("IDL:elsewhere/Other:1.0"); }));
    check_timeout_maybe(system_exception_of([&] { (void)timed.non_existent(); }));
    check_timeout_maybe(system_exception_of([&] { (void)timed.locate(); }));
    {
      thread_round_trip_timeout guard(short_timeout);
      check_timeout_maybe(system_exception_of([&] { (void)c.reference.locate(); }));
    }
    server.servant->release();
    REQUIRE(blocker.wait_for(patience) == std::future_status::ready);
    CHECK_NOTHROW(blocker.get());
    // Without the policy they complete (once the connection is free).
    CHECK(c.reference.locate());
    CHECK(timed.locate());
    CHECK_FALSE(timed.non_existent());
  }
}

TEST_CASE("a collocated call is not cut off by a round-trip timeout", "[core][timeout]") {
  // Listening on loopback, never run(): a collocated call needs no server thread.
  auto o = orb_init({"-ORBListenEndpoints", "iiop://127.0.0.1:0"});
  auto servant = std::make_shared<gated_ttcp>();
  const object_ref local = o->root_adapter().activate(servant);
  ttcp_sequence::StructSeq sleep_50ms(1);
  sleep_50ms[0].l = 50;
  CHECK_NOTHROW(ttcp_sequence(local.with_round_trip_timeout(1ms)).sendStructSeq_2way(sleep_50ms));
  {
    thread_round_trip_timeout guard(1ms);
    CHECK_NOTHROW(ttcp_sequence(local).sendStructSeq_2way(sleep_50ms));
  }
  o->destroy();
}
