// Socket queue sizes for omniORB connections (the TTCP papers' "socket queue": SO_SNDBUF and
// SO_RCVBUF on both ends).
//
// omniORB 4.2 has one knob of its own, -ORBsocketSendBuffer, which sets SO_SNDBUF on sockets it
// creates (the connecting socket and the listening one, whose accepted sockets inherit it); it has
// none for SO_RCVBUF. So the peers add -ORBsocketSendBuffer Q to the ORB arguments and register
// omniORB interceptors (clientOpenConnection, serverAcceptConnection) that set SO_RCVBUF and
// SO_SNDBUF to Q on every new TCP connection before its first GIOP message. Linux reports twice
// the value asked for (its bookkeeping overhead), as with any setsockopt(SO_RCVBUF).
//
// Uses omniORB's installed internal headers (giopStrand, tcpConnection) to reach the socket.
#pragma once

#include <string>
#include <vector>

namespace switchyard::bench {

// Adds "-ORBsocketSendBuffer <bytes>" to args (argv-style, not yet null-terminated). Call at most
// once per process: the strings are static.
void add_send_buffer_option(std::vector<char*>& args, int bytes);

// Registers the interceptors; call after CORBA::ORB_init. A connection whose socket cannot be set
// is rejected (the call fails with TRANSIENT), so a figure never silently uses other sizes.
// With verbose, each connection's effective sizes (getsockopt) go to stderr.
void set_socket_queue_on_client_connections(int bytes, bool verbose);
void set_socket_queue_on_server_connections(int bytes, bool verbose);

}  // namespace switchyard::bench
