// An IIOP connection: a TCP stream (IPv4 or IPv6) with TCP_NODELAY as the options say. Final, so
// code holding an iiop::connection calls the socket loops without an indirect call. No ACE.
#pragma once

#include <string>

#include "transports/socket_connection.h"

namespace switchyard::transports::iiop {

class connection final : public socket_connection {
 public:
  // Takes ownership of a connected TCP socket; applies tcp_nodelay and buffer sizes.
  connection(native_handle handle, const transport_options& options, std::string local_address,
             std::string peer_address);

  protocol kind() const noexcept override { return protocol::iiop; }
};

}  // namespace switchyard::transports::iiop
