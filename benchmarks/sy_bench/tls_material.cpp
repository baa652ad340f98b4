#include "benchmarks/sy_bench/tls_material.h"

#include <stdlib.h>

#include <stdexcept>
#include <system_error>

#include "benchmarks/sy_bench/peer_tools.h"

#ifndef SY_BENCH_MAKE_TLS_CERTS
#define SY_BENCH_MAKE_TLS_CERTS "scripts/make-tls-certs"
#endif

namespace switchyard::bench {

tls_material::tls_material(const std::filesystem::path& given) {
  if (!given.empty()) {
    dir_ = given;
    owned_ = false;
    for (const char* name : {"ca.pem", "server.pem", "server.key", "client.pem", "client.key"})
      if (!std::filesystem::exists(dir_ / name))
        throw std::runtime_error("--tls-certs " + dir_.string() + ": no " + name);
    return;
  }
  std::string pattern = (std::filesystem::temp_directory_path() / "sy-bench-tls.XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) throw std::system_error(errno, std::generic_category(), "mkdtemp " + pattern);
  dir_ = pattern;
  try {
    run_client({"/bin/bash", SY_BENCH_MAKE_TLS_CERTS, dir_.string()}, dir_, std::chrono::seconds(60));
  } catch (const std::exception& e) {
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
    throw std::runtime_error(
        std::string("--transport ssliop: scripts/make-tls-certs failed (is openssl installed?): ") + e.what());
  }
  if (!std::filesystem::exists(dir_ / "ca.pem")) throw std::runtime_error("make-tls-certs wrote no ca.pem");
}

tls_material::~tls_material() {
  if (!owned_) return;
  std::error_code ignored;
  std::filesystem::remove_all(dir_, ignored);
}

std::vector<std::string> tls_material::server_args(const std::string& host) const {
  return {"-ORBListenEndpoints",
          "ssliop://" + host + ":0",
          "-ORBTLSCertificate",
          (dir_ / "server.pem").string(),
          "-ORBTLSPrivateKey",
          (dir_ / "server.key").string(),
          "-ORBTLSCAFile",
          (dir_ / "ca.pem").string(),
          "-ORBTLSClientCertificates",
          "require"};
}

std::vector<std::string> tls_material::client_args() const {
  return {"-ORBTLSCAFile",     (dir_ / "ca.pem").string(),    "-ORBTLSCertificate", (dir_ / "client.pem").string(),
          "-ORBTLSPrivateKey", (dir_ / "client.key").string()};
}

std::vector<std::string> tls_material::omni_args() const { return {"--ssl", dir_.string()}; }

}  // namespace switchyard::bench
