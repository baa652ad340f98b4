#include "transports/iiop/iiop_transport.h"

#include "transports/iiop/iiop_acceptor.h"
#include "transports/iiop/iiop_connector.h"

namespace switchyard::transports::iiop {

std::unique_ptr<transports::connection> transport::connect(const endpoint& where,
                                                           const transport_options& options) const {
  return iiop::connect(where, options);
}

std::unique_ptr<transports::acceptor> transport::open_acceptor(const endpoint& where,
                                                               const transport_options& options) const {
  return std::make_unique<iiop::acceptor>(where, options);
}

}  // namespace switchyard::transports::iiop
