// OpenSSL's own cost of a null call's TLS records, without sockets or the ORB: a client and a
// server SSL object joined by a BIO pair (memory), TLS 1.3 with mutual authentication and the
// certificates scripts/make-tls-certs writes; each round trip the client writes 100 bytes (the
// null call's GIOP request), the server reads them and writes 24 (its reply), the client reads
// them: four records, as sy-bench latency's null call over ssliop. Prints ns per round trip
// (median of 20 batches), then the same with ERR_clear_error() before each call, as
// transports/ssliop does. docs/experiments.md, "TLS". Usage (pin it):
//   taskset -c 0 tls_records CERT_DIR [TLS 1.3 cipher suite]
#include <openssl/err.h>
#include <openssl/ssl.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

namespace {

SSL_CTX* context(bool server, const std::string& dir, const char* suite) {
  SSL_CTX* made = SSL_CTX_new(server ? TLS_server_method() : TLS_client_method());
  const std::string name = server ? "server" : "client";
  if (made == nullptr || SSL_CTX_use_certificate_chain_file(made, (dir + "/" + name + ".pem").c_str()) != 1 ||
      SSL_CTX_use_PrivateKey_file(made, (dir + "/" + name + ".key").c_str(), SSL_FILETYPE_PEM) != 1 ||
      SSL_CTX_load_verify_locations(made, (dir + "/ca.pem").c_str(), nullptr) != 1 ||
      (suite != nullptr && SSL_CTX_set_ciphersuites(made, suite) != 1))
    return nullptr;
  SSL_CTX_set_verify(made, server ? SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT : SSL_VERIFY_PEER, nullptr);
  return made;
}

template <class Step>
double median_ns(Step step) {
  std::vector<double> batches;
  for (int batch = 0; batch < 20; ++batch) {
    constexpr int calls = 20000;
    auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < calls; ++i)
      if (!step()) return -1;
    batches.push_back(std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count() /
                      calls);
  }
  std::sort(batches.begin(), batches.end());
  return batches[batches.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: tls_records CERT_DIR [TLS 1.3 cipher suite]\n");
    return 2;
  }
  const char* suite = argc > 2 ? argv[2] : nullptr;
  SSL_CTX* server_context = context(true, argv[1], suite);
  SSL_CTX* client_context = context(false, argv[1], suite);
  if (server_context == nullptr || client_context == nullptr) {
    ERR_print_errors_fp(stderr);
    return 1;
  }
  SSL* server = SSL_new(server_context);
  SSL* client = SSL_new(client_context);
  BIO* client_end = nullptr;
  BIO* server_end = nullptr;
  BIO_new_bio_pair(&client_end, 1 << 17, &server_end, 1 << 17);
  SSL_set_bio(client, client_end, client_end);
  SSL_set_bio(server, server_end, server_end);
  SSL_set_connect_state(client);
  SSL_set_accept_state(server);
  for (int i = 0; i < 100 && !(SSL_is_init_finished(client) && SSL_is_init_finished(server)); ++i) {
    SSL_do_handshake(client);
    SSL_do_handshake(server);
  }
  char request[100] = {}, reply[24] = {}, got[256];
  std::size_t n = 0;
  auto round_trip = [&] {
    return SSL_write_ex(client, request, sizeof request, &n) == 1 && SSL_read_ex(server, got, sizeof got, &n) == 1 &&
           n == sizeof request && SSL_write_ex(server, reply, sizeof reply, &n) == 1 &&
           SSL_read_ex(client, got, sizeof got, &n) == 1 && n == sizeof reply;
  };
  if (!round_trip()) {  // also takes the server's post-handshake messages
    std::fprintf(stderr, "tls_records: the handshake or the first round trip failed\n");
    ERR_print_errors_fp(stderr);
    return 1;
  }
  const double plain = median_ns(round_trip);
  const double cleared = median_ns([&] {
    ERR_clear_error();
    bool ok = SSL_write_ex(client, request, sizeof request, &n) == 1;
    ERR_clear_error();
    ok = ok && SSL_read_ex(server, got, sizeof got, &n) == 1;
    ERR_clear_error();
    ok = ok && SSL_write_ex(server, reply, sizeof reply, &n) == 1;
    ERR_clear_error();
    return ok && SSL_read_ex(client, got, sizeof got, &n) == 1;
  });
  std::printf("%s, %s: %.0f ns per round trip (4 records), %.0f ns with ERR_clear_error before each call\n",
              OpenSSL_version(OPENSSL_VERSION), SSL_get_cipher(client), plain, cleared);
  SSL_free(client);
  SSL_free(server);
  SSL_CTX_free(client_context);
  SSL_CTX_free(server_context);
  return plain > 0 && cleared > 0 ? 0 : 1;
}
