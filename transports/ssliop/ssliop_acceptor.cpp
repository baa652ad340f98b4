#include "transports/ssliop/ssliop_acceptor.h"

#include "switchyard/exception.h"
#include "transports/ssliop/tls_context.h"
#include "transports/transport_errors.h"

namespace switchyard::transports::ssliop {

namespace {

endpoint as_tcp(endpoint where) {
  where.kind = protocol::iiop;
  return where;
}

ssl_ctx_st* server_context(const endpoint& where, const transport_options& options) {
  if (where.kind != protocol::ssliop) throw_bad_endpoint(where.to_string(), "not an ssliop endpoint");
  if (!options.tls)
    throw SystemException(SystemExceptionKind::BAD_PARAM, minor::tls_setup, CompletionStatus::no,
                          "ssliop endpoint " + where.to_string() + " without TLS settings");
  return options.tls->server();
}

}  // namespace

acceptor::acceptor(const endpoint& where, const transport_options& options)
    : tls_(options.tls),
      context_(server_context(where, options)),
      tcp_(std::make_unique<iiop::acceptor>(as_tcp(where), options)),
      local_(where) {
  local_.port = tcp_->local_endpoint().port;
}

std::unique_ptr<connection> acceptor::accept_connection() {
  return std::make_unique<connection>(tcp_->accept_connection(), context_, connection::side::server);
}

std::unique_ptr<connection> acceptor::try_accept_connection() {
  auto tcp = tcp_->try_accept_connection();
  if (!tcp) return nullptr;
  return std::make_unique<connection>(std::move(tcp), context_, connection::side::server);
}

}  // namespace switchyard::transports::ssliop
