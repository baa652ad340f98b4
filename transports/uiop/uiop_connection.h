// A UIOP connection: GIOP over a UNIX stream socket. Final, like iiop::connection. No ACE.
#pragma once

#include <string>

#include "transports/socket_connection.h"

namespace switchyard::transports::uiop {

class connection final : public socket_connection {
 public:
  // Takes ownership of a connected UNIX stream socket; applies the buffer sizes.
  connection(native_handle handle, const transport_options& options, std::string local_address,
             std::string peer_address);

  protocol kind() const noexcept override { return protocol::uiop; }
};

}  // namespace switchyard::transports::uiop
