// Socket options a transport applies to every connection it makes or accepts. The ORB core fills
// this from its -ORB options (-ORBSendBufferSize, -ORBRecvBufferSize, ...). No ACE.
#pragma once

#include <chrono>
#include <memory>

namespace switchyard::transports {

class tls_context;  // ssliop/tls_context.h

struct transport_options {
  bool tcp_nodelay = true;   // iiop only: GIOP messages are whole writes, Nagle only adds delay
  int send_buffer_size = 0;  // SO_SNDBUF in bytes; 0 leaves the OS default
  int recv_buffer_size = 0;  // SO_RCVBUF in bytes; 0 leaves the OS default
  int listen_backlog = 128;  // acceptors only
  // Longest wait for connect(); zero waits as long as the OS does.
  std::chrono::milliseconds connect_timeout{0};
  // ssliop only: certificates, CAs, verification and protocol floors (shared by every connection).
  std::shared_ptr<const tls_context> tls;
};

}  // namespace switchyard::transports
