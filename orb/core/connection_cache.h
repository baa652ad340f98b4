// One client connection per endpoint, shared by every object reference to it (the papers measure
// what a connection per reference costs). A broken connection is replaced on the next request.
// Internal to orb/core. Thread-safe.
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
  connection_cache(transports::transport_options options, std::uint32_t max_body_size)
      : options_(options), max_body_size_(max_body_size) {}

  // The open connection to `where`, connecting if there is none: TRANSIENT if that fails.
  std::shared_ptr<client_connection> get(const iop::endpoint& where);

  // Closes every connection (ORB shutdown).
  void close_all() noexcept;
  std::size_t size() const;

 private:
  transports::transport_options options_;
  std::uint32_t max_body_size_;
  mutable std::mutex mutex_;
  std::unordered_map<iop::endpoint, std::shared_ptr<client_connection>, iop::endpoint_hash> connections_;
};

}  // namespace switchyard::core
