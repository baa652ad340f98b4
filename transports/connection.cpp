#include "transports/connection.h"

#include <string>

#include "switchyard/exception.h"

namespace switchyard::transports {

connection::~connection() = default;

void connection::throw_closed_by_peer() const {
  throw SystemException(SystemExceptionKind::COMM_FAILURE, minor::connection_closed, CompletionStatus::maybe,
                        "connection closed by peer " + peer_address());
}

}  // namespace switchyard::transports
