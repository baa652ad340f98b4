// Servants that call out from inside their upcalls, in every concurrency model, with more
// connections open than adaptive's dedicated threads serve (-ORBDedicatedThreads 2, more than
// twice that many peers): a call back into the same server, a callback into a calling client
// that serves too (from its own event loop's thread), and a ring of three servers. Each must
// complete (docs/orb.md, "Concurrency"). The ORBs live in this process; every call is bounded by
// -ORBCallTimeout, so a deadlock fails the test instead of hanging it. No timing is asserted.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "nesting.h"
#include "switchyard/exception.h"
#include "switchyard/orb.h"
#include "tests/core/orb_fixture.h"
#include "tests/robustness/robustness_support.h"

using namespace std::chrono_literals;

namespace {

const std::vector<std::string> every_model{"adaptive", "reactive", "thread-per-connection", "thread-pool"};

// nap sleeps, ping answers, relay and hop call on from inside the upcall.
struct node final : Nesting::Node_skeleton {
  void nap(std::int32_t ms) override { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }
  std::int32_t ping(std::int32_t n) override { return n; }
  std::int32_t relay(const Nesting::Node& target, std::int32_t n) override {
    Nesting::Node next = target;
    return next.ping(n);
  }
  std::int32_t hop(const std::vector<Nesting::Node>& path, std::int32_t n) override {
    if (path.empty()) return n + 1;
    Nesting::Node next = path.front();
    return next.hop(std::vector<Nesting::Node>(path.begin() + 1, path.end()), n) + 1;
  }
};

// Few dedicated threads (the adaptive server is crowded past 4 connections). No call timeout
// in the servers: their nested calls from several threads share one connection, and a send that
// waits for its lock with a deadline (timed_mutex::try_lock_until, pthread_mutex_clocklock) is
// invisible to ThreadSanitizer. The callers have one, each with a connection of its own.
std::vector<std::string> server_options(const std::string& model) {
  auto options = robustness::model_options(model);
  for (const char* option : {"-ORBDedicatedThreads", "2", "-ORBEventLoops", "2"}) options.emplace_back(option);
  return options;
}

// A server ORB with one node, run() in a thread of its own.
struct node_server {
  explicit node_server(const std::string& model) : serving(server_options(model)) {
    reference = Nesting::Node(serving.orb->root_adapter().activate(std::make_shared<node>()));
    ior = serving.orb->object_to_string(reference._reference());
    serving.start();
  }
  test::serving_orb serving;
  Nesting::Node reference;
  std::string ior;
};

// A client ORB of its own: one connection to each server it calls.
struct client {
  client() : orb(switchyard::orb_init(std::vector<std::string>{"-ORBCallTimeout", "20000"})) {}
  ~client() { orb->destroy(); }
  Nesting::Node node(const std::string& ior) { return Nesting::Node(orb->string_to_object(ior)); }
  std::shared_ptr<switchyard::orb> orb;
};

// Peers that each hold a connection open to every server, having pinged once (more than twice
// the dedicated threads: adaptive's dedicated connections move to the loops).
struct crowd {
  crowd(const std::vector<const node_server*>& servers, int peers) {
    for (int i = 0; i < peers; ++i) {
      auto& peer = members.emplace_back(std::make_unique<client>());
      for (const auto* server : servers) REQUIRE(peer->node(server->ior).ping(i) == i);
    }
  }
  std::vector<std::unique_ptr<client>> members;
};

constexpr int crowd_size = 6;

// `rounds` calls of `call(its client, n)` from each of `threads` threads, each with a client of
// its own; how many answered right. Catch's macros are for this thread only: a failure's message
// comes back in `error`.
template <class Call>
int call_from_threads(int threads, int rounds, Call call, std::string& error) {
  std::atomic<int> right{0};
  std::mutex error_mutex;
  std::vector<std::thread> running;
  for (int t = 0; t < threads; ++t) {
    running.emplace_back([&, t] {
      client mine;
      for (int i = 0; i < rounds; ++i) {
        try {
          if (call(mine, t * 1000 + i)) ++right;
        } catch (const switchyard::SystemException& e) {
          std::lock_guard lock(error_mutex);
          error = "thread " + std::to_string(t) + ": " + e.what();
        }
      }
    });
  }
  for (auto& thread : running) thread.join();
  return right.load();
}

}  // namespace

TEST_CASE("a servant calls back into its own server, in every model", "[nesting]") {
  for (const auto& model : every_model) {
    INFO("model " << model);
    node_server server(model);
    client caller;
    auto target = caller.node(server.ior);
    // While few connections are open (adaptive: each has a dedicated thread), then with many.
    CHECK(target.hop(std::vector<Nesting::Node>(3, server.reference), 20) == 24);
    crowd others({&server}, crowd_size);
    // Through the server's own reference (the argument binds to the server's ORB): one level,
    // then three levels deep, from several callers at once.
    CHECK(target.relay(server.reference, 7) == 7);
    const std::vector<Nesting::Node> self_path(3, server.reference);
    CHECK(target.hop(self_path, 10) == 14);
    std::string error;
    const int right = call_from_threads(
        3, 5,
        [&](client& mine, int n) {
          return mine.node(server.ior).hop(std::vector<Nesting::Node>(2, server.reference), n) == n + 3;
        },
        error);
    INFO(error);
    CHECK(right == 15);
    // Still serving everyone afterwards.
    for (auto& peer : others.members) CHECK(peer->node(server.ior).ping(1) == 1);
  }
}

TEST_CASE("a server calls back into a client that serves too, in every model", "[nesting]") {
  for (const auto& model : every_model) {
    INFO("model " << model);
    node_server server(model);
    node_server calling_client(model);  // a client with objects of its own
    crowd others({&server, &calling_client}, crowd_size);
    client driver;
    // The client's servant (on its own loop's thread, in the loop models) calls the server,
    // whose servant calls back into the client's object.
    auto entry = driver.node(calling_client.ior);
    CHECK(entry.hop({server.reference, calling_client.reference}, 0) == 3);
    // The plain form: the client passes a reference to its own object.
    client plain;
    CHECK(plain.node(server.ior).relay(calling_client.reference, 5) == 5);
    std::string error;
    const int right = call_from_threads(
        3, 5,
        [&](client& mine, int n) {
          return mine.node(calling_client.ior).hop({server.reference, calling_client.reference}, n) == n + 3;
        },
        error);
    INFO(error);
    CHECK(right == 15);
  }
}

TEST_CASE("a ring of three servers calls back into the first, in every model", "[nesting]") {
  for (const auto& model : every_model) {
    INFO("model " << model);
    node_server a(model), b(model), c(model);
    crowd others({&a, &b, &c}, crowd_size);
    client driver;
    auto entry = driver.node(a.ior);
    // A calls B calls C calls A.
    CHECK(entry.hop({b.reference, c.reference, a.reference}, 0) == 4);
    // Twice round, and from several drivers at once.
    CHECK(entry.hop({b.reference, c.reference, a.reference, b.reference, c.reference, a.reference}, 0) == 7);
    std::string error;
    const int right = call_from_threads(
        3, 4,
        [&](client& mine, int n) {
          return mine.node(a.ior).hop({b.reference, c.reference, a.reference}, n) == n + 4;
        },
        error);
    INFO(error);
    CHECK(right == 12);
  }
}

TEST_CASE("a servant that sleeps holds up its own caller only, in every model but reactive", "[nesting][blocking]") {
  // Twelve peers ping every 10 ms while one call sleeps 2.5 s in its servant. Reactive serves
  // with one thread by contract: there the pings wait for the nap, and must all be answered
  // after it. Every other model answers them meanwhile (the adaptive model by handing the
  // sleeping loop to a spare thread); the bound asserted is coarse (a second).
  constexpr int peers = 12;
  constexpr auto nap = 2500ms;
  for (const auto& model : every_model) {
    INFO("model " << model);
    node_server server(model);
    crowd others({&server}, peers);
    std::atomic<bool> napping{true};
    std::thread napper([&] {
      client sleeper;
      sleeper.node(server.ior).nap(static_cast<std::int32_t>(nap.count()));
      napping = false;
    });
    std::this_thread::sleep_for(50ms);  // the nap has begun (a coarse wait: no timing asserted)
    std::vector<std::chrono::steady_clock::duration> worst(peers);
    std::vector<int> answered(peers, 0);
    std::vector<std::thread> pingers;
    for (int p = 0; p < peers; ++p) {
      pingers.emplace_back([&, p] {
        auto target = others.members[static_cast<std::size_t>(p)]->node(server.ior);
        for (int i = 0; i < 400 && napping.load(); ++i) {  // bounded: 400 x 10 ms, or the nap's end
          const auto begun = std::chrono::steady_clock::now();
          try {
            if (target.ping(i) == i) ++answered[static_cast<std::size_t>(p)];
          } catch (const switchyard::SystemException&) {
          }
          worst[static_cast<std::size_t>(p)] =
              std::max(worst[static_cast<std::size_t>(p)], std::chrono::steady_clock::now() - begun);
          std::this_thread::sleep_for(10ms);
        }
      });
    }
    for (auto& pinger : pingers) pinger.join();
    napper.join();
    for (int p = 0; p < peers; ++p) {
      INFO("peer " << p);
      CHECK(answered[static_cast<std::size_t>(p)] >= 1);
      if (model != "reactive") CHECK(worst[static_cast<std::size_t>(p)] < 1s);
    }
    // Served as before afterwards.
    for (auto& peer : others.members) CHECK(peer->node(server.ior).ping(3) == 3);
  }
}

namespace {

// What this process writes to stderr while it lives (a temporary file in its place).
class captured_stderr {
 public:
  captured_stderr() : file_(std::tmpfile()), saved_(::dup(2)) {
    std::fflush(stderr);
    ::dup2(::fileno(file_), 2);
  }
  ~captured_stderr() {
    restore();
    std::fclose(file_);
  }
  std::string text() {
    restore();
    std::string all;
    std::rewind(file_);
    char buffer[4096];
    for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, file_)) > 0;) all.append(buffer, n);
    return all;
  }

 private:
  void restore() {
    if (saved_ < 0) return;
    std::fflush(stderr);
    ::dup2(saved_, 2);
    ::close(saved_);
    saved_ = -1;
  }
  std::FILE* file_;
  int saved_;
};

}  // namespace

TEST_CASE("shutdown completes within its bound while a servant is stuck, in every model", "[nesting][shutdown]") {
  // A servant sleeps 8 s; the server is shut down 1 s into it with -ORBShutdownTimeout 1000.
  // shutdown(true) must return long before the nap would end (the bound asserted is coarse:
  // 5 s), name what it cut off on stderr, end the napping caller's connection, and leave the
  // servant's thread running (ORB::run's thread too, where it runs the servant: it is not
  // joined). The ORB is then kept for the life of the process, on purpose, and the servant's
  // thread waits for ever once the nap ends.
  for (const auto& model : every_model) {
    INFO("model " << model);
    auto options = server_options(model);
    for (const char* option : {"-ORBShutdownTimeout", "1000", "-ORBListenEndpoints", "iiop://127.0.0.1:0"})
      options.emplace_back(option);
    auto orb = switchyard::orb_init(options);
    auto reference = Nesting::Node(orb->root_adapter().activate(std::make_shared<node>()));
    const auto ior = orb->object_to_string(reference._reference());
    // Shared with the runner, which may outlive this scope (detached).
    auto run_returned = std::make_shared<std::atomic<bool>>(false);
    std::thread runner([orb, run_returned] {
      orb->run();
      *run_returned = true;
    });
    std::vector<std::unique_ptr<client>> peers;
    for (int i = 0; i < crowd_size; ++i) {
      peers.push_back(std::make_unique<client>());
      REQUIRE(peers.back()->node(ior).ping(i) == i);
    }
    std::atomic<bool> nap_ended{false};
    std::thread napper([&] {
      client sleeper;
      try {
        sleeper.node(ior).nap(8000);
      } catch (const switchyard::SystemException&) {
        // The server stopped under the call: what is expected.
      }
      nap_ended = true;
    });
    std::this_thread::sleep_for(1s);
    std::string log;
    const auto begun = std::chrono::steady_clock::now();
    {
      captured_stderr captured;
      orb->shutdown(true);
      log = captured.text();
    }
    const auto took = std::chrono::steady_clock::now() - begun;
    CHECK(took < 5s);
    CHECK(log.find("still in") != std::string::npos);  // what was cut off
    CHECK(log.find("left running") != std::string::npos);
    // The caller learns within seconds, not when the nap would have ended.
    for (int i = 0; i < 300 && !nap_ended.load(); ++i) std::this_thread::sleep_for(10ms);
    CHECK(nap_ended.load());
    napper.join();
    // Nobody is served any more.
    CHECK_THROWS_AS(peers.front()->node(ior).ping(1), switchyard::SystemException);
    // ORB::run returns unless its own thread runs the servant (reactive, and adaptive when the
    // nap came on loop 0's connection): that thread is not waited for.
    for (int i = 0; i < 300 && !run_returned->load(); ++i) std::this_thread::sleep_for(10ms);
    if (model == "thread-per-connection" || model == "thread-pool") CHECK(run_returned->load());
    if (run_returned->load()) runner.join();
    else runner.detach();
    orb->destroy();
  }
}
