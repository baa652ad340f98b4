#include "transports/transport.h"

#include "transports/iiop/iiop_transport.h"
#include "transports/ssliop/ssliop_transport.h"
#include "transports/uiop/uiop_transport.h"

namespace switchyard::transports {

transport::~transport() = default;

const transport& transport_for(protocol kind) noexcept {
  static const iiop::transport iiop_transport;
  static const uiop::transport uiop_transport;
  static const ssliop::transport ssliop_transport;
  if (kind == protocol::uiop) return uiop_transport;
  if (kind == protocol::ssliop) return ssliop_transport;
  return iiop_transport;
}

std::unique_ptr<connection> connect(std::string_view where, const transport_options& options) {
  return connect(parse_endpoint(where), options);
}

std::unique_ptr<acceptor> open_acceptor(std::string_view where, const transport_options& options) {
  return open_acceptor(parse_endpoint(where), options);
}

}  // namespace switchyard::transports
