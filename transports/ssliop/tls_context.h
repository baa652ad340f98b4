// The TLS configuration every ssliop connection of a process shares: OpenSSL's SSL_CTX for the
// server side and for the client side, made once from tls_settings (files read, protocol floors
// and ciphers applied) so that a bad file is an error at ORB_init, not at the first call. No
// OpenSSL in this header: the contexts are opaque to the core.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

struct ssl_ctx_st;  // OpenSSL's SSL_CTX

namespace switchyard::transports {

// Whether a server asks for a client certificate.
enum class client_certificates : std::uint8_t {
  none,     // never asks
  request,  // asks; a client without one is let in, one with a bad one is refused
  require,  // refuses a client without a valid certificate during the handshake
};

struct tls_settings {
  std::string certificate_file;  // PEM: our certificate, then its chain; needed to listen
  std::string private_key_file;  // PEM; empty: the key is in certificate_file
  std::string ca_file;           // PEM CAs that sign the peers we accept
  std::string ca_path;           // a c_rehash'ed directory of CAs
  client_certificates clients = client_certificates::none;
  std::string min_protocol = "1.2";  // "1.2" or "1.3"
  std::string ciphers;               // TLS 1.2 cipher list (OpenSSL syntax); empty: OpenSSL's default
  std::string cipher_suites;         // TLS 1.3 suites; empty: OpenSSL's default
  // Client: verify the server's certificate against the CAs and the host or IP of the endpoint.
  // Off only for tests and benchmarks that say so.
  bool verify_server = true;
  // Server: how long a peer has to finish its handshake before the server closes the connection.
  std::chrono::milliseconds handshake_timeout{10000};
};

class tls_context {
 public:
  // Throws BAD_PARAM minor::tls_setup naming the file or option and OpenSSL's reason.
  explicit tls_context(tls_settings settings);
  ~tls_context();
  tls_context(const tls_context&) = delete;
  tls_context& operator=(const tls_context&) = delete;

  const tls_settings& settings() const noexcept { return settings_; }
  // The server context; throws BAD_PARAM minor::tls_setup if no certificate was given.
  ssl_ctx_st* server() const;
  ssl_ctx_st* client() const noexcept { return client_; }

 private:
  tls_settings settings_;
  ssl_ctx_st* server_ = nullptr;  // null without a certificate
  ssl_ctx_st* client_ = nullptr;
};

// OpenSSL's error queue as one line ("error:0A000086:SSL routines::certificate verify failed"),
// emptied; `fallback` when it is empty.
std::string take_tls_errors(const char* fallback);

}  // namespace switchyard::transports
