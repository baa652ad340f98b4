// The ssliop transport on its own: handshakes both ways on loopback with real certificates,
// verification and its failures, identities, large transfers, and a clear-text peer.
#include <catch2/catch.hpp>

#include <linux/sockios.h>
#include <sys/ioctl.h>

#include <thread>

#include "switchyard/exception.h"
#include "tests/tls/tls_certs.h"
#include "transports/ssliop/tls_context.h"
#include "transports/transport.h"

using namespace switchyard;
using namespace switchyard::transports;

namespace {

std::shared_ptr<const tls_context> server_tls(client_certificates clients = client_certificates::require,
                                              const std::string& name = "server") {
  const auto& certs = test::tls_certs::get();
  tls_settings settings;
  settings.certificate_file = certs[name + ".pem"];
  settings.private_key_file = certs[name + ".key"];
  settings.ca_file = certs["ca.pem"];
  settings.clients = clients;
  return std::make_shared<const tls_context>(settings);
}

std::shared_ptr<const tls_context> client_tls(const std::string& name = "client", const std::string& ca = "ca.pem") {
  const auto& certs = test::tls_certs::get();
  tls_settings settings;
  settings.ca_file = certs[ca];
  if (!name.empty()) {
    settings.certificate_file = certs[name + ".pem"];
    settings.private_key_file = certs[name + ".key"];
  }
  settings.handshake_timeout = std::chrono::milliseconds(5000);
  return std::make_shared<const tls_context>(settings);
}

// Receives `size` octets, or what came before the end or 5 s without progress: a message that
// loses its tail fails the test instead of hanging it.
std::vector<char> receive_within(transports::connection& from, std::size_t size) {
  from.set_io_timeouts(std::chrono::milliseconds(5000), std::chrono::milliseconds(5000));
  std::vector<char> data(size);
  std::size_t got = 0;
  while (got < size) {
    const std::ptrdiff_t n = from.recv_now(data.data() + got, size - got);
    if (n <= 0) break;
    got += static_cast<std::size_t>(n);
  }
  data.resize(got);
  return data;
}

struct tls_listener {
  explicit tls_listener(std::shared_ptr<const tls_context> tls) {
    transport_options options;
    options.tls = std::move(tls);
    acceptor = open_acceptor("ssliop://127.0.0.1:0", options);
  }
  // The server side's half of a handshake: it runs inside the first receive.
  std::thread serve_echo(std::size_t octets) {
    return std::thread([this, octets] {
      try {
        auto accepted = acceptor->accept();
        const std::vector<char> data = receive_within(*accepted, octets);
        if (data.size() != octets) {
          failure = "the server received " + std::to_string(data.size()) + " of " + std::to_string(octets) + " octets";
          return;
        }
        identity = accepted->verified_peer() ? accepted->verified_peer()->subject : "(none)";
        accepted->send(data.data(), data.size());
      } catch (const SystemException& e) {
        failure = e.what();
      }
    });
  }
  std::unique_ptr<transports::acceptor> acceptor;
  std::string identity;
  std::string failure;
};

endpoint at(const tls_listener& listener, std::string host = "127.0.0.1") {
  endpoint where = listener.acceptor->local_endpoint();
  where.host = std::move(host);
  return where;
}

}  // namespace

TEST_CASE("ssliop endpoints parse and print", "[tls]") {
  const endpoint parsed = parse_endpoint("ssliop://127.0.0.1:2810");
  CHECK(parsed.kind == protocol::ssliop);
  CHECK(parsed.port == 2810);
  CHECK(parsed.to_string() == "ssliop://127.0.0.1:2810");
  CHECK(parse_endpoint("ssliop://[::1]:0").is_ipv6_literal);
  CHECK_THROWS_AS(parse_endpoint("ssliop://127.0.0.1"), SystemException);
}

TEST_CASE("mutual TLS: bytes both ways, and the server sees the client's verified subject", "[tls]") {
  tls_listener listener(server_tls());
  // Around TLS's 16 KB records too: every record but a message's last is sent with MSG_MORE.
  const std::size_t size = GENERATE(std::size_t{12}, std::size_t{16'384}, std::size_t{16'384 + 12},
                                    std::size_t{65'536 + 12}, std::size_t{100'000}, std::size_t{3'000'000});
  auto server = listener.serve_echo(size);
  transport_options options;
  options.tls = client_tls();
  auto client = connect(at(listener), options);
  CHECK(client->kind() == protocol::ssliop);
  CHECK(client->peer_address().starts_with("ssliop://127.0.0.1:"));
  REQUIRE(client->verified_peer() != nullptr);
  CHECK(client->verified_peer()->common_name == "switchyard-server");
  std::vector<char> out(size);
  for (std::size_t i = 0; i < size; ++i) out[i] = static_cast<char>(i * 31 + 7);
  // Header and body as two pieces, as the ORB gathers them.
  const const_buffer pieces[2] = {{out.data(), 12}, {out.data() + 12, size - 12}};
  client->send_gather(pieces);
  if (size <= 16'384 + 12) {
    // Nothing of a message stays in the socket once sent: its last record went without MSG_MORE
    // (the kernel would hold a corked tail for 200 ms). The peer's window takes this much.
    int unsent = -1;
    REQUIRE(::ioctl(client->handle(), SIOCOUTQNSD, &unsent) == 0);
    CHECK(unsent == 0);
  }
  const std::vector<char> back = receive_within(*client, size);
  server.join();
  CHECK(listener.failure.empty());
  CHECK(back == out);
  CHECK(listener.identity.find("CN=switchyard-client") != std::string::npos);
}

TEST_CASE("a client refuses a server its CA did not sign, or one named for another host", "[tls]") {
  SECTION("another CA") {
    tls_listener listener(server_tls(client_certificates::none, "rogue"));
    auto server = listener.serve_echo(4);
    transport_options options;
    options.tls = client_tls();
    const auto e = std::invoke([&] {
      try {
        connect(at(listener), options);
      } catch (const SystemException& caught) {
        return caught;
      }
      FAIL("connected to a server with another CA's certificate");
      throw std::logic_error("unreachable");
    });
    CHECK(e.kind() == SystemExceptionKind::NO_PERMISSION);
    CHECK(e.minor() == minor::peer_not_verified);
    CHECK(std::string(e.what()).find("not trusted") != std::string::npos);
    listener.acceptor->close();
    server.join();
  }
  SECTION("another host") {
    tls_listener listener(server_tls(client_certificates::none, "wrong-host"));
    auto server = listener.serve_echo(4);
    transport_options options;
    options.tls = client_tls();
    try {
      connect(at(listener), options);
      FAIL("connected to 127.0.0.1 whose certificate names 127.0.0.2");
    } catch (const SystemException& e) {
      CHECK(e.kind() == SystemExceptionKind::NO_PERMISSION);
      CHECK(std::string(e.what()).find("mismatch") != std::string::npos);
    }
    listener.acceptor->close();
    server.join();
  }
}

TEST_CASE("a server that requires client certificates refuses a client without one, or with a foreign one", "[tls]") {
  auto who = GENERATE(std::string(""), std::string("rogue"));
  CAPTURE(who);
  tls_listener listener(server_tls(client_certificates::require));
  auto server = listener.serve_echo(4);
  transport_options options;
  options.tls = client_tls(who);
  // TLS 1.3: the client's handshake ends before the server has judged its certificate; the
  // refusal arrives as the server's alert, at the client's first receive.
  try {
    auto client = connect(at(listener), options);
    client->send("ping", 4);
    char back[4];
    client->try_recv_exact(back, 4);
    FAIL("the server answered a client it should have refused");
  } catch (const SystemException& e) {
    INFO(e.what());
    CHECK(std::string(e.what()).find("alert") != std::string::npos);
  }
  server.join();
  CHECK(listener.identity.empty());
  CHECK(listener.failure.find("certificate") != std::string::npos);
}

TEST_CASE("clear GIOP sent to a TLS port is refused by the server's handshake", "[tls]") {
  tls_listener listener(server_tls());
  auto server = listener.serve_echo(12);
  endpoint plain = at(listener);
  plain.kind = protocol::iiop;
  auto client = connect(plain);
  const char request[12] = {'G', 'I', 'O', 'P', 1, 2, 1, 0, 0, 0, 0, 0};
  client->send(request, sizeof request);
  server.join();
  CHECK(listener.identity.empty());
  CHECK_FALSE(listener.failure.empty());
}

TEST_CASE("TLS settings that cannot work are refused when they are made", "[tls]") {
  const auto& certs = test::tls_certs::get();
  tls_settings missing;
  missing.certificate_file = certs["no-such-file.pem"];
  CHECK_THROWS_AS(tls_context(missing), SystemException);
  tls_settings mismatched;
  mismatched.certificate_file = certs["server.pem"];
  mismatched.private_key_file = certs["client.key"];
  try {
    tls_context context(mismatched);
    FAIL("a key of another certificate was accepted");
  } catch (const SystemException& e) {
    CHECK(e.kind() == SystemExceptionKind::BAD_PARAM);
    CHECK(e.minor() == minor::tls_setup);
  }
  tls_settings floor;
  floor.min_protocol = "1.1";
  CHECK_THROWS_AS(tls_context(floor), SystemException);
  tls_settings no_ca;
  no_ca.certificate_file = certs["server.pem"];
  no_ca.private_key_file = certs["server.key"];
  no_ca.clients = client_certificates::require;
  CHECK_THROWS_AS(tls_context(no_ca), SystemException);
}
