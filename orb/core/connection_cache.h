// One client connection per endpoint, shared by every object reference to it (the papers measure
// what a connection per reference costs). A connection that breaks leaves the cache at once
// (client_connection tells it), so the next request connects anew. Internal to orb/core.
// Thread-safe.
#pragma once

#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "orb/core/client_connection.h"
#include "orb/ior/object_reference.h"
#include "transports/transport_options.h"

namespace switchyard::core {

class connection_cache {
 public:
  // `trace`, if any, gets every connection's events (-ORBTrace); it outlives the cache.
  connection_cache(transports::transport_options options, std::uint32_t max_body_size, message_trace* trace = nullptr)
      : options_(options), max_body_size_(max_body_size), trace_(trace) {}

  // The open connection to `where`, connecting if there is none: TRANSIENT if that fails. A
  // connect waits no longer than -ORBConnectTimeout, nor past `deadline` (then TIMEOUT,
  // completed NO).
  std::shared_ptr<client_connection> get(const iop::endpoint& where, call_deadline deadline = std::nullopt);

  // Removes `gone` if it is still cached (it broke). Never called with a connection's lock held.
  void forget(const client_connection* gone) noexcept;

  // Closes every connection (ORB shutdown).
  void close_all() noexcept;
  std::size_t size() const;

 private:
  transports::transport_options options_;
  std::uint32_t max_body_size_;
  message_trace* trace_;
  mutable std::mutex mutex_;
  std::unordered_map<iop::endpoint, std::shared_ptr<client_connection>, iop::endpoint_hash> connections_;
};

}  // namespace switchyard::core
