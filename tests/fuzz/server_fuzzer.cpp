// libFuzzer target: a live server. Each input goes over a new connection (a UNIX stream socket)
// to an ORB serving a test probe, in one of four concurrency models chosen by the input's first
// octet; then the connection is half-closed and drained until the server ends it. The inputs reach
// every layer a peer reaches: framing, reassembly, the request header, demultiplexing, the
// skeletons' demarshaling, the reply path, the limits. Every 128 inputs a well-formed request on a
// fresh connection must still be answered in every model. The seeds are real requests
// (make_server_seeds.py, run by scripts/fuzz).
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

#include "switchyard/exception.h"
#include "switchyard/orb.h"
#include "tests/core/orb_fixture.h"

namespace {

struct served_orb {
  std::shared_ptr<switchyard::orb> orb;
  switchyard::object_ref probe;
  std::string path;
  std::thread thread;
};

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
    for (std::size_t i = 0; i < models.size(); ++i) {
      served_orb s;
      s.path = dir + "/orb" + std::to_string(i);
      auto args = model_options(models[i]);
      // Small limits: a fuzzer's inputs are small, and memory must stay small.
      args.insert(args.end(), {"-ORBListenEndpoints", "uiop://" + s.path, "-ORBMaxMessageSize", "1048576",
                               "-ORBMaxBufferedBytes", std::to_string(32u << 20), "-ORBMessageTimeout", "2000"});
      s.orb = switchyard::orb_init(args);
      s.probe = s.orb->root_adapter().activate_with_id("probe", std::make_shared<test::test_probe>());
      s.orb->bind_key("probe", s.probe);  // the seeds (make_server_seeds.py) name it by this key
      s.orb->root_adapter().activate_with_id("ttcp", std::make_shared<test::recording_ttcp>());
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

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto& all = servers();
  static std::size_t inputs = 0;
  if (size == 0) return 0;
  const served_orb& target = all[data[0] % all.size()];
  exchange(target.path, data + 1, size - 1, nullptr);
  if (++inputs % 128 == 0) check_still_serving();
  return 0;
}
