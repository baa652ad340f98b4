// The active side of UIOP: connect to a socket path (ACE_LSOCK_Connector underneath). No ACE.
#pragma once

#include <memory>

#include "transports/endpoint.h"
#include "transports/transport_options.h"
#include "transports/uiop/uiop_connection.h"

namespace switchyard::transports::uiop {

// Throws TRANSIENT (minor::connect_failed) naming the path if nobody listens there.
std::unique_ptr<connection> connect(const endpoint& where, const transport_options& options);

}  // namespace switchyard::transports::uiop
