// The passive side of IIOP: a listening TCP socket (ACE_SOCK_Acceptor underneath, non-blocking).
// No ACE here: the socket is kept as its handle.
#pragma once

#include <memory>

#include "transports/acceptor.h"
#include "transports/iiop/iiop_connection.h"
#include "transports/transport_options.h"

namespace switchyard::transports::iiop {

class acceptor final : public transports::acceptor {
 public:
  // Binds and listens on `where` (port 0: any free port). Throws BAD_PARAM (minor::bad_endpoint)
  // if the endpoint cannot be opened.
  acceptor(const endpoint& where, const transport_options& options);
  ~acceptor() override;

  // The concrete forms of accept()/try_accept().
  std::unique_ptr<iiop::connection> accept_connection();
  std::unique_ptr<iiop::connection> try_accept_connection();

  std::unique_ptr<transports::connection> accept() override { return accept_connection(); }
  std::unique_ptr<transports::connection> try_accept() override { return try_accept_connection(); }
  const endpoint& local_endpoint() const noexcept override { return local_; }
  native_handle handle() const noexcept override { return handle_; }
  void close() noexcept override;

 private:
  native_handle handle_ = invalid_handle;
  endpoint local_;
  transport_options options_;
};

}  // namespace switchyard::transports::iiop
