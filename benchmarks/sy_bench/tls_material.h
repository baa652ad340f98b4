// The ssliop series' certificates (`--transport ssliop` of latency, ttcp and handshake): made by
// scripts/make-tls-certs into a temporary folder, removed when the experiment ends (they are test
// material, never kept with the results). Servers require and verify a client certificate
// (mutual authentication, as a deployment would run); clients verify the server's.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace switchyard::bench {

class tls_material {
 public:
  // Runs make-tls-certs into a fresh folder under the system's temporary one; std::runtime_error
  // when it fails (no openssl). With `given` (--tls-certs DIR): that folder's files as they are
  // (the same names: ca.pem, server.pem/.key, client.pem/.key, omni-server.pem, omni-client.pem),
  // kept at the end; e.g. ECDSA certificates instead of make-tls-certs' RSA ones.
  explicit tls_material(const std::filesystem::path& given = {});
  ~tls_material();
  tls_material(const tls_material&) = delete;
  tls_material& operator=(const tls_material&) = delete;

  const std::filesystem::path& dir() const noexcept { return dir_; }
  // Our server's ORB options: an ssliop listener on `host` (port 0), server.pem and its key, ca.pem
  // for the clients' certificates, -ORBTLSClientCertificates require.
  std::vector<std::string> server_args(const std::string& host) const;
  // Our client's ORB options: ca.pem, client.pem and its key.
  std::vector<std::string> client_args() const;
  // omni_server's and omni_bench_client's: --ssl DIR (omni-server.pem / omni-client.pem, the same
  // identities; omniORB requires and verifies both sides' certificates by default).
  std::vector<std::string> omni_args() const;

 private:
  std::filesystem::path dir_;
  bool owned_ = true;
};

// The name a series' rows carry in the CSVs' `transport` column: "tcp" for the baselines, else the
// transport its calls took (omniORB's: iiop or ssliop).
inline std::string omni_transport(const std::string& transport) { return transport == "ssliop" ? "ssliop" : "iiop"; }

}  // namespace switchyard::bench
