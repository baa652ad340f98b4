// The active side of IIOP: connect to an endpoint (ACE_SOCK_Connector underneath). No ACE here.
#pragma once

#include <memory>

#include "transports/endpoint.h"
#include "transports/iiop/iiop_connection.h"
#include "transports/transport_options.h"

namespace switchyard::transports::iiop {

// Connects to `where`, trying each address its host resolves to in turn; gives up after
// options.connect_timeout per address when that is set. Throws TRANSIENT (minor::connect_failed)
// naming the endpoint, or BAD_PARAM (minor::bad_endpoint) for an empty host or a uiop endpoint.
std::unique_ptr<connection> connect(const endpoint& where, const transport_options& options);

}  // namespace switchyard::transports::iiop
