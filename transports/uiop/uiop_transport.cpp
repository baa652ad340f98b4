#include "transports/uiop/uiop_transport.h"

#include "transports/uiop/uiop_acceptor.h"
#include "transports/uiop/uiop_connector.h"

namespace switchyard::transports::uiop {

std::unique_ptr<transports::connection> transport::connect(const endpoint& where,
                                                           const transport_options& options) const {
  return uiop::connect(where, options);
}

std::unique_ptr<transports::acceptor> transport::open_acceptor(const endpoint& where,
                                                               const transport_options& options) const {
  return std::make_unique<uiop::acceptor>(where, options);
}

}  // namespace switchyard::transports::uiop
