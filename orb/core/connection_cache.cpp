#include "orb/core/connection_cache.h"

#include <chrono>

#include "switchyard/exception.h"
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
    out.kind = where.kind == iop::transport_kind::ssliop ? transports::protocol::ssliop : transports::protocol::iiop;
    out.host = where.host;
    out.port = where.port;
    out.is_ipv6_literal = where.host.find(':') != std::string::npos;
  }
  return out;
}

}  // namespace

std::shared_ptr<client_connection> connection_cache::get(const iop::endpoint& where, call_deadline deadline) {
  {
    std::lock_guard lock(mutex_);
    auto it = connections_.find(where);
    if (it != connections_.end() && it->second->is_open()) return it->second;
  }
  transports::transport_options options = options_;
  if (deadline) {
    // The call's time left bounds the connect too; rounded up (0 ms would mean no limit).
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(*deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0)
      throw SystemException(SystemExceptionKind::TIMEOUT, minor::omg_minor(0), CompletionStatus::no,
                            "the call timeout passed before a connection to " + where.to_string() + " was made");
    if (options.connect_timeout.count() == 0 || left < options.connect_timeout) options.connect_timeout = left;
  }
  // Connect outside the lock: a slow or dead endpoint must not hold up calls to the others.
  std::unique_ptr<transports::connection> made;
  try {
    made = transports::connect(to_transport_endpoint(where), options);
  } catch (const SystemException& e) {
    if (deadline && e.kind() == SystemExceptionKind::TRANSIENT && std::chrono::steady_clock::now() >= *deadline)
      throw SystemException(SystemExceptionKind::TIMEOUT, minor::omg_minor(0), CompletionStatus::no,
                            "the call timeout passed while connecting: " + e.detail());
    throw;
  }
  auto connection = std::make_shared<client_connection>(std::move(made), max_body_size_, this, trace_);
  std::lock_guard lock(mutex_);
  auto& slot = connections_[where];
  // Another thread may have connected meanwhile: keep the first, drop ours.
  if (slot && slot->is_open()) return slot;
  slot = std::move(connection);
  return slot;
}

void connection_cache::forget(const client_connection* gone) noexcept {
  std::shared_ptr<client_connection> last;  // released after the lock
  std::lock_guard lock(mutex_);
  for (auto it = connections_.begin(); it != connections_.end(); ++it) {
    if (it->second.get() == gone) {
      last = std::move(it->second);
      connections_.erase(it);
      return;
    }
  }
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
