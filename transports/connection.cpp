#include "transports/connection.h"

#include <string>

#include "switchyard/exception.h"

namespace switchyard::transports {

connection::~connection() = default;

void connection::throw_closed_by_peer() const {
  throw SystemException(SystemExceptionKind::COMM_FAILURE, minor::connection_closed, CompletionStatus::maybe,
                        "connection closed by peer " + peer_address());
}

void connection::throw_closed_part_way(std::size_t done, std::size_t size) const {
  throw SystemException(SystemExceptionKind::COMM_FAILURE, minor::connection_closed, CompletionStatus::maybe,
                        "connection closed by peer " + peer_address() + " after " + std::to_string(done) + " of " +
                            std::to_string(size) + " bytes");
}

}  // namespace switchyard::transports
