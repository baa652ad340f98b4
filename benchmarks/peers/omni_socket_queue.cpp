#include "omni_socket_queue.h"

#include <omniORB4/CORBA.h>
#include <omniORB4/omniInterceptors.h>
// omniORB internals, in this order: GIOP_C needs giopStream complete.
// clang-format off
#include <omniORB4/internal/giopStrand.h>
#include <omniORB4/internal/giopStream.h>
#include <omniORB4/internal/GIOP_C.h>
// clang-format on
#include <omniORB4/tcpConnection.h>

#include <dlfcn.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <atomic>
#include <cstdio>
#include <cstring>

namespace switchyard::bench {
namespace {

// Set once before any connection exists, read by omniORB's threads afterwards.
std::atomic<int> queue_bytes{0};
std::atomic<bool> report{false};
// What getsockopt(SO_RCVBUF) gave on the last socket set before its handshake (Linux doubles Q).
std::atomic<int> rcvbuf_set_before_handshake{0};

// Sets both queues on a TCP socket about to listen or connect: the SYN then carries the window
// scale and the first window that fit Q, and accepted sockets inherit the listener's sizes.
void set_before_handshake(int fd) {
  int bytes = queue_bytes.load(std::memory_order_relaxed);
  if (bytes <= 0) return;
  int type = 0;
  sockaddr_storage address{};
  socklen_t length = sizeof type;
  if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &length) != 0 || type != SOCK_STREAM) return;
  length = sizeof address;
  if (getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) return;
  if (address.ss_family != AF_INET && address.ss_family != AF_INET6) return;
  setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &bytes, sizeof bytes);
  setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &bytes, sizeof bytes);
  int effective = 0;
  length = sizeof effective;
  if (getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &effective, &length) == 0) rcvbuf_set_before_handshake = effective;
}

template <typename Function>
Function* next_definition(const char* name) {
  return reinterpret_cast<Function*>(dlsym(RTLD_NEXT, name));
}

// Returns nullptr on success, otherwise why it failed.
const char* apply(omni::giopConnection* connection, const char* role) {
  auto* tcp = dynamic_cast<omni::tcpConnection*>(connection);
  if (tcp == nullptr) return "not a TCP connection";
  int fd = tcp->handle();
  int bytes = queue_bytes.load(std::memory_order_relaxed);
  // Only check here: shrinking SO_RCVBUF after the handshake stalls every message larger than the
  // queue for 0.2-0.5 s (README.md, "the 8 K hang"), so the sizes must already be in place.
  int before = 0;
  socklen_t before_length = sizeof before;
  if (getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &before, &before_length) != 0 ||
      before != rcvbuf_set_before_handshake.load(std::memory_order_relaxed)) {
    return "the socket queue was not set before the TCP handshake";
  }
  if (report.load(std::memory_order_relaxed)) {
    int rcv = 0, snd = 0;
    socklen_t length = sizeof rcv;
    getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcv, &length);
    length = sizeof snd;
    getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &snd, &length);
    std::fprintf(stderr, "%s connection %s -> %s: SO_RCVBUF %d SO_SNDBUF %d (asked %d)\n", role,
                 connection->myaddress(), connection->peeraddress(), rcv, snd, bytes);
  }
  return nullptr;
}

CORBA::Boolean on_client_open(omni::omniInterceptors::clientOpenConnection_T::info_T& info) {
  if (const char* why = apply(info.giop_c.strand().connection, "client")) {
    info.reject = 1;
    info.why = why;
  }
  return 1;
}

CORBA::Boolean on_server_accept(omni::omniInterceptors::serverAcceptConnection_T::info_T& info) {
  if (const char* why = apply(info.strand.connection, "server")) {
    info.reject = 1;
    info.why = why;
  }
  return 1;
}

}  // namespace

void add_send_buffer_option(std::vector<char*>& args, int bytes) {
  // Static: ORB_init keeps pointers into argv. One ORB per process, so one call.
  static std::string flag = "-ORBsocketSendBuffer";
  static std::string value;
  value = std::to_string(bytes);
  args.push_back(flag.data());
  args.push_back(value.data());
}

void set_socket_queue_on_client_connections(int bytes, bool verbose) {
  queue_bytes = bytes;
  report = verbose;
  omniORB::getInterceptors()->clientOpenConnection.add(on_client_open);
}

void set_socket_queue_on_server_connections(int bytes, bool verbose) {
  queue_bytes = bytes;
  report = verbose;
  omniORB::getInterceptors()->serverAcceptConnection.add(on_server_accept);
}

}  // namespace switchyard::bench

// omniORB creates, binds and connects its sockets itself and offers no hook before the handshake,
// so the peers define listen() and connect(): libomniORB4's calls bind to these (an executable's
// definitions come first), which set the queues and go on to the C library's.
extern "C" int listen(int fd, int backlog) {
  static auto* real = switchyard::bench::next_definition<int(int, int)>("listen");
  switchyard::bench::set_before_handshake(fd);
  return real(fd, backlog);
}

extern "C" int connect(int fd, const sockaddr* address, socklen_t length) {
  static auto* real = switchyard::bench::next_definition<int(int, const sockaddr*, socklen_t)>("connect");
  switchyard::bench::set_before_handshake(fd);
  return real(fd, address, length);
}
