// The ORB over TLS, end to end on loopback, in every concurrency model: calls with mutual
// authentication, what the IORs say, no fall back to clear text, per-adapter authorization and
// the caller's identity in the servant, the handshake timeout, and options that cannot work.
#include <catch2/catch.hpp>

#include <poll.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>

#include "orb/ior/iiop_profile.h"
#include "orb/ior/ior.h"
#include "orb/ior/object_reference.h"
#include "switchyard/ami.h"
#include "switchyard/exception.h"
#include "switchyard/orb.h"
#include "switchyard/security.h"
#include "tests/core/orb_fixture.h"
#include "tests/tls/tls_certs.h"
#include "transports/transport.h"

using namespace switchyard;
using test::serving_orb;
using test::system_exception_of;

namespace {

// echo_string answers with the caller's verified subject ("anonymous" without one); counts calls.
struct whoami final : hand::probe_skeleton {
  std::atomic<int> calls{0};
  std::int32_t echo_long(std::int32_t v) override { return v; }
  std::string echo_string(const std::string& v) override {
    ++calls;
    const peer_identity* caller = current_caller();
    return v + ":" + (caller != nullptr ? caller->common_name : std::string("anonymous"));
  }
  void raise_system() override {}
  void raise_standard() override {}
  void wait_for_release() override {}
  void raise_user(std::int32_t) override {}
};

std::vector<std::string> with(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

std::vector<std::string> model_options(const std::string& model) {
  if (model == "thread-pool") return {"-ORBThreads", "3"};
  if (model == "adaptive-loops") return {"-ORBDedicatedThreads", "0"};  // every connection on a loop
  return {"-ORBConcurrency", model};
}

iop::iiop_profile first_profile(const std::string& ior) {
  return iop::decode_iiop_profile(iop::parse_ior_string(ior).profiles.at(0).data);
}

}  // namespace

TEST_CASE("calls over TLS with client certificates, in every concurrency model", "[tls]") {
  const auto model = GENERATE(std::string("adaptive"), std::string("adaptive-loops"), std::string("reactive"),
                              std::string("thread-per-connection"), std::string("thread-pool"));
  CAPTURE(model);
  const auto& certs = test::tls_certs::get();
  serving_orb server(with(model_options(model), certs.server_options()), "ssliop://127.0.0.1:0");
  auto servant = std::make_shared<whoami>();
  const std::string ior = server.orb->object_to_string(server.orb->root_adapter().activate(servant));
  auto ttcp_servant = std::make_shared<test::recording_ttcp>();
  const std::string ttcp_ior = server.orb->object_to_string(server.orb->root_adapter().activate(ttcp_servant));
  server.start();

  auto client = orb_init(certs.client_options());
  hand::probe_stub probe(client->string_to_object(ior));
  for (int i = 0; i < 20; ++i)
    CHECK(probe.echo_string("hello" + std::to_string(i)) == "hello" + std::to_string(i) + ":switchyard-client");
  // Larger than one TLS record and than the server's first receive buffer: the read-ahead path.
  hand::ttcp_sequence_stub ttcp(client->string_to_object(ttcp_ior));
  std::vector<std::uint8_t> octets(1 << 20);
  for (std::size_t i = 0; i < octets.size(); ++i) octets[i] = static_cast<std::uint8_t>(i * 13);
  for (int i = 0; i < 3; ++i) ttcp.sendOctetSeq_2way(octets);
  for (int i = 0; i < 50; ++i) ttcp.sendNoParams_1way();
  ttcp.sendNoParams_2way();
  CHECK(ttcp_servant->octets == octets);
  CHECK(ttcp_servant->oneway == 50);
  CHECK(ttcp_servant->twoway == 4);
}

TEST_CASE("asynchronous calls over TLS: 64 outstanding, replies read ahead with others in one record", "[tls][ami]") {
  const auto model = GENERATE(std::string("adaptive"), std::string("reactive"), std::string("thread-pool"));
  CAPTURE(model);
  const auto& certs = test::tls_certs::get();
  serving_orb server(with(model_options(model), certs.server_options()), "ssliop://127.0.0.1:0");
  auto servant = std::make_shared<whoami>();
  const std::string ior = server.orb->object_to_string(server.orb->root_adapter().activate(servant));
  server.start();

  auto client = orb_init(certs.client_options());
  const object_ref target = client->string_to_object(ior);
  constexpr int calls = 64;
  std::mutex mutex;
  std::condition_variable changed;
  int right = 0, done = 0;
  for (int i = 0; i < calls; ++i)
    ami::send_callback(
        target, "echo_string", [i](cdr::output_stream& args) { args.write_string("tls" + std::to_string(i)); },
        [&, i](cdr::input_stream* results, const exception_holder* raised) {
          const bool ok =
              raised == nullptr && results->read_string() == "tls" + std::to_string(i) + ":switchyard-client";
          std::lock_guard lock(mutex);
          right += ok ? 1 : 0;
          ++done;
          changed.notify_all();
        },
        nullptr, 1);
  {
    std::unique_lock lock(mutex);
    REQUIRE(changed.wait_for(lock, std::chrono::seconds(10), [&] { return done == calls; }));
    CHECK(right == calls);
  }
  // Synchronous calls share the connection afterwards.
  CHECK(hand::probe_stub(target).echo_string("after") == "after:switchyard-client");
  client->destroy();
}

TEST_CASE("IORs carry the TLS port as omniORB writes it: TAG_SSL_SEC_TRANS, port 0 when TLS only", "[tls]") {
  const auto& certs = test::tls_certs::get();
  SECTION("TLS only") {
    serving_orb server(certs.server_options(), "ssliop://127.0.0.1:0");
    const auto profile =
        first_profile(server.orb->object_to_string(server.orb->root_adapter().activate(std::make_shared<whoami>())));
    CHECK(profile.host == "127.0.0.1");
    CHECK(profile.port == 0);
    const auto* ssl = iop::find_component(profile.components, iop::tag_ssl_sec_trans);
    REQUIRE(ssl != nullptr);
    const auto decoded = iop::decode_ssl_transport(*ssl);
    CHECK(decoded.port == std::stoi(server.orb->endpoints().at(0).substr(std::string("ssliop://127.0.0.1:").size())));
    CHECK((decoded.target_requires & iop::association_confidentiality) != 0);
    CHECK((decoded.target_requires & iop::association_trust_in_client) != 0);
  }
  SECTION("TLS and plain on one host") {
    auto args = certs.server_options("server", "none");
    args.insert(args.end(), {"-ORBListenEndpoints", "ssliop://127.0.0.1:0"});
    serving_orb server(args, "iiop://127.0.0.1:0");
    auto servant = std::make_shared<whoami>();
    const std::string ior = server.orb->object_to_string(server.orb->root_adapter().activate(servant));
    const auto profile = first_profile(ior);
    CHECK(profile.port != 0);
    const auto* ssl = iop::find_component(profile.components, iop::tag_ssl_sec_trans);
    REQUIRE(ssl != nullptr);
    CHECK(iop::decode_ssl_transport(*ssl).target_requires == 0);
    server.start();
    // Configured for TLS, a client calls over TLS (the servant sees a certificate); a client
    // without TLS settings calls the plain port.
    auto tls_client = orb_init(certs.client_options());
    CHECK(hand::probe_stub(tls_client->string_to_object(ior)).echo_string("a") == "a:anonymous");
    auto plain_client = orb_init(std::vector<std::string>{});
    CHECK(hand::probe_stub(plain_client->string_to_object(ior)).echo_string("b") == "b:anonymous");
    CHECK(servant->calls == 2);
  }
}

TEST_CASE("omniORB's TLS-only IOR is read as a TLS target", "[tls][ior]") {
  // omni_server --ssl: IIOP 1.2, port 0, TAG_SSL_SEC_TRANS {0x66, 0x66, 21008}.
  const std::string vector_file = std::string(SY_SOURCE_ROOT) + "/tests/interop/vectors/omni_ssl_ior.txt";
  const std::string ior = test::read_all(vector_file);
  REQUIRE_FALSE(ior.empty());
  std::string text = ior.substr(ior.find("IOR:"));
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  const auto targets = iop::targets_of(iop::parse_ior_string(text));
  REQUIRE(targets.size() == 1);
  CHECK(targets[0].where.to_string() == "ssliop://127.0.0.1:21008");
}

TEST_CASE("a client configured for TLS never falls back to clear text", "[tls]") {
  const auto& certs = test::tls_certs::get();
  // The server's TLS certificate comes from another CA; its plain port works.
  auto args = certs.server_options("rogue", "none");
  args.insert(args.end(), {"-ORBListenEndpoints", "ssliop://127.0.0.1:0"});
  serving_orb server(args, "iiop://127.0.0.1:0");
  auto servant = std::make_shared<whoami>();
  const std::string ior = server.orb->object_to_string(server.orb->root_adapter().activate(servant));
  server.start();
  auto client = orb_init(certs.client_options());
  const auto e = system_exception_of([&] { hand::probe_stub(client->string_to_object(ior)).echo_string("x"); });
  CHECK(e.kind() == SystemExceptionKind::NO_PERMISSION);
  CHECK(e.minor() == minor::peer_not_verified);
  CHECK(servant->calls == 0);
}

TEST_CASE("an adapter lets in only the callers its access policy names", "[tls]") {
  const auto model = GENERATE(std::string("adaptive"), std::string("reactive"), std::string("thread-pool"));
  CAPTURE(model);
  const auto& certs = test::tls_certs::get();
  auto args = with(model_options(model), certs.server_options("server", "request"));
  args.insert(args.end(), {"-ORBListenEndpoints", "iiop://127.0.0.1:0"});
  serving_orb server(args, "ssliop://127.0.0.1:0");
  adapter_policies policies;
  policies.access = access_policy{};
  policies.access->allowed_common_names = {"switchyard-client"};
  auto& guarded = server.orb->root_adapter().create_child("guarded", policies);
  auto servant = std::make_shared<whoami>();
  const std::string ior = server.orb->object_to_string(guarded.activate(servant));
  server.start();

  auto allowed = orb_init(certs.client_options("client"));
  CHECK(hand::probe_stub(allowed->string_to_object(ior)).echo_string("in") == "in:switchyard-client");
  // A valid certificate the policy does not name, no certificate, clear text: refused.
  for (const std::string name : {"client2", ""}) {
    auto refused = orb_init(certs.client_options(name));
    const auto e = system_exception_of([&] { hand::probe_stub(refused->string_to_object(ior)).echo_string("out"); });
    CHECK(e.kind() == SystemExceptionKind::NO_PERMISSION);
    CHECK(e.minor() == minor::peer_not_allowed);
  }
  auto plain = orb_init(std::vector<std::string>{});
  CHECK(system_exception_of([&] { hand::probe_stub(plain->string_to_object(ior)).echo_string("out"); }).kind() ==
        SystemExceptionKind::NO_PERMISSION);
  CHECK(servant->calls == 1);

  // A callback decides instead; collocated calls are let in unless the policy says otherwise.
  access_policy by_callback;
  by_callback.allow = [](const peer_identity& who) { return who.common_name == "other-client"; };
  guarded.set_access_policy(by_callback);
  auto other = orb_init(certs.client_options("client2"));
  CHECK(hand::probe_stub(other->string_to_object(ior)).echo_string("cb") == "cb:other-client");
  CHECK(hand::probe_stub(server.orb->string_to_object(ior)).echo_string("local") == "local:anonymous");
  by_callback.allow_collocated = false;
  guarded.set_access_policy(by_callback);
  CHECK(system_exception_of([&] { hand::probe_stub(server.orb->string_to_object(ior)).echo_string("l"); }).kind() ==
        SystemExceptionKind::NO_PERMISSION);
  guarded.clear_access_policy();
  CHECK(hand::probe_stub(plain->string_to_object(ior)).echo_string("open") == "open:anonymous");
}

TEST_CASE("a peer that never finishes its handshake is closed at the handshake timeout; others are served", "[tls]") {
  const auto model = GENERATE(std::string("adaptive"), std::string("adaptive-loops"), std::string("reactive"),
                              std::string("thread-per-connection"), std::string("thread-pool"));
  CAPTURE(model);
  const auto& certs = test::tls_certs::get();
  auto args = with(model_options(model), certs.server_options());
  args.insert(args.end(), {"-ORBTLSHandshakeTimeout", "300"});
  serving_orb server(args, "ssliop://127.0.0.1:0");
  auto servant = std::make_shared<whoami>();
  const std::string ior = server.orb->object_to_string(server.orb->root_adapter().activate(servant));
  server.start();

  // Silent peers, and one that sends half a ClientHello.
  auto where = transports::parse_endpoint(server.orb->endpoints().at(0));
  where.kind = transports::protocol::iiop;
  std::vector<std::unique_ptr<transports::connection>> silent;
  for (int i = 0; i < 5; ++i) silent.push_back(transports::connect(where));
  const unsigned char half_hello[] = {0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03};
  silent.back()->send(half_hello, sizeof half_hello);

  auto client = orb_init(certs.client_options());
  CHECK(hand::probe_stub(client->string_to_object(ior)).echo_string("meanwhile") == "meanwhile:switchyard-client");
  // Each silent peer sees the server close: a read returns the end (bounded wait, 10 s each).
  for (auto& peer : silent) {
    pollfd ready{peer->handle(), POLLIN, 0};
    REQUIRE(::poll(&ready, 1, 10'000) == 1);
    char byte;
    CHECK(peer->recv_now(&byte, 1) <= 0);
  }
}

TEST_CASE("TLS options that cannot work stop orb_init with a clear error", "[tls]") {
  const auto& certs = test::tls_certs::get();
  auto missing = system_exception_of([&] {
    orb_init({"-ORBTLSCertificate", certs["nothing-here.pem"], "-ORBListenEndpoints", "ssliop://127.0.0.1:0"});
  });
  CHECK(missing.kind() == SystemExceptionKind::BAD_PARAM);
  CHECK(missing.minor() == minor::tls_setup);
  CHECK(std::string(missing.what()).find("nothing-here.pem") != std::string::npos);
  auto no_certificate = system_exception_of([&] { orb_init({"-ORBListenEndpoints", "ssliop://127.0.0.1:0"}); });
  CHECK(no_certificate.minor() == minor::tls_setup);
  CHECK(system_exception_of([&] { orb_init({"-ORBTLSWhatever", "1"}); }).minor() == minor::bad_option);
  CHECK(system_exception_of([&] { orb_init({"-ORBTLSMinProtocol", "1.0"}); }).minor() == minor::bad_option);
  CHECK(system_exception_of([&] { orb_init({"-ORBTLSClientCertificates", "maybe"}); }).minor() == minor::bad_option);
}

TEST_CASE("a client without TLS settings is told why it cannot call a TLS-only object", "[tls]") {
  const auto& certs = test::tls_certs::get();
  serving_orb server(certs.server_options(), "ssliop://127.0.0.1:0");
  const std::string ior = server.orb->object_to_string(server.orb->root_adapter().activate(std::make_shared<whoami>()));
  server.start();
  auto client = orb_init(std::vector<std::string>{});
  const auto e = system_exception_of([&] { hand::probe_stub(client->string_to_object(ior)).echo_string("x"); });
  CHECK(e.kind() == SystemExceptionKind::NO_PERMISSION);
  CHECK(std::string(e.what()).find("-ORBTLSCAFile") != std::string::npos);
}
