// The pipelined AMI experiment's clients (issue 25): how many null two-way calls per second one
// connection carries with W calls outstanding, through syidl --ami's stubs (sendc_) and, beside
// them in the same run (run_pipeline.py), through a raw socket that keeps W GIOP requests in
// flight. Each prints one line, "requests_per_s <rate>", after `calls` replies (a warm-up of
// `calls` / 10 first).
//
//   ami_pipeline switchyard IOR_FILE WINDOW CALLS   sendc_sendNoParams_2way, W outstanding
//   ami_pipeline sync IOR_FILE CALLS                 sendNoParams_2way, one at a time (the stub)
//   ami_pipeline socket PORT WINDOW CALLS            raw GIOP 1.2 Requests on 127.0.0.1:PORT
//                                                    (epoll_server answers them), W in flight
//
// The server of the first two is `null_call server` (benchmarks/null_call); of the last,
// benchmarks/baselines/epoll_server. The socket client writes its requests by hand and includes
// nothing of the ORB, as the baselines do.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "switchyard/orb.h"
#include "ttcp_sequence.h"

namespace {

using clock_type = std::chrono::steady_clock;

std::size_t to_count(const char* text) {
  char* end = nullptr;
  const unsigned long long v = std::strtoull(text, &end, 10);
  if (end == text || *end != '\0' || v == 0) throw std::invalid_argument(std::string("not a positive count: ") + text);
  return static_cast<std::size_t>(v);
}

std::string read_ior(const char* path) {
  std::ifstream in(path);
  std::string ior;
  std::getline(in, ior);
  if (ior.empty()) throw std::runtime_error(std::string("no IOR in ") + path);
  return ior;
}

void print_rate(std::size_t calls, clock_type::duration took) {
  std::printf("requests_per_s %.1f\n", static_cast<double>(calls) / std::chrono::duration<double>(took).count());
}

// Counts the replies; the sender waits while `window` are outstanding.
class window_handler final : public AMI_ttcp_sequenceHandler {
 public:
  explicit window_handler(std::size_t window) : window_(window) {}
  void wait_for_room() {
    std::unique_lock lock(mutex_);
    room_.wait(lock, [&] { return outstanding_ < window_; });
    ++outstanding_;
  }
  void wait_for_all() {
    std::unique_lock lock(mutex_);
    room_.wait(lock, [&] { return outstanding_ == 0; });
  }
  std::size_t failures() {
    std::lock_guard lock(mutex_);
    return failures_;
  }

  void sendNoParams_2way() override { replied(false); }
  void sendNoParams_2way_excep(const switchyard::exception_holder&) override { replied(true); }
  void sendStructSeq_2way() override { replied(true); }
  void sendStructSeq_2way_excep(const switchyard::exception_holder&) override { replied(true); }
  void sendOctetSeq_2way() override { replied(true); }
  void sendOctetSeq_2way_excep(const switchyard::exception_holder&) override { replied(true); }

 private:
  void replied(bool failed) {
    std::lock_guard lock(mutex_);
    --outstanding_;
    if (failed) ++failures_;
    room_.notify_one();
  }
  const std::size_t window_;
  std::mutex mutex_;
  std::condition_variable room_;
  std::size_t outstanding_ = 0;
  std::size_t failures_ = 0;
};

int run_switchyard(const char* ior_file, std::size_t window, std::size_t calls) {
  auto orb = switchyard::orb_init({});
  ttcp_sequence target(orb->string_to_object(read_ior(ior_file)));
  auto handler = std::make_shared<window_handler>(window);
  auto burst = [&](std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
      handler->wait_for_room();
      target.sendc_sendNoParams_2way(handler);
    }
    handler->wait_for_all();
  };
  burst(calls / 10 + 1);
  const auto start = clock_type::now();
  burst(calls);
  const auto took = clock_type::now() - start;
  orb->destroy();
  if (handler->failures() != 0) {
    std::fprintf(stderr, "ami_pipeline: %zu calls failed\n", handler->failures());
    return 1;
  }
  print_rate(calls, took);
  return 0;
}

int run_sync(const char* ior_file, std::size_t calls) {
  auto orb = switchyard::orb_init({});
  ttcp_sequence target(orb->string_to_object(read_ior(ior_file)));
  for (std::size_t i = 0; i < calls / 10 + 1; ++i) target.sendNoParams_2way();
  const auto start = clock_type::now();
  for (std::size_t i = 0; i < calls; ++i) target.sendNoParams_2way();
  const auto took = clock_type::now() - start;
  orb->destroy();
  print_rate(calls, took);
  return 0;
}

// --- the raw socket client --------------------------------------------------------------------

void put_u32(std::vector<std::uint8_t>& out, std::uint32_t v) {
  const auto* p = reinterpret_cast<const std::uint8_t*>(&v);
  out.insert(out.end(), p, p + 4);
}

// A GIOP 1.2 Request, native (little-endian) byte order, response expected, KeyAddr `key`,
// operation sendNoParams_2way, no service contexts, no arguments; its id at octet 12.
std::vector<std::uint8_t> request_octets() {
  static const char operation[] = "sendNoParams_2way";
  const std::string key = "null";
  std::vector<std::uint8_t> m = {'G', 'I', 'O', 'P', 1, 2, 1, 0, 0, 0, 0, 0};
  put_u32(m, 0);                    // request id
  m.insert(m.end(), {3, 0, 0, 0});  // response flags, reserved
  m.insert(m.end(), {0, 0, 0, 0});  // KeyAddr, padding
  put_u32(m, static_cast<std::uint32_t>(key.size()));
  m.insert(m.end(), key.begin(), key.end());
  while (m.size() % 4 != 0) m.push_back(0);
  put_u32(m, sizeof operation);
  m.insert(m.end(), operation, operation + sizeof operation);
  while (m.size() % 4 != 0) m.push_back(0);
  put_u32(m, 0);  // service contexts
  const auto body = static_cast<std::uint32_t>(m.size() - 12);
  std::memcpy(m.data() + 8, &body, 4);
  return m;
}

bool read_exact(int fd, void* data, std::size_t size) {
  auto* p = static_cast<std::uint8_t*>(data);
  while (size > 0) {
    const ssize_t n = ::read(fd, p, size);
    if (n <= 0) return false;
    p += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

bool write_all(int fd, const std::uint8_t* p, std::size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd, p, size);
    if (n <= 0) return false;
    p += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

int run_socket(int port, std::size_t window, std::size_t calls) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  const int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    std::perror("ami_pipeline: connect");
    return 1;
  }
  std::vector<std::uint8_t> request = request_octets();
  std::uint32_t next_id = 1, expected_id = 1;
  auto send_one = [&] {
    std::memcpy(request.data() + 12, &next_id, 4);
    ++next_id;
    return write_all(fd, request.data(), request.size());
  };
  std::vector<std::uint8_t> reply;
  // Replies come back in order: the server answers one connection's requests one by one.
  auto burst = [&](std::size_t n) {
    std::size_t sent = 0, received = 0;
    while (sent < std::min(window, n))
      if (!send_one()) return false;
      else ++sent;
    while (received < n) {
      std::uint8_t header[12];
      if (!read_exact(fd, header, sizeof header)) return false;
      std::uint32_t size = 0;
      std::memcpy(&size, header + 8, 4);
      reply.resize(size);
      if (!read_exact(fd, reply.data(), size) || size < 4) return false;
      std::uint32_t id = 0;
      std::memcpy(&id, reply.data(), 4);
      if (id != expected_id++) return false;
      ++received;
      if (sent < n) {
        if (!send_one()) return false;
        ++sent;
      }
    }
    return true;
  };
  bool ok = burst(calls / 10 + 1);
  const auto start = clock_type::now();
  ok = ok && burst(calls);
  const auto took = clock_type::now() - start;
  ::close(fd);
  if (!ok) {
    std::fprintf(stderr, "ami_pipeline: the socket's replies broke off or came out of order\n");
    return 1;
  }
  print_rate(calls, took);
  return 0;
}

int usage() {
  std::fprintf(stderr,
               "usage: ami_pipeline switchyard IOR_FILE WINDOW CALLS\n"
               "       ami_pipeline sync IOR_FILE CALLS\n"
               "       ami_pipeline socket PORT WINDOW CALLS\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const std::string mode = argc > 1 ? argv[1] : "";
    if (mode == "switchyard" && argc == 5) return run_switchyard(argv[2], to_count(argv[3]), to_count(argv[4]));
    if (mode == "sync" && argc == 4) return run_sync(argv[2], to_count(argv[3]));
    if (mode == "socket" && argc == 5)
      return run_socket(static_cast<int>(to_count(argv[2])), to_count(argv[3]), to_count(argv[4]));
    return usage();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ami_pipeline: %s\n", e.what());
    return 1;
  }
}
