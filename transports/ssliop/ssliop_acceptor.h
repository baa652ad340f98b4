// The passive side of ssliop: a TCP listener (iiop::acceptor underneath) whose accepted
// connections start TLS as the server. Nothing is read here: the handshake runs in the
// connection's first receives, on whatever thread or loop serves it.
#pragma once

#include <memory>

#include "transports/acceptor.h"
#include "transports/iiop/iiop_acceptor.h"
#include "transports/ssliop/ssliop_connection.h"
#include "transports/transport_options.h"

namespace switchyard::transports::ssliop {

class acceptor final : public transports::acceptor {
 public:
  // Listens on `where` (an ssliop endpoint). Throws BAD_PARAM minor::tls_setup without
  // options.tls or without a certificate in it, BAD_PARAM minor::bad_endpoint as iiop does.
  acceptor(const endpoint& where, const transport_options& options);

  std::unique_ptr<connection> accept_connection();
  std::unique_ptr<connection> try_accept_connection();

  std::unique_ptr<transports::connection> accept() override { return accept_connection(); }
  std::unique_ptr<transports::connection> try_accept() override { return try_accept_connection(); }
  const endpoint& local_endpoint() const noexcept override { return local_; }
  native_handle handle() const noexcept override { return tcp_->handle(); }
  void close() noexcept override { tcp_->close(); }

 private:
  std::shared_ptr<const tls_context> tls_;
  ssl_ctx_st* context_;
  std::unique_ptr<iiop::acceptor> tcp_;
  endpoint local_;
};

}  // namespace switchyard::transports::ssliop
