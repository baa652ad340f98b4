// The active side of ssliop: a TCP connection (iiop::connect), then the whole TLS handshake as the
// client, verifying the server's certificate against the CAs and the endpoint's host or address.
#pragma once

#include <memory>

#include "transports/endpoint.h"
#include "transports/ssliop/ssliop_connection.h"
#include "transports/transport_options.h"

namespace switchyard::transports::ssliop {

// Connects to `where` and completes the handshake within options.connect_timeout (or, without
// one, the TLS settings' handshake timeout). Throws as iiop::connect does, NO_PERMISSION
// minor::peer_not_verified for a server whose certificate does not verify, TRANSIENT
// minor::tls_handshake_failed for other handshake failures, BAD_PARAM minor::tls_setup without
// options.tls.
std::unique_ptr<connection> connect(const endpoint& where, const transport_options& options);

}  // namespace switchyard::transports::ssliop
