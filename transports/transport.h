// A transport (iiop, uiop) makes connections to and acceptors on its endpoints. The core looks
// one up by protocol, or calls connect()/open_acceptor() below with an endpoint. No ACE.
#pragma once

#include <memory>
#include <string_view>

#include "transports/acceptor.h"
#include "transports/connection.h"
#include "transports/endpoint.h"
#include "transports/transport_options.h"

namespace switchyard::transports {

class transport {
 public:
  virtual ~transport();
  virtual protocol kind() const noexcept = 0;
  // Connects; throws TRANSIENT (minor::connect_failed) if the peer cannot be reached.
  virtual std::unique_ptr<connection> connect(const endpoint& where, const transport_options& options) const = 0;
  // Opens a listening endpoint; throws BAD_PARAM (minor::bad_endpoint) if it cannot be opened
  // (address in use, no such interface, path not writable).
  virtual std::unique_ptr<acceptor> open_acceptor(const endpoint& where, const transport_options& options) const = 0;
};

// The transport for a protocol (static objects; never null).
const transport& transport_for(protocol kind) noexcept;

inline std::unique_ptr<connection> connect(const endpoint& where, const transport_options& options = {}) {
  return transport_for(where.kind).connect(where, options);
}
inline std::unique_ptr<acceptor> open_acceptor(const endpoint& where, const transport_options& options = {}) {
  return transport_for(where.kind).open_acceptor(where, options);
}
// The same from a string ("iiop://127.0.0.1:2809"); bad strings throw BAD_PARAM.
std::unique_ptr<connection> connect(std::string_view where, const transport_options& options = {});
std::unique_ptr<acceptor> open_acceptor(std::string_view where, const transport_options& options = {});

}  // namespace switchyard::transports
