#include "omni_socket_queue.h"

#include <omniORB4/CORBA.h>
#include <omniORB4/omniInterceptors.h>
// omniORB internals, in this order: GIOP_C needs giopStream complete.
#include <omniORB4/internal/giopStrand.h>
#include <omniORB4/internal/giopStream.h>
#include <omniORB4/internal/GIOP_C.h>
#include <omniORB4/tcpConnection.h>

#include <sys/socket.h>

#include <atomic>
#include <cstdio>
#include <cstring>

namespace switchyard::bench {
namespace {

// Set once before any connection exists, read by omniORB's threads afterwards.
std::atomic<int> queue_bytes{0};
std::atomic<bool> report{false};

// Returns nullptr on success, otherwise why it failed.
const char* apply(omni::giopConnection* connection, const char* role) {
  auto* tcp = dynamic_cast<omni::tcpConnection*>(connection);
  if (tcp == nullptr) return "not a TCP connection";
  int fd = tcp->handle();
  int bytes = queue_bytes.load(std::memory_order_relaxed);
  if (setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &bytes, sizeof bytes) != 0) {
    return "setsockopt(SO_RCVBUF) failed";
  }
  if (setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &bytes, sizeof bytes) != 0) {
    return "setsockopt(SO_SNDBUF) failed";
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
