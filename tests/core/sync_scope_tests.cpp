// One-way calls' synchronization scope (docs/orb.md, "One-way calls"): set on a copy of a
// reference (object_ref::with_sync_scope) or ORB-wide (-ORBSyncScope). With with_transport a
// one-way call returns once it is sent and learns nothing; with_server once the server has found
// the target, before the upcall; with_target once the upcall is done, raising what it raised.
// Over syidl's stubs of ttcp_sequence.idl, a loopback server whose one-way servant blocks until
// the test lets it go (at most 10 s), or refuses: the tests look at what is raised and at what
// the servant is doing when a call returns, never at how long anything took.
#include <catch2/catch.hpp>

#include <chrono>
#include <condition_variable>
#include <future>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "switchyard/exception.h"
#include "switchyard/orb.h"
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

// sendNoParams_1way: raises NO_PERMISSION when refusing; else, when gated, blocks until release()
// (or `patience`); then counts itself done.
class gated_oneway final : public ttcp_sequence_skeleton {
 public:
  void sendNoParams_1way() override {
    std::unique_lock lock(mutex_);
    if (refusing_) throw SystemException(SystemExceptionKind::NO_PERMISSION, 0, CompletionStatus::no, "refused");
    if (gated_) {
      const int generation = releases_;
      ++blocked_;
      changed_.notify_all();
      changed_.wait_for(lock, patience, [&] { return releases_ != generation; });
      --blocked_;
    }
    ++done_;
    changed_.notify_all();
  }
  void sendNoParams_2way() override {}
  void sendOctetSeq_2way(std::span<const std::uint8_t>) override {}
  void sendStructSeq_2way(const ttcp_sequence::StructSeq&) override {}

  void gate() {
    std::lock_guard lock(mutex_);
    gated_ = true;
  }
  void refuse() {
    std::lock_guard lock(mutex_);
    refusing_ = true;
  }
  void release() {
    std::lock_guard lock(mutex_);
    gated_ = false;
    ++releases_;
    changed_.notify_all();
  }
  int blocked() {
    std::lock_guard lock(mutex_);
    return blocked_;
  }
  int done() {
    std::lock_guard lock(mutex_);
    return done_;
  }
  bool wait_until_blocked() {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, patience, [&] { return blocked_ > 0; });
  }
  bool wait_until_done(int count) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, patience, [&] { return done_ >= count; });
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  bool gated_ = false;
  bool refusing_ = false;
  int releases_ = 0;
  int blocked_ = 0;
  int done_ = 0;
};

struct oneway_server {
  explicit oneway_server(std::vector<std::string> args = {"-ORBConcurrency", "thread-per-connection"})
      : server(std::move(args)) {
    reference = server.orb->root_adapter().activate(servant);
    ior = server.orb->object_to_string(reference);
    server.start();
  }
  ~oneway_server() {
    servant->release();
    server.stop();
  }
  std::shared_ptr<gated_oneway> servant = std::make_shared<gated_oneway>();
  serving_orb server;
  object_ref reference;  // the server's own (collocated) reference
  std::string ior;
};

struct client {
  explicit client(const oneway_server& server, std::vector<std::string> args = {})
      : orb(orb_init(std::move(args))), reference(orb->string_to_object(server.ior)) {}
  ~client() { orb->destroy(); }
  std::shared_ptr<switchyard::orb> orb;
  object_ref reference;
};

}  // namespace

TEST_CASE("with_sync_scope: a copy carries the scope, the original none, and timeouts stay apart", "[core][oneway]") {
  oneway_server server;
  client c(server);
  const object_ref target = c.reference.with_sync_scope(sync_scope::with_target);
  CHECK(target.own_sync_scope() == std::optional<sync_scope>(sync_scope::with_target));
  CHECK_FALSE(c.reference.own_sync_scope());
  CHECK(target.state() == c.reference.state());
  // Not part of the IOR.
  CHECK(c.orb->object_to_string(target) == c.orb->object_to_string(c.reference));
  // The two policies of a copy are set and cleared apart.
  const object_ref both = target.with_round_trip_timeout(5s);
  CHECK(both.own_sync_scope() == std::optional<sync_scope>(sync_scope::with_target));
  CHECK(both.round_trip_timeout() == std::optional<std::chrono::nanoseconds>(5s));
  CHECK(both.without_round_trip_timeout().own_sync_scope() == std::optional<sync_scope>(sync_scope::with_target));
  CHECK_FALSE(both.without_round_trip_timeout().round_trip_timeout());
  CHECK(both.with_sync_scope(sync_scope::none).round_trip_timeout() == std::optional<std::chrono::nanoseconds>(5s));
  CHECK(both.with_sync_scope(sync_scope::none).own_sync_scope() == std::optional<sync_scope>(sync_scope::none));
  // _narrow keeps it.
  CHECK(ttcp_sequence::_narrow(target)._reference().own_sync_scope() ==
        std::optional<sync_scope>(sync_scope::with_target));
}

TEST_CASE("with_target: a one-way call returns after its upcall, raising what the servant raised", "[core][oneway]") {
  const std::string version = GENERATE(std::string("1.0"), std::string("1.1"), std::string("1.2"));
  CAPTURE(version);
  oneway_server server;
  client c(server, {"-ORBGIOPVersion", version});
  ttcp_sequence target(c.reference.with_sync_scope(sync_scope::with_target));
  target.sendNoParams_1way();
  CHECK(server.servant->done() == 1);
  target.sendNoParams_1way();
  CHECK(server.servant->done() == 2);

  server.servant->refuse();
  const auto e = system_exception_of([&] { target.sendNoParams_1way(); });
  CHECK(e.kind() == SystemExceptionKind::NO_PERMISSION);
  // Unsynchronized, the refusal is the servant's alone.
  CHECK_NOTHROW(ttcp_sequence(c.reference).sendNoParams_1way());
  CHECK_NOTHROW(ttcp_sequence(c.reference.with_sync_scope(sync_scope::none)).sendNoParams_1way());
  // The connection is still in order.
  CHECK_NOTHROW(ttcp_sequence(c.reference).sendNoParams_2way());
}

TEST_CASE("with_server: a one-way call returns once the server has found the target, before the upcall ends",
          "[core][oneway]") {
  const std::string model = GENERATE(std::string("thread-per-connection"), std::string("reactive"), std::string("pool"),
                                     std::string("adaptive"));
  CAPTURE(model);
  oneway_server server(model == "pool" ? std::vector<std::string>{"-ORBThreads", "2"}
                                       : std::vector<std::string>{"-ORBConcurrency", model});
  client c(server);
  ttcp_sequence synced(c.reference.with_sync_scope(sync_scope::with_server));
  server.servant->gate();
  synced.sendNoParams_1way();
  // Had the call waited for the upcall, the servant would be done by now (after `patience`).
  CHECK(server.servant->wait_until_blocked());
  CHECK(server.servant->done() == 0);
  server.servant->release();
  CHECK(server.servant->wait_until_done(1));

  // What the servant raises after the early reply is no one's.
  server.servant->refuse();
  CHECK_NOTHROW(synced.sendNoParams_1way());
  CHECK_NOTHROW(ttcp_sequence(c.reference).sendNoParams_2way());
}

TEST_CASE("with_server and with_target: a missing object raises OBJECT_NOT_EXIST, unsynchronized nothing",
          "[core][oneway]") {
  oneway_server server;
  client c(server);
  REQUIRE(server.server.orb->root_adapter().deactivate(server.reference));
  for (const auto scope : {sync_scope::with_server, sync_scope::with_target}) {
    CAPTURE(static_cast<int>(scope));
    const auto e = system_exception_of([&] { ttcp_sequence(c.reference.with_sync_scope(scope)).sendNoParams_1way(); });
    CHECK(e.kind() == SystemExceptionKind::OBJECT_NOT_EXIST);
  }
  CHECK_NOTHROW(ttcp_sequence(c.reference.with_sync_scope(sync_scope::with_transport)).sendNoParams_1way());
}

TEST_CASE("GIOP 1.0 and 1.1 have no with_server: it is sent as with_target", "[core][oneway]") {
  const std::string version = GENERATE(std::string("1.0"), std::string("1.1"));
  CAPTURE(version);
  oneway_server server;
  client c(server, {"-ORBGIOPVersion", version});
  server.servant->gate();
  auto releaser = std::async(std::launch::async, [&] {
    const bool blocked = server.servant->wait_until_blocked();
    server.servant->release();
    return blocked;
  });
  ttcp_sequence(c.reference.with_sync_scope(sync_scope::with_server)).sendNoParams_1way();
  CHECK(server.servant->done() == 1);
  REQUIRE(releaser.wait_for(patience) == std::future_status::ready);
  CHECK(releaser.get());
}

TEST_CASE("-ORBSyncScope sets the ORB's default; a reference's own scope overrides it", "[core][oneway]") {
  oneway_server server;
  client c(server, {"-ORBSyncScope", "target"});
  server.servant->refuse();
  CHECK(system_exception_of([&] { ttcp_sequence(c.reference).sendNoParams_1way(); }).kind() ==
        SystemExceptionKind::NO_PERMISSION);
  CHECK_NOTHROW(ttcp_sequence(c.reference.with_sync_scope(sync_scope::with_transport)).sendNoParams_1way());

  SECTION("the DII's send_oneway follows the same scope") {
    request call(c.reference, "sendNoParams_1way");
    CHECK(system_exception_of([&] { call.send_oneway(); }).kind() == SystemExceptionKind::NO_PERMISSION);
    request unsynced(c.reference.with_sync_scope(sync_scope::with_transport), "sendNoParams_1way");
    CHECK_NOTHROW(unsynced.send_oneway());
  }
  SECTION("an unknown scope is refused") {
    const auto e = system_exception_of([] { orb_init({"-ORBSyncScope", "later"}); });
    CHECK(e.kind() == SystemExceptionKind::BAD_PARAM);
    CHECK(std::string(e.what()).find("-ORBSyncScope") != std::string::npos);
  }
}

TEST_CASE("collocated one-way calls through the adapter: with_server and with_target raise what the servant raised",
          "[core][oneway]") {
  oneway_server server({"-ORBCollocation", "thru-adapter"});
  server.servant->refuse();
  for (const auto scope : {sync_scope::with_server, sync_scope::with_target}) {
    CAPTURE(static_cast<int>(scope));
    const auto e =
        system_exception_of([&] { ttcp_sequence(server.reference.with_sync_scope(scope)).sendNoParams_1way(); });
    CHECK(e.kind() == SystemExceptionKind::NO_PERMISSION);
  }
  CHECK_NOTHROW(ttcp_sequence(server.reference).sendNoParams_1way());
}
