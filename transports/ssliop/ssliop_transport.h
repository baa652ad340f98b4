// The ssliop transport object: the registry entry that makes TLS connections and acceptors.
#pragma once

#include "transports/transport.h"

namespace switchyard::transports::ssliop {

class transport final : public transports::transport {
 public:
  protocol kind() const noexcept override { return protocol::ssliop; }
  std::unique_ptr<transports::connection> connect(const endpoint& where,
                                                  const transport_options& options) const override;
  std::unique_ptr<transports::acceptor> open_acceptor(const endpoint& where,
                                                      const transport_options& options) const override;
};

}  // namespace switchyard::transports::ssliop
