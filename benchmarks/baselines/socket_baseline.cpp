// The C sockets baseline of latency and ttcp: socket, connect, accept, read and write loops, as
// the throughput paper's C version (command line in baseline_common.h).
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>
#include <cerrno>
#include <csignal>
#include <iostream>

#include "benchmarks/baselines/baseline_common.h"

namespace {

struct fd_stream {
  int fd = -1;
  bool send_n(const void* data, std::size_t n) {
    auto* p = static_cast<const char*>(data);
    while (n > 0) {
      ssize_t k = ::write(fd, p, n);
      if (k < 0 && errno == EINTR) continue;
      if (k <= 0) return false;
      p += k;
      n -= static_cast<std::size_t>(k);
    }
    return true;
  }
  bool recv_n(void* data, std::size_t n) {
    auto* p = static_cast<char*>(data);
    while (n > 0) {
      ssize_t k = ::read(fd, p, n);
      if (k < 0 && errno == EINTR) continue;
      if (k <= 0) return false;
      p += k;
      n -= static_cast<std::size_t>(k);
    }
    return true;
  }
};

void tune(int fd, std::size_t queue) {
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  if (queue != 0) {
    int q = static_cast<int>(queue);
    setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &q, sizeof q);
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &q, sizeof q);
  }
}

int serve_forever(const switchyard::baselines::arguments& a) {
  int listener = socket(AF_INET, SOCK_STREAM, 0);
  int one = 1;
  setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  tune(listener, a.socket_queue);  // accepted sockets inherit the queue sizes
  sockaddr_in address{};
  address.sin_family = AF_INET;
  if (inet_pton(AF_INET, a.host.c_str(), &address.sin_addr) != 1)
    throw std::runtime_error("--host: not an IPv4 address");
  if (bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 || listen(listener, 16) != 0)
    throw std::runtime_error("cannot listen");
  socklen_t length = sizeof address;
  getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length);
  switchyard::baselines::write_port_file(a.port_file, ntohs(address.sin_port));
  for (;;) {
    int fd = accept(listener, nullptr, nullptr);
    if (fd < 0) {
      if (errno == EINTR) continue;
      return 1;
    }
    tune(fd, a.socket_queue);
    fd_stream stream{fd};
    switchyard::baselines::serve(stream);
    close(fd);
  }
}

fd_stream connect_to(const switchyard::baselines::arguments& a) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  tune(fd, a.socket_queue);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  if (inet_pton(AF_INET, a.host.c_str(), &address.sin_addr) != 1)
    throw std::runtime_error("--host: not an IPv4 address");
  address.sin_port = htons(static_cast<std::uint16_t>(a.port));
  if (connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0)
    throw std::runtime_error("cannot connect to " + a.host + ":" + std::to_string(a.port));
  return fd_stream{fd};
}

}  // namespace

int main(int argc, char** argv) {
  std::signal(SIGPIPE, SIG_IGN);
  try {
    auto a = switchyard::baselines::parse_arguments(argc, argv);
    if (a.command == "server") return serve_forever(a);
    auto stream = connect_to(a);
    int status = a.command == "latency" ? switchyard::baselines::run_latency(stream, a)
                 : a.command == "ttcp"  ? switchyard::baselines::run_ttcp(stream, a)
                                        : throw std::runtime_error("unknown command " + a.command);
    close(stream.fd);
    return status;
  } catch (const std::exception& e) {
    std::cerr << "socket_baseline: " << e.what() << "\n";
    return 1;
  }
}
