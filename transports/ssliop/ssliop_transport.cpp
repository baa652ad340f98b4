#include "transports/ssliop/ssliop_transport.h"

#include "transports/ssliop/ssliop_acceptor.h"
#include "transports/ssliop/ssliop_connector.h"

namespace switchyard::transports::ssliop {

std::unique_ptr<transports::connection> transport::connect(const endpoint& where,
                                                           const transport_options& options) const {
  return ssliop::connect(where, options);
}

std::unique_ptr<transports::acceptor> transport::open_acceptor(const endpoint& where,
                                                               const transport_options& options) const {
  return std::make_unique<ssliop::acceptor>(where, options);
}

}  // namespace switchyard::transports::ssliop
