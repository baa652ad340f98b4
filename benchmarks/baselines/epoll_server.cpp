// The socket baseline of `sy-bench load`: the strongest simple server of GIOP two-way calls on
// this machine, against which the ORBs' servers are measured under many connections.
//
//   epoll_server --port-file PATH [--threads N] [--port P]
//
// Listens on 127.0.0.1:P (0: any port; the port goes to PATH, written whole) and runs N event loops
// (default: one per CPU), each an epoll set, level-triggered, registrations never re-armed. The
// first loop also accepts, handing the connections round robin to the loops. Each loop reads GIOP
// 1.2 messages (the 12-octet header, then the body) and answers every Request that expects a reply
// with the octets Switchyard's server sends for a call returning void: a 24-octet GIOP 1.2 Reply,
// native byte order, the request's id, NO_EXCEPTION, no service contexts. Anything else (another
// GIOP version, a bad magic, a message over 64 MiB) closes the connection. Runs until killed.
// Includes nothing of the ORB: the reply is written out here, and the load experiment's tests
// (check_results.py) see the clients take it as a valid reply.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace {

constexpr std::size_t header_size = 12;
constexpr std::uint32_t max_body = 64u << 20;
constexpr std::uint8_t giop_request = 0, giop_reply = 1, giop_close_connection = 5;

bool host_is_little_endian() {
  std::uint16_t one = 1;
  std::uint8_t first = 0;
  std::memcpy(&first, &one, 1);
  return first == 1;
}

std::uint32_t read_ulong(const unsigned char* p, bool little_endian) {
  if (little_endian) return p[0] | (p[1] << 8) | (p[2] << 16) | (static_cast<std::uint32_t>(p[3]) << 24);
  return (static_cast<std::uint32_t>(p[0]) << 24) | (p[1] << 16) | (p[2] << 8) | p[3];
}

struct connection {
  int fd = -1;
  std::vector<unsigned char> in = std::vector<unsigned char>(4096);
  std::size_t have = 0;
  std::vector<unsigned char> out;  // replies not yet taken by the socket
  std::size_t out_sent = 0;
  bool watching_output = false;
};

struct event_loop {
  int poller = -1;
};

std::vector<event_loop> loops;

void close_connection(event_loop& loop, connection* c) {
  ::epoll_ctl(loop.poller, EPOLL_CTL_DEL, c->fd, nullptr);
  ::close(c->fd);
  delete c;
}

// Sends what is queued; false when the connection failed.
bool flush(event_loop& loop, connection* c) {
  while (c->out_sent < c->out.size()) {
    ssize_t n = ::send(c->fd, c->out.data() + c->out_sent, c->out.size() - c->out_sent, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n > 0) {
      c->out_sent += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
    return false;
  }
  bool pending = c->out_sent < c->out.size();
  if (!pending) {
    c->out.clear();
    c->out_sent = 0;
  }
  if (pending != c->watching_output) {
    epoll_event event{};
    event.events = pending ? (EPOLLIN | EPOLLOUT) : EPOLLIN;
    event.data.ptr = c;
    ::epoll_ctl(loop.poller, EPOLL_CTL_MOD, c->fd, &event);
    c->watching_output = pending;
  }
  return true;
}

// Answers the complete messages in the buffer; false when the connection must close.
bool serve_messages(connection* c) {
  static const bool native_little = host_is_little_endian();
  std::size_t at = 0, wanted = 0;
  while (c->have - at >= header_size) {
    const unsigned char* h = c->in.data() + at;
    if (std::memcmp(h, "GIOP", 4) != 0 || h[4] != 1 || h[5] != 2) return false;
    bool little = (h[6] & 1) != 0;
    std::uint32_t body = read_ulong(h + 8, little);
    if (body > max_body) return false;
    std::size_t total = header_size + body;
    if (c->have - at < total) {
      wanted = total;  // the rest is still to come: room for all of it at the front
      break;
    }
    std::uint8_t type = h[7];
    if (type == giop_close_connection) return false;
    if (type != giop_request || body < 5) return false;
    std::uint32_t request_id = read_ulong(h + header_size, little);
    bool response_expected = (h[header_size + 4] & 1) != 0;
    if (response_expected) {
      unsigned char reply[24] = {'G',       'I', 'O', 'P', 1, 2, static_cast<unsigned char>(native_little ? 1 : 0),
                                 giop_reply};
      std::uint32_t reply_body = 12, status = 0, contexts = 0;
      std::memcpy(reply + 8, &reply_body, 4);
      std::memcpy(reply + 12, &request_id, 4);
      std::memcpy(reply + 16, &status, 4);
      std::memcpy(reply + 20, &contexts, 4);
      c->out.insert(c->out.end(), reply, reply + sizeof reply);
    }
    at += total;
  }
  if (at > 0) {
    std::memmove(c->in.data(), c->in.data() + at, c->have - at);
    c->have -= at;
  }
  if (c->in.size() < wanted) c->in.resize(wanted);
  return true;
}

void on_readable(event_loop& loop, connection* c) {
  if (c->in.size() - c->have < 1024) c->in.resize(c->in.size() * 2);
  ssize_t n = ::recv(c->fd, c->in.data() + c->have, c->in.size() - c->have, MSG_DONTWAIT);
  if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return;
  if (n <= 0) {
    close_connection(loop, c);
    return;
  }
  c->have += static_cast<std::size_t>(n);
  if (!serve_messages(c) || !flush(loop, c)) close_connection(loop, c);
}

void accept_all(int listener) {
  static std::size_t next = 0;
  for (;;) {
    int fd = ::accept4(listener, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) {
      if (errno == EINTR || errno == ECONNABORTED) continue;
      if (errno == EMFILE || errno == ENFILE) std::this_thread::sleep_for(std::chrono::milliseconds(1));
      return;  // EAGAIN: all taken
    }
    int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    auto* c = new connection;
    c->fd = fd;
    epoll_event event{};
    event.events = EPOLLIN;
    event.data.ptr = c;
    auto& loop = loops[next++ % loops.size()];
    if (::epoll_ctl(loop.poller, EPOLL_CTL_ADD, fd, &event) != 0) {
      ::close(fd);
      delete c;
    }
  }
}

int listener_marker;  // the listener's epoll data: its address, never a connection's

[[noreturn]] void run_loop(std::size_t index, int listener) {
  auto& loop = loops[index];
  std::vector<epoll_event> events(256);
  for (;;) {
    int n = ::epoll_wait(loop.poller, events.data(), static_cast<int>(events.size()), -1);
    for (int i = 0; i < n; ++i) {
      if (events[i].data.ptr == &listener_marker) {
        accept_all(listener);
        continue;
      }
      auto* c = static_cast<connection*>(events[i].data.ptr);
      if (events[i].events & EPOLLOUT) {
        if (!flush(loop, c)) {
          close_connection(loop, c);
          continue;
        }
      }
      if (events[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR)) on_readable(loop, c);
    }
  }
}

[[noreturn]] void usage(const std::string& why) {
  std::cerr << "epoll_server: " << why << "\nusage: epoll_server --port-file PATH [--threads N] [--port P]\n";
  std::exit(2);
}

unsigned long number(const std::string& name, const char* text, unsigned long max) {
  char* end = nullptr;
  errno = 0;
  unsigned long n = std::strtoul(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0' || text[0] == '-' || n > max)
    usage(name + ": '" + text + "' is not a number up to " + std::to_string(max));
  return n;
}

}  // namespace

int main(int argc, char** argv) {
  std::string port_file;
  unsigned long threads = std::thread::hardware_concurrency();
  unsigned long port = 0;
  for (int i = 1; i < argc; ++i) {
    std::string name = argv[i];
    if (i + 1 >= argc) usage(name + " needs a value");
    const char* value = argv[++i];
    if (name == "--port-file") port_file = value;
    else if (name == "--threads") threads = number(name, value, 1024);
    else if (name == "--port") port = number(name, value, 65535);
    else usage("unknown option " + name);
  }
  if (port_file.empty()) usage("--port-file is required");
  if (threads == 0) threads = 1;

  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
    limit.rlim_cur = limit.rlim_max;
    ::setrlimit(RLIMIT_NOFILE, &limit);
  }
  int listener = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  int one = 1;
  ::setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  if (::bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
      ::listen(listener, SOMAXCONN) != 0) {
    std::perror("epoll_server: cannot listen");
    return 1;
  }
  socklen_t length = sizeof address;
  ::getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length);

  loops.resize(threads);
  for (auto& loop : loops) {
    loop.poller = ::epoll_create1(EPOLL_CLOEXEC);
    if (loop.poller < 0) {
      std::perror("epoll_server: epoll_create1");
      return 1;
    }
  }
  epoll_event event{};
  event.events = EPOLLIN;
  event.data.ptr = &listener_marker;
  ::epoll_ctl(loops[0].poller, EPOLL_CTL_ADD, listener, &event);

  {
    std::string temporary = port_file + ".tmp";
    std::ofstream out(temporary);
    out << ntohs(address.sin_port) << "\n";
    if (!out.flush()) {
      std::cerr << "epoll_server: cannot write " << temporary << "\n";
      return 1;
    }
    out.close();
    std::filesystem::rename(temporary, port_file);
  }
  for (std::size_t i = 1; i < loops.size(); ++i) std::thread([i, listener] { run_loop(i, listener); }).detach();
  run_loop(0, listener);
}
