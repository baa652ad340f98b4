// The ORB end to end on loopback: our client against our server, through every demultiplexing
// strategy, with the failures a real deployment meets.
#include "switchyard/orb.h"

#include <catch2/catch.hpp>

#include <poll.h>

#include <filesystem>
#include <future>
#include <sstream>

#include "demux/demux_strategy.h"
#include "orb/core/orb_impl.h"
#include "switchyard/config.h"
#include "switchyard/exception.h"
#include "tests/core/orb_fixture.h"
#include "transports/transport.h"

using namespace switchyard;
using test::serving_orb;
using test::system_exception_of;

namespace {

std::shared_ptr<orb> client_orb(std::vector<std::string> args = {}) { return orb_init(std::move(args)); }

std::string strategy_name(demux_strategy s) { return std::string(demux::to_string(s)); }

}  // namespace

TEST_CASE("ttcp_sequence calls arrive intact under every pair of strategies", "[core]") {
  auto servant_demux = GENERATE(demux_strategy::linear, demux_strategy::binary, demux_strategy::dynamic,
                                demux_strategy::perfect, demux_strategy::perfect_fast, demux_strategy::active);
  auto operation_demux = GENERATE(demux_strategy::linear, demux_strategy::binary, demux_strategy::dynamic,
                                  demux_strategy::perfect, demux_strategy::perfect_fast, demux_strategy::active);
  serving_orb server(
      {"-ORBServantDemux", strategy_name(servant_demux), "-ORBOperationDemux", strategy_name(operation_demux)});
  std::vector<std::shared_ptr<test::recording_ttcp>> servants;
  std::vector<std::string> iors;
  for (int i = 0; i < 20; ++i) {
    servants.push_back(std::make_shared<test::recording_ttcp>());
    iors.push_back(server.orb->object_to_string(
        server.orb->root_adapter().activate_with_id("ttcp/" + std::to_string(i), servants.back())));
  }
  server.start();

  auto client = client_orb();
  for (int i = 0; i < 20; i += 7) {
    hand::ttcp_sequence_stub stub(client->string_to_object(iors[i]));
    stub.sendNoParams_2way();
    stub.sendNoParams_1way();
    std::vector<std::uint8_t> octets(1000);
    for (std::size_t k = 0; k < octets.size(); ++k) octets[k] = static_cast<std::uint8_t>(k * 7);
    stub.sendOctetSeq_2way(octets);
    std::vector<hand::BinStruct> structs;
    for (int k = 0; k < 50; ++k) structs.push_back({static_cast<std::int16_t>(-k), 'a', k * 1000, 0xfe, k / 3.0});
    stub.sendStructSeq_2way(structs);
    // One-way requests are served in order on the connection: the two-way after it proves it.
    CHECK(servants[i]->oneway == 1);
    CHECK(servants[i]->twoway == 3);
    CHECK(servants[i]->octets == octets);
    CHECK(servants[i]->structs == structs);
  }
  CHECK(servants[1]->twoway == 0);
}

TEST_CASE("every GIOP version works end to end", "[core]") {
  auto version = GENERATE("1.0", "1.1", "1.2");
  serving_orb server({"-ORBGIOPVersion", version});
  auto probe = std::make_shared<test::test_probe>();
  auto ior = server.orb->object_to_string(server.orb->root_adapter().activate(probe));
  server.start();
  auto client = client_orb({"-ORBGIOPVersion", version});
  hand::probe_stub stub(client->string_to_object(ior));
  CHECK(stub.echo_long(-42) == -42);
  CHECK(stub.echo_string("über") == "über");
  CHECK(system_exception_of([&] { stub.raise_system(); }).kind() == SystemExceptionKind::NO_RESOURCES);
}

TEST_CASE("a servant's exceptions reach the client and the server keeps serving", "[core][errors]") {
  serving_orb server;
  auto probe = std::make_shared<test::test_probe>();
  auto ior = server.orb->object_to_string(server.orb->root_adapter().activate(probe));
  server.start();
  auto client = client_orb();
  hand::probe_stub stub(client->string_to_object(ior));

  auto system = system_exception_of([&] { stub.raise_system(); });
  CHECK(system.kind() == SystemExceptionKind::NO_RESOURCES);
  CHECK(system.minor() == 7);
  CHECK(system.completed() == CompletionStatus::yes);

  auto standard = system_exception_of([&] { stub.raise_standard(); });
  CHECK(standard.kind() == SystemExceptionKind::UNKNOWN);
  CHECK(standard.completed() == CompletionStatus::maybe);

  try {
    stub.raise_user(17);
    FAIL("no user exception");
  } catch (const hand::refused& e) {
    CHECK(e.code == 17);
  }
  stub.raise_user(0);
  CHECK(stub.echo_long(5) == 5);
}

TEST_CASE("unknown objects and operations are answered with OBJECT_NOT_EXIST and BAD_OPERATION", "[core][errors]") {
  auto servant_demux = GENERATE(demux_strategy::linear, demux_strategy::active);
  serving_orb server({"-ORBServantDemux", strategy_name(servant_demux)});
  auto probe = std::make_shared<test::test_probe>();
  auto& root = server.orb->root_adapter();
  auto ref = root.activate_with_id("probe", probe);
  auto ior = server.orb->object_to_string(ref);
  server.start();
  auto client = client_orb();
  hand::probe_stub stub(client->string_to_object(ior));

  CHECK(system_exception_of([&] { stub.no_such_operation(); }).kind() == SystemExceptionKind::BAD_OPERATION);

  // Deactivated: the old reference finds nothing. A new servant under the same user id is the
  // same object for CORBA, so the old reference reaches it under every strategy: with active
  // demultiplexing the old key's slot-and-generation hint is stale, and the id is found by hash.
  REQUIRE(root.deactivate("probe"));
  CHECK(system_exception_of([&] { stub.echo_long(1); }).kind() == SystemExceptionKind::OBJECT_NOT_EXIST);
  CHECK(client->string_to_object(ior).non_existent());
  auto other = std::make_shared<test::test_probe>();
  auto new_ref = root.activate_with_id("probe", other);
  hand::probe_stub fresh(client->string_to_object(server.orb->object_to_string(new_ref)));
  CHECK(fresh.echo_long(2) == 2);
  CHECK(stub.echo_long(1) == 1);
  CHECK_FALSE(client->string_to_object(ior).non_existent());
  CHECK_FALSE(client->string_to_object(server.orb->object_to_string(new_ref)).non_existent());
}

TEST_CASE("_is_a, _non_existent and LocateRequest", "[core]") {
  serving_orb server;
  auto ref = server.orb->root_adapter().activate_with_id("t", std::make_shared<test::recording_ttcp>());
  auto ior = server.orb->object_to_string(ref);
  server.start();
  auto client = client_orb();
  auto remote = client->string_to_object(ior);
  CHECK(remote.repository_id() == "IDL:ttcp_sequence:1.0");
  CHECK(remote.is_a("IDL:ttcp_sequence:1.0"));
  CHECK_FALSE(remote.is_a("IDL:something/else:1.0"));
  CHECK_FALSE(remote.non_existent());
  CHECK(remote.locate());
  server.orb->root_adapter().deactivate("t");
  CHECK_FALSE(remote.locate());
  CHECK(remote.non_existent());
}

TEST_CASE("one connection per endpoint, shared by every reference", "[core]") {
  serving_orb server;
  std::vector<std::string> iors;
  for (int i = 0; i < 5; ++i)
    iors.push_back(
        server.orb->object_to_string(server.orb->root_adapter().activate(std::make_shared<test::recording_ttcp>())));
  server.start();
  auto client = client_orb();
  for (const auto& ior : iors) hand::ttcp_sequence_stub(client->string_to_object(ior)).sendNoParams_2way();
  CHECK(client->impl().connections().size() == 1);
}

TEST_CASE("a call timeout raises TIMEOUT and the connection stays usable", "[core][errors]") {
  serving_orb server({"-ORBThreads", "2"});
  auto probe = std::make_shared<test::test_probe>();
  auto ior = server.orb->object_to_string(server.orb->root_adapter().activate(probe));
  server.start();
  auto client = client_orb({"-ORBCallTimeout", "200"});
  hand::probe_stub stub(client->string_to_object(ior));
  auto e = system_exception_of([&] { stub.wait_for_release(); });
  CHECK(e.kind() == SystemExceptionKind::TIMEOUT);
  probe->release();
  CHECK(stub.echo_long(9) == 9);
}

TEST_CASE("with a thread pool, a slow servant does not stall the others", "[core]") {
  serving_orb server({"-ORBThreads", "3"});
  auto probe = std::make_shared<test::test_probe>();
  auto ior = server.orb->object_to_string(server.orb->root_adapter().activate(probe));
  server.start();
  auto client = client_orb();
  hand::probe_stub slow(client->string_to_object(ior));
  auto blocked = std::async(std::launch::async, [&] { slow.wait_for_release(); });
  REQUIRE(probe->wait_until_waiting(std::chrono::seconds(5)));
  // The slow request still holds a worker; another request on the same connection is served.
  hand::probe_stub fast(client->string_to_object(ior));
  CHECK(fast.echo_long(3) == 3);
  {
    std::lock_guard lock(probe->mutex);
    CHECK(probe->waiting == 1);
  }
  probe->release();
  blocked.get();
}

TEST_CASE("a dead server gives TRANSIENT or COMM_FAILURE, and a later call reconnects", "[core][errors]") {
  auto probe = std::make_shared<test::test_probe>();
  std::string ior;
  std::string endpoint;
  {
    serving_orb first;
    ior = first.orb->object_to_string(first.orb->root_adapter().activate_with_id("p", probe));
    endpoint = first.orb->endpoints().front();
    first.start();
    auto client = client_orb();
    hand::probe_stub stub(client->string_to_object(ior));
    CHECK(stub.echo_long(1) == 1);
    first.stop();
    auto e = system_exception_of([&] { stub.echo_long(2); });
    CHECK((e.kind() == SystemExceptionKind::TRANSIENT || e.kind() == SystemExceptionKind::COMM_FAILURE));
    CHECK(system_exception_of([&] { stub.echo_long(3); }).kind() == SystemExceptionKind::TRANSIENT);

    // The same endpoint and object id again: the old reference works once more.
    serving_orb second({}, endpoint);
    auto again = second.orb->root_adapter().activate_with_id("p", probe);
    (void)again;
    second.start();
    // Keys from another ORB instance need the same adapter and id: the root adapter is index 0 in
    // both, and user ids are the servant part for non-active strategies.
    CHECK(stub.echo_long(4) == 4);
  }
}

TEST_CASE("a servant's forward_request sends the client elsewhere (LOCATION_FORWARD)", "[core]") {
  serving_orb server;
  auto& root = server.orb->root_adapter();
  auto target = std::make_shared<test::recording_ttcp>();
  auto target_ref = root.activate_with_id("real", target);
  struct forwarding final : hand::ttcp_sequence_skeleton {
    object_ref to;
    std::atomic<int> calls{0};  // written by the server's thread (TSan cannot see the socket order)
    void sendStructSeq_2way(const std::vector<hand::BinStruct>&) override {
      ++calls;
      throw forward_request(to);
    }
    void sendOctetSeq_2way(const std::vector<std::uint8_t>&) override {
      ++calls;
      throw forward_request(to);
    }
    void sendNoParams_2way() override {
      ++calls;
      throw forward_request(to);
    }
    void sendNoParams_1way() override {}
  };
  auto forwarder = std::make_shared<forwarding>();
  forwarder->to = target_ref;
  auto ior = server.orb->object_to_string(root.activate_with_id("forwarder", forwarder));
  server.start();
  auto client = client_orb();
  hand::ttcp_sequence_stub stub(client->string_to_object(ior));
  stub.sendOctetSeq_2way({1, 2, 3});
  stub.sendNoParams_2way();
  CHECK(forwarder->calls == 1);  // the second call went straight to the target
  CHECK(target->twoway == 2);
  CHECK(target->octets == std::vector<std::uint8_t>{1, 2, 3});
}

TEST_CASE("UIOP endpoints over UNIX-domain sockets", "[core]") {
  auto path = std::filesystem::temp_directory_path() / ("switchyard-uiop-" + std::to_string(::getpid()));
  serving_orb server({}, "uiop://" + path.string());
  auto ior = server.orb->object_to_string(server.orb->root_adapter().activate(std::make_shared<test::test_probe>()));
  server.start();
  auto client = client_orb();
  hand::probe_stub stub(client->string_to_object(ior));
  CHECK(stub.echo_long(77) == 77);
}

TEST_CASE("corbaloc URLs, plain keys and initial references", "[core]") {
  serving_orb server;
  auto ref = server.orb->root_adapter().activate(std::make_shared<test::test_probe>());
  server.orb->bind_key("Probe", ref);
  auto endpoint = server.orb->endpoints().front();  // iiop://127.0.0.1:PORT
  auto port = endpoint.substr(endpoint.rfind(':') + 1);
  auto url_of_ref = server.orb->object_to_url(ref);
  server.start();

  auto client = client_orb({"-ORBInitRef", "Probe=corbaloc::127.0.0.1:" + port + "/Probe", "-ORBDefaultInitRef",
                            "corbaloc::127.0.0.1:" + port});
  CHECK(hand::probe_stub(client->string_to_object("corbaloc::127.0.0.1:" + port + "/Probe")).echo_long(1) == 1);
  CHECK(hand::probe_stub(client->string_to_object(url_of_ref)).echo_long(2) == 2);
  CHECK(hand::probe_stub(client->resolve_initial_references("Probe")).echo_long(3) == 3);
  // Through -ORBDefaultInitRef: <url>/Probe.
  client->register_initial_reference("Local", client->string_to_object(url_of_ref));
  CHECK(hand::probe_stub(client->resolve_initial_references("Local")).echo_long(4) == 4);
  CHECK(hand::probe_stub(client->string_to_object("corbaloc:rir:/Probe")).echo_long(5) == 5);
  auto e = system_exception_of([&] { client_orb()->resolve_initial_references("Nothing"); });
  CHECK(e.kind() == SystemExceptionKind::BAD_PARAM);
  CHECK_THAT(std::string(e.what()), Catch::Contains("Nothing"));
}

TEST_CASE("shutdown sends CloseConnection: the client's next call is TRANSIENT", "[core]") {
  serving_orb server;
  auto ior = server.orb->object_to_string(server.orb->root_adapter().activate(std::make_shared<test::test_probe>()));
  server.start();
  auto client = client_orb();
  hand::probe_stub stub(client->string_to_object(ior));
  CHECK(stub.echo_long(1) == 1);
  server.stop();
  auto e = system_exception_of([&] { stub.echo_long(2); });
  CHECK((e.kind() == SystemExceptionKind::TRANSIENT || e.kind() == SystemExceptionKind::COMM_FAILURE));
}

TEST_CASE("shutdown(true) from inside a request is BAD_INV_ORDER; shutdown(false) stops run()", "[core][errors]") {
  serving_orb server;
  struct stopper final : hand::probe_skeleton {
    std::shared_ptr<orb> server_orb;
    std::int32_t echo_long(std::int32_t v) override {
      if (v == 1) server_orb->shutdown(true);
      server_orb->shutdown(false);
      return v;
    }
    std::string echo_string(const std::string& v) override { return v; }
    void raise_system() override {}
    void raise_standard() override {}
    void wait_for_release() override {}
    void raise_user(std::int32_t) override {}
  };
  auto s = std::make_shared<stopper>();
  s->server_orb = server.orb;
  auto ior = server.orb->object_to_string(server.orb->root_adapter().activate(s));
  server.start();
  auto client = client_orb();
  hand::probe_stub stub(client->string_to_object(ior));
  CHECK(system_exception_of([&] { stub.echo_long(1); }).kind() == SystemExceptionKind::BAD_INV_ORDER);
  server.stop();  // the servant's thread is joined before its ORB pointer goes
  s->server_orb.reset();
}

TEST_CASE("an ORB made with an unknown -ORB option fails and names it", "[core][errors]") {
  auto e = system_exception_of([] { orb_init({"-ORBServantDemuxx", "linear"}); });
  CHECK(e.kind() == SystemExceptionKind::BAD_PARAM);
  CHECK_THAT(std::string(e.what()), Catch::Contains("-ORBServantDemuxx"));
}

TEST_CASE("-ORBInstrument profiles every layer of the request path", "[core][instrument]") {
  // Reactive: an event loop times the read apart from the wait for it (a dedicated thread's
  // blocking receive is mostly waiting, so that model leaves `read` out).
  serving_orb server(
      {"-ORBInstrument", "-ORBServantDemux", "active", "-ORBOperationDemux", "perfect", "-ORBConcurrency", "reactive"});
  auto ior = server.orb->object_to_string(server.orb->root_adapter().activate(std::make_shared<test::test_probe>()));
  server.start();
  auto client = client_orb();
  hand::probe_stub stub(client->string_to_object(ior));
  for (int i = 0; i < 20; ++i) stub.echo_long(i);
  // The server marks `write` after its send returns, possibly after our reply arrived: one more
  // request, served after that mark, makes the 20 complete.
  stub.echo_long(20);
  std::ostringstream profile;
  server.orb->dump_instrumentation(profile);
  if (!instrument::probes_compiled_in) {
    CHECK_THAT(profile.str(), Catch::Contains("not compiled in"));
    return;
  }
  auto rows = instrument::make_rows(server.orb->impl().probe_snapshot(), 1.0);
  auto calls = [&](instrument::layer l, instrument::strategy s) {
    for (const auto& row : rows)
      if (row.row_layer == l && row.row_strategy == s) return row.calls;
    return std::uint64_t{0};
  };
  using instrument::layer;
  using instrument::strategy;
  CHECK(calls(layer::read, strategy::none) >= 20);
  CHECK(calls(layer::parse, strategy::none) == 21);
  CHECK(calls(layer::servant_demux, strategy::active) == 21);
  CHECK(calls(layer::operation_demux, strategy::perfect) == 21);
  CHECK(calls(layer::marshal, strategy::none) == 21);
  CHECK(calls(layer::write, strategy::none) >= 20);
  CHECK_THAT(profile.str(), Catch::Contains("servant_demux") && Catch::Contains("active"));
}

TEST_CASE("without -ORBInstrument nothing is recorded", "[core][instrument]") {
  serving_orb server;
  auto ior = server.orb->object_to_string(server.orb->root_adapter().activate(std::make_shared<test::test_probe>()));
  server.start();
  auto client = client_orb();
  hand::probe_stub stub(client->string_to_object(ior));
  for (int i = 0; i < 5; ++i) stub.echo_long(i);
  CHECK(server.orb->impl().probe_snapshot().total_calls() == 0);
}

TEST_CASE("thread-per-connection serves several clients and shuts down cleanly", "[core]") {
  serving_orb server({"-ORBConcurrency", "thread-per-connection"});
  auto probe = std::make_shared<test::test_probe>();
  auto ior = server.orb->object_to_string(server.orb->root_adapter().activate(probe));
  server.start();
  // Two client ORBs: two connections, two server threads.
  auto first = client_orb();
  auto second = client_orb();
  hand::probe_stub a(first->string_to_object(ior));
  hand::probe_stub b(second->string_to_object(ior));
  auto blocked = std::async(std::launch::async, [&] { a.wait_for_release(); });
  REQUIRE(probe->wait_until_waiting(std::chrono::seconds(5)));
  CHECK(b.echo_long(11) == 11);  // the other connection's thread is free
  CHECK(system_exception_of([&] { b.raise_system(); }).kind() == SystemExceptionKind::NO_RESOURCES);
  probe->release();
  blocked.get();
  CHECK(a.echo_string("x") == "x");
  server.stop();
  auto e = system_exception_of([&] { b.echo_long(1); });
  CHECK((e.kind() == SystemExceptionKind::TRANSIENT || e.kind() == SystemExceptionKind::COMM_FAILURE));
}

TEST_CASE("every model serves connection after connection (descriptor reuse)", "[core]") {
  auto model = GENERATE("reactive", "adaptive", "thread-per-connection");
  INFO(model);
  serving_orb server({"-ORBConcurrency", model, "-ORBDedicatedThreads", "1"});
  auto ior = server.orb->object_to_string(server.orb->root_adapter().activate(std::make_shared<test::test_probe>()));
  server.start();
  // Each client ORB is a new connection, closed when it goes; the server's next connection
  // usually gets the descriptor number the last one had.
  for (int i = 0; i < 6; ++i) {
    auto client = client_orb({"-ORBCallTimeout", "5000"});
    hand::probe_stub stub(client->string_to_object(ior));
    REQUIRE(stub.echo_long(i) == i);
  }
}

TEST_CASE("child adapters: names, their own strategies, and their own objects", "[core][adapter]") {
  serving_orb server({"-ORBServantDemux", "dynamic"});
  auto& root = server.orb->root_adapter();
  auto& fast = root.create_child("fast", {demux_strategy::active, demux_strategy::active, nullptr, std::nullopt});
  auto& plain = root.create_child("plain");
  CHECK(root.find_child("fast") == &fast);
  CHECK(root.find_child("nothing") == nullptr);
  CHECK(fast.name() == "fast");
  if (!compiled_servant_demux.is_fixed) {
    CHECK(fast.servant_demux() == demux_strategy::active);
    CHECK(plain.servant_demux() == demux_strategy::dynamic);  // inherited from the ORB
  }
  CHECK(system_exception_of([&] { root.create_child("fast"); }).kind() == SystemExceptionKind::BAD_PARAM);

  // The same id in two adapters: two objects.
  auto in_fast = std::make_shared<test::recording_ttcp>();
  auto in_plain = std::make_shared<test::recording_ttcp>();
  auto fast_ior = server.orb->object_to_string(fast.activate_with_id("x", in_fast));
  auto plain_ior = server.orb->object_to_string(plain.activate_with_id("x", in_plain));
  CHECK(system_exception_of([&] { plain.activate_with_id("x", in_plain); }).kind() == SystemExceptionKind::BAD_PARAM);
  CHECK(fast.active_count() == 1);
  CHECK(fast.servant_of("x") == in_fast);
  CHECK(plain.reference_to("x").is_equivalent(server.orb->string_to_object(plain_ior)));
  server.start();

  auto client = client_orb();
  hand::ttcp_sequence_stub(client->string_to_object(fast_ior)).sendNoParams_2way();
  hand::ttcp_sequence_stub(client->string_to_object(plain_ior)).sendNoParams_2way();
  hand::ttcp_sequence_stub(client->string_to_object(plain_ior)).sendNoParams_2way();
  CHECK(in_fast->twoway == 1);
  CHECK(in_plain->twoway == 2);

  // A system id is unique within its adapter, and deactivation by reference works.
  auto first = fast.activate(std::make_shared<test::recording_ttcp>());
  auto second = fast.activate(std::make_shared<test::recording_ttcp>());
  CHECK_FALSE(first.is_equivalent(second));
  CHECK(fast.deactivate(first));
  CHECK_FALSE(fast.deactivate(first));
  CHECK(fast.active_count() == 2);
}

namespace {

// Sends raw octets on a connection of its own and returns what the server answers before it
// closes (at most `limit` octets, within 5 s).
std::vector<std::byte> raw_exchange(const std::string& endpoint, const std::vector<std::byte>& bytes,
                                    std::size_t limit = 64) {
  auto connection = transports::connect(endpoint);
  connection->send(bytes.data(), bytes.size());
  std::vector<std::byte> answer;
  pollfd ready{connection->handle(), POLLIN, 0};
  while (answer.size() < limit && ::poll(&ready, 1, 5000) == 1) {
    std::byte buffer[64];
    std::size_t got = 0;
    try {
      got = connection->try_recv_some(buffer, sizeof buffer);
    } catch (const SystemException&) {
      break;
    }
    if (got == 0) break;
    answer.insert(answer.end(), buffer, buffer + got);
  }
  return answer;
}

std::vector<std::byte> bytes_of(std::initializer_list<int> values) {
  std::vector<std::byte> out;
  for (int v : values) out.push_back(static_cast<std::byte>(v));
  return out;
}

}  // namespace

TEST_CASE("malformed GIOP gets MessageError or a closed connection, and the server keeps serving", "[core][errors]") {
  serving_orb server;
  auto ior = server.orb->object_to_string(server.orb->root_adapter().activate(std::make_shared<test::test_probe>()));
  auto endpoint = server.orb->endpoints().front();
  server.start();
  auto client = client_orb();
  hand::probe_stub stub(client->string_to_object(ior));
  CHECK(stub.echo_long(1) == 1);

  // Not GIOP at all: closed without an answer.
  CHECK(raw_exchange(endpoint, bytes_of({'X', 'I', 'O', 'P', 1, 2, 1, 0, 0, 0, 0, 0})).empty());
  // GIOP 1.3: MessageError in GIOP 1.2, the highest we speak.
  auto unsupported = raw_exchange(endpoint, bytes_of({'G', 'I', 'O', 'P', 1, 3, 1, 0, 0, 0, 0, 0}));
  REQUIRE(unsupported.size() == 12);
  CHECK(unsupported[5] == std::byte{2});
  CHECK(unsupported[7] == std::byte{6});  // MessageError
  // A GIOP 1.2 Request whose header is cut short: MessageError, then the connection closes.
  auto truncated = raw_exchange(endpoint, bytes_of({'G', 'I', 'O', 'P', 1, 2, 1, 0, 4, 0, 0, 0, 7, 0, 0, 0}));
  REQUIRE(truncated.size() == 12);
  CHECK(truncated[7] == std::byte{6});
  // An unknown message type.
  auto unknown = raw_exchange(endpoint, bytes_of({'G', 'I', 'O', 'P', 1, 2, 1, 9, 0, 0, 0, 0}));
  REQUIRE(unknown.size() == 12);
  CHECK(unknown[7] == std::byte{6});

  // A well-formed request whose arguments are cut short: a MARSHAL reply, the connection lives.
  auto e = system_exception_of([&] {
    switchyard::invocation call(client->string_to_object(ior), "echo_long", 0);
    call.invoke([](cdr::output_stream& args) { args.write_short(1); });  // 2 octets, not 4
  });
  CHECK(e.kind() == SystemExceptionKind::MARSHAL);

  // Through all of that, the well-behaved client is served as before.
  CHECK(stub.echo_long(2) == 2);
  CHECK(hand::probe_stub(client_orb()->string_to_object(ior)).echo_long(3) == 3);
}
