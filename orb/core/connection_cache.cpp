#include "orb/core/connection_cache.h"

#include "transports/endpoint.h"
#include "transports/transport.h"

namespace switchyard::core {

namespace {

transports::endpoint to_transport_endpoint(const iop::endpoint& where) {
  transports::endpoint out;
  if (where.kind == iop::transport_kind::uiop) {
    out.kind = transports::protocol::uiop;
    out.path = where.path;
  } else {
    out.kind = transports::protocol::iiop;
    out.host = where.host;
    out.port = where.port;
    out.is_ipv6_literal = where.host.find(':') != std::string::npos;
  }
  return out;
}

}  // namespace

std::shared_ptr<client_connection> connection_cache::get(const iop::endpoint& where) {
  {
    std::lock_guard lock(mutex_);
    auto it = connections_.find(where);
    if (it != connections_.end() && it->second->is_open()) return it->second;
  }
  // Connect outside the lock: a slow or dead endpoint must not hold up calls to the others.
  auto connection = std::make_shared<client_connection>(
      transports::connect(to_transport_endpoint(where), options_), max_body_size_);
  std::lock_guard lock(mutex_);
  auto& slot = connections_[where];
  // Another thread may have connected meanwhile: keep the first, drop ours.
  if (slot && slot->is_open()) return slot;
  slot = std::move(connection);
  return slot;
}

void connection_cache::close_all() noexcept {
  std::lock_guard lock(mutex_);
  for (auto& [where, connection] : connections_) connection->close();
  connections_.clear();
}

std::size_t connection_cache::size() const {
  std::lock_guard lock(mutex_);
  return connections_.size();
}

}  // namespace switchyard::core
