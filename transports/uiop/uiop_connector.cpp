#include "transports/uiop/uiop_connector.h"

#include <ace/LSOCK_Connector.h>
#include <ace/LSOCK_Stream.h>
#include <ace/Time_Value.h>

#include <cerrno>

#include "transports/transport_errors.h"
#include "transports/uiop/uiop_address.h"

namespace switchyard::transports::uiop {

std::unique_ptr<connection> connect(const endpoint& where, const transport_options& options) {
  if (where.kind != protocol::uiop) throw_bad_endpoint(where.to_string(), "not a uiop endpoint");
  const ACE_UNIX_Addr address = to_unix_addr(where);
  ACE_Time_Value timeout;
  ACE_Time_Value* wait = nullptr;
  if (options.connect_timeout.count() > 0) {
    timeout.msec(static_cast<long>(options.connect_timeout.count()));
    wait = &timeout;
  }
  ACE_LSOCK_Connector connector;
  ACE_LSOCK_Stream stream;
  if (connector.connect(stream, address, wait) != 0) {
    const int error = errno == ETIME ? ETIMEDOUT : errno;
    stream.close();
    throw_errno(SystemExceptionKind::TRANSIENT, minor::connect_failed, CompletionStatus::no,
                "connect to " + where.to_string() + " failed", error);
  }
  std::string local_text = "uiop://(unnamed)";
  std::string peer_text = where.to_string();
  return std::make_unique<connection>(stream.get_handle(), options, std::move(local_text), std::move(peer_text));
}

}  // namespace switchyard::transports::uiop
