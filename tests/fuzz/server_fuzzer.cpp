// libFuzzer target: a live server. Each input goes over a new connection (a UNIX stream socket)
// to an ORB serving a test probe, in one of four concurrency models chosen by the input's first
// octet; then the connection is half-closed and drained until the server ends it. With bit 2 of
// that octet set (and SY_MAKE_TLS_CERTS naming scripts/make-tls-certs), the input goes over TLS
// to the same model's ORB listening on ssliop, so the decrypted stream meets the same server, and
// a close_notify stands for the half-close. The inputs reach
// every layer a peer reaches: framing, reassembly, the request header, demultiplexing, the
// skeletons' demarshaling, the reply path, the limits. Every 128 inputs a well-formed request on a
// fresh connection must still be answered in every model. The seeds are real requests
// (make_server_seeds.py, run by scripts/fuzz).
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <openssl/err.h>
#include <openssl/ssl.h>

#include "switchyard/exception.h"
#include "switchyard/orb.h"
#include "tests/core/orb_fixture.h"

namespace {

struct served_orb {
  std::shared_ptr<switchyard::orb> orb;
  switchyard::object_ref probe;
  std::string path;
  std::uint16_t tls_port = 0;  // 0: no TLS (SY_MAKE_TLS_CERTS unset)
  std::thread thread;
};

// The test certificates, made once into `dir`; empty when SY_MAKE_TLS_CERTS is not set.
std::string make_certs(const std::string& dir) {
  const char* script = std::getenv("SY_MAKE_TLS_CERTS");
  if (script == nullptr) return {};
  const std::string certs = dir + "/certs";
  if (std::system((std::string(script) + " '" + certs + "' >/dev/null 2>&1").c_str()) != 0) {
    std::fprintf(stderr, "server_fuzzer: %s failed\n", script);
    std::abort();
  }
  return certs;
}

SSL_CTX*& tls_client_context() {
  static SSL_CTX* context = nullptr;
  return context;
}

constexpr std::array<const char*, 4> models = {"reactive", "adaptive", "thread-per-connection", "thread-pool"};

std::vector<std::string> model_options(const std::string& model) {
  if (model == "thread-pool") return {"-ORBThreads", "2"};
  return {"-ORBConcurrency", model, "-ORBDedicatedThreads", "2"};
}

std::string temp_dir() {
  char pattern[] = "/tmp/sy_server_fuzz_XXXXXX";
  return ::mkdtemp(pattern);
}

// The ORBs, started once; the object key of each one's probe (all the same id).
// Never destroyed (the atexit handler stops them instead, before exit's other work).
std::vector<served_orb>& servers() {
  static std::vector<served_orb>* all = [] {
    auto* made_list = new std::vector<served_orb>;
    auto& made = *made_list;
    const std::string dir = temp_dir();
    const std::string certs = make_certs(dir);
    if (!certs.empty()) {
      SSL_CTX* context = SSL_CTX_new(TLS_client_method());
      SSL_CTX_use_certificate_chain_file(context, (certs + "/client.pem").c_str());
      SSL_CTX_use_PrivateKey_file(context, (certs + "/client.key").c_str(), SSL_FILETYPE_PEM);
      SSL_CTX_load_verify_locations(context, (certs + "/ca.pem").c_str(), nullptr);
      SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nullptr);
      tls_client_context() = context;
    }
    for (std::size_t i = 0; i < models.size(); ++i) {
      served_orb s;
      s.path = dir + "/orb" + std::to_string(i);
      auto args = model_options(models[i]);
      if (!certs.empty())
        args.insert(args.end(), {"-ORBListenEndpoints", "ssliop://127.0.0.1:0", "-ORBTLSCertificate",
                                 certs + "/server.pem", "-ORBTLSPrivateKey", certs + "/server.key", "-ORBTLSCAFile",
                                 certs + "/ca.pem", "-ORBTLSClientCertificates", "require"});
      // Small limits: a fuzzer's inputs are small, and memory must stay small.
      args.insert(args.end(), {"-ORBListenEndpoints", "uiop://" + s.path, "-ORBMaxMessageSize", "1048576",
                               "-ORBMaxBufferedBytes", std::to_string(32u << 20), "-ORBMessageTimeout", "2000"});
      s.orb = switchyard::orb_init(args);
      // Released from the start: an input naming wait_for_release (or its operation index) must
      // not hold a servant, and with it a reactive loop, for ten seconds; blocking servants are
      // the robustness tests' business.
      auto probe = std::make_shared<test::test_probe>();
      probe->release();
      s.probe = s.orb->root_adapter().activate_with_id("probe", probe);
      s.orb->bind_key("probe", s.probe);  // the seeds (make_server_seeds.py) name it by this key
      s.orb->root_adapter().activate_with_id("ttcp", std::make_shared<test::recording_ttcp>());
      for (const auto& endpoint : s.orb->endpoints())
        if (endpoint.starts_with("ssliop://"))
          s.tls_port = static_cast<std::uint16_t>(std::stoi(endpoint.substr(endpoint.rfind(':') + 1)));
      made.push_back(std::move(s));
    }
    for (auto& s : made) s.thread = std::thread([orb = s.orb] { orb->run(); });
    // libFuzzer ends the process with exit(): the ORBs stop and their threads are joined first.
    std::atexit([] {
      for (auto& s : servers()) {
        s.orb->shutdown(false);
        if (s.thread.joinable()) s.thread.join();
        s.orb->destroy();
      }
    });
    return made_list;
  }();
  return *all;
}

int connect_to(const std::string& path) {
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_un to{};
  to.sun_family = AF_UNIX;
  std::snprintf(to.sun_path, sizeof to.sun_path, "%s", path.c_str());
  for (int attempt = 0; attempt < 200; ++attempt) {
    if (::connect(fd, reinterpret_cast<sockaddr*>(&to), sizeof to) == 0) return fd;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));  // the listener is not up yet
  }
  std::fprintf(stderr, "server_fuzzer: cannot connect to %s\n", path.c_str());
  std::abort();
}

// Sends `data`, half-closes, and reads until the server ends the connection (at most 5 s: the
// message timeout ends any half-sent message in 2).
void exchange(const std::string& path, const std::uint8_t* data, std::size_t size, std::vector<std::uint8_t>* reply) {
  const int fd = connect_to(path);
  std::size_t sent = 0;
  while (sent < size) {
    const ssize_t n = ::send(fd, data + sent, size - sent, MSG_NOSIGNAL);
    if (n <= 0) break;
    sent += static_cast<std::size_t>(n);
  }
  ::shutdown(fd, SHUT_WR);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  std::uint8_t buffer[4096];
  for (;;) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      std::fprintf(stderr, "server_fuzzer: the server did not end the connection within 5 s\n");
      std::abort();
    }
    pollfd ready{fd, POLLIN, 0};
    if (::poll(&ready, 1, static_cast<int>(left.count())) <= 0) continue;
    const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
    if (n <= 0) break;
    if (reply != nullptr) reply->insert(reply->end(), buffer, buffer + n);
  }
  ::close(fd);
}

// The same over TLS: a handshake with a client certificate, the input written as application data,
// close_notify, then reading until the server ends the connection (at most 5 s in all).
void exchange_tls(std::uint16_t port, const std::uint8_t* data, std::size_t size) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in to{};
  to.sin_family = AF_INET;
  to.sin_port = htons(port);
  to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&to), sizeof to) != 0) {
    std::fprintf(stderr, "server_fuzzer: cannot connect to the TLS port %u\n", port);
    std::abort();
  }
  // Non-blocking, so that every wait below is the bounded poll in `wait`.
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
  SSL* ssl = SSL_new(tls_client_context());
  SSL_set_fd(ssl, fd);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  auto wait = [&](int result) {
    const int error = SSL_get_error(ssl, result);
    if (error != SSL_ERROR_WANT_READ && error != SSL_ERROR_WANT_WRITE) return false;
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      std::fprintf(stderr, "server_fuzzer: the TLS server did not end the connection within 5 s\n");
      std::abort();
    }
    pollfd ready{fd, static_cast<short>(error == SSL_ERROR_WANT_READ ? POLLIN : POLLOUT), 0};
    ::poll(&ready, 1, static_cast<int>(left.count()));
    return true;
  };
  ERR_clear_error();
  int result = 0;
  while ((result = SSL_connect(ssl)) != 1)
    if (!wait(result)) break;
  if (result == 1) {
    std::size_t sent = 0;
    while (sent < size) {
      result = SSL_write(ssl, data + sent, static_cast<int>(size - sent));
      if (result > 0) sent += static_cast<std::size_t>(result);
      else if (!wait(result)) break;
    }
    SSL_shutdown(ssl);
    std::uint8_t buffer[4096];
    for (;;) {
      result = SSL_read(ssl, buffer, sizeof buffer);
      if (result <= 0 && !wait(result)) break;
    }
  }
  ERR_clear_error();
  SSL_free(ssl);
  ::close(fd);
}

// A well-formed call on a client ORB of our own: every model must still answer it.
void check_still_serving() {
  static std::shared_ptr<switchyard::orb> client = switchyard::orb_init({"-ORBCallTimeout", "5000"});
  static std::vector<hand::probe_stub> probes = [] {
    std::vector<hand::probe_stub> made;
    for (auto& s : servers()) made.emplace_back(client->string_to_object(s.orb->object_to_string(s.probe)));
    return made;
  }();
  for (std::size_t i = 0; i < probes.size(); ++i) {
    if (probes[i].echo_long(static_cast<std::int32_t>(i)) != static_cast<std::int32_t>(i)) {
      std::fprintf(stderr, "server_fuzzer: %s answered a wrong value\n", models[i]);
      std::abort();
    }
  }
}

}  // namespace

// The ORBs and the test certificates are made before the first input, so that their start (many
// seconds on a loaded machine) is not counted against the first input's time limit.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  servers();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto& all = servers();
  static std::size_t inputs = 0;
  if (size == 0) return 0;
  const served_orb& target = all[data[0] % all.size()];
  if ((data[0] & 4) != 0 && target.tls_port != 0) exchange_tls(target.tls_port, data + 1, size - 1);
  else exchange(target.path, data + 1, size - 1, nullptr);
  if (++inputs % 128 == 0) check_still_serving();
  return 0;
}
