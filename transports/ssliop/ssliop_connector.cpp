#include "transports/ssliop/ssliop_connector.h"

#include "switchyard/exception.h"
#include "transports/iiop/iiop_connector.h"
#include "transports/ssliop/tls_context.h"
#include "transports/transport_errors.h"

namespace switchyard::transports::ssliop {

std::unique_ptr<connection> connect(const endpoint& where, const transport_options& options) {
  if (where.kind != protocol::ssliop) throw_bad_endpoint(where.to_string(), "not an ssliop endpoint");
  if (!options.tls)
    throw SystemException(SystemExceptionKind::NO_PERMISSION, minor::peer_not_verified, CompletionStatus::no,
                          where.to_string() +
                              " is offered over TLS only, and this ORB has no TLS settings to verify "
                              "it with (-ORBTLSCAFile)");
  const auto started = std::chrono::steady_clock::now();
  endpoint tcp_end = where;
  tcp_end.kind = protocol::iiop;
  auto made =
      std::make_unique<connection>(iiop::connect(tcp_end, options), options.tls->client(), connection::side::client);
  const auto limit =
      options.connect_timeout.count() > 0 ? options.connect_timeout : options.tls->settings().handshake_timeout;
  made->handshake_as_client(where.host, options.tls->settings().verify_server, started + limit);
  return made;
}

}  // namespace switchyard::transports::ssliop
