// Our client over TLS against omniORB's server over its SSL transport (omni_server --ssl, started
// here on loopback): mutual authentication with the test CA's certificates, what omniORB's IOR says
// (port 0, TAG_SSL_SEC_TRANS), and the refusals both ways: a server certificate from another CA
// or for another host (our client checks the host; omniORB's does not), and a client certificate
// omniORB does not trust. OMNI_PEER_SERVER names the server; without it the cases warn and pass.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <string>

#include "integrity.h"
#include "orb/ior/iiop_profile.h"
#include "orb/ior/ior.h"
#include "switchyard/exception.h"
#include "switchyard/orb.h"
#include "tests/interop/omni_server_process.h"
#include "tests/tls/tls_certs.h"
#include "ttcp_sequence.h"

using namespace switchyard;

namespace {

const char* omni_server_program() { return std::getenv("OMNI_PEER_SERVER"); }

std::vector<std::string> omni_ssl(const std::string& key = "omni-server.pem") {
  const auto& certs = test::tls_certs::get();
  return {"--ssl", certs[""], "--ssl-key", certs[key]};
}

SystemException failure_of(const std::function<void()>& call) {
  try {
    call();
  } catch (const SystemException& e) {
    return e;
  }
  FAIL("the call succeeded");
  throw std::logic_error("unreachable");
}

}  // namespace

TEST_CASE("our client calls omniORB's SSL server with client certificates", "[interop][tls]") {
  if (omni_server_program() == nullptr) {
    WARN("OMNI_PEER_SERVER is not set: omniORB's peer was not built; nothing checked");
    return;
  }
  test::omni_server server(omni_server_program(), 1, omni_ssl());
  const auto profile = iop::decode_iiop_profile(iop::parse_ior_string(server.ior("echo")).profiles.at(0).data);
  CHECK(profile.port == 0);
  auto client = orb_init(test::tls_certs::get().client_options());
  auto echo = Integrity::Echo::_narrow(client->string_to_object(server.ior("echo")));
  REQUIRE_FALSE(echo._is_nil());
  CHECK(echo.echo_long(-123456) == -123456);
  CHECK(echo.echo_string("over TLS") == "over TLS");
  auto ttcp = ttcp_sequence::_narrow(client->string_to_object(server.ior("ttcp/0")));
  ttcp_sequence::OctetSeq octets(1 << 20);
  for (std::size_t i = 0; i < octets.size(); ++i) octets[i] = static_cast<std::uint8_t>(i * 7);
  for (int i = 0; i < 3; ++i) ttcp.sendOctetSeq_2way(octets);
  ttcp.sendNoParams_2way();
  CHECK(server.stop() == 0);
}

TEST_CASE("our client refuses omniORB's server with a foreign or misnamed certificate", "[interop][tls]") {
  if (omni_server_program() == nullptr) {
    WARN("OMNI_PEER_SERVER is not set: omniORB's peer was not built; nothing checked");
    return;
  }
  const std::string key = GENERATE(std::string("omni-rogue.pem"), std::string("omni-wrong-host.pem"));
  CAPTURE(key);
  test::omni_server server(omni_server_program(), 1, omni_ssl(key));
  auto client = orb_init(test::tls_certs::get().client_options());
  const auto e =
      failure_of([&] { Integrity::Echo::_narrow(client->string_to_object(server.ior("echo"))).echo_long(1); });
  CHECK(e.kind() == SystemExceptionKind::NO_PERMISSION);
  CHECK(e.minor() == minor::peer_not_verified);
}

TEST_CASE("omniORB's SSL server refuses our client's foreign certificate", "[interop][tls]") {
  if (omni_server_program() == nullptr) {
    WARN("OMNI_PEER_SERVER is not set: omniORB's peer was not built; nothing checked");
    return;
  }
  test::omni_server server(omni_server_program(), 1, omni_ssl());
  auto client = orb_init(test::tls_certs::get().client_options("rogue"));
  const auto e =
      failure_of([&] { Integrity::Echo::_narrow(client->string_to_object(server.ior("echo"))).echo_long(1); });
  // omniORB's alert ("unknown ca"), or, when the close it sends with it arrives first, the end
  // of the connection: either way a communication failure, never a reply.
  INFO(e.what());
  CHECK((e.kind() == SystemExceptionKind::COMM_FAILURE || e.kind() == SystemExceptionKind::TRANSIENT));
  // A client it trusts is served after it.
  auto good = orb_init(test::tls_certs::get().client_options());
  CHECK(Integrity::Echo::_narrow(good->string_to_object(server.ior("echo"))).echo_long(7) == 7);
}
