// The passive side of IIOP: a listening TCP socket, opened through ACE_SOCK_Acceptor (IPv4 or
// IPv6, port 0 for any free one); accepting is socket_acceptor's. No ACE here.
#pragma once

#include "transports/iiop/iiop_connection.h"
#include "transports/socket_acceptor.h"

namespace switchyard::transports::iiop {

class acceptor final : public socket_acceptor<iiop::connection> {
 public:
  // Binds and listens on `where` (port 0: any free port). Throws BAD_PARAM (minor::bad_endpoint)
  // if the endpoint cannot be opened.
  acceptor(const endpoint& where, const transport_options& options);

 private:
  std::unique_ptr<iiop::connection> accepted(native_handle socket) override;
};

}  // namespace switchyard::transports::iiop
