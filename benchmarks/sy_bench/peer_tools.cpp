#include "benchmarks/sy_bench/peer_tools.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>
#include <cerrno>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace switchyard::bench {
namespace {
std::atomic<int> file_counter{0};

std::filesystem::path scratch(const std::filesystem::path& dir, const std::string& stem) {
  return dir / (stem + "-" + std::to_string(getpid()) + "-" + std::to_string(file_counter++));
}

bool write_all(int fd, const char* p, std::size_t n) {
  while (n > 0) {
    ssize_t k = ::write(fd, p, n);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return false;
    p += k;
    n -= static_cast<std::size_t>(k);
  }
  return true;
}
}  // namespace

std::optional<std::filesystem::path> built_tool(const std::string& relative) {
  auto path = std::filesystem::path(self_path()).parent_path().parent_path() / relative;
  if (std::filesystem::exists(path)) return path;
  return std::nullopt;
}

baseline_server::baseline_server(const std::filesystem::path& program, const std::filesystem::path& work_dir,
                                 std::size_t socket_queue, const std::string& host) {
  auto port_file = scratch(work_dir, "baseline-port");
  std::vector<std::string> argv = {program.string(), "server", "--port-file", port_file.string(), "--host", host};
  if (socket_queue != 0) argv.insert(argv.end(), {"--socket-queue", std::to_string(socket_queue)});
  process_ = child_process::start(argv, true);
  auto lines = wait_for_lines(port_file, 1, process_, std::chrono::seconds(20));
  port_ = std::stoi(lines.front());
  std::filesystem::remove(port_file);
}

omni_server::omni_server(const std::filesystem::path& program, const std::filesystem::path& work_dir,
                         std::size_t servants, std::size_t socket_queue, const std::vector<std::string>& orb_args,
                         const std::string& host) {
  ior_file_ = scratch(work_dir, "omni").string() + ".ior";
  std::vector<std::string> argv = {program.string(), "--ior-file", ior_file_.string(), "--servants",
                                   std::to_string(servants)};
  if (host != "127.0.0.1") argv.insert(argv.end(), {"-ORBendPoint", "giop:tcp:" + host + ":0"});
  if (socket_queue != 0) argv.insert(argv.end(), {"--socket-queue", std::to_string(socket_queue)});
  argv.insert(argv.end(), orb_args.begin(), orb_args.end());
  out_file_ = scratch(work_dir, "omni-server-out");
  process_ = child_process::start(argv, true, out_file_);
  wait_for_lines(ior_file_, servants + 1, process_, std::chrono::seconds(30));
}

omni_server::~omni_server() {
  process_.stop();
  std::error_code ec;
  std::filesystem::remove(ior_file_, ec);
  std::filesystem::remove(out_file_, ec);
}

std::string run_client(const std::vector<std::string>& argv, const std::filesystem::path& work_dir,
                       std::chrono::seconds timeout) {
  auto out_file = scratch(work_dir, "client-out");
  auto child = child_process::start(argv, false, out_file);
  auto status = child.wait(timeout);
  if (!status) child.stop();
  std::ifstream in(out_file);
  std::stringstream text;
  text << in.rdbuf();
  std::filesystem::remove(out_file);
  if (!status || *status != 0)
    throw std::runtime_error(std::filesystem::path(argv.front()).filename().string() +
                             (status ? " failed (status " + std::to_string(*status) + ")" : " timed out"));
  return text.str();
}

std::vector<double> read_samples_us(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::vector<double> samples;
  double ns = 0;
  while (in >> ns) samples.push_back(ns / 1000.0);
  return samples;
}

std::optional<double> parse_seconds(const std::string& output) {
  auto at = output.find("seconds=");
  if (at == std::string::npos) return std::nullopt;
  try {
    return std::stod(output.substr(at + 8));
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

byte_counting_relay::byte_counting_relay(int upstream_port, const std::string& upstream_host)
    : upstream_port_(upstream_port), upstream_host_(upstream_host) {
  listener_ = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (bind(listener_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 || listen(listener_, 4) != 0)
    throw std::runtime_error("relay: cannot listen");
  socklen_t length = sizeof address;
  getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &length);
  port_ = ntohs(address.sin_port);
  thread_ = std::thread([this] { run(); });
}

byte_counting_relay::~byte_counting_relay() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
  close(listener_);
}

void byte_counting_relay::run() {
  int client = -1;
  while (!stop_ && client < 0) {
    pollfd p{listener_, POLLIN, 0};
    if (poll(&p, 1, 50) > 0) client = accept(listener_, nullptr, nullptr);
  }
  if (client < 0) return;
  int server = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  inet_pton(AF_INET, upstream_host_.c_str(), &address.sin_addr);
  address.sin_port = htons(static_cast<std::uint16_t>(upstream_port_));
  if (connect(server, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    close(client);
    close(server);
    return;
  }
  int one = 1;
  setsockopt(client, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  setsockopt(server, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  std::vector<char> buffer(1 << 16);
  while (!stop_) {
    pollfd p[2] = {{client, POLLIN, 0}, {server, POLLIN, 0}};
    if (poll(p, 2, 50) <= 0) continue;
    bool closed = false;
    for (int i = 0; i < 2; ++i) {
      if ((p[i].revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
      ssize_t n = read(p[i].fd, buffer.data(), buffer.size());
      if (n <= 0) {
        closed = true;
        break;
      }
      // Counted before forwarding: whoever waits for the forwarded bytes sees the count.
      (i == 0 ? to_server_ : to_client_) += static_cast<std::uint64_t>(n);
      if (!write_all(i == 0 ? server : client, buffer.data(), static_cast<std::size_t>(n))) closed = true;
    }
    if (closed) break;
  }
  close(client);
  close(server);
}

void wait_for_bytes(const byte_counting_relay& relay, std::uint64_t at_least) {
  for (int i = 0; i < 2000 && relay.to_server() < at_least; ++i)
    std::this_thread::sleep_for(std::chrono::microseconds(500));
}

std::pair<int, std::string> split_url(const std::string& url, int new_port) {
  auto at = url.find('@');
  auto colon = url.find(':', at);
  auto slash = url.find('/', at);
  if (at == std::string::npos || colon == std::string::npos || slash == std::string::npos)
    throw std::runtime_error("cannot read the server's corbaloc URL '" + url + "'");
  return {std::stoi(url.substr(colon + 1, slash - colon - 1)),
          url.substr(0, at + 1) + "127.0.0.1:" + std::to_string(new_port) + url.substr(slash)};
}

}  // namespace switchyard::bench
