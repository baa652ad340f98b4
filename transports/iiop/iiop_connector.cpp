#include "transports/iiop/iiop_connector.h"

#include <ace/SOCK_Connector.h>
#include <ace/SOCK_Stream.h>
#include <ace/Time_Value.h>

#include <cerrno>

#include "transports/iiop/iiop_address.h"
#include "transports/transport_errors.h"

namespace switchyard::transports::iiop {

std::unique_ptr<connection> connect(const endpoint& where, const transport_options& options) {
  if (where.kind != protocol::iiop) throw_bad_endpoint(where.to_string(), "not an iiop endpoint");
  if (where.host.empty()) throw_bad_endpoint(where.to_string(), "no host to connect to");
  if (where.port == 0) throw_bad_endpoint(where.to_string(), "port 0 cannot be connected to");

  std::string why;
  const std::vector<ACE_INET_Addr> addresses = resolve(where, why);
  if (addresses.empty())
    throw SystemException(SystemExceptionKind::TRANSIENT, minor::connect_failed, CompletionStatus::no,
                          "connect to " + where.to_string() + " failed: " + why);

  ACE_Time_Value timeout;
  ACE_Time_Value* wait = nullptr;
  if (options.connect_timeout.count() > 0) {
    timeout.msec(static_cast<long>(options.connect_timeout.count()));
    wait = &timeout;
  }

  ACE_SOCK_Connector connector;
  int last_error = 0;
  for (const ACE_INET_Addr& address : addresses) {  // e.g. ::1 then 127.0.0.1 for one name
    ACE_SOCK_Stream stream;
    ACE_Time_Value left = timeout;  // connect() may change the value it is given
    if (connector.connect(stream, address, wait ? &left : nullptr) == 0) {
      ACE_INET_Addr local;
      stream.get_local_addr(local);
      std::string local_text = to_endpoint_string(local);
      std::string peer_text = to_endpoint_string(address);
      // From here the connection owns the handle (and closes it if its setup fails).
      return std::make_unique<connection>(stream.get_handle(), options, std::move(local_text), std::move(peer_text));
    }
    last_error = errno == ETIME ? ETIMEDOUT : errno;
    stream.close();
  }
  throw_errno(SystemExceptionKind::TRANSIENT, minor::connect_failed, CompletionStatus::no,
              "connect to " + where.to_string() + " failed", last_error);
}

}  // namespace switchyard::transports::iiop
