// The ACE socket-wrapper baseline of latency and ttcp: ACE_SOCK_Acceptor, ACE_SOCK_Connector and
// ACE_SOCK_Stream::send_n / recv_n, as the socket-wrappers paper (command line in baseline_common.h).
#include <ace/INET_Addr.h>
#include <ace/SOCK_Acceptor.h>
#include <ace/SOCK_Connector.h>
#include <ace/SOCK_Stream.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <csignal>
#include <iostream>

#include "benchmarks/baselines/baseline_common.h"

namespace {

struct ace_stream {
  ACE_SOCK_Stream peer;
  bool send_n(const void* data, std::size_t n) { return n == 0 || peer.send_n(data, n) == static_cast<ssize_t>(n); }
  bool recv_n(void* data, std::size_t n) { return n == 0 || peer.recv_n(data, n) == static_cast<ssize_t>(n); }
};

void tune(ACE_SOCK& socket, std::size_t queue) {
  int one = 1;
  socket.set_option(IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  if (queue != 0) {
    int q = static_cast<int>(queue);
    socket.set_option(SOL_SOCKET, SO_SNDBUF, &q, sizeof q);
    socket.set_option(SOL_SOCKET, SO_RCVBUF, &q, sizeof q);
  }
}

int serve_forever(const switchyard::baselines::arguments& a) {
  ACE_INET_Addr address(static_cast<u_short>(0), a.host.c_str());
  ACE_SOCK_Acceptor acceptor;
  if (acceptor.open(address, 1) != 0) throw std::runtime_error("cannot listen");
  tune(acceptor, a.socket_queue);
  ACE_INET_Addr bound;
  acceptor.get_local_addr(bound);
  switchyard::baselines::write_port_file(a.port_file, bound.get_port_number());
  for (;;) {
    ace_stream stream;
    if (acceptor.accept(stream.peer) != 0) continue;
    tune(stream.peer, a.socket_queue);
    switchyard::baselines::serve(stream);
    stream.peer.close();
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::signal(SIGPIPE, SIG_IGN);
  try {
    auto a = switchyard::baselines::parse_arguments(argc, argv);
    if (a.command == "server") return serve_forever(a);
    ace_stream stream;
    ACE_SOCK_Connector connector;
    ACE_INET_Addr server(static_cast<u_short>(a.port), a.host.c_str());
    // The queues are set before the handshake (the connector keeps an open handle): set after it,
    // a smaller SO_RCVBUF than the window already offered stalls the sender on a real link
    // (docs/omniorb_peers.md, "The 8 K hang").
    if (stream.peer.open(SOCK_STREAM, PF_INET, 0, 1) != 0) throw std::runtime_error("cannot open a socket");
    tune(stream.peer, a.socket_queue);
    if (connector.connect(stream.peer, server) != 0)
      throw std::runtime_error("cannot connect to " + a.host + ":" + std::to_string(a.port));
    int status = a.command == "latency" ? switchyard::baselines::run_latency(stream, a)
                 : a.command == "ttcp"  ? switchyard::baselines::run_ttcp(stream, a)
                                        : throw std::runtime_error("unknown command " + a.command);
    stream.peer.close();
    return status;
  } catch (const std::exception& e) {
    std::cerr << "ace_baseline: " << e.what() << "\n";
    return 1;
  }
}
