// Portable interceptors (switchyard/interceptors.h, docs/orb.md "Portable interceptors"): every
// interception point's order on the client and the server, the flow rules when an interceptor
// raises, service contexts both ways, and calls without interceptors. Real ORBs on loopback (and
// collocated calls), over the hand-written probe and ttcp interfaces.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "switchyard/exception.h"
#include "switchyard/interceptors.h"
#include "switchyard/orb.h"
#include "tests/core/hand_interfaces.h"
#include "tests/core/orb_fixture.h"

using namespace switchyard;
using test::serving_orb;
using test::system_exception_of;

namespace {

constexpr auto patience = std::chrono::seconds(10);

// What the interceptors saw, in order, from every thread.
class event_log {
 public:
  void add(std::string event) {
    std::lock_guard lock(mutex_);
    events_.push_back(std::move(event));
    changed_.notify_all();
  }
  std::vector<std::string> events() {
    std::lock_guard lock(mutex_);
    return events_;
  }
  void clear() {
    std::lock_guard lock(mutex_);
    events_.clear();
  }
  // Waits (at most `patience`) until there are at least `count` events.
  std::vector<std::string> wait_for(std::size_t count) {
    std::unique_lock lock(mutex_);
    changed_.wait_for(lock, patience, [&] { return events_.size() >= count; });
    return events_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<std::string> events_;
};

using events = std::vector<std::string>;

constexpr std::uint32_t request_context_id = 0x53590100u;
constexpr std::uint32_t reply_context_id = 0x53590101u;
constexpr std::uint32_t late_reply_context_id = 0x53590102u;
constexpr std::uint32_t code_sets_context_id = 1;  // IOP::CodeSets

std::span<const std::byte> bytes_of(const std::string& text) {
  return {reinterpret_cast<const std::byte*>(text.data()), text.size()};
}
std::string text_of(std::optional<std::span<const std::byte>> data) {
  if (!data) return "<none>";
  return std::string(reinterpret_cast<const char*>(data->data()), data->size());
}

// Logs each point as "<name>.<point>"; raises `raise` at the point named `raise_at`.
class logging_client final : public client_request_interceptor {
 public:
  logging_client(std::string name, event_log& log) : name_(std::move(name)), log_(log) {}
  std::string_view name() const noexcept override { return name_; }

  void send_request(client_request_info& info) override {
    log_.add(name_ + ".send_request");
    if (add_context) info.add_request_service_context(request_context_id, bytes_of("from " + name_), false);
    maybe_raise("send_request");
  }
  void receive_reply(client_request_info& info) override {
    log_.add(name_ + ".receive_reply");
    reply_context = text_of(info.get_reply_service_context(reply_context_id));
    late_reply_context = text_of(info.get_reply_service_context(late_reply_context_id));
    maybe_raise("receive_reply");
  }
  void receive_exception(client_request_info& info) override {
    log_.add(name_ + ".receive_exception " + std::string(info.received_exception_id()));
    maybe_raise("receive_exception");
  }
  void receive_other(client_request_info& info) override {
    log_.add(name_ + ".receive_other " + std::to_string(static_cast<int>(info.reply_status())));
  }

  bool add_context = false;
  std::string raise_at;
  SystemException raise{SystemExceptionKind::NO_PERMISSION, minor::omg_minor(0), CompletionStatus::no, "refused"};
  std::string reply_context;
  std::string late_reply_context;

 private:
  void maybe_raise(std::string_view point) {
    if (raise_at == point) throw raise;
  }
  std::string name_;
  event_log& log_;
};

class logging_server final : public server_request_interceptor {
 public:
  logging_server(std::string name, event_log& log) : name_(std::move(name)), log_(log) {}
  std::string_view name() const noexcept override { return name_; }

  void receive_request_service_contexts(server_request_info& info) override {
    log_.add(name_ + ".receive_request_service_contexts");
    request_context = text_of(info.get_request_service_context(request_context_id));
    saw_code_sets = info.get_request_service_context(code_sets_context_id).has_value();
    if (add_context && !late_context_only)
      info.add_reply_service_context(reply_context_id, bytes_of("reply from " + name_), false);
    maybe_raise("receive_request_service_contexts");
  }
  void receive_request(server_request_info& info) override {
    log_.add(name_ + ".receive_request " + std::string(info.operation()));
    maybe_raise("receive_request");
  }
  void send_reply(server_request_info& info) override {
    log_.add(name_ + ".send_reply");
    if (add_context) info.add_reply_service_context(late_reply_context_id, bytes_of("late from " + name_), false);
    maybe_raise("send_reply");
  }
  void send_exception(server_request_info& info) override {
    log_.add(name_ + ".send_exception " + std::string(info.sending_exception_id()));
  }
  void send_other(server_request_info&) override { log_.add(name_ + ".send_other"); }

  // Set by the test between calls, read by the server's threads: atomic (TSan does not see the
  // order the replies give).
  std::atomic<bool> add_context = false;
  std::string raise_at;
  std::string request_context;
  bool saw_code_sets = false;                   // the last request carried the CodeSets context (IOP id 1)
  std::atomic<bool> late_context_only = false;  // with add_context: only send_reply's

 private:
  void maybe_raise(std::string_view point) {
    if (raise_at == point)
      throw SystemException(SystemExceptionKind::NO_PERMISSION, minor::omg_minor(0), CompletionStatus::no, "refused");
  }
  std::string name_;
  event_log& log_;
};

// Adds the given interceptors to the next ORBs made.
class adding_initializer final : public orb_initializer {
 public:
  std::vector<std::shared_ptr<client_request_interceptor>> client;
  std::vector<std::shared_ptr<server_request_interceptor>> server;
  int post_inits = 0;
  void pre_init(orb_init_info& info) override {
    for (auto& c : client) info.add_client_request_interceptor(c);
    for (auto& s : server) info.add_server_request_interceptor(s);
  }
  void post_init(orb_init_info&) override { ++post_inits; }
};

// Makes an ORB with exactly these interceptors (and leaves no initializer registered).
template <class Make>
auto with_interceptors(std::vector<std::shared_ptr<client_request_interceptor>> client,
                       std::vector<std::shared_ptr<server_request_interceptor>> server, Make&& make) {
  clear_orb_initializers();
  auto initializer = std::make_shared<adding_initializer>();
  initializer->client = std::move(client);
  initializer->server = std::move(server);
  register_orb_initializer(initializer);
  struct clear_after {
    ~clear_after() { clear_orb_initializers(); }
  } clear;
  return make();
}

// A server with two server interceptors and a client ORB with two client interceptors.
struct intercepted_pair {
  event_log log;
  std::shared_ptr<logging_client> c1 = std::make_shared<logging_client>("c1", log);
  std::shared_ptr<logging_client> c2 = std::make_shared<logging_client>("c2", log);
  std::shared_ptr<logging_server> s1 = std::make_shared<logging_server>("s1", log);
  std::shared_ptr<logging_server> s2 = std::make_shared<logging_server>("s2", log);
  std::unique_ptr<serving_orb> server;
  std::shared_ptr<orb> client;
  std::shared_ptr<test::test_probe> probe = std::make_shared<test::test_probe>();
  std::shared_ptr<test::recording_ttcp> ttcp = std::make_shared<test::recording_ttcp>();
  std::string probe_ior;
  std::string ttcp_ior;

  explicit intercepted_pair(std::vector<std::string> args = {}) {
    server = with_interceptors({}, {s1, s2}, [&] { return std::make_unique<serving_orb>(args); });
    probe_ior = server->orb->object_to_string(server->orb->root_adapter().activate(probe));
    ttcp_ior = server->orb->object_to_string(server->orb->root_adapter().activate(ttcp));
    server->start();
    client = with_interceptors({c1, c2}, {}, [&] { return orb_init(args); });
  }
  ~intercepted_pair() {
    if (client) client->destroy();
  }
  hand::probe_stub probe_stub() { return hand::probe_stub(client->string_to_object(probe_ior)); }
  hand::ttcp_sequence_stub ttcp_stub() { return hand::ttcp_sequence_stub(client->string_to_object(ttcp_ior)); }
};

const events server_start = {"s1.receive_request_service_contexts", "s2.receive_request_service_contexts"};

events concat(std::initializer_list<events> parts) {
  events all;
  for (const auto& part : parts) all.insert(all.end(), part.begin(), part.end());
  return all;
}

}  // namespace

TEST_CASE("interceptors: every point in order for a normal reply", "[core][interceptors]") {
  auto version = GENERATE("1.0", "1.2");
  intercepted_pair pair({"-ORBGIOPVersion", version});
  auto stub = pair.probe_stub();
  CHECK(stub.echo_long(7) == 7);
  CHECK(pair.log.events() == concat({{"c1.send_request", "c2.send_request"},
                                     server_start,
                                     {"s1.receive_request echo_long", "s2.receive_request echo_long", "s2.send_reply",
                                      "s1.send_reply", "c2.receive_reply", "c1.receive_reply"}}));
}

TEST_CASE("interceptors: a user exception", "[core][interceptors]") {
  intercepted_pair pair;
  auto stub = pair.probe_stub();
  CHECK_THROWS_AS(stub.raise_user(3), hand::refused);
  const std::string id = "IDL:test/refused:1.0";
  CHECK(pair.log.events() ==
        concat({{"c1.send_request", "c2.send_request"},
                server_start,
                {"s1.receive_request raise_user", "s2.receive_request raise_user", "s2.send_exception " + id,
                 "s1.send_exception " + id, "c2.receive_exception " + id, "c1.receive_exception " + id}}));
}

TEST_CASE("interceptors: a system exception", "[core][interceptors]") {
  intercepted_pair pair;
  auto stub = pair.probe_stub();
  CHECK(system_exception_of([&] { stub.raise_system(); }).kind() == SystemExceptionKind::NO_RESOURCES);
  const std::string id = "IDL:omg.org/CORBA/NO_RESOURCES:1.0";
  CHECK(pair.log.events() ==
        concat({{"c1.send_request", "c2.send_request"},
                server_start,
                {"s1.receive_request raise_system", "s2.receive_request raise_system", "s2.send_exception " + id,
                 "s1.send_exception " + id, "c2.receive_exception " + id, "c1.receive_exception " + id}}));
}

TEST_CASE("interceptors: no object: receive_request is not called", "[core][interceptors]") {
  intercepted_pair pair;
  auto stub = pair.probe_stub();
  REQUIRE(pair.server->orb->root_adapter().deactivate(pair.client->string_to_object(pair.probe_ior)));
  CHECK(system_exception_of([&] { stub.echo_long(1); }).kind() == SystemExceptionKind::OBJECT_NOT_EXIST);
  const std::string id = "IDL:omg.org/CORBA/OBJECT_NOT_EXIST:1.0";
  CHECK(pair.log.events() == concat({{"c1.send_request", "c2.send_request"},
                                     server_start,
                                     {"s2.send_exception " + id, "s1.send_exception " + id,
                                      "c2.receive_exception " + id, "c1.receive_exception " + id}}));
}

TEST_CASE("interceptors: a oneway", "[core][interceptors]") {
  intercepted_pair pair;
  auto stub = pair.ttcp_stub();
  stub.sendNoParams_1way();
  // receive_other with reply status successful (0) on the client; the server's points run in its
  // own thread.
  auto seen = pair.log.wait_for(10);
  REQUIRE(seen.size() == 10);
  const events client_side = {"c1.send_request", "c2.send_request", "c2.receive_other 0", "c1.receive_other 0"};
  const events server_side = concat({server_start,
                                     {"s1.receive_request sendNoParams_1way", "s2.receive_request sendNoParams_1way",
                                      "s2.send_reply", "s1.send_reply"}});
  events client_seen, server_seen;
  for (const auto& e : seen) (e[0] == 'c' ? client_seen : server_seen).push_back(e);
  CHECK(client_seen == client_side);
  CHECK(server_seen == server_side);
  CHECK(pair.ttcp->oneway == 1);
}

TEST_CASE("interceptors: a LOCATION_FORWARD is receive_other, then the request goes again", "[core][interceptors]") {
  struct forwarder final : hand::probe_skeleton {
    object_ref to;
    std::int32_t echo_long(std::int32_t) override { throw forward_request(to); }
    std::string echo_string(const std::string& v) override { return v; }
    void raise_system() override {}
    void raise_standard() override {}
    void wait_for_release() override {}
    void raise_user(std::int32_t) override {}
  };
  intercepted_pair pair;
  auto forwarding = std::make_shared<forwarder>();
  forwarding->to = pair.server->orb->root_adapter().activate(std::make_shared<test::test_probe>());
  const std::string ior = pair.server->orb->object_to_string(pair.server->orb->root_adapter().activate(forwarding));
  hand::probe_stub stub(pair.client->string_to_object(ior));
  CHECK(stub.echo_long(5) == 5);
  const std::string forward = std::to_string(static_cast<int>(interceptor_reply_status::location_forward));
  CHECK(pair.log.events() ==
        concat({{"c1.send_request", "c2.send_request"},
                server_start,
                {"s1.receive_request echo_long", "s2.receive_request echo_long", "s2.send_other", "s1.send_other",
                 "c2.receive_other " + forward, "c1.receive_other " + forward, "c1.send_request", "c2.send_request"},
                server_start,
                {"s1.receive_request echo_long", "s2.receive_request echo_long", "s2.send_reply", "s1.send_reply",
                 "c2.receive_reply", "c1.receive_reply"}}));
}

TEST_CASE("interceptors: a client interceptor raising in send_request stops the request", "[core][interceptors]") {
  event_log log;
  auto c1 = std::make_shared<logging_client>("c1", log);
  auto c2 = std::make_shared<logging_client>("c2", log);
  auto c3 = std::make_shared<logging_client>("c3", log);
  c2->raise_at = "send_request";
  serving_orb server;
  auto ttcp = std::make_shared<test::recording_ttcp>();
  const std::string ior = server.orb->object_to_string(server.orb->root_adapter().activate(ttcp));
  server.start();
  auto client = with_interceptors({c1, c2, c3}, {}, [] { return orb_init(std::vector<std::string>{}); });
  hand::ttcp_sequence_stub stub(client->string_to_object(ior));
  const SystemException e = system_exception_of([&] { stub.sendNoParams_2way(); });
  CHECK(e.kind() == SystemExceptionKind::NO_PERMISSION);
  CHECK(e.completed() == CompletionStatus::no);
  // c3 never called; c1 (whose send_request completed) gets receive_exception; c2 nothing more.
  CHECK(log.events() ==
        events{"c1.send_request", "c2.send_request", "c1.receive_exception IDL:omg.org/CORBA/NO_PERMISSION:1.0"});
  CHECK(ttcp->twoway == 0);
  // The next call goes out when the interceptor lets it.
  c2->raise_at.clear();
  stub.sendNoParams_2way();
  CHECK(ttcp->twoway == 1);
  client->destroy();
}

TEST_CASE("interceptors: a client interceptor raising in receive_reply turns the rest into receive_exception",
          "[core][interceptors]") {
  intercepted_pair pair;
  pair.c2->raise_at = "receive_reply";
  auto stub = pair.probe_stub();
  CHECK(system_exception_of([&] { stub.echo_long(1); }).kind() == SystemExceptionKind::NO_PERMISSION);
  const events seen = pair.log.events();
  REQUIRE(seen.size() >= 2);
  CHECK(events(seen.end() - 2, seen.end()) ==
        events{"c2.receive_reply", "c1.receive_exception IDL:omg.org/CORBA/NO_PERMISSION:1.0"});
}

TEST_CASE("interceptors: a server interceptor refuses a request with NO_PERMISSION", "[core][interceptors]") {
  auto point = GENERATE(as<std::string>{}, "receive_request_service_contexts", "receive_request");
  intercepted_pair pair;
  pair.s2->raise_at = point;
  auto ttcp = pair.ttcp_stub();
  const SystemException e = system_exception_of([&] { ttcp.sendNoParams_2way(); });
  CHECK(e.kind() == SystemExceptionKind::NO_PERMISSION);
  CHECK(e.completed() == CompletionStatus::no);
  CHECK(pair.ttcp->twoway == 0);
  const std::string id = "IDL:omg.org/CORBA/NO_PERMISSION:1.0";
  if (point == "receive_request_service_contexts") {
    // s2 raised in the starting point: only s1 gets the ending point.
    CHECK(pair.log.events() == events{"c1.send_request", "c2.send_request", "s1.receive_request_service_contexts",
                                      "s2.receive_request_service_contexts", "s1.send_exception " + id,
                                      "c2.receive_exception " + id, "c1.receive_exception " + id});
  } else {
    CHECK(pair.log.events() == concat({{"c1.send_request", "c2.send_request"},
                                       server_start,
                                       {"s1.receive_request sendNoParams_2way", "s2.receive_request sendNoParams_2way",
                                        "s2.send_exception " + id, "s1.send_exception " + id,
                                        "c2.receive_exception " + id, "c1.receive_exception " + id}}));
  }
}

TEST_CASE("interceptors: a server interceptor raising in send_reply replaces the reply", "[core][interceptors]") {
  intercepted_pair pair;
  pair.s2->raise_at = "send_reply";
  auto stub = pair.probe_stub();
  CHECK(system_exception_of([&] { stub.echo_long(1); }).kind() == SystemExceptionKind::NO_PERMISSION);
  const std::string id = "IDL:omg.org/CORBA/NO_PERMISSION:1.0";
  const events seen = pair.log.events();
  REQUIRE(seen.size() >= 4);
  CHECK(events(seen.end() - 4, seen.end()) ==
        events{"s2.send_reply", "s1.send_exception " + id, "c2.receive_exception " + id, "c1.receive_exception " + id});
}

TEST_CASE("interceptors: service contexts from the client to the server and back", "[core][interceptors]") {
  auto version = GENERATE("1.0", "1.1", "1.2");
  intercepted_pair pair({"-ORBGIOPVersion", version});
  pair.c2->add_context = true;
  pair.s1->add_context = true;
  auto stub = pair.probe_stub();
  CHECK(stub.echo_long(3) == 3);
  CHECK(pair.s1->request_context == "from c2");
  CHECK(pair.c1->reply_context == "reply from s1");
  // Added in send_reply, after the results were written: GIOP 1.2 carries it.
  if (std::string(version) == "1.2") CHECK(pair.c1->late_reply_context == "late from s1");
  // Twice: the header cache must not replay a header without the contexts.
  pair.s1->request_context.clear();
  CHECK(stub.echo_long(4) == 4);
  CHECK(pair.s1->request_context == "from c2");
  CHECK_THROWS_AS(stub.raise_user(2), hand::refused);
  CHECK(pair.s1->request_context == "from c2");
}

TEST_CASE("interceptors: requests with and without an interceptor's context, one after the other",
          "[core][interceptors]") {
  // Without a context the request is the plain one (its header from the thread's cache): the
  // first request still says which code sets were chosen, and no header is replayed with or
  // without contexts it should not have.
  auto version = GENERATE("1.1", "1.2");
  intercepted_pair pair({"-ORBGIOPVersion", version});
  auto stub = pair.probe_stub();
  CHECK(stub.echo_long(1) == 1);
  CHECK(pair.s1->saw_code_sets);
  CHECK(pair.s1->request_context == "<none>");
  CHECK(stub.echo_long(2) == 2);
  CHECK_FALSE(pair.s1->saw_code_sets);
  pair.c2->add_context = true;
  CHECK(stub.echo_long(3) == 3);
  CHECK(pair.s1->request_context == "from c2");
  pair.c2->add_context = false;
  CHECK(stub.echo_long(4) == 4);
  CHECK(pair.s1->request_context == "<none>");
  CHECK(pair.log.events().size() == 4 * 10);  // every point of the four calls ran
  // The reply's header is the plain one until a context comes; one added in send_reply still
  // reaches the client over GIOP 1.2 (the header written again).
  pair.s1->add_context = true;
  pair.s1->late_context_only = true;
  CHECK(stub.echo_long(5) == 5);
  CHECK(pair.c1->reply_context == "<none>");
  if (std::string(version) == "1.2") CHECK(pair.c1->late_reply_context == "late from s1");
  else CHECK(pair.c1->late_reply_context == "<none>");
}

TEST_CASE("interceptors: a context added twice without replace is BAD_INV_ORDER", "[core][interceptors]") {
  struct twice final : client_request_interceptor {
    void send_request(client_request_info& info) override {
      const std::byte one[1] = {std::byte{1}};
      info.add_request_service_context(request_context_id, one, false);
      info.add_request_service_context(request_context_id, one, true);
      info.add_request_service_context(request_context_id, one, false);
    }
  };
  serving_orb server;
  const std::string ior =
      server.orb->object_to_string(server.orb->root_adapter().activate(std::make_shared<test::recording_ttcp>()));
  server.start();
  auto client = with_interceptors({std::make_shared<twice>()}, {}, [] { return orb_init(std::vector<std::string>{}); });
  hand::ttcp_sequence_stub stub(client->string_to_object(ior));
  const SystemException e = system_exception_of([&] { stub.sendNoParams_2way(); });
  CHECK(e.kind() == SystemExceptionKind::BAD_INV_ORDER);
  CHECK(e.minor() == minor::omg_minor(15));
  client->destroy();
}

TEST_CASE("interceptors: collocated calls pass the same points", "[core][interceptors]") {
  auto mode = GENERATE("thru-adapter", "direct");
  event_log log;
  auto c1 = std::make_shared<logging_client>("c1", log);
  auto s1 = std::make_shared<logging_server>("s1", log);
  c1->add_context = true;
  s1->add_context = true;
  auto single = with_interceptors({c1}, {s1}, [&] {
    return orb_init(std::vector<std::string>{"-ORBCollocation", mode});
  });
  auto probe = std::make_shared<test::test_probe>();
  hand::probe_stub stub(single->root_adapter().activate(probe));
  for (int i = 0; i < 2; ++i) {
    log.clear();
    CHECK(stub.echo_long(i) == i);
    CHECK(log.events() == events{"c1.send_request", "s1.receive_request_service_contexts",
                                 "s1.receive_request echo_long", "s1.send_reply", "c1.receive_reply"});
    CHECK(s1->request_context == "from c1");
    CHECK(c1->reply_context == "reply from s1");
    CHECK(c1->late_reply_context == "late from s1");
  }
  single->destroy();
}

TEST_CASE("interceptors: initializers run in orb_init; duplicate names are refused", "[core][interceptors]") {
  event_log log;
  clear_orb_initializers();
  auto first = std::make_shared<adding_initializer>();
  first->client = {std::make_shared<logging_client>("same", log)};
  auto second = std::make_shared<adding_initializer>();
  second->client = {std::make_shared<logging_client>("same", log)};
  register_orb_initializer(first);
  auto one = orb_init(std::vector<std::string>{});
  CHECK(first->post_inits == 1);
  register_orb_initializer(second);
  CHECK(system_exception_of([] { orb_init(std::vector<std::string>{}); }).kind() == SystemExceptionKind::BAD_INV_ORDER);
  clear_orb_initializers();
  one->destroy();
}

TEST_CASE("interceptors: without any, calls work as before", "[core][interceptors]") {
  clear_orb_initializers();
  serving_orb server;
  auto probe = std::make_shared<test::test_probe>();
  const std::string ior = server.orb->object_to_string(server.orb->root_adapter().activate(probe));
  server.start();
  auto client = orb_init(std::vector<std::string>{});
  hand::probe_stub stub(client->string_to_object(ior));
  for (int i = 0; i < 3; ++i) CHECK(stub.echo_long(i) == i);
  CHECK_THROWS_AS(stub.raise_user(1), hand::refused);
  CHECK(system_exception_of([&] { stub.raise_system(); }).kind() == SystemExceptionKind::NO_RESOURCES);
  client->destroy();
}
