// The UIOP transport object: the registry entry that makes uiop connections and acceptors.
#pragma once

#include "transports/transport.h"

namespace switchyard::transports::uiop {

class transport final : public transports::transport {
 public:
  protocol kind() const noexcept override { return protocol::uiop; }
  std::unique_ptr<transports::connection> connect(const endpoint& where,
                                                  const transport_options& options) const override;
  std::unique_ptr<transports::acceptor> open_acceptor(const endpoint& where,
                                                      const transport_options& options) const override;
};

}  // namespace switchyard::transports::uiop
