#include "benchmarks/sy_bench/socket_sentinel.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "benchmarks/baselines/baseline_common.h"

namespace switchyard::bench {
namespace {

void send_all(int fd, const char* data, std::size_t n) {
  while (n > 0) {
    ssize_t k = ::send(fd, data, n, MSG_NOSIGNAL);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) throw std::runtime_error(std::string("socket sentinel: send: ") + std::strerror(errno));
    data += k;
    n -= static_cast<std::size_t>(k);
  }
}

void receive_all(int fd, char* data, std::size_t n) {
  while (n > 0) {
    ssize_t k = ::recv(fd, data, n, 0);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) throw std::runtime_error("socket sentinel: the baseline server closed the connection");
    data += k;
    n -= static_cast<std::size_t>(k);
  }
}

}  // namespace

socket_sentinel::socket_sentinel(const std::filesystem::path& program, const std::filesystem::path& work_dir,
                                 std::size_t request_bytes, std::size_t reply_bytes, const std::string& host)
    : server_(program, work_dir, 0, host), request_(request_bytes, 'q'), reply_(reply_bytes) {
  if (request_bytes == 0 || reply_bytes == 0) throw std::invalid_argument("socket sentinel: empty messages");
  fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd_ < 0) throw std::runtime_error(std::string("socket sentinel: socket: ") + std::strerror(errno));
  int one = 1;
  setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(server_.port()));
  if (inet_pton(AF_INET, host.c_str(), &address.sin_addr) != 1 ||
      ::connect(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    ::close(fd_);
    throw std::runtime_error("socket sentinel: cannot connect to " + host + ":" + std::to_string(server_.port()));
  }
  baselines::setup_message setup{1, static_cast<std::uint32_t>(request_bytes), static_cast<std::uint32_t>(reply_bytes),
                                 0, 0};
  send_all(fd_, reinterpret_cast<const char*>(&setup), sizeof setup);
}

socket_sentinel::~socket_sentinel() {
  if (fd_ >= 0) ::close(fd_);
}

void socket_sentinel::round_trip() {
  send_all(fd_, request_.data(), request_.size());
  receive_all(fd_, reply_.data(), reply_.size());
}

}  // namespace switchyard::bench
