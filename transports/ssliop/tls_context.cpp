#include "transports/ssliop/tls_context.h"

#include <openssl/err.h>
#include <openssl/ssl.h>

#include "switchyard/exception.h"

namespace switchyard::transports {

namespace {

[[noreturn]] void throw_setup(const std::string& what) {
  throw SystemException(SystemExceptionKind::BAD_PARAM, minor::tls_setup, CompletionStatus::no,
                        what + ": " + take_tls_errors("invalid"));
}

int protocol_floor(const std::string& text) {
  if (text == "1.2") return TLS1_2_VERSION;
  if (text == "1.3") return TLS1_3_VERSION;
  throw SystemException(SystemExceptionKind::BAD_PARAM, minor::tls_setup, CompletionStatus::no,
                        "TLS protocol floor '" + text + "': expected 1.2 or 1.3");
}

const std::string default_cipher_suites = "TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256";

// What both sides share: the floor, the ciphers, the CAs, no renegotiation, no compression.
SSL_CTX* make_context(const tls_settings& settings, bool server) {
  SSL_CTX* context = SSL_CTX_new(server ? TLS_server_method() : TLS_client_method());
  if (context == nullptr) throw_setup("creating a TLS context");
  try {
    SSL_CTX_set_min_proto_version(context, protocol_floor(settings.min_protocol));
    // Renegotiation is a way to make a server work per connection for nothing (TLS 1.2): off.
    SSL_CTX_set_options(context, SSL_OP_NO_RENEGOTIATION | SSL_OP_NO_COMPRESSION | SSL_OP_CIPHER_SERVER_PREFERENCE);
    // One read takes whatever the socket has (fewer system calls); has_buffered_input() covers
    // what it read ahead. Partial writes: a non-blocking send returns after each whole record.
    SSL_CTX_set_read_ahead(context, 1);
    SSL_CTX_set_mode(context,
                     SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER | SSL_MODE_RELEASE_BUFFERS);
    if (!settings.ciphers.empty() && SSL_CTX_set_cipher_list(context, settings.ciphers.c_str()) != 1)
      throw_setup("TLS 1.2 ciphers '" + settings.ciphers + "'");
    // TLS 1.3: AES-128-GCM first unless told otherwise (OpenSSL's default puts AES-256 first).
    const std::string& suites = settings.cipher_suites.empty() ? default_cipher_suites : settings.cipher_suites;
    if (SSL_CTX_set_ciphersuites(context, suites.c_str()) != 1) throw_setup("TLS 1.3 cipher suites '" + suites + "'");
    if (!settings.ca_file.empty() || !settings.ca_path.empty()) {
      const char* file = settings.ca_file.empty() ? nullptr : settings.ca_file.c_str();
      const char* path = settings.ca_path.empty() ? nullptr : settings.ca_path.c_str();
      if (SSL_CTX_load_verify_locations(context, file, path) != 1)
        throw_setup("TLS CAs '" + (file ? settings.ca_file : settings.ca_path) + "'");
    } else if (!server && SSL_CTX_set_default_verify_paths(context) != 1) {
      throw_setup("the system's CAs");
    }
    if (!settings.certificate_file.empty()) {
      if (SSL_CTX_use_certificate_chain_file(context, settings.certificate_file.c_str()) != 1)
        throw_setup("TLS certificate '" + settings.certificate_file + "'");
      const std::string& key =
          settings.private_key_file.empty() ? settings.certificate_file : settings.private_key_file;
      if (SSL_CTX_use_PrivateKey_file(context, key.c_str(), SSL_FILETYPE_PEM) != 1)
        throw_setup("TLS private key '" + key + "'");
      if (SSL_CTX_check_private_key(context) != 1)
        throw_setup("TLS private key '" + key + "' does not match certificate '" + settings.certificate_file + "'");
    }
    if (server) {
      int mode = SSL_VERIFY_NONE;
      if (settings.clients == client_certificates::request) mode = SSL_VERIFY_PEER;
      if (settings.clients == client_certificates::require) mode = SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT;
      SSL_CTX_set_verify(context, mode, nullptr);
      if (mode != SSL_VERIFY_NONE && settings.ca_file.empty() && settings.ca_path.empty())
        throw SystemException(SystemExceptionKind::BAD_PARAM, minor::tls_setup, CompletionStatus::no,
                              "client certificates are asked for, but no CA file or directory is given to verify them");
      // Session resumption across connections is not offered: each connection is verified anew.
      SSL_CTX_set_session_cache_mode(context, SSL_SESS_CACHE_OFF);
      SSL_CTX_set_num_tickets(context, 0);
    } else {
      SSL_CTX_set_verify(context, settings.verify_server ? SSL_VERIFY_PEER : SSL_VERIFY_NONE, nullptr);
    }
  } catch (...) {
    SSL_CTX_free(context);
    throw;
  }
  return context;
}

}  // namespace

std::string take_tls_errors(const char* fallback) {
  std::string out;
  while (const unsigned long code = ERR_get_error()) {
    char text[256];
    ERR_error_string_n(code, text, sizeof text);
    if (!out.empty()) out += "; ";
    out += text;
  }
  return out.empty() ? std::string(fallback) : out;
}

tls_context::tls_context(tls_settings settings) : settings_(std::move(settings)) {
  client_ = make_context(settings_, false);
  if (settings_.certificate_file.empty()) return;
  try {
    server_ = make_context(settings_, true);
  } catch (...) {
    SSL_CTX_free(client_);
    throw;
  }
}

tls_context::~tls_context() {
  SSL_CTX_free(server_);
  SSL_CTX_free(client_);
}

ssl_ctx_st* tls_context::server() const {
  if (server_ == nullptr)
    throw SystemException(SystemExceptionKind::BAD_PARAM, minor::tls_setup, CompletionStatus::no,
                          "an ssliop endpoint needs a certificate and key (-ORBTLSCertificate, -ORBTLSPrivateKey)");
  return server_;
}

}  // namespace switchyard::transports
