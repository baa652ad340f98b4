// What the robustness suite needs around the server it attacks: the server in a child process
// (alive? memory? CPU? its log), raw peers on plain sockets that misbehave on purpose, GIOP
// messages built with the ORB's own encoders, and a well-behaved client that keeps calling and
// counts its failures. Every wait here is bounded.
#pragma once

#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>

#include "orb/giop/messages.h"
#include "orb/giop/protocol.h"
#include "switchyard/cdr/output_stream.h"
#include "switchyard/exception.h"
#include "switchyard/orb.h"
#include "tests/core/hand_interfaces.h"

namespace robustness {

using namespace std::chrono_literals;

// The models every scenario runs against, with the -ORB options that choose them.
inline std::vector<std::string> model_options(const std::string& model) {
  if (model == "thread-pool") return {"-ORBThreads", "4"};
  return {"-ORBConcurrency", model};
}

// Short limits, so that each scenario sees them act within seconds.
inline std::vector<std::string> test_limits() {
  return {"-ORBMessageTimeout", "1500", "-ORBIdleTimeout",      "3000",
          "-ORBSendTimeout",    "1500", "-ORBMaxBufferedBytes", std::to_string(64u << 20),
          "-ORBMaxConnections", "4000"};
}

// The descriptor limit raised as far as allowed (a thousand peers need a thousand descriptors).
inline std::size_t raise_descriptor_limit() {
  rlimit limit{};
  ::getrlimit(RLIMIT_NOFILE, &limit);
  limit.rlim_cur = limit.rlim_max;
  ::setrlimit(RLIMIT_NOFILE, &limit);
  ::getrlimit(RLIMIT_NOFILE, &limit);
  return limit.rlim_cur;
}

// robust_server in a child process. The constructor waits (at most 10 s) for its address.
class server_process {
 public:
  explicit server_process(std::vector<std::string> args, std::string max_files = "") {
    char dir_pattern[] = "/tmp/sy_robust_XXXXXX";
    dir_ = ::mkdtemp(dir_pattern);
    const std::string out = dir_ + "/server.txt";
    log_ = dir_ + "/server.log";
    std::vector<std::string> argv{ROBUST_SERVER, "--out", out};
    if (!max_files.empty()) {
      argv.push_back("--max-files");
      argv.push_back(max_files);
    }
    argv.insert(argv.end(), args.begin(), args.end());
    pid_ = ::fork();
    if (pid_ == 0) {
      const int log = ::open(log_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      ::dup2(log, 2);
      std::vector<char*> raw;
      for (auto& a : argv) raw.push_back(a.data());
      raw.push_back(nullptr);
      ::execv(raw[0], raw.data());
      ::_exit(127);
    }
    for (int i = 0; i < 500; ++i) {
      std::ifstream in(out);
      std::string key, value;
      while (in >> key >> value) fields_[key] = value;
      if (fields_.count("port")) break;
      std::this_thread::sleep_for(20ms);
    }
    if (!fields_.count("port")) throw std::runtime_error("robust_server did not start: " + log());
  }
  ~server_process() {
    if (pid_ > 0) {
      ::kill(pid_, SIGTERM);
      for (int i = 0; i < 250 && !exited_; ++i) {
        poll_exit();
        if (!exited_) std::this_thread::sleep_for(20ms);
      }
      if (!exited_) {
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, nullptr, 0);
      }
    }
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }

  const std::string& probe_ior() { return fields_.at("probe"); }
  std::uint16_t port() const { return static_cast<std::uint16_t>(std::stoi(fields_.at("port"))); }
  // The ssliop port, when the server listens on one.
  std::uint16_t tls_port() const { return static_cast<std::uint16_t>(std::stoi(fields_.at("tls_port"))); }
  std::vector<std::byte> probe_key() const {
    const std::string& text = fields_.at("probe_key");
    std::vector<std::byte> key;
    for (std::size_t i = 0; i + 1 < text.size(); i += 2)
      key.push_back(static_cast<std::byte>(std::stoi(text.substr(i, 2), nullptr, 16)));
    return key;
  }

  void signal(int number) const { ::kill(pid_, number); }
  // Still running (not exited, not killed by a signal).
  bool alive() {
    poll_exit();
    return !exited_;
  }
  std::string exit_description() const {
    if (!exited_) return "running";
    if (WIFSIGNALED(status_)) return "killed by signal " + std::to_string(WTERMSIG(status_));
    return "exited with " + std::to_string(WEXITSTATUS(status_));
  }
  // Kilobytes of resident memory now, and the most it has ever had (VmHWM).
  std::size_t rss_kb() const { return status_field("VmRSS:"); }
  std::size_t peak_rss_kb() const { return status_field("VmHWM:"); }
  std::size_t threads() const { return status_field("Threads:"); }
  // CPU time used so far (user + system), from /proc/PID/stat.
  std::chrono::milliseconds cpu_time() const {
    std::ifstream in("/proc/" + std::to_string(pid_) + "/stat");
    std::string line;
    std::getline(in, line);
    std::istringstream fields(line.substr(line.rfind(')') + 2));
    std::string skip;
    for (int i = 0; i < 11; ++i) fields >> skip;  // state .. cmajflt
    long user = 0, system = 0;
    fields >> user >> system;
    return std::chrono::milliseconds((user + system) * 1000 / ::sysconf(_SC_CLK_TCK));
  }
  std::string log() const {
    std::ifstream in(log_);
    std::stringstream all;
    all << in.rdbuf();
    return all.str();
  }

 private:
  void poll_exit() {
    if (exited_ || pid_ <= 0) return;
    if (::waitpid(pid_, &status_, WNOHANG) == pid_) exited_ = true;
  }
  std::size_t status_field(const std::string& name) const {
    std::ifstream in("/proc/" + std::to_string(pid_) + "/status");
    std::string key;
    std::size_t value = 0;
    while (in >> key) {
      if (key == name) {
        in >> value;
        return value;
      }
      in.ignore(1 << 20, '\n');
    }
    return 0;
  }

  std::string dir_;
  std::string log_;
  pid_t pid_ = -1;
  bool exited_ = false;
  int status_ = 0;
  std::map<std::string, std::string> fields_;
};

// A peer on a plain TCP socket to 127.0.0.1:port, doing exactly what it is told.
class raw_peer {
 public:
  explicit raw_peer(std::uint16_t port) {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in to{};
    to.sin_family = AF_INET;
    to.sin_port = htons(port);
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    connected_ = ::connect(fd_, reinterpret_cast<sockaddr*>(&to), sizeof to) == 0;
    const int one = 1;
    ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  }
  ~raw_peer() { close(); }
  raw_peer(const raw_peer&) = delete;
  raw_peer& operator=(const raw_peer&) = delete;
  raw_peer(raw_peer&& other) noexcept : fd_(std::exchange(other.fd_, -1)), connected_(other.connected_) {}

  bool connected() const { return connected_; }
  int fd() const { return fd_; }
  // Sends all of `bytes` unless the peer is gone or `limit` passes; true if all went.
  bool send(std::span<const std::byte> bytes, std::chrono::milliseconds limit = 5000ms) {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    std::size_t done = 0;
    while (done < bytes.size()) {
      const ssize_t n = ::send(fd_, bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL | MSG_DONTWAIT);
      if (n > 0) {
        done += static_cast<std::size_t>(n);
        continue;
      }
      if (n < 0 && errno != EAGAIN && errno != EINTR) return false;
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) return false;
      pollfd ready{fd_, POLLOUT, 0};
      ::poll(&ready, 1, static_cast<int>(left.count()));
    }
    return true;
  }
  bool send(const std::string& text, std::chrono::milliseconds limit = 5000ms) {
    return send(std::as_bytes(std::span(text.data(), text.size())), limit);
  }
  // Reads until the server ends the connection (EOF or reset) or `limit` passes: true if it did.
  // What arrived before is in `received`.
  bool wait_for_end(std::chrono::milliseconds limit, std::vector<std::byte>* received = nullptr) {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    std::byte buffer[65536];
    for (;;) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) return false;
      pollfd ready{fd_, POLLIN, 0};
      if (::poll(&ready, 1, static_cast<int>(left.count())) <= 0) continue;
      const ssize_t n = ::recv(fd_, buffer, sizeof buffer, MSG_DONTWAIT);
      if (n == 0) return true;
      if (n < 0) {
        if (errno == EAGAIN || errno == EINTR) continue;
        return true;  // reset
      }
      if (received != nullptr) received->insert(received->end(), buffer, buffer + n);
    }
  }
  void close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  int fd_ = -1;
  bool connected_ = false;
};

// A GIOP 1.2 Request for `operation` on `key`, two-way, arguments written by `write_arguments`.
template <class Write>
std::vector<std::byte> make_request(std::span<const std::byte> key, std::string_view operation, std::uint32_t id,
                                    Write&& write_arguments) {
  using namespace switchyard;
  cdr::output_stream out;
  giop::request_fields fields;
  fields.request_id = id;
  fields.target = giop::target_address::by_key(key);
  fields.operation = operation;
  const giop::protocol& protocol = *giop::protocol_for(2);
  auto mark = protocol.begin_request(out, fields);
  write_arguments(out);
  auto whole = giop::protocol::finish(out, mark);
  return {whole.begin(), whole.end()};
}

// A GIOP 1.2 header of `type` declaring `body_size` octets, flags as given.
inline std::vector<std::byte> make_header(std::uint8_t type, std::uint32_t body_size, std::uint8_t flags = 1) {
  std::vector<std::byte> header{std::byte{'G'}, std::byte{'I'}, std::byte{'O'},   std::byte{'P'},
                                std::byte{1},   std::byte{2},   std::byte{flags}, std::byte{type}};
  for (int i = 0; i < 4; ++i) header.push_back(static_cast<std::byte>((body_size >> (8 * i)) & 0xff));  // little-endian
  return header;
}

// A client of our own ORB that calls echo_long back to back (a pause between calls) until
// stopped, counting calls and failures; each call may take at most 5 s.
class good_client {
 public:
  explicit good_client(const std::string& ior, std::vector<std::string> options = {}) {
    options.insert(options.end(), {"-ORBCallTimeout", "5000"});
    orb_ = switchyard::orb_init(options);
    stub_ = std::make_unique<hand::probe_stub>(orb_->string_to_object(ior));
    stub_->echo_long(-1);  // connected before the attack starts
    thread_ = std::thread([this] {
      for (std::int32_t i = 0; !stop_.load(); ++i) {
        try {
          if (stub_->echo_long(i) != i) ++failures_;
        } catch (const switchyard::SystemException& e) {
          ++failures_;
          last_error_ = e.what();
        }
        ++calls_;
        std::this_thread::sleep_for(2ms);
      }
    });
  }
  ~good_client() { stop(); }
  void stop() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
    if (orb_) orb_->destroy();
    orb_.reset();
  }
  int calls() const { return calls_; }
  int failures() const { return failures_; }
  std::string last_error() const { return last_error_; }

 private:
  std::shared_ptr<switchyard::orb> orb_;
  std::unique_ptr<hand::probe_stub> stub_;
  std::thread thread_;
  std::atomic<bool> stop_{false};
  std::atomic<int> calls_{0};
  std::atomic<int> failures_{0};
  std::string last_error_;
};

// Under a sanitizer the server's resident memory is mostly shadow memory and quarantine: the
// memory bounds are checked by the plain build only; everything else is checked in both.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool check_memory = false;
#else
inline constexpr bool check_memory = true;
#endif

inline int scale() {
  const char* text = std::getenv("ROBUSTNESS_SCALE");
  return text != nullptr && std::atoi(text) > 0 ? std::atoi(text) : 1;
}

// The server under attack and the client that must not notice.
struct arena {
  explicit arena(const std::string& model, std::vector<std::string> extra = {}, std::string max_files = "",
                 std::vector<std::string> client_options = {})
      : server(options(model, std::move(extra)), std::move(max_files)),
        client(server.probe_ior(), std::move(client_options)) {
    std::this_thread::sleep_for(100ms);  // a few calls before the attack
    base_rss_kb = server.rss_kb();
  }
  static std::vector<std::string> options(const std::string& model, std::vector<std::string> extra) {
    auto all = test_limits();
    auto chosen = model_options(model);
    all.insert(all.end(), chosen.begin(), chosen.end());
    all.insert(all.end(), extra.begin(), extra.end());
    return all;
  }
  // Survival, service to the other client, and the memory bound.
  void check(std::size_t allowed_growth_kb) {
    // The client is still served after the attack: a few more calls complete (waiting at most 10 s;
    // a loaded machine may be slow, a stalled server never gets there).
    const int calls_before = client.calls();
    for (int i = 0; i < 1000 && client.calls() < calls_before + 5; ++i) std::this_thread::sleep_for(10ms);
    INFO("server: " << server.exit_description() << "\n" << server.log());
    REQUIRE(server.alive());
    // A sanitizer build's server reports races and errors on its stderr and goes on.
    CHECK(server.log().find("Sanitizer") == std::string::npos);
    client.stop();
    INFO("client: " << client.calls() << " calls, " << client.failures()
                    << " failures; last error: " << client.last_error());
    CHECK(client.failures() == 0);
    CHECK(client.calls() >= calls_before + 5);
    INFO("peak RSS " << server.peak_rss_kb() << " kB against " << base_rss_kb << " kB before the attack");
    std::fprintf(stderr, "  %-24s peak RSS +%zu kB (bound +%zu kB), client %d calls, %d failures\n",
                 Catch::getResultCapture().getCurrentTestName().c_str(), server.peak_rss_kb() - base_rss_kb,
                 allowed_growth_kb, client.calls(), client.failures());
    if (check_memory) CHECK(server.peak_rss_kb() <= base_rss_kb + allowed_growth_kb);
  }

  server_process server;
  good_client client;
  std::size_t base_rss_kb = 0;
};

inline const char* const models[] = {"reactive", "adaptive", "thread-per-connection", "thread-pool"};

}  // namespace robustness
